// The figures stage on a printout's counts: a count the run was set up with
// ("number of clients: 16") keys the figures, a count of what the run did
// ("number of transactions actually processed: 691063", "number of failed
// transactions: 0 (0.000%)") is a figure of its own, shown as written.
#include <gtest/gtest.h>

#include <string>

#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-04-11 09:30 - tuned\n\n";

TEST(FiguresOutcomeCounts, AnOutcomeWordMakesTheCountAFigure) {
  std::string metric;
  EXPECT_TRUE(OutcomeCountName("number of transactions actually processed", &metric));
  EXPECT_EQ(metric, "transactions_actually_processed");
  EXPECT_TRUE(OutcomeCountName("number of failed transactions", &metric));
  EXPECT_FALSE(OutcomeCountName("number of clients", &metric));
  EXPECT_FALSE(OutcomeCountName("failed transactions", &metric));  // no count's lead
}

TEST(FiguresOutcomeCounts, ProcessedAndFailedCountsAreFiguresClientsAKey) {
  const auto figs = ReadEntry(kHead,
                              "Before tuning:\n\n"                                  // 7-8
                              "```\n"                                               // 9
                              "number of clients: 16\n"                             // 10
                              "duration: 60 s\n"                                    // 11
                              "number of transactions actually processed: 48211\n"  // 12
                              "number of failed transactions: 0 (0.000%)\n"         // 13
                              "latency average = 19.870 ms\n"                       // 14
                              "```\n");
  const RecordedFigure* processed = OnLine(figs, 12);
  ASSERT_NE(processed, nullptr);
  EXPECT_DOUBLE_EQ(processed->run.metrics.at("transactions_actually_processed"), 48211);
  EXPECT_EQ(processed->run.config.at("clients"), "16");
  const RecordedFigure* failed = OnLine(figs, 13);
  ASSERT_NE(failed, nullptr);
  EXPECT_DOUBLE_EQ(failed->run.metrics.at("failed_transactions"), 0);
  EXPECT_EQ(OnLine(figs, 10), nullptr);  // the setting is no figure
}

}  // namespace
}  // namespace moelog::logbook::reader
