// The figures stage on forms of result tables and printouts other authors
// write: vertical metric tables, decorated cells, unit-only headers, bench
// tools' printouts pasted without their command.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/figures_cells.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

std::vector<RecordedFigure> EntryFigures(const std::string& body) {
  const Logbook lb = ParseLogbook("# Log\n\n## 2026-01-02 Runs\n\n" + body, "t.md");
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0]);
}

const RecordedFigure* At(const std::vector<RecordedFigure>& figs, int line) {
  for (const auto& f : figs)
    if (f.line == line) return &f;
  return nullptr;
}

// "| Metric | Value |": one run, a figure a row (on the row's own line),
// each table keyed by the sub-heading above it; a setting row keys them all.
TEST(ReaderForms, AVerticalMetricTableIsOneRunAFigureARow) {
  const auto figs = EntryFigures(
      "### Batch 1\n\n"
      "| Metric | Value |\n|---|---|\n"
      "| **Decode** | **31.2 tok/s** |\n| Prefill (ms) | 182 |\n| Peak memory | 4.1 GB |\n| Model | llama-8b |\n\n"
      "### Batch 8\n\n"
      "| Metric | Value |\n|---|---|\n"
      "| **Decode** | **203.7 tok/s** |\n| Prefill (ms) | 611 |\n");
  const RecordedFigure* decode = At(figs, 9);
  ASSERT_NE(decode, nullptr);
  EXPECT_DOUBLE_EQ(decode->run.metrics.at("tokens_per_s"), 31.2);
  EXPECT_EQ(decode->run.config.at("metric"), "Decode");
  EXPECT_EQ(decode->run.config.at("model"), "llama-8b");
  const RecordedFigure* prefill = At(figs, 10);
  ASSERT_NE(prefill, nullptr);
  EXPECT_NEAR(prefill->run.metrics.at("time_s"), 0.182, 1e-12);
  ASSERT_NE(At(figs, 11), nullptr);  // a peak of memory is measured, no specification
  const RecordedFigure* decode8 = At(figs, 18);
  ASSERT_NE(decode8, nullptr);
  EXPECT_DOUBLE_EQ(decode8->run.metrics.at("tokens_per_s"), 203.7);
  EXPECT_NE(decode8->run.config.at("setup"), decode->run.config.at("setup"));
}

// "#### Latency Distribution (µs)" over "| Min | 26 |": the sub-heading's
// unit is the unit of the table's bare numbers; a percentile's row ("P99.9")
// is a figure, never a setting; a row naming its own unit keeps it.
// A vertical table headed "Metrik" (German; the header words of
// vertical_tables.json in other languages too) holds a metric per row; a
// row name's parenthetical with a number ("Long-Tasks (10 s)") is the
// window it was counted over, not its unit.
TEST(ReaderForms, AMetricTableInAnotherLanguageAndAWindowInARowName) {
  const auto figs = EntryFigures("Ran the harness.\n\n| Metrik | HEAD | baseline-90215e6 |\n|---|---|---|\n"
                                 "| Median | 66.7 | 150.0 |\n| Long-Tasks (10 s) | 134 | 68 |\n");
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_NE(m, "time_s") << v;
}

TEST(ReaderForms, AVerticalTableTakesTheUnitItsSubheadingNames) {
  const auto figs = EntryFigures(
      "#### Latency Distribution (µs)\n\n"
      "| Metric | Value |\n|---|---:|\n"
      "| Min | 26 |\n| Average | 40.68 |\n| **P99.9** | **85** |\n| Total (ms) | 4080 |\n");
  const RecordedFigure* min = At(figs, 9);
  ASSERT_NE(min, nullptr);
  EXPECT_NEAR(min->run.metrics.at("time_s"), 26e-6, 1e-12);
  const RecordedFigure* tail = At(figs, 11);
  ASSERT_NE(tail, nullptr);
  EXPECT_NEAR(tail->run.metrics.at("time_s"), 85e-6, 1e-12);
  const RecordedFigure* total = At(figs, 12);
  ASSERT_NE(total, nullptr);
  EXPECT_NEAR(total->run.metrics.at("time_s"), 4.08, 1e-12);
}

TEST(ReaderForms, AVerticalSheetOfSpecificationsIsNoRun) {
  const auto figs = EntryFigures("### Hardware spec\n\n| Metric | Value |\n|---|---|\n| HBM bandwidth | 3.35 TB/s |\n| HBM | 80 GB |\n");
  EXPECT_TRUE(figs.empty());
}

// "✅ 12.1 ms", "**1.84x**": the decorations are the author's, the row's
// key its workload ID.
TEST(ReaderForms, DecoratedCellsKeepTheirValueAndTheRowItsWorkloadId) {
  const auto figs = EntryFigures(
      "| Workload | Speedup | Kernel time |\n|---|---:|---:|\n"
      "| a3f9c2e1 | **1.84x** | \xE2\x9C\x85 12.1 ms |\n| 7be01d44 | 1.12x | 20.4 ms \xE2\x9D\x8C |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.0121, 1e-12);
  EXPECT_EQ(figs[0].run.config.at("workload"), "a3f9c2e1");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 0.0204, 1e-12);
}

