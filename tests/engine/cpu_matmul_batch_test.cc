// MatmulRunner::RunBatch: jobs spread over threads give exactly the results
// of the same matmuls run one by one, for prepacked and strided operands,
// accumulation, empty inner dimensions and epilogues.
#include <omp.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/cpu/isa.h"
#include "engine/cpu/kernels.h"
#include "engine/cpu/matmul.h"
#include "engine/cpu/tensor.h"
#include "tests/engine/cpu_test_fill.h"

namespace moelog::engine::cpu {
namespace {

// A grouped problem: `groups` row blocks of x [rows, k] times per-group
// weights [k, n], some groups empty.
struct Problem {
  std::vector<int64_t> sizes;
  int64_t k = 0, n = 0, rows = 0;
  Tensor x, w, wt;  // w: [G, k, n]; wt: [G, n, k] (used transposed)
  Problem(DType dt, std::vector<int64_t> s, int64_t kk, int64_t nn) : sizes(std::move(s)), k(kk), n(nn) {
    for (int64_t v : sizes) rows += v;
    const int64_t g = static_cast<int64_t>(sizes.size());
    x = Tensor(dt, {rows, k});
    w = Tensor(dt, {g, k, n});
    wt = Tensor(dt, {g, n, k});
    Fill(&x, 1);
    Fill(&w, 2);
    Fill(&wt, 3);
  }
};

// The jobs of one grouped matmul: packed or strided (transposed) weights.
std::vector<MatmulJob> Jobs(const Problem& p, DType dt, const std::vector<PackedMatrix>* packed, bool transposed,
                            Tensor* out, bool accumulate, std::vector<int>* epilogue_hits) {
  std::vector<MatmulJob> jobs;
  int64_t r0 = 0;
  const int64_t es = DTypeSize(dt);
  for (size_t g = 0; g < p.sizes.size(); ++g) {
    MatmulJob j;
    j.a = MatView::RowMajor(static_cast<const char*>(p.x.data()) + r0 * p.k * es, dt, p.sizes[g], p.k, p.k);
    if (packed != nullptr) {
      j.packed = &(*packed)[g];
    } else if (transposed) {
      j.b = MatView::RowMajor(p.wt.at(static_cast<int64_t>(g) * p.n * p.k), dt, p.n, p.k, p.k).T();
    } else {
      j.b = MatView::RowMajor(p.w.at(static_cast<int64_t>(g) * p.k * p.n), dt, p.k, p.n, p.n);
    }
    j.c = OutView{out->at(r0 * p.n), out->dtype(), p.sizes[g], p.n, p.n};
    j.accumulate = accumulate;
    if (epilogue_hits != nullptr) j.epilogue = [epilogue_hits, g] { (*epilogue_hits)[g] += 1; };
    jobs.push_back(std::move(j));
    r0 += p.sizes[g];
  }
  return jobs;
}

void ExpectSame(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.numel(), b.numel());
  int64_t diff = 0;
  for (int64_t i = 0; i < a.numel(); ++i) diff += a.Get(i) != b.Get(i);
  EXPECT_EQ(diff, 0);
}

class RunBatchTest : public ::testing::TestWithParam<DType> {};

TEST_P(RunBatchTest, ConcurrentEqualsSequential) {
  const DType dt = GetParam();
  // Enough jobs to take the concurrent path with 2+ threads; group 2 is empty.
  Problem p(dt, {37, 64, 0, 5, 128, 19, 1, 40}, 48, 80);
  MatmulRunner mm;
  std::vector<PackedMatrix> packed;
  for (size_t g = 0; g < p.sizes.size(); ++g)
    packed.push_back(mm.Pack(MatView::RowMajor(p.w.at(static_cast<int64_t>(g) * p.k * p.n), dt, p.k, p.n, p.n)));
  for (int mode = 0; mode < 3; ++mode) {
    const std::vector<PackedMatrix>* pk = mode == 0 ? &packed : nullptr;
    const bool transposed = mode == 2;
    // Reference: the same jobs one at a time through Run().
    Tensor want(DType::kF32, {p.rows, p.n}), got(DType::kF32, {p.rows, p.n});
    Fill(&want, 9);
    got.CopyFrom(want);
    for (const MatmulJob& j : Jobs(p, dt, pk, transposed, &want, true, nullptr)) {
      if (j.packed != nullptr) mm.Run(j.a, *j.packed, j.c, true);
      else mm.Run(j.a, j.b, j.c, true);
    }
    std::vector<int> hits(p.sizes.size(), 0);
    const int saved = omp_get_max_threads();
    omp_set_num_threads(2);
    mm.RunBatch(Jobs(p, dt, pk, transposed, &got, true, &hits));
    omp_set_num_threads(saved);
    ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
    ExpectSame(got, want);
    for (int h : hits) EXPECT_EQ(h, 1);  // every epilogue ran once, empty groups included
  }
}

TEST_P(RunBatchTest, OverwriteAndEmptyInnerDimension) {
  const DType dt = GetParam();
  MatmulRunner mm;
  // dW-style jobs: A = x_g^T [k, rows_g], B = y_g [rows_g, n]; rows_g = 0
  // must write zeros (not leave stale values).
  Problem p(dt, {30, 0, 12, 50, 0, 7}, 24, 40);
  Tensor y(dt, {p.rows, p.n});
  Fill(&y, 5);
  const int64_t g = static_cast<int64_t>(p.sizes.size());
  Tensor want(DType::kF32, {g, p.k, p.n}), got(DType::kF32, {g, p.k, p.n});
  Fill(&got, 11);  // stale values
  std::vector<MatmulJob> jobs;
  int64_t r0 = 0;
  for (int64_t e = 0; e < g; ++e) {
    const int64_t n = p.sizes[static_cast<size_t>(e)];
    MatmulJob j;
    j.a = MatView::RowMajor(p.x.at(r0 * p.k), dt, n, p.k, p.k).T();
    j.b = MatView::RowMajor(y.at(r0 * p.n), dt, n, p.n, p.n);
    j.c = OutView{got.at(e * p.k * p.n), DType::kF32, p.k, p.n, p.n};
    mm.Run(j.a, j.b, OutView{want.at(e * p.k * p.n), DType::kF32, p.k, p.n, p.n});
    jobs.push_back(std::move(j));
    r0 += n;
  }
  const int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  mm.RunBatch(jobs);
  omp_set_num_threads(saved);
  ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
  ExpectSame(got, want);
  for (int64_t i = 0; i < p.k * p.n; ++i) EXPECT_EQ(got.Get(1 * p.k * p.n + i), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RunBatchTest, ::testing::Values(DType::kF32, DType::kBF16));

// Weights repacked by MatmulRunner's own bf16 kernel (Repack,
// RepackColumns) give the same matmul as the plain weights, for shapes the
// kernel takes and shapes it leaves to oneDNN's reorder.
TEST(PackTest, RepackGivesThePlainWeightsProduct) {
  MatmulRunner mm;
  for (const auto& [k, n] : std::vector<std::pair<int64_t, int64_t>>{{64, 128}, {96, 192}, {40, 72}, {64, 100}}) {
    Tensor x(DType::kBF16, {37, k}), w(DType::kBF16, {k, n}), w2(DType::kBF16, {k, n});
    Fill(&x, 5);
    Fill(&w, 6);
    Fill(&w2, 7);
    PackedMatrix p = mm.Pack(MatView::RowMajor(w2.data(), DType::kBF16, k, n, n));
    mm.Repack(MatView::RowMajor(w.data(), DType::kBF16, k, n, n), &p);  // overwrites w2's values
    Tensor plain(DType::kF32, {37, n}), packed(DType::kF32, {37, n});
    mm.Run(MatView::RowMajor(x.data(), DType::kBF16, 37, k, k), MatView::RowMajor(w.data(), DType::kBF16, k, n, n),
           OutView{plain.data(), DType::kF32, 37, n, n});
    mm.Run(MatView::RowMajor(x.data(), DType::kBF16, 37, k, k), p, OutView{packed.data(), DType::kF32, 37, n, n});
    ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
    SCOPED_TRACE("k=" + std::to_string(k) + " n=" + std::to_string(n));
    ExpectSame(plain, packed);
  }
}

// Two halves packed into the columns of one matrix equal the packed
// concatenation; shapes the kernel does not take are refused untouched.
TEST(PackTest, RepackColumnsEqualsPackedConcatenation) {
  MatmulRunner mm;
  const int64_t k = 64, m = 128;
  Tensor a(DType::kBF16, {k, m}), b(DType::kBF16, {k, m}), cat(DType::kBF16, {k, 2 * m});
  Fill(&a, 8);
  Fill(&b, 9);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < m; ++j) {
      cat.Set(i * 2 * m + j, a.Get(i * m + j));
      cat.Set(i * 2 * m + m + j, b.Get(i * m + j));
    }
  PackedMatrix whole = mm.Pack(MatView::RowMajor(cat.data(), DType::kBF16, k, 2 * m, 2 * m));
  Tensor zero(DType::kBF16, {k, 2 * m});
  zero.Zero();
  PackedMatrix halves = mm.Pack(MatView::RowMajor(zero.data(), DType::kBF16, k, 2 * m, 2 * m));
  if (!halves.vnni64()) {
    EXPECT_FALSE(mm.RepackColumns(MatView::RowMajor(a.data(), DType::kBF16, k, m, m), 0, &halves));
    GTEST_SKIP() << "oneDNN picks another weight layout on this CPU (" << Caps().Describe() << ")";
  }
  ASSERT_TRUE(mm.RepackColumns(MatView::RowMajor(a.data(), DType::kBF16, k, m, m), 0, &halves));
  ASSERT_TRUE(mm.RepackColumns(MatView::RowMajor(b.data(), DType::kBF16, k, m, m), m, &halves));
  ASSERT_EQ(whole.desc().get_size(), halves.desc().get_size());
  const auto* pw = static_cast<const unsigned char*>(whole.memory().get_data_handle());
  const auto* ph = static_cast<const unsigned char*>(halves.memory().get_data_handle());
  EXPECT_EQ(std::vector<unsigned char>(pw, pw + whole.desc().get_size()),
            std::vector<unsigned char>(ph, ph + halves.desc().get_size()));
  // Column offsets or widths off the 64-column blocks are refused.
  EXPECT_FALSE(mm.RepackColumns(MatView::RowMajor(a.data(), DType::kBF16, k, 96, m), 0, &halves));
  EXPECT_FALSE(mm.RepackColumns(MatView::RowMajor(a.data(), DType::kBF16, k, 64, m), 32, &halves));
  EXPECT_FALSE(mm.RepackColumns(MatView::RowMajor(a.data(), DType::kBF16, k, m, m), 2 * m, &halves));
}

// The transposes of two row-major matrices packed into the row halves of
// one weight equal the packed [w1^T; w3^T]; views that are not transposes,
// or rows off the 32-row blocks, are refused.
TEST(PackTest, RepackRowsOfTransposesEqualsPackedTransposes) {
  MatmulRunner mm;
  const int64_t n = 128, k = 64;  // w1, w3: [n, k]; B = [w1^T; w3^T]: [2k, n]
  Tensor w1(DType::kBF16, {n, k}), w3(DType::kBF16, {n, k}), bt(DType::kBF16, {2 * k, n});
  Fill(&w1, 14);
  Fill(&w3, 15);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) {
      bt.Set(i * n + j, w1.Get(j * k + i));
      bt.Set((k + i) * n + j, w3.Get(j * k + i));
    }
  PackedMatrix want = mm.Pack(MatView::RowMajor(bt.data(), DType::kBF16, 2 * k, n, n));
  Tensor zero(DType::kBF16, {2 * k, n});
  zero.Zero();
  PackedMatrix got = mm.Pack(MatView::RowMajor(zero.data(), DType::kBF16, 2 * k, n, n));
  if (!got.vnni64()) {
    EXPECT_FALSE(mm.RepackRows(MatView::RowMajor(w1.data(), DType::kBF16, n, k, k).T(), 0, &got));
    GTEST_SKIP() << "oneDNN picks another weight layout on this CPU (" << Caps().Describe() << ")";
  }
  ASSERT_TRUE(mm.RepackRows(MatView::RowMajor(w1.data(), DType::kBF16, n, k, k).T(), 0, &got));
  ASSERT_TRUE(mm.RepackRows(MatView::RowMajor(w3.data(), DType::kBF16, n, k, k).T(), k, &got));
  ASSERT_EQ(want.desc().get_size(), got.desc().get_size());
  const auto* pw = static_cast<const unsigned char*>(want.memory().get_data_handle());
  const auto* pg = static_cast<const unsigned char*>(got.memory().get_data_handle());
  EXPECT_EQ(std::vector<unsigned char>(pw, pw + want.desc().get_size()),
            std::vector<unsigned char>(pg, pg + got.desc().get_size()));
  // Repack takes the transposed view whole.
  PackedMatrix whole = mm.Pack(MatView::RowMajor(zero.data(), DType::kBF16, k, n, n));
  mm.Repack(MatView::RowMajor(w1.data(), DType::kBF16, n, k, k).T(), &whole);
  PackedMatrix ref = mm.Pack(MatView::RowMajor(bt.data(), DType::kBF16, k, n, n));
  const auto* p1 = static_cast<const unsigned char*>(whole.memory().get_data_handle());
  const auto* p2 = static_cast<const unsigned char*>(ref.memory().get_data_handle());
  EXPECT_EQ(std::vector<unsigned char>(p1, p1 + whole.desc().get_size()),
            std::vector<unsigned char>(p2, p2 + ref.desc().get_size()));
  EXPECT_FALSE(mm.RepackRows(MatView::RowMajor(bt.data(), DType::kBF16, k, n, n), 0, &got));  // not a transpose
  EXPECT_FALSE(mm.RepackRows(MatView::RowMajor(w1.data(), DType::kBF16, n, 32, k).T(), 16, &got));  // row0 % 32
  EXPECT_FALSE(mm.RepackRows(MatView::RowMajor(w1.data(), DType::kBF16, n, k, k).T(), 2 * k, &got));  // past K
}

