// --show-recorded names the stage that decided each figure's fate.
#include <gtest/gtest.h>

#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

TEST(ReaderStages, EachFateNamesItsStage) {
  EXPECT_EQ(FateStage("row parallel_mode=none, topk=2"), "table");
  EXPECT_EQ(FateStage("recorded table, row 3"), "table");
  EXPECT_EQ(FateStage("listed, not tabled: matches several rows"), "table");
  EXPECT_EQ(FateStage("listed, not tabled: two figures of one metric and nothing naming each"), "key");
  EXPECT_EQ(FateStage("listed, not tabled: restates a figure of E-2, not another run"), "classify");
  EXPECT_EQ(FateStage("listed, not tabled: a difference of two runs (smaller, faster ...), not one run's figure"),
            "classify");
  EXPECT_EQ(FateStage("listed, not tabled: an estimate (\"~\", \"about\" ...), not a run"), "classify");
  EXPECT_EQ(FateStage("listed, not tabled: no unit, and nothing in the entry names its metric"), "figures");
}

}  // namespace
}  // namespace moelog::logbook