TEST(ReaderForms, PictographsAreDecorations) {
  EXPECT_EQ(reader::Undecorated("\xE2\x9C\x85 12.1 ms"), "12.1 ms");
  EXPECT_EQ(reader::Undecorated("\xF0\x9F\x94\xA5 88.1 \xE2\x9A\xA0\xEF\xB8\x8F"), "88.1");
  EXPECT_EQ(reader::Undecorated("3.2 \xC2\xB5s"), "3.2 \xC2\xB5s");          // a unit stays
  EXPECT_EQ(reader::Undecorated("28.1 \xE2\x86\x92 31.2"), "28.1 \xE2\x86\x92 31.2");  // an arrow stays
  EXPECT_EQ(reader::Undecorated("\xE2\x9C\x85"), "");
}

// "T/s", "TPS": a header that is a unit alone; its bare numbers are figures
// beside the row's duration.
TEST(ReaderForms, AUnitAloneInAHeaderNamesItsColumn) {
  const auto figs = EntryFigures("| Quant | Prompt (ms) | T/s |\n|---|---:|---:|\n| Q4_K_M | 182 | 41.3 |\n\n"
                                 "| Batch | Latency (s) | TPS |\n|---|---:|---:|\n| 8 | 1.92 | 402 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tokens_per_s"), 41.3);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tokens_per_s"), 402);
  EXPECT_TRUE(figs[1].run.metrics.count("time_s"));
}

// A rate's unit alone as a header ("fps"): its column's figures; a sibling
// column with a unit of its own ("realtime-x": a ratio) is no value of a
// key, no configuration and no variant of the rate. An A/B table's cells
// written "a -> b" under "B fps" / "A fps" are the rate before and after.
TEST(ReaderForms, AUnitAloneHeaderLeavesASiblingRatioColumnItsOwn) {
  const auto figs = EntryFigures(
      "| date | commit | implementation | workload | fps | realtime-x |\n|---|---|---|---|---:|---:|\n"
      "| 2026-01-04 | 3f1a2c9 | interpreter | intro-demo | 412.5 | 6.88 |\n"
      "| 2026-01-09 | 81bd0e4 | cached-decoder | intro-demo | 655.0 | 10.92 |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_TRUE(f.run.metrics.count("frames_per_s"));
    for (const auto& [k, v] : f.run.config) {
      EXPECT_NE(k, "variant");
      EXPECT_EQ(k.find("realtime"), std::string::npos) << k << "=" << v;
    }
    for (const auto& [m, v] : f.run.metrics) {
      if (m != "frames_per_s") {
        EXPECT_TRUE(f.run.derived.count(m)) << m;
      }
    }
  }
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("frames_per_s"), 655.0);
  const auto ab = EntryFigures("| workload | B fps | A fps | delta |\n|---|---:|---:|---:|\n"
                               "| intro-demo | 655.0 -> 640.2 | 1210.4 -> 1198.8 | +84% |\n");
  ASSERT_EQ(ab.size(), 4u);
  for (const auto& f : ab) EXPECT_TRUE(f.run.metrics.count("frames_per_s"));
}

// criterion's lines: the middle the estimate, the ends its interval; a
// change against the last run no figure; a block of them is output though
// its first line would read as a command.
TEST(ReaderForms, CriterionPrintoutWithoutACommand) {
  const std::string block =
      "lookup/hit              time:   [1.2034 ms 1.2101 ms 1.2177 ms]\n"
      "                 change: [-3.1102% -2.4121% -1.6894%] (p = 0.00 < 0.05)\n"
      "                 Performance has improved.\n"
      "lookup/miss             time:   [884.12 us 889.40 us 895.02 us]\n";
  EXPECT_TRUE(BenchToolPrintout(block));
  EXPECT_FALSE(BenchToolPrintout("cargo bench --bench lookup\nlookup/hit time: [1.2 ms 1.3 ms 1.4 ms]\n"));
  const auto figs = EntryFigures("Criterion on the laptop:\n\n```\n" + block + "```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.0012101, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("ci_low_time_s"), 0.0012034, 1e-12);
  EXPECT_EQ(figs[0].run.config.at("benchmark"), "lookup/hit");
  EXPECT_EQ(figs[1].run.config.at("benchmark"), "lookup/miss");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 889.40e-6, 1e-12);
}

TEST(ReaderForms, GoogleBenchmarkRowsAndShapeLines) {
  const auto figs = EntryFigures(
      "```\nRun on (16 X 3600 MHz CPU s)\n---------------\nBenchmark      Time     CPU   Iterations\n"
      "---------------\nBM_Gemm/1024   12.3 ms   12.2 ms   57\n```\n\n"
      "```\nM=4096 N=4096 K=4096: 812.4 TFLOPS\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("benchmark"), "BM_Gemm");
  EXPECT_EQ(figs[0].run.config.at("arg"), "1024");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.0123, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("cpu_time_s"), 0.0122, 1e-12);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tflops"), 812.4);
  EXPECT_EQ(figs[1].run.config.at("k"), "4096");
}

