// The classify stage: which figures are runs' measurements and which are
// derived, estimates, or restate an earlier entry.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"
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

}  // namespace
}  // namespace moelog::logbook::reader
