// The ISA tiers of the CPU engine: every kernel tier this CPU runs gives the
// baseline tier's results, the f32-compute bf16 matmuls give the native
// path's numerics, and what ran is named.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/cpu/isa.h"
#include "engine/cpu/kernels.h"
#include "engine/cpu/matmul.h"
#include "engine/cpu/tensor.h"
#include "tests/engine/cpu_test_fill.h"

namespace moelog::engine::cpu {
namespace {

std::vector<float> Values(int64_t n, uint32_t seed, float scale = 0.05f) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int32_t>(s >> 8) % 20001 - 10000) * scale / 100.0f;
  }
  return v;
}

std::vector<bf16_t> Bf16(const std::vector<float>& f) {
  std::vector<bf16_t> b(f.size());
  for (size_t i = 0; i < f.size(); ++i) b[i] = F32ToBf16(f[i]);
  return b;
}

// a and b agree to within `rel` of the larger magnitude (+ a floor).
void ExpectClose(const std::vector<float>& a, const std::vector<float>& b, float rel, const std::string& what) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_LE(std::fabs(a[i] - b[i]), rel * std::max({std::fabs(a[i]), std::fabs(b[i]), 1e-3f}))
        << what << " at " << i << ": " << a[i] << " vs " << b[i];
}

std::vector<float> Widen(const std::vector<bf16_t>& b) {
  std::vector<float> f(b.size());
  for (size_t i = 0; i < b.size(); ++i) f[i] = Bf16ToF32(b[i]);
  return f;
}

// One tier's outputs of every entry point on fixed inputs (m = 200: full
// vectors plus a masked tail).
struct TierOutputs {
  std::vector<float> swiglu_f32, dgate, dup, dequant, pair_scaled, pair, grad, widened;
  std::vector<bf16_t> swiglu_bf16, stored, rounded, interleaved, transposed, gathered, cast;
  std::vector<int8_t> q, hq;
  float amax = 0, hscale = 0;
};

template <typename Tier>
TierOutputs RunTier(Tier) {
  constexpr int64_t m = 200;
  const std::vector<float> a = Values(m, 1), b = Values(m, 2), d = Values(m, 3);
  const std::vector<bf16_t> ab = Bf16(a), bb = Bf16(b), db = Bf16(d);
  TierOutputs o;
  o.swiglu_f32.resize(m);
  o.swiglu_bf16.resize(m);
  Tier::SwiGluRow(a.data(), b.data(), m, 0.75f, o.swiglu_f32.data());
  Tier::SwiGluRow(ab.data(), bb.data(), m, 0.75f, o.swiglu_bf16.data());
  o.dgate.resize(m);
  o.dup.resize(m);
  Tier::SwiGluBackwardRow(a.data(), b.data(), d.data(), m, 1.5f, o.dgate.data(), o.dup.data());
  o.amax = Tier::AbsMax(ab.data(), m);
  o.q.resize(m);
  Tier::QuantizeWithScale(ab.data(), m, QuantScale(o.amax), o.q.data());
  std::vector<int32_t> acc(m), acc2(m);
  for (int64_t j = 0; j < m; ++j) acc[j] = static_cast<int32_t>(j * 37 % 2001) - 1000, acc2[j] = static_cast<int32_t>(j * 53 % 1501) - 700;
  o.dequant.resize(m);
  Tier::DequantizeRow(acc.data(), m, 0.01f, o.dequant.data());
  std::vector<float> hbuf(m);
  std::vector<bf16_t> g(m), u(m), h(m);
  o.hq.resize(m);
  o.hscale = Tier::Int8SwiGluQuantRow(acc.data(), acc2.data(), m, 0.002f, 0.003f, 0.5f, hbuf.data(), o.hq.data(),
                                      g.data(), u.data(), h.data());
  std::vector<bf16_t> hi = ab;
  Tier::PairScaleAddBf16Row(hi.data(), bb.data(), 0.3f, 0.7f, m);
  o.pair_scaled = Widen(hi);
  hi = ab;
  Tier::PairAddBf16Row(hi.data(), bb.data(), false, m);
  o.pair = Widen(hi);
  std::vector<bf16_t> gr(m);
  Tier::ScaledGradRow(ab.data(), 0.125f, 0.6f, m, gr.data());
  o.grad = Widen(gr);
  o.stored.resize(m);
  Tier::StoreRow(a.data(), m, o.stored.data());
  o.widened.resize(m);
  Tier::Bf16ToF32Row(ab.data(), m, o.widened.data());
  o.rounded = ab;
  Tier::F32ToBf16Row(b.data(), m, true, o.rounded.data());
  const std::vector<bf16_t> w = Bf16(Values(64 * 64, 4));
  o.interleaved.resize(128);
  Tier::InterleaveRowPair64(w.data(), w.data() + 64, o.interleaved.data());
  o.transposed.assign(16 * 64 * 2, 0);
  Tier::TransposePairs16x16(w.data(), 64, o.transposed.data());
  o.gathered.assign(32 * 64, 7);
  Tier::TransposeRowsBf16([&](int64_t i) -> const bf16_t* { return i < 20 ? w.data() + (i * 7 % 64) * 64 : nullptr; },
                          32, 64, o.gathered.data(), 32);
  o.cast.resize(m);
  Tier::CastScaleChunk(a.data(), o.cast.data(), m, 2.0f);
  return o;
}

