#include "engine/bench_flags.h"

#include <algorithm>

#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/target.h"

namespace moelog::engine {
namespace {

// Each key, flag and alias names one entry; a kFollows entry names a key of
// the table; axis ranks order the axes of a kind without ties.
TEST(BenchFlags, NamesAreUniqueAndFollowedKeysExist) {
  std::set<std::string> keys, flags, aliases;
  std::set<std::pair<AxisKind, int>> ranks;
  for (const FlagSpec& f : BenchFlags()) {
    EXPECT_TRUE(keys.insert(f.key).second) << f.key;
    if (*f.flag) {
      EXPECT_TRUE(flags.insert(f.flag).second) << f.flag;
    }
    if (*f.alias) {
      EXPECT_TRUE(aliases.insert(f.alias).second) << f.alias;
    }
    if (f.axis.kind != AxisKind::kNone) {
      EXPECT_TRUE(ranks.insert({f.axis.kind, f.axis.rank}).second) << f.key;
    }
    if (f.pairing == Pairing::kFollows) {
      EXPECT_NE(FindRunKey(f.follows), nullptr) << f.key;
    }
    if (*f.flag) {
      EXPECT_FALSE(std::holds_alternative<std::monostate>(f.field)) << f.flag;
    }
  }
  for (const auto& a : aliases) EXPECT_EQ(keys.count(a), 0u) << a;
}

// The cache key holds exactly the kValue keys (for the target's own keys),
// and a kWhenSet key only once it is set.
TEST(BenchFlags, CacheKeyFollowsTheRoles) {
  for (const char* target : {"cpu", "v5p"}) {
    BenchConfig c;
    c.target = target;
    const auto j = nlohmann::json::parse(CanonicalConfigJson(c));
    for (const FlagSpec& f : BenchFlags()) {
      const auto& foreign = TargetOrDefault(target).foreign_keys;
      const bool on_target = std::find(foreign.begin(), foreign.end(), f.key) == foreign.end();
      EXPECT_EQ(j.contains(f.key), f.cache == CacheRole::kValue && on_target) << target << " " << f.key;
    }
  }
  BenchConfig c;
  c.target = "v5p";
  c.xla_scoped_vmem_kib = 50000;
  EXPECT_EQ(nlohmann::json::parse(CanonicalConfigJson(c)).value("xla_scoped_vmem_kib", 0), 50000);
}

TEST(BenchFlags, AxesInRankOrder) {
  const auto numeric = AxisKeys(AxisKind::kNumeric);
  ASSERT_GE(numeric.size(), 2u);
  EXPECT_EQ(numeric[0], "topk");
  EXPECT_EQ(numeric[1], "null_route_frac");
  EXPECT_EQ(AxisKeys(AxisKind::kCategorical).front(), "mlp_path");
}

}  // namespace
}  // namespace moelog::engine
