#include "logbook/doc/regions.h"
#include "logbook/doc/unified_diff.h"

#include <gtest/gtest.h>

namespace moelog::logbook {
namespace {

TEST(RegionsTest, InsertThenReplaceKeepsOutsideBytes) {
  const std::string text = "# T\n- Result:\n  - a\n- Next action: x\n";
  RegionScan scan = FindRegions(text, "t.md");
  ASSERT_TRUE(scan.ok());
  EXPECT_TRUE(scan.regions.empty());
  RegionEdit e{"ID-1", "| a |\n|---|\n| 1 |\n\n", "  ", 3, false};
  SpliceResult r = SpliceRegions(text, scan, {e}, {});
  ASSERT_EQ(r.changed.size(), 1u);
  // Outside bytes: the text before the insertion point and after it are intact.
  const std::string head = "# T\n- Result:\n  - a\n";
  ASSERT_EQ(r.text.substr(0, head.size()), head);
  ASSERT_EQ(r.text.substr(r.text.size() - 17), "- Next action: x\n");
  RegionScan s2 = FindRegions(r.text, "t.md");
  ASSERT_TRUE(s2.ok());
  ASSERT_EQ(s2.regions.size(), 1u);
  EXPECT_EQ(s2.regions[0].id, "ID-1");
  EXPECT_FALSE(s2.regions[0].edited);
  EXPECT_EQ(s2.regions[0].indent, "  ");
  // Same contents again: nothing changes.
  SpliceResult same = SpliceRegions(r.text, s2, {e}, {});
  EXPECT_EQ(same.text, r.text);
  EXPECT_TRUE(same.changed.empty());
  // New contents: only the region changes.
  e.content = "| a |\n|---|\n| 2 |\n\n";
  SpliceResult next = SpliceRegions(r.text, s2, {e}, {});
  EXPECT_EQ(next.changed.size(), 1u);
  EXPECT_EQ(next.text.substr(0, head.size()), head);
  EXPECT_NE(next.text.find("| 2 |"), std::string::npos);
  EXPECT_EQ(next.text.find("| 1 |"), std::string::npos);
}

// A region of one entry written by hand right where another entry's new
// region goes (after its Result): the insertion and the replacement start at
// the same byte. Both are made (was: the insertion dropped as overlapping, so
// `update --check` found a missing region right after `update`).
TEST(RegionsTest, InsertAtTheStartOfAReplacedRegionIsKept) {
  const std::string text = "- Result: b\n<!-- moelog:begin id=A-1 hash=0 -->\nx\n<!-- moelog:end -->\n";
  RegionScan scan = FindRegions(text, "t.md");
  ASSERT_TRUE(scan.ok());
  for (const bool replace_first : {true, false}) {
    const RegionEdit replace{"A-1", "new\n", "", 0, false};
    const RegionEdit insert{"B-1", "b\n", "", 1, false};
    const auto edits = replace_first ? std::vector<RegionEdit>{replace, insert} : std::vector<RegionEdit>{insert, replace};
    SpliceResult r = SpliceRegions(text, scan, edits, {.force = true});
    EXPECT_EQ(r.changed.size(), 2u);
    RegionScan s2 = FindRegions(r.text, "t.md");
    ASSERT_TRUE(s2.ok());
    ASSERT_EQ(s2.regions.size(), 2u);
    EXPECT_EQ(s2.regions[0].id, "B-1");
    EXPECT_EQ(s2.regions[1].id, "A-1");
    EXPECT_EQ(r.text.substr(0, 12), "- Result: b\n");
  }
}

// Find is a hash lookup (first region of an ID), Rename keeps it right, and
// Holds tells the lines of regions (markers included) by binary search: an
// update of a logbook with one region per entry did a scan of every region
// per entry (20,000 entries 1.78 s -> 0.91 s, 80,000 about 7.6 s).
TEST(RegionsTest, FindRenameAndHolds) {
  std::string text = "a\n";
  for (int i = 0; i < 3; ++i) text += "<!-- moelog:begin id=R-" + std::to_string(i) + " hash=0 -->\nx\n<!-- moelog:end -->\nb\n";
  RegionScan scan = FindRegions(text, "t.md");
  ASSERT_TRUE(scan.ok());
  ASSERT_EQ(scan.regions.size(), 3u);
  ASSERT_NE(scan.Find("R-1"), nullptr);
  EXPECT_EQ(scan.Find("R-1")->begin_line, 6);
  EXPECT_EQ(scan.Find("R-9"), nullptr);
  scan.Rename(1, "R-9");
  EXPECT_EQ(scan.Find("R-1"), nullptr);
  ASSERT_NE(scan.Find("R-9"), nullptr);
  EXPECT_EQ(scan.Find("R-9")->begin_line, 6);
  const std::vector<bool> held = {false, true, true, true, false, true, true, true, false, true, true, true, false, false};
  for (size_t line = 1; line <= held.size(); ++line) EXPECT_EQ(scan.Holds(static_cast<int>(line)), held[line - 1]) << line;
}

TEST(RegionsTest, HandEditIsDetectedAndKept) {
  const std::string region = FormatRegion("X-1", "| a |\n|---|\n| 1 |\n\n", "");
  std::string text = "before\n" + region + "after\n";
  RegionScan scan = FindRegions(text, "t");
  ASSERT_EQ(scan.regions.size(), 1u);
  EXPECT_FALSE(scan.regions[0].edited);
  text.replace(text.find("| 1 |"), 5, "| 9 |");
  scan = FindRegions(text, "t");
  ASSERT_EQ(scan.regions.size(), 1u);
  EXPECT_TRUE(scan.regions[0].edited);
  RegionEdit e{"X-1", "| a |\n|---|\n| 1 |\n\n", "", 0, false};
  SpliceResult kept = SpliceRegions(text, scan, {e}, {});
  EXPECT_EQ(kept.text, text);
  ASSERT_EQ(kept.kept_edited.size(), 1u);
  SpliceResult forced = SpliceRegions(text, scan, {e}, SpliceOptions{true});
  EXPECT_EQ(forced.text, "before\n" + region + "after\n");
}

TEST(RegionsTest, MalformedRegionsAreDiagnosed) {
  auto msgs = [](const std::string& t) {
    std::string all;
    for (const auto& d : FindRegions(t, "f.md").diagnostics) all += d.ToString() + "\n";
    return all;
  };
  EXPECT_NE(msgs("<!-- moelog:begin id=A hash=0 -->\n<!-- moelog:begin id=B hash=0 -->\n<!-- moelog:end -->\n")
                .find("f.md:2: nested moelog region"),
            std::string::npos);
  EXPECT_NE(msgs("x\n<!-- moelog:begin id=A hash=0 -->\n| a |\n").find("f.md:2: moelog region is never closed"),
            std::string::npos);
  EXPECT_NE(msgs("<!-- moelog:end -->\n").find("f.md:1: <!-- moelog:end --> without"), std::string::npos);
  EXPECT_NE(msgs("<!-- moelog:begin id=A hash=0 -->\n<!-- moelog:end -->\n<!-- moelog:begin id=A hash=0 -->\n"
                 "<!-- moelog:end -->\n")
                .find("f.md:3: duplicate moelog region id=A (first at line 1)"),
            std::string::npos);
  EXPECT_NE(msgs("<!-- moelog:begin hash=0 -->\n<!-- moelog:end -->\n").find("without id="), std::string::npos);
  // Markers inside fenced code are text.
  EXPECT_TRUE(FindRegions("```\n<!-- moelog:begin id=A hash=0 -->\n```\n", "f").ok());
  EXPECT_TRUE(FindRegions("```\n<!-- moelog:begin id=A hash=0 -->\n```\n", "f").regions.empty());
}

// A line of backticks indented four columns past the text above it is an
// indented code block's text, as cmark reads it, and opens no fence: the
// regions after it are found. Under a list item's text it opens one.
TEST(RegionsTest, AnIndentedCodeBlocksBackticksOpenNoFence) {
  const std::string region = "<!-- moelog:begin id=A hash=0 -->\n| a |\n<!-- moelog:end -->\n";
  EXPECT_EQ(FindRegions("## Machine\n    ```CsCores : 16\n    RAM : 16 gb\n\n" + region, "f").regions.size(), 1u);
  EXPECT_TRUE(FindRegions("- step\n\n    ```bash\n" + region + "    ```\n", "f").regions.empty());
  EXPECT_TRUE(FindRegions("1. step\n   ```\n" + region + "   ```\n", "f").regions.empty());
  EXPECT_TRUE(FindRegions("> ```\n> " + region + "> ```\n", "f").regions.empty());
}

TEST(RegionsTest, InsertAtEndOfFileWithoutNewline) {
  const std::string text = "a\nb";
  RegionEdit e{"Z-1", "x\n", "", 2, true};
  SpliceResult r = SpliceRegions(text, FindRegions(text, "f"), {e}, {});
  EXPECT_EQ(r.text.substr(0, 4), "a\nb\n");
  EXPECT_EQ(FindRegions(r.text, "f").regions.size(), 1u);
}

TEST(RegionsTest, UnifiedDiff) {
  EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nb\n", "f"), "");
  const std::string d = UnifiedDiff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nX\n6\n7\n8\n", "f");
  EXPECT_NE(d.find("--- f\n+++ f (moelog)\n"), std::string::npos);
  EXPECT_NE(d.find("@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"), std::string::npos) << d;
}

// Two one-line edits far apart in a 2,500-line document: two small hunks,
// not the file's middle deleted and inserted again.
TEST(RegionsTest, UnifiedDiffOfFarApartEditsIsSmall) {
  std::string a, b;
  for (int i = 0; i < 2500; ++i) {
    const std::string line = "line " + std::to_string(i) + "\n";
    a += line;
    b += i == 10 ? "changed 10\n" : i == 2400 ? "changed 2400\n" : line;
  }
  const std::string d = UnifiedDiff(a, b, "f");
  int lines = 0, hunks = 0;
  for (size_t p = 0; p < d.size(); ++p) lines += d[p] == '\n';
  for (size_t p = d.find("@@ -"); p != std::string::npos; p = d.find("@@ -", p + 1)) ++hunks;
  EXPECT_EQ(hunks, 2) << d;
  EXPECT_LE(lines, 2 + 2 * (1 + 7 + 1)) << d;
  EXPECT_NE(d.find("-line 2400\n+changed 2400\n"), std::string::npos) << d;
}

}  // namespace
}  // namespace moelog::logbook
