// The table stage: a figure goes on the one row of a table of runs its
// configuration fits.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook {
namespace {

RecordedFigure Fig(std::map<std::string, std::string> config, double tflops) {
  RecordedFigure f;
  f.run.config = std::move(config);
  f.run.metrics["tflops"] = tflops;
  return f;
}

// Value columns beside a column of the rows' own metric, under a sentence
// naming the values' unit ("median decode tok/s"): each value a run of its
// column's name, the row's own figure a run of no value; none a setting.
TEST(ReaderTable, ValuesBesideAMetricColumnAreRunsNotSettings) {
  const auto figs = reader::ReadEntry("# Tuning\n\n## Results: phase 1\n\n",
                                      "Short prompts, median decode tok/s (greedy):\n\n"
                                      "| | code | prose | ms/step |\n|---|---|---|---|\n"
                                      "| Baseline | 196 | 164 | 13.63 |\n| + fusion | 241 | 209 | 10.9 |\n");
  ASSERT_EQ(figs.size(), 6u);
  for (const auto& f : figs) {
    EXPECT_FALSE(f.run.config.count("code")) << f.text;
    EXPECT_EQ(f.run.metrics.size(), 1u) << f.text;
  }
}

// A table of version columns under a caption naming the unit, one of whose
// cells writes a note after its number (`~31 (30.7/31.1)`, `33.6 @256K`):
// the other cells are still read, the noted one by its number at most.
TEST(ReaderTable, ANotedCellKeepsAColumnOfNumbers) {
  const auto figs = reader::ReadEntry("# Resweep\n\n## Model A\n\n",
      "**Decode tok/s (single-user):**\n\n"
      "| depth | v0.5.13 | v0.5.12 baseline | note |\n|---|---|---|---|\n"
      "| short | **65.4** | 65.4 | exact match |\n| 16K | 59.6 | ~60 | match |\n"
      "| ~231K | **~31** (30.7/31.1) | 33.6 @256K | comparable |\n");
  EXPECT_GE(figs.size(), 4u);
}

TEST(ReaderTable, AFigureGoesOnTheOneRowItFits) {
  const std::vector<std::map<std::string, std::string>> rows = {{{"topk", "2"}}, {{"topk", "8"}}};
  auto p = PlaceFigures({Fig({{"topk", "8"}}, 140.2)}, rows);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].row, 1);
}

TEST(ReaderTable, AFigureThatFitsSeveralRowsIsUnplaced) {
  const std::vector<std::map<std::string, std::string>> rows = {{{"topk", "2"}}, {{"topk", "8"}}};
  auto p = PlaceFigures({Fig({{"tokens", "4096"}}, 140.2)}, rows);
  EXPECT_EQ(p[0].row, -1);
  EXPECT_EQ(p[0].why, "matches several rows");
}

TEST(ReaderTable, TwoFiguresClaimingOneRowAreBothUnplaced) {
  const std::vector<std::map<std::string, std::string>> rows = {{{"topk", "2"}}};
  auto p = PlaceFigures({Fig({{"topk", "2"}}, 140.2), Fig({{"topk", "2"}}, 150.1)}, rows);
  EXPECT_EQ(p[0].row, -1);
  EXPECT_EQ(p[1].why, "another figure claims its row");
}

TEST(ReaderTable, AVariantWordIsNoRowsConfig) {
  EXPECT_FALSE(FigureFits(Fig({{"variant", "staged"}}, 1).run, {{"topk", "2"}}));
  EXPECT_TRUE(FigureFits(Fig({{"topk", "2"}, {"harness", "x"}}, 1).run, {{"topk", "2"}}));
}


std::vector<RecordedFigure> TableEntryFigures(const std::string& table) {
  const std::string text = "# Log\n\n## 2026-01-02 Sweep\nNotes above the table.\n" + table;
  const Logbook lb = ParseLogbook(text, "t.md");
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0]);
}

// One "@value" on some metric columns only ("Train Loss @200 | Eval Loss
// @200 | tok/s") is where the row's run was read: one row per run, keyed
// at=200, never a second row of the same run for the plain column.
TEST(ReaderTable, OneAtValueOnSomeColumnsKeepsTheRowOneRun) {
  const auto figs = TableEntryFigures(
      "| Run | Train Loss @200 | Eval Loss @200 | tok/s |\n|---|---|---|---|\n"
      "| baseline | 2.86 | 3.02 | 51k |\n| no-resid | 3.11 | 3.17 | 47k |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_EQ(f.run.metrics.size(), 3u) << f.text;
    EXPECT_EQ(f.run.config.at("at"), "200") << f.text;
  }
}

// Columns named "X Only", "Combo (3 exp + Lookup)" over cells of one unit are
// runs of their own (variant_words), though "moe" names a part of a run.
TEST(ReaderTable, OnlyColumnsAreRunsOfTheirOwn) {
  const auto figs = TableEntryFigures(
      "| Model | Lookup Only | MoE Only | Combo (3 exp + Lookup) |\n|---|---|---|---|\n"
      "| coder-30b | 43.2 t/s | 30.1 t/s | **47.5 t/s** |\n");
  ASSERT_EQ(figs.size(), 3u);
  std::set<std::string> variants;
  for (const auto& f : figs) {
    EXPECT_EQ(f.run.metrics.size(), 1u) << f.text;
    variants.insert(f.run.config.at("variant"));
  }
  EXPECT_EQ(variants, (std::set<std::string>{"Lookup Only", "MoE Only", "Combo (3 exp + Lookup)"}));
}

