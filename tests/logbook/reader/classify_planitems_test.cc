// Reader stage classify: a plan's items (`- Effort: 5 minutes`, `-
// Expected: 1.7x speedup, MFU 19%`) record no run
// (logbook/reader/classify_planitems.cc).
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ClassifyPlanItems, APlansEffortAndExpectedItemsAreNoRuns) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Tuning plan\n\n## Phase 2: quick wins\n",
                              "1. **Shorter sequences**: cut the length to 512\n"
                              "   - Expected: 1.7x speedup, MFU 19%\n   - Effort: 5 minutes (config change)\n\n"
                              "2. **Packing**: switch it on\n   - Target MFU: 40%\n   - ETA: 2 hours\n",
                              &unread);
  EXPECT_TRUE(figs.empty());
  bool listed = false;
  for (const auto& u : unread) listed = listed || u.why.find("effort") != std::string::npos;
  EXPECT_TRUE(listed);
  EXPECT_EQ(FateStage("listed, not tabled: an estimate or a goal of a plan (an item labelled \"effort\"), not a run"),
            "classify");
}

// Items whose labels name runs keep their figures, a run named by its
// settings after a plan word too ("Target EP=8/T=16384:", the target shape).
TEST(ClassifyPlanItems, AMeasuredItemStays) {
  const auto figs = ReadEntry("# Tuning log\n\n## Run 3\n",
                              "- packed run: 41.2% MFU\n- first step: 412 ms\n"
                              "- Target EP=8/T=16384: 88.31 TFLOP/s/rank\n");
  size_t metrics = 0;
  for (const auto& f : figs) metrics += f.run.metrics.size();
  EXPECT_EQ(metrics, 3u);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A printed block no command of the entry printed, whose lines are
// labelled as expected or estimated ("Expected Time: 0.041 ms", "Estimated
// Bandwidth: 85%"), states a design's goals; a measured line beside them
// ("Time: 0.212 ms" of the old kernel) stays a run.
TEST(ReaderClassifyPlanItems, APrintedLineLabelledAsExpectedIsNoRun) {
  const std::string doc =
      "# Softmax notes\n\n"
      "## 2025-03-02 Old kernel\n\n"        // 3
      "```\nConfiguration:   BLOCK=64\nTime:            0.212 ms\n```\n\n"  // 5-8
      "## 2025-03-03 New design\n\n"        // 10
      "```\n"                                // 12
      "Configuration:       TILE=64\n"       // 13
      "Expected Time:       0.041 ms\n"      // 14
      "Estimated Bandwidth: 85%\n"           // 15
      "```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  for (int line : {14, 15}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[14].find("expected time"), std::string::npos) << why[14];
}

}  // namespace
}  // namespace moelog::logbook::reader
