// The figures stage on a printout's section titles that name a metric, its
// unit and the series of the numbers under them ("Bandwidth in KiB/sec
// (Read/Write)"), the labelled slash lines they apply to, and the blocks
// stage taking such a block for output.
#include <gtest/gtest.h>

#include <string>

#include "logbook/reader/blocks.h"
#include "logbook/reader/figures_serieslines.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-04-11 09:30 - disk\n\n";

const char* kSummary =
    "```\n"                                   // 7
    "==========\n"                            // 8
    "Disk Summary\n"                          // 9
    "==========\n"                            // 10
    "IOPS (Read/Write)\n"                     // 11
    "    Random:     12,400 / 9,050\n"        // 12
    "  Sequential:   20,100 / 15,300\n"       // 13
    "\n"                                      // 14
    "Latency in us (Read/Write)\n"            // 15
    "    Random:        410 / 655\n"          // 16
    "  Sequential:      208 / 301\n"          // 17
    "```\n";

TEST(FiguresSeriesTitles, ReadsTheTitlesNameUnitAndSeries) {
  std::string name, unit;
  std::vector<std::string> series;
  ASSERT_TRUE(PrintedSeriesTitle("Bandwidth in KiB/sec (Read/Write)", &name, &unit, &series));
  EXPECT_EQ(name, "Bandwidth");
  EXPECT_EQ(unit, "KiB/sec");
  EXPECT_EQ(series, (std::vector<std::string>{"Read", "Write"}));
  ASSERT_TRUE(PrintedSeriesTitle("IOPS (Read/Write)", &name, &unit, &series));
  EXPECT_EQ(unit, "IOPS");
  EXPECT_TRUE(PrintedSeriesTitle("Latency (ms) (Read/Write)"));
  EXPECT_FALSE(PrintedSeriesTitle("Latency (KiB/sec)"));        // a unit, no series
  EXPECT_FALSE(PrintedSeriesTitle("Results (before/after)"));   // no unit named
  EXPECT_FALSE(PrintedSeriesTitle("IOPS (Read/Write) at 4 jobs"));
}

TEST(FiguresSeriesTitles, EachNumberIsTheTitlesMetricOfItsLabelAndSeries) {
  const auto figs = ReadEntry(kHead, kSummary);
  ASSERT_EQ(figs.size(), 4u);  // Random and Sequential, each Read and Write
  const RecordedFigure* f = OnLine(figs, 12);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->run.config.at("case"), "Random");
  EXPECT_EQ(f->run.config.at("series"), "Read");
  EXPECT_DOUBLE_EQ(f->run.metrics.at("iops"), 12400);
  // The latency under the next title joined the same run's row.
  ASSERT_EQ(f->run.metrics.size(), 2u);
  EXPECT_NE(std::find(f->joined_lines.begin(), f->joined_lines.end(), 16), f->joined_lines.end());
  for (const auto& g : figs) EXPECT_EQ(g.run.metrics.size(), 2u) << g.text;
  int writes = 0;
  for (const auto& g : figs) writes += g.run.config.at("series") == "Write" ? 1 : 0;
  EXPECT_EQ(writes, 2);
}

TEST(FiguresSeriesTitles, ABlankLineEndsTheTitlesSeries) {
  const auto figs = ReadEntry(kHead,
                              "```\n"
                              "IOPS (Read/Write)\n"
                              "    Random:     12,400 / 9,050\n"
                              "\n"
                              "    Mixed:      11,000 / 8,000\n"
                              "```\n");
  for (const auto& f : figs) EXPECT_NE(f.run.config.count("case") ? f.run.config.at("case") : "", "Mixed");
}

// The same title as a sub-heading over a two-column table of statistics:
// its unit is the rows' bare values'.
TEST(FiguresSeriesTitles, ASubHeadingNamesTheUnitOfAVerticalTablesValues) {
  const auto figs = ReadEntry(kHead,
                              "#### Latency Distribution (ms)\n\n"  // 7-8
                              "| Metric | Value |\n"                  // 9
                              "|--------|------:|\n"                 // 10
                              "| Min | 1.25 |\n"                     // 11
                              "| P99 | 4.5 |\n");                    // 12
  const RecordedFigure* min = OnLine(figs, 11);
  ASSERT_NE(min, nullptr);
  bool ms = false;
  for (const auto& [m, v] : min->run.metrics) ms = ms || (m.find("time") == 0 && v == 0.00125);  // seconds
  EXPECT_TRUE(ms) << min->text << ::testing::PrintToString(min->run.metrics);
  EXPECT_NE(OnLine(figs, 12), nullptr);
}

TEST(BlocksSeriesTitles, ABareBlockOfTitledSlashLinesIsOutput) {
  EXPECT_TRUE(LooksLikeOutput("IOPS (Read/Write)\n  Random:  12,400 / 9,050\n  Sequential:  20,100 / 15,300\n"));
  FenceFacts f;
  f.text = "Bandwidth in KiB/sec (Read/Write)\n  Random:  438,403 / 315,218\n  Sequential:  459,349 / 349,123\n";
  f.first_line_is_command = true;  // "Bandwidth in ..." reads as a program and its arguments
  f.has_command_line = true;
  std::string cue;
  EXPECT_EQ(ClassifyFence(f, &cue), FenceRole::kOutput);
}

TEST(BlocksSeriesTitles, ArithmeticBesideAFigureIsNoPrintout) {
  EXPECT_FALSE(LooksLikeOutput("Q read:   25,165,824   3 * B * H * S * D * 2\nO write:  8,388,608   B * H * S * D * 2\n"));
}

}  // namespace
}  // namespace moelog::logbook::reader
