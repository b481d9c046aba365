#include "logbook/criteria/compare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

StoredRun R(const std::string& id, std::map<std::string, std::string> cfg, double tflops, std::string host = "h1",
            std::string target = "cpu") {
  StoredRun r;
  r.id = id;
  std::map<std::string, std::string> base = {{"tokens", "1024"}, {"hidden", "256"}, {"topk", "2"},
                                             {"quant_mode", "none"}, {"iters", "3"}};
  for (auto& [k, v] : cfg) base[k] = v;
  r.config = base;
  r.metrics["tflops"] = tflops;
  r.host = std::move(host);
  r.target = std::move(target);
  return r;
}

CompareOptions Opts(const std::string& a, const std::string& b, std::vector<std::string> same = {}) {
  CompareOptions o;
  o.a = *ParseAssignments(a, "--a");
  o.b = *ParseAssignments(b, "--b");
  o.same = std::move(same);
  return o;
}

TEST(Compare, ParseAssignments) {
  auto a = ParseAssignments("quant-mode=int8, topk=2", "--a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)[0], (std::pair<std::string, std::string>{"quant_mode", "int8"}));
  EXPECT_FALSE(ParseAssignments("quant_mode", "--a").ok());
  EXPECT_FALSE(ParseAssignments("colour=red", "--a").ok());
  EXPECT_FALSE(ParseAssignments("", "--a").ok());
}

TEST(Compare, PairsAtIdenticalControlsWithDelta) {
  std::vector<StoredRun> runs = {R("a2", {{"topk", "2"}}, 100), R("a8", {{"topk", "8"}}, 200),
                                 R("b2", {{"topk", "2"}, {"quant_mode", "int8"}}, 110),
                                 R("b8", {{"topk", "8"}, {"quant_mode", "int8"}, {"iters", "5"}}, 150),
                                 R("b4", {{"topk", "4"}, {"quant_mode", "int8"}}, 1)};
  auto c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->rows.size(), 2u);
  EXPECT_EQ(c->row_keys, std::vector<std::string>{"topk"});
  EXPECT_DOUBLE_EQ(c->rows[0].delta_pct, (110.0 - 100.0) / 100.0 * 100.0);
  EXPECT_DOUBLE_EQ(c->rows[1].delta_pct, (150.0 - 200.0) / 200.0 * 100.0);
  EXPECT_EQ(c->unpaired_b, 1);
  std::string table = RenderComparison(*c, Opts("quant_mode=none", "quant_mode=int8"));
  EXPECT_NE(table.find("| topk | shape | A: quant_mode=none (TF/s) | B: quant_mode=int8 (TF/s) |"), std::string::npos)
      << table;
  EXPECT_NE(table.find("| 2 | hidden=256 tokens=1024 | 100 |"), std::string::npos) << table;
  EXPECT_NE(table.find("+10.00%"), std::string::npos) << table;
  EXPECT_NE(table.find("-25.00%"), std::string::npos) << table;
  // With --same topk only, a different hidden size still pairs.
  runs.push_back(R("b2h", {{"topk", "2"}, {"quant_mode", "int8"}, {"hidden", "512"}}, 120));
  auto all = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  EXPECT_EQ(all->rows[0].b.ids.size(), 1u);
  auto same = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8", {"topk"}));
  EXPECT_EQ(same->rows[0].b.ids.size(), 2u);
  EXPECT_EQ(CompareRuns(runs, Opts("quant_mode=none", "quant_mode=fp4")).status().code(), Status::Code::kNotFound);
}

TEST(Compare, RepeatsGiveSpreadAndNoiseMarks) {
  std::vector<StoredRun> runs = {R("a1", {}, 100), R("a2", {}, 104), R("a3", {}, 102),
                                 R("b1", {{"quant_mode", "int8"}}, 103), R("b2", {{"quant_mode", "int8"}}, 105)};
  auto c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->rows.size(), 1u);
  EXPECT_DOUBLE_EQ(c->rows[0].a.median, 102);
  EXPECT_DOUBLE_EQ(c->rows[0].b.median, 104);
  EXPECT_TRUE(c->rows[0].within_noise);
  runs[3].metrics["tflops"] = 150;
  runs[4].metrics["tflops"] = 151;
  c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  EXPECT_FALSE(c->rows[0].within_noise);
  EXPECT_NE(RenderComparison(*c, Opts("quant_mode=none", "quant_mode=int8")).find("outside noise"), std::string::npos);
}

