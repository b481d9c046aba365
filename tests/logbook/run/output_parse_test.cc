#include "logbook/run/output_parse.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/bench.h"

namespace moelog::logbook {
namespace {

engine::RunResult SampleResult(const std::string& dist, int64_t topk, const std::string& mode, double t) {
  engine::RunResult r;
  r.point.distribution = dist;
  r.point.topk = topk;
  r.point.impl = "fused_w13";
  r.point.queue_mode = mode;
  r.pass = "forward";
  r.backend = "gmm";
  r.remat_mode = "none";
  r.quant_mode = "none";
  r.parallel_mode = "ep";
  r.ep_comm_path = "compact_psum";
  r.source = "modeled";
  r.devices = 4;
  r.time.mean_s = t;
  r.time.median_s = t * 0.99;
  r.time.min_s = t * 0.9;
  r.time.max_s = t * 1.2;
  r.flops = 1e12;
  r.tflops = r.flops / t / 1e12;
  r.tflops_per_device = r.tflops / 4;
  r.tokens_per_s = 32768 / t;
  r.null_target = 0.25;
  r.null_realized = 0.248;
  r.null_assignments = 100;
  r.real_assignments = 300;
  r.run_stats = {12, 3.5, 9.0, 14};
  r.load_stats = {10, 90, 12.5, 0.25};
  r.stages = {{"pack", 0.001, "HBM"}, {"up", 0.003, "MXU"}, {"down", 0.002, "MXU"}, {"combine", 0.001, "HBM"}};
  return r;
}

// moelog's own printed lines parse back to the figures RunFromResult gives,
// up to the printed precision.
TEST(OutputParse, RoundTripsMoelogOutput) {
  engine::BenchConfig c;
  c.stage_timing = true;
  std::vector<engine::RunResult> rs = {SampleResult("random", 2, "full", 0.0123456),
                                       SampleResult("random", 2, "prequeue", 0.011),
                                       SampleResult("runs", 8, "full", 0.5)};
  std::string text = engine::FormatHeader(c, "[TPU_0, TPU_1]");
  for (const auto& r : rs) text += engine::FormatRun(c, r);
  ParsedOutput out = ParseHarnessOutput(text);
  EXPECT_EQ(out.sections, 1);
  ASSERT_EQ(out.runs.size(), rs.size());
  for (size_t i = 0; i < rs.size(); ++i) {
    ParsedRun want = RunFromResult(rs[i]);
    const ParsedRun& got = out.runs[i];
    EXPECT_TRUE(got.has_result_line);
    for (const char* k : {"distribution", "mode", "pass", "impl", "backend", "topk", "parallel_mode", "source"})
      EXPECT_EQ(got.point.at(k), want.point.at(k)) << k;
    for (const char* k : {"time_s", "time_median_s", "time_min_s", "time_max_s", "tflops", "tflops_per_device",
                          "tokens_per_s", "null_realized", "real_assignments", "run_stats_runs", "load_stats_cv",
                          "stage_pack_s", "stage_up_s", "stage_up_pct"}) {
      ASSERT_TRUE(got.metrics.count(k)) << k;
      double w = want.metrics.at(k);
      // Percentages are printed with one decimal, the rest with 3+ significant digits.
      double tol = std::string(k).find("_pct") != std::string::npos ? 0.051 : std::max(1e-6, std::fabs(w) * 1e-3);
      EXPECT_NEAR(got.metrics.at(k), w, tol) << k;
    }
    EXPECT_EQ(got.point.at("stage_bound_up"), "MXU");
  }
}

// The original harness's V1 lines (no RESULT, no timing line).
TEST(OutputParse, HarnessV1) {
  const char* text =
      "devices=[TpuDevice(id=0), TpuDevice(id=1)]\n"
      "shape tokens=32768 hidden=2048 mlp_dim=1408 experts=60 topk=2\n"
      "[random] mode=full pass=forward_backward topk=2 impl=fused_w13 backend=gmm remat_mode=none "
      "time_s=0.012000 tflops=239.150 tokens_per_s=2730666.67\n"
      "topk=2 impl=fused_w13 run_stats runs=32768 mean=1.00 p95=1.0 max=1\n"
      "topk=2 impl=fused_w13 load_stats min=1000 max=1200 std=40.00 cv=0.0366\n"
      "[random] pass=forward stage pack_s=0.001000 up_s=0.004000 down_s=0.002000 combine_s=0.001000\n"
      "[random] stage_pct pack=12.5 up=50.0 down=25.0 combine=12.5\n"
      "[runs] mode=full pass=forward_backward topk=2 impl=fused_w13 backend=gmm remat_mode=none "
      "time_s=0.013000 tflops=220.000 tokens_per_s=2520615.38\n";
  ParsedOutput out = ParseHarnessOutput(text);
  EXPECT_EQ(out.sections, 1);
  EXPECT_EQ(out.shapes[0].at("mlp_dim"), "1408");
  ASSERT_EQ(out.runs.size(), 2u);
  EXPECT_FALSE(out.runs[0].has_result_line);
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("tflops"), 239.15);
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("load_stats_max"), 1200);
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("stage_up_s"), 0.004);
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("stage_up_pct"), 50.0);
  EXPECT_EQ(out.runs[1].point.at("distribution"), "runs");
  EXPECT_FALSE(out.runs[1].metrics.count("stage_up_s"));
}

