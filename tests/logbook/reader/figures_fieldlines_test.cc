// Reader stage figures, paragraphs of field lines: "**Build time:** 4.4s |
// **Status:** SUCCESS | **Peak RSS:** 790 MB" is one run's row; a field
// of words is no figure; a full-width colon reads as the ASCII one.
#include <gtest/gtest.h>

#include "logbook/reader/figures_namedlist.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderFieldLines, AFieldLineIsOneRunsRow) {
  const auto figs = ReadEntry("# Build log\n\n",
                              "## 2026-05-03 — cold cache\n\n"
                              "**Build time:** 61.5s | **Status:** SUCCESS | **Peak RSS:** 1210 MB\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 5);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);  // the time and the memory; the status is words
  bool memory = false;
  for (const auto& [m, v] : figs[0].run.metrics) memory = memory || m.find("rss") != std::string::npos;
  EXPECT_TRUE(memory);
}

TEST(ReaderFieldLines, AFullWidthColonReadsAsTheAsciiOne) {
  const auto figs = ReadEntry("# 调优日志\n\n",
                              "## 2026-05-04 — 第二轮\n\n**耗时**：18.2s | **峰值内存**：2.3 GB\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

TEST(ReaderFieldLines, AParagraphWithAnyOtherLineIsProse) {
  const auto figs = ReadEntry("# Build log\n\n",
                              "## 2026-05-05 — warm cache\n\n"
                              "**Build time:** 12.0s | **Peak RSS:** 980 MB\nThe cache was warm, so the link step dominated.\n");
  for (const auto& f : figs) EXPECT_EQ(f.line, 5);  // still read, as prose
}

// A pipe table whose delimiter row has another number of cells than its
// header is a paragraph to Markdown: still read as the table it was meant to be.
TEST(ReaderFieldLines, ATableWithAShortDelimiterRowIsStillATable) {
  const auto figs = ReadEntry("# Build log\n\n", "## 2026-05-06 — sizes\n\n"
                                                  "| Config | Time (ms) | Mem (MB) |\n|---|---|\n| small | 4.1 | 130 |\n"
                                                  "| large | 11.6 | 395 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].line, 8);
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);
}

// "- `run42` (`avg_step_ms≈9.37`, `peak_mem_gb=3.1`)": the run's name, then
// its printed pairs in parentheses: one row keyed by the name.
TEST(ReaderFieldLines, ARunNameSpanWithItsPairsInParentheses) {
  const auto figs = ReadEntry("# Train log\n\n", "## 2026-05-07 — sweep\n\n"
                                                  "- `runA` (`avg_step_ms=11.42`, `peak_mem_gb=2.9`)\n"
                                                  "- `runB` (`avg_step_ms≈10.87`, `peak_mem_gb=3.0`)\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("run"), "runA");
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);
  EXPECT_TRUE(figs[1].run.approximate.size() == 1u);
}

// "**PPL**: 23.84 | **NLL**: 3.1713 | **2-gram**: 0.688": beside a unitless
// figure, a decimal of three significant digits is a score of its own; a
// setting written as a decimal ("lr: 0.0003") stays the row's key.
TEST(ReaderFieldLines, DecimalsBesideAUnitlessFigureAreScores) {
  const auto figs = ReadEntry("# Eval log\n\n", "## Step 25 - eval\n\n"
                                                 "**PPL**: 12.9429 | **2-gram**: 0.8907 | **lr**: 0.0003 | **batch**: 16\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
  EXPECT_TRUE(figs[0].run.metrics.count("2_gram"));
  EXPECT_EQ(figs[0].run.config.at("lr"), "0.0003");
}

// Near miss: a sweep's setting written with three significant digits
// ("lr: 0.000300") stays the row's key beside a score.
TEST(ReaderFieldLines, ASweepsSettingBesideAScoreIsAKey) {
  const auto figs = ReadEntry("# Train log\n\n", "## 2026-05-02 run\n\n**loss**: 2.3114 | **lr**: 0.000300 | **grad_norm**: 0.5127\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.config.at("lr"), "0.000300");
  EXPECT_TRUE(figs[0].run.metrics.count("grad_norm"));
}

// Near miss: with no unitless figure on the line, a bare decimal names no score.
TEST(ReaderFieldLines, ADecimalBesideATimeOnlyIsAKey) {
  const auto figs = ReadEntry("# Eval log\n\n", "## Step 25 - eval\n\n"
                                                 "**Time**: 18.2s | **ratio**: 0.8907\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 1u);
}

// "**Final score**: 0.47", "**결과 점수**: 0.45": a quality after a word
// that says nothing of it (final, result) is that quality's figure.
TEST(ReaderFieldLines, AQualityAfterAPlainQualifierIsItsFigure) {
  auto figs = ReadEntry("# Quant log\n\n", "## Experiment 1\n\n- **Tried**: GPTQ.\n- **Final score**: 0.47\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_TRUE(figs[0].run.metrics.count("score"));
  figs = ReadEntry("# 양자화 로그\n\n", "## 실험 2\n\n- **시도한 것**: GPTQ.\n- **결과 점수**: 0.45\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.begin()->second, 0.45);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "- Summary metrics:" over "`time/train/step_avg_s = 20.18`": a summing-up
// word before a result's noun leads a run's figures, and a printed key, an
// equals sign with blanks around it and a number is a key=value pair: the
// items are one run's metrics.
TEST(ReaderFieldLines, SummaryMetricsWithBlanksAroundTheEqualsSign) {
  const auto figs = ReadEntry("# Rollout log\n\n## Experiments\n\n",
                              "### Run A: baseline\n\n- Summary metrics (`summary.json`):\n"
                              "  - `time/train/step_avg_ms = 20.1819`\n  - `avg_step_ms = 19.5`\n");
  ASSERT_EQ(figs.size(), 1u);  // one run's two metrics
  EXPECT_EQ(figs[0].line, 8);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
  // A summary that is a recap stays no run's.
  std::vector<UnreadFigures> unread;
  const auto recap = ReadEntry("# Rollout log\n\n## Experiments\n\n",
                               "### Run B: fast\n\n- Summary:\n  - `avg_step_ms = 19.5`\n", &unread);
  EXPECT_TRUE(recap.empty());
}

// A comma list of one unit after a label ("Build time: 25.63s, 21.51s,
// 24.24s") repeats one measurement, whatever its spread: one figure, the
// median, the repeats beside it; a figure after '>' that ends the list is
// the mean the author worked out.
TEST(ReaderFieldLines, ACommaListOfOneUnitIsRepeats) {
  const auto figs = ReadEntry("# Build log\n\n", "## 2026-05-03 rebuild\n\nBuild time: 25.63s, 21.51s, 24.24s\n");
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].run.metrics.size(), 1u);
  const auto& [metric, median] = *figs[0].run.metrics.begin();
  EXPECT_DOUBLE_EQ(median, 24.24);
  EXPECT_EQ(figs[0].run.repeats.at(metric).size(), 3u);
  const auto mean = ReadEntry("# Build log\n\n", "## 2026-05-03 rebuild\n\nBuild time: 22.53s, 22.38s, 21.23s > 22.05s\n");
  ASSERT_EQ(mean.size(), 1u);
  ASSERT_EQ(mean[0].run.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(mean[0].run.metrics.at("mean_time_s"), 22.05);
  // Named apart ("fused 1.2 ms, unfused 1.9 ms"), the figures are no repeats.
  const auto named = ReadEntry("# Build log\n\n", "## 2026-05-03 rebuild\n\n- fused 1.2 ms, unfused 1.9 ms\n");
  for (const auto& f : named) EXPECT_TRUE(f.run.repeats.empty());
}

// A paragraph of fields each on a line under a bold lead of its own, long
// leads too ("**After reducing to 4 stages:** 0.700 ms"): a field a line,
// never one text of two runs' figures.
TEST(ReaderFieldLines, EachLineUnderABoldLeadIsAFieldOfItsOwn) {
  const auto figs = ReadEntry("# Kernel log\n\n",
                              "## 2026-05-03 pipeline stages\n\n"
                              "**Result:** 0.722 ms, 192 KB SMEM\n"
                              "**After reducing to 4 stages:** 0.700 ms, 131 KB SMEM\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 5);
  EXPECT_EQ(figs[1].line, 6);
}

// A label's parenthesis that names its items' comma lists ("Results (final
// avg reward, performance delta, step-2 total time):"): each item's values
// named in order, a change's left out; a list of another length is read as
// it was.
TEST(ReaderFieldLines, ALabelsParenthesisNamesItsItemsValues) {
  const auto names = ListNames("Results (final avg reward, performance delta, step-2 total time)");
  ASSERT_EQ(names.size(), 3u);
  EXPECT_TRUE(ListNames("Throughput (tok/s)").empty());
  EXPECT_TRUE(ListNames("Decode (bs=8, fp8)").empty());
  EXPECT_EQ(NamedListText(" 0.3960, +0.0018, ~12.26s", names), " final_avg_reward=0.3960, step_2_total_time=12.26s");
  EXPECT_EQ(NamedListText(" 0.3960, 12.26s", names), " 0.3960, 12.26s");
  const auto figs = ReadEntry("# RL log\n\n",
                              "## 2026-05-03 GA comparison\n\n"
                              "- Results (final avg reward, performance delta, step-2 total time):\n"
                              "  - GA=1 (one update): 0.3960, +0.0018, ~12.26s\n"
                              "  - GA=4 (minibatches): 0.3900, \u22120.0042, ~12.65s\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.config.at("ga"), "4");
  EXPECT_EQ(figs[1].run.metrics.size(), 2u) << ::testing::PrintToString(figs[1].run.metrics);
}

// A label of words ending in its unit ("tick duration ms:") over
// statistics written as bare numbers ("avg 21.1031 | p95 30.3296"): each a
// figure in that unit, keyed by its statistic; a line that writes its own
// units is read as it was.
TEST(ReaderFieldLines, StatisticsTakeTheUnitTheirLabelNames) {
  const auto figs = ReadEntry("# Perf log\n\n",
                              "## 2026-01-29 med-100\n\n"
                              "- tick duration ms: avg 21.1031 | p95 30.3296 | p99 35.2898 | max 40.9663\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[1].run.config.at("statistic"), "p95");
  EXPECT_NEAR(figs[1].run.metrics.begin()->second, 0.0303296, 1e-9);
  EXPECT_EQ(figs[1].run.config.count("case") ? figs[1].run.config.at("case") : "tick duration", "tick duration");
  EXPECT_EQ(LabelUnitOf("tick duration ms"), "ms");
  // A setting's field ("metrics window: 30s") is no figure.
  EXPECT_TRUE(ReadEntry("# Perf log\n\n", "## 2026-01-29 med-100\n\n- metrics window: 30s\n").empty());
  EXPECT_EQ(LabelUnitOf("batch 8"), "");
}

// A label in capitals ("Total CYCLES") or after an arrow from the command
// that printed it ("`python3 t.py` -> CYCLES") names its unit all the same.
TEST(FieldLines, ALabelsUnitInCapitalsOrAfterAnArrow) {
  EXPECT_EQ(LabelUnitOf("Total CYCLES"), "cycles");
  EXPECT_EQ(LabelUnitOf("`python3 t.py` -> CYCLES"), "cycles");
  EXPECT_EQ(LabelUnitOf("run \u2192 Cycles"), "cycles");
  EXPECT_EQ(LabelUnitOf("Total BATCH"), "");
  const auto figs = ReadEntry("# Iteration log\n\n", "## Iteration 2\n\nTest results:\n- `python3 t.py` -> CYCLES: 9918\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.begin()->second, 9918);
}

}  // namespace
}  // namespace moelog::logbook::reader
