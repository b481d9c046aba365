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

TEST(Text, Utf8PrefixNeverCutsACharacter) {
  const std::string s = "spread \xE2\x80\x94 more";  // an em dash: bytes 7-9
  EXPECT_EQ(Utf8Prefix(s, 8), "spread ");
  EXPECT_EQ(Utf8Prefix(s, 9), "spread ");
  EXPECT_EQ(Utf8Prefix(s, 10), "spread \xE2\x80\x94");
  EXPECT_EQ(Utf8Prefix(s, 100), s);
}

}  // namespace
}  // namespace moelog::logbook