// A line of labelled figures ("fused: 1.106 ms (412 TFLOP/s), reference:
// 2.538 ms (180 TFLOP/s)") is one figure set per label, each named by it; a
// label never holds a figure ("1.106 ms (412 TFLOP/s), reference" names no
// run).
TEST(ReaderForms, LabelledFiguresOnOneLineAreASetEach) {
  const auto figs = EntryFigures("- fused: 1.106 ms (412 TFLOP/s), reference: 2.538 ms (180 TFLOP/s)\n");
  ASSERT_EQ(figs.size(), 2u);
  std::map<std::string, double> time_of;
  for (const auto& f : figs) {
    std::string name;
    for (const auto& [k, v] : f.run.config) {
      EXPECT_EQ(v.find("1.106"), std::string::npos) << k;
      if (v == "fused" || v == "reference") name = v;
    }
    ASSERT_TRUE(f.run.metrics.count("time_s")) << f.text;
    time_of[name] = f.run.metrics.at("time_s");
  }
  EXPECT_DOUBLE_EQ(time_of["fused"], 0.001106);
  EXPECT_DOUBLE_EQ(time_of["reference"], 0.002538);
  // Labelled sentences of one item: "Before: 12.3 ms, 45 GB/s. After: 8.1 ms, 68 GB/s."
  const auto sides = EntryFigures("Notes on the fused kernel.\n\n- Before: 12.3 ms, 45 GB/s. After: 8.1 ms, 68 GB/s.\n");
  ASSERT_EQ(sides.size(), 2u);
  for (const auto& f : sides) {
    EXPECT_EQ(f.run.metrics.size(), 2u) << f.text;  // each side's time and bandwidth, never the other side's
    bool named = false;
    for (const auto& [k, v] : f.run.config) named = named || v == "Before" || v == "After";
    EXPECT_TRUE(named) << f.text;
  }
}

// A dict pasted into a cell ("{'p50': 12.3, 'p99': 40.1}"): each statistic
// a figure of the row's run under its name, in the column's unit.
TEST(ReaderForms, ADictInACellIsTheRowsStatistics) {
  const auto figs = EntryFigures(
      "| batch | latency (ms) |\n|---|---|\n"                   // lines 5, 6
      "| 1 | {'p50': 12.3, 'p99': 40.1} |\n"                     // 7
      "| 8 | {\"p50\": 18.7, \"p99\": 55.40} |\n");            // 8
  const RecordedFigure* one = At(figs, 7);
  const RecordedFigure* eight = At(figs, 8);
  ASSERT_NE(one, nullptr);
  ASSERT_NE(eight, nullptr);
  EXPECT_NEAR(one->run.metrics.at("p50_time_s"), 12.3e-3, 1e-12);
  EXPECT_NEAR(one->run.metrics.at("p99_time_s"), 40.1e-3, 1e-12);
  EXPECT_EQ(one->run.units.at("p99_time_s"), "ms");
  EXPECT_EQ(eight->run.decimals.at("p99_time_s"), 2);
  EXPECT_EQ(eight->run.config.at("batch"), "8");
}

// A figure written with an exponent ("1.285e-05 s") keeps the author's
// digits: its value, and decimals that show 0.00001285 (never 0.0000129).
TEST(ReaderForms, AnExponentKeepsTheAuthorsDigits) {
  const auto figs = EntryFigures(
      "- empty kernel: 1.285e-05 s per launch\n"                 // line 5
      "- memset: 2.31E-05 s per launch\n\n"                     // 6
      "| kernel | time (s) |\n|---|---|\n"                       // 8, 9
      "| copy | 3.4e-05 |\n");                                    // 10
  const RecordedFigure* empty = At(figs, 5);
  ASSERT_NE(empty, nullptr);
  EXPECT_NEAR(empty->run.metrics.at("time_s"), 1.285e-05, 1e-15);
  EXPECT_EQ(empty->run.decimals.at("time_s"), 8);
  const RecordedFigure* memset = At(figs, 6);
  ASSERT_NE(memset, nullptr);
  EXPECT_NEAR(memset->run.metrics.at("time_s"), 2.31e-05, 1e-15);
  const RecordedFigure* copy = At(figs, 10);
  ASSERT_NE(copy, nullptr);
  EXPECT_NEAR(copy->run.metrics.at("time_s"), 3.4e-05, 1e-15);
  EXPECT_EQ(copy->run.decimals.at("time_s"), 6);
}

// Sub-headings that state the entry's result ("### Result: 2.1x faster,
// 340 us", "#### 1.82 ms (fused)"): their figures are read on their lines,
// a parenthetical after the figure naming its run.
TEST(ReaderForms, ASubheadingStatesTheEntrysResult) {
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-01-02 Fused epilogue\n\n"
      "```bash\n./gemm_bench --m 4096\n```\n\n"    // lines 5-7
      "### Result: 2.1x faster, 340 us\n\n"          // 9
      "#### 1.82 ms (unfused)\n\nThe old path.\n\n"  // 11
      "#### 0.87 ms (fused)\n\nThe new path.\n",      // 15
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);  // figures first: no numbered sections
  const auto figs = RecordedFigures(lb.entries[0]);
  const RecordedFigure* result = At(figs, 9);
  ASSERT_NE(result, nullptr);
  EXPECT_NEAR(result->run.metrics.at("time_s"), 340e-6, 1e-12);
  const RecordedFigure* unfused = At(figs, 11);
  const RecordedFigure* fused = At(figs, 15);
  ASSERT_NE(unfused, nullptr);
  ASSERT_NE(fused, nullptr);
  EXPECT_NEAR(fused->run.metrics.at("time_s"), 0.87e-3, 1e-12);
  EXPECT_NE(unfused->run.config, fused->run.config);
}

