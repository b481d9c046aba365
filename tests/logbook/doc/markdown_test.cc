#include "logbook/doc/markdown.h"

#include <gtest/gtest.h>

#include "tests/time_bound.h"

#include <chrono>
#include <string>

namespace moelog::logbook {
namespace {

int FindKind(const MdDocument& d, MdKind k, int nth = 0) {
  for (size_t i = 0; i < d.nodes.size(); ++i)
    if (d.nodes[i].kind == k && nth-- == 0) return static_cast<int>(i);
  return -1;
}

TEST(MarkdownTest, HeadingsListsAndPositions) {
  const std::string text = "# Title\n\n## Sec\n- a: `x y`\n  - sub\n\n- b\n\ntext\n";
  MdDocument d = ParseMarkdown(text);
  ASSERT_EQ(d.root().kind, MdKind::kDocument);
  int h = FindKind(d, MdKind::kHeading, 1);
  ASSERT_GE(h, 0);
  EXPECT_EQ(d.nodes[h].level, 2);
  EXPECT_EQ(d.nodes[h].start_line, 3);
  int list = FindKind(d, MdKind::kList);
  ASSERT_GE(list, 0);
  EXPECT_EQ(d.nodes[list].start_line, 4);
  // cmark reports lists followed by blank lines as ending on the next line,
  // column 0; the wrapper normalizes to the last non-blank line.
  EXPECT_EQ(d.nodes[list].end_line, 7);
  int code = FindKind(d, MdKind::kCode);
  ASSERT_GE(code, 0);
  EXPECT_EQ(d.nodes[code].literal, "x y");
  int item = FindKind(d, MdKind::kItem);
  EXPECT_EQ(InlineText(d, FirstParagraph(d, item)), "a: `x y`");
}

TEST(MarkdownTest, GfmTablesAreParsed) {
  const std::string text = "intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n";
  MdDocument d = ParseMarkdown(text);
  int t = FindKind(d, MdKind::kTable);
  ASSERT_GE(t, 0) << "table extension not attached";
  EXPECT_EQ(d.nodes[t].start_line, 3);
  EXPECT_EQ(d.nodes[t].end_line, 6);
  ASSERT_EQ(d.nodes[t].children.size(), 3u);
  EXPECT_TRUE(d.nodes[d.nodes[t].children[0]].header_row);
  EXPECT_FALSE(d.nodes[d.nodes[t].children[1]].header_row);
}

TEST(MarkdownTest, FencedBlocksKeepInfoAndLines) {
  const std::string text = "1. step\n\n```bash\necho hi \\\n  there\n```\n";
  MdDocument d = ParseMarkdown(text);
  int c = FindKind(d, MdKind::kCodeBlock);
  ASSERT_GE(c, 0);
  EXPECT_TRUE(d.nodes[c].fenced);
  EXPECT_EQ(d.nodes[c].info, "bash");
  EXPECT_EQ(d.nodes[c].start_line, 3);
  EXPECT_EQ(d.nodes[c].end_line, 6);
  EXPECT_EQ(d.nodes[c].literal, "echo hi \\\n  there\n");
}

// A table right below a paragraph's last line (no blank line between)
// takes that line as its header: cmark-gfm then reports the paragraph at
// line 0 and the table at the paragraph's first line. The wrapper gives
// both their source lines, so a sentence's figure keeps its line.
TEST(MarkdownTest, AParagraphATableInterruptsKeepsItsLines) {
  const std::string text = "## Result\n\nfirst line\nsecond line 52.8%\n| a | b |\n|---|---|\n| 1 | 2 |\n";
  MdDocument d = ParseMarkdown(text);
  const int para = FindKind(d, MdKind::kParagraph);
  ASSERT_GE(para, 0);
  EXPECT_EQ(d.nodes[para].start_line, 3);
  EXPECT_EQ(d.nodes[para].end_line, 4);
  const int table = FindKind(d, MdKind::kTable);
  ASSERT_GE(table, 0);
  EXPECT_EQ(d.nodes[table].start_line, 5);
  EXPECT_EQ(d.nodes[table].end_line, 7);
  const int header = FindKind(d, MdKind::kTableRow);
  ASSERT_GE(header, 0);
  EXPECT_EQ(d.nodes[header].start_line, 5);
  // In a list item too.
  MdDocument li = ParseMarkdown("- item one\n  more text\n  | x | y |\n  |---|---|\n  | 3 | 4 |\n");
  const int p2 = FindKind(li, MdKind::kParagraph);
  ASSERT_GE(p2, 0);
  EXPECT_EQ(li.nodes[p2].start_line, 1);
  EXPECT_EQ(li.nodes[p2].end_line, 2);
  EXPECT_EQ(li.nodes[FindKind(li, MdKind::kTable)].start_line, 3);
}

TEST(MarkdownTest, PathologicalInputDoesNotCrash) {
  std::string deep(100000, '>');
  deep += " x\n";
  MdDocument d = ParseMarkdown(deep);
  EXPECT_TRUE(d.depth_limited);
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 131 + 7) & 0xff);
  MdDocument j = ParseMarkdown(junk);
  EXPECT_EQ(j.root().kind, MdKind::kDocument);
  MdDocument e = ParseMarkdown("");
  EXPECT_EQ(e.nodes.size(), 1u);
  std::string lists;
  for (int i = 0; i < 200; ++i) lists += std::string(static_cast<size_t>(i) * 2, ' ') + "- x\n";
  MdDocument l = ParseMarkdown(lists);
  EXPECT_TRUE(l.depth_limited);
}

// cmark-gfm's table extension appends each cell to a list by walking it: a
// row of n cells costs n^2 (a 30,000-column table took 37 s). Wider rows than
// any logbook writes are no table; narrower ones are parsed as before.
TEST(MarkdownTest, TablesOfThousandsOfColumnsAreNoTableAndFast) {
  const int n = 40000;
  std::string head = "|", rule = "|", row = "|";
  for (int i = 0; i < n; ++i) head += " c |", rule += "---|", row += " 1.5 |";
  const std::string text = "intro\n\n" + head + "\n" + rule + "\n" + row + "\n" + row + "\n\nafter\n";
  const auto start = std::chrono::steady_clock::now();
  MdDocument d = ParseMarkdown(text);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(FindKind(d, MdKind::kTable), -1);
  EXPECT_LT(s, test::TimeBound(5.0));
  std::string wide_head = "|", wide_rule = "|", wide_row = "|";
  for (int i = 0; i < 100; ++i) wide_head += " c |", wide_rule += "---|", wide_row += " 1.5 |";
  MdDocument w = ParseMarkdown(wide_head + "\n" + wide_rule + "\n" + wide_row + "\n");
  const int t = FindKind(w, MdKind::kTable);
  ASSERT_GE(t, 0);
  EXPECT_EQ(w.nodes[t].children.size(), 2u);
}

TEST(MarkdownTest, SplitLinesHandlesCrlfAndMissingNewline) {
  auto l = SplitLines("a\r\nb\nc");
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0], "a");
  EXPECT_EQ(l[2], "c");
  EXPECT_TRUE(SplitLines("").empty());
}

}  // namespace
}  // namespace moelog::logbook
