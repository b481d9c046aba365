// The classify stage on a dated journal's anecdotes: a rough count in the
// plural ("1000s of nodes"), a limit ("limited to 15 minutes") and what a
// change loses ("we lose about 20% efficiency") record no run.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderClassifyAnecdotes, CountsLimitsAndLossesAreNoRuns) {
  const std::string doc =
      "# Training journal\n\n"
      "## 2024-02-03\n\n"                                                             // 3
      "The queue was down, so we wired up log shipping. With 100s of workers a grep is hopeless.\n\n"  // 5
      "## 2024-02-02\n\n"                                                             // 7
      "Jobs are limited to 20 minutes on the debug partition.\n"                      // 9
      "Scaling out we lose about 15% efficiency to all-reduce.\n\n"                   // 10
      "## 2024-02-01\n\n"                                                             // 12
      "The 7B run held 4120 tokens/s per GPU over 2 hours.\n";                        // 14
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 9, 10}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[5].find("plural"), std::string::npos) << why[5];
  EXPECT_TRUE(kept.count(14)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
