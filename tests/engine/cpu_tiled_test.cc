// The fused tile pipeline (TiledMoe) against the unfused stages of the CPU
// engine (ExpertMlp + combine) on the same data: a deterministic top-2
// forward equal to the unfused one within one rounding of the output, the
// gradients against the reference, and no per-assignment row buffers held.
#include <cmath>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "engine/cpu/moe_block.h"
#include "engine/cpu/moe_pipeline.h"
#include "engine/cpu/reference.h"

namespace moelog::engine::cpu {
namespace {

constexpr int64_t kT = 300, kH = 64, kM = 48, kE = 5;

Routing MakeRouting(int64_t topk, double null_frac = 0.0) {
  Logits l = GenerateLogits("random", kT, kE, 11, 0.98, 0.35);
  Routing r = TopK(l, topk);
  NullOptions o;
  o.frac = null_frac;
  o.key = 5;
  ApplyNullRouting(o, &r);
  return r;
}

// y of the unfused engine: ExpertMlp over the gathered rows, then the
// inverse-permutation combine rounded once into y.
// prepacked: ExpertMlp on its prepacked weights (bf16 forward: the sliced up
// projection where the layout allows it) instead of the plain ones.
Tensor UnfusedForward(const BlockData& d, const PackPlan& plan, GroupedBackend backend, bool fused, bool preweight,
                      bool prepacked = false) {
  MatmulRunner mm;
  ExpertMlpOptions o;
  o.backend = backend;
  o.fused_w13 = fused;
  o.preweight = preweight;
  o.prepacked = prepacked;
  ExpertWeights w;
  w.w1 = Tensor(d.experts.w1.dtype(), d.experts.w1.shape());
  w.w3 = Tensor(d.experts.w3.dtype(), d.experts.w3.shape());
  w.w2 = Tensor(d.experts.w2.dtype(), d.experts.w2.shape());
  w.w1.CopyFrom(d.experts.w1);
  w.w3.CopyFrom(d.experts.w3);
  w.w2.CopyFrom(d.experts.w2);
  if (fused) BuildW13(&w);
  ExpertMlp mlp(&mm, o);
  EXPECT_TRUE(mlp.Prepare(w).ok());
  PackedRows rows;
  GatherRows(d.x, plan, false, &rows);
  Tensor y_rows;
  EXPECT_TRUE(mlp.Forward(w, rows, &y_rows).ok());
  Tensor y(d.x.dtype(), {d.x.dim(0), d.x.dim(1)});
  CombineInversePermuteInto(y_rows, plan, InversePermutation(plan), !preweight, &y);
  return y;
}

PipelineOptions Options(GroupedBackend backend, bool fused, bool preweight) {
  PipelineOptions o;
  o.backend = backend;
  o.fused_w13 = fused;
  o.preweight = preweight;
  return o;
}

// A bf16 block of t tokens, hidden h, mlp m, e experts, top-k.
BenchConfig Config(int64_t t, int64_t h, int64_t m, int64_t e, int64_t topk) {
  BenchConfig c;
  c.tokens = t;
  c.hidden = h;
  c.mlp_dim = m;
  c.experts = e;
  c.topk = topk;
  c.dtype = "bfloat16";
  return c;
}

using Param = std::tuple<std::string, std::string, bool>;  // backend, dtype, fused
class TiledVsUnfused : public ::testing::TestWithParam<Param> {};

TEST_P(TiledVsUnfused, Top2ForwardIsDeterministicAndMatchesUnfused) {
  auto [backend_name, dtype, fused] = GetParam();
  const GroupedBackend backend = backend_name == "gmm" ? GroupedBackend::kGmm : GroupedBackend::kRaggedDot;
  const DType dt = DTypeFromName(dtype);
  BlockData d = GenerateBlockData(kT, kH, kM, kE, 0, dt, 4);
  Routing r = MakeRouting(2);
  PackOptions po;
  po.pad_rows_to_tile = backend == GroupedBackend::kGmm;
  auto plan = PlanPack(r, po);
  ASSERT_TRUE(plan.ok());
  for (bool preweight : {false, true}) {
    Tensor want = UnfusedForward(d, *plan, backend, fused, preweight);
    for (bool prepack : {true, false}) {
      MatmulRunner mm;
      TiledMoe tm(&mm, Options(backend, fused, preweight));
      if (prepack) {
        ASSERT_TRUE(tm.Prepack(d.experts).ok());
      }
      Tensor y, first;
      // One rounding of the output (bf16: 2^-8 relative), or f32 rounding noise
      // (relative to max(|y|, 1e-3): sums may cancel).
      const double tol = dt == DType::kBF16 ? 1.0 / 128 : 1e-4;
      for (int rep = 0; rep < 3; ++rep) {  // later calls reuse buffers
        ASSERT_TRUE(tm.Forward(d.experts, d.x, *plan, false, &y, nullptr).ok());
        ASSERT_EQ(y.numel(), want.numel());
        double worst = 0;
        for (int64_t i = 0; i < y.numel(); ++i) {
          const double a = y.Get(i), b = want.Get(i);
          worst = std::max(worst, std::fabs(a - b) / std::max(1e-3, std::fabs(b)));
        }
        EXPECT_LE(worst, tol) << "preweight=" << preweight << " prepack=" << prepack << " rep=" << rep;
        if (rep == 0) {
          first = Tensor(dt, y.shape());
          first.CopyFrom(y);
        } else {
          int64_t differ = 0;
          for (int64_t i = 0; i < y.numel(); ++i) differ += y.Get(i) != first.Get(i) ? 1 : 0;
          EXPECT_EQ(differ, 0) << "not deterministic: preweight=" << preweight << " prepack=" << prepack;
        }
      }
      // No [rows, H] buffers: what stays is the packed weights, the tiles of
      // each thread and the [T,H] low-half plane.
      const int64_t es = DTypeSize(dt);
      const int64_t weights = prepack ? 3 * kE * kH * kM * es * 2 : 0;  // blocked layouts may pad
      const int64_t tiles = omp_get_max_threads() * std::min<int64_t>(kGmmTileRows, plan->rows) * (2 * kH + 3 * kM) * es;
      EXPECT_LE(tm.HeldBytes(), weights + tiles + kT * kH * es);
    }
  }
}

TEST_P(TiledVsUnfused, TrainingMatchesTheReference) {
  auto [backend_name, dtype, fused] = GetParam();
  BenchConfig c = Config(kT, kH, kM, kE, 1);
  c.backend = backend_name;
  c.dtype = dtype;
  for (int64_t topk : {1, 3}) {
    for (std::string remat : {"none", "expert_mlp"}) {
      c.topk = topk;
      c.remat_mode = remat;
      Routing r = MakeRouting(topk, topk == 3 ? 0.2 : 0.0);
      auto bc = MakeBlockConfig(c, fused ? "fused_w13" : "preweight");
      ASSERT_TRUE(bc.ok());
      BlockData d = GenerateBlockData(kT, kH, kM, kE, 0, DTypeFromName(dtype), 9);
      MoeBlock block(*bc, &d, &r);
      ASSERT_TRUE(block.tiled());
      ASSERT_TRUE(block.Prepare(true).ok());
      for (int i = 0; i < 2; ++i) ASSERT_TRUE(block.TrainStep().ok());
      for (const auto& n : block.CheckNumerics(true))
        EXPECT_TRUE(n.ok) << "topk=" << topk << " remat=" << remat << " " << n.tensor << " " << n.max_rel_err;
    }
  }
}

// An mlp width that is a multiple of 64 (three 64-column slices): forward-only
// runs on prepacked bf16 weights take the sliced up projection
// (sliced_up.h), in TiledMoe and in ExpertMlp's separate Up stage. Both
// against the unfused engine on plain weights, which never slices; expert
// row counts cross the 512-row tiles (T*K/E = 400 on average, skewed).
TEST(SlicedUpForward, TiledAndStagedMatchTheUnfusedEngine) {
  constexpr int64_t t = 900, h = 128, m = 192, e = 3;
  BlockData d = GenerateBlockData(t, h, m, e, 0, DType::kBF16, 6);
  Routing r = TopK(GenerateLogits("runs", t, e, 7, 0.98, 0.35), 2);
  for (GroupedBackend backend : {GroupedBackend::kGmm, GroupedBackend::kRaggedDot}) {
    PackOptions po;
    po.pad_rows_to_tile = backend == GroupedBackend::kGmm;
    auto plan = PlanPack(r, po);
    ASSERT_TRUE(plan.ok());
    ASSERT_GT(*std::max_element(plan->group_sizes.begin(), plan->group_sizes.end()), kGmmTileRows);
    for (bool fused : {true, false}) {
      for (bool preweight : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "ragged=" << (backend == GroupedBackend::kRaggedDot)
                                          << " fused=" << fused << " preweight=" << preweight);
        const Tensor want = UnfusedForward(d, *plan, backend, fused, preweight);
        const Tensor staged = UnfusedForward(d, *plan, backend, fused, preweight, /*prepacked=*/true);
        MatmulRunner mm;
        TiledMoe tm(&mm, Options(backend, fused, preweight));
        ASSERT_TRUE(tm.Prepack(d.experts).ok());
        Tensor tiled;
        ASSERT_TRUE(tm.Forward(d.experts, d.x, *plan, false, &tiled, nullptr).ok());
        for (const Tensor* got : {&staged, static_cast<const Tensor*>(&tiled)}) {
          ASSERT_EQ(got->numel(), want.numel());
          double worst = 0;
          for (int64_t i = 0; i < want.numel(); ++i)
            worst = std::max(worst, std::fabs(got->Get(i) - want.Get(i)) / std::max(1e-3, std::fabs(double{want.Get(i)})));
          EXPECT_LE(worst, 1.0 / 128) << (got == &staged ? "staged" : "tiled");
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, TiledVsUnfused,
                         ::testing::Combine(::testing::Values("gmm", "ragged_dot"),
                                            ::testing::Values("float32", "bfloat16"), ::testing::Bool()));

// A training shape whose saved gate|up rows span several huge pages, shared
// between experts (the backward returns each page once all its rows are
// consumed), with weights the engine prepacks itself (64-column blocks),
// top-2 pairs in the combine and bf16 weight gradients from transposed and
// packed token operands (expert row counts off the 32-token blocks): two
// steps, gradients against the reference. Then the same with padded
// capacity (rows that gather no token), with the gate|up recomputed, and
// with separate w1 and w3 matmuls.
TEST(TiledMoe, LargerTrainingStepsMatchTheReference) {
  constexpr int64_t t = 1536, h = 128, m = 512, e = 4;
  Routing r = TopK(GenerateLogits("random", t, e, 3, 0.98, 0.35), 2);
  ASSERT_GT(t * 2 * 2 * m * 2, 2 * Tensor::kHugePage);  // saved gate|up bytes
  struct Case {
    int threads;
    const char* policy;
    const char* remat;
    const char* impl;
    double capacity_factor = 1.1;
  };
  // One thread: experts run in order, so a page returned too early is
  // always read again afterwards. Two: as the engine runs.
  const int threads = omp_get_max_threads();
  for (const Case& k : {Case{1, "none", "none", "fused_w13"}, Case{2, "none", "none", "fused_w13"},
                        Case{2, "pad", "none", "fused_w13"}, Case{2, "pad", "expert_mlp", "fused_w13"},
                        Case{2, "none", "none", "preweight"},
                        // Capacity 1024 rows per expert: the padded token
                        // count gets its extra block (PadTokens).
                        Case{2, "pad", "none", "fused_w13", 1.333}}) {
    BenchConfig c = Config(t, h, m, e, 2);
    c.capacity_policy = k.policy;
    c.capacity_factor = std::string(k.policy) == "none" ? 0.0 : k.capacity_factor;
    c.remat_mode = k.remat;
    auto bc = MakeBlockConfig(c, k.impl);
    ASSERT_TRUE(bc.ok());
    omp_set_num_threads(k.threads);
    BlockData d = GenerateBlockData(t, h, m, e, 0, DType::kBF16, 4);
    MoeBlock block(*bc, &d, &r);
    ASSERT_TRUE(block.tiled());
    ASSERT_TRUE(block.Prepare(true).ok());
    for (int i = 0; i < 2; ++i) ASSERT_TRUE(block.TrainStep().ok());
    for (const auto& n : block.CheckNumerics(true))
      EXPECT_TRUE(n.ok) << "threads=" << k.threads << " capacity=" << k.policy << " remat=" << k.remat
                        << " impl=" << k.impl << " " << n.tensor << " " << n.max_rel_err;
  }
  omp_set_num_threads(threads);
}

TEST(TiledMoe, ForwardOnlyRunsCanReleaseThePlainWeights) {
  BenchConfig c = Config(kT, kH, kM, kE, 2);
  Routing r = MakeRouting(2);
  auto bc = MakeBlockConfig(c, "fused_w13");
  ASSERT_TRUE(bc.ok());
  BlockData keep = GenerateBlockData(kT, kH, kM, kE, 0, DType::kBF16, 2);
  BlockData drop = GenerateBlockData(kT, kH, kM, kE, 0, DType::kBF16, 2);
  MoeBlock a(*bc, &keep, &r), b(*bc, &drop, &r);
  b.set_release_plain_weights(true);
  ASSERT_TRUE(a.Prepare(false).ok());
  ASSERT_TRUE(b.Prepare(false).ok());
  EXPECT_TRUE(drop.experts.w1.empty());
  EXPECT_FALSE(keep.experts.w1.empty());
  ASSERT_TRUE(a.Forward(true).ok());
  ASSERT_TRUE(b.Forward(true).ok());
  for (int64_t i = 0; i < a.y().numel(); ++i) ASSERT_EQ(a.y().Get(i), b.y().Get(i)) << i;
}

}  // namespace
}  // namespace moelog::engine::cpu
