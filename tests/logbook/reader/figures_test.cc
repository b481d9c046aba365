// The figures stage: numbers with their units, as written.
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderFigures, UnitsAndWrittenDigits) {
  auto f = Figures("`fused` 0.406 s, `ref` 1.25 ms, 812,400 tok/s", true);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].unit, "s");
  EXPECT_DOUBLE_EQ(f[0].value, 0.406);
  EXPECT_EQ(f[0].decimals, 3);
  EXPECT_EQ(f[1].metric, "time_s");
  EXPECT_NEAR(f[1].value, 0.00125, 1e-12);
  EXPECT_EQ(f[2].metric, "tokens_per_s");
}

TEST(ReaderFigures, FractionsAreNoFigures) {
  EXPECT_TRUE(Figures("33/64 passed", true).empty());
}

TEST(ReaderFigures, ASpeedupIsDerived) {
  auto f = Figures("fused 0.84 ms (1.44x)", true);
  ASSERT_FALSE(f.empty());
  bool derived = false;
  for (const auto& x : f) derived = derived || (x.metric == "speedup" && x.derived);
  EXPECT_TRUE(derived);
}

// "from A to B" pairs a change's figures as before and after, in a bullet
// as in prose.
TEST(ReaderFigures, FromToIsBeforeAndAfter) {
  for (bool prose : {false, true}) {
    auto f = Figures("the combine went from 560 us to 545 us", true, false, prose);
    ASSERT_EQ(f.size(), 2u) << prose;
    EXPECT_EQ(f[0].named["arrow"], "before");
    EXPECT_EQ(f[1].named["arrow"], "after");
  }
}

// A name written after a figure's unit names it in a bullet too, in one
// or two words ("~3.8 us launch overhead vs 51 us kernel").
TEST(ReaderFigures, ANameAfterTheUnitNamesABulletFigure) {
  auto f = Figures("~3.8 us launch overhead vs 51 us kernel", false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].word, "launch overhead");
  EXPECT_EQ(f[1].word, "kernel");
  EXPECT_EQ(f[0].not_run, nullptr);
  EXPECT_EQ(f[1].not_run, nullptr);
}

// "1211 min cycles": "min" between a number and what it counts is a
// statistic, never minutes.
TEST(ReaderFigures, MinBeforeACountIsAStatistic) {
  for (const auto& x : Figures("VALU: 7267 ops / 6 per cycle = 1211 min cycles", false))
    EXPECT_NE(x.metric, "wall_time_s");
  auto f = Figures("the run took 25 min to finish", false);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].metric, "wall_time_s");
}

// The items of a list that give one unit ("v3: 6.96s", "v6: 20.8s") lend
// it to an item written as a bare number ("v4: 75.67").
TEST(ReaderFigures, AListItemWithoutUnitTakesItsSiblingsUnit) {
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-01-01 Solutions\n- my solutions:\n  - v3: 6.96s\n  - v4: 75.67\n  - v6: 20.8s\n"
      "  - v7: **19.94**\n- hashing function: 53.5s\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  std::vector<double> times;
  for (const auto& f : RecordedFigures(lb.entries[0])) times.push_back(f.run.metrics.count("time_s") ? f.run.metrics.at("time_s") : -1);
  EXPECT_EQ(times, (std::vector<double>{6.96, 75.67, 20.8, 19.94, 53.5}));
  EXPECT_TRUE(SiblingUnit({}).empty());
  EXPECT_TRUE(BareNumber(" **19.94**"));
  EXPECT_FALSE(BareNumber(" 19.94 runs"));
}

}  // namespace
}  // namespace moelog::logbook::reader
