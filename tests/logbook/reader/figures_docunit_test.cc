// Reader stage figures: a document that says once, under its title, what
// unit its tables are in (logbook/reader/figures_docunit.cc).
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

const char kDoc[] =
    "# Model-shape microbenchmarks\n\n"
    "e2e p50 latency in microseconds per variant; fp4 cells show the speedup vs `dg`. `tok/s` columns are in the CSVs.\n\n"
    "## shape A - hidden 7168, 256 experts\n\n"
    "| tok/rank | dg | fp4 |\n|---|---|---|\n| 8 | 211.1 | 220.5 (0.96x) |\n| 64 | 286.7 | 285.7 (1.00x) |\n\n"
    "## shape B - hidden 4096, 128 experts\n\n"
    "| tok/rank | dg | fp4 |\n|---|---|---|\n| 8 | 127.8 | 142.1 (0.90x) |\n| 64 | — | 190.3 |\n";

TEST(FiguresDocUnit, TheTitlesTextNamesTheUnitOfItsTables) {
  const Logbook lb = ParseLogbook(kDoc, "t.md");
  EXPECT_EQ(DocumentTableUnit(lb), "microseconds");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].size(), 4u);
  EXPECT_EQ(figs[1].size(), 3u);
  for (const auto& entry : figs)
    for (const auto& f : entry) {
      ASSERT_FALSE(f.run.metrics.empty());
      EXPECT_EQ(f.run.metrics.begin()->first.find("time_s"), f.run.metrics.begin()->first.size() - 6) << f.text;
    }
}

// A unit named beside a figure ("ran 4.2 ms in microbenchmarks") or two
// units named apart name none.
TEST(FiguresDocUnit, AFigureOrTwoUnitsNameNoTablesUnit) {
  EXPECT_EQ(DocumentTableUnit(ParseLogbook("# Notes\n\nThe copy took 4.2 ms in microseconds terms.\n\n## A\n", "t.md")), "");
  EXPECT_EQ(DocumentTableUnit(ParseLogbook("# Notes\n\nTimes in ms. Rates in GB/s.\n\n## A\n", "t.md")), "");
  EXPECT_EQ(DocumentTableUnit(ParseLogbook("# Notes\n\nAll times in ms (lower is better).\n\n## A\n", "t.md")), "ms");
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "All times are p50 in ms." at the top of an entry, over a table of bare
// numbers further down (a paragraph between): the table's unit.
TEST(FiguresDocUnit, AnEntrysOwnTextNamesTheUnitOfItsTables) {
  const Logbook lb = ParseLogbook(
      "# Kernel log\n\n## 2026-05-02 tile sweep\n\nAll times are p50 in ms. Lower is better.\n\n"
      "The sweep ran on one node.\n\n| tile | v1 | v2 |\n|---|---|---|\n| 64 | 1.21 | 1.05 |\n| 128 | 1.10 | 0.98 |\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 4u);
  EXPECT_DOUBLE_EQ(figs[0][0].run.metrics.begin()->second, 0.00121);
}

}  // namespace
}  // namespace moelog::logbook::reader
