// The int8 row kernels (kernels.h), the fused pack+quant gather and
// MatmulJob::consume against plain scalar compositions of the same steps.
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "engine/cpu/kernels.h"
#include "engine/cpu/matmul.h"
#include "engine/cpu/moe_layer.h"

namespace moelog::engine::cpu {
namespace {

// Deterministic values in about [-scale, scale], with exact halves mixed in.
std::vector<float> Values(int64_t n, uint32_t seed, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = (static_cast<float>(static_cast<int32_t>(s >> 8) % 20001) / 10000.0f) * scale;
  }
  if (n > 3) {
    v[1] = 2.5f;
    v[2] = -3.5f;
  }
  return v;
}

// The harness's quantization, scalar: scale = amax/127 + FLT_MIN,
// q = clip(round_half_even(v / scale), +-127).
float ScalarQuantize(const std::vector<float>& v, std::vector<int8_t>* q) {
  float amax = 0;
  for (float x : v) amax = std::max(amax, std::fabs(x));
  const float scale = amax / 127.0f + std::numeric_limits<float>::min();
  q->resize(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    (*q)[i] = static_cast<int8_t>(std::clamp(std::nearbyint(v[i] / scale), -127.0f, 127.0f));
  return scale;
}

TEST(CpuInt8Kernels, QuantizeRowMatchesScalarForEveryTail) {
  for (int64_t n : {1, 5, 16, 17, 31, 64, 100, 1024}) {
    std::vector<float> v = Values(n, static_cast<uint32_t>(n), 3.0f);
    std::vector<int8_t> want, got(static_cast<size_t>(n) + 16, 77);
    const float ws = ScalarQuantize(v, &want);
    EXPECT_EQ(QuantizeRow(v.data(), n, got.data()), ws) << n;
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], want[static_cast<size_t>(i)]) << n << " " << i;
    for (size_t i = static_cast<size_t>(n); i < got.size(); ++i) ASSERT_EQ(got[i], 77) << "wrote past the row";
    // bf16 input: quantizes the bf16 values.
    std::vector<bf16_t> b(static_cast<size_t>(n));
    std::vector<float> bv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      b[static_cast<size_t>(i)] = F32ToBf16(v[static_cast<size_t>(i)]);
      bv[static_cast<size_t>(i)] = Bf16ToF32(b[static_cast<size_t>(i)]);
    }
    EXPECT_EQ(QuantizeRow(b.data(), n, got.data()), ScalarQuantize(bv, &want));
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], want[static_cast<size_t>(i)]) << n << " " << i;
  }
}

TEST(CpuInt8Kernels, DequantizeRowRoundsLikeFromF) {
  const int64_t n = 45;
  std::vector<int32_t> acc(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) acc[static_cast<size_t>(i)] = static_cast<int32_t>((i * 7919) % 20001 - 10000);
  std::vector<float> f(static_cast<size_t>(n) + 1, -1.0f);
  std::vector<bf16_t> b(static_cast<size_t>(n) + 1, 0x1234);
  DequantizeRow(acc.data(), n, 0.0173f, f.data());
  DequantizeRow(acc.data(), n, 0.0173f, b.data());
  for (int64_t i = 0; i < n; ++i) {
    const float want = static_cast<float>(acc[static_cast<size_t>(i)]) * 0.0173f;
    EXPECT_EQ(f[static_cast<size_t>(i)], want);
    EXPECT_EQ(b[static_cast<size_t>(i)], FromF<bf16_t>(want));
  }
  EXPECT_EQ(f[static_cast<size_t>(n)], -1.0f);
  EXPECT_EQ(b[static_cast<size_t>(n)], 0x1234);
}

