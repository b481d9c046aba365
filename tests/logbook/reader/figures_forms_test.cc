// The figures stage on forms of result tables and printouts other authors
// write: vertical metric tables, decorated cells, unit-only headers, bench
// tools' printouts pasted without their command.
#include <gtest/gtest.h>

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
  EXPECT_EQ(figs[0].run.config.at("benchmark"), "BM_Gemm/1024");
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

}  // namespace
}  // namespace moelog::logbook