// TransposeBf16 writes the transposed matrix and zeros in the padding, and
// leaves memory past the rows it owns alone.
TEST(TransposeTest, TransposeBf16MatchesScalarTransposition) {
  for (const auto& [rows, cols, pad] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {45, 48, 64}, {64, 16, 64}, {1, 32, 32}, {100, 128, 128}}) {
    const int64_t lds = cols + 3, ldd = pad + 8;
    Tensor src(DType::kBF16, {rows, lds}), dst(DType::kBF16, {cols, ldd});
    Fill(&src, 11);
    for (int64_t i = 0; i < dst.numel(); ++i) dst.Set(i, 7.0f);
    TransposeBf16(src.as<bf16_t>(), rows, cols, lds, pad, dst.as<bf16_t>(), ldd);
    SCOPED_TRACE("rows=" + std::to_string(rows) + " cols=" + std::to_string(cols));
    for (int64_t j = 0; j < cols; ++j) {
      for (int64_t i = 0; i < pad; ++i)
        ASSERT_EQ(dst.Get(j * ldd + i), i < rows ? src.Get(i * lds + j) : 0.0f) << "at " << j << "," << i;
      for (int64_t i = pad; i < ldd; ++i) ASSERT_EQ(dst.Get(j * ldd + i), 7.0f);
    }
  }
}

