// The progress line: runs done of all, the current run, elapsed time, and
// the time left from the FLOPs still to run.
#include "logbook/run/progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace moelog::logbook {
namespace {

TEST(Progress, TimeLeftFollowsTheFlopsStillToRun) {
  ProgressState s;
  s.runs_done = 1;
  s.runs_total = 4;
  s.flops_done = 1e12;
  s.flops_total = 7e12;  // the runs left are larger than the first
  s.seconds_per_flop = 100 / 1e12;
  s.current = "MOE-EP-002 --tokens 32768";
  EXPECT_EQ(ProgressLine(s, 100), "[runs 1/4] MOE-EP-002 --tokens 32768 | 1m40s elapsed, about 10m00s left");
}

TEST(Progress, TheRunUnderWayCountsDown) {
  ProgressState s;
  s.runs_done = 1;
  s.runs_total = 3;
  s.flops_done = 1e12;
  s.flops_total = 3e12;
  s.seconds_per_flop = 100 / 1e12;
  s.current_flops = 1e12;
  s.current_elapsed = 40;  // 60 s of it left, then 100 s for the last run
  EXPECT_EQ(ProgressLine(s, 140), "[runs 1/3] | 2m20s elapsed, about 2m40s left");
  s.current_elapsed = 500;  // over its prediction: only the last run is left
  EXPECT_EQ(ProgressLine(s, 600), "[runs 1/3] | 10m00s elapsed, about 1m40s left");
}

TEST(Progress, SmallRunsDoNotPredictLargeOnes) {
  // Three smoke tests of 1 MFLOP took 2 s each (start-up); two 60 TFLOP runs
  // are left: no rate yet, rather than one of 2e-6 s per FLOP (33,000 h).
  const std::vector<RunTime> smoke = {{2, 1e6}, {2, 1e6}, {2, 1e6}};
  EXPECT_EQ(SecondsPerFlop(smoke, 120e12, 2), 0);
  // Once one large run ends, its rate is the estimate; the smoke tests stay out.
  std::vector<RunTime> done = smoke;
  done.push_back({300, 60e12});
  EXPECT_DOUBLE_EQ(SecondsPerFlop(done, 60e12, 1), 300 / 60e12);
  // Large runs predict what small runs are left too.
  EXPECT_DOUBLE_EQ(SecondsPerFlop({{300, 60e12}}, 3e6, 3), 300 / 60e12);
  ProgressState s;
  s.runs_done = 3;
  s.runs_total = 5;
  s.flops_total = 120e12;
  EXPECT_EQ(ProgressLine(s, 6), "[runs 3/5] | 6s elapsed, time left known after a run of the size still to do");
}

TEST(Progress, RunProgressTimesEachRun) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    RunProgress on(true, f);
    on.Plan({1, 1e6});
    on.Plan({1, 60e12});
    on.Start("smoke", 1e6);
    on.Finish({1, 1e6});
    on.Start("large", 60e12);
  }
  std::rewind(f);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  EXPECT_NE(text.find("time left known after a run of the size still to do"), std::string::npos) << text;
  EXPECT_EQ(text.find("left |"), std::string::npos);
  EXPECT_EQ(text.find(", about"), std::string::npos) << text;
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
