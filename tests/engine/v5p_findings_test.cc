// The shipped model (data/v5p_params.json) reproduces the direction and rough
// size of each finding of the seed logbooks (recipes/moe_ep_benchmark_logbook.md).
// Each test states the measured effect it checks against.
#include <gtest/gtest.h>

#include <map>

#include "engine/bench.h"
#include "engine/metrics.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/model.h"
#include "engine/v5p/params.h"

namespace moelog::engine::v5p {
namespace {

class V5pFindings : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto hw = LoadHardwareByName("v5p");
    auto p = LoadParamsByName("");
    ASSERT_TRUE(hw.ok() && p.ok());
    hw_ = new Hardware(*hw);
    params_ = new ModelParams(*p);
    logits_ = new std::map<std::string, Logits>();
  }
  static void TearDownTestSuite() {
    delete hw_;
    delete params_;
    delete logits_;
  }

  // The seed logbooks' shape: T=32768, D=2048, F=1408, E=60, fused_w13, gmm,
  // random routing, forward_backward. `edit` changes fields.
  struct Out { double tflops, tokens_per_s; };
  template <typename Edit>
  ModelCase Case(Edit edit, BenchConfig* config = nullptr, int64_t* real = nullptr) {
    BenchConfig c;
    c.target = "v5p";
    c.tokens = 32768; c.hidden = 2048; c.mlp_dim = 1408; c.experts = 60; c.topk = 2;
    c.impl = "fused_w13"; c.distribution = "random"; c.bench_pass = "forward_backward";
    edit(c);
    EXPECT_TRUE(c.Validate().ok()) << c.Validate().ToString();
    RunPoint p{c.distribution, c.topk, c.impl, 0.0, c.queue_mode};
    const std::string key = c.distribution + std::to_string(c.tokens) + "/" + std::to_string(c.experts);
    auto it = logits_->find(key);
    if (it == logits_->end())
      it = logits_->emplace(key, GenerateLogits(c.distribution, c.tokens, c.experts, 0, 0.98, 0.35)).first;
    Routing r = RoutingForPoint(c, it->second, p);
    auto mc = MakeCase(c, p, GroupSizes(r), r.real_assignments, hw_->chips);
    EXPECT_TRUE(mc.ok());
    if (config) *config = c;
    if (real) *real = r.real_assignments;
    return *mc;
  }
  template <typename Edit>
  Out Run(Edit edit) {
    BenchConfig c;
    int64_t real = 0;
    const ModelCase mc = Case(edit, &c, &real);
    double t = Predict(*hw_, *params_, mc).time_s;
    return {HarnessFlops(c, real, 0) / t / 1e12, static_cast<double>(c.tokens) / t};
  }
  static double Delta(double treat, double ref) { return treat / ref - 1.0; }

  static Hardware* hw_;
  static ModelParams* params_;
  static std::map<std::string, Logits>* logits_;
};
Hardware* V5pFindings::hw_ = nullptr;
ModelParams* V5pFindings::params_ = nullptr;
std::map<std::string, Logits>* V5pFindings::logits_ = nullptr;

