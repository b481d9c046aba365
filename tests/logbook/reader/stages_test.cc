// --show-recorded names the stage that decided each figure's fate.
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

TEST(ReaderStages, EachFateNamesItsStage) {
  EXPECT_EQ(FateStage("row parallel_mode=none, topk=2"), "table");
  EXPECT_EQ(FateStage("recorded table, row 3"), "table");
  EXPECT_EQ(FateStage("listed, not tabled: matches several rows"), "table");
  EXPECT_EQ(FateStage("listed, not tabled: two figures of one metric and nothing naming each"), "key");
  EXPECT_EQ(FateStage("listed, not tabled: restates a figure of E-2, not another run"), "classify");
  EXPECT_EQ(FateStage("listed, not tabled: a difference of two runs (smaller, faster ...), not one run's figure"),
            "classify");
  EXPECT_EQ(FateStage("listed, not tabled: an estimate (\"~\", \"about\" ...), not a run"), "classify");
  EXPECT_EQ(FateStage("listed, not tabled: its status says it has not run (\"PENDING\"): its figures are its plan"),
            "classify");
  EXPECT_EQ(FateStage("listed, not tabled: no unit, and nothing in the entry names its metric"), "figures");
  EXPECT_EQ(FateStage("listed, not tabled: a bound (written after <, >, \u2264 or \u2265): a claim, a goal or a limit, not a reading"),
            "classify");
  EXPECT_EQ(FateStage("listed, not tabled: computed from the numbers before \"=\" or \"\u2248\", not a measurement"), "classify");
}

// Every line of an entry that states a number with a unit gets a fate: the
// ones no stage read are listed "not read" with where they sit, shown by
// --show-recorded only (never written into the logbook's region).
TEST(ReaderStages, AFigureNoStageReadIsToldNotRead) {
  const std::string text = std::string("# Log\n\n## 2026-03-02 \xC2\xB7 Fused gate (1.2 ms)\n\n") +
                           "- Result: **0.84 ms** per call\n- Overhead breakdown:\n  - cast: 0.10 ms\n\n"
                           "### Notes at 3 GB\n\nNothing else.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  std::vector<UnreadFigures> unread;
  const auto figs = RecordedFigures(lb.entries[0], "t.md", &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 5);
  std::map<int, std::string> why;
  for (const auto& u : unread) {
    EXPECT_TRUE(u.shown_only) << u.why;
    why[u.line] = u.why;
  }
  EXPECT_NE(why[3].find("not read: a figure in the entry's heading"), std::string::npos) << why[3];
  EXPECT_NE(why[7].find("not read: "), std::string::npos) << why[7];  // a field beside the Result
  EXPECT_NE(why[9].find("not read: a figure in a sub-heading"), std::string::npos) << why[9];
  EXPECT_EQ(why.count(5), 0u);  // read: no second fate
  EXPECT_EQ(FateStage("listed, not tabled: not read: a figure in a sub-heading"), "blocks");
  EXPECT_EQ(FateStage("listed, not tabled: not read: no figure read from this prose"), "figures");
}

// A number with a unit the figures stage passes over as no run's figure at
// all (an event's duration, a job's duration, a device's rating, a
// threshold) is told with that rule's own reason and the classify stage,
// never as "not read"; the figures tabled are the same as without it.
TEST(ReaderStages, ANumberPassedOverAsNoRunIsToldWhy) {
  const std::string text = std::string("# Log\n\n## 2026-03-02 Ops day\n\n") +
                           "Watched the queue for 5 min: nothing moved.\n\n"       // 5
                           "The node came back with 2 h 10 m uptime.\n\n"          // 7
                           "The card's published power envelope is ~75 W.\n\n"     // 9
                           "The suite passed in 40 s.\n\n"                         // 11
                           "The fused step took 3.2 s.\n";                          // 13
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  std::vector<UnreadFigures> unread;
  const auto figs = RecordedFigures(lb.entries[0], "t.md", &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 13);
  std::map<int, std::string> why;
  for (const auto& u : unread) {
    EXPECT_TRUE(u.shown_only) << u.why;
    why[u.line] = u.why;
  }
  for (int line : {5, 7}) EXPECT_NE(why[line].find("an event's duration"), std::string::npos) << line << ": " << why[line];
  EXPECT_NE(why[9].find("a device's rating"), std::string::npos) << why[9];
  EXPECT_NE(why[11].find("a job's, a test's or a compile's duration"), std::string::npos) << why[11];
  for (int line : {5, 7, 9, 11}) EXPECT_EQ(FateStage("listed, not tabled: " + why[line]), "classify") << why[line];
}

}  // namespace
}  // namespace moelog::logbook
