// The reader's segment stage: which headings are entries, by structure (a
// date anywhere in the heading, an ordinal or numbered section, a heading
// under a log-like section, a section that holds a command or figures when
// the document has no log structure), and the IDs of undated entries.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

const char* kRun = "```bash\npython bench.py --tokens 64 --topk 2\n```\n\n";

std::vector<std::string> Headings(const Logbook& lb) {
  std::vector<std::string> out;
  for (const auto& e : lb.entries) out.push_back(e.heading);
  return out;
}

TEST(SegmentParse, DateAnywhereWithAnySeparator) {
  const std::string text = std::string("# Kernel notes\n\n## 2026-06-24 \xC2\xB7 Tiled GEMM\n\n") + kRun +
                           "## Worklog 2026-06-25\n\n" + kRun + "## 2026-06-26 | fused epilogue\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[0].date, "2026-06-24");
  EXPECT_EQ(lb.entries[0].label, "Tiled GEMM");
  EXPECT_EQ(lb.entries[1].date, "2026-06-25");
  EXPECT_EQ(lb.entries[1].label, "Worklog");
  EXPECT_EQ(lb.entries[2].label, "fused epilogue");
  for (const auto& e : lb.entries) EXPECT_EQ(e.commands.size(), 1u) << e.heading;
}

TEST(SegmentParse, NumberedSectionsAreEntriesWithIdsFromTheirWords) {
  const std::string text = std::string("# Speedrun\n\n## 1. Initial setup\n\n") + kRun + "## 2. Optimizers\n\n" +
                           "### 2.1 Muon\n\n" + kRun + "### 2.2 AdamW\n\n" + kRun + "## Experiment 3: routing\n\n" +
                           kRun + "## Run 12\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_GE(h.size(), 5u);
  EXPECT_EQ(h[0], "1. Initial setup");
  EXPECT_NE(std::find(h.begin(), h.end(), "2.1 Muon"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "2.2 AdamW"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "Experiment 3: routing"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "Run 12"), h.end());
  for (const auto& e : lb.entries) {
    EXPECT_TRUE(e.date.empty()) << e.heading;
    EXPECT_EQ(e.id.rfind("SPEEDRUN-", 0), 0u) << e.id;
  }
  EXPECT_EQ(lb.entries[0].id, "SPEEDRUN-1-INITIAL-SETUP");
}

TEST(SegmentParse, UndatedIdsComeFromWordsNotPosition) {
  const std::string a = std::string("# Log\n\n## Worklog\n\n### Muon\n\n") + kRun + "### AdamW\n\n" + kRun;
  const std::string b = std::string("# Log\n\n## Worklog\n\n### AdamW\n\n") + kRun + "### Muon\n\n" + kRun;
  const Logbook la = ParseLogbook(a, "a.md"), lb = ParseLogbook(b, "b.md");
  ASSERT_EQ(la.entries.size(), 2u);
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(la.entries[0].id, lb.entries[1].id);
  EXPECT_EQ(la.entries[1].id, lb.entries[0].id);
  EXPECT_EQ(la.entries[0].id, "LOG-MUON");
}

TEST(SegmentParse, HeadingsUnderLogLikeSections) {
  for (const char* section : {"Worklog", "Journal", "Runs", "Results", "Experiments", "Log"}) {
    const std::string text = std::string("# T\n\n## Setup\n\nSome words.\n\n## ") + section +
                             "\n\n### Fused kernel\n\n" + kRun + "### Split-K\n\n" + kRun;
    const Logbook lb = ParseLogbook(text, "t.md");
    ASSERT_EQ(lb.entries.size(), 2u) << section;
    EXPECT_EQ(lb.entries[0].label, "Fused kernel") << section;
    EXPECT_EQ(lb.entries[1].commands.size(), 1u) << section;
  }
}

TEST(SegmentParse, AnUndatedEntryInsideADatedJournal) {
  const std::string text = std::string("# Journal\n\n## 2026-06-24 \xC2\xB7 baseline\n\n") + kRun +
                           "## Follow-up on tile sizes\n\n" + kRun + "## 2026-06-25 \xC2\xB7 fused\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[1].heading, "Follow-up on tile sizes");
  EXPECT_TRUE(lb.entries[1].date.empty());
  EXPECT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_EQ(lb.entries[2].date, "2026-06-25");
}

TEST(SegmentParse, NoLogStructureStillYieldsSectionsWithCommandsOrFigures) {
  const std::string text = std::string("# Notes on the kernel\n\n## Background\n\nWhy we tile.\n\n## Benchmark\n\n") +
                           kRun + "## Numbers\n\n| size | time |\n|---|---|\n| 1024 | 0.31 ms |\n\n## Ideas\n\nMore later.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "Benchmark");
  EXPECT_EQ(h[1], "Numbers");
  EXPECT_EQ(lb.entries[1].tables.size(), 1u);
}

TEST(SegmentParse, ResearchGroupFormsReadAsBefore) {
  // Sub-headings of an entry stay sub-headings, even when numbered or dated
  // in passing; section names that are the logbook's own are no entries.
  const std::string text = std::string("# T\n\n## Scope\n\n- x\n\n## Experiment Log\n\n") +
                           "### 2026-02-10 10:43 - MOE-I8-001 smoke\n\n" + kRun + "#### Arm 1\n\ntext\n\n" +
                           "#### Results (2026-02-11)\n\ntext\n\n## Negative Results Index\n\n- none\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].id, "MOE-I8-001");
  EXPECT_EQ(lb.entries[0].subheadings.size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook
