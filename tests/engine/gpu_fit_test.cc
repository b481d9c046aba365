// The GPU model on its fit set (published H800 DeepEP and DeepGEMM tables,
// matmul ceilings) with the shipped parameters: median error per kernel family
// within 8%. Changing the model or the parameters can break this.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "engine/gpu/fit.h"

namespace moelog::engine::gpu {
namespace {

const std::string kData = std::string(MOELOG_TEST_DATA_DIR) + "/../data/";

TEST(GpuFit, FitSetMedianErrorPerFamilyWithinEightPercent) {
  auto rows = LoadRows(kData + "gpu_fit_measurements.csv");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  auto hws = PrepareRows(&*rows);
  ASSERT_TRUE(hws.ok()) << hws.status().message();
  auto p = LoadParams(kData + "gpu_params.json");
  ASSERT_TRUE(p.ok()) << p.status().message();
  const auto fams = FamilySummaries(*hws, *rows, *p);
  for (const char* f : {"ep_normal", "ep_low_latency", "grouped_gemm", "dense_gemm"}) {
    ASSERT_TRUE(fams.count(f)) << f;
    EXPECT_EQ(fams.at(f).unsupported, 0) << f;
    EXPECT_LE(fams.at(f).median_abs, 0.08) << f;
  }
  // The priors alone (no fit) do worse: the fit is what gets there.
  const auto prior = FamilySummaries(*hws, *rows, Params::Priors());
  double prior_sum = 0, fit_sum = 0;
  for (const auto& [f, s] : fams) fit_sum += s.median_abs, prior_sum += prior.at(f).median_abs;
  EXPECT_LT(fit_sum, prior_sum);
}

TEST(GpuFit, HeldOutPublishedMeasurementsWithinTheTargets) {
  // Other GPUs, libraries and versions, never fitted on: coverage >= 80%,
  // median |error| <= 15% and p90 <= 35% (the targets) with the shipped
  // parameters.
  auto rows = LoadRows(kData + "gpu_heldout_measurements.csv");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  auto hws = PrepareRows(&*rows);
  ASSERT_TRUE(hws.ok()) << hws.status().message();
  auto p = LoadParams(kData + "gpu_params.json");
  ASSERT_TRUE(p.ok()) << p.status().message();
  std::vector<double> errs;
  int unsupported = 0;
  for (const FitRow& r : *rows) {
    auto e = RowError(hws->at(r.hardware), *p, r);
    if (e.ok()) errs.push_back(*e);
    else ++unsupported;
  }
  const Summary s = Summarize(errs, unsupported);
  EXPECT_GE(static_cast<double>(s.n), 0.8 * static_cast<double>(rows->size()));
  EXPECT_LE(s.median_abs, 0.15);
  EXPECT_LE(s.p90_abs, 0.35);
}

TEST(GpuFit, AHeldOutSetCannotBecomeAFitSet) {
  // Fit takes only a FitSet, and only a file declaring "# role: fit" loads
  // into one: the held-out measurements cannot be fitted on by mistake.
  auto held = FitSet::Load(kData + "gpu_heldout_measurements.csv");
  ASSERT_FALSE(held.ok());
  EXPECT_NE(held.status().message().find("never fitted on"), std::string::npos) << held.status().message();
  auto fit = FitSet::Load(kData + "gpu_fit_measurements.csv");
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_EQ(*CsvRole(kData + "gpu_heldout_measurements.csv"), Role::kHeldOut);
}

TEST(GpuFit, FitAndHeldOutSetsShareNoSourceVersion) {
  auto fit = LoadRows(kData + "gpu_fit_measurements.csv");
  auto held = LoadRows(kData + "gpu_heldout_measurements.csv");
  ASSERT_TRUE(fit.ok() && held.ok());
  std::set<std::string> fitted;
  for (const FitRow& r : *fit) fitted.insert(SourceVersion(r));
  for (const FitRow& r : *held) EXPECT_EQ(fitted.count(SourceVersion(r)), 0u) << "line " << r.line;
}

TEST(GpuFit, ACsvThatDoesNotDeclareItsRoleIsRefused) {
  const std::string path = ::testing::TempDir() + "/gpu_no_role.csv";
  {
    std::ofstream out(path);
    out << "# measurements\nsource,version,hardware,kernel,metric,value\nx,1,h800,dense_gemm,tflops,1\n";
  }
  auto rows = LoadRows(path);
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("# role: fit"), std::string::npos) << rows.status().message();
  EXPECT_FALSE(FitSet::Load(path).ok());
}

TEST(GpuFit, RowsWithBadCellsNameTheirLine) {
  auto rows = LoadRows(kData + "gpu_params.json");  // not a CSV of the right shape
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("gpu_params.json:"), std::string::npos) << rows.status().message();
}

TEST(GpuFit, SummaryQuantiles) {
  const Summary s = Summarize({0.1, -0.2, 0.3, -0.4, 0.0}, 2);
  EXPECT_DOUBLE_EQ(s.median_abs, 0.2);
  EXPECT_EQ(s.n, 5);
  EXPECT_EQ(s.unsupported, 2);
  EXPECT_NEAR(s.p90_abs, 0.36, 1e-12);
}

}  // namespace
}  // namespace moelog::engine::gpu
