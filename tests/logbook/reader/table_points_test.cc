// Reader stage table, the points of one run: "Initial train/val loss" over
// "Final train/val loss" are a row per point keyed `point`, the metrics
// named without the point's word; a lone "Final loss" is a metric's name
// (table_points.cc).
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderPoints, InitialAndFinalAreARowEach) {
  const auto figs = ReadEntry("# Train log\n\n",
                              "## 2026-06-06 12:00 - smoke run\n\n"
                              "### Result\n"
                              "- Initial train/val loss: `10.8201` / `10.8413`\n"
                              "- Final train/val loss: `9.8868` / `9.7639`\n"
                              "- Final observed tokens/sec: `139,020`\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("point"), "initial");
  EXPECT_EQ(figs[1].run.config.at("point"), "final");
  EXPECT_TRUE(figs[1].run.metrics.count("val_loss"));
  EXPECT_EQ(figs[1].run.metrics.size(), 3u);  // the rate its item names final joins the final row
}

// Near miss: a final loss with no other point is the run's one row, its
// metric named as written.
TEST(ReaderPoints, AFinalLossAloneIsAMetricsName) {
  const auto figs = ReadEntry("# Train log\n\n",
                              "## 2026-06-06 12:00 - smoke run\n\n"
                              "### Result\n"
                              "- Final train/val loss: `9.8868` / `9.7639`\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_FALSE(figs[0].run.config.count("point"));
}

}  // namespace
}  // namespace moelog::logbook::reader