// A real-time factor ("RTF") of bare decimals is a measured column
// (measured_words), beside the row's times.
TEST(ReaderTable, ARealTimeFactorColumnIsMeasured) {
  const auto figs = TableEntryFigures("| Label | Wall (ms) | RTF |\n|---|---|---|\n| short | 3020 | 0.640 |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("rtf"), 0.640);
}

// A row keeps every figure of its columns: a unit in the header's
// parentheses or last word (the vocabulary's), a column of the model's
// quality; each row's figures carry the row's own line.
TEST(ReaderTable, ARowKeepsEveryColumnsFigure) {
  const auto figs = TableEntryFigures(
      "| run | tok/sec | TTFT (s) | peak mem (MiB) | total time (min) | Val Loss |\n"
      "|---|---:|---:|---:|---:|---:|\n"
      "| a | 4682 | 5.32 | 18983.58 | 3.00 | 3.2781 |\n"
      "| b | 7852 | 6.16 | 19722.27 | 3.13 | 3.3744 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 7);
  EXPECT_EQ(figs[1].line, 8);
  const auto& m = figs[1].run.metrics;
  EXPECT_EQ(m.size(), 5u);
  EXPECT_DOUBLE_EQ(m.at("tokens_per_s"), 7852);
  EXPECT_DOUBLE_EQ(m.at("memory_mib"), 19722.27);
  EXPECT_DOUBLE_EQ(m.at("val_loss"), 3.3744);
  bool ttft = false, minutes = false;
  for (const auto& [k, v] : m) ttft = ttft || v == 6.16, minutes = minutes || std::abs(v - 3.13 * 60) < 1e-9;
  EXPECT_TRUE(ttft);
  EXPECT_TRUE(minutes);
}

// A column its header calls an estimate ("Speed (est)") holds no run's
// figures, nor the row's configuration.
TEST(ReaderTable, AnEstimateColumnIsNoFigure) {
  const auto figs = TableEntryFigures(
      "| tokens | TTFT | Prefill Speed (est) |\n"
      "|---:|---:|---:|\n"
      "| 4456 | 5.32s | ~838 tok/s |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 1u);
  EXPECT_FALSE(figs[0].run.metrics.count("tokens_per_s"));
  for (const auto& [k, v] : figs[0].run.config) EXPECT_EQ(v.find("838"), std::string::npos) << k;
}

// A column header's scale keys every value of its column: the same metric
// at two scales is two figure sets of the row, never one.
TEST(ReaderTable, AHeadersScaleKeysItsColumn) {
  const auto figs = TableEntryFigures(
      "| Kernel | Latency (seq=1024) ms | Time (B=128) us | Throughput @ 8 GPUs tok/s |\n"
      "|---|---:|---:|---:|\n"
      "| fused | 0.52 | 310 | 91000 |\n");
  ASSERT_EQ(figs.size(), 3u);  // one figure set per scale
  int seq = 0, batch = 0, gpus = 0;
  for (const auto& f : figs) {
    seq += f.run.config.count("seq") && f.run.config.at("seq") == "1024";
    batch += f.run.config.count("batch") && f.run.config.at("batch") == "128";
    gpus += f.run.config.count("gpus") && f.run.config.at("gpus") == "8";
  }
  EXPECT_EQ(seq, 1);
  EXPECT_EQ(batch, 1);
  EXPECT_EQ(gpus, 1);
}

// A figure of another metric in a cell's parentheses ("11.17s (45.8
// tok/s)") is the row's figure too; a speedup there is not.
TEST(ReaderTable, ACellsParenthesisOfAnotherMetricIsAFigure) {
  const auto figs = TableEntryFigures(
      "| Tokens | Chunked | Persistent | Speedup |\n"
      "|---:|---:|---:|---:|\n"
      "| 512 | 11.17s (45.8 tok/s) | 0.155s (3,294 tok/s) | 72x |\n");
  std::set<double> throughputs;
  for (const auto& f : figs)
    for (const auto& [metric, v] : f.run.metrics)
      if (metric.find("tokens_per_s") != std::string::npos) throughputs.insert(v);
  EXPECT_TRUE(throughputs.count(45.8));
  EXPECT_TRUE(throughputs.count(3294));
}

// A cell written as a change with its two sides ("+8.1% decode (3.2→3.46
// t/s)", "1.9x (410 → 780 GB/s)"): the after side is the row's measurement,
// the before side the baseline's, the change derived from them.
TEST(ReaderTable, AChangeCellsSidesAreFiguresAndItsChangeIsDerived) {
  const auto figs = TableEntryFigures(
      "| Config | Decode | Bandwidth |\n"
      "|---|---|---|\n"
      "| q4_k | +8.1% decode (3.2\xE2\x86\x92" "3.46 t/s) | 1.9x (410 \xE2\x86\x92 780 GB/s) |\n");
  bool after_tps = false, after_bw = false, before_tps = false, change = false, speedup = false;
  for (const auto& f : figs) {
    const bool after = f.run.config.count("arrow") && f.run.config.at("arrow") == "after";
    for (const auto& [metric, v] : f.run.metrics) {
      after_tps = after_tps || (after && metric == "tokens_per_s" && v == 3.46);
      before_tps = before_tps || (!after && metric == "tokens_per_s" && v == 3.2);
      after_bw = after_bw || (after && metric == "gb_per_s" && v == 780);
      change = change || (after && f.run.derived.count(metric) && v == 8.1);
      speedup = speedup || (after && f.run.derived.count(metric) && v == 1.9);
    }
  }
  EXPECT_TRUE(after_tps);
  EXPECT_TRUE(before_tps);
  EXPECT_TRUE(after_bw);
  EXPECT_TRUE(change);
  EXPECT_TRUE(speedup);
}

// A table of factors only (each variant's speedup against a fixed
// reference, a delta column beside): the factors are the runs' measurements.
TEST(ReaderTable, ATableOfFactorsOnlyIsScoredAgainstAFixedReference) {
  const auto figs = TableEntryFigures(
      "| Problem | Baseline | + Tuned | Delta |\n"
      "|---|:-:|:-:|:-:|\n"
      "| **P1** RMSNorm | 2.13x | **2.45x** | +15% |\n"
      "| **P2** Softmax | **1.44x** | 1.25x | -13% |\n");
  ASSERT_EQ(figs.size(), 4u);  // the baseline's and the tuned run's factor: a figure set each
  std::set<double> own;
  for (const auto& f : figs)
    for (const auto& [metric, v] : f.run.metrics)
      if (!f.run.derived.count(metric)) own.insert(v);
  EXPECT_EQ(own, (std::set<double>{2.13, 2.45, 1.44, 1.25}));
}

// A header's scope word ("Per GPU TF", "TFLOPs/GPU", "per-GPU TFLOPs")
// names its unit per device; "Total tok/s" is the run's throughput.
TEST(ReaderTable, AHeadersScopeWordNamesItsUnitPerDevice) {
  const auto figs = TableEntryFigures(
      "| GPUs | Per GPU TF | Total tok/s |\n"
      "|---|---|---|\n"
      "| 8 | 312.5 | 41200 |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tflops_per_gpu"), 312.5);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tokens_per_s"), 41200);
  for (const auto& [k, v] : figs[0].run.config) EXPECT_NE(v, "312.5") << k;
}

// A column whose header names a quality figure without a unit ("score",
// "val_bpb") holds the row's figures.
TEST(ReaderTable, AQualityColumnWithoutUnitIsAFigure) {
  const auto figs = TableEntryFigures(
      "| attention | score | val_bpb | tokens/s |\n"
      "|---|---|---|---|\n"
      "| standard | 10.825837 | 0.9012 | 245 |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("score"), 10.825837);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("val_bpb"), 0.9012);
}

// Two tables of one entry that differ only by the label above them (a bold
// line, a caption, a sub-heading) key their rows by it.
TEST(ReaderTable, ALabelAboveATableKeysItsRows) {
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {"**With NVFP4:**", "**Without NVFP4:**"},
           {"Table 1: bf16, seq 4096", "Table 2: fp8, seq 4096"},
           {"#### With NVFP4", "#### Without NVFP4"},
           // one day's results under a dated line, the next day's under another
           {"2026-01-01 Introducing small rationals", "2026-02-14 Faster dispatch"}}) {
    const auto figs = TableEntryFigures(
        "\n" + a + "\n\n| kernel | ms |\n|---|---:|\n| gemm | 1.20 |\n\n" + b +
        "\n\n| kernel | ms |\n|---|---:|\n| gemm | 1.90 |\n");
    ASSERT_EQ(figs.size(), 2u) << a;
    ASSERT_TRUE(figs[0].run.config.count("setup")) << a;
    ASSERT_TRUE(figs[1].run.config.count("setup")) << a;
    EXPECT_NE(figs[0].run.config.at("setup"), figs[1].run.config.at("setup")) << a;
  }
}

// A serving table whose headers name what was measured but not its unit
// ("Median TTFT", "Request throughput"): bare numbers under them are the
// row's figures, shown as written without a unit; a column of names or of
// counts stays the row's key.
TEST(ReaderTable, AHeaderNamingAMeasurementReadsItsBareNumbers) {
  const auto figs = TableEntryFigures(
      "| Rate | Num prompts | Backend | Median E2E Latency | Median TTFT | Mean ITL | Request throughput |\n"
      "|---|---|---|---|---|---|---|\n"
      "| 2 | 600 | engine-a | 1210.40 | **28.12** | 10.05 | 1.98 |\n"
      "| 2 | 600 | engine-b | 1388.75 | **91.60** | 118.22 | 1.95 |\n");
  ASSERT_EQ(figs.size(), 2u);
  const auto& m = figs[1].run.metrics;
  EXPECT_EQ(m.size(), 4u);
  bool ttft = false;
  for (const auto& [k, v] : m) ttft = ttft || (k.find("ttft") != std::string::npos && v == 91.60);
  EXPECT_TRUE(ttft);
  ASSERT_TRUE(figs[1].run.config.count("backend"));
  EXPECT_EQ(figs[1].run.config.at("backend"), "engine-b");
}

// A benchmark table whose headers name a time, a rate or a statistic but
// no unit ("Encode time", "QPS", "p99"): its bare numbers are the row's
// figures, shown as written without a unit; a size column stays the key.
TEST(ReaderTable, AHeaderNamingATimeOrARateReadsItsBareNumbers) {
  const auto figs = TableEntryFigures(
      "| Library | Size | Encode time | Decode time | QPS | p99 |\n"
      "|---|---|---|---|---|---|\n"
      "| lib-a | 1024 | 1.21 | 2.05 | 8123 | 4.4 |\n"
      "| lib-b | 1024 | 8.40 | 11.70 | 2210 | 9.8 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.metrics.size(), 4u) << ::testing::PrintToString(figs[1].run.metrics);
  EXPECT_EQ(figs[1].run.config.at("library"), "lib-b");
  EXPECT_EQ(figs[1].run.config.at("size"), "1024");
}

// Figures with one configuration under two sub-headings are told apart by
// them.
TEST(ReaderTable, SameKeysUnderTwoSubheadingsAreTwoSetups) {
  const std::string text =
      "# Log\n\n## 2026-01-02 Kernel 00\n\n### 01: Benchmark\n\nFP16:\n```\nLatency: 320.7 ms\n```\n\n"
      "### 02: Compared with the reference implementation\n\nFP16:\n```\nLatency: 319.9 ms\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 2u);
  ASSERT_TRUE(figs[0].run.config.count("setup"));
  EXPECT_EQ(figs[0].run.config.at("setup"), "Benchmark");
  EXPECT_EQ(figs[1].run.config.at("setup"), "Compared with the reference implementation");
}

// Two sub-headings that tell repeats apart ("Pass 1" under each) set the
// setup of every figure under them, also of a repeat only one of them has
// (a researcher reads "-" as "no setup").
TEST(ReaderTable, ASubheadingsSetupKeysEveryFigureUnderIt) {
  const std::string text =
      "# Log\n\n## 2026-01-03 Build times\n\n### Cold cache\n```\nPass 1: 41.20ms\nPass 2: 40.90ms\n```\n\n"
      "### Warm cache\n```\nPass 1: 12.10ms\nPass 2: 11.80ms\nPass 3: 11.95ms\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 5u);
  for (const auto& f : figs) EXPECT_TRUE(f.run.config.count("setup")) << f.text;
  ASSERT_TRUE(figs[4].run.config.count("setup"));
  EXPECT_EQ(figs[4].run.config.at("setup"), "Warm cache");
}

// Sub-headings nested two deep (a machine over its build flags): the setup
// of a figure is its whole path, so the machines' figures stay apart.
TEST(ReaderTable, NestedSubheadingsAreOneSetupPath) {
  const std::string text =
      "# Log\n\n## 2026-01-02 Kernel 00\n\n### Desk machine\n\n#### -O0\n```\nLatency: 320.7 ms\n```\n\n"
      "#### -O2\n```\nLatency: 120.7 ms\n```\n\n### Small laptop\n\n#### -O0\n```\nLatency: 419.9 ms\n```\n\n"
      "#### -O2\n```\nLatency: 150.2 ms\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 4u);
  ASSERT_TRUE(figs[0].run.config.count("setup"));
  EXPECT_EQ(figs[0].run.config.at("setup"), "Desk machine / -O0");
  EXPECT_EQ(figs[3].run.config.at("setup"), "Small laptop / -O2");
}

// Columns named by a version ("v2.4.1", "v2.5.0 (lazy)") keep it as
// written: the dots of a release number are part of the column's name.
TEST(ReaderTable, AVersionNamedColumnKeepsItsDots) {
  const auto figs = TableEntryFigures(
      "| input | v2.4.1 | v2.5.0 (lazy) |\n"
      "|---|---|---|\n"
      "| small | 3.10s | 2.95s |\n");
  ASSERT_EQ(figs.size(), 2u);  // each version's column its own run (RunColumns)
  std::set<std::string> versions;
  for (const auto& f : figs) versions.insert(f.run.config.at("variant"));
  EXPECT_EQ(versions, (std::set<std::string>{"v2.4.1", "v2.5.0 (lazy)"}));
}

// A first column headed by one letter that a unit also spells ("s", "m")
// over plain whole numbers names the rows' parameter (s=32), not a time.
TEST(ReaderTable, AOneLetterFirstColumnOfWholeNumbersIsTheRowsKey) {
  const auto figs = TableEntryFigures(
      "| s | Fixed | Adaptive |\n"
      "|---:|---:|---:|\n"
      "| 16 | 31.20 ms | 30.05 ms |\n"
      "| 64 | 118.90 ms | 112.35 ms |\n");
  ASSERT_EQ(figs.size(), 4u);  // the fixed and the adaptive run of each row
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("s")) << f.text;
    for (const auto& [m, v] : f.run.metrics) EXPECT_TRUE(v < 1) << m << "=" << v;
  }
  EXPECT_EQ(figs[3].run.config.at("s"), "64");
}

