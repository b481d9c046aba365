// Reader stage table, derived columns beside a row's runs: a speedup or a
// change goes onto the run its arithmetic names, a ratio that no pair of the
// row's runs works out to stays on none.
#include <gtest/gtest.h>

#include "logbook/reader/table_derived.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

StoredRun Figure(const std::string& metric, double v) {
  StoredRun r;
  r.metrics[metric] = v;
  return r;
}

StoredRun Derived(const std::string& metric, double v, const std::string& unit, int decimals) {
  StoredRun r = Figure(metric, v);
  r.units[metric] = unit, r.decimals[metric] = decimals, r.derived.insert(metric);
  return r;
}

TEST(TableDerived, ATimeRatioIsTheFasterRunsAndARateRatioTheHigher) {
  StoredRun ours = Figure("time_s", 4.10e-6), theirs = Figure("time_s", 13.2e-6);
  StoredRun d = Derived("speedup", 3.22, "x", 2);
  AttachDerived(&d, {&ours, &theirs});
  EXPECT_TRUE(ours.derived.count("speedup"));
  EXPECT_FALSE(theirs.metrics.count("speedup"));
  EXPECT_TRUE(d.metrics.empty());

  StoredRun old_rate = Figure("tokens_per_s", 120), new_rate = Figure("tokens_per_s", 186);
  StoredRun r = Derived("speedup", 1.55, "x", 2);
  AttachDerived(&r, {&old_rate, &new_rate});
  EXPECT_DOUBLE_EQ(new_rate.metrics.at("speedup"), 1.55);
}

TEST(TableDerived, AChangeIsTheRunItWasTakenToSignOrNot) {
  StoredRun before = Figure("requests_per_s", 250), after = Figure("requests_per_s", 410);
  StoredRun d = Derived("delta_pct", 64, "%", 0);
  AttachDerived(&d, {&before, &after});
  EXPECT_TRUE(after.derived.count("delta_pct"));
  StoredRun slow = Figure("time_s", 0.090), fast = Figure("time_s", 0.027);
  StoredRun drop = Derived("delta_pct", 70, "%", 0);  // "-70%" written without its sign
  AttachDerived(&drop, {&slow, &fast});
  EXPECT_TRUE(fast.derived.count("delta_pct"));
}

TEST(TableDerived, AFigureNoPairWorksOutToStaysOnNoRun) {
  StoredRun a = Figure("time_s", 2.0), b = Figure("time_s", 3.0);
  StoredRun d = Derived("speedup", 2.4, "x", 1);  // against a reference the row does not show
  AttachDerived(&d, {&a, &b});
  EXPECT_FALSE(a.metrics.count("speedup") || b.metrics.count("speedup"));
  EXPECT_EQ(d.metrics.size(), 1u);
}

