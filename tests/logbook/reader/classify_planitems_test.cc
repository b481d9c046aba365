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