// The vector bf16 conversions against FromF: the integer emulation gives its
// bits for every input; the instruction (where the CPU has it) for every
// normal value, zero and infinity, a signed zero for denormals and a NaN for
// NaNs. Random patterns plus ties and the special values, in full and masked
// stores, and RoundToBf16 as the widened store.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16"))) void CheckVectorStores() {
  namespace simd = kernels_avx512bf16::simd;
  std::vector<uint32_t> bits = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x80800000u,
                                0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffffffffu, 0x7fffffffu,
                                0x3f808000u, 0x3f818000u, 0x3f80ffffu, 0x7f7fffffu, 0x477fe000u, 0x3f7f8000u};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  while (bits.size() % 16 != 0 || bits.size() < 100000) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    bits.push_back(static_cast<uint32_t>(x));
  }
  for (size_t i = 0; i < bits.size(); i += 16) {
    float v[16], widened[16];
    std::memcpy(v, &bits[i], sizeof(v));
    const __m512 vv = _mm512_loadu_ps(v);
    bf16_t hw[16], emu[16], stored[16], tail[16] = {};
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hw), simd::ToBf16(vv));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(emu), simd::ToBf16Emulated(vv));
    simd::Store(stored, vv);
    const int n = static_cast<int>(i / 16 % 16);
    simd::Store(tail, vv, n);
    _mm512_storeu_ps(widened, simd::RoundToBf16(vv));
    for (int j = 0; j < 16; ++j) {
      SCOPED_TRACE(::testing::Message() << std::hex << "input bits " << bits[i + j]);
      const uint32_t b = bits[i + j], mag = b & 0x7fffffffu;
      ASSERT_EQ(emu[j], FromF<bf16_t>(v[j]));
      if (mag > 0x7f800000u) ASSERT_TRUE(std::isnan(ToF(hw[j])));
      else if (mag < 0x00800000u) ASSERT_EQ(hw[j], static_cast<bf16_t>((b >> 16) & 0x8000u));
      else ASSERT_EQ(hw[j], FromF<bf16_t>(v[j]));
      ASSERT_EQ(stored[j], hw[j]);
      ASSERT_EQ(tail[j], j < n ? hw[j] : 0) << "masked store of " << n;
      ASSERT_EQ(std::bit_cast<uint32_t>(widened[j]), static_cast<uint32_t>(hw[j]) << 16);
    }
  }
}