// A cell of two figures each named by its parenthesis ("410 (capped) /
// 352 (uncapped)"): two figure sets of the row, each keyed by its name.
TEST(ReaderTable, ACellOfNamedFiguresIsOneFigureSetPerName) {
  const auto figs = TableEntryFigures(
      "| Seq | TFLOPS |\n"
      "|---|---|\n"
      "| 8192 | 410 (capped) / 352 (uncapped) |\n");
  ASSERT_EQ(figs.size(), 2u);
  std::map<std::string, double> by;
  for (const auto& f : figs)
    if (f.run.config.count("variant") && f.run.metrics.count("tflops")) by[f.run.config.at("variant")] = f.run.metrics.at("tflops");
  EXPECT_EQ(by, (std::map<std::string, double>{{"capped", 410}, {"uncapped", 352}}));
}

// A cell with its range in brackets ("41.2 ms [40.9, 42.0]"): the figure
// and both ends of its measured range, on the row.
TEST(ReaderTable, ACellsBracketedRangeIsOnItsRow) {
  const auto figs = TableEntryFigures(
      "| n | Step |\n"
      "|---:|---:|\n"
      "| 16 | 41.2 ms [40.9, 42.0] |\n");
  ASSERT_EQ(figs.size(), 1u);
  std::set<double> values;
  for (const auto& [m, v] : figs[0].run.metrics) values.insert(std::round(v * 1e5) / 1e5);
  EXPECT_EQ(values, (std::set<double>{0.0409, 0.0412, 0.042}));
}

