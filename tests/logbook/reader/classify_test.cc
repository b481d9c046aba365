// The classify stage: which figures are runs' measurements and which are
// derived, estimates, or restate an earlier entry.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/prose.h"

namespace moelog::logbook::reader {
namespace {

bool AnyRunTime(const std::vector<Figure>& figs) {
  for (const auto& f : figs)
    if (f.metric == "time_s" && !f.derived && f.not_run == nullptr) return true;
  return false;
}

// "~9 us smaller" is a difference of two runs, never a 9 us run.
TEST(ReaderClassify, ADifferenceIsNoRun) {
  EXPECT_FALSE(AnyRunTime(Figures("the fused path is ~9 us smaller", true, false, true)));
  EXPECT_FALSE(AnyRunTime(Figures("dispatch got 0.3 ms faster", true, false, true)));
  EXPECT_TRUE(AnyRunTime(Figures("the fused path takes 0.84 ms", true, false, true)));
}

TEST(ReaderClassify, ARangeIsNoOneRun) {
  auto f = Figures("between 60 and 81 ms", true, false, true);
  for (const auto& x : f) EXPECT_NE(x.not_run, nullptr);
}

// What a sentence says a figure should be is a goal or an expectation,
// never a run, in a bullet as in prose; a figure before the word is not.
TEST(ReaderClassify, AGoalOrExpectationIsNoRun) {
  EXPECT_FALSE(AnyRunTime(Figures("After step 2 the log should end with train_time 80000ms", true, false, false)));
  EXPECT_FALSE(AnyRunTime(Figures("the fused path must stay under 1.5 ms", true, false, true)));
  EXPECT_TRUE(AnyRunTime(Figures("the fused path took 1.41 ms and should improve", true, false, true)));
  EXPECT_TRUE(prose::GoalWord("Should"));
  EXPECT_FALSE(prose::GoalWord("measured"));
}

// A summary table above the entries states what they measure: its figures
// an entry below measures again are restated (never a run of the summary,
// and they make the entry's own figures no restatement); a figure only the
// summary records stays its run.
TEST(ReaderClassify, ASummaryAboveTheEntriesRestatesWhatTheyMeasure) {
  const std::string text = std::string("# Speedrun\n\n## Results\n\n| # | run | time | tokens |\n|---|---|---|---|\n") +
                           "| 1 | baseline | 9.42 hours | 5.91B |\n| 2 | muon | 5.06 hours | 2.95B |\n\n"
                           "## 1. Baseline run\n\nThe run took **9.42 hours**.\n\n## 2. Muon\n\nThe run took **5.06 hours**.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  ASSERT_EQ(figs.size(), 3u);
  ASSERT_EQ(figs[1].size(), 1u);  // the entries keep their own figures
  ASSERT_EQ(figs[2].size(), 1u);
  EXPECT_NEAR(figs[1][0].run.metrics.begin()->second, 9.42 * 3600, 1);
  for (const auto& f : figs[0]) {
    for (const auto& [metric, value] : f.run.metrics) EXPECT_FALSE(std::fabs(value - 9.42 * 3600) < 1) << metric;
  }
}

}  // namespace
}  // namespace moelog::logbook::reader