// The fused epilogue equals dequantize -> SwiGLU -> quantize done in steps
// (up to the approximate sigmoid: h within 1e-6 relative, q within 1).
TEST(CpuInt8Kernels, FusedSwiGluQuantMatchesSteps) {
  for (int64_t m : {7, 16, 40, 512}) {
    std::vector<int32_t> acc(static_cast<size_t>(2 * m));
    for (int64_t i = 0; i < 2 * m; ++i) acc[static_cast<size_t>(i)] = static_cast<int32_t>((i * 104729) % 60001 - 30000);
    const float sg = 1.3e-4f, su = 2.1e-4f, w = 0.7f;
    std::vector<float> hbuf(static_cast<size_t>(m));
    std::vector<int8_t> q(static_cast<size_t>(m));
    std::vector<bf16_t> ga(static_cast<size_t>(m)), ua(static_cast<size_t>(m)), h(static_cast<size_t>(m));
    const float s = Int8SwiGluQuantRow<bf16_t>(acc.data(), acc.data() + m, m, sg, su, w, hbuf.data(), q.data(),
                                               ga.data(), ua.data(), h.data());
    std::vector<float> want_h(static_cast<size_t>(m));
    for (int64_t j = 0; j < m; ++j) {
      const bf16_t g = FromF<bf16_t>(static_cast<float>(acc[static_cast<size_t>(j)]) * sg);
      const bf16_t u = FromF<bf16_t>(static_cast<float>(acc[static_cast<size_t>(m + j)]) * su);
      EXPECT_EQ(ga[static_cast<size_t>(j)], g);
      EXPECT_EQ(ua[static_cast<size_t>(j)], u);
      const double gv = ToF(g);
      want_h[static_cast<size_t>(j)] = static_cast<float>(gv / (1.0 + std::exp(-gv)) * ToF(u) * w);
      EXPECT_NEAR(ToF(h[static_cast<size_t>(j)]), want_h[static_cast<size_t>(j)],
                  1e-2 * std::fabs(want_h[static_cast<size_t>(j)]) + 1e-12);
    }
    std::vector<int8_t> want_q;
    const float ws = ScalarQuantize(want_h, &want_q);
    EXPECT_NEAR(s, ws, 1e-2 * ws);
    for (int64_t j = 0; j < m; ++j) EXPECT_NEAR(q[static_cast<size_t>(j)], want_q[static_cast<size_t>(j)], 2) << j;
    // Without the activation outputs the quantized h is identical.
    std::vector<int8_t> q2(static_cast<size_t>(m));
    EXPECT_EQ(Int8SwiGluQuantRow<bf16_t>(acc.data(), acc.data() + m, m, sg, su, w, hbuf.data(), q2.data(), nullptr,
                                         nullptr, nullptr),
              s);
    EXPECT_EQ(q2, q);
  }
}

// Pack+quant fusion: with or without the float rows, xq/xq_scale are the
// per-token quantization gathered into the plan's rows (zero for rows
// without x).
TEST(CpuInt8Kernels, GatherRowsQuantizesEachTokenIntoItsRows) {
  const int64_t t = 37, h = 40, k = 2;
  Tensor x(DType::kBF16, {t, h});
  std::vector<float> v = Values(t * h, 5, 2.0f);
  for (int64_t i = 0; i < t * h; ++i) x.Set(i, v[static_cast<size_t>(i)]);
  PackPlan plan;
  plan.tokens = t;
  plan.topk = k;
  plan.rows = t * k + 6;  // 6 padding rows at the end
  for (int64_t r = 0; r < plan.rows; ++r) {
    const bool real = r < t * k;
    const int64_t p = real ? (r * 17) % (t * k) : -1;  // a permutation of the flat positions
    plan.flat.push_back(p);
    plan.token.push_back(real ? static_cast<int32_t>(p / k) : 0);
    plan.keep.push_back(real && r % 11 != 3 ? 1 : 0);  // some dropped rows
    plan.weight.push_back(real ? 0.5f : 0.0f);
  }
  for (bool float_rows : {true, false}) {
    PackedRows rows;
    GatherRows(x, plan, true, &rows, float_rows);
    EXPECT_EQ(rows.x.dtype(), DType::kBF16);
    EXPECT_EQ(rows.x.dim(0), float_rows ? plan.rows : 0);
    ASSERT_EQ(rows.xq.size(), static_cast<size_t>(plan.rows * h));
    for (int64_t r = 0; r < plan.rows; ++r) {
      if (!plan.keep[static_cast<size_t>(r)]) {
        EXPECT_EQ(rows.xq_scale[static_cast<size_t>(r)], 0.0f);
        for (int64_t j = 0; j < h; ++j) ASSERT_EQ(rows.xq[static_cast<size_t>(r * h + j)], 0);
        continue;
      }
      std::vector<float> tok(static_cast<size_t>(h));
      for (int64_t j = 0; j < h; ++j) tok[static_cast<size_t>(j)] = x.Get(plan.token[static_cast<size_t>(r)] * h + j);
      std::vector<int8_t> want;
      EXPECT_EQ(rows.xq_scale[static_cast<size_t>(r)], ScalarQuantize(tok, &want));
      for (int64_t j = 0; j < h; ++j) ASSERT_EQ(rows.xq[static_cast<size_t>(r * h + j)], want[static_cast<size_t>(j)]);
    }
  }
}

