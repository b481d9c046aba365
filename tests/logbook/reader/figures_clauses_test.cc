// Reader stage figures, clauses of one bullet: a later clause's figure of a
// metric the run lacks is the run's own ("TTFT 190.4 ms; TPOT 31.2 ms"), one
// of a metric it holds another run's; a measured span under a metric's label
// ("measured TTFT: 201.31–203.88 ms") is one figure's two ends.
#include <gtest/gtest.h>

#include "logbook/reader/blocks.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

// A running job's progress ("84% complete") and its ETA are no results; a
// finished run's share stays one.
TEST(ReaderClauses, ProgressAndAnEtaAreNoResults) {
  EXPECT_TRUE(ReadEntry("# Progress log\n\n", "## 2025-12-07 status\n\n"
                                                 "- Job 2581563 (5M baseline): 84% complete (12630/15000 epochs), ETA ~22 min\n")
                  .empty());
  const auto figs = ReadEntry("# Progress log\n\n", "## 2025-12-08 run\n\n- Finished: accuracy 84% on the held-out set\n");
  ASSERT_EQ(figs.size(), 1u);
}

// A heading that ends with its step's result in a unit of any spelling
// ("cyc") and a factor written "\u00d7", thousands grouped by spaces, states
// the entry's figures; grouped digits before no unit stay apart.
TEST(ReaderClauses, AHeadingsResultInAnySpellingIsRead) {
  const auto figs = ReadEntry("# Optimization log\n\n", "## Step 1 - fma via `valu`          123 165 cyc   1.20\u00d7\n\nCommit abc.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("cycles"), 123165);
  EXPECT_EQ(SpaceGroupedNumbers("147 734 cyc"), "147734 cyc");
  EXPECT_EQ(SpaceGroupedNumbers("sizes 64 128 256"), "sizes 64 128 256");
  EXPECT_EQ(SpaceGroupedNumbers("1 024 ms and v2 000 s"), "1024 ms and v2 000 s");
  EXPECT_TRUE(HeadingStatesFigure("Step 4 - 1338 cyc"));
  EXPECT_FALSE(StatesFigure("Step 4 - 1338 cyc"));
}

// A label ending in a setting's noun ("global timeout", "poll interval")
// sets the run up: its value is no figure; the run's own time stays one.
TEST(ReaderClauses, ATimeoutOrAnIntervalIsASetting) {
  const auto figs = ReadEntry("# Perf log\n\n", "## 2026-01-01 tuning\n\n- **global timeout: 180s** (was 120s)\n"
                                                 "- poll interval: 50ms\n- suite time: 9.4 min\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_NEAR(figs[0].run.metrics.begin()->second, 9.4 * 60, 1e-9);
}

TEST(ReaderClauses, ALaterClauseOfAnotherMetricIsTheRunsOwn) {
  const auto figs = ReadEntry("# Serving log\n\n", "## 2026-06-01 — warm protocol\n\n"
                                                   "- warm run: measured TTFT 190.4 ms; TPOT 31.2 ms.\n"
                                                   "- old path 6.20 ms; patched path takes 5.71 ms.\n");
  const RecordedFigure* warm = OnLine(figs, 5);
  ASSERT_NE(warm, nullptr);
  EXPECT_EQ(warm->run.metrics.size(), 2u);  // TTFT and TPOT on one row
  int on_six = 0;
  for (const auto& f : figs) on_six += f.line == 6 ? 1 : 0;
  EXPECT_EQ(on_six, 1);  // the second time is another run's, nothing names it: not on the first's row
}

TEST(ReaderClauses, AMeasuredSpanUnderAMetricsLabelIsOneFigure) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Serving log\n\n", "## 2026-06-02 — smoke test\n\n"
                                                   "- prompt: 15 tokens;\n- measured TTFT: 201.31–203.88 ms;\n"
                                                   "- decode speed: 29.12–29.40 tok/s;\n",
                              &unread);
  const RecordedFigure* ttft = OnLine(figs, 6);
  ASSERT_NE(ttft, nullptr);
  EXPECT_EQ(ttft->run.metrics.size(), 4u);  // both ends of both spans: the smoke test's one run
  EXPECT_EQ(OnLine(figs, 7), ttft);
}

