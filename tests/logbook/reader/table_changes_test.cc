// Reader stage table, change columns: a change is kept in the unit it is
// written in; a "| delta |" column over "-25.0" holds no percentages.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(TableChanges, AChangeWithoutAPercentSignIsNoPercentage) {
  const auto figs = ReadEntry("# Kernel notes\n\n",
                              "## 2026-06-02 fusion\n\n| kernel | time (ms) | delta |\n|---|---|---|\n"
                              "| base | 3.00 | |\n| fused | 2.10 | -30.0 |\n");
  ASSERT_EQ(figs.size(), 2u);
  ASSERT_TRUE(figs[1].run.metrics.count("delta_pct"));
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("delta_pct"), -30.0);
  EXPECT_EQ(figs[1].run.units.at("delta_pct"), "");
  EXPECT_TRUE(figs[1].run.derived.count("delta_pct"));
}

TEST(TableChanges, APercentSignOrAPercentHeaderKeepsThePercentage) {
  const auto signs = ReadEntry("# Kernel notes\n\n",
                               "## 2026-06-03 fusion\n\n| kernel | time (ms) | delta |\n|---|---|---|\n"
                               "| base | 3.00 | |\n| fused | 2.10 | -30.0% |\n");
  ASSERT_EQ(signs.size(), 2u);
  EXPECT_EQ(signs[1].run.units.at("delta_pct"), "%");
  const auto header = ReadEntry("# Kernel notes\n\n",
                                "## 2026-06-04 fusion\n\n| kernel | time (ms) | delta (%) |\n|---|---|---|\n"
                                "| base | 3.00 | |\n| fused | 2.10 | -30.0 |\n");
  ASSERT_EQ(header.size(), 2u);
  EXPECT_EQ(header[1].run.units.at("delta_pct"), "%");
}

}  // namespace
}  // namespace moelog::logbook::reader