TEST(Bf16ConversionTest, VectorStoresRoundLikeFromF) {
  if (CpuKernelIsa() < KernelIsa::kAvx512Bf16) GTEST_SKIP() << "this CPU has no AVX512_BF16";
  CheckVectorStores();
}

// PackInto packs fewer rows than K with zeros below them, so that the
// product with any left operand ignores its padding columns, and refuses
// shapes outside the bf16 VNNI layout.
TEST(PackTest, PackIntoZeroPadsTheInnerDimension) {
  MatmulRunner mm;
  const int64_t m = 20, n = 128;
  {
    Tensor w(DType::kBF16, {64, n});
    w.Zero();
    if (!mm.Pack(MatView::RowMajor(w.data(), DType::kBF16, 64, n, n)).vnni64())
      GTEST_SKIP() << "oneDNN picks another weight layout on this CPU (" << Caps().Describe() << ")";
  }
  for (const int64_t rows : {37, 64, 1}) {
    const int64_t k = (rows + 31) / 32 * 32;
    Tensor a(DType::kBF16, {m, k}), b(DType::kBF16, {rows, n}), buf(DType::kBF16, {k, n});
    Fill(&a, 12);  // nonzero in the padding columns too
    Fill(&b, 13);
    for (int64_t i = 0; i < buf.numel(); ++i) buf.Set(i, 1.0f);  // stale contents
    PackedMatrix p;
    ASSERT_TRUE(mm.PackInto(MatView::RowMajor(b.data(), DType::kBF16, rows, n, n), k, buf.data(), &p));
    Tensor want(DType::kF32, {m, n}), got(DType::kF32, {m, n});
    mm.Run(MatView::RowMajor(a.data(), DType::kBF16, m, rows, k), MatView::RowMajor(b.data(), DType::kBF16, rows, n, n),
           OutView{want.data(), DType::kF32, m, n, n});
    mm.Run(MatView::RowMajor(a.data(), DType::kBF16, m, k, k), p, OutView{got.data(), DType::kF32, m, n, n});
    ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
    SCOPED_TRACE("rows=" + std::to_string(rows));
    ExpectSame(want, got);
  }
  Tensor b(DType::kBF16, {40, 128}), buf(DType::kBF16, {64, 128});
  Tensor f(DType::kF32, {32, 128});
  PackedMatrix p;
  EXPECT_FALSE(mm.PackInto(MatView::RowMajor(b.data(), DType::kBF16, 40, 128, 128), 40, buf.data(), &p));  // K % 32
  EXPECT_FALSE(mm.PackInto(MatView::RowMajor(b.data(), DType::kBF16, 40, 96, 128), 64, buf.data(), &p));   // N % 64
  EXPECT_FALSE(mm.PackInto(MatView::RowMajor(b.data(), DType::kBF16, 40, 128, 128), 32, buf.data(), &p));  // rows > K
  EXPECT_FALSE(mm.PackInto(MatView::RowMajor(f.data(), DType::kF32, 32, 128, 128), 32, buf.data(), &p));   // f32
  EXPECT_TRUE(p.empty());
}