// Measured (S2-063/064, S2-069/070): compact EP vs none +20.6%/+101% (shared
// 5632) and +45.5%/+156.5% (no shared) at topk 2/8; dense_masked EP -25%/-30%.
TEST_F(V5pFindings, CompactEpBeatsNoneAndDenseMaskedLoses) {
  for (int64_t shared : {int64_t{0}, int64_t{5632}})
    for (int64_t k : {2, 8}) {
      auto none = Run([&](BenchConfig& c) { c.topk = k; c.shared_expert_dim = shared; });
      auto ep = Run([&](BenchConfig& c) { c.topk = k; c.shared_expert_dim = shared; c.parallel_mode = "ep"; });
      auto dm = Run([&](BenchConfig& c) {
        c.topk = k; c.shared_expert_dim = shared; c.parallel_mode = "ep"; c.ep_dispatch = "dense_masked";
      });
      EXPECT_GT(Delta(ep.tflops, none.tflops), 0.10) << "shared=" << shared << " k=" << k;
      EXPECT_LT(Delta(dm.tflops, none.tflops), -0.03) << "shared=" << shared << " k=" << k;
    }
  // The EP gain grows with topk (+20.6% -> +101%).
  auto n2 = Run([](BenchConfig& c) { c.topk = 2; c.shared_expert_dim = 5632; });
  auto e2 = Run([](BenchConfig& c) { c.topk = 2; c.shared_expert_dim = 5632; c.parallel_mode = "ep"; });
  auto n8 = Run([](BenchConfig& c) { c.topk = 8; c.shared_expert_dim = 5632; });
  auto e8 = Run([](BenchConfig& c) { c.topk = 8; c.shared_expert_dim = 5632; c.parallel_mode = "ep"; });
  EXPECT_GT(Delta(e8.tflops, n8.tflops), 2.0 * Delta(e2.tflops, n2.tflops));
}

// Measured (S2-093..112): TF/s rises and tokens/s falls with topk 1..8 (EP).
TEST_F(V5pFindings, TflopsRiseAndTokensFallWithTopk) {
  for (int64_t shared : {int64_t{0}, int64_t{5632}}) {
    Out prev{0, 1e30};
    for (int64_t k : {1, 2, 4, 6, 8}) {
      auto o = Run([&](BenchConfig& c) { c.topk = k; c.shared_expert_dim = shared; c.parallel_mode = "ep"; });
      EXPECT_GT(o.tflops, prev.tflops) << "k=" << k;
      EXPECT_LT(o.tokens_per_s, prev.tokens_per_s) << "k=" << k;
      prev = o;
    }
  }
}

// Measured (S2-085/090, S2-163/168): expert_mlp remat -4.4%/-7.6% (E=60, k=2/8),
// -2.6% (Qwen-like); combine remat -0.04..+0.06%.
TEST_F(V5pFindings, ExpertMlpRematCostsAFewPercentCombineNothing) {
  for (int64_t k : {2, 8}) {
    auto none = Run([&](BenchConfig& c) { c.topk = k; c.parallel_mode = "ep"; });
    auto em = Run([&](BenchConfig& c) { c.topk = k; c.parallel_mode = "ep"; c.remat_mode = "expert_mlp"; });
    auto cb = Run([&](BenchConfig& c) { c.topk = k; c.parallel_mode = "ep"; c.remat_mode = "combine"; });
    EXPECT_LT(Delta(em.tflops, none.tflops), -0.01) << "k=" << k;
    EXPECT_GT(Delta(em.tflops, none.tflops), -0.15) << "k=" << k;
    EXPECT_LT(std::abs(Delta(cb.tflops, none.tflops)), 0.005) << "k=" << k;
  }
}

// Measured (S2-193/196): ragged_dot 2.3% / 1.0% slower than gmm under EP.
TEST_F(V5pFindings, GmmBeatsRaggedDotSlightlyUnderEp) {
  auto qwen = [](BenchConfig& c) {
    c.mlp_dim = 2048; c.experts = 64; c.shared_expert_dim = 5632; c.shared_fused = true; c.parallel_mode = "ep";
  };
  auto gmm = Run(qwen);
  auto rd = Run([&](BenchConfig& c) { qwen(c); c.backend = "ragged_dot"; });
  EXPECT_LT(Delta(rd.tflops, gmm.tflops), 0.0);
  EXPECT_GT(Delta(rd.tflops, gmm.tflops), -0.05);
}

// Measured (S2-115/118): shared_fused +2.3% / +1.9% (EP, topk 2/8).
TEST_F(V5pFindings, SharedFusedGainsALittle) {
  for (int64_t k : {2, 8}) {
    auto plain = Run([&](BenchConfig& c) { c.topk = k; c.shared_expert_dim = 5632; c.parallel_mode = "ep"; });
    auto fused = Run([&](BenchConfig& c) {
      c.topk = k; c.shared_expert_dim = 5632; c.parallel_mode = "ep"; c.shared_fused = true;
    });
    EXPECT_GT(Delta(fused.tflops, plain.tflops), 0.0) << "k=" << k;
    EXPECT_LT(Delta(fused.tflops, plain.tflops), 0.05) << "k=" << k;
  }
}