// A cell of a measurement and its spread ("7.90 \u00b1 0.04"): the
// measurement is the figure, as written; "(peak 8.3)" after it another
// statistic of the same run.
TEST(ReaderForms, ACellsSpreadIsNoPartOfItsFigure) {
  const auto figs = EntryFigures(
      "| batch | decode (tok/s) | prefill |\n|---|---|---|\n"      // lines 5, 6
      "| 1 | 7.90 \xC2\xB1 0.04 (peak 8.3) | 412 +/- 3 ms |\n"       // 7
      "| 8 | **41.3 \xC2\xB1 1.2** | 655 +/- 9 ms |\n");              // 8
  const RecordedFigure* one = At(figs, 7);
  const RecordedFigure* eight = At(figs, 8);
  ASSERT_NE(one, nullptr);
  ASSERT_NE(eight, nullptr);
  EXPECT_DOUBLE_EQ(one->run.metrics.at("tokens_per_s"), 7.90);
  EXPECT_EQ(one->run.decimals.at("tokens_per_s"), 2);
  EXPECT_DOUBLE_EQ(one->run.metrics.at("peak_tokens_per_s"), 8.3);  // a statistic of the same run
  EXPECT_DOUBLE_EQ(eight->run.metrics.at("tokens_per_s"), 41.3);
  EXPECT_NEAR(one->run.metrics.at("time_s"), 0.412, 1e-12);
}

// "| Metric | eager | compiled | Gap |": rows of metrics, each further
// column a run; a cell with its own unit is that run's figure, a count, a
// ratio or a share is none.
TEST(ReaderForms, MetricRowsWithARunAColumn) {
  const auto figs = EntryFigures(
      "| Metric | eager | compiled | Gap |\n|---|---|---|---|\n"              // lines 5, 6
      "| Step time | 41.2 ms | 30.5 ms | **1.35x faster** |\n"              // 7
      "| Achieved bandwidth | 512.4 GB/s | 640.2 GB/s | 25% more |\n"       // 8
      "| Graph breaks | ~4-5 | 0 | - |\n");                                  // 9
  std::vector<const RecordedFigure*> step, bw;
  for (const auto& f : figs) {
    if (f.line == 7) step.push_back(&f);
    if (f.line == 8) bw.push_back(&f);
    EXPECT_NE(f.line, 9);
    EXPECT_FALSE(f.run.metrics.count("speedup"));
  }
  ASSERT_EQ(step.size(), 2u);
  ASSERT_EQ(bw.size(), 2u);
  EXPECT_NEAR(step[0]->run.metrics.at("time_s"), 41.2e-3, 1e-12);
  EXPECT_EQ(step[0]->run.config.at("variant"), "eager");
  EXPECT_EQ(step[1]->run.config.at("variant"), "compiled");
  EXPECT_DOUBLE_EQ(bw[1]->run.metrics.at("gb_per_s"), 640.2);
  EXPECT_NE(step[0]->run.config, bw[0]->run.config);  // each metric its own row
}

// "| Metric | A | B |" where no cell writes a unit: each row's name is its
// metric (its unit when it names one, "Prefill (ms)"), each further column a
// run; a derived row ("Speedup") and a setting's row ("Batch size") none.
TEST(ReaderForms, MetricRowsWithoutUnitsAreRunsByColumn) {
  const auto figs = EntryFigures(
      "| Metric | llama.cpp | MLC |\n|---|---|---|\n"   // lines 5, 6
      "| Prefill (ms) | 182 | 164 |\n"                 // 7
      "| Decode tok/s | 41.7 | 45.2 |\n"               // 8
      "| p99 jitter | 3.9 | 2.2 |\n"                    // 9
      "| Speedup | 1.00 | 1.11 |\n"                      // 10
      "| Batch size | 8 | 8 |\n");                       // 11
  std::vector<const RecordedFigure*> prefill, decode, jitter;
  for (const auto& f : figs) {
    if (f.line == 7) prefill.push_back(&f);
    if (f.line == 8) decode.push_back(&f);
    if (f.line == 9) jitter.push_back(&f);
    EXPECT_LT(f.line, 10);
  }
  ASSERT_EQ(prefill.size(), 2u);
  ASSERT_EQ(decode.size(), 2u);
  ASSERT_EQ(jitter.size(), 2u);
  EXPECT_NEAR(prefill[0]->run.metrics.at("time_s"), 0.182, 1e-12);
  EXPECT_EQ(prefill[0]->run.config.at("variant"), "llama.cpp");
  EXPECT_EQ(prefill[1]->run.config.at("variant"), "MLC");
  EXPECT_DOUBLE_EQ(decode[1]->run.metrics.at("tokens_per_s"), 45.2);
  EXPECT_DOUBLE_EQ(jitter[0]->run.metrics.at("p99_jitter"), 3.9);
}

