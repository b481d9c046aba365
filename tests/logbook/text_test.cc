#include "logbook/text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace moelog::logbook {
namespace {

TEST(Text, TrimDropsOuterWhiteSpaceOnly) {
  EXPECT_EQ(Trim(" \t a b \n"), "a b");
  EXPECT_EQ(Trim("   "), "");
}

TEST(Text, SplitListLeavesOutEmptyPieces) {
  EXPECT_EQ(SplitList("a,,b,"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(SplitList(",x, y"), (std::vector<std::string>{"x", " y"}));  // not trimmed
  EXPECT_EQ(SplitList("a;b", ';'), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(SplitList("").empty());
  EXPECT_TRUE(SplitList(",,,").empty());
}

// Shapes written as one slash-joined word: each key=value its own word.
TEST(Text, SlashJoinedPairsSplit) {
  EXPECT_EQ(SplitJoinedPairs("EP=2/T=128/E_local=2/K=2, bf16"), "EP=2 T=128 E_local=2 K=2, bf16");
  EXPECT_EQ(SplitJoinedPairs("ep=8/16 path=a/b x/y=3"), "ep=8/16 path=a/b x/y=3");  // slashes inside values stay
  EXPECT_EQ(SplitJoinedPairs("/a=1 a=/b=2"), "/a=1 a= b=2");
  // Linear: a long slash-joined word is read once.
  std::string w = "k=1";
  for (int n = 0; n < 200000; ++n) w += "/k=1";
  EXPECT_EQ(SplitJoinedPairs(w).find('/'), std::string::npos);
}

// Emoji and the symbols a printout decorates its lines with are blanks;
// letters of any script and box drawing stay.
TEST(Text, WithoutPictographsBlanksDecorationsOnly) {
  EXPECT_EQ(WithoutPictographs("\xF0\x9F\x93\x8D Iter 10"), "  Iter 10");                 // U+1F4CD
  EXPECT_EQ(WithoutPictographs("\xE2\x9A\xA1 MFU: 10.44%"), "  MFU: 10.44%");             // U+26A1
  EXPECT_EQ(WithoutPictographs("\xE2\x9A\x99\xEF\xB8\x8F  CONFIG"), "    CONFIG");     // U+2699 U+FE0F
  EXPECT_EQ(WithoutPictographs("a \xE2\x94\x82 b"), "a \xE2\x94\x82 b");                 // box drawing stays
  EXPECT_EQ(WithoutPictographs("\xE6\x99\x82\xE9\x96\x93 12 ms"), "\xE6\x99\x82\xE9\x96\x93 12 ms");  // CJK stays
  EXPECT_EQ(WithoutPictographs("cut \xF0\x9F"), "cut \xF0\x9F");                          // a cut character as is
}

TEST(Text, Utf8PrefixNeverCutsACharacter) {
  const std::string s = "spread \xE2\x80\x94 more";  // an em dash: bytes 7-9
  EXPECT_EQ(Utf8Prefix(s, 8), "spread ");
  EXPECT_EQ(Utf8Prefix(s, 9), "spread ");
  EXPECT_EQ(Utf8Prefix(s, 10), "spread \xE2\x80\x94");
  EXPECT_EQ(Utf8Prefix(s, 100), s);
}

}  // namespace
TEST(Text, TerminalSafeBlanksC0AndC1Controls) {
  // C0 (ESC, CR, BEL), DEL, C1 as characters (U+009B CSI, U+009D OSC) and as
  // bare bytes 0x80-0x9F: shown as '?'. Tab, newline and valid UTF-8 text
  // (U+00A0 and up: "µs", "—", emoji) pass unchanged.
  EXPECT_EQ(TerminalSafe("a\x1b[2Jb\r\x07\x7f"), "a?[2Jb???");
  EXPECT_EQ(TerminalSafe("id\xc2\x9b" "2J \xc2\x9d" "0;t\xc2\x9c"), "id?2J ?0;t?");
  EXPECT_EQ(TerminalSafe("raw\x9b" "2J\x9d\x80"), "raw?2J??");
  EXPECT_EQ(TerminalSafe("\t1.5 \xc2\xb5s \xe2\x80\x94 \xc2\xa0\xf0\x9f\x9a\x80\n"),
            "\t1.5 \xc2\xb5s \xe2\x80\x94 \xc2\xa0\xf0\x9f\x9a\x80\n");
  // Cut or malformed sequences: their 0x80-0x9F bytes are blanked, the rest kept.
  EXPECT_EQ(TerminalSafe("\xe2\x80"), "\xe2?");
  EXPECT_EQ(TerminalSafe("\xe2\x9b" "x"), "\xe2?x");           // E2 then 9B: a valid pair, cut by 'x'
  EXPECT_EQ(TerminalSafe("\xe0\x9b\x80"), "\xe0??");           // overlong: never valid
  EXPECT_EQ(TerminalSafe("\xc2\xc2\x9b"), "\xc2?");            // a lead, then a C1 character
  // A character split across writes is held until it is whole.
  TerminalFilter f;
  std::string out;
  f.Feed("a\xc2", &out);
  f.Feed("\x9b" "b\xe2\x80", &out);
  f.Feed("\x94", &out);
  f.Finish(&out);
  EXPECT_EQ(out, "a?b\xe2\x80\x94");
}

}  // namespace moelog::logbook