#define MOELOG_TIER(ns)                                                                                  \
  struct Tier_##ns {                                                                                     \
    template <typename... A> static auto SwiGluRow(A... a) { return ns::SwiGluRow(a...); }               \
    template <typename... A> static auto SwiGluBackwardRow(A... a) { return ns::SwiGluBackwardRow(a...); } \
    template <typename... A> static auto AbsMax(A... a) { return ns::AbsMax(a...); }                     \
    template <typename... A> static auto QuantizeWithScale(A... a) { return ns::QuantizeWithScale(a...); } \
    template <typename... A> static auto DequantizeRow(A... a) { return ns::DequantizeRow(a...); }       \
    template <typename... A> static auto Int8SwiGluQuantRow(A... a) { return ns::Int8SwiGluQuantRow(a...); } \
    template <typename... A> static auto PairScaleAddBf16Row(A... a) { return ns::PairScaleAddBf16Row(a...); } \
    template <typename... A> static auto PairAddBf16Row(A... a) { return ns::PairAddBf16Row(a...); }     \
    template <typename... A> static auto ScaledGradRow(A... a) { return ns::ScaledGradRow(a...); }       \
    template <typename... A> static auto StoreRow(A... a) { return ns::StoreRow(a...); }                 \
    template <typename... A> static auto Bf16ToF32Row(A... a) { return ns::Bf16ToF32Row(a...); }         \
    template <typename... A> static auto F32ToBf16Row(A... a) { return ns::F32ToBf16Row(a...); }         \
    template <typename... A> static auto InterleaveRowPair64(A... a) { return ns::InterleaveRowPair64(a...); } \
    template <typename... A> static auto TransposePairs16x16(A... a) { return ns::TransposePairs16x16(a...); } \
    template <typename F, typename... A> static auto TransposeRowsBf16(F f, A... a) {                   \
      return ns::TransposeRowsBf16(f, a...);                                                             \
    }                                                                                                    \
    template <typename... A> static auto CastScaleChunk(A... a) { return ns::CastScaleChunk(a...); }     \
  };
MOELOG_TIER(kernels_base)
MOELOG_TIER(kernels_avx2)
MOELOG_TIER(kernels_avx512)
MOELOG_TIER(kernels_avx512bf16)
#undef MOELOG_TIER

void ExpectSameAsBaseline(const TierOutputs& t, const TierOutputs& base) {
  // Exact: conversions, layouts, quantization of the same values, maxima.
  EXPECT_EQ(t.widened, base.widened);
  EXPECT_EQ(t.stored, base.stored);
  EXPECT_EQ(t.rounded, base.rounded);
  EXPECT_EQ(t.interleaved, base.interleaved);
  EXPECT_EQ(t.transposed, base.transposed);
  EXPECT_EQ(t.gathered, base.gathered);
  EXPECT_EQ(t.cast, base.cast);
  EXPECT_EQ(t.amax, base.amax);
  EXPECT_EQ(t.q, base.q);
  EXPECT_EQ(t.dequant, base.dequant);
  EXPECT_EQ(t.pair, base.pair);
  EXPECT_EQ(t.pair_scaled, base.pair_scaled);
  EXPECT_EQ(t.grad, base.grad);
  // The sigmoid's exp and reciprocal differ in the last bits between the
  // explicit vectors and the portable loops: one bf16 rounding step at most.
  ExpectClose(t.swiglu_f32, base.swiglu_f32, 1e-5f, "swiglu f32");
  ExpectClose(Widen(t.swiglu_bf16), Widen(base.swiglu_bf16), 1.0f / 128, "swiglu bf16");
  ExpectClose(t.dgate, base.dgate, 1e-5f, "dgate");
  ExpectClose(t.dup, base.dup, 1e-5f, "dup");
  EXPECT_NEAR(t.hscale, base.hscale, 1e-2f * base.hscale);
  int off = 0;
  for (size_t i = 0; i < t.hq.size(); ++i) off += std::abs(t.hq[i] - base.hq[i]) > 1;
  EXPECT_EQ(off, 0) << "int8 h differs by more than one step";
}