// "| Benchmark | Time (ns) | CPU Time (ns) | Iterations |": headers naming
// different metrics make the columns metrics and each row a run, even when
// a row's name holds a metric word ("Ring Buffer Throughput").
TEST(ReaderForms, HeadersNamingMetricsApartMakeRowsRuns) {
  const auto figs = EntryFigures(
      "| Benchmark | Time (ns) | CPU Time (ns) | Iterations |\n|---|---|---|---|\n"  // lines 5, 6
      "| Config File Parsing | 41,220 | 41,105 | 17,002 |\n"                        // 7
      "| Ring Buffer Throughput | 312 | 311 | 2,250,112 |\n"                        // 8
      "| Formatter Latency | 88.4 | 88.1 | 7,930,551 |\n");                         // 9
  ASSERT_EQ(figs.size(), 3u);
  for (const auto& f : figs) {
    EXPECT_FALSE(f.run.config.count("variant")) << f.text;
    EXPECT_GE(f.run.metrics.size(), 2u) << f.text;
  }
  EXPECT_EQ(figs[1].run.config.at("benchmark"), "Ring Buffer Throughput");
}

// Columns headed as comparisons ("FA2 vs SDPA") that write each cell with a
// unit of its own hold runs' figures; a bare ratio under such a header is none.
TEST(ReaderForms, ComparisonHeadedColumnsWithUnitsAreRuns) {
  const auto figs = EntryFigures(
      "| Metric | FA2 vs SDPA | Paged vs SDPA |\n|---|---|---|\n"  // lines 5, 6
      "| latency | 1.2 ms | 1.5 ms |\n"                             // 7
      "| Avg TBT | 134.7ms | 135.7ms |\n"                           // 8
      "| ratio | 0.91 | 1.04 |\n");                                  // 9
  int latency = 0, tbt = 0;
  for (const auto& f : figs) {
    latency += f.line == 7;
    tbt += f.line == 8;
    EXPECT_NE(f.line, 9);
  }
  EXPECT_EQ(latency, 2);
  EXPECT_EQ(tbt, 2);
}

// A speedup row of a vertical metric table ("| Speedup | 2.36x |") is
// derived from the runs, listed as such; the table's measured rows stay.
TEST(ReaderForms, ASpeedupRowOfAVerticalTableIsDerived) {
  std::vector<UnreadFigures> unread;
  const Logbook lb = ParseLogbook("# Log\n\n## 2026-01-02 Runs\n\n"
                                  "| Metric | Value |\n|---|---|\n"  // lines 5, 6
                                  "| Speedup | 2.36x |\n"              // 7
                                  "| Fused time | 0.511 ms |\n",      // 8
                                  "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", &unread);
  EXPECT_EQ(At(figs, 7), nullptr);
  ASSERT_NE(At(figs, 8), nullptr);
  bool derived = false;
  for (const auto& u : unread) derived = derived || (u.line == 7 && u.why.find("derived") != std::string::npos);
  EXPECT_TRUE(derived);
}

// A bare number under a label that names a quality of the run is that
// figure; a " / " list under a label whose slashed word names each part is
// one figure a part; a number the label does not name stays unnamed.
TEST(ReaderForms, ALabelNamesAQualityWrittenWithoutUnit) {
  const auto figs = EntryFigures(
      "- Best validation loss: `4.47715`\n"              // line 5
      "- Final train/val loss: `4.37017` / `4.54312`\n"  // 6
      "- Resumed val loss: `5.1889` at step `500`\n");   // 7
  // Lines 5 and 6 are one run's figures (table_one_run.cc): one set; line
  // 7's is taken at a point of the run ("at step 500"), a set of its own.
  ASSERT_EQ(figs.size(), 2u);
  ASSERT_EQ(figs[0].joined_lines, std::vector<int>{6});
  const StoredRun& run = figs[0].run;
  EXPECT_DOUBLE_EQ(run.metrics.at("best_validation_loss"), 4.47715);
  EXPECT_DOUBLE_EQ(run.metrics.at("final_train_loss"), 4.37017);
  EXPECT_DOUBLE_EQ(run.metrics.at("final_val_loss"), 4.54312);
  EXPECT_EQ(run.units.at("final_val_loss"), "");
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_NE(v, 500);  // the step is no loss
}

// Statistics of a figure in parentheses after it ("2.0765s (min: 1.7684s,
// max: 2.3868s)"): the same run's, each under its statistic's name.
TEST(ReaderForms, StatisticsInParenthesesAfterAFigure) {
  const auto figs = EntryFigures("- Forward pass: 2.0765s (min: 1.7684s, max: 2.3868s)\n");  // line 5
  const RecordedFigure* f = At(figs, 5);
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->run.metrics.at("time_s"), 2.0765);
  EXPECT_DOUBLE_EQ(f->run.metrics.at("min_time_s"), 1.7684);
  EXPECT_DOUBLE_EQ(f->run.metrics.at("max_time_s"), 2.3868);
  EXPECT_EQ(f->run.decimals.at("max_time_s"), 4);
}