// StreamCopy copies exactly the bytes asked for, with non-temporal stores
// (aligned destination, whole cache lines) or memcpy (anything else).
TEST(StreamCopyTest, CopiesExactlyTheBytesAlignedOrNot) {
  std::vector<unsigned char> src(8192 + 64);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  for (size_t dst_off : {size_t{0}, size_t{8}}) {
    for (size_t bytes : {size_t{0}, size_t{64}, size_t{4096}, size_t{4100}, size_t{8192}}) {
      Tensor dst_t(DType::kF32, {8192 / 4 + 64});  // 64-byte aligned
      unsigned char* dst = static_cast<unsigned char*>(dst_t.data());
      std::memset(dst, 0xAB, 8192 + 256);
      StreamCopy(dst + dst_off, src.data() + 3, bytes);
      EXPECT_EQ(std::memcmp(dst + dst_off, src.data() + 3, bytes), 0) << "offset " << dst_off << " bytes " << bytes;
      for (size_t i = 0; i < dst_off; ++i) ASSERT_EQ(dst[i], 0xAB);
      for (size_t i = dst_off + bytes; i < 8192 + 256; ++i) ASSERT_EQ(dst[i], 0xAB) << "byte " << i << " past the end";
    }
  }
}

}  // namespace
}  // namespace moelog::engine::cpu
