// Reader stage table: columns of slash lists of figures (table_slashcols.h).
#include "logbook/reader/table_slashcols.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

using Names = std::vector<std::string>;

TEST(TableSlashColumns, ReadsACellsNumbersAndTheNamesOfTheList) {
  EXPECT_EQ(SlashNumbers("**88 / 79**"), (Names{"88", "79"}));
  EXPECT_EQ(SlashNumbers("36 / 32 / 30 / 26"), (Names{"36", "32", "30", "26"}));
  EXPECT_TRUE(SlashNumbers("64/1 tiles").empty());
  EXPECT_TRUE(SlashNumbers("88").empty());
  EXPECT_EQ(HeaderListNames("decode at 1K / 30K / 57K", 3), (Names{"decode at 1K", "decode at 30K", "decode at 57K"}));
  EXPECT_TRUE(HeaderListNames("decode at 1K / 30K", 3).empty());  // as many names as numbers, or none
  EXPECT_EQ(ParentheticalListNames("Median decode tok/s (greedy / sampled at the defaults; `bench.py`):", 2),
            (Names{"greedy", "sampled"}));
  EXPECT_TRUE(ParentheticalListNames("Median decode tok/s:", 2).empty());
}

// Each number of a cell is a figure of its own column, named by the
// header's list or by the sentence above; the rows stay the runs.
TEST(TableSlashColumns, EachNumberIsAFigureOfItsOwnColumn) {
  const auto figs = ReadEntry("# Tuning\n\n## Results: depth\n\n",
                              "Median decode tok/s (greedy / sampled):\n\n"
                              "| config | code | decode at 1K / 30K / 57K |\n|---|---|---|\n"
                              "| base | 36 / 35 | 36 / 32 / 30 |\n| fast | **88 / 79** | 76 / 68 / 61 |\n");
  ASSERT_EQ(figs.size(), 10u);
  int sampled = 0;
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("variant")) << f.text;
    if (f.run.config.at("variant") == "code sampled") {
      ++sampled;
      EXPECT_DOUBLE_EQ(f.run.metrics.begin()->second, f.run.config.at("config") == "base" ? 35 : 79);
    }
  }
  EXPECT_EQ(sampled, 2);
}

// A unit's column of lists named by the entry's heading ("(Q4, greedy code
// / prose / json, ms per step)"), beside the rows' own ms/step, a row of
// words at the end: each number a figure named by the list.
TEST(TableSlashColumns, AListUnderAUnitHeaderTakesTheHeadingsNames) {
  const auto figs = ReadEntry("# T\n\n## Drafting options (Q4, greedy code / prose / json, ms per step)\n\n",
                              "| Drafter | tok/s | ms/step |\n|---|---|---|\n"
                              "| MTP n=2 | 75 / 57 / 79 | 37.4 |\n| MTP n=3 | 88 / 57 / 96 | 40.2 |\n"
                              "| MTP p-min | never better than plain MTP 3 | |\n");
  int code = 0;
  for (const auto& f : figs)
    if (f.run.config.count("variant") && f.run.config.at("variant") == "code") ++code;
  EXPECT_EQ(code, 2);
}

// Settings written as a compact pair under a header that names them
// ("| BN/STAGES | ... | 64/1 |") are no figures.
TEST(TableSlashColumns, ACompactPairOfSettingsIsNoList) {
  const auto figs = ReadEntry("# Sweep\n\n## 2026-01-02 Tiles\n\n",
                              "| variant | BN/STAGES | N=1024 |\n|---|---|---|\n"
                              "| v0 | 64/1 | 0.0635 ms |\n| v1 | 32/1 | 0.0781 ms |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) EXPECT_EQ(f.run.metrics.size(), 1u) << f.text;
}

}  // namespace
}  // namespace moelog::logbook::reader