TEST(KernelTiers, EveryTierThisCpuRunsMatchesTheBaseline) {
  const TierOutputs base = RunTier(Tier_kernels_base{});
  const KernelIsa cpu = CpuKernelIsa();
  if (cpu >= KernelIsa::kAvx2) {
    SCOPED_TRACE("avx2");
    ExpectSameAsBaseline(RunTier(Tier_kernels_avx2{}), base);
  }
  if (cpu >= KernelIsa::kAvx512) {
    SCOPED_TRACE("avx512");
    ExpectSameAsBaseline(RunTier(Tier_kernels_avx512{}), base);
  }
  if (cpu >= KernelIsa::kAvx512Bf16) {
    SCOPED_TRACE("avx512_bf16");
    ExpectSameAsBaseline(RunTier(Tier_kernels_avx512bf16{}), base);
  }
  if (cpu < KernelIsa::kAvx2) GTEST_SKIP() << "only the baseline tier runs on this CPU";
}

TEST(KernelTiers, ActiveTierIsWhatTheCpuAndTheCapsAllow) {
  const CpuCaps& c = Caps();
  EXPECT_LE(static_cast<int>(c.kernels), static_cast<int>(CpuKernelIsa()));
  const std::string d = c.Describe();
  EXPECT_EQ(d.rfind("isa=" + c.onednn_isa + " bf16=", 0), 0u) << d;
  EXPECT_NE(d.find(std::string("kernels=") + KernelIsaName(c.kernels)), std::string::npos) << d;
  if (c.onednn_isa == "avx2" || c.onednn_isa == "avx2_vnni") {
    EXPECT_LE(static_cast<int>(c.kernels), static_cast<int>(KernelIsa::kAvx2));
  }
}

// Product of bf16 a [m, k] and b [k, n] in double, rounded like the output.
std::vector<double> Reference(const Tensor& a, const Tensor& b, int64_t m, int64_t k, int64_t n, const Tensor* c0) {
  std::vector<double> r(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = c0 != nullptr ? c0->Get(i * n + j) : 0.0;
      for (int64_t p = 0; p < k; ++p) s += static_cast<double>(a.Get(i * k + p)) * b.Get(p * n + j);
      r[static_cast<size_t>(i * n + j)] = s;
    }
  return r;
}

void ExpectBf16Product(const Tensor& c, const std::vector<double>& ref, const std::string& what) {
  for (int64_t i = 0; i < c.numel(); ++i) {
    const double want = ref[static_cast<size_t>(i)];
    // One bf16 rounding of an f32 sum: half an ulp of bf16 plus f32 noise.
    ASSERT_LE(std::fabs(c.Get(i) - want), std::fabs(want) / 256.0 + 1e-4) << what << " at " << i;
  }
}

