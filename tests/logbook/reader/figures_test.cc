// The figures stage: numbers with their units, as written.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace moelog::logbook::reader