// V5: RESULT lines after the mode line merge into the same run; a RESULT line
// alone also gives a run.
TEST(OutputParse, HarnessV5ResultLines) {
  const char* text =
      "devices=[0]\n"
      "[random] mode=full pass=forward topk=2 impl=baseline backend=gmm remat_mode=none parallel_mode=none "
      "ep_comm_path=compact_psum time_s=0.010000 tflops=100.000 tokens_per_s=100.00\n"
      "topk=2 impl=baseline null_route mode=take_until_null target=0.200 realized=0.199 null_experts=8 "
      "null_assignments=13000 real_assignments=52536\n"
      "RESULT distribution=random mode=full pass=forward impl=baseline backend=gmm topk=2 null_target=0.200 "
      "null_realized=0.199 null_mode=take_until_null null_assignments=13000 real_assignments=52536 "
      "tflops=100.123456 tokens_per_s=3276800.000000\n"
      "RESULT distribution=runs mode=full pass=forward impl=baseline backend=gmm topk=2 null_target=0.200 "
      "null_realized=0.201 null_assignments=13100 real_assignments=52436 tflops=99.5 tokens_per_s=3000000\n";
  ParsedOutput out = ParseHarnessOutput(text);
  ASSERT_EQ(out.runs.size(), 2u);
  EXPECT_TRUE(out.runs[0].has_result_line);
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("tflops"), 100.123456);  // RESULT precision wins
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("time_s"), 0.01);
  EXPECT_EQ(out.runs[0].point.at("null_mode"), "take_until_null");
  EXPECT_EQ(out.runs[1].point.at("distribution"), "runs");
  EXPECT_FALSE(out.runs[1].metrics.count("time_s"));
}

TEST(OutputParse, SectionsSplitProcesses) {
  std::string one = "devices=[0]\n[random] mode=full pass=forward topk=1 impl=fast backend=gmm time_s=1 tflops=1 "
                    "tokens_per_s=1\n";
  ParsedOutput out = ParseHarnessOutput("=== topk=1 ===\n" + one + "=== topk=2 ===\n" + one + one);
  EXPECT_EQ(out.sections, 3);
  ASSERT_EQ(out.runs.size(), 3u);
  EXPECT_EQ(out.runs[0].section, 0);
  EXPECT_EQ(out.runs[2].section, 2);
}

TEST(OutputParse, OomAndJunk) {
  ParsedOutput out = ParseHarnessOutput(
      "garbage\n\x01\x02 = = =\n[x]\n[random] mode=full pass=forward topk=8 impl=fast backend=gmm OOM "
      "estimate_bytes=123456789\nTraceback (most recent call last):\nRESULT\n");
  ASSERT_GE(out.runs.size(), 1u);
  EXPECT_TRUE(out.runs[0].oom);
  EXPECT_DOUBLE_EQ(out.runs[0].metrics.at("oom_estimate_bytes"), 123456789);
  EXPECT_EQ(out.errors.size(), 1u);
  EXPECT_TRUE(ParseHarnessOutput("").runs.empty());
}

}  // namespace
}  // namespace moelog::logbook
