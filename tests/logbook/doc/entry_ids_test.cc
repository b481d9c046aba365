#include "logbook/doc/entry_ids.h"

#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

using moelog::testing::Lines;
using moelog::testing::SeedPath;
using moelog::testing::Slurp;

TEST(EntryIdsTest, ExplicitIdTokens) {
  EXPECT_TRUE(IsExplicitId("MOE-I8-004"));
  EXPECT_TRUE(IsExplicitId("EXP-1"));
  EXPECT_FALSE(IsExplicitId("EP"));
  EXPECT_FALSE(IsExplicitId("ICI-Aware"));
  EXPECT_FALSE(IsExplicitId("MOE--1"));
  EXPECT_FALSE(IsExplicitId("MOE-I8-"));
  EXPECT_FALSE(IsExplicitId("1-2"));
}

TEST(EntryIdsTest, DerivedIdsFromTitleAndDateTime) {
  const Logbook lb = ParseLogbook(Slurp(SeedPath("moe_ep_benchmark_logbook.md")), "ep.md");
  EXPECT_EQ(EffectiveIdPrefix(lb), "MOE-EP-BENCHMARK");
  EXPECT_EQ(lb.entries[1].id, "MOE-EP-BENCHMARK-20260209-1340");
  const Logbook dup = ParseLogbook("# X\n## Experiment Log\n### 2026-01-01 10:00 - a\n### 2026-01-01 10:00 - b\n", "d");
  EXPECT_EQ(dup.entries[0].id, "X-20260101-1000");
  EXPECT_EQ(dup.entries[1].id, "X-20260101-1000-2");
}

TEST(EntryIdsTest, WriteAddsIdsOnlyToHeadingsAndKeepsThem) {
  const std::string text = Slurp(SeedPath("moe_ep_benchmark_logbook.md"));
  const Logbook lb = ParseLogbook(text, "ep.md");
  int added = 0;
  const std::string out = AddMissingIds(lb, text, &added);
  EXPECT_EQ(added, static_cast<int>(lb.entries.size()));
  const auto a = Lines(text), b = Lines(out);
  ASSERT_EQ(a.size(), b.size());
  size_t changed = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) {
      ++changed;
      EXPECT_EQ(a[i].rfind("### ", 0), 0u);
    }
  EXPECT_EQ(changed, lb.entries.size());
  const Logbook again = ParseLogbook(out, "ep.md");
  ASSERT_EQ(again.entries.size(), lb.entries.size());
  for (size_t i = 0; i < lb.entries.size(); ++i) {
    EXPECT_EQ(again.entries[i].explicit_id, lb.entries[i].id);
    EXPECT_EQ(again.entries[i].label, lb.entries[i].label);
  }
  int added2 = 0;
  EXPECT_EQ(AddMissingIds(again, out, &added2), out);
  EXPECT_EQ(added2, 0);
}

TEST(EntryIdsTest, HeadingWithoutLabel) {
  const std::string text = "# T\n## Experiment Log\n### 2026-01-01 10:00\n- x\n### 2026-01-01 11:00 - \n";
  const Logbook lb = ParseLogbook(text, "t");
  ASSERT_EQ(lb.entries.size(), 2u);
  int added = 0;
  const std::string out = AddMissingIds(lb, text, &added);
  EXPECT_EQ(added, 2);
  EXPECT_NE(out.find("### 2026-01-01 10:00 - T-20260101-1000\n"), std::string::npos) << out;
  EXPECT_NE(out.find("### 2026-01-01 11:00 - T-20260101-1100\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace moelog::logbook
