// Reader stage figures, shared-unit lists in prose: "fwd/bwd: 3.1/7.4 ms"
// is two figures, each the one its name gives.
#include <gtest/gtest.h>

#include "logbook/reader/figures_slash.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string Listed(const std::string& s, const std::string& label = "") {
  std::string out;
  return SlashFigureLists(s, &out, label) ? out : "(none)";
}

TEST(FiguresSlash, ListsAreWrittenOneFigureAtATime) {
  EXPECT_EQ(Listed("fwd/bwd: 2.5/6.1 ms"), "fwd 2.5 ms, bwd 6.1 ms");
  EXPECT_EQ(Listed("queue p50/p90 wait = 14/55 us here"), "queue wait p50 14 us, p90 55 us here");
  EXPECT_EQ(Listed("step 0.81/1.93 s (prefill/decode)."), "step prefill 0.81 s, decode 1.93 s.");
  EXPECT_EQ(Listed("old/new: 210 / 185 ms"), "210 ms -> 185 ms");
  EXPECT_EQ(Listed("1.7/2.9 ms", "fwd / bwd"), "fwd 1.7 ms, bwd 2.9 ms");
}

TEST(FiguresSlash, NoNamesOrNoUnitIsNoList) {
  EXPECT_EQ(Listed("took 3.1/7.4 ms overall"), "(none)");  // nothing names them
  EXPECT_EQ(Listed("fwd/bwd: 3/4 passed"), "(none)");        // no unit
  EXPECT_EQ(Listed("a/b/c: 1/2 ms"), "(none)");              // three names, two numbers
  EXPECT_EQ(Listed("ran on 2025/03/04"), "(none)");
  EXPECT_EQ(Listed("throughput 4.1/4.3 tok/s"), "(none)");
}

// A bullet of phases: one figure set, each phase named.
TEST(FiguresSlash, APhasesBulletIsOneRun) {
  const auto figs = ReadEntry("# Kernel notes\n\n",
                              "## 2026-05-06 norm backward\n\n```\npython bench_norm.py\n```\n\n"
                              "- fwd/bwd: 2.5/6.1 ms\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_NEAR(figs[0].run.metrics.at("fwd_time_s"), 2.5e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("bwd_time_s"), 6.1e-3, 1e-12);
  EXPECT_EQ(figs[0].run.decimals.at("bwd_time_s"), 1);
}

}  // namespace
}  // namespace moelog::logbook::reader
