// The CPU MoE engine against the double-precision reference, and the
// reference against finite differences.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <omp.h>

#include "engine/backend.h"
#include "engine/cpu/moe_block.h"
#include "engine/cpu/reference.h"

namespace moelog::engine::cpu {
namespace {

constexpr int64_t kT = 96, kH = 32, kM = 16, kE = 4, kK = 2, kS = 8;

BenchConfig SmallConfig() {
  BenchConfig c;
  c.tokens = kT;
  c.hidden = kH;
  c.mlp_dim = kM;
  c.experts = kE;
  c.topk = kK;
  c.shared_expert_dim = kS;
  return c;
}

Routing MakeRouting(const BenchConfig& c, const std::string& dist, double null_frac = 0.0) {
  Logits l = GenerateLogits(dist, c.tokens, c.experts, 7, c.run_alpha, c.run_noise_scale);
  Routing r = TopK(l, c.topk);
  NullOptions o;
  o.frac = null_frac;
  o.key = 99;
  ApplyNullRouting(o, &r);
  return r;
}

// Runs one block config and returns the numerics checks.
std::vector<NumericsCheck> RunChecks(const BenchConfig& c, const std::string& impl, bool training,
                                     const Routing& routing) {
  auto bc = MakeBlockConfig(c, impl);
  EXPECT_TRUE(bc.ok()) << bc.status().ToString();
  BlockData data = GenerateBlockData(c.tokens, c.hidden, c.mlp_dim, c.experts, c.shared_expert_dim,
                                     DTypeFromName(c.dtype), 3);
  MoeBlock block(*bc, &data, &routing);
  EXPECT_TRUE(block.Prepare(training).ok());
  // Two calls: the second reuses cached primitives and scratch buffers.
  for (int i = 0; i < 2; ++i) {
    Status st = training ? block.TrainStep() : block.Forward(true);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  return block.CheckNumerics(training);
}

void ExpectAllOk(const std::vector<NumericsCheck>& checks, const std::string& what) {
  ASSERT_FALSE(checks.empty());
  for (const auto& n : checks)
    EXPECT_TRUE(n.ok) << what << " tensor=" << n.tensor << " max_rel_err=" << n.max_rel_err << " tol=" << n.tolerance;
}

using Combo = std::tuple<std::string, std::string, std::string>;  // backend, impl, dtype

class CpuMoeCombo : public ::testing::TestWithParam<Combo> {};

TEST_P(CpuMoeCombo, ForwardMatchesReference) {
  auto [backend, impl, dtype] = GetParam();
  BenchConfig c = SmallConfig();
  c.backend = backend;
  c.dtype = dtype;
  Routing r = MakeRouting(c, "random");
  ExpectAllOk(RunChecks(c, impl, false, r), backend + "/" + impl + "/" + dtype);
}

TEST_P(CpuMoeCombo, GradientsMatchReference) {
  auto [backend, impl, dtype] = GetParam();
  BenchConfig c = SmallConfig();
  c.backend = backend;
  c.dtype = dtype;
  c.shared_fused = impl == "fast";
  Routing r = MakeRouting(c, "runs");
  auto checks = RunChecks(c, impl, true, r);
  EXPECT_EQ(checks.size(), 8u);  // y, dx, dw1-3, shared dw1-3
  ExpectAllOk(checks, backend + "/" + impl + "/" + dtype);
}

INSTANTIATE_TEST_SUITE_P(
    All, CpuMoeCombo,
    ::testing::Combine(::testing::Values("gmm", "ragged_dot"),
                       ::testing::Values("baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter", "fast"),
                       ::testing::Values("float32", "bfloat16")));

TEST(CpuMoe, Float32IsTight) {
  // The f32 tolerance is far below what a wrong expert, weight or row would give.
  BenchConfig c = SmallConfig();
  c.dtype = "float32";
  Routing r = MakeRouting(c, "random");
  for (const auto& n : RunChecks(c, "fused_w13", true, r)) EXPECT_LT(n.max_rel_err, 1e-4) << n.tensor;
}

TEST(CpuMoe, RematModesAndCapacityAndNulls) {
  BenchConfig c = SmallConfig();
  for (std::string remat : {"none", "expert_mlp", "combine"}) {
    c.remat_mode = remat;
    Routing r = MakeRouting(c, "random");
    ExpectAllOk(RunChecks(c, "baseline", true, r), "remat " + remat);
    ExpectAllOk(RunChecks(c, "fused_w13_preweight", true, r), "remat " + remat);
  }
  c.remat_mode = "none";
  for (std::string policy : {"drop", "pad"}) {
    c.capacity_policy = policy;
    c.capacity_factor = 0.6;
    Routing r = MakeRouting(c, "runs");
    ExpectAllOk(RunChecks(c, "fused_w13", true, r), "capacity " + policy);
    ExpectAllOk(RunChecks(c, "preweight", false, r), "capacity " + policy);
  }
  c.capacity_policy = "none";
  c.capacity_factor = 0;
  c.dispatch_permute_mode = "repeat_sort";
  ExpectAllOk(RunChecks(c, "fast", true, MakeRouting(c, "runs")), "repeat_sort");
  c.dispatch_permute_mode = "direct_take";
  Routing r = MakeRouting(c, "random", 0.4);
  ASSERT_GT(r.null_assignments, 0);
  ExpectAllOk(RunChecks(c, "baseline", true, r), "null");
}

TEST(CpuMoe, QuantModesStayClose) {
  BenchConfig c = SmallConfig();
  for (std::string q : {"int8", "int8_routed", "int8_all", "int8_routed_prequant"}) {
    c.quant_mode = q;
    Routing r = MakeRouting(c, "random");
    for (std::string impl : {"baseline", "fast"}) {
      auto fwd = RunChecks(c, impl, false, r);
      ExpectAllOk(fwd, q + "/" + impl);
      EXPECT_GT(fwd[0].max_rel_err, 1e-4) << "int8 " << q << " should not be exact";
      ExpectAllOk(RunChecks(c, impl, true, r), q + "/" + impl + " backward");
    }
  }
}

TEST(CpuMoe, PackStrategiesGiveIdenticalOrder) {
  for (std::string dist : {"random", "runs"}) {
    BenchConfig c = SmallConfig();
    c.tokens = 2000;
    c.experts = 8;
    c.topk = 3;
    Routing r = MakeRouting(c, dist, 0.2);
    auto a = SortAssignments(r.ids, r.topk, PackStrategy::kArgsort, r.weights);
    auto b = SortAssignments(r.ids, r.topk, PackStrategy::kTupleSort, r.weights);
    auto e = SortAssignments(r.ids, r.topk, PackStrategy::kExpertScoreSort, r.weights);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, e);
    // Sorted by expert id, then flat position.
    for (size_t i = 1; i < a.size(); ++i) {
      auto ka = std::make_pair(r.ids[a[i - 1]], a[i - 1]), kb = std::make_pair(r.ids[a[i]], a[i]);
      EXPECT_LT(ka, kb);
    }
  }
}

TEST(CpuMoe, CapacityDropMatchesBruteForce) {
  BenchConfig c = SmallConfig();
  c.tokens = 500;
  Routing r = MakeRouting(c, "runs");
  PackOptions o;
  o.capacity = CapacityPolicy::kDrop;
  o.capacity_factor = 0.8;
  auto plan = PlanPack(r, o);
  ASSERT_TRUE(plan.ok());
  const int64_t cap = static_cast<int64_t>(std::ceil(0.8 * c.tokens * c.topk / c.experts));
  EXPECT_EQ(plan->cap, cap);
  // Brute force: walk flat positions, count per expert.
  std::vector<int64_t> seen(static_cast<size_t>(c.experts), 0);
  int64_t dropped = 0;
  std::vector<bool> drop(r.ids.size(), false);
  for (size_t p = 0; p < r.ids.size(); ++p)
    if (seen[r.ids[p]]++ >= cap) {
      ++dropped;
      drop[p] = true;
    }
  EXPECT_EQ(plan->dropped, dropped);
  EXPECT_GT(dropped, 0);
  // Drop keeps shapes: every assignment has a row; dropped rows have zero weight.
  EXPECT_EQ(plan->valid_rows, c.tokens * c.topk);
  for (int64_t row = 0; row < plan->valid_rows; ++row) {
    const int64_t p = plan->flat[row];
    EXPECT_EQ(plan->keep[row] == 0, drop[p]);
    if (drop[p]) {
      EXPECT_EQ(plan->weight[row], 0.0f);
    }
  }
  auto stats = ComputeCapacityStats(GroupSizes(r), c.tokens, c.topk, 0.8);
  EXPECT_EQ(stats.dropped, dropped);
}

TEST(CpuMoe, NullRowsCostNoMatmul) {
  BenchConfig c = SmallConfig();
  c.dtype = "float32";
  Routing r = MakeRouting(c, "random", 0.5);
  ASSERT_GT(r.null_assignments, 0);
  for (auto backend : {GroupedBackend::kGmm, GroupedBackend::kRaggedDot}) {
    PackOptions o;
    o.pad_rows_to_tile = backend == GroupedBackend::kGmm;
    auto plan = PlanPack(r, o);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->valid_rows, r.real_assignments);
    EXPECT_GE(plan->rows, c.tokens * c.topk);  // null rows still sit in the buffer
    if (o.pad_rows_to_tile) {
      EXPECT_EQ(plan->rows % kGmmTileRows, 0);
    }
    BlockData data = GenerateBlockData(c.tokens, c.hidden, c.mlp_dim, c.experts, 0, DType::kF32, 1);
    PackedRows rows;
    GatherRows(data.x, *plan, false, &rows);
    // Poison every row past the valid ones: if any were multiplied, NaN would
    // reach the output rows (ragged_dot zero-fills, gmm leaves them alone).
    for (int64_t i = plan->valid_rows * c.hidden; i < rows.x.numel(); ++i)
      rows.x.Set(i, std::numeric_limits<float>::quiet_NaN());
    MatmulRunner mm;
    ExpertMlpOptions eo;
    eo.backend = backend;
    ExpertMlp mlp(&mm, eo);
    Tensor y;
    ASSERT_TRUE(mlp.Forward(data.experts, rows, &y).ok());
    for (int64_t i = 0; i < plan->valid_rows * c.hidden; ++i) ASSERT_TRUE(std::isfinite(y.Get(i)));
    if (backend == GroupedBackend::kRaggedDot) {
      for (int64_t i = plan->valid_rows * c.hidden; i < y.numel(); ++i) ASSERT_EQ(y.Get(i), 0.0f);
    }
  }
}

// Training with fused_w13 and w13 not built (expert parallelism leaves it
// so): the expert MLP concatenates w1|w3 a chunk of experts at a time, and
// the forward and backward are bit for bit those over the whole built w13,
// with gmm tiles and ragged_dot groups (whose rows past the groups are zero).
TEST(CpuMoe, UnbuiltW13IsConcatenatedPerChunkBitForBit) {
  BenchConfig c = SmallConfig();
  c.tokens = 384;
  c.hidden = c.mlp_dim = 1024;  // 4 MiB of w13 an expert: chunks of two experts a thread
  c.experts = 7;
  Routing r = MakeRouting(c, "random", 0.25);
  BlockData data = GenerateBlockData(c.tokens, c.hidden, c.mlp_dim, c.experts, 0, DType::kBF16, 5);
  ASSERT_LT(W13ChunkExperts(c.experts, c.hidden, c.mlp_dim, DType::kBF16, omp_get_max_threads()), c.experts);
  for (auto backend : {GroupedBackend::kGmm, GroupedBackend::kRaggedDot}) {
    PackOptions o;
    o.pad_rows_to_tile = backend == GroupedBackend::kGmm;
    auto plan = PlanPack(r, o);
    ASSERT_TRUE(plan.ok());
    PackedRows rows;
    GatherRows(data.x, *plan, false, &rows);
    Tensor dy(DType::kBF16, {plan->rows, c.hidden});
    for (int64_t i = 0; i < dy.numel(); ++i) dy.Set(i, std::sin(0.37f * static_cast<float>(i % 1009)));
    struct Out {
      Tensor y, dx;
      ExpertGrads g;
    };
    auto run = [&](bool built) {
      ExpertWeights w;
      w.w1 = Tensor::View(data.experts.w1, 0, data.experts.w1.shape());
      w.w3 = Tensor::View(data.experts.w3, 0, data.experts.w3.shape());
      w.w2 = Tensor::View(data.experts.w2, 0, data.experts.w2.shape());
      if (built) BuildW13(&w);
      MatmulRunner mm;
      ExpertMlpOptions eo;
      eo.backend = backend;
      eo.fused_w13 = true;
      ExpertMlp mlp(&mm, eo);
      Out out;
      EXPECT_TRUE(mlp.Forward(w, rows, &out.y, true).ok());
      EXPECT_TRUE(mlp.Backward(w, rows, dy, &out.dx, &out.g).ok());
      return out;
    };
    const Out a = run(true), b = run(false);
    // The valid rows (gmm leaves the rest of y unwritten), and every row
    // of ragged_dot's y and of dx.
    const int64_t yn = (backend == GroupedBackend::kGmm ? plan->valid_rows : plan->rows) * c.hidden;
    auto same = [](const Tensor& x, const Tensor& y, int64_t n) {
      return x.numel() >= n && y.numel() >= n &&
             std::memcmp(x.data(), y.data(), static_cast<size_t>(n * DTypeSize(x.dtype()))) == 0;
    };
    EXPECT_TRUE(same(a.y, b.y, yn));
    EXPECT_TRUE(same(a.dx, b.dx, a.dx.numel()));
    EXPECT_TRUE(same(a.g.dw1, b.g.dw1, a.g.dw1.numel()));
    EXPECT_TRUE(same(a.g.dw3, b.g.dw3, a.g.dw3.numel()));
    EXPECT_TRUE(same(a.g.dw2, b.g.dw2, a.g.dw2.numel()));
  }
}

TEST(CpuMoe, QuantizeRoundsHalfEvenAndClips) {
  // amax 127 -> scale ~1: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2.
  float v[5] = {127.0f, 2.5f, 3.5f, -2.5f, -0.4f};
  int8_t q[5];
  float s = 0;
  QuantizeRows(v, DType::kF32, 1, 5, 5, q, &s);
  EXPECT_NEAR(s, 1.0f, 1e-6);
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(q[1], 2);
  EXPECT_EQ(q[2], 4);
  EXPECT_EQ(q[3], -2);
  EXPECT_EQ(q[4], 0);
  float z[3] = {0, 0, 0};
  QuantizeRows(z, DType::kF32, 1, 3, 3, q, &s);
  EXPECT_GT(s, 0.0f);  // + FLT_MIN keeps the scale positive
}

TEST(CpuMoe, ReferenceMatchesFiniteDifferences) {
  BenchConfig c;
  c.tokens = 5;
  c.hidden = 4;
  c.mlp_dim = 3;
  c.experts = 3;
  c.topk = 2;
  Routing r = MakeRouting(c, "random");
  ReferenceInputs in;
  in.tokens = 5;
  in.hidden = 4;
  in.mlp_dim = 3;
  in.experts = 3;
  in.shared_dim = 2;
  Rng rng(5);
  auto fill = [&](size_t n) {
    std::vector<double> v(n);
    for (double& x : v) x = rng.Normal() * 0.7;
    return v;
  };
  in.x = fill(20);
  in.w1 = fill(36);
  in.w3 = fill(36);
  in.w2 = fill(36);
  in.sw1 = fill(8);
  in.sw3 = fill(8);
  in.sw2 = fill(8);
  in.routing = &r;
  ReferenceOutputs g = ReferenceMoe(in, true);
  auto check = [&](std::vector<double>* param, const std::vector<double>& grad, const char* name) {
    for (size_t i = 0; i < param->size(); ++i) {
      const double h = 1e-6, keep = (*param)[i];
      (*param)[i] = keep + h;
      double lp = ReferenceMoe(in, false).loss;
      (*param)[i] = keep - h;
      double lm = ReferenceMoe(in, false).loss;
      (*param)[i] = keep;
      EXPECT_NEAR(grad[i], (lp - lm) / (2 * h), 1e-7) << name << "[" << i << "]";
    }
  };
  check(&in.x, g.dx, "dx");
  check(&in.w1, g.dw1, "dw1");
  check(&in.w3, g.dw3, "dw3");
  check(&in.w2, g.dw2, "dw2");
  check(&in.sw1, g.dsw1, "dsw1");
  check(&in.sw3, g.dsw3, "dsw3");
  check(&in.sw2, g.dsw2, "dsw2");
}

// A device's share of the data (a rank under MPI) holds the same values as
// the same rows and experts of the whole, bit for bit, though its ranges
// start and end inside the generator's chunks.
TEST(CpuMoe, DataShareIsTheWholesSlice) {
  const int64_t t = 300, h = 96, m = 80, e = 12, s = 40;
  const BlockData whole = GenerateBlockData(t, h, m, e, s, DType::kBF16, 7);
  DataShare share;
  share.token_begin = 75;
  share.tokens = 150;
  share.expert_begin = 3;
  share.experts = 6;
  const BlockData part = GenerateBlockDataShare(h, m, s, DType::kBF16, 7, share);
  ASSERT_TRUE(part.share);
  EXPECT_EQ(part.token_begin, 75);
  EXPECT_EQ(part.expert_begin, 3);
  auto same = [](const Tensor& a, const Tensor& b, int64_t offset) {
    return std::memcmp(a.data(), b.at(offset), static_cast<size_t>(a.numel() * DTypeSize(a.dtype()))) == 0;
  };
  ASSERT_EQ(part.x.shape(), (std::vector<int64_t>{150, h}));
  EXPECT_TRUE(same(part.x, whole.x, 75 * h));
  ASSERT_EQ(part.experts.experts(), 6);
  EXPECT_TRUE(same(part.experts.w1, whole.experts.w1, 3 * h * m));
  EXPECT_TRUE(same(part.experts.w3, whole.experts.w3, 3 * h * m));
  EXPECT_TRUE(same(part.experts.w2, whole.experts.w2, 3 * m * h));
  EXPECT_TRUE(same(part.shared.w1, whole.shared.w1, 0));
  EXPECT_TRUE(same(part.shared.w2, whole.shared.w2, 0));
  EXPECT_TRUE(same(part.shared.w3, whole.shared.w3, 0));
}

TEST(CpuBackend, RefusesShapesThatDoNotFitBeforeAllocating) {
  BenchConfig c;
  c.tokens = 1 << 20;
  c.hidden = 16384;
  c.mlp_dim = 16384;
  c.experts = 64;
  c.topk = 2;
  auto be = MakeCpuBackend(c);
  ASSERT_TRUE(be.ok());
  RunPoint p{"random", 2, "fused_w13", 0.0, "full"};
  Routing empty;
  auto r = (*be)->Run(c, p, empty);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kOutOfMemory);
  EXPECT_NE(r.status().message().find("GB at its peak"), std::string::npos);
  EXPECT_NE(r.status().message().find("available now"), std::string::npos);
}

