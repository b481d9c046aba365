// Reader stage table, a column of guesses: a guide's table of modes says how
// long each takes as approximate ranges ("~15-20 mins"); no run measured them.
#include <gtest/gtest.h>

#include "logbook/reader/table_guesses.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TableBlock Column(std::vector<std::string> cells) {
  TableBlock t;
  t.header = {"mode", "time"};
  for (auto& c : cells) t.rows.push_back({"m", c});
  return t;
}

TEST(TableGuesses, AColumnOfApproximateRangesIsAGuess) {
  EXPECT_TRUE(ApproximateRangeColumn(Column({"~15-20 mins", "~1\xE2\x80\x93" "1.5 hours", "about 5-10 min"}), 1));
  EXPECT_TRUE(ApproximateRangeColumn(Column({"\xE2\x89\x88" "20-30 ms", "—"}), 1));
  EXPECT_FALSE(ApproximateRangeColumn(Column({"~15-20 mins", "41 min"}), 1));  // one reading among them
  EXPECT_FALSE(ApproximateRangeColumn(Column({"15-20 mins"}), 1));             // a range written plainly
  EXPECT_FALSE(ApproximateRangeColumn(Column({"~17.5 ms", "~18 ms"}), 1));      // approximate readings
  EXPECT_FALSE(ApproximateRangeColumn(Column({"—", ""}), 1));
}

TEST(TableGuesses, AGuidesTableOfHowLongModesTakeRecordsNoRun) {
  std::map<int, std::string> why;
  const auto kept = KeptLines("# Contest quick start\n\n## Modes\n\n"
                              "| Mode | Command | Time (one config) |\n|---|---|---|\n"
                              "| **full** | `./bench full \"Team\"` | ~15-20 mins |\n"
                              "| **sweep** | `./bench full -n 3` | ~1\xE2\x80\x93" "1.5 hours |\n"
                              "| **check** | `./bench check` | ~5-10 mins |\n",
                              &why);
  EXPECT_TRUE(kept.empty());
}

TEST(TableGuesses, MeasuredWallTimesBesideThemStillRead) {
  const auto kept = KeptLines("# Build log\n\n## 2026-03-02 nightly\n\n"
                              "| job | wall time |\n|---|---|\n| full | 41 min |\n| sweep | ~1.4 h |\n");
  EXPECT_EQ(kept, (std::set<int>{7, 8}));
}

}  // namespace
}  // namespace moelog::logbook::reader