// Figures of one configuration at two scales (one node of eight GPUs, two
// nodes of eight) are two rows, never three repeats; each row says its scale.
TEST(Compare, ScalesAreRowsNeverRepeats) {
  std::vector<StoredRun> runs = {R("a1", {{"accelerator", "H100x8"}}, 0.033, "", "recorded"),
                                 R("a2", {{"accelerator", "H100x16"}}, 0.024, "", "recorded"),
                                 R("a3", {{"accelerator", "H100x16"}}, 0.034, "", "recorded"),
                                 R("b1", {{"accelerator", "H100x8"}, {"quant_mode", "fp8"}}, 0.031, "", "recorded"),
                                 R("b2", {{"accelerator", "H100x16"}, {"quant_mode", "fp8"}}, 0.023, "", "recorded")};
  auto c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=fp8"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->rows.size(), 2u);
  EXPECT_EQ(c->rows[0].a.ids.size(), 1u);
  EXPECT_EQ(c->rows[1].a.ids.size(), 2u);
  const std::string table = RenderComparison(*c, Opts("quant_mode=none", "quant_mode=fp8"));
  EXPECT_NE(table.find("| H100x16 | hidden=256 tokens=1024 topk=2 | 0.029 (0.024..0.034) |"), std::string::npos) << table;
}

// Measured figures of several hosts are pooled with their spread shown but
// are no repeats: no "within noise" from them.
TEST(Compare, RunsOfSeveralHostsAreNoRepeats) {
  std::vector<StoredRun> runs = {R("a1", {}, 100, "h1"), R("a2", {}, 104, "h2"),
                                 R("b1", {{"quant_mode", "int8"}}, 103, "h1"), R("b2", {{"quant_mode", "int8"}}, 105, "h2")};
  auto c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->rows.size(), 1u);
  EXPECT_FALSE(c->rows[0].within_noise);
  const std::string table = RenderComparison(*c, Opts("quant_mode=none", "quant_mode=int8"));
  EXPECT_EQ(table.find("within noise"), std::string::npos) << table;
  EXPECT_NE(table.find("102 (100..104)"), std::string::npos) << table;
}

// The v5p model is deterministic: five stored copies of one config are one
// sample, and a tiny model difference is never "outside noise".
TEST(Compare, ModeledRunsAreOneSampleWithNoNoise) {
  std::vector<StoredRun> runs;
  for (int i = 0; i < 5; ++i) runs.push_back(R("a" + std::to_string(i), {}, 100, "h1", "v5p"));
  runs.push_back(R("b1", {{"quant_mode", "int8"}}, 99.81, "h1", "v5p"));
  runs.push_back(R("b2", {{"quant_mode", "int8"}}, 99.81, "h1", "v5p"));
  auto c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->rows.size(), 1u);
  EXPECT_EQ(c->rows[0].a.ids.size(), 1u);
  EXPECT_EQ(c->rows[0].b.ids.size(), 1u);
  EXPECT_FALSE(c->rows[0].has_repeats);
  const std::string table = RenderComparison(*c, Opts("quant_mode=none", "quant_mode=int8"));
  EXPECT_NE(table.find("model: no noise"), std::string::npos) << table;
  EXPECT_EQ(table.find("outside noise"), std::string::npos) << table;
}