// A cell of figures in different units, one after another with slashes
// ("21.40us / 812.5 GB/s", "44.1us / 98.6 TFLOPS / 501.2 GB/s"): one
// figure per metric, all of the row; a slash between two figures of one
// metric ("10.1 GB / 81.6 GB": used of total) is no such cell.
TEST(ReaderTable, ACellOfSeveralMetricsKeepsEachFigure) {
  const auto figs = TableEntryFigures(
      "| Kernel | GPU A | GPU B |\n"
      "|---|---|---|\n"
      "| eager | 21.40us / 812.5 GB/s | 44.1us / 98.6 TFLOPS / 501.2 GB/s |\n"
      "| fused | 12.50us / 790.0 GB/s | 12.0us / 700.0 GB/s |\n");
  std::set<double> values;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) values.insert(std::round(v * 1e9) / 1e9);
  for (double want : {21.40e-6, 812.5, 44.1e-6, 98.6, 501.2, 12.0e-6, 700.0})
    EXPECT_TRUE(values.count(std::round(want * 1e9) / 1e9)) << want;
  const auto memory = TableEntryFigures("| run | memory |\n|---|---|\n| a | 10.1 GB / 81.6 GB |\n");
  for (const auto& f : memory)
    for (const auto& [m, v] : f.run.metrics) EXPECT_NE(v, 81.6) << m;
}

// A line of `key=value` settings above a table ("**M=8, N=2048, K=512**"),
// even with a remark between them, keys every row of that table; the next
// table's line keys the next table.
TEST(ReaderTable, ASettingsLineAboveATableKeysItsRows) {
  const auto figs = TableEntryFigures(
      "\n**M=8, N=2048, K=512**\n\nlibrary 1.2\n\n| kernel | time |\n|---|---|\n| eager | 21.40 us |\n| fused | 12.00 us |\n\n"
      "**M=64, N=2048, K=512**\n\nlibrary 1.2\n\n| kernel | time |\n|---|---|\n| eager | 40.10 us |\n");
  ASSERT_EQ(figs.size(), 3u);
  for (size_t i = 0; i < figs.size(); ++i) {
    ASSERT_TRUE(figs[i].run.config.count("M")) << i;
    EXPECT_EQ(figs[i].run.config.at("M"), i < 2 ? "8" : "64") << i;
    ASSERT_TRUE(figs[i].run.config.count("N")) << i;
  }
}

// A line above a table keys its rows only when every word is a setting
// (`M=8 fast` is a remark, no settings; `K=a=b` no setting): the line's
// pairs are read whole or not at all.
TEST(ReaderTable, ALineWithMoreThanSettingsKeysNoRows) {
  for (const char* line : {"**M=8, N=2048 fast**", "`M=8; K=a=b`"}) {
    const auto figs = TableEntryFigures(std::string("\n") + line + "\n\n| kernel | time |\n|---|---|\n| eager | 21.40 us |\n");
    ASSERT_EQ(figs.size(), 1u) << line;
    EXPECT_FALSE(figs[0].run.config.count("M")) << line;
  }
}

// A time written in several units ("2m 5s 120ms", "1h 02m 03s", a
// record's wall time) is one figure, in seconds; never the row's key.
TEST(ReaderTable, ATimeInSeveralUnitsIsOneFigure) {
  const auto figs = TableEntryFigures(
      "| # | Val Loss | Time |\n"
      "|---|---|---|\n"
      "| 1 | 3.71 | 2m 5s 120ms |\n"
      "| 2 | 3.70 | 1h 02m 03s |\n");
  ASSERT_EQ(figs.size(), 2u);
  std::vector<double> times;
  for (const auto& f : figs) {
    EXPECT_FALSE(f.run.config.count("time")) << f.text;
    for (const auto& [m, v] : f.run.metrics)
      if (m.find("time") != std::string::npos) times.push_back(std::round(v * 1000) / 1000);
  }
  EXPECT_EQ(times, (std::vector<double>{125.12, 3723}));
}