// Measured (S2-026/027, 073/076, 079/082, 157/160): tuple_sort vs argsort
// -1.7%..+0.3%, within noise.
TEST_F(V5pFindings, ArgsortAndTupleSortWithinNoise) {
  for (const char* pm : {"none", "ep"})
    for (int64_t k : {2, 8}) {
      auto a = Run([&](BenchConfig& c) { c.topk = k; c.parallel_mode = pm; });
      auto t = Run([&](BenchConfig& c) { c.topk = k; c.parallel_mode = pm; c.routing_pack_strategy = "tuple_sort"; });
      EXPECT_LT(std::abs(Delta(t.tflops, a.tflops)), 0.02) << pm << " k=" << k;
    }
}

// Measured (S2-028..035, S2-143..154): random vs runs and prequeue vs full are
// within ~0.3% (prequeue is a no-op for forward_backward and for EP).
TEST_F(V5pFindings, RunsAndPrequeueAreNeutralWhereMeasured) {
  auto random = Run([](BenchConfig& c) { c.topk = 8; c.shared_expert_dim = 5632; });
  auto runs = Run([](BenchConfig& c) { c.topk = 8; c.shared_expert_dim = 5632; c.distribution = "runs"; });
  EXPECT_LT(std::abs(Delta(runs.tflops, random.tflops)), 0.02);
  auto full = Run([](BenchConfig& c) { c.bench_pass = "forward"; c.parallel_mode = "ep"; });
  auto pq = Run([](BenchConfig& c) { c.bench_pass = "forward"; c.parallel_mode = "ep"; c.queue_mode = "prequeue"; });
  EXPECT_LT(std::abs(Delta(pq.tflops, full.tflops)), 0.005);
}

// ---- The physics of the paths researchers vary (each term's direction) ----

// ragged_dot exposes each group's weight fetch: on one chip its gap to gmm
// is larger with 256 experts than with 32 (same tokens, same per-expert work).
TEST_F(V5pFindings, RaggedDotGapToGmmWidensWithExperts) {
  auto gap = [&](int64_t experts) {
    auto shape = [&](BenchConfig& c) { c.experts = experts; c.mlp_dim = 512; c.topk = 2; };
    auto g = Run(shape);
    auto r = Run([&](BenchConfig& c) { shape(c); c.backend = "ragged_dot"; });
    return g.tokens_per_s / r.tokens_per_s - 1.0;
  };
  const double g32 = gap(32), g256 = gap(256);
  EXPECT_GT(g32, 0.0);
  EXPECT_GT(g256, 2.0 * g32) << "E=32: " << g32 << ", E=256: " << g256;
}

// The pad policy moves every assignment into its slot and its output back
// out whatever the factor: at factor 0.5 half the expert work goes, but the
// dispatch stays, so pad is not faster than no limit (measured: no faster,
// or slower). The buffer it zeroes grows with the factor, the assignments
// moved do not.
TEST_F(V5pFindings, PadDispatchScalesWithAssignmentsAndIsNotFaster) {
  for (const char* pass : {"forward", "forward_backward"}) {
    for (int64_t k : {2, 8}) {
      auto none = Run([&](BenchConfig& c) { c.topk = k; c.bench_pass = pass; });
      auto pad = Run([&](BenchConfig& c) {
        c.topk = k; c.bench_pass = pass; c.capacity_policy = "pad"; c.capacity_factor = 0.5;
      });
      EXPECT_LE(pad.tokens_per_s, none.tokens_per_s) << pass << " k=" << k;
    }
  }
  const ModelCase one = Case([](BenchConfig& c) { c.capacity_policy = "pad"; c.capacity_factor = 0.5; });
  const ModelCase two = Case([](BenchConfig& c) { c.capacity_policy = "pad"; c.capacity_factor = 1.0; });
  EXPECT_NEAR(PadDispatchBytes(two).buffer / PadDispatchBytes(one).buffer, 2.0, 0.01);
  EXPECT_EQ(PadDispatchBytes(two).assignments, PadDispatchBytes(one).assignments);
  EXPECT_EQ(PadDispatchBytes(Case([](BenchConfig&) {})).buffer, 0.0);
}

