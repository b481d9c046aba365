// Reader stage table, cells of several readings: each reading of a result
// cell is a run of its row, named by its words or its place; a column of
// such cells and a few sentences is still a column of figures.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

using Parts = std::vector<std::pair<std::string, std::string>>;

TEST(TableReadings, LabelledReadingsAndSlashListsSplit) {
  Parts parts;
  ASSERT_TRUE(ReadingParts("baseline 1.162 H/s; candidates 0.896/1.202 H/s; final rerun 1.208 H/s", &parts));
  EXPECT_EQ(parts, (Parts{{"1.162 H/s", "baseline"}, {"0.896 H/s", "candidates 1"}, {"1.202 H/s", "candidates 2"},
                          {"1.208 H/s", "final rerun"}}));
  ASSERT_TRUE(ReadingParts("fresh baseline: kernel 0.964 H/s, backend 1.045 H/s (two low-clock samples 1.0 H/s)", &parts));
  EXPECT_EQ(parts, (Parts{{"0.964 H/s", "fresh baseline kernel"}, {"1.045 H/s", "backend"}}));
}

TEST(TableReadings, UnnamedReadingsTakeTheirPlaceAndTheLastUnit) {
  Parts parts;
  ASSERT_TRUE(ReadingParts("1.007 vs 0.973 H/s avg", &parts));
  EXPECT_EQ(parts, (Parts{{"1.007 H/s", "1"}, {"0.973 H/s", "2"}}));
  ASSERT_TRUE(ReadingParts("0.574/0.978/0.590 ms", &parts));
  EXPECT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2], (std::pair<std::string, std::string>{"0.590 ms", "3"}));
}

TEST(TableReadings, OneFigureSentencesAndMixedUnitsAreNoReadings) {
  Parts parts;
  EXPECT_FALSE(ReadingParts("1.2 ms", &parts));
  EXPECT_FALSE(ReadingParts("up to 0.128 H/s", &parts));                       // one reading
  EXPECT_FALSE(ReadingParts("1.2 ms; 3.4 GB/s", &parts));                      // two metrics
  EXPECT_FALSE(ReadingParts("kernel 1.1 H/s vs local kept-state 1.2 H/s; backend 1.3 H/s vs local kept-state 1.4 H/s",
                            &parts));                                          // one label twice
  EXPECT_FALSE(ReadingParts("reran it after the driver update and got 1.1 H/s; 1.2 H/s", &parts));
}

TEST(TableReadings, EachReadingIsARunOfItsRow) {
  const auto figs = ReadEntry("# Kernel tuning log\n\n",
                              "## Attempt history\n\n| Date | Change | Result | Outcome |\n|---|---|---|---|\n"
                              "| 2026-01-03 | First port | `0.065 H/s` | Baseline |\n"
                              "| 2026-01-03 | Scratch rewrite | `0.050 H/s` | Reverted |\n"
                              "| 2026-01-04 | Regcap A/B | `1.007` vs `0.973 H/s` avg | kept |\n"
                              "| 2026-01-05 | Drop fast-math | baseline `1.138 H/s`; candidate `1.114 H/s` | Reverted |\n"
                              "| 2026-01-05 | Lane backoff | up to `0.128 H/s` | kept |\n"
                              "| 2026-01-05 | Full VRAM sizing | OOM at startup | Reverted |\n");
  ASSERT_EQ(figs.size(), 6u);
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("hashes_per_s"), 1.007);
  EXPECT_EQ(figs[2].run.config.at("reading"), "1");
  EXPECT_EQ(figs[3].run.config.at("reading"), "2");
  EXPECT_EQ(figs[4].run.config.at("reading"), "baseline");
  EXPECT_EQ(figs[5].run.config.at("reading"), "candidate");
  EXPECT_DOUBLE_EQ(figs[5].run.metrics.at("hashes_per_s"), 1.114);
  for (const auto& f : figs) EXPECT_NE(f.line, 11) << "'up to' is a bound, not a reading";
}

TEST(TableReadings, AColumnOfSentencesStaysUnread) {
  const auto figs = ReadEntry("# Kernel tuning log\n\n",
                              "## Attempt history\n\n| Change | Notes |\n|---|---|\n"
                              "| First port | ran at about 0.06 H/s on the old driver |\n"
                              "| Scratch rewrite | 0.050 H/s |\n"
                              "| Lane backoff | saw up to 0.128 H/s once |\n");
  EXPECT_TRUE(figs.empty());
}

}  // namespace
}  // namespace moelog::logbook::reader