// A column whose cells write one metric in several units ("376us" over
// "1.53ms", a header without a unit): every cell is a figure, kept in the
// unit and digits it is written in.
TEST(ReaderTable, AColumnOfOneMetricInSeveralUnitsKeepsEachAsWritten) {
  const auto figs = TableEntryFigures(
      "| Benchmark | Baseline | After |\n"
      "|---|---|---|\n"
      "| sqrt_64 | ~31ms | 376us |\n"
      "| sqrt_256 | ~38ms | 1.53ms |\n");
  // Each After figure (a row of its own or a column of its row) in its own unit.
  int found = 0;
  for (const auto& f : figs)
    for (const auto& [metric, v] : f.run.metrics) {
      if (std::fabs(v - 0.00153) < 1e-12) {
        EXPECT_EQ(f.run.units.at(metric), "ms") << f.text;
        EXPECT_EQ(f.run.decimals.at(metric), 2) << f.text;
        ++found;
      }
      if (std::fabs(v - 376e-6) < 1e-12) {
        EXPECT_EQ(f.run.units.at(metric), "us") << f.text;
        ++found;
      }
    }
  EXPECT_EQ(found, 2);
}

// JMH's table (`| Benchmark | Mode | Cnt | Score | Error | Units |`): the
// Units column names each row's unit, Error is the score's spread and Cnt
// its repeat count, neither a configuration; a comma that cannot group
// thousands ("0,820", "1647,810") makes the column's commas decimal points.
TEST(ReaderTable, AUnitsColumnGivesEachRowsScoreItsUnit) {
  const auto figs = TableEntryFigures(
      "|Benchmark |Mode | Cnt |    Score  |   Error    |Units|\n"
      "|---|---|---|---|---|---|\n"
      "|Sort.sort_java |avgt |   5 |    21,080 |\u00b1    0,820  |us/op|\n"
      "|Fib.recursive_long |avgt |   5 |  1647,810 |\u00b1   10,213  |us/op|\n"
      "|Fib.recursive_big |avgt |   5 |  2,049 |\u00b1   0,046  |ms/op|\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_NEAR(figs[2].run.metrics.at("time_s"), 2.049e-3, 1e-12);
  EXPECT_EQ(figs[2].run.units.at("time_s").substr(0, 2), "ms");
  for (const auto& f : figs) {
    EXPECT_FALSE(f.run.config.count("cnt")) << f.text;
    EXPECT_FALSE(f.run.config.count("error")) << f.text;
  }
  ASSERT_TRUE(figs[1].run.metrics.count("time_s")) << figs[1].text;
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 1647.810e-6, 1e-12);
  EXPECT_EQ(figs[1].run.units.at("time_s").substr(0, 2), "us");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 21.080e-6, 1e-12);
}

// A column headed by a word of change ("Change", "Delta") over names, not
// numbers ("16MB read size", "Reduce allocations"), names each row's run:
// its rows are told apart by it.
TEST(ReaderTable, AChangeColumnOfNamesNamesTheRows) {
  const auto figs = TableEntryFigures(
      "| Change | Timing |\n"
      "| --- | --- |\n"
      "| First version | 239s |\n"
      "| 16MB read size | 18s |\n"
      "| Reduce allocations | 13s |\n");
  ASSERT_EQ(figs.size(), 3u);
  std::set<std::map<std::string, std::string>> configs;
  for (const auto& f : figs) configs.insert(f.run.config);
  EXPECT_EQ(configs.size(), 3u);
  bool named = false;
  for (const auto& [k, v] : figs[1].run.config) named = named || v.find("16MB read size") != std::string::npos;
  EXPECT_TRUE(named);
}

// A sweep table under a caption that names its unit ("times in us"): the
// columns named for a size or count ("hidden", "num_experts", "topk", "M")
// are the rows' settings, the columns named for what ran ("v3", "dispatch
// only") hold the figures, one per cell.
TEST(ReaderTable, ParameterColumnsOfASweepAreTheRowsKeys) {
  const auto figs = TableEntryFigures(
      "\nProfile of v3 (times in us)\n\n"
      "| hidden | num_experts | M | v3 | dispatch only |\n"
      "|---:|---:|---:|---:|---:|\n"
      "| 4096 | 8 | 16 | 900 | 500 |\n"
      "| 2048 | 64 | 32 | 1100 | 650 |\n");
  ASSERT_EQ(figs.size(), 4u);
  std::set<std::string> variants;
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("hidden")) << f.text;
    ASSERT_TRUE(f.run.config.count("num_experts")) << f.text;
    if (f.run.config.count("variant")) variants.insert(f.run.config.at("variant"));
    for (const auto& [m, v] : f.run.metrics) EXPECT_TRUE(v * 1e6 >= 500 - 1e-6) << m << "=" << v;
  }
  EXPECT_EQ(variants, (std::set<std::string>{"v3", "dispatch only"}));
}

// A cell written as a range ("30-110ms", "2.1–2.6 s") holds the least and
// the most of the row's figure: two figures of the row, its min and max; a
// date ("2025-12-21") is no range.
TEST(ReaderTable, ARangeCellIsTheRowsMinAndMax) {
  const auto figs = TableEntryFigures(
      "| Setup | Date | Round | Probe |\n"
      "|---|---|---|---|\n"
      "| base | 2025-12-21 | 900ms | 350ms |\n"
      "| fast | 2025-12-22 | 610ms | 30-110ms |\n");
  ASSERT_EQ(figs.size(), 4u);  // the round's and the probe's figures, a set each
  std::map<std::string, double> fast;
  for (const auto& f : figs) {
    if (f.line != 8) continue;
    EXPECT_EQ(f.run.config.at("date"), "2025-12-22");
    for (const auto& [m, v] : f.run.metrics) fast[m] = std::round(v * 1e6) / 1e6;
  }
  bool low = false, high = false;
  for (const auto& [m, v] : fast) {
    low = low || (m.find("min") != std::string::npos && v == 0.03);
    high = high || (m.find("max") != std::string::npos && v == 0.11);
  }
  EXPECT_TRUE(low);
  EXPECT_TRUE(high);
}