// A tuning journal's summaries: a statistic assigned its figure with '=' and
// the unit after a space ("`avg=1.188 H/s`, `median=1.167 H/s`"), hash rates
// among the units; each statistic keeps its name, counts are no figures.
TEST(ReaderForms, StatisticAssignedAFigureAndHashRates) {
  const auto figs = EntryFigures(
      "- Kernel summary: `avg=1.188 H/s`, `median=1.167 H/s`, `hashes=57 counted=57`\n"  // line 5
      "- Backend summary: avg=2.50 ms (no gain).\n"                                        // line 6
      "- GPU 0: 412.6 MH/s at 180 W\n");                                                  // line 7
  std::map<std::string, double> kernel;
  for (const auto& f : figs)
    if (f.line == 5)
      for (const auto& [k, v] : f.run.metrics) kernel[f.run.config.count("statistic") ? f.run.config.at("statistic") : k] = v;
  ASSERT_EQ(kernel.size(), 2u);
  EXPECT_DOUBLE_EQ(kernel["avg"], 1.188);
  EXPECT_DOUBLE_EQ(kernel["median"], 1.167);
  const RecordedFigure* backend = At(figs, 6);
  ASSERT_NE(backend, nullptr);
  EXPECT_DOUBLE_EQ(backend->run.metrics.begin()->second, 0.0025);
  const RecordedFigure* gpu = At(figs, 7);
  ASSERT_NE(gpu, nullptr);
  EXPECT_DOUBLE_EQ(gpu->run.metrics.at("hashes_per_s"), 412.6e6);
}

// A dated sweep whose attempts are its sub-headings, one of them with a
// `Result:` bullet: each numbered attempt is an entry of its own (the day's
// pieces of work), the session's baseline stays the day's, and every part's
// summary is read where it stands.
TEST(ReaderForms, ADatedEntrysNumberedAttemptsAreEntriesOfTheirOwn) {
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-01-02 Runs\n\n"
      "### Session baseline\n\n"             // line 5
      "- Kernel summary: 1.125 H/s\n\n"      // line 7
      "### Attempt 3: deep refactor\n\n"     // line 9
      "- Probe: 0.688 H/s (regression)\n\n"  // line 11
      "### Attempt 4: start gating\n\n"      // line 13
      "- Result: 1.000 H/s\n",               // line 15
      "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[1].label, "Attempt 3: deep refactor");
  EXPECT_NE(At(RecordedFigures(lb.entries[0]), 7), nullptr);
  EXPECT_NE(At(RecordedFigures(lb.entries[1]), 11), nullptr);
  EXPECT_NE(At(RecordedFigures(lb.entries[2]), 15), nullptr);
}

// A table of a study's steps where the time column holds a figure on the
// steps that ran and a status on the others ("*analysis only*", "blocked
// (driver)", "to be decided"): the column is still a time column, its
// figures are read, the status cells are no figures.
TEST(ReaderForms, StatusCellsAmongAColumnsFiguresLeaveItReadable) {
  const auto figs = EntryFigures(
      "| Step | Tool | Wall clock | Next |\n"                                     // line 5
      "|---|---|---|---|\n"
      "| **Reference** | plain loop | **41.20 s** | profile it |\n"               // line 7
      "| Profile pass | sampler | *analysis only* | vectorize |\n"                // line 8
      "| **Vectorized** | array ops | **12.75 s** | try threads |\n"             // line 9
      "| Thread pool | 8 workers | blocked (driver) | drop it |\n"             // line 10
      "| **Device port** | GPU arrays | **3.08 s** | fuse kernels |\n"          // line 11
      "| Fused kernels | custom | to be decided | later |\n");                   // line 12
  ASSERT_NE(At(figs, 7), nullptr);
  EXPECT_DOUBLE_EQ(At(figs, 7)->run.metrics.begin()->second, 41.20);
  EXPECT_NE(At(figs, 9), nullptr);
  EXPECT_NE(At(figs, 11), nullptr);
  EXPECT_EQ(At(figs, 8), nullptr);
  EXPECT_EQ(At(figs, 10), nullptr);
  EXPECT_EQ(At(figs, 12), nullptr);
}

// A notes column whose cells are mostly words and once a number with a unit
// ("saves 2 ms" is no cell of a figure) stays a notes column.
TEST(ReaderForms, ANotesColumnWithOneFigureIsNoMetricColumn) {
  const auto figs = EntryFigures(
      "| Variant | Effect |\n"                 // line 5
      "|---|---|\n"
      "| a | 3 ms |\n"                          // line 7
      "| b | slower on small inputs |\n"       // line 8
      "| c | same as a |\n");                   // line 9
  EXPECT_EQ(At(figs, 8), nullptr);
  EXPECT_EQ(At(figs, 9), nullptr);
}

// A figure written after a bound mark is a claim, a goal or a limit, not a
// reading ("<400ms", "\u2265 1.5 s", ">= 60 fps"); an arrow ("->") between two
// readings, and a reading after an HTML line break, stay readings.
TEST(ReaderForms, AFigureAfterABoundMarkIsNoReading) {
  const auto figs = EntryFigures(
      "- Claim checked: cold load <400ms per adapter\n"          // line 5
      "- Protocol: let the device idle \u2265 1.5 s first\n"      // line 6
      "- Ship when the frame holds >= 60 fps\n"                  // line 7
      "- Rank 8 cold load: 3.7 ms\n"                             // line 8
      "- Warm path: 4.1 -> 3.2 ms\n");                            // line 9
  EXPECT_EQ(At(figs, 5), nullptr);
  EXPECT_EQ(At(figs, 6), nullptr);
  EXPECT_EQ(At(figs, 7), nullptr);
  EXPECT_NE(At(figs, 8), nullptr);
  EXPECT_NE(At(figs, 9), nullptr);
  // Between two figures a mark compares them ("fused 1.2 ms < unfused 1.9 ms"): both readings.
  const auto compared = EntryFigures("- fused 1.2 ms < unfused 1.9 ms\n");
  ASSERT_NE(At(compared, 5), nullptr);
  EXPECT_EQ(At(compared, 5)->run.metrics.size() + compared.size(), 3u);
}