// A capacity factor of 0 is no limit (the harness's meaning), whatever the policy.
TEST_F(V5pFindings, CapacityFactorZeroIsNoLimit) {
  auto none = Run([](BenchConfig&) {});
  for (const char* policy : {"drop", "pad"}) {
    auto zero = Run([&](BenchConfig& c) { c.capacity_policy = policy; c.capacity_factor = 0; });
    EXPECT_DOUBLE_EQ(zero.tokens_per_s, none.tokens_per_s) << policy;
  }
}

// --ep-dispatch says how EP dispatches; without EP it changes nothing (a
// harness revision or pin may set it on an entry's single-chip runs too).
TEST_F(V5pFindings, EpDispatchIsIgnoredWithoutEp) {
  for (int64_t k : {2, 8}) {
    auto none = Run([&](BenchConfig& c) { c.topk = k; });
    auto dm = Run([&](BenchConfig& c) { c.topk = k; c.ep_dispatch = "dense_masked"; });
    EXPECT_DOUBLE_EQ(dm.tokens_per_s, none.tokens_per_s) << "k=" << k;
  }
}

// int8_routed_prequant ships its weights quantized (half the bytes to place)
// and quantizes nothing in the hot loop: its forward beats int8_routed's.
TEST_F(V5pFindings, PrequantForwardBeatsInt8Routed) {
  for (const char* pm : {"none", "ep"}) {
    auto routed = Run([&](BenchConfig& c) { c.bench_pass = "forward"; c.parallel_mode = pm; c.quant_mode = "int8_routed"; });
    auto pre = Run([&](BenchConfig& c) {
      c.bench_pass = "forward"; c.parallel_mode = pm; c.quant_mode = "int8_routed_prequant";
    });
    EXPECT_GT(pre.tokens_per_s, routed.tokens_per_s) << pm;
  }
}

// ring_ag_rs reduce-scatters the output: what follows the combine runs on a
// quarter of the tokens on 4 chips; compact_psum replicates all of them.
TEST_F(V5pFindings, RingKeepsAQuarterOfTheOutputPerChip) {
  const ModelCase compact = Case([](BenchConfig& c) { c.parallel_mode = "ep"; });
  const ModelCase ring = Case([](BenchConfig& c) { c.parallel_mode = "ep"; c.ep_comm_path = "ring_ag_rs"; });
  const ModelCase one = Case([](BenchConfig&) {});
  EXPECT_EQ(OutputTokensPerChip(*hw_, compact), 32768);
  EXPECT_EQ(OutputTokensPerChip(*hw_, ring), 32768 / 4);
  EXPECT_EQ(OutputTokensPerChip(*hw_, one), 32768);
}

// bench_moe_mlp_profile.py's paths (entries 17:25, 17:58, 18:00): fused_ep is
// ahead of staged_dp at every topk on 3072/3072 and at topk <= 4 on 2048/2048,
// behind it at topk >= 6 on 2048/2048; the reference DP path is the slowest
// DP path. The shape: T=32768, E=64, H=M, forward, random logits, 4 chips.
TEST_F(V5pFindings, MlpProfileCrossoverByShapeAndTopk) {
  auto path = [&](const char* p, int64_t h, int64_t k) {
    return Run([&](BenchConfig& c) {
      c.hidden = c.mlp_dim = h; c.experts = 64; c.topk = k; c.shared_expert_dim = 0; c.bench_pass = "forward";
      c.mlp_path = p; c.staged_parallel = true; c.parallel_mode = std::string(p) == "fused_ep" ? "ep" : "dp";
    }).tflops;
  };
  for (int64_t k : {1, 2, 4, 6, 8}) {
    EXPECT_GT(path("fused_ep", 3072, k), path("staged_dp", 3072, k)) << "3072/3072 k=" << k;
    if (k <= 4) EXPECT_GT(path("fused_ep", 2048, k), path("staged_dp", 2048, k)) << "2048/2048 k=" << k;
    else EXPECT_LT(path("fused_ep", 2048, k), path("staged_dp", 2048, k)) << "2048/2048 k=" << k;
    for (int64_t h : {2048, 3072}) EXPECT_LT(path("ref_dp", h, k), path("staged_dp", h, k)) << h << " k=" << k;
  }
}

