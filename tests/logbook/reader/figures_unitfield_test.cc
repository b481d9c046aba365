// The figures stage on a job record's fields: a field that names the unit
// of the figure beside it ("- unit: `GFLOPS`" under "- performance:
// `4120.5`"), and a key with its unit as its last part ("runtime_sec").
#include <gtest/gtest.h>

#include "logbook/reader/figures_unitfield.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string Why(const std::map<int, std::string>& why) { return ::testing::PrintToString(why); }

// The bare number right before a unit field takes its unit; with none
// before, the one right after; a unit field that names no unit, and items
// with no unit field among them, stay as written.
TEST(FiguresUnitField, AUnitFieldNamesTheBareNumberBesideIt) {
  std::vector<Bullet> items(4);
  items[0].text = "status: `pass`";
  items[1].text = "performance: `4120.5`";
  items[2].text = "unit: `GFLOPS`";
  items[3].text = "nodes: `1`";
  std::vector<Bullet> storage;
  const auto& got = WithUnitFields(items, &storage);
  EXPECT_EQ(got[1].text, "performance: `4120.5` GFLOPS");
  EXPECT_EQ(got[3].text, "nodes: `1`");
  std::vector<Bullet> after(2);
  after[0].text = "**Unit**: ms";
  after[1].text = "value: 3.25";
  EXPECT_EQ(WithUnitFields(after, &storage)[1].text, "value: 3.25 ms");
  std::vector<Bullet> plain(2);
  plain[0].text = "value: 3.25";
  plain[1].text = "unit: `widgets of the week`";
  EXPECT_EQ(&WithUnitFields(plain, &storage), &plain);
}

// A job record's nested fields: its runtime in a key ending in its unit
// and a performance whose unit is a field of its own are the run's
// figures; a key that sets the run up ("timeout_sec") and an ID are not.
TEST(FiguresUnitField, AJobRecordsFieldsAreRead) {
  const std::string doc =
      "# Kernel changes\n\n"
      "## Change Log\n\n"
      "### v0.4.0\n"                         // 5
      "**Change**: \"tiles of 64x64\"  \n"     // 6
      "**Result**: `2.08 ms` a call  \n\n"    // 7
      "- [x] **job**\n"                      // 9
      "    - id: `88121`\n"                   // 10
      "    - timeout_sec: `600`\n"            // 11
      "    - runtime_sec: `14`\n"             // 12
      "    - status: `success`\n"             // 13
      "- [x] **test**\n"                     // 14
      "    - status: `pass`\n"                // 15
      "    - performance: `4120.5`\n"         // 16
      "    - unit: `GFLOPS`\n";               // 17
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 12, 16}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
  for (int line : {10, 11}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A done task's mark names nothing ("- [x] **job**" is the job part), and a
// key that names its metric by its unit ("runtime_sec") is no variant.
TEST(FiguresUnitField, ADoneMarkAndAUnitKeyNameNoRun) {
  const std::string doc =
      "# Kernel changes\n\n## Change Log\n\n### v0.4.0\n"
      "**Result**: `2.08 ms` a call  \n\n"
      "- [x] **job**\n"                      // 8
      "    - runtime_sec: `14`\n";            // 9
  const Logbook lb = ParseLogbook(doc, "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  const RecordedFigure* f = nullptr;
  for (const auto& entry : figs)
    for (const auto& g : entry)
      if (g.line == 9) f = &g;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->run.config.count("variant"), 0u) << ::testing::PrintToString(f->run.config);
  ASSERT_EQ(f->run.config.count("case"), 1u) << ::testing::PrintToString(f->run.config);
  EXPECT_EQ(f->run.config.at("case"), "job");
}

}  // namespace
}  // namespace moelog::logbook::reader
