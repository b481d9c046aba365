// The figures stage on prose that writes two runs' figures side by side
// ("A vs B", "A versus B") and on a run's figure followed by its companions
// in parentheses ("5.2 tok/s (8 tokens in 1540ms, prefill 980ms)").
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const std::string kHead = "# Notes\n\n## 2025-04-02 gate bench\n\n";

// The figure sets whose first line is `line`.
std::vector<const RecordedFigure*> SetsOn(const std::vector<RecordedFigure>& figs, int line) {
  std::vector<const RecordedFigure*> out;
  for (const auto& f : figs)
    if (f.line == line) out.push_back(&f);
  return out;
}

// "3.7 tok/s (3 tokens in 801ms, prefill 2455ms)": the parentheses after a
// run's figure hold its companions, a count's time and a named part's time,
// all one row.
TEST(ReaderProsePairs, CompanionsInParenthesesAfterARunsFigureJoinItsRow) {
  const auto figs = ReadEntry(kHead, "- **small model**: 5.2 tok/s (8 tokens in 1540ms, prefill 980ms)\n"
                                     "- **large model**: 0.07 tok/s (20 tokens in 285400ms, prefill 30120ms)\n");
  const auto small = SetsOn(figs, 5);
  ASSERT_EQ(small.size(), 1u);
  const auto& m = small[0]->run.metrics;
  EXPECT_DOUBLE_EQ(m.at("tokens_per_s"), 5.2);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_NEAR(m.at("time_s"), 1.54, 1e-12);
  EXPECT_NEAR(m.at("prefill_time_s"), 0.98, 1e-12);
  const auto large = SetsOn(figs, 6);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0]->run.metrics.size(), 3u);
}

// "12.4s vs 12.6s", "about 512 ns/call versus about 3 ns/call": two runs
// compared in one clause, nothing else naming each: one row each.
TEST(ReaderProsePairs, TwoFiguresComparedWithVsAreTwoRuns) {
  const auto figs = ReadEntry(kHead,
                              "Alternating A/B over six rounds: median 12.4s vs 12.6s, a wash.\n\n"
                              "Warm dispatch costs about 512 ns/call versus about 3 ns/call for the inline path.\n");
  const auto wall = SetsOn(figs, 5);
  ASSERT_EQ(wall.size(), 2u);
  EXPECT_DOUBLE_EQ(wall[0]->run.metrics.at("time_s"), 12.4);
  EXPECT_DOUBLE_EQ(wall[1]->run.metrics.at("time_s"), 12.6);
  EXPECT_NE(wall[0]->run.config, wall[1]->run.config);
  EXPECT_EQ(SetsOn(figs, 7).size(), 2u);
}

// "(19.2s with prefetch vs 16.8s without)", "(7.1 vs 7.15s)": a comparison
// in parentheses is the two runs' figures, the first taking the second's
// unit when it writes none.
TEST(ReaderProsePairs, AComparisonInParenthesesIsTwoRuns) {
  const auto figs = ReadEntry(kHead,
                              "The cold start got worse (19.2s with prefetch vs 16.8s without).\n\n"
                              "Alternating A/B for eight rounds tied (7.1 vs 7.15s), so it was dropped.\n");
  const auto cold = SetsOn(figs, 5);
  ASSERT_EQ(cold.size(), 2u);
  EXPECT_DOUBLE_EQ(cold[0]->run.metrics.at("time_s"), 19.2);
  EXPECT_DOUBLE_EQ(cold[1]->run.metrics.at("time_s"), 16.8);
  const auto tied = SetsOn(figs, 7);
  ASSERT_EQ(tied.size(), 2u);
  EXPECT_DOUBLE_EQ(tied[0]->run.metrics.at("time_s"), 7.1);
  EXPECT_DOUBLE_EQ(tied[1]->run.metrics.at("time_s"), 7.15);
}

// "Result: 180ms/frame vs 9,300ms/frame before": a comparison a later part
// writes of figures an earlier entry's table holds ("Per-frame" 180 ms),
// both sides at once, is restated there, a time per item being its plain
// time.
TEST(ReaderProsePairs, AComparisonOfAnEarlierTablesTimesPerItemRestatesThem) {
  std::map<int, std::string> why;
  const auto kept = KeptLines(
      "# Notes\n\n## 2025-04-02 decoder bench\n\n"
      "| Model | Per-frame | Notes |\n|---|---|---|\n| int8 graph | 180 ms | capture on |\n| fp32 eager | 9,300 ms | fallback |\n\n"
      "## Ideas\n\n### Path 2: graph capture (done)\n\n- Result: 180ms/frame vs 9,300ms/frame before\n",
      &why);
  EXPECT_TRUE(kept.count(7));
  EXPECT_FALSE(kept.count(14)) << why[14];
  EXPECT_NE(why[14].find("restates"), std::string::npos) << why[14];
}

// "12.1s / **81.2 MIPS**" in one cell, "8.4s / 70.3" in the others: a
// table of time / rate pairs writes the rate's unit once; every bare second
// part is a rate in it, on its cell's row with its time.
TEST(ReaderProsePairs, ATablesTimeRatePairsShareTheRatesUnitWrittenOnce) {
  const auto figs = ReadEntry(kHead,
                              "| Machine | build A | build B |\n|---|---|---|\n"
                              "| laptop | 12.1s / **81.2 MIPS** | 8.4s / 70.3 |\n"
                              "| desktop | 20.5s / 47.9 | 13.3s / 44.1 |\n");
  int pairs = 0;
  for (const auto& f : figs) {
    if (f.run.metrics.count("time_s") == 0) continue;
    EXPECT_EQ(f.run.metrics.size(), 2u) << f.text;
    if (f.run.metrics.size() == 2) ++pairs;
    if (f.run.metrics.at("time_s") == 8.4) {
      EXPECT_DOUBLE_EQ(f.run.metrics.at("instructions_per_s"), 70.3e6);
    }
  }
  EXPECT_EQ(pairs, 4);
}

}  // namespace
}  // namespace moelog::logbook::reader
