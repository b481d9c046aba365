// Reader stage table, a ledger of changes: "| Optimization | Impact |" over
// "| NativeAOT | -14% p99, -60% RSS |" is a row per change, its changes
// derived figures named by the words after them (table_ledger.cc).
#include <gtest/gtest.h>

#include <cmath>

#include "logbook/reader/table_ledger.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(TableLedger, ACellsChangesAreNamedByTheWordsAfterThem) {
  const auto items = ChangeItems("-14% p99, -60% RSS");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(ChangeMetric(items[0]), "p99_change_pct");
  EXPECT_DOUBLE_EQ(items[1].value, -60);
  EXPECT_EQ(ChangeMetric(items[1]), "rss_change_pct");
}

TEST(TableLedger, ASpanHasTwoEndsAndADirectionWordMakesAChange) {
  auto items = ChangeItems("+2% to +9% worse");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(ChangeMetric(items[0]), "change_from_pct");
  EXPECT_EQ(ChangeMetric(items[1]), "change_to_pct");
  items = ChangeItems("12% regression");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(ChangeMetric(items[0]), "change_pct");
  EXPECT_EQ(ChangeItems("+8.1% decode (3.2→3.46 t/s)").size(), 1u);  // the aside names runs, no change
}

// Near miss: an unsigned share, words alone, a number a direction word
// does not follow, or a sentence, state no change.
TEST(TableLedger, ASharesOrWordsAreNoChange) {
  EXPECT_TRUE(ChangeItems("95.3%").empty());
  EXPECT_TRUE(ChangeItems("Within bench noise").empty());
  EXPECT_TRUE(ChangeItems("capability 121 is less than the build's").empty());
  EXPECT_TRUE(ChangeItems("Engine init crashed because -12% of the builds lacked the kernel for this device").empty());
}

TEST(TableLedger, ALedgersRowsAreRunsOfTheirChanges) {
  const auto figs = ReadEntry("# Kernel log\n\n",
                              "## 2026-05-02 rejected tweaks\n\n"
                              "| Change | Result | Why |\n|---|---|---|\n"
                              "| BLOCK_K=64→128 | +2% to +9% worse | Register pressure. Spills to local memory. |\n"
                              "| warps=4→8 | -3% large, +6% small | Helps large, hurts small. |\n"
                              "| num_stages=4 | Flat / noise | Already saturated. |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_TRUE(figs[1].run.metrics.count("large_change_pct"));
  EXPECT_TRUE(figs[1].run.derived.count("small_change_pct"));
  EXPECT_FALSE(figs[0].run.config.count("why"));  // a sentence keys nothing
}

// "+8.1% decode (3.2→3.46 t/s)" under "Measured Impact": one change cell is
// enough under an impact's header, and the aside's far side is the row's
// own measurement (the near side, the run it was compared with, is none).
TEST(TableLedger, AnImpactsAsideGivesTheRowsMeasurement) {
  const auto figs = ReadEntry("# Decode log\n\n",
                              "## 2026-05-03 session 1\n\n"
                              "| # | Optimization | Measured Impact | Status |\n|---|---|---|---|\n"
                              "| 1 | I/O overlap (decode) | +8.1% decode (3.2→3.46 t/s) | DONE |\n"
                              "| 2 | I/O overlap (prefill) | Working, hard to measure | DONE |\n"
                              "| 3 | quant kernel | +18% worse (8.83 vs 7.48 ms) | DONE |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tokens_per_s"), 3.46);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
  bool time = false;
  for (const auto& [m, v] : figs[1].run.metrics) time = time || (!figs[1].run.derived.count(m) && std::abs(v - 0.00883) < 1e-9);
  EXPECT_TRUE(time);
}

// "| Test | run A | run B | Δ |" over "12.63 | 12.18 | −3.6%": each row's
// change is read, and the decimals beside it, which name no metric, are
// listed row by row (never lost).
TEST(TableLedger, DecimalsBesideAChangeColumnAreListed) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Spark log\n\n", "## 2026-05-02 phase 2\n\n"
                                                  "| Test | base#1 | fp8#2 | \xCE\x94 |\n|---|---|---|---|\n"
                                                  "| decode c=1 | 12.63 | 12.18 | -3.6% |\n| c=8 total | 87.20 | 87.40 | within noise |\n"
                                                  "| longctx tg | 13.12 | 12.60 | -4.0% |\n",
                              &unread);
  ASSERT_EQ(figs.size(), 2u);
  int listed = 0;
  for (const auto& u : unread) listed += u.why.find("name no metric") != std::string::npos ? 1 : 0;
  EXPECT_EQ(listed, 2);
}

}  // namespace
}  // namespace moelog::logbook::reader
