// The reader's segment stage for entries that are no headings: a part
// whose paragraphs or list items open with a date, several in a row (a
// worklog of bold-dated paragraphs, a dated bullet log), under a heading
// that neither dates itself nor has dated sub-headings: each such paragraph
// or item is an entry of its own, its line the paragraph's or item's.
// And the blocks stage for block quotes: a quoted status or result is the
// entry's; a quotation of another source or an earlier entry is not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"
#include "logbook/reader/segment.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook {
namespace {

const char* kRunText() { return "```bash\npython bench.py --tokens 64\n```\n\n"; }

struct Seen {
  int line;
  std::string date;
};

std::vector<Seen> EntryLines(const Logbook& lb) {
  std::vector<Seen> out;
  for (const auto& e : lb.entries) out.push_back({e.heading_line, e.date});
  return out;
}

TEST(SegmentDated, LeadOfADatedParagraph) {
  EXPECT_EQ(DatedLead("2025-03-06. Profiled the decode loop.", "2025-03-06."), "2025-03-06");
  EXPECT_EQ(DatedLead("Mar 6, 2025 \xE2\x80\x94 retuned the tiles", "Mar 6, 2025"), "Mar 6, 2025");
  EXPECT_EQ(DatedLead("Day 3 (2025-03-06): fused the epilogue", "Day 3 (2025-03-06):"), "Day 3 (2025-03-06)");
  EXPECT_EQ(DatedLead("2025-03-06: switched to bf16, 41.2 tok/s", ""), "2025-03-06");
  EXPECT_EQ(DatedLead("2025-03-07 Vectorized the gather", ""), "2025-03-07 Vectorized the gather");
  // No date at its start: no entry.
  EXPECT_EQ(DatedLead("Ran the sweep on 2025-03-06 and saw 41.2 tok/s", ""), "");
  EXPECT_EQ(DatedLead("We fused the epilogue.", "We"), "");
}

TEST(SegmentDated, BoldDatedParagraphsAreEntries) {
  const std::string text =
      "# Decode tuning journal\n"                                   // 1
      "\n"                                                          // 2
      "## Worklog\n"                                                // 3
      "\n"                                                          // 4
      "**2025-03-06.** Profiled the decode loop: 12.4 ms/token.\n"  // 5
      "\n"                                                          // 6
      "Most of it is the gather.\n"                                 // 7
      "\n"                                                          // 8
      "**2025-03-07.** Vectorized the gather: 9.8 ms/token.\n"      // 9
      "\n"                                                          // 10
      "**2025-03-09.** Fused the epilogue: 8.1 ms/token.\n";        // 11
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto seen = EntryLines(lb);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].line, 5);
  EXPECT_EQ(seen[0].date, "2025-03-06");
  EXPECT_EQ(seen[1].line, 9);
  EXPECT_EQ(seen[2].line, 11);
  EXPECT_NE(lb.entries[0].id, lb.entries[1].id);
  // Each entry's own figure, on its own line.
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 3u);
  ASSERT_NE(reader::OnLine(figs[0], 5), nullptr);
  EXPECT_EQ(reader::OnLine(figs[0], 9), nullptr);
  ASSERT_NE(reader::OnLine(figs[1], 9), nullptr);
  ASSERT_NE(reader::OnLine(figs[2], 11), nullptr);
}

TEST(SegmentDated, DatedBulletLogItemsAreEntries) {
  const std::string text =
      "# Serving notes\n"                                                 // 1
      "\n"                                                                // 2
      "## Log\n"                                                          // 3
      "\n"                                                                // 4
      "- 2025-03-06: baseline fp32, 22.7 tok/s\n"                         // 5
      "- 2025-03-07: switched to bf16, 41.2 tok/s\n"                      // 6
      "- **2025-03-09** \xE2\x80\x94 paged KV cache, 44.9 tok/s\n"        // 7
      "\n"                                                                // 8
      "Next: try speculative decoding, maybe 60 tok/s.\n";                 // 9
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto seen = EntryLines(lb);
  ASSERT_EQ(seen.size(), 3u);
  // Each ends with its item (its tables go inside it: the list stays one);
  // the text after the list is its part's, not the last item's.
  EXPECT_EQ(lb.entries[0].end_line, 5);
  EXPECT_EQ(lb.entries[2].end_line, 7);
  EXPECT_EQ(lb.entries[2].item_indent, 2);
  EXPECT_TRUE(lb.entries[2].paragraphs.size() == 1u);
  EXPECT_EQ(seen[0].line, 5);
  EXPECT_EQ(seen[1].line, 6);
  EXPECT_EQ(seen[2].line, 7);
  EXPECT_EQ(seen[2].date, "2025-03-09");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_NE(reader::OnLine(figs[0], 5), nullptr);
  EXPECT_NE(reader::OnLine(figs[1], 6), nullptr);
  EXPECT_NE(reader::OnLine(figs[2], 7), nullptr);
}

