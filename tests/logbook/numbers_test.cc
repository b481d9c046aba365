#include "logbook/numbers.h"

#include <gtest/gtest.h>

namespace moelog::logbook {
namespace {

TEST(Numbers, ParseWholeFiniteDecimalTokensOnly) {
  EXPECT_EQ(ParseNumber("2"), 2.0);
  EXPECT_EQ(ParseNumber("-0.25"), -0.25);
  EXPECT_EQ(ParseNumber("+3"), 3.0);
  EXPECT_EQ(ParseNumber("1e-05"), 1e-05);
  EXPECT_EQ(ParseNumber("1,578,564"), 1578564.0);
  EXPECT_EQ(ParseNumber("-1,000.5"), -1000.5);
  for (const char* bad : {"", "2x", "1,2", "12,3456", ",123", "1,000,", "inf", "nan", "-inf", "0x10", " 2", "-", "e5"})
    EXPECT_FALSE(ParseNumber(bad).has_value()) << bad;
}

// Distinct values never print alike, and what prints reads back the same.
TEST(Numbers, FormatIsShortestExact) {
  EXPECT_EQ(FormatValue(2), "2");
  EXPECT_EQ(FormatValue(0.5), "0.5");
  EXPECT_EQ(FormatValue(1e-05), "1e-05");
  EXPECT_EQ(FormatValue(-3), "-3");
  EXPECT_NE(FormatValue(0.1234567), FormatValue(0.1234568));
  for (double v : {0.1234567, 1.0 / 3, 268.852, 2.5e20, -7.25e-9})
    EXPECT_EQ(ParseNumber(FormatValue(v)), v) << FormatValue(v);
}

}  // namespace
}  // namespace moelog::logbook
