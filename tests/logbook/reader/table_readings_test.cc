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
  ASSERT_TRUE(ReadingParts("baseline 2.41 H/s; candidates 2.37/2.52 H/s; final rerun 2.55 H/s", &parts));
  EXPECT_EQ(parts, (Parts{{"2.41 H/s", "baseline"}, {"2.37 H/s", "candidates 1"}, {"2.52 H/s", "candidates 2"},
                          {"2.55 H/s", "final rerun"}}));
  ASSERT_TRUE(ReadingParts("cold start: kernel 3.10 H/s, host 3.42 H/s (one throttled sample 2.9 H/s)", &parts));
  EXPECT_EQ(parts, (Parts{{"3.10 H/s", "cold start kernel"}, {"3.42 H/s", "host"}}));
}

TEST(TableReadings, UnnamedReadingsTakeTheirPlaceAndTheLastUnit) {
  Parts parts;
  ASSERT_TRUE(ReadingParts("4.18 vs 4.02 H/s avg", &parts));
  EXPECT_EQ(parts, (Parts{{"4.18 H/s", "1"}, {"4.02 H/s", "2"}}));
  ASSERT_TRUE(ReadingParts("0.31/0.27/0.44 ms", &parts));
  EXPECT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2], (std::pair<std::string, std::string>{"0.44 ms", "3"}));
}

TEST(TableReadings, OneFigureSentencesAndMixedUnitsAreNoReadings) {
  Parts parts;
  EXPECT_FALSE(ReadingParts("1.2 ms", &parts));
  EXPECT_FALSE(ReadingParts("as high as 0.9 H/s", &parts));                       // one reading
  EXPECT_FALSE(ReadingParts("1.2 ms; 3.4 GB/s", &parts));                      // two metrics
  EXPECT_FALSE(ReadingParts("kernel 1.1 H/s vs old tree 1.2 H/s; host 1.3 H/s vs old tree 1.4 H/s",
                            &parts));                                          // one label twice
  EXPECT_FALSE(ReadingParts("reran it after the driver update and got 1.1 H/s; 1.2 H/s", &parts));
}

TEST(TableReadings, EachReadingIsARunOfItsRow) {
  const auto figs = ReadEntry("# Kernel tuning log\n\n",
                              "## Attempt history\n\n| Date | Change | Result | Outcome |\n|---|---|---|---|\n"
                              "| 2026-01-03 | First port | `1.92 H/s` | Baseline |\n"
                              "| 2026-01-03 | Scratch rewrite | `1.71 H/s` | Reverted |\n"
                              "| 2026-01-04 | Regcap A/B | `2.66` vs `2.58 H/s` avg | kept |\n"
                              "| 2026-01-05 | Drop fast-math | baseline `2.71 H/s`; candidate `2.69 H/s` | Reverted |\n"
                              "| 2026-01-05 | Lane backoff | as high as `2.9 H/s` | kept |\n"
                              "| 2026-01-05 | Bigger arenas | crashed at launch | Reverted |\n");
  ASSERT_EQ(figs.size(), 6u);
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("hashes_per_s"), 2.66);
  EXPECT_EQ(figs[2].run.config.at("reading"), "1");
  EXPECT_EQ(figs[3].run.config.at("reading"), "2");
  EXPECT_EQ(figs[4].run.config.at("reading"), "baseline");
  EXPECT_EQ(figs[5].run.config.at("reading"), "candidate");
  EXPECT_DOUBLE_EQ(figs[5].run.metrics.at("hashes_per_s"), 2.69);
  for (const auto& f : figs) EXPECT_NE(f.line, 11) << "a figure among words is no reading";
}

TEST(TableReadings, AColumnOfSentencesStaysUnread) {
  const auto figs = ReadEntry("# Kernel tuning log\n\n",
                              "## Attempt history\n\n| Change | Notes |\n|---|---|\n"
                              "| First port | ran at about 0.8 H/s on the old driver |\n"
                              "| Scratch rewrite | 0.71 H/s |\n"
                              "| Lane backoff | saw as much as 0.9 H/s once |\n");
  EXPECT_TRUE(figs.empty());
}

}  // namespace
}  // namespace moelog::logbook::reader
