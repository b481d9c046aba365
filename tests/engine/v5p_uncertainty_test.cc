#include "engine/v5p/uncertainty.h"

#include <cmath>
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

namespace moelog::engine::v5p {
namespace {

TEST(ShrunkFactor, NoFiguresIsOne) {
  const Factor f = ShrunkFactor({}, ShrinkagePrior());
  EXPECT_EQ(f.factor, 1.0);
  EXPECT_EQ(f.n, 0);
}

TEST(ShrunkFactor, FewFiguresMoveItLessThanMany) {
  ShrinkagePrior p;
  p.tau = 0.1;
  p.sigma_entry = 0.04;
  p.sigma_within = 0.04;
  const double r = std::log(0.9);  // every figure reads 10% below the model
  std::vector<FactorSample> one = {{"e1", r}};
  std::vector<FactorSample> many;
  for (int e = 0; e < 6; ++e)
    for (int i = 0; i < 4; ++i) many.push_back({std::string(1, static_cast<char>('a' + e)), r});
  const double f1 = ShrunkFactor(one, p).factor, f6 = ShrunkFactor(many, p).factor;
  EXPECT_GT(f1, 0.9);  // shrunk toward 1
  EXPECT_LT(f1, 1.0);
  EXPECT_LT(f6, f1);   // more entries: closer to what they read
  EXPECT_GT(f6, 0.9);
  EXPECT_NEAR(f6, 0.9, 0.01);
  // Figures of one entry share its factor: 24 figures of one entry weigh
  // less than 4 figures each of 6 entries.
  std::vector<FactorSample> same_entry;
  for (int i = 0; i < 24; ++i) same_entry.push_back({"e0", r});
  EXPECT_GT(ShrunkFactor(same_entry, p).factor, f6);
}

TEST(ShrunkFactor, FiguresOfAnotherSetupAreLeftOut) {
  ShrinkagePrior p;
  const Factor f = ShrunkFactor({{"e1", std::log(0.25)}, {"e1", std::log(0.3)}}, p);
  EXPECT_EQ(f.factor, 1.0);
  EXPECT_EQ(f.n, 0);
  EXPECT_EQ(f.excluded, 2);
}

TEST(Bands, UnvalidatedPathsHaveNone) {
  Uncertainty u;
  u.all = {true, 0.95, 1.08, 100, "all", "chronological"};
  u.paths.push_back({true, 0.9, 1.2, 12, "mlp_path=fused_ep", "chronological"});
  EXPECT_FALSE(BandFor(u, {{"quant_mode", "int8"}}).validated);
  const ErrorBand fused = BandFor(u, {{"mlp_path", "fused_ep"}});
  EXPECT_TRUE(fused.validated);
  EXPECT_EQ(fused.hi, 1.2);
  const ErrorBand ep = BandFor(u, {{"parallel_mode", "ep"}, {"quant_mode", "none"}});
  EXPECT_TRUE(ep.validated);
  EXPECT_EQ(ep.lo, 0.95);  // no band of its own: every validated row's
  EXPECT_EQ(ep.path, "parallel_mode=ep, ep_dispatch=compact");
}

TEST(Bands, WithinRatioBand) {
  Uncertainty u;
  u.within_entry = std::log(1.05);
  EXPECT_TRUE(WithinRatioBand(u, 1.04));
  EXPECT_TRUE(WithinRatioBand(u, 1 / 1.04));
  EXPECT_FALSE(WithinRatioBand(u, 1.06));
  EXPECT_FALSE(WithinRatioBand(u, 0));
}

TEST(Bands, ShippedFileLoadsAndRoundTrips) {
  auto u = LoadUncertaintyByName("");
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_FALSE(u->paths.empty());
  EXPECT_GT(u->within_entry, 0);
  for (const auto& b : u->paths) {
    EXPECT_LE(b.lo, 1.0) << b.path;
    EXPECT_GE(b.hi, 1.0) << b.path;
  }
  const std::string path = testing::TempDir() + "/bands.json";
  std::ofstream(path) << UncertaintyToJson(*u, "test");
  auto back = LoadUncertainty(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->paths.size(), u->paths.size());
  EXPECT_DOUBLE_EQ(back->within_entry, u->within_entry);
  EXPECT_DOUBLE_EQ(back->prior.tau, u->prior.tau);
  std::remove(path.c_str());
}

TEST(Bands, BadFileIsRefusedWithItsName) {
  const std::string path = testing::TempDir() + "/bad_bands.json";
  std::ofstream(path) << R"({"paths": [{"lo": 1.5, "hi": 2}], "all": {"lo": 0.9, "hi": 1.1}})";
  auto u = LoadUncertainty(path);
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.status().message().find(path), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace moelog::engine::v5p
