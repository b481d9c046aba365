// The classify stage's set-length rule: a test plan's part whose only
// figure is how long its test is set to run records no run.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

// "- **Duration**: 30 minutes" beside a load and an objective is a plan's
// setting; a duration written with decimals, one beside a measured figure,
// and one of a part that runs its command stay.
TEST(ReaderClassifySetLength, APlannedTestsLengthIsNoRun) {
  const std::string doc =
      "# Load test plan\n\n"
      "## Strategy\n\n"
      "### 1. Soak\n"                                          // 5
      "**Objective**: Find slow leaks\n"
      "- **Load**: 200 concurrent users\n"
      "- **Duration**: 12 hours\n\n"                           // 8
      "### 2. Smoke run\n"                                     // 10
      "- **Duration**: 61.5 minutes\n\n"                       // 11
      "### 3. Spike\n"                                         // 13
      "- **Duration**: 10 minutes\n"                           // 14
      "- **p99**: 412 ms\n\n"                                  // 15
      "### 4. Endurance\n\n"                                   // 17
      "```bash\nk6 run --duration 30m soak.js\n```\n\n"        // 19-21
      "- **Duration**: 30 minutes\n";                          // 23
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_NE(why[8].find("set to run"), std::string::npos) << why[8];
  for (int line : {11, 14, 15}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_EQ(why[23].find("set to run"), std::string::npos) << why[23];
}

}  // namespace
}  // namespace moelog::logbook::reader