// consume jobs see exactly the output a plain job writes, on 1 and 2
// threads, including an empty inner dimension (zeros).
TEST(CpuInt8Kernels, ConsumeJobsSeeThePlainOutput) {
  const int64_t k = 64, n = 48;
  const std::vector<int64_t> sizes = {16, 48, 0, 32, 128, 16};
  int64_t rows = 0;
  for (int64_t s : sizes) rows += s;
  std::vector<int8_t> a(static_cast<size_t>(rows * k)), b(static_cast<size_t>(k * n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(static_cast<int>(i * 91 % 255) - 127);
  MatmulRunner mm;
  PackedMatrix pb = mm.Pack(MatView::RowMajor(b.data(), DType::kS8, k, n, n));
  std::vector<int32_t> want(static_cast<size_t>(rows * n));
  mm.Run(MatView::RowMajor(a.data(), DType::kS8, rows, k, k), pb, OutView{want.data(), DType::kS32, rows, n, n});
  for (int threads : {1, 2}) {
    std::vector<int32_t> got(static_cast<size_t>(rows * n), -1);
    std::vector<MatmulJob> jobs;
    int64_t r0 = 0;
    for (int64_t s : sizes) {
      MatmulJob j;
      j.a = MatView::RowMajor(a.data() + r0 * k, DType::kS8, s, k, k);
      j.packed = &pb;
      j.c = OutView{nullptr, DType::kS32, s, n, n};
      j.consume = [&got, r0, s, n](const OutView& c) {
        ASSERT_NE(c.data, nullptr);
        ASSERT_EQ(c.rows, s);
        const int32_t* p = static_cast<const int32_t*>(c.data);
        for (int64_t i = 0; i < s * n; ++i) got[static_cast<size_t>(r0 * n + i)] = p[i];
      };
      jobs.push_back(std::move(j));
      r0 += s;
    }
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    mm.RunBatch(jobs);
    omp_set_num_threads(saved);
    ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
    EXPECT_EQ(got, want) << threads << " threads";
  }
  // Empty inner dimension: the consumer sees zeros.
  std::vector<int32_t> seen;
  MatmulJob j;
  j.a = MatView::RowMajor(a.data(), DType::kS8, 4, 0, 1);
  j.b = MatView::RowMajor(b.data(), DType::kS8, 0, n, n);
  j.c = OutView{nullptr, DType::kS32, 4, n, n};
  j.consume = [&seen, n](const OutView& c) {
    const int32_t* p = static_cast<const int32_t*>(c.data);
    seen.assign(p, p + 4 * n);
  };
  mm.RunBatch({j});
  EXPECT_EQ(seen, std::vector<int32_t>(static_cast<size_t>(4 * n), 0));
}

}  // namespace
}  // namespace moelog::engine::cpu