TEST(SegmentDated, OneDatedParagraphOrADatedEntryIsNoLog) {
  // One dated paragraph in a part: prose of its section.
  const std::string one =
      "# Notes\n\n## Results\n\n**2025-03-06.** Profiled the decode loop: 12.4 ms/token.\n\nThe gather dominates.\n";
  Logbook lb = ParseLogbook(one, "t.md");
  for (const auto& e : lb.entries) EXPECT_NE(e.heading_line, 5);
  // Dated items under a heading that is dated itself: the entry's notes.
  const std::string dated =
      "# Notes\n\n## 2025-03-06 bf16 decode\n\n- 2025-03-06: 41.2 tok/s\n- 2025-03-07: 41.0 tok/s\n";
  lb = ParseLogbook(dated, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].heading_line, 3);
  // Dated bullets under a part that recaps runs (or plans, or explains them): no entries.
  const std::string recap =
      "# Notes\n\n## 2025-03-06 bf16 decode\n\n" + std::string(kRunText()) +
      "Decode: 41.2 tok/s.\n\n## Summary\n\n- 2025-03-06: 41.2 tok/s\n- 2025-03-07: 44.0 tok/s\n";
  lb = ParseLogbook(recap, "t.md");
  for (const auto& e : lb.entries) EXPECT_EQ(e.heading_line, 3);
}

TEST(SegmentDated, PlainDatedLinesOverTablesAreEntries) {
  const std::string text =
      "# Bench history\n"            // 1
      "\n"                           // 2
      "## Results\n"                 // 3
      "\n"                           // 4
      "2025-03-06 First cut\n"       // 5
      "| case | time |\n"             // 6
      "|---|---|\n"                  // 7
      "| small | 4.1 ms |\n"         // 8
      "\n"                           // 9
      "2025-03-08 Tiled loops\n"     // 10
      "| case | time |\n"             // 11
      "|---|---|\n"                  // 12
      "| small | 3.2 ms |\n";        // 13
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto seen = EntryLines(lb);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].line, 5);
  EXPECT_EQ(seen[1].line, 10);
  ASSERT_EQ(lb.entries[0].tables.size(), 1u);
  ASSERT_EQ(lb.entries[1].tables.size(), 1u);
}

// A short section name reserved by its last word only ("Legacy info") may
// hold a log of time-stamped paragraphs all the same; one reserved by its
// whole name ("Hardware") holds none.
TEST(SegmentDated, TimeStampedParagraphsUnderAReservedNounAreEntries) {
  const std::string log =
      "# Build log\n\n## Legacy info\n\n"                                       // 1-4
      "[17/1/29 15:38]  \nChanged one file  \nBuild time: 25.63s, 21.51s\n\n"  // 5-8
      "[17/1/30 20:20]  \nAdded codemap  \nBuild time: 22.53s, 22.38s\n\n"     // 9-12
      "## Report at `2017/03/26 16:28:56`\n\n| a | b |\n|---|---|\n| x | 1.2s |\n";
  Logbook lb = ParseLogbook(log, "t.md");
  const auto seen = EntryLines(lb);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].line, 5);
  EXPECT_EQ(seen[0].date, "2017-01-29");
  EXPECT_EQ(seen[1].line, 9);
  std::string hardware = log;
  hardware.replace(hardware.find("Legacy info"), 11, "Hardware");
  lb = ParseLogbook(hardware, "t.md");
  EXPECT_EQ(EntryLines(lb).size(), 1u);
}

// Block quotes: the entry's own status and results are read; a quotation
// of another source is not the entry's.
TEST(BlocksQuote, QuotedStatusAndResultAreTheEntrys) {
  const std::string head = "# Log\n\n## 2025-03-06 fused gate\n\n";
  auto figs = reader::ReadEntry(head, "```bash\npython bench.py --fused\n```\n\n> Result: 1.21 ms (p50)\n");
  EXPECT_NE(reader::OnLine(figs, 9), nullptr);
  // The same entry without its quoted status records its partial run; with it, nothing.
  figs = reader::ReadEntry(head, "Partial run: 1.38 ms at batch 8.\n");
  EXPECT_NE(reader::OnLine(figs, 5), nullptr);
  figs = reader::ReadEntry(head, "> **Status:** blocked\n\nPartial run: 1.38 ms at batch 8.\n");
  EXPECT_TRUE(figs.empty());
}

TEST(BlocksQuote, AQuotationOfAnotherSourceIsNotMeasured) {
  const std::string head = "# Log\n\n## 2025-03-06 fused gate\n\n";
  const auto figs = reader::ReadEntry(
      head, "> From the paper: the fused kernel runs in 0.84 ms.\n\nOurs: 1.21 ms (p50).\n");
  EXPECT_EQ(reader::OnLine(figs, 5), nullptr);
  EXPECT_NE(reader::OnLine(figs, 7), nullptr);
}

}  // namespace
}  // namespace moelog::logbook