TEST(Compare, WarnsOnDifferentHostsAndNeverPairsAcrossTargets) {
  std::vector<StoredRun> runs = {R("a", {}, 100, "h1"), R("b", {{"quant_mode", "int8"}}, 100, "h2")};
  auto c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  ASSERT_EQ(c->rows.size(), 1u);
  ASSERT_EQ(c->rows[0].warnings.size(), 1u);
  EXPECT_NE(c->rows[0].warnings[0].find("hosts differ"), std::string::npos);
  runs[1].host = "h1";
  runs[1].target = "v5p";
  // The target is a control (the pairing rule of the criteria too): a
  // modeled and a measured run are not a pair unless the target is compared.
  c = CompareRuns(runs, Opts("quant_mode=none", "quant_mode=int8"));
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->rows.empty());
  EXPECT_EQ(c->unpaired_a, 1);
  EXPECT_EQ(c->unpaired_b, 1);
}

// none runs on one device and ep on four: the device count follows the
// compared parallel mode, so it is no control, and none vs ep pairs.
TEST(Compare, DevicesFollowTheParallelMode) {
  std::vector<StoredRun> runs = {R("a", {{"parallel_mode", "none"}, {"devices", "1"}}, 100),
                                 R("b", {{"parallel_mode", "ep"}, {"devices", "4"}}, 124)};
  auto c = CompareRuns(runs, Opts("parallel_mode=none", "parallel_mode=ep"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->rows.size(), 1u);
  EXPECT_NEAR(c->rows[0].delta_pct, 24.0, 1e-9);
  EXPECT_NE(RenderComparison(*c, Opts("parallel_mode=none", "parallel_mode=ep")).find("delta (B vs A)"),
            std::string::npos);
}

// A metric no run has is an error, not an empty comparison.
TEST(Compare, UnknownMetricIsAnError) {
  std::vector<StoredRun> runs = {R("a", {}, 100), R("b", {{"quant_mode", "int8"}}, 110)};
  CompareOptions o = Opts("quant_mode=none", "quant_mode=int8");
  o.metric = "tflopz";
  auto c = CompareRuns(runs, o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Status::Code::kInvalidArgument);
}

TEST(Compare, BaselineNumbersOfSeedLogbooks) {
  auto ep = LoadLogbook(std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/moe_ep_benchmark_logbook.md");
  ASSERT_TRUE(ep.ok());
  auto base = ParseBaseline(*ep);
  ASSERT_EQ(base.size(), 5u);
  EXPECT_EQ(base[0].config.at("topk"), "1");
  EXPECT_EQ(base[0].config.at("experts"), "60");
  EXPECT_EQ(base[0].config.at("shared_expert_dim"), "5632");
  EXPECT_EQ(base[0].metric, "tflops");
  EXPECT_DOUBLE_EQ(base[0].value, 219.231);
  EXPECT_DOUBLE_EQ(base[4].value, 167.868);

  auto i8 = LoadLogbook(std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/moe_ep_int8_logbook.md");
  ASSERT_TRUE(i8.ok());
  auto b8 = ParseBaseline(*i8);
  ASSERT_EQ(b8.size(), 1u);
  EXPECT_DOUBLE_EQ(b8[0].value, 239.150);
  EXPECT_EQ(b8[0].config.at("parallel_mode"), "ep");
  EXPECT_EQ(b8[0].config.at("shared_fused"), "true");
  EXPECT_EQ(b8[0].config.at("bench_pass"), "forward_backward");

  // Matching: a run at the baseline's shape with topk=2 gets the topk=2 figure.
  StoredRun run;
  run.config = {{"tokens", "32768"}, {"hidden", "2048"}, {"mlp_dim", "1408"}, {"experts", "60"},
                {"shared_expert_dim", "5632"}, {"topk", "2"}};
  auto m = MatchBaseline(base, run, "tflops");
  ASSERT_TRUE(m.has_value());
  EXPECT_DOUBLE_EQ(m->value, 192.449);
  EXPECT_NEAR(DeltaPercent(232.246, m->value), (232.246 / 192.449 - 1) * 100, 1e-9);
  run.config["experts"] = "64";
  EXPECT_FALSE(MatchBaseline(base, run, "tflops").has_value());
}

}  // namespace
}  // namespace moelog::logbook