TEST(CpuBackend, RunFillsFigures) {
  BenchConfig c = SmallConfig();
  c.iters = 2;
  c.warmup = 1;
  c.stage_timing = true;
  c.check_numerics = true;
  auto be = MakeCpuBackend(c);
  ASSERT_TRUE(be.ok());
  RunPoint p{"random", 2, "fast", 0.0, "full"};
  Routing r = MakeRouting(c, "random");
  auto res = (*be)->Run(c, p, r);
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_GT(res->time.mean_s, 0);
  EXPECT_EQ(res->time.samples_s.size(), 2u);
  EXPECT_GT(res->tflops, 0);
  ASSERT_EQ(res->stages.size(), 4u);
  for (const auto& s : res->stages) EXPECT_GT(s.seconds, 0) << s.name;
  ASSERT_EQ(res->numerics.size(), 1u);
  EXPECT_TRUE(res->numerics[0].ok);
  // Expert parallelism runs on simulated devices (engine/parallel).
  c.parallel_mode = "ep";
  c.devices = 2;
  ASSERT_TRUE(c.Validate().ok()) << c.Validate().ToString();
  auto ep = (*be)->Run(c, p, r);
  ASSERT_TRUE(ep.ok()) << ep.status().ToString();
  EXPECT_EQ(ep->devices, 2);
  ASSERT_EQ(ep->numerics.size(), 1u);
  EXPECT_TRUE(ep->numerics[0].ok);
}

}  // namespace
}  // namespace moelog::engine::cpu