TEST(ReaderClauses, ARoughSpanOfWholeNumbersStaysUnread) {
  const auto figs = ReadEntry("# Serving log\n\n", "## 2026-06-03 — cache\n\n- warm call time: 2-4 ms\n");
  EXPECT_EQ(OnLine(figs, 5), nullptr);
}

// "we get a validation loss of 1.385": a metric's name before "of" names
// its figure; "3.1 ms of a 12 ms step" still makes the figure after "of" a whole.
TEST(ReaderClauses, ANameBeforeOfNamesItsFigure) {
  const auto figs = ReadEntry("# Tuning\n\n", "## 2026-03-02 No positional encoding\n\n"
                                               "With the tuned rate we get a validation loss of 1.385 on the held-out set.\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto whole = ReadEntry("# Tuning\n\n", "## 2026-03-02 Router\n\n"
                                                "Routing takes 3.1 ms of a 12.4 ms step.\n");
  EXPECT_TRUE(whole.empty());  // a part and its whole: neither a run
}

// "- 2B base: 65.1%" beside "- 4B base: 76.9%": a list whose items each give
// one share no word names holds a share of each run (`value_pct`); a lone
// "- base: 65.1%" names nothing.
TEST(ReaderClauses, AListOfUnnamedSharesIsARowPerItem) {
  auto figs = ReadEntry("# LoRA log\n\n", "## 2026-03-02 size sweep\n\n- 2B base: 65.1%\n- 2B + LoRA: 51.5% (-13.6pp)\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("value_pct"), 51.5);
  figs = ReadEntry("# LoRA log\n\n", "## 2026-03-02 size sweep\n\n- 2B base: 65.1%\n- note: nothing else\n");
  EXPECT_TRUE(figs.empty());
}

// "rs.65=6.45ms, rs.63=2.96ms", "all-gather.389=6.29ms, .317=7.22ms": a key
// that is an op's name names its figure's run (a bare ".317" takes the
// stem before it); "p50=12ms" stays a metric's key.
TEST(ReaderClauses, OpNamedKeysNameTheirFigures) {
  const auto figs = ReadEntry("# Profile\n\n", "## 2026-06-17 baseline\n\n"
                                                "- collectives: all-gather.389=6.29ms, .317=7.22ms, rs.65=6.45ms\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[0].run.config.at("name"), "all-gather.389");
  EXPECT_EQ(figs[1].run.config.at("name"), "all-gather.317");
  EXPECT_EQ(figs[2].run.config.at("name"), "rs.65");
}

// "12.58 ms → 8.44 ms (−33%)": a minus sign written as U+2212 signs a change as '-' does.
TEST(ReaderClauses, AUnicodeMinusSignsAChange) {
  const auto figs = ReadEntry("# Journal\n\n", "## 2026-05-02 cmp caching\n\n- seq_scan: 12.58 ms \xE2\x86\x92 8.44 ms (\xE2\x88\x92" "33%)\n");
  bool change = false;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) change = change || (f.run.derived.count(m) && v == -33);
  EXPECT_TRUE(change);
}

// "22.2 ms → 17.9 ms (19% speedup)": a share a direction word follows is a change.
TEST(ReaderClauses, AShareADirectionWordFollowsIsAChange) {
  const auto figs = ReadEntry("# Journal\n\n", "## 2026-05-02 leaf hint\n\n- put_seq: 22.2 ms \xE2\x86\x92 17.9 ms (19% speedup)\n");
  bool change = false;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) change = change || (f.run.derived.count(m) && v == 19);
  EXPECT_TRUE(change);
}

}  // namespace
}  // namespace moelog::logbook::reader
