// The memory-bound kernels around the CPU engine's matmuls, each against the
// alternative it replaced, interleaved in one process (A call, B call, A
// call, ...) on one thread. Each benchmark reports both variants' median and
// best times (µs) and `speedup`, the median over rounds of time(A) / time(B)
// for the pair taken together.
//
//   BM_Bf16Store        a SwiGLU tile (512 x 512, bf16) stored through FromF's
//                       integer rounding (A) or vcvtneps2bf16 (B)
//   BM_PairCombine      a top-2 combine's second add into 512 random token
//                       rows of a [8192, 1024] bf16 y: the scalar FromF loop
//                       (A) or explicit vectors (B)
//   BM_TransposePad     the backward's x transpose of 1024 random rows of a
//                       [8192, 1024] x, tokens padded to 1024 (A) or 1056 (B)
//   BM_DwMatmulPad      oneDNN's f32-output weight-gradient matmul
//                       [1024, K] x [K, 1024] at K = 1024 (A) or 1056 (B),
//                       speedup per FLOP
//
// Run pinned: OMP_NUM_THREADS=1 taskset -c 0 build-rel/tests/cpu_kernels_bench
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "engine/cpu/kernels.h"
#include "engine/cpu/matmul.h"
#include "engine/cpu/tensor.h"
#include "tests/bench/bench_timing.h"

namespace moelog::engine::cpu {
namespace {

using ::moelog::bench::Seconds;
using ::moelog::bench::Median;

// Runs a and b alternately once per benchmark iteration; b_work / a_work
// scales the speedup when the two do different amounts of work.
void Paired(benchmark::State& state, const std::function<void()>& a, const std::function<void()>& b,
            double b_work_over_a = 1.0) {
  std::vector<double> ta, tb, ratio;
  a(), b();  // untimed first calls
  for (auto _ : state) {
    ta.push_back(Seconds(a));
    tb.push_back(Seconds(b));
    ratio.push_back(ta.back() / tb.back() * b_work_over_a);
  }
  state.counters["a_us_median"] = Median(ta) * 1e6;
  state.counters["b_us_median"] = Median(tb) * 1e6;
  state.counters["a_us_best"] = *std::min_element(ta.begin(), ta.end()) * 1e6;
  state.counters["b_us_best"] = *std::min_element(tb.begin(), tb.end()) * 1e6;
  state.counters["speedup"] = Median(ratio);
}

[[maybe_unused]] std::vector<bf16_t> Bf16Values(int64_t n, uint32_t seed) {
  std::vector<bf16_t> v(static_cast<size_t>(n));
  std::mt19937 g(seed);
  for (auto& x : v) x = FromF<bf16_t>(static_cast<float>(static_cast<int>(g() % 2001) - 1000) / 150.0f);
  return v;
}

// The AVX-512 probes below compare intrinsic variants; they are built where
// the compiler targets AVX512_BF16 itself (-DMOELOG_NATIVE=ON on such a CPU).
#if defined(__AVX512BF16__) && defined(__AVX512BW__) && defined(__AVX512VL__)
namespace simd = kernels_avx512bf16::simd;
template <__m256i (*Convert)(__m512)>
void SwiGluTile(const bf16_t* ab, int64_t rows, int64_t m, bf16_t* h) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < m; j += 16) {
      const __m512 a = simd::Load(ab + r * 2 * m + j), b = simd::Load(ab + r * 2 * m + m + j);
      const __m512 v = _mm512_mul_ps(_mm512_mul_ps(a, simd::Sigmoid(a)), b);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + r * m + j), Convert(v));
    }
}

void BM_Bf16Store(benchmark::State& state) {
  constexpr int64_t rows = 512, m = 512;
  const std::vector<bf16_t> ab = Bf16Values(rows * 2 * m, 1);
  std::vector<bf16_t> h(rows * m);
  Paired(state, [&] { SwiGluTile<simd::ToBf16Emulated>(ab.data(), rows, m, h.data()); },
         [&] { SwiGluTile<simd::ToBf16>(ab.data(), rows, m, h.data()); });
}
BENCHMARK(BM_Bf16Store)->Iterations(400)->Unit(benchmark::kMicrosecond);