// A row not yet measured ("[to be measured]", "(pending)") holds no figure:
// the column's other cells are still read.
TEST(ReaderTable, APlaceholderCellHoldsNoFigure) {
  const auto figs = TableEntryFigures(
      "| # | Loss | Time |\n"
      "|---|---|---|\n"
      "| 1 | 3.71 | 125.1s |\n"
      "| 2 | [to be measured] | [to be measured] |\n");
  ASSERT_EQ(figs.size(), 1u);
  bool time = false;
  for (const auto& [m, v] : figs[0].run.metrics) time = time || (m.find("time") != std::string::npos && v == 125.1);
  EXPECT_TRUE(time);
}

// A row named by a hash that reads as a number with an exponent
// ("6230e838", beside "b8f4f012") keeps that name: no written quantity has
// an exponent past the range of a number.
TEST(ReaderTable, AHashNamedRowKeepsItsName) {
  const auto figs = TableEntryFigures(
      "| Workload | Kernel A | Kernel B |\n"
      "|---|---|---|\n"
      "| b8f4f012 | 8.38 ms | 30.47 ms |\n"
      "| 6230e838 | 9.10 ms | 38.75 ms |\n");
  ASSERT_EQ(figs.size(), 4u);  // each kernel's column its own run (RunColumns)
  for (const auto& f : figs) {
    if (f.line != 8) continue;
    bool named = false;
    for (const auto& [k, v] : f.run.config) named = named || v == "6230e838";
    EXPECT_TRUE(named);
  }
}

// Columns of one metric named by different runs ("Baseline (ms) |
// Optimized (ms)", "cuBLAS TFLOPS | ours TFLOPS") are a figure set each,
// keyed by the header's words: two runs are never one row. Columns of one
// metric that are parts of one run ("prefill (ms) | decode (ms)") stay one.
TEST(ReaderTable, ColumnsOfOneMetricNamedByRunsAreRowsOfTheirOwn) {
  const auto figs = TableEntryFigures(
      "| Size | Baseline (ms) | Optimized (ms) | Speedup |\n"
      "|---|---:|---:|---:|\n"
      "| 1024 | 12.40 | 3.10 | 4.0x |\n");
  ASSERT_EQ(figs.size(), 2u);
  std::map<std::string, double> by_variant;
  for (const auto& f : figs) {
    EXPECT_EQ(f.line, 7);
    ASSERT_TRUE(f.run.config.count("variant"));
    ASSERT_TRUE(f.run.metrics.count("time_s"));
    by_variant[f.run.config.at("variant")] = f.run.metrics.at("time_s");
  }
  EXPECT_DOUBLE_EQ(by_variant["Baseline"], 0.0124);
  EXPECT_DOUBLE_EQ(by_variant["Optimized"], 0.0031);
  const auto gemm = TableEntryFigures(
      "| N | cuBLAS TFLOPS | ours TFLOPS | ours ms |\n"
      "|---|---:|---:|---:|\n"
      "| 4096 | 21.2 | 18.3 | 7.51 |\n");
  ASSERT_EQ(gemm.size(), 2u);
  for (const auto& f : gemm)  // "ours ms" is the ours run's time
    EXPECT_EQ(f.run.metrics.count("time_s") > 0, f.run.config.at("variant") == "ours");
  const auto parts = TableEntryFigures(
      "| Model | prefill (ms) | decode (ms) |\n"
      "|---|---:|---:|\n"
      "| a | 120 | 8.5 |\n");
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].run.metrics.size(), 2u);
  // A unit in the header is no part of the run's name ("MLX (\u00b5s)").
  const auto named = TableEntryFigures(
      "| Op | MLX (\u00b5s) | Candle (\u00b5s) |\n"
      "|---|---:|---:|\n"
      "| softmax | 12.4 | 15.9 |\n");
  ASSERT_EQ(named.size(), 2u);
  std::set<std::string> variants;
  for (const auto& f : named) variants.insert(f.run.config.count("variant") ? f.run.config.at("variant") : "");
  EXPECT_EQ(variants, (std::set<std::string>{"MLX", "Candle"}));
}

// A column of factors ("ratio", "vs FLA": 1.13x) or of remarks ("Verdict",
// "Description") beside the runs' figures keys no row: a ratio compares
// runs, a remark is the author's prose; neither is a configuration.
TEST(ReaderTable, FactorAndRemarkColumnsKeyNoRow) {
  const auto figs = TableEntryFigures(
      "| Experiment | Description | Time (us) | ratio | Verdict |\n"
      "|---|---|---:|---:|---|\n"
      "| bv8 | one warp per block | 28.01 | 1.13x | kept |\n"
      "| reorder | grid walked by rows | 29.72 | 1.07x | reverted |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_FALSE(f.run.config.count("ratio"));
    EXPECT_FALSE(f.run.config.count("verdict"));
    EXPECT_FALSE(f.run.config.count("description"));
    for (const auto& [k, v] : f.run.config) {
      EXPECT_NE(v.find("1.13x"), 0u) << k;
      EXPECT_NE(v, "kept") << k;
    }
  }
  bool named = false;  // the row keeps its own name
  for (const auto& [k, v] : figs[0].run.config) named = named || v == "bv8";
  EXPECT_TRUE(named);
}

