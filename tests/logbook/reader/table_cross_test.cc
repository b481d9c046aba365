// Reader stage table: headers crossing runs with statistics (table_cross.h).
#include "logbook/reader/table_cross.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(TableCross, NamesEachHeadingTheSameStatisticsAreRuns) {
  const auto cross = CrossHeaders({"Batch", "Llama P50", "Llama P95", "Qwen3 P50", "Qwen3 P95"});
  ASSERT_EQ(cross.size(), 4u);
  EXPECT_EQ(cross[0].name, "Llama");
  EXPECT_EQ(cross[0].statistic, "P50");
  EXPECT_EQ(cross[3].name, "Qwen3");
  EXPECT_EQ(cross[3].column, 4u);
}

TEST(TableCross, MetricNamesOneStatisticOrUnevenStatisticsAreNoCross) {
  EXPECT_TRUE(CrossHeaders({"Rate", "TTFT P50", "TTFT P99", "TPOT P50", "TPOT P99"}).empty());  // metrics, not runs
  EXPECT_TRUE(CrossHeaders({"Batch", "Llama P50", "Qwen3 P50"}).empty());                        // one statistic
  EXPECT_TRUE(CrossHeaders({"Batch", "Llama P50", "Llama P95", "Qwen3 P50"}).empty());           // uneven
  EXPECT_TRUE(CrossHeaders({"Batch", "P50", "P95"}).empty());                                    // no names
}

// Each name is a row of its own, in the unit the sub-heading names; no row
// holds two models' figures.
TEST(TableCross, EachNameIsARowInTheSubheadingsUnit) {
  const auto figs = ReadEntry("# Log\n\n## 2026-02-10 Decode latency\n\n",
                              "### Per-step decode latency (ms)\n\n"
                              "| Batch | Llama P50 | Llama P95 | Qwen3 P50 | Qwen3 P95 |\n|---|---|---|---|---|\n"
                              "| 1 | 11.2 | 12.9 | 13.4 | 15.1 |\n| 8 | 14.8 | 17.3 | 16.9 | 19.6 |\n");
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("variant")) << f.text;
    EXPECT_EQ(f.run.metrics.size(), 2u) << f.text;
    EXPECT_TRUE(f.run.metrics.count("time_s")) << f.text;
  }
  EXPECT_EQ(figs[0].run.config.at("variant"), "Llama");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 13.4e-3, 1e-12);
  EXPECT_EQ(figs[1].run.config.at("variant"), "Qwen3");
}

// Without any unit the statistics are unitless metrics of each name's run.
TEST(TableCross, WithoutAUnitEachStatisticIsAUnitlessMetric) {
  const auto figs = ReadEntry("# Log\n\n## 2026-02-11 Scores\n\n",
                              "| Task | base mean | base max | tuned mean | tuned max |\n|---|---|---|---|---|\n"
                              "| gsm8k | 0.412 | 0.455 | 0.498 | 0.531 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("variant"), "base");
  EXPECT_EQ(figs[1].run.config.at("variant"), "tuned");
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook::reader
