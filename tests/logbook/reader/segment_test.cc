// The reader's segment stage: which headings are entries, by structure (a
// date anywhere in the heading, an ordinal or numbered section, a heading
// under a log-like section, a section that holds a command or figures when
// the document has no log structure), and the IDs of undated entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/segment.h"

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

// The stage itself: a heading's words, and roles over an outline.
TEST(Segment, ReadHeading) {
  HeadingRead r = ReadHeading("2026-06-24 \xC2\xB7 Router rewrite");
  EXPECT_TRUE(r.dated && r.date_first && !r.strict);
  EXPECT_EQ(r.label, "Router rewrite");
  r = ReadHeading("Standard Benchmarks \xE2\x80\x94 2026-06-24 (1 GPU)");
  EXPECT_EQ(r.date, "2026-06-24");
  EXPECT_FALSE(r.date_first);
  r = ReadHeading("2026-02-10 10:43 - MOE-I8-001 smoke");
  EXPECT_TRUE(r.strict);
  EXPECT_EQ(r.explicit_id, "MOE-I8-001");
  EXPECT_EQ(r.time, "10:43");
  EXPECT_EQ(ReadHeading("2.1 Muon").number, "2.1");
  EXPECT_EQ(ReadHeading("1. Initial setup").number, "1");
  EXPECT_EQ(ReadHeading("Attempt 3b: fused").number, "3b");
  EXPECT_EQ(ReadHeading("Attempt 3b: fused").ordinal_word, "attempt");
  for (const char* plain : {"8 GPUs", "Top results", "Run12x", "2026 roadmap", "H100 notes"})
    EXPECT_TRUE(ReadHeading(plain).number.empty() && !ReadHeading(plain).dated) << plain;
  EXPECT_EQ(UndatedIdWords("2.1 Muon (lr 0.02)"), "2-1-MUON-LR-0-02");
  EXPECT_TRUE(IsLogSectionName("Work log"));
  EXPECT_TRUE(IsLogSectionName("3. Experiment Log (cont.)"));
  EXPECT_TRUE(IsReservedSectionName("Stop Criteria"));
}

TEST(Segment, OutlineRoles) {
  const std::vector<OutlineHeading> outline = {{1, 1, "Notes"},       {3, 2, "Setup"},   {5, 2, "Runs"},
                                               {7, 3, "Fused"},       {9, 4, "Output"},  {11, 3, "Idle thoughts"},
                                               {13, 2, "Appendix"}};
  // Only "Fused" (7) holds a command; "Idle thoughts" holds none.
  const auto roles = SegmentOutline(outline, [](size_t i) { return i == 3; });
  ASSERT_EQ(roles.size(), outline.size());
  EXPECT_EQ(roles[0].role, HeadingRole::kTitle);
  EXPECT_EQ(roles[1].role, HeadingRole::kSection);
  EXPECT_EQ(roles[2].role, HeadingRole::kSection);
  EXPECT_EQ(roles[3].role, HeadingRole::kEntry);
  EXPECT_EQ(roles[3].rule, "log section");
  EXPECT_EQ(roles[4].role, HeadingRole::kSubheading);
  EXPECT_NE(roles[5].role, HeadingRole::kEntry);
  EXPECT_EQ(roles[6].role, HeadingRole::kSection);
  // No structure: the sections that hold something.
  const auto plain = SegmentOutline({{1, 1, "Doc"}, {2, 2, "Why"}, {4, 2, "How"}}, [](size_t i) { return i == 2; });
  EXPECT_EQ(plain[1].role, HeadingRole::kSection);
  EXPECT_EQ(plain[2].role, HeadingRole::kEntry);
  EXPECT_EQ(plain[2].rule, "content");
}

}  // namespace
}  // namespace moelog::logbook