// A sentence leading into a table ("After fixing the warmup in the
// harness, we measured again:") names none of its rows: the label of a
// table is a name (a caption, a bold lead, a sub-heading), never prose.
TEST(ReaderTable, ASentenceAboveATableNamesNoSetup) {
  const auto figs = TableEntryFigures(
      "After fixing the warmup in the harness, we measured again:\n\n"
      "| kernel | time (ms) |\n|---|---:|\n| fused | 1.20 |\n\n"
      "**Without warmup:**\n\n"
      "| kernel | time (ms) |\n|---|---:|\n| fused | 1.90 |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(v.find("we measured"), std::string::npos) << k << "=" << v;
}

// A time column written in minutes, in parts and in hours ("~47 mins",
// "6h 44m", "210 hours (7 nodes)") is one metric, the wall time: each cell
// a figure of its row, none the row's key.
TEST(ReaderTable, AColumnOfWallTimesInMixedFormsIsOneMetric) {
  const auto figs = TableEntryFigures(
      "| # | Val Loss | Time |\n"
      "|---|---|---|\n"
      "| 1 | 3.402 | ~47 mins |\n"
      "| 2 | 3.264 | 6h 44m |\n"
      "| 3 | 3.218 | 210 hours (7 nodes) |\n");
  ASSERT_EQ(figs.size(), 3u);
  const double want[] = {47 * 60.0, 6 * 3600.0 + 44 * 60.0, 210 * 3600.0};
  for (size_t i = 0; i < figs.size(); ++i) {
    EXPECT_FALSE(figs[i].run.config.count("time")) << i;
    ASSERT_TRUE(figs[i].run.metrics.count("wall_time_s")) << i << ::testing::PrintToString(figs[i].run.metrics);
    EXPECT_NEAR(figs[i].run.metrics.at("wall_time_s"), want[i], 1e-6) << i;
  }
}

// Columns of one metric headed by values of a setting ("15 in toks | 1144
// in tokens", "15 input tokens | 1144 input tokens") are runs of their own,
// though "in" and "input" name parts of one run elsewhere; "p50 | p99"
// columns stay one run's statistics.
// Two columns of one metric that a change column compares are two runs, even
// when a header's word names a part of a run elsewhere ("dispatch"); without
// the change column such words keep the row one run.
TEST(ReaderTable, ColumnsAChangeComparesAreRunsWhateverTheirWords) {
  const auto figs = TableEntryFigures(
      "| Case | Clean `HEAD` | Final dispatch | Delta |\n|---|---:|---:|---:|\n"
      "| vars | 16.23ms | 8.25ms | 49.1% faster |\n");
  ASSERT_EQ(figs.size(), 2u);
  std::set<std::string> variants;
  for (const auto& f : figs) variants.insert(f.run.config.count("variant") ? f.run.config.at("variant") : "");
  EXPECT_EQ(variants, (std::set<std::string>{"Clean HEAD", "Final dispatch"}));
  const auto parts = TableEntryFigures(
      "| Model | dispatch (ms) | combine (ms) |\n|---|---:|---:|\n| a | 1.20 | 0.85 |\n");
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].run.metrics.size(), 2u);
}

// A column of another metric whose header opens with the word of one run's
// column ("Fixed accuracy" beside "Fixed `l=64` | Progressive `l`") is that
// run's figure, on its row.
TEST(ReaderTable, AColumnNamedByARunsFirstWordIsThatRunsFigure) {
  const auto figs = TableEntryFigures(
      "| s | Fixed `l=64` | Progressive `l` | Fixed accuracy | Progressive accuracy |\n|---:|---:|---:|---:|---:|\n"
      "| 128 | 212.250 ms | 215.458 ms | 76.257324% | 76.263428% |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_EQ(f.run.metrics.size(), 2u);
    const bool fixed = f.run.config.count("l") > 0;
    for (const auto& [m, v] : f.run.metrics)
      if (m.find("accuracy") != std::string::npos) {
        EXPECT_DOUBLE_EQ(v, fixed ? 76.257324 : 76.263428) << m;
      }
  }
}

TEST(ReaderTable, ColumnsHeadedByASettingsValuesAreRuns) {
  for (const std::string head : {"| Impl | 15 in toks | 1144 in tokens |", "| Impl | 15 input tokens | 1144 input tokens |"}) {
    const auto figs = TableEntryFigures(head + "\n|---|---|---|\n| eager | 127 tok/s | 132 tok/s |\n| ours | 838 tok/s | 807 tok/s |\n");
    ASSERT_EQ(figs.size(), 4u) << head;
    for (const auto& f : figs) EXPECT_EQ(f.run.metrics.size(), 1u) << head;
  }
  const auto stats = TableEntryFigures("| Impl | p50 latency (ms) | p99 latency (ms) |\n|---|---|---|\n| eager | 12.1 | 30.5 |\n");
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].run.metrics.size(), 2u);
}

// A table whose rows name metrics by their unit and whose columns are the
// values of what its first header names ("| Prompt | 1K | 2K |" over
// "| Prefill token/s | 105 | 102 |"): one run per column (prompt=1K), its
// rows' figures together, a row of a name alone ("| **6 experts** | | |")
// the group of the rows below it; a cell of words ("CUDA OOM") no figure.
TEST(ReaderTable, RowsOfMetricsUnderColumnsOfValuesAreOneRunAColumn) {
  const auto figs = TableEntryFigures(
      "| Prompt | 1K | 2K |\n|---|---|---|\n"
      "| **6 experts** | | |\n"
      "| Prefill token/s | 105 | 102 |\n"
      "| decode token/s | 15.9 | CUDA OOM |\n"
      "| **8 experts** | | |\n"
      "| Prefill token/s | 99 | 97 |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].run.config.at("prompt"), "1K");
  EXPECT_EQ(figs[0].run.config.at("group"), "6 experts");
  EXPECT_EQ(figs[0].run.metrics.size(), 2u) << ::testing::PrintToString(figs[0].run.metrics);
  EXPECT_EQ(figs[1].run.metrics.size(), 1u);
  EXPECT_EQ(figs[3].run.config.at("group"), "8 experts");
  // Rows keyed by a size ("64 MiB") under a column that names the metric stay rows of runs.
  const auto sizes = TableEntryFigures("| Size | Copy (MB/s) | Read (MB/s) |\n|---|---|---|\n| 64 MiB | 11,020 | 9,800 |\n| 256 MiB | 10,904 | 9,700 |\n");
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0].run.config.at("size"), "64 MiB");
}

// A row whose label says its figures are estimates ("| Decode (estimated)
// | ~19 |") records no run, in a table with a unit column or not.
TEST(ReaderTable, ARowOfEstimatesIsNoRun) {
  EXPECT_TRUE(TableEntryFigures("| Metric | tok/s |\n|---|---|\n| Decode (estimated) | ~19 |\n| Sustained (estimated) | ~19 |\n").empty());
  const auto mixed = TableEntryFigures("| Metric | tok/s |\n|---|---|\n| Decode | 41.2 |\n| Prefill (estimated) | ~900 |\n");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_NEAR(mixed[0].run.metrics.begin()->second, 41.2, 1e-9);
}

