// The segment stage for plain-text sections: paragraphs numbered 1, 2, 3 ...
// by their first lines, and items led by one label over their tables or
// printouts (segment_leads.cc, doc/outline.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook {
namespace {

TEST(SegmentLeads, ReadsANumberedLineAndALeadingLabel) {
  EXPECT_EQ(ReadNumberedLine("1 - Use BTreeMap: ").number, 1);
  EXPECT_EQ(ReadNumberedLine("1 - Use BTreeMap: ").heading, "1. Use BTreeMap");
  EXPECT_EQ(ReadNumberedLine("12) Closure fix").number, 12);
  EXPECT_EQ(ReadNumberedLine("43% improvement (28ms)").number, 0);
  EXPECT_EQ(ReadNumberedLine("2 - 3 ms faster").number, 0);  // a title starts with a letter
  // Led by an ordinal word and its number, alone or before a colon.
  EXPECT_EQ(ReadNumberedLine("day 1").heading, "day 1");
  EXPECT_EQ(ReadNumberedLine("Day3: Tuning the kernel").number, 3);
  EXPECT_EQ(ReadNumberedLine("Day3: Tuning the kernel").heading, "Day 3: Tuning the kernel");
  EXPECT_EQ(ReadNumberedLine("Run 1 finished in 3 s").number, 0);  // a sentence
  EXPECT_EQ(ReadNumberedLine("Today 2 runs").number, 0);            // no ordinal word
  EXPECT_EQ(LeadLabel("commit: faster filter"), "commit");
  EXPECT_EQ(LeadLabel("Note that: this is prose"), "");
  EXPECT_EQ(LeadLabel("**Result:** 3 ms"), "");
}

// A plain-text diary with no heading below its title: paragraphs numbered
// 1, 2, 3 by their first lines are its entries, IDs from their words; a
// number out of the run is text of the entry before.
TEST(SegmentLeads, NumberedParagraphsOfAPlainTextDiaryAreEntries) {
  const std::string text =
      "Notes on the interpreter.\n\n1 - Use BTreeMap:\nSimply swap the map.\n43% improvement (28ms) over original (43ms)\n\n"
      "2 - Use Vec:\n\nThis resulted in a regression, 35ms.\n\n"
      "3 - Frame reuse\n\nDown to 7ms.\n\n5 - Not in the run\n\nDown to 6ms.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[0].heading, "1. Use BTreeMap");
  EXPECT_EQ(lb.entries[2].heading, "3. Frame reuse");
  EXPECT_EQ(lb.entries[2].end_line, 17);
  // Two numbered paragraphs are no diary.
  EXPECT_TRUE(ParseLogbook("1 - Use BTreeMap:\nx 3 ms\n\n2 - Use Vec:\n\ny 4 ms\n", "t.md").entries.size() <= 1);
}

// Items led by one label, each over its printout, are entries holding the
// printout (not the item alone); fewer than three are one part's text.
TEST(SegmentLeads, ItemsLedByOneLabelOverTheirPrintoutsAreEntries) {
  std::string text = "## Search engine\n\n### Benchmark results\n\n";
  for (const char* name : {"faster filter", "pools", "reduced"})
    text += std::string("* commit: ") + name + "\n```\n| Method | Mean |\n|--- |---:|\n| A | 1.0 ms |\n```\n\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[1].heading, "commit: pools");
  EXPECT_EQ(lb.entries[1].outputs.size(), 1u);
  EXPECT_EQ(lb.entries[1].segment_rule, "lead");
}

// Items naming a variant and its build command ("- pipelined: `bash
// compile.sh NONE`"), each right over its printouts, head them whatever
// their labels, the last item of a list of notes too; such items over
// prose alone are no entries.
TEST(SegmentLeads, CommandItemsOverTheirPrintoutsAreEntries) {
  std::string text = "# H100 FMHA runs\n\n- device 0: clock 1590 MHz\n";
  for (const char* name : {"pipelined", "warp-specialized", "non-pipelined"})
    text += std::string("- ") + name + ": `bash compile.sh EXECMODE=1 NONE`\n```\n./fmha --prec-type=2\n"
            "M = 4096\nN = 4096\nFMHA:  [178868.0]Gflop/s  (3.0735)ms\n```\n\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[1].heading, "warp-specialized: `bash compile.sh EXECMODE=1 NONE`");
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);  // after the command line, the lines it printed
  EXPECT_EQ(lb.entries[0].commands.size(), 1u);
  std::string prose;
  for (const char* name : {"pipelined", "warp-specialized", "non-pipelined"})
    prose += std::string("- ") + name + ": `bash compile.sh NONE`\n\nIt ran at 3.1 ms.\n\n";
  EXPECT_LE(ParseLogbook(prose, "t.md").entries.size(), 1u);
}

// Paragraphs that are a bold line alone, each right over its printout
// ("**First run**" over a fenced wrk report), are headings written in bold:
// three or more are entries holding the printout; a bold line over prose is
// no entry's head.
TEST(SegmentLeads, BoldLinesOverTheirPrintoutsAreEntries) {
  std::string text;
  for (const char* name : {"**First run**", "**Second run**", "**Third run**"})
    text += std::string(name) + "\n\n```\nRequests/sec:  79069.79\n```\n\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[2].heading, "Third run");
  EXPECT_EQ(lb.entries[2].outputs.size(), 1u);
  std::string prose;
  for (const char* name : {"**First run**", "**Second run**", "**Third run**"})
    prose += std::string(name) + "\n\nIt went fine, 3.1 ms.\n\n";
  EXPECT_LE(ParseLogbook(prose, "t.md").entries.size(), 1u);
}

// Ordered-list items split by their printouts ("1. After cuda graph, ..."
// over a fenced log, "2. ..." over the next) are numbered entries holding
// the printout after them; a list carrying on the run (`4.`, `5.`) is split
// into its items; a plain numbered list starts no run.
TEST(SegmentLeads, OrderedItemsSplitByPrintoutsAreEntries) {
  std::string text = "## Performance Test\n\n";
  for (const char* item : {"1. After cuda graph, decode takes 8.2 ms.", "2. On the basis of the previous, flashattention.",
                           "3. Upgrade to flashattention2."})
    text += std::string(item) + "\n\n```bash\nINFO:gen:Batch inference time: 2103.0737 ms\n```\n\n";
  text += "4. Fuse the key and value layers.\n\n5. Fuse the residual with rmsnorm.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 5u);
  EXPECT_EQ(lb.entries[0].heading, "1. After cuda graph");
  EXPECT_EQ(lb.entries[1].outputs.size(), 1u);
  EXPECT_EQ(lb.entries[4].heading, "5. Fuse the residual with rmsnorm");
  const Logbook plain = ParseLogbook("## Next steps\n\n1. Try A.\n2. Try B.\n3. Try C.\n", "t.md");
  EXPECT_TRUE(plain.entries.size() <= 1);
}

}  // namespace
}  // namespace moelog::logbook