// The physics of the mlp_profile terms: the DP paths place every expert's
// weights on every chip (time grows with the weights, whatever topk), fused_ep
// a quarter of them; fused_ep's row copies cost one ICI hop latency per
// assignment per chip once they outlast the compute; --staged-parallel only
// hides time.
TEST_F(V5pFindings, MlpProfileTermsArePhysical) {
  auto mc = [&](const char* p, int64_t h, int64_t k, bool staged_parallel) {
    return Case([&](BenchConfig& c) {
      c.hidden = c.mlp_dim = h; c.experts = 64; c.topk = k; c.shared_expert_dim = 0; c.bench_pass = "forward";
      c.mlp_path = p; c.staged_parallel = staged_parallel;
      c.parallel_mode = std::string(p) == "fused_ep" ? "ep" : "dp";
    });
  };
  auto stage = [&](const ModelCase& c, const std::string& name) {
    const Prediction pr = Predict(*hw_, *params_, c);
    for (int i = 0; i < pr.num_stages; ++i)
      if (pr.stages[i].name == name) return pr.stages[i].seconds;
    return 0.0;
  };
  const double w_ratio = (3072.0 * 3072.0) / (2048.0 * 2048.0);
  EXPECT_NEAR(stage(mc("ref_dp", 3072, 2, false), "input_placement") /
                  stage(mc("ref_dp", 2048, 2, false), "input_placement"), w_ratio, 0.05);
  EXPECT_DOUBLE_EQ(stage(mc("ref_dp", 2048, 1, false), "input_placement"),
                   stage(mc("ref_dp", 2048, 8, false), "input_placement"));
  // The origin's busiest link: the DP paths' weights replicated to 3 chips over
  // 2 links (2 whole copies), fused_ep's in quarter shards (2 of them); x is
  // token-sharded for both.
  const double w = 64.0 * 3 * 2048 * 2048 * 2, x = 32768.0 * 2048 * 2;
  EXPECT_NEAR(stage(mc("ref_dp", 2048, 2, false), "input_placement") /
                  stage(mc("fused_ep", 2048, 2, false), "input_placement"),
              (2 * w + 2 * x / 4) / (2 * w / 4 + 2 * x / 4), 1e-9);
  EXPECT_NEAR(stage(mc("ref_dp", 2048, 4, false), "experts") / stage(mc("ref_dp", 2048, 2, false), "experts"), 2.0,
              0.01);
  const ModelCase f8 = mc("fused_ep", 2048, 8, false);
  const double rows = static_cast<double>(f8.real_assignments) / 4.0;
  EXPECT_NEAR(stage(f8, "experts") + stage(f8, "dispatch"), rows * hw_->ici_hop_latency_s, 1e-9);
  const double plain = Predict(*hw_, *params_, mc("staged_dp", 2048, 4, false)).time_s;
  const double overlapped = Predict(*hw_, *params_, mc("staged_dp", 2048, 4, true)).time_s;
  EXPECT_LT(overlapped, plain);
  EXPECT_GT(overlapped, plain - std::min(stage(mc("staged_dp", 2048, 4, false), "input_placement"),
                                         stage(mc("staged_dp", 2048, 4, false), "experts")));
}

}  // namespace
}  // namespace moelog::engine::v5p