// A cell written with a magnitude and a spaced unit ("6.30M tokens/sec") in
// a table of metric rows is that many tokens a second.
TEST(ReaderTable, AMagnitudeBeforeASpacedUnitIsTheNumbers) {
  const auto figs = TableEntryFigures("| Metric | rust | python |\n|---|---|---|\n| Encoding Speed | 6.30M tokens/sec | 805K tokens/sec |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.begin()->second, 6.30e6, 1);
  EXPECT_NEAR(figs[1].run.metrics.begin()->second, 805e3, 1e-6);
}

// A long table (an evaluation harness's "| Tasks | n-shot | Metric | Value
// | | Stderr |"): the rows of one task are one run, each metric by its
// name, an empty task cell the one above it, the spread no setting.
TEST(ReaderTable, ALongTableIsOneRunPerSettingsEachMetricByName) {
  const auto figs = TableEntryFigures(
      "|  Tasks  |n-shot| Metric |Value |   |Stderr|\n"
      "|---------|-----:|--------|-----:|---|-----:|\n"
      "|hellaswag|     0|acc     |0.5712|±  |0.0049|\n"
      "|         |     0|acc_norm|0.7534|±  |0.0043|\n"
      "|arc_easy |     0|acc     |0.8011|±  |0.0082|\n"
      "|arc_easy |     0|latency (ms)|41.5|±  |0.3|\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("tasks"), "hellaswag");
  EXPECT_NEAR(figs[0].run.metrics.at("acc"), 0.5712, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("acc_norm"), 0.7534, 1e-12);
  EXPECT_FALSE(figs[0].run.config.count("stderr"));
  EXPECT_EQ(figs[1].run.config.at("tasks"), "arc_easy");
  EXPECT_EQ(figs[1].run.metrics.size(), 2u) << ::testing::PrintToString(figs[1].run.metrics);
}

// A metric table with a column of gates beside its values ("| Metric |
// Value | Gate |"): the gates are goals, no setting; a row's name keys its
// run by its settings and a closing parenthesis of words ("Tokens/sec
// batch=1 (baseline)"), and a size unit takes its context from the name
// ("GPU mem peak" over "5.64 GB").
TEST(ReaderTable, AMetricTablesGatesAreNoSettingsItsNamesQualifyTheRuns) {
  const auto figs = TableEntryFigures(
      "| Metric | Value | Gate |\n|---|---|---|\n"
      "| Tokens/sec batch=1 (baseline) | 32.9 | \u2014 |\n"
      "| Tokens/sec batch=1 (LocalLeap) | 58.1 | \u2014 |\n"
      "| Step duration p99 (baseline) | 192.3 ms | p99/p50 \u2264 3\u00d7 |\n"
      "| GPU mem peak (baseline) | 5.64 GB | \u2264 11.8 GB \u2713 |\n"
      "| Step duration p99 (LocalLeap) | 192.6 ms | p99/p50 \u2264 3\u00d7 |\n");
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) EXPECT_FALSE(f.run.config.count("gate"));
  EXPECT_EQ(figs[0].run.config.at("batch"), "1");
  EXPECT_EQ(figs[0].run.config.at("case"), "baseline");
  EXPECT_EQ(figs[1].run.config.at("case"), "LocalLeap");
  EXPECT_EQ(figs[2].run.config.at("case"), "baseline");
  EXPECT_EQ(figs[2].run.metrics.size(), 2u) << ::testing::PrintToString(figs[2].run.metrics);
  EXPECT_EQ(figs[3].run.config.at("case"), "LocalLeap");
}

// BenchmarkDotNet's table: its rows measure in the columns whose cells
// write their units (Mean, Error, Allocated); the bare columns beside them
// (Gen0, Gen1: collections per 1,000 operations) are figures of the row,
// never runs of their own.
TEST(ReaderTable, BareColumnsBesideCellsWithUnitsAreNoRuns) {
  const auto figs = TableEntryFigures(
      "| Method | Mean | Error | Gen0 | Gen1 | Allocated |\n|---|---:|---:|---:|---:|---:|\n"
      "| A | 121.6 \u03bcs | 2.27 \u03bcs | 28.0762 | 9.2773 | 459.73 KB |\n"
      "| B | 5,809.8 \u03bcs | 108.72 \u03bcs | 328.1250 | - | 4486.75 KB |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_FALSE(figs[0].run.config.count("variant"));
  EXPECT_TRUE(figs[0].run.metrics.count("gen0")) << ::testing::PrintToString(figs[0].run.metrics);
  EXPECT_EQ(figs[0].run.metrics.size(), 5u) << ::testing::PrintToString(figs[0].run.metrics);
}

// A cell written as a sentence (an analysis column's remark) keys nothing:
// the row's run is named by its short cells only.
TEST(ReaderTable, ASentenceInACellIsNoKey) {
  const auto figs = TableEntryFigures(
      "| Version | Environment | Time | Analysis |\n|---|---|---:|---|\n"
      "| Optimisation 1 | Python (CPU) | 15.90 s | The direct NumPy call avoids building heavy objects. |\n"
      "| Optimisation 2 | Python (threads) | 18.92 s | Threads block on the GIL. |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& [k, v] : figs[0].run.config) EXPECT_LT(reader::Words(v).size(), 5u) << k << "=" << v;
  EXPECT_FALSE(reader::SentenceCell("Python (CPU)"));
  EXPECT_TRUE(reader::SentenceCell("Threads block on the GIL."));
}

// A unit's parenthesis glued to its column's name ("Mem(GB)") names the
// column's unit as a spaced one does; "Step(s)" is a plural, no unit.
TEST(ReaderTable, AUnitGluedInParenthesesNamesTheColumn) {
  const auto figs = TableEntryFigures("| Batch | Mem(GB) | Step(s) |\n|---|---|---|\n| 8 | 3.2 | 15.0 |\n| 16 | 4.1 | 16.7 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_TRUE(figs[0].run.metrics.count("memory_mib")) << ::testing::PrintToString(figs[0].run.metrics);
  EXPECT_FALSE(figs[0].run.metrics.count("time_s")) << ::testing::PrintToString(figs[0].run.metrics);
}

// hyperfine's markdown export writes units in brackets ("Mean [s] | Min [s]
// | Max [s]"): read as "(s)" is, each statistic a time of its own.
TEST(ReaderTable, UnitsInBracketsAreTheColumnsUnits) {
  const auto figs = reader::ReadEntry("# Bench\n\n", "## 2026-05-02 q14c\n\n"
                                              "| Command | Mean [s] | Min [s] | Max [s] |\n|:---|---:|---:|---:|\n"
                                              "| `a` | 7.756 \xC2\xB1 0.926 | 6.798 | 9.544 |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_TRUE(figs[0].run.metrics.count("min_time_s"));
  EXPECT_TRUE(figs[0].run.metrics.count("max_time_s"));
  EXPECT_FALSE(figs[0].run.config.count("min_s"));
}

}  // namespace
}  // namespace moelog::logbook
