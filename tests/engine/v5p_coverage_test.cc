#include "engine/v5p/coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/bench.h"
#include "engine/bench_config.h"
#include "engine/v5p/fit.h"
#include "engine/v5p/hardware.h"

namespace moelog::engine::v5p {
namespace {

// A config as the store holds it: canonical JSON, one-element lists flattened.
std::map<std::string, std::string> Flat(const BenchConfig& c) {
  std::map<std::string, std::string> out;
  const auto j = nlohmann::json::parse(CanonicalConfigJson(c));
  for (auto it = j.begin(); it != j.end(); ++it) {
    auto v = it.value();
    if (v.is_array() && v.size() == 1) v = v[0];
    if (v.is_string()) out[it.key()] = v.get<std::string>();
    else if (!v.is_array()) out[it.key()] = v.dump();
  }
  return out;
}

// The list of calibrated paths is the CSV's: every fitted row is on them, and
// every value listed is used by some fitted row.
TEST(V5pCoverage, CalibratedPathsAreTheCalibrationRows) {
  auto hw = LoadHardwareByName("v5p");
  ASSERT_TRUE(hw.ok());
  auto rows = LoadMeasurements(std::string(MOELOG_SOURCE_DIR) + "/data/seed_measurements.csv", *hw);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  std::map<std::string, std::set<std::string>> used;
  std::map<std::string, int> thin_rows;  // "key=value" of a thin path -> rows
  for (const auto& m : *rows) {
    const auto flat = Flat(m.config);
    std::vector<std::string> off = UncalibratedPaths(flat);
    for (const auto& [key, values] : ThinPathValues())
      for (const auto& v : values)
        if (flat.count(key) && flat.at(key) == v) {
          ++thin_rows[key + "=" + v];
          off.erase(std::remove(off.begin(), off.end(), key + "=" + v), off.end());
        }
    EXPECT_TRUE(off.empty()) << m.id << ": " << off.front();
    for (const auto& [key, values] : CalibratedPathValues())
      if (flat.count(key)) used[key].insert(flat.at(key));
  }
  for (const auto& [key, values] : CalibratedPathValues())
    for (const auto& v : values) {
      const bool numeric_zero = key == "null_route_frac" && used[key].count("0.0");
      EXPECT_TRUE(used[key].count(v) || numeric_zero) << key << "=" << v << " is listed but no calibration row has it";
    }
  // A thin path is one the data holds, in fewer rows than it takes to check it.
  for (const auto& [key, values] : ThinPathValues())
    for (const auto& v : values) {
      EXPECT_GT(thin_rows[key + "=" + v], 0) << key << "=" << v;
      EXPECT_LT(thin_rows[key + "=" + v], kMinCalibrationRows) << key << "=" << v << " has rows enough: calibrated";
    }
}

TEST(V5pCoverage, NamesEveryUncalibratedPath) {
  BenchConfig c;
  c.target = "v5p";
  c.parallel_mode = "ep";
  c.impl = "fused_w13";
  EXPECT_TRUE(UncalibratedPaths(Flat(c)).empty()) << UncalibratedPaths(Flat(c)).front();
  c.quant_mode = "int8";
  c.ep_comm_path = "ring_ag_rs";
  const auto paths = UncalibratedPaths(Flat(c));
  EXPECT_NE(std::find(paths.begin(), paths.end(), "quant_mode=int8"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "ep_comm_path=ring_ag_rs"), paths.end());
  // The EP collective is no path of a single-device run.
  EXPECT_TRUE(UncalibratedPaths({{"parallel_mode", "none"}, {"ep_comm_path", "a2a"}}).empty());
  EXPECT_EQ(UncalibratedPaths({{"null_route_frac", "0,0.5"}}), std::vector<std::string>{"null_route_frac=0,0.5"});
  EXPECT_TRUE(UncalibratedPaths({{"null_route_frac", "0.0"}}).empty());
  // The scoped VMEM limits the data has: the default and 50000 KiB.
  EXPECT_TRUE(UncalibratedPaths({{"xla_scoped_vmem_kib", "50000"}}).empty());
  EXPECT_EQ(UncalibratedPaths({{"xla_scoped_vmem_kib", "32768"}}),
            std::vector<std::string>{"xla_scoped_vmem_kib=32768"});
}

// Meshes: the calibration rows ran EP over the whole slice (expert=4); a data
// x expert mesh, or fewer chips, is unvalidated. An mlp_profile path is
// judged by its own rows, whatever parallel mode computes it.
TEST(V5pCoverage, MeshesAndMlpProfilePaths) {
  EXPECT_TRUE(UncalibratedPaths({{"parallel_mode", "ep"}, {"mesh", ""}}).empty());
  EXPECT_TRUE(UncalibratedPaths({{"parallel_mode", "ep"}, {"mesh", "data=1,expert=4"}}).empty());
  EXPECT_EQ(UncalibratedPaths({{"parallel_mode", "ep"}, {"mesh", "data=2,expert=2"}}),
            std::vector<std::string>{"mesh=data=2,expert=2"});
  const auto dp = UncalibratedPaths({{"parallel_mode", "dp"}, {"mesh", "data=2,expert=1"}});
  EXPECT_NE(std::find(dp.begin(), dp.end(), "parallel_mode=dp"), dp.end());
  EXPECT_NE(std::find(dp.begin(), dp.end(), "mesh=data=2,expert=1"), dp.end());
  EXPECT_TRUE(UncalibratedPaths({{"parallel_mode", "dp"}, {"impl", "baseline"}, {"mlp_path", "ref_dp"}}).empty());
  // The bench output says it too, once per run.
  BenchConfig c;
  c.target = "v5p";
  c.tokens = 4096; c.hidden = 512; c.mlp_dim = 512; c.experts = 8; c.topk = 2;
  c.impl = "fused_w13"; c.distribution = "random"; c.parallel_mode = "ep"; c.mesh = "data=2,expert=2";
  ASSERT_TRUE(c.Validate().ok());
  std::ostringstream out;
  ASSERT_TRUE(RunBench(c, out).ok());
  EXPECT_NE(out.str().find("model unvalidated: no calibration row covers mesh=data=2,expert=2"), std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace moelog::engine::v5p