TEST(TableDerived, ARatioColumnBesideValueColumnsIsTheSlowerOrFasterRuns) {
  const auto figs = ReadEntry("# Codec log\n\n",
                              "## 2026-02-10 — thread pool resize\n\n| Config | before | after | Ratio |\n|---|---|---|---|\n"
                              "| compress | 6.40s | 8.00s | 0.80x |\n| decompress | 9.10s | 9.10s | 1.00x |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_TRUE(figs[1].run.derived.count("speedup"));  // 6.40 / 8.00: the after run's
  EXPECT_FALSE(figs[0].run.metrics.count("speedup"));
  EXPECT_TRUE(figs[2].run.derived.count("speedup"));  // 1.00x: the first run written takes it
}

TEST(TableDerived, ASpeedupColumnBesideRunColumnsIsTheFasterRuns) {
  const auto figs = ReadEntry("# Scan kernel log\n\n",
                              "## 2026-02-11 — scan kernel\n\n| Batch | Mine (us) | Library (us) | Speedup |\n|---|---|---|---|\n"
                              "| 4 | 5.20 | 11.96 | 2.30x |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_TRUE(figs[0].run.derived.count("speedup"));
  EXPECT_FALSE(figs[1].run.metrics.count("speedup"));
}

// "per-group (ms)" beside "batched (ms)": two ways of running one step, each
// a run; "per" alone names no part of a run (a per-token time says "token").
TEST(TableDerived, APerWordColumnBesideAnotherIsARunOfItsOwn) {
  const auto figs = ReadEntry("# Quantizer log\n\n",
                              "## 2026-02-12 — batched search\n\n| group | per-row (ms) | batched (ms) | speedup |\n"
                              "|---|---|---|---|\n| 32 | 240.0 | 96.0 | 2.50x |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NE(figs[0].run.config.at("variant"), figs[1].run.config.at("variant"));
  EXPECT_TRUE(figs[1].run.derived.count("speedup"));
}

// "| Group | Ratio (ours/ref) |" over bare numbers, no other figure: each
// ratio is its row's measurement (a factor against a fixed reference).
TEST(TableDerived, ATableOfRatiosOnlyIsTheRunsMeasurements) {
  const auto figs = ReadEntry("# Port log\n\n",
                              "## 2026-02-13 — first comparison\n\n| Group | Ratio (ours/ref) | Status |\n|---|---:|---|\n"
                              "| read/random | 0.84 | ok |\n| write/seq | **1.47** | slow |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("ratio"), 1.47);
  EXPECT_FALSE(figs[1].run.derived.count("ratio"));
}

// "| Experiment | Cycles | Speedup vs Baseline |": a unit's word alone heads
// its column; a speedup compared "vs" something is still a speedup.
TEST(TableDerived, AUnitWordHeaderAndASpeedupVersusColumn) {
  const auto figs = ReadEntry("# Take-home log\n\n",
                              "## 2026-02-14 — summary\n\n| Experiment | Cycles | Speedup vs Baseline |\n|---|---|---|\n"
                              "| Baseline | 150,210 | 1.00x |\n| Unrolled | 98,400 | 1.53x |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("cycles"), 98400);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("speedup"), 1.53);
  EXPECT_TRUE(figs[1].run.derived.count("speedup"));
}

// "| vs library |" over "0.61x": a comparison's speedup (not a change in
// percent), on the run it works out for; "Peak BW%" beside "Latency (B=64)"
// is that measurement's share, on its row.
TEST(TableDerived, AVersusColumnOfFactorsAndAShareBesideAScaledColumn) {
  const auto figs = ReadEntry("# Scan kernel log\n\n",
                              "## 2026-02-15 — final\n\n| Seq | Mine (us) | Library (us) | vs Library |\n|---|---|---|---|\n"
                              "| 64 | 410 | 250 | 0.61x |\n\n| Step | Latency (B=64) | Peak BW% |\n|---|---|---|\n"
                              "| base | 40.2us | 48.5% |\n");
  ASSERT_EQ(figs.size(), 3u);
  bool mine_speedup = false;
  for (const auto& [m, v] : figs[0].run.metrics) mine_speedup = mine_speedup || (figs[0].run.derived.count(m) && v == 0.61);
  EXPECT_TRUE(mine_speedup);
  EXPECT_EQ(figs[2].line, 11);
  EXPECT_EQ(figs[2].run.metrics.size(), 2u);  // the latency and its share of peak: one row
}

// "| Metric | iter-0 | iter-1 | Δ |" over rows whose cells write their units,
// and one whose name does ("Read max RPS"): every row read, each change on
// the run it was taken to.
TEST(TableDerived, ChangesOfMetricRowsGoOntoTheLaterRun) {
  const auto figs = ReadEntry("# Load log\n\n",
                              "## 2026-02-16 — pool\n\n| Metric | iter-0 | iter-1 | Δ |\n|---|---:|---:|---:|\n"
                              "| Read max RPS | 200 | 500 | +150% |\n| p50 read | 80 ms | 20 ms | -75% |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("requests_per_s"), 500);
  int changes = 0;
  for (const auto& f : figs)
    for (const auto& m : f.run.derived) changes += f.run.config.at("variant") == "iter-1" && m.find("delta") != std::string::npos;
  EXPECT_EQ(changes, 2);
}

// Columns of one metric that share a statistic ("Mine p50 ms | Reference p50
// ms") or name a backend ("CPU encode | Metal encode") are runs of their own.
TEST(TableDerived, SharedStatisticsAndBackendsLeaveColumnsRunsOfTheirOwn) {
  const auto figs = ReadEntry("# Search log\n\n",
                              "## 2026-02-17 — round 2\n\n| Repo | Mine p50 ms | Reference p50 ms |\n|---|---|---|\n"
                              "| small | 3.1 | 5.4 |\n\n| Input | CPU encode | Metal encode |\n|---|---|---|\n"
                              "| 4 MP | 6.21 ms | 1.37 ms |\n");
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) EXPECT_EQ(f.run.metrics.size(), 1u) << f.text;
  EXPECT_NE(figs[0].run.config.at("variant"), figs[1].run.config.at("variant"));
  EXPECT_NE(figs[2].run.config.at("variant"), figs[3].run.config.at("variant"));
}

// "| | Prefill ms | Decode ms |": an unheaded first column over columns that
// name metrics labels rows of runs, each row one run.
TEST(TableDerived, AnUnheadedLabelColumnBesideMetricHeadersKeysRuns) {
  const auto figs = ReadEntry("# Serving log\n\n",
                              "## 2026-02-18 — split\n\n| | Prefill ms | Decode ms |\n|---|---:|---:|\n"
                              "| baseline | 1820 | 1490 |\n| after split | 1790 | 1452 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);
}

// A column of percentages named with marks between its words ("Pass@1
// (dry)") is a figure named by those words joined.
TEST(TableDerived, APercentColumnWithMarksInItsHeaderIsNamedByItsWords) {
  EXPECT_EQ(PercentColumnName("OGE Pass@1 (dry)"), "oge_pass_1_dry");
  EXPECT_EQ(PercentColumnName("Peak BW%"), "peak_bw");
  EXPECT_EQ(PercentColumnName("hit/miss"), "");
  const auto figs = ReadEntry("# Eval log\n\n", "## 2026-02-19 — suite\n\n| Model | Pass@1 (dry) |\n|---|---|\n"
                                                 "| 4B tuned | **81.5%** |\n| 4B base | 70.9% |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("pass_1_dry"), 81.5);
}

// "| Variant | T=1 | T=7 |" over bare numbers: each cell a figure at its
// column's scale, unitless.
TEST(TableDerived, ColumnsOfAScalesValuesHoldAFigureEach) {
  const auto figs = ReadEntry("# Kernel log\n\n", "## 2026-02-20 — split-K\n\n| Variant | T=2 | T=9 |\n|---|---|---|\n"
                                                   "| base | 90.4 | 71.2 |\n| sk2 | 82.3 | 77.0 |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_DOUBLE_EQ(figs[3].run.metrics.at("value"), 77.0);
  bool at_nine = false;
  for (const auto& [k, v] : figs[3].run.config) at_nine = at_nine || v == "9";
  EXPECT_TRUE(at_nine);
}

// "Rows/sec" and "Chunks/min" headers over bare numbers: counts per second
// and per minute, kept as written.
TEST(TableDerived, CountRateHeadersNameTheirColumns) {
  const auto figs = ReadEntry("# Import log\n\n", "## 2026-02-21 — batches\n\n| Time | Change | Rows/sec | Chunks/min |\n|---|---|---:|---:|\n"
                                                   "| 10:02 | batch writes | 61250.5 | 1380.2 |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("rows_per_s"), 61250.5);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("chunks_per_min"), 1380.2);
}

// "| Ratio |" over "1.90x FASTER" and "1.42x slower": factors with the way
// they point, each on the run the arithmetic names the faster.
TEST(TableDerived, RatioCellsWithTheWayTheyPoint) {
  const auto figs = ReadEntry("# Search log\n\n", "## 2026-02-22 — round 1\n\n| Repo | Mine p50 ms | Ref p50 ms | Ratio |\n"
                                                   "|---|---:|---:|---|\n| small | 40.0 | 76.0 | **1.90x FASTER** |\n"
                                                   "| large | 142.0 | 100.0 | 1.42x slower |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("speedup"), 1.90);  // the first row's own run is the faster
  EXPECT_DOUBLE_EQ(figs[3].run.metrics.at("speedup"), 1.42);  // the second row's reference is
}

// "| Data points per second | 14,000 | 29,000 |": a rate in words is no time
// in seconds; the figures stay unitless under the row's name.
TEST(TableDerived, ARateInWordsIsNoTime) {
  const auto figs = ReadEntry("# Runtime log\n\n", "## 2026-02-23 — versions\n\n| Metric | Baseline | Optimized |\n|---|---|---|\n"
                                                   "| Wall runtime (s) | 200.0 | 100.0 |\n| Data points per second | 14,000 | 29,000 |\n");
  bool rate = false;
  for (const auto& f : figs) {
    EXPECT_FALSE(f.line == 8 && f.run.metrics.count("time_s")) << f.text;
    rate = rate || (f.line == 8 && f.run.metrics.count("data_points_per_second"));
  }
  EXPECT_TRUE(rate);
}

// "| Cycles | Speedup vs Baseline | Speedup vs Previous |": two speedup
// columns named apart, each factor on its row's run.
TEST(TableDerived, TwoSpeedupColumnsEachOnTheRowsRun) {
  const auto figs = ReadEntry("# Opt log\n\n",
                              "## 2026-04-02 results summary\n\n"
                              "| Experiment | Cycles | Speedup vs Baseline | Speedup vs Previous |\n|---|---|---|---|\n"
                              "| Baseline | 147,734 | 1.00x | - |\n| Exp 5: Pack | 8,809 | 16.8x | 1.06x |\n");
  ASSERT_EQ(figs.size(), 2u);
  int speedups = 0;
  for (const auto& m : figs[1].run.derived) speedups += m.find("speedup") != std::string::npos ? 1 : 0;
  EXPECT_EQ(speedups, 2);
}

// "| Phase 6 vs Phase 4 | +32% | +17% |" under rows of runs compares them:
// its cells are derived, listed, and the rows above are read as they would
// be without it (a value column each, in the caption's unit). A row naming a
// metric of each run ("| Mean speedup | ~32x | ~43x |") is no such row.
TEST(TableDerived, ARowOfChangesBetweenTheRowsAboveIsDerived) {
  EXPECT_TRUE(ChangeRow({"Phase 6 vs Phase 4", "**+32%**", "+17%", "+12%"}));
  EXPECT_TRUE(ChangeRow({"\xCE\x94", "-12%", ""}));
  EXPECT_FALSE(ChangeRow({"Mean speedup", "~32x", "~43x"}));
  EXPECT_FALSE(ChangeRow({"Phase 6 vs Phase 4", "455.2", "+17%"}));
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Serving log\n\n", "## 2026-03-01 Paged attention\n\nThroughput in tok/s:\n\n"
                              "| Configuration | Llama | Qwen3 |\n|---|---|---|\n"
                              "| contiguous | 338.2 | 259.5 |\n| paged | 455.2 | 317.4 |\n"
                              "| paged vs contiguous | +35% | +22% |\n", &unread);
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) EXPECT_TRUE(f.run.metrics.count("tokens_per_s")) << f.text;
  EXPECT_TRUE(std::any_of(unread.begin(), unread.end(), [](const UnreadFigures& u) { return u.line == 11; }));
}

// A table of a profile's shares and no measured column: the shares are the
// rows' own figures. Beside a column of times they stay derived from it.
TEST(TableDerived, SharesAloneAreAProfilesFigures) {
  const std::string table =
      "| Component | % of coordinator time | Description |\n|---|---|---|\n"
      "| `check` | **52.4%** | O(n) check |\n| persist writes | ~17% | writes |\n";
  const auto figs = ReadEntry("# Perf log\n\n", "## 2026-02-18 profile\n\nRan perf record.\n\n" + table);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("share_pct"), 52.4);
  EXPECT_FALSE(figs[0].run.derived.count("share_pct"));
  std::vector<ColumnInfo> cols(2);
  cols[0].metric = "time_s", cols[1].metric = "share_pct", cols[1].derived = true;
  SharesAlone(&cols);
  EXPECT_TRUE(cols[1].derived);
}

// A percent column headed by a change ("Impact") holds changes, derived; a
// plain share or an accuracy stays measured.
TEST(TableDerived, PercentagesUnderAChangesHeaderAreChanges) {
  EXPECT_TRUE(ChangePercentHeader("Impact"));
  EXPECT_TRUE(ChangePercentHeader("Throughput gain"));
  EXPECT_FALSE(ChangePercentHeader("Accuracy"));
  EXPECT_FALSE(ChangePercentHeader("Result"));
  const auto figs = ReadEntry("# Perf log\n\n", "## 2026-02-18 ledger\n\nRan the load test.\n\n"
                              "| Iteration | Change | Impact |\n|---|---|---|\n| 1 | acks=0 | +14.3% |\n| 2 | linger=5ms | +7.8% |\n");
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_TRUE(f.run.derived.count(m)) << m;
}

}  // namespace
}  // namespace moelog::logbook::reader
