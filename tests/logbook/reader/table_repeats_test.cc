// Reader stage table, repeat columns: a table whose columns repeat one
// measurement ("| config | Run1 | Run2 | Run3 | Avg |") holds one figure set
// per row, each repeat and statistic a figure of it, in the unit written
// above the table when no cell or header writes one.
#include <gtest/gtest.h>

#include "logbook/reader/table_repeats.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char kHead[] = "# Kernel notes\n\n";

TEST(TableRepeats, RepeatHeadersAreNamedByTheirWordAndNumber) {
  EXPECT_EQ(RepeatName("Run1"), "run_1");
  EXPECT_EQ(RepeatName("Run 2"), "run_2");
  EXPECT_EQ(RepeatName("trial_3"), "trial_3");
  EXPECT_EQ(RepeatName("#4"), "run_4");
  EXPECT_EQ(RepeatName("Rep 2 (ms)"), "rep_2");
  EXPECT_EQ(RepeatName("Iter-10"), "iter_10");
  EXPECT_EQ(RepeatName("Run"), "");
  EXPECT_EQ(RepeatName("tile64"), "");
  EXPECT_EQ(RepeatName("v2"), "");
  EXPECT_EQ(RepeatName("bs 8"), "");
}

// The unit in the sentence before the table, a fenced command between them.
TEST(TableRepeats, TheSentenceBeforeTheTableNamesTheUnitOfItsRepeats) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry(kHead,
                              "## 2026-04-02 tile sweep\n\nEach tile size was timed three times (wall time in ms).\n\n"
                              "```\n./gemm --tile 32\n```\n\n"
                              "| tile | Run1 | Run2 | Run3 | Avg |\n|---|---|---|---|---|\n"
                              "| t32 | 2.40 | 2.44 | 2.38 | 2.41 |\n| t64 | 1.71 | 1.69 | 1.70 | 1.70 |\n",
                              &unread);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 13);
  EXPECT_NEAR(figs[0].run.metrics.at("run_1_time_s"), 2.40e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("run_3_time_s"), 2.38e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("avg_time_s"), 2.41e-3, 1e-12);
  EXPECT_EQ(figs[0].run.units.at("run_2_time_s"), "ms");
  EXPECT_EQ(figs[0].run.decimals.at("run_2_time_s"), 2);
  EXPECT_EQ(figs[1].line, 14);
  EXPECT_NEAR(figs[1].run.metrics.at("run_2_time_s"), 1.69e-3, 1e-12);
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) {
      EXPECT_EQ(k.find("run"), std::string::npos) << k;  // no repeat is a key
      EXPECT_NE(k, "avg");
    }
  EXPECT_NE(figs[0].run.config, figs[1].run.config);
}

// One column's header writes the unit ("Avg (ms)"): the repeats beside it
// are in it too, no configuration key.
TEST(TableRepeats, OneHeadersUnitIsTheRepeatsUnit) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-04-03 attention kernels\n\n"
                              "| variant | Run 1 | Run 2 | Run 3 | Avg (ms) |\n|---|---|---|---|---|\n"
                              "| plain | 6.2 | 6.0 | 6.1 | 6.1 |\n| tiled | 2.9 | 3.1 | 3.0 | 3.0 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("run_1_time_s"), 6.2e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("avg_time_s"), 6.1e-3, 1e-12);
  EXPECT_NEAR(figs[1].run.metrics.at("run_3_time_s"), 3.0e-3, 1e-12);
  EXPECT_EQ(figs[1].run.config.count("run_1"), 0u);
}

// A caption right above ("Table: copy time (us)") and a label column that
// sets the rows apart ("size"); trials and a mean.
TEST(TableRepeats, ACaptionAboveNamesTheUnitOfTrials) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-04-04 copy kernel\n\nTable: copy time (us)\n\n"
                              "| size | trial 1 | trial 2 | mean |\n|---|---|---|---|\n"
                              "| 4MB | 30.2 | 30.6 | 30.4 |\n| 64MB | 410.5 | 412.1 | 411.3 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("trial_1_time_s"), 30.2e-6, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("trial_2_time_s"), 30.6e-6, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("mean_time_s"), 30.4e-6, 1e-12);
  EXPECT_NEAR(figs[1].run.metrics.at("mean_time_s"), 411.3e-6, 1e-12);
  EXPECT_EQ(figs[1].run.config.count("mean"), 0u);
}

// The entry's heading names the unit ("(seconds)"); "#1" headers.
TEST(TableRepeats, TheHeadingNamesTheUnitOfNumberedRepeats) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-04-05 index build (seconds)\n\n"
                              "| index | #1 | #2 | #3 |\n|---|---|---|---|\n| btree | 14.2 | 14.0 | 14.5 |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("run_1_time_s"), 14.2);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("run_3_time_s"), 14.5);
  EXPECT_EQ(figs[0].run.units.at("run_2_time_s"), "seconds");
}

// Nothing names the unit: the repeats are no figures, and no repeat's
// value becomes a key of a row.
TEST(TableRepeats, NoUnitAnywhereReadsNoRepeat) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-04-06 parser\n\n| file | Run1 | Run2 |\n|---|---|---|\n| a.json | 12 | 13 |\n");
  for (const auto& f : figs) EXPECT_EQ(f.run.config.count("run1"), 0u);
  EXPECT_TRUE(figs.empty());
}

}  // namespace
}  // namespace moelog::logbook::reader
