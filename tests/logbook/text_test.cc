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

}  // namespace
}  // namespace moelog::logbook
