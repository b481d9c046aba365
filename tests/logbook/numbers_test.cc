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

namespace moelog::logbook {
namespace {

// moelog's own figures: significant digits, no float noise, grouped
// thousands where asked (tables print modeled and measured figures so).
TEST(Numbers, SignificantDigitsWithoutNoise) {
  EXPECT_EQ(Significant(189.4897), "189.5");
  EXPECT_EQ(Significant(37.26812), "37.27");
  EXPECT_EQ(Significant(0.0150123), "0.01501");
  EXPECT_EQ(Significant(53.854), "53.85");
  EXPECT_EQ(Significant(608456, 4, true), "608,500");
  EXPECT_EQ(Significant(11485000.0, 4, true), "11,490,000");
  EXPECT_EQ(Significant(9.99996), "10.00");
  EXPECT_EQ(Significant(999.96), "1000");
  EXPECT_EQ(Significant(-0.0009699999999999999), "-0.0009700");
  EXPECT_EQ(Significant(0), "0");
  EXPECT_EQ(Significant(1234.5, 4, true), "1,235");
}

TEST(Numbers, CleanDropsConversionNoise) {
  EXPECT_EQ(Clean(0.0009699999999999999), "0.00097");
  EXPECT_EQ(Clean(11485000.0), "11485000");
  EXPECT_EQ(Clean(0.406), "0.406");
  EXPECT_EQ(Clean(0.0041 / 1.0), "0.0041");
  EXPECT_EQ(Clean(4.1e-05), "0.000041");
}

TEST(Numbers, ReadableReportsFigures) {
  EXPECT_EQ(Readable(0.0009699999999999999), "0.00097");
  EXPECT_EQ(Readable(11485000.0), "11,485,000");
  EXPECT_EQ(Readable(192.868), "192.868");
  EXPECT_EQ(Readable(0.033), "0.033");
  EXPECT_EQ(Readable(619304), "619,304");
}

TEST(Numbers, GroupThousands) {
  EXPECT_EQ(GroupThousands("1234567.5"), "1,234,567.5");
  EXPECT_EQ(GroupThousands("-1000"), "-1,000");
  EXPECT_EQ(GroupThousands("999"), "999");
  EXPECT_EQ(GroupThousands("1e+07"), "1e+07");
}

}  // namespace
}  // namespace moelog::logbook
