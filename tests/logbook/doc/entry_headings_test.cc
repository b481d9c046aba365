// Entries as researchers mark them: under `## Experiment Log`, `## Entries`
// or `## Entry Log`, at `###` or `##`, with or without a time (and a zone).
// Inline code spans that are not command lines are not commands.
#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

const char* kBody =
    "- Hypothesis: h\n- Command: `python bench_moe_hillclimb.py --tokens 64 --topk 2`\n- Result: pending\n\n";

TEST(EntryHeadings, LogHeadingsLevelsAndTimes) {
  for (const std::string& text : {
           "# T\n\n## Entries\n\n### 2026-07-17 - X-001 a\n" + std::string(kBody),
           "# T\n\n## Entry Log\n\n### 2026-07-17 10:05 UTC - X-001 a\n" + std::string(kBody),
           "# T\n\n## 2026-07-20 15:15 PDT - a\n\n" + std::string(kBody),
           "# T\n\n## 2026-05-05T23:36Z - a\n\n" + std::string(kBody),
           "# T\n\n## Experiment Log\n\n### 2026-07-17 \xE2\x80\x94 a\n" + std::string(kBody)}) {
    const Logbook lb = ParseLogbook(text, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << text;
    EXPECT_EQ(lb.entries[0].date.substr(0, 4), "2026") << text;
    ASSERT_EQ(lb.entries[0].commands.size(), 1u) << text;
    EXPECT_FALSE(lb.entries[0].id.empty());
  }
}

TEST(EntryHeadings, TimeIsKeptAndZoneSkipped) {
  const Logbook lb = ParseLogbook("# T\n\n## Entry Log\n\n### 2026-07-17 10:05 UTC - a\n" + std::string(kBody), "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].time, "10:05");
  EXPECT_EQ(lb.entries[0].label, "a");
}

// An entry written at ## keeps its ### sub-headings' blocks.
TEST(EntryHeadings, SubHeadingsOfAnEntryAtLevelTwo) {
  const Logbook lb = ParseLogbook(
      "# T\n\n## 2026-07-20 15:15 - a\n\n### Commands\n\n- Command: `python bench_moe_hillclimb.py --tokens 64`\n"
      "\n## Scope\n- Goal: g\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_LT(lb.entries[0].end_line, 9);
}

TEST(EntryHeadings, ProseSpansAreNotCommands) {
  const Logbook lb = ParseLogbook(
      "# T\n\n## Experiment Log\n\n### 2026-07-17 10:05 - a\n- Command: runs `q` then `tk`; see "
      "`bench_moe_hillclimb.py`\n- Result: pending\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_TRUE(lb.entries[0].commands.empty());
}

}  // namespace
}  // namespace moelog::logbook