// A figure worked out on the page from two others ("`6.12 / 8 \u2248 0.77 ms`",
// "3 x 4.1 = 12.3 ms") is computed, not a reading; a reading written with
// "\u2248" alone ("decode \u2248 0.91 ms") stays one.
TEST(ReaderForms, AFigureWorkedOutFromOthersIsComputed) {
  const auto figs = EntryFigures(
      "- Per layer: `6.12 / 8 \u2248 0.77 ms`\n"      // line 5
      "- Three calls: 3 x 4.1 = 12.3 ms\n"              // line 6
      "- Measured decode \u2248 0.91 ms\n");            // line 7
  EXPECT_EQ(At(figs, 5), nullptr);
  EXPECT_EQ(At(figs, 6), nullptr);
  EXPECT_NE(At(figs, 7), nullptr);
}

// A search engine's bench log kept as one table: a row per build, the search
// rate under a header that is its unit ("NPS": nodes per second), written
// in full, with a magnitude or approximately ("~512k"); the node count is
// the bench's signature, no figure of speed.
TEST(ReaderForms, ASearchRateColumnNamedByItsUnit) {
  const auto figs = EntryFigures(
      "| Date | Build | Nodes | NPS | Notes |\n"                                   // line 5
      "|---|---|---|---|---|\n"
      "| 2026-03-01 | base @ 1a2b3c4 | 3,118,204 | 288,415 | reference build |\n"    // line 7
      "| 2026-03-02 | lmr tweak @ 5d6e7f8 | 3,020,777 | ~512k | faster pruning |\n");  // line 8
  ASSERT_NE(At(figs, 7), nullptr);
  ASSERT_EQ(At(figs, 7)->run.metrics.count("nodes_per_s"), 1u);
  EXPECT_DOUBLE_EQ(At(figs, 7)->run.metrics.at("nodes_per_s"), 288415);
  ASSERT_NE(At(figs, 8), nullptr);
  EXPECT_EQ(At(figs, 8)->run.metrics.count("nodes_per_s"), 1u);
}