__attribute__((optimize("fp-contract=off"))) void PairScalar(bf16_t* hi, const bf16_t* src, int64_t h, float s1,
                                                             float s2) {
#pragma omp simd
  for (int64_t j = 0; j < h; ++j) hi[j] = FromF<bf16_t>((0.0f + s1 * ToF(hi[j])) + s2 * ToF(src[j]));
}
__attribute__((optimize("fp-contract=off"))) void PairVector(bf16_t* hi, const bf16_t* src, int64_t h, float s1,
                                                             float s2) {
  const __m512 v1 = _mm512_set1_ps(s1), v2 = _mm512_set1_ps(s2), zero = _mm512_setzero_ps();
  for (int64_t j = 0; j < h; j += 16) {
    const __m512 a = _mm512_add_ps(zero, _mm512_mul_ps(v1, simd::Load(hi + j)));
    simd::Store(hi + j, _mm512_add_ps(a, _mm512_mul_ps(v2, simd::Load(src + j))));
  }
}

void BM_PairCombine(benchmark::State& state) {
  constexpr int64_t t = 8192, h = 1024, rows = 512;
  std::vector<bf16_t> y = Bf16Values(t * h, 2);
  const std::vector<bf16_t> tile = Bf16Values(rows * h, 3);
  std::mt19937 g(4);
  std::vector<int64_t> tok(rows);
  auto run = [&](auto add) {
    for (auto& v : tok) v = static_cast<int64_t>(g() % t);
    for (int64_t i = 0; i < rows; ++i) add(y.data() + tok[i] * h, tile.data() + i * h, h, 0.5f, 0.25f);
  };
  Paired(state, [&] { run(PairScalar); }, [&] { run(PairVector); });
}
BENCHMARK(BM_PairCombine)->Iterations(400)->Unit(benchmark::kMicrosecond);

void BM_TransposePad(benchmark::State& state) {
  constexpr int64_t t = 8192, h = 1024, rows = 1024;
  const std::vector<bf16_t> x = Bf16Values(t * h, 5);
  Tensor dst(DType::kBF16, {h, 1056});  // 64-byte aligned, like the engine's buffers
  std::mt19937 g(6);
  std::vector<int64_t> idx(rows);
  auto run = [&](int64_t pad) {
    for (auto& v : idx) v = static_cast<int64_t>(g() % t);
    std::sort(idx.begin(), idx.end());
    TransposeRowsBf16([&](int64_t i) -> const bf16_t* { return i < rows ? x.data() + idx[i] * h : nullptr; }, pad, h,
                      dst.as<bf16_t>(), pad);
  };
  Paired(state, [&] { run(1024); }, [&] { run(1056); }, 1056.0 / 1024.0);
}
BENCHMARK(BM_TransposePad)->Iterations(200)->Unit(benchmark::kMicrosecond);
#endif

void BM_DwMatmulPad(benchmark::State& state) {
  constexpr int64_t m = 1024, n = 1024;
  MatmulRunner mm;
  struct Case {
    Tensor a, b, c;
    PackedMatrix packed;
  };
  std::vector<Case> cases;
  for (int64_t k : {1024, 1056}) {
    Case c{Tensor(DType::kBF16, {m, k}), Tensor(DType::kBF16, {k, n}), Tensor(DType::kF32, {m, n}), {}};
    for (int64_t i = 0; i < c.a.numel(); ++i) c.a.Set(i, static_cast<float>((i % 13) - 6) * 0.1f);
    for (int64_t i = 0; i < c.b.numel(); ++i) c.b.Set(i, static_cast<float>((i % 7) - 3) * 0.1f);
    c.packed = mm.Pack(MatView::RowMajor(c.b.data(), DType::kBF16, k, n, n));
    cases.push_back(std::move(c));
  }
  auto run = [&](Case& c) {
    mm.Run(MatView::RowMajor(c.a.data(), DType::kBF16, m, c.a.dim(1), c.a.dim(1)), c.packed,
           OutView{c.c.data(), DType::kF32, m, n, n});
  };
  Paired(state, [&] { run(cases[0]); }, [&] { run(cases[1]); }, 1056.0 / 1024.0);
  if (!mm.status().ok()) state.SkipWithError(mm.status().ToString().c_str());
}
BENCHMARK(BM_DwMatmulPad)->Iterations(200)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace moelog::engine::cpu

BENCHMARK_MAIN();
