// The progress line: runs done of all, the current run, elapsed time, and
// the time left from the FLOPs still to run.
#include "logbook/run/progress.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace moelog::logbook {
namespace {

TEST(Progress, TimeLeftFollowsTheFlopsStillToRun) {
  ProgressState s;
  s.runs_done = 1;
  s.runs_total = 4;
  s.flops_done = 1e12;
  s.flops_total = 7e12;  // the runs left are larger than the first
  s.current = "MOE-EP-002 --tokens 32768";
  EXPECT_EQ(ProgressLine(s, 100), "[runs 1/4] MOE-EP-002 --tokens 32768 | 1m40s elapsed, about 10m00s left");
}

TEST(Progress, NoEstimateBeforeTheFirstRunEnds) {
  ProgressState s;
  s.runs_total = 3;
  s.flops_total = 3e12;
  EXPECT_EQ(ProgressLine(s, 5), "[runs 0/3] | 5s elapsed, time left known after the first run");
}

TEST(Progress, LongConfigurationsAreCutAndControlBytesHidden) {
  ProgressState s;
  s.runs_total = 2;
  s.current = std::string(300, 'x') + "\033[2J";
  const std::string line = ProgressLine(s, 7200, 100);
  EXPECT_LE(line.size(), 100u);
  EXPECT_EQ(line.find('\033'), std::string::npos);
  EXPECT_EQ(Duration(7260), "2h01m");
}

TEST(Progress, WorkCountsEveryPointAndStep) {
  engine::BenchConfig c;
  c.tokens = 1024;
  c.hidden = 64;
  c.mlp_dim = 32;
  c.experts = 8;
  c.topk = 2;
  c.impl = "baseline";
  c.distribution = "both";
  c.queue_mode = "full";
  c.bench_pass = "forward";
  c.iters = 3;
  c.warmup = 1;
  const BenchWork w = WorkOf(c);
  EXPECT_EQ(w.runs, 2);
  // 2 points x (1 + 1 + 3) steps x 6 T K H M.
  EXPECT_DOUBLE_EQ(w.flops, 2 * 5 * 6.0 * 1024 * 2 * 64 * 32);
}

TEST(Progress, DrawsOnlyWhenOn) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    RunProgress off(false, f);
    off.Plan({1, 1e9});
    off.Start("x");
    off.Finish({1, 1e9});
  }
  EXPECT_EQ(std::ftell(f), 0);
  {
    RunProgress on(true, f);
    on.Plan({1, 1e9});
    on.Start("x");
  }
  EXPECT_GT(std::ftell(f), 0);
  std::fclose(f);
}

}  // namespace
}  // namespace moelog::logbook