// A rate written with a magnitude word of a script without spaces, and the
// word for "about" after it ("13.2\u4e07\u5de6\u53f3": about 132,000): the figure, as written.
TEST(ReaderForms, AMagnitudeWordOfAScriptWithoutSpacesMultipliesTheCell) {
  const auto figs = EntryFigures(
      "| server | size | QPS |\n"                                                     // line 5
      "|---|---|---|\n"
      "| boot.jetty(nio) | 2.2m | 13.2\u4e07\u5de6\u53f3\uff082023\uff09 |\n"  // line 7
      "| boot.undertow(nio) | 4.5m | 9.1\u4e07 |\n");                            // line 8
  ASSERT_NE(At(figs, 7), nullptr);
  ASSERT_EQ(At(figs, 7)->run.metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(At(figs, 7)->run.metrics.begin()->second, 132000);
  ASSERT_NE(At(figs, 8), nullptr);
  EXPECT_DOUBLE_EQ(At(figs, 8)->run.metrics.begin()->second, 91000);
}

// "Timing (from trace): `load=5.0s`, `compute=21.8s` with `read=5.6s` ...":
// printed pairs in code spans, joined by words (pair_joiners) over the
// bullet's lines, are one printed line: one run, each pair its own metric.
TEST(ReaderForms, PrintedPairsInSpansJoinedByWordsAreOneRun) {
  const auto figs = EntryFigures(
      "- Command: `tool run --trace`\n"
      "- Timing (from trace): `load=5.005s`, `compute=21.833s` with\n"
      "  `read=5.602s`, `norm=1.225s`,\n"
      "  and `write=0.830s`.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 5u);
  EXPECT_EQ(figs[0].line, 6);
}

// A label naming the group ("Mean timings:") over spans joined by commas:
// one printed line too (a label naming a run, "- int8:", keys its row).
TEST(ReaderForms, PrintedPairsInSpansUnderAGroupLabelAreOneRun) {
  const auto figs = EntryFigures(
      "- Command: `tool run --trace`\n"
      "- Mean timings: `read=0.639s`, `norm=1.105s`,\n"
      "  `dot=2.954s`.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 3u);
}

// A sweep's points as spans: the point's key span, a colon, then its
// printed pairs ("`chunk=25`: `compute=15.952s` `dot=2.811s`"): a row per
// point, keyed by the point, each pair its own metric.
TEST(ReaderForms, PrintedPairsInSpansAfterAKeySpanAreThatPointsRun) {
  const auto figs = EntryFigures(
      "- Command: `tool run --chunk-size {C}`\n"
      "- Results (single runs):\n"
      "  - `chunk=25`: `compute=15.952s` `dot=2.811s` `copy=4.221s`\n"
      "  - `chunk=50`: `compute=10.551s` `dot=1.830s` `copy=1.846s`\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.metrics.size(), 3u);
  EXPECT_EQ(figs[0].run.config.at("chunk"), "25");
  EXPECT_EQ(figs[1].run.config.at("chunk"), "50");
}

// A word outside the joiners makes the bullet prose, not a printout.
TEST(ReaderForms, SpansAmongProseAreNoPrintedLine) {
  const auto figs = EntryFigures(
      "- Command: `tool run --trace`\n"
      "- Timing (from trace): `load=5.005s` was slower than `compute=21.833s` today\n");
  for (const auto& f : figs) EXPECT_LT(f.run.metrics.size(), 2u);
}

// A Result that measured nothing (a derived figure only) is not the
// entry's record: its other lines' figures are read.
TEST(ReaderForms, AResultOfADerivedFigureOnlyLeavesTheOtherLinesTheRecord) {
  const auto figs = EntryFigures(
      "- Command (f64): `tool run`\n"
      "- Wall timing (f64): `real 31.10s` (from `out/b.time`).\n"
      "- Command (f32): `tool run --f32`\n"
      "- Wall timing (f32): `real 35.20s` (from `out/c.time`).\n"
      "- Result: f32 is ~13% slower on this run.\n");
  ASSERT_EQ(figs.size(), 3u);  // the change goes on to classify, which drops it beside runs
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.begin()->second, 31.10);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.begin()->second, 35.20);
  EXPECT_EQ(figs[2].run.derived.size(), figs[2].run.metrics.size());  // derived only
}

// A Result that measured something stays the record.
TEST(ReaderForms, AResultWithAFigureIsTheRecord) {
  const auto figs = EntryFigures(
      "- Command: `tool run`\n"
      "- Previous attempt took 40.0 s.\n"
      "- Result: 31.10 s wall.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 7);
}

// "1293 ms, 3193 ns/node": a time per item of the work beside the run's
// whole time is a metric of its own, so a labelled line is one row.
TEST(ReaderForms, ATimePerItemBesideTheWholeTimeIsAMetricOfItsOwn) {
  const auto figs = EntryFigures(
      "- Freestyle: 404,959 nodes, 1293 ms, **3193 ns/node**.\n"
      "- Renju: 480,808 nodes, 3125 ms, **6499 ns/node**.\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 1.293, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("time_per_node_s"), 3193e-9, 1e-15);
  EXPECT_NE(figs[0].run.config, figs[1].run.config);
}

// "Use these with the WebGPU backend for 100ms/pos inference": advice
// promises a figure, it measured none.
TEST(ReaderForms, AnAdvisingSentenceIsNoRun) {
  EXPECT_TRUE(EntryFigures("Use these models with the GPU backend for 100ms/pos inference.\n").empty());
  EXPECT_EQ(EntryFigures("We used these models with the GPU backend: 100 ms/pos.\n").size(), 1u);
}

// A paragraph of lines each under a bold lead of its own ("**Before:**
// 4.21 ms" over "**After:** 3.02 ms"): each line is its lead's run, the
// first lead naming none of the others.
TEST(ReaderForms, EachLineOfAParagraphOfLeadsIsItsLeadsRun) {
  const auto figs = EntryFigures("**Before:** 4.21 ms per step\n**After:** 3.02 ms per step\n");
  const RecordedFigure* before = At(figs, 5);
  const RecordedFigure* after = At(figs, 6);
  ASSERT_NE(before, nullptr);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(::testing::PrintToString(before->run.config).find("After"), std::string::npos) << ::testing::PrintToString(before->run.config);
  EXPECT_EQ(::testing::PrintToString(after->run.config).find("Before"), std::string::npos) << ::testing::PrintToString(after->run.config);
  EXPECT_NE(::testing::PrintToString(after->run.config).find("After"), std::string::npos) << ::testing::PrintToString(after->run.config);
}

// A paragraph opened by a lead that states the machine ("**Hardware:**")
// keeps that line from being read, not the lines under leads of their own
// below it ("**Load time:** 0.25s").
TEST(ReaderForms, ALineUnderItsOwnLeadIsReadBelowAHardwareLead) {
  const auto figs = EntryFigures("**Hardware:** Apple M5 Pro, 12 cores  \n**Load time:** 0.25s\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 6);
  EXPECT_NEAR(figs[0].run.metrics.begin()->second, 0.25, 1e-12);
}

// A count of operations under a label that names a throughput ("Throughput:
// 124,440 ops") is the run's figure; "ops" elsewhere ("fused 3 ops") is
// none. A dotted property's value ("linger.ms=5", "raised linger.ms to
// 5ms", "batch.size=64KB") sets the run up: no figure.
TEST(ReaderForms, OperationsCountedAndPropertiesSet) {
  const auto figs = EntryFigures(
      "- Throughput: 124,440 ops\n"                        // line 5
      "- Producer: linger.ms=5, batch.size=64KB\n"           // line 6
      "- Change: raised linger.ms to 5ms\n"                  // line 7
      "- Fused 3 ops into one kernel\n");                    // line 8
  ASSERT_NE(At(figs, 5), nullptr);
  EXPECT_TRUE(At(figs, 5)->run.metrics.count("ops"));
  EXPECT_EQ(At(figs, 6), nullptr);
  EXPECT_EQ(At(figs, 7), nullptr);
  EXPECT_EQ(At(figs, 8), nullptr);
}

}  // namespace
}  // namespace moelog::logbook
