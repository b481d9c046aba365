// Reader stage figures: a measurement written with its spread is the
// measurement, in the unit after the spread (logbook/reader/figures_spread.cc).
#include <gtest/gtest.h>

#include "logbook/reader/figures_spread.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(FiguresSpread, TheSpreadIsDroppedAndTheUnitKept) {
  std::string out;
  ASSERT_TRUE(SpreadsDropped("**550.8 ± 1.3 TFLOPS** (5 runs)", &out));
  EXPECT_EQ(out, "**550.8 TFLOPS" + std::string(7, ' ') + "** (5 runs)");
  ASSERT_TRUE(SpreadsDropped("7.75 +/- 0.02 ms, then 9 ms", &out));
  EXPECT_EQ(out, "7.75 ms" + std::string(9, ' ') + ", then 9 ms");
  ASSERT_TRUE(SpreadsDropped("12.63 ± 0.31 (n=5)", &out));
  EXPECT_EQ(out, "12.63" + std::string(8, ' ') + " (n=5)");
  EXPECT_FALSE(SpreadsDropped("Variance: ±0.3% (very stable)", &out));
  EXPECT_FALSE(SpreadsDropped("a ± b", &out));
}

// "mean 428.7 ms ± 3.2 ms (min 422.6 ms)": the unit written on both sides;
// the spread goes, the statistic in parentheses joins the measurement. A
// spread in another unit than the figure before it is no spread of it.
TEST(FiguresSpread, TheUnitWrittenOnBothSides) {
  std::string out;
  ASSERT_TRUE(SpreadsDropped("mean **428.7 ms** ± 3.2 ms (min 422.6 ms)", &out));
  EXPECT_EQ(out, "mean **428.7 ms**" + std::string(10, ' ') + " (min 422.6 ms)");
  EXPECT_FALSE(SpreadsDropped("took 428.7 ms ± 3.2 % of the step", &out));
  const auto figs = ReadEntry("# K\n\n", "## 2025-12-27 snapshot\n\n- **Rust**: mean 428.7 ms ± 3.2 ms (min 422.6 ms)\n"
                                          "- **Zig**: mean 256.9 ms ± 3.1 ms (min 252.0 ms)\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);  // the mean and the minimum, one run
}

// "550.8 ± 1.3 TFLOPS" had been read as 1.3 TF/s, the measurement lost.
TEST(FiguresSpread, AMeasurementWithItsSpreadIsTheMeasurement) {
  const auto figs = ReadEntry("# Log\n\n## Run\n",
                              "- Throughput: 550.8 ± 1.3 TFLOPS\n- Time: 4.803 ± 0.013 ms\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto& m = figs[0].run.metrics;
  ASSERT_EQ(m.count("tflops"), 1u);
  EXPECT_DOUBLE_EQ(m.at("tflops"), 550.8);
  ASSERT_EQ(m.count("time_s"), 1u);
  EXPECT_NEAR(m.at("time_s"), 0.004803, 1e-12);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A table's "mean ± spread" cell keeps both: the spread is a figure of its
// row (std_<metric>), in the cell's unit; printed tables alike.
TEST(FiguresSpread, ATableCellsSpreadIsItsRowsStd) {
  const auto figs = ReadEntry("# Log\n\n", "## 2025-01-02 bench\n\n| test | t/s |\n|---|---|\n"
                                           "| pp512 | 812.48 ± 3.43 |\n| tg128 | 41.72 ± 0.21 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tokens_per_s"), 812.48);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("std_tokens_per_s"), 3.43);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("std_tokens_per_s"), 0.21);
}

TEST(FiguresSpread, APrintedTablesSpreadAfterChatterIsRead) {
  const auto figs = ReadEntry("# Log\n\n", "## 2025-01-02 bench\n\nHost memory first:\n\n```\n"
                                           "ggml_cuda_init: found 1 CUDA devices:\n"
                                           "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
                                           "| model | backend | test | t/s |\n| --- | --- | --: | --: |\n"
                                           "| qwen3moe 30B Q4_K | CUDA | pp512 | 801.05 ± 2.47 |\n"
                                           "| qwen3moe 30B Q4_K | CUDA | tg128 | 40.10 ± 0.31 |\n```\n");
  ASSERT_EQ(figs.size(), 2u);  // a fence of a printed table is output, not a command
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tokens_per_s"), 40.10);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("std_tokens_per_s"), 0.31);
}

}  // namespace
}  // namespace moelog::logbook::reader
