#include "engine/format.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace moelog::engine {
namespace {

std::string Printf(const char* fmt, double v) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The formatter writes what printf writes (outputs and goldens do not move
// with it), over values of every magnitude and sign.
TEST(Format, MatchesPrintf) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(-10, 10);
  std::uniform_int_distribution<int> exp10(-12, 15);
  std::vector<double> values = {0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 1e-5, 123456.789, 0.0005, 0.00049999,
                                std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (int i = 0; i < 2000; ++i) values.push_back(mant(rng) * std::pow(10.0, exp10(rng)));
  for (double v : values) {
    for (int d : {0, 1, 2, 3, 4, 6}) EXPECT_EQ(Fixed(v, d), Printf(("%." + std::to_string(d) + "f").c_str(), v)) << v;
    EXPECT_EQ(Scientific(v, 3), Printf("%.3e", v)) << v;
    for (int g : {6, 9, 17}) EXPECT_EQ(General(v, g), Printf(("%." + std::to_string(g) + "g").c_str(), v)) << v;
  }
}

TEST(Format, Hex16IsZeroPadded) {
  EXPECT_EQ(Hex16(0), "0000000000000000");
  EXPECT_EQ(Hex16(0xabc), "0000000000000abc");
  EXPECT_EQ(Hex16(~uint64_t{0}), "ffffffffffffffff");
}

}  // namespace
}  // namespace moelog::engine
