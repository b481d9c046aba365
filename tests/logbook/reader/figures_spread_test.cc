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