// The f32-compute mode against a double reference, for every kind of call
// the engine makes: view and packed weights, bf16 and f32 outputs,
// accumulation, a transposed (strided) left operand, and a batch.
TEST(Bf16F32Compute, EqualsTheReferenceForEveryCallKind) {
  MatmulRunner mm(false);
  EXPECT_FALSE(mm.bf16_native());
  const int64_t m = 37, k = 96, n = 128;
  Tensor a(DType::kBF16, {m, k}), at(DType::kBF16, {k, m}), b(DType::kBF16, {k, n});
  Fill(&a, 1);
  Fill(&b, 2);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) at.Set(p * m + i, a.Get(i * k + p));
  const std::vector<double> ref = Reference(a, b, m, k, n, nullptr);
  const MatView av = MatView::RowMajor(a.data(), DType::kBF16, m, k, k);
  const MatView bv = MatView::RowMajor(b.data(), DType::kBF16, k, n, n);
  for (DType out : {DType::kBF16, DType::kF32}) {
    Tensor c(out, {m, n});
    mm.Run(av, bv, OutView{c.data(), out, m, n, n});
    ExpectBf16Product(c, ref, "view");
    PackedMatrix p = mm.Pack(bv);
    ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
    EXPECT_EQ(p.dtype(), DType::kBF16);
    Tensor c2(out, {m, n});
    mm.Run(av, p, OutView{c2.data(), out, m, n, n});
    ExpectBf16Product(c2, ref, "packed");
    Tensor c3(out, {m, n});
    mm.Run(MatView::RowMajor(at.data(), DType::kBF16, k, m, m).T(), p, OutView{c3.data(), out, m, n, n});
    ExpectBf16Product(c3, ref, "transposed a");
    // A transposed b view (the backward's W^T): widened in its own order.
    Tensor bt(DType::kBF16, {n, k});
    for (int64_t p2 = 0; p2 < k; ++p2)
      for (int64_t j = 0; j < n; ++j) bt.Set(j * k + p2, b.Get(p2 * n + j));
    Tensor c5(out, {m, n});
    mm.Run(MatView::RowMajor(at.data(), DType::kBF16, k, m, m).T(), MatView::RowMajor(bt.data(), DType::kBF16, n, k, k).T(),
           OutView{c5.data(), out, m, n, n});
    ExpectBf16Product(c5, ref, "transposed a and b");
    // Accumulate: c3 += a @ b.
    Tensor c0(out, {m, n});
    for (int64_t i = 0; i < c0.numel(); ++i) c0.Set(i, c3.Get(i));
    mm.Run(av, p, OutView{c3.data(), out, m, n, n}, /*accumulate=*/true);
    ExpectBf16Product(c3, Reference(a, b, m, k, n, &c0), "accumulate");
    // A batch of row tiles on several threads.
    Tensor c4(out, {m, n});
    std::vector<MatmulJob> jobs;
    for (int64_t r = 0; r < m; r += 8) {
      MatmulJob j;
      const int64_t rows = std::min<int64_t>(8, m - r);
      j.a = MatView::RowMajor(a.as<bf16_t>() + r * k, DType::kBF16, rows, k, k);
      j.packed = &p;
      j.c = OutView{static_cast<char*>(c4.data()) + r * n * DTypeSize(out), out, rows, n, n};
      jobs.push_back(j);
    }
    mm.RunBatch(jobs);
    ExpectBf16Product(c4, ref, "batch");
  }
  ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
}

// Native bf16 where oneDNN has it, else a clear NotSupported error naming
// the shape, dtype, ISA and the way out (never "internal error").
TEST(Bf16F32Compute, NativeBf16WithoutTheIsaIsAClearError) {
  MatmulRunner mm(true);
  const int64_t m = 16, k = 64, n = 64;
  Tensor a(DType::kBF16, {m, k}), b(DType::kBF16, {k, n}), c(DType::kBF16, {m, n});
  Fill(&a, 3);
  Fill(&b, 4);
  PackedMatrix p = mm.Pack(MatView::RowMajor(b.data(), DType::kBF16, k, n, n));
  if (mm.status().ok()) mm.Run(MatView::RowMajor(a.data(), DType::kBF16, m, k, k), p, OutView{c.data(), DType::kBF16, m, n, n});
  if (Caps().bf16_native) {
    ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
    ExpectBf16Product(c, Reference(a, b, m, k, n, nullptr), "native");
    return;
  }
  ASSERT_FALSE(mm.status().ok());
  EXPECT_EQ(mm.status().code(), Status::Code::kNotSupported);
  EXPECT_EQ(mm.status().ExitCode(), kExitUnsupported);
  const std::string msg = mm.status().ToString();
  EXPECT_NE(msg.find("bfloat16"), std::string::npos) << msg;
  EXPECT_NE(msg.find("isa=" + Caps().onednn_isa), std::string::npos) << msg;
  EXPECT_NE(msg.find("--dtype float32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("MOELOG_BF16"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("internal error"), std::string::npos) << msg;
}

}  // namespace
}  // namespace moelog::engine::cpu
