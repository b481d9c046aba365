// Elementwise kernels of the CPU engine: SiLU/SwiGLU forward and backward,
// int8 quantization and dtype casts, typed on the storage (float or bf16_t).
// Each exists in four tiers (isa.h): the x86-64 baseline and AVX2 (the loops
// of kernels_portable.inc, vectorized by the compiler) and AVX-512 with and
// without AVX512_BF16 (explicit vectors, kernels_avx512.inc). Each tier is
// compiled for its ISA alone; the entry points below pick one at run time
// from ActiveKernelIsa(). Every tier gives the same results.
#ifndef MOELOG_ENGINE_CPU_KERNELS_H_
#define MOELOG_ENGINE_CPU_KERNELS_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <immintrin.h>

#include "engine/cpu/isa.h"
#include "engine/cpu/tensor.h"

namespace moelog::engine::cpu {

template <typename T>
inline float ToF(T v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else return std::bit_cast<float>(static_cast<uint32_t>(v) << 16);
}

// Round to nearest even (no NaN special case: NaN inputs give a NaN or Inf
// pattern, either way non-finite). Branch-free, so `omp simd` loops
// vectorize it.
template <typename T>
inline T FromF(float f) {
  if constexpr (std::is_same_v<T, float>) {
    return f;
  } else {
    uint32_t u = std::bit_cast<uint32_t>(f);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<T>(u >> 16);
  }
}

// exp(x) for float, relative error about 2e-7 (Cephes exp2f polynomial),
// branch-free so it vectorizes. Inputs are clamped to [-87, 88].
inline float FastExp(float x) {
  x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
  const float t = x * 1.44269504088896341f;
  // Round to nearest with the 1.5*2^23 trick (|t| < 2^22), branch-free.
  const float fi = (t + 12582912.0f) - 12582912.0f;
  const float f = t - fi;
  float p = 1.535336188319500e-4f;
  p = p * f + 1.339887440266574e-3f;
  p = p * f + 9.618437357674640e-3f;
  p = p * f + 5.550332471162809e-2f;
  p = p * f + 2.402264791363012e-1f;
  p = p * f + 6.931472028550421e-1f;
  p = p * f + 1.0f;
  const int32_t i = static_cast<int32_t>(fi);
  return p * std::bit_cast<float>(static_cast<uint32_t>(i + 127) << 23);
}

inline float FastSigmoid(float z) { return 1.0f / (1.0f + FastExp(-z)); }

// ------------------------------------------------------ int8 row kernels --
// Symmetric per-row int8 quantization (harness 2.9) and the int8 matmul
// epilogues, one row at a time so they can run inside a matmul tile's
// epilogue.

// round_half_even(v), exact for |v| < 2^22 (quantized values are within
// +-128): adding and subtracting 1.5 * 2^23 rounds in the default
// round-to-nearest-even mode, and unlike std::nearbyint it vectorizes.
inline float RoundHalfEven(float v) { return (v + 12582912.0f) - 12582912.0f; }

// scale = amax / 127 + FLT_MIN (never 0).
inline float QuantScale(float amax) { return amax / 127.0f + std::numeric_limits<float>::min(); }

// ------------------------------------------------------ the four tiers --
#define MOELOG_KT
namespace kernels_base {
#include "engine/cpu/kernels_portable.inc"
}  // namespace kernels_base
#undef MOELOG_KT

#define MOELOG_KT __attribute__((target("avx2,fma,f16c")))
namespace kernels_avx2 {
#include "engine/cpu/kernels_portable.inc"
}  // namespace kernels_avx2
#undef MOELOG_KT

// GCC 12 reports the deliberately undefined pass-through operands inside its
// own AVX-512 intrinsic headers as maybe-uninitialized once inlined here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#define MOELOG_KT __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define MOELOG_AVX512_BF16 0
namespace kernels_avx512 {
#include "engine/cpu/kernels_avx512.inc"
}  // namespace kernels_avx512
#undef MOELOG_KT
#undef MOELOG_AVX512_BF16
#define MOELOG_KT __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))
#define MOELOG_AVX512_BF16 1
namespace kernels_avx512bf16 {
#include "engine/cpu/kernels_avx512.inc"
}  // namespace kernels_avx512bf16
#undef MOELOG_KT
#undef MOELOG_AVX512_BF16
#pragma GCC diagnostic pop

// `return <tier>::call` for the active tier.
#define MOELOG_KERNEL_DISPATCH(...)                                      \
  switch (ActiveKernelIsa()) {                                           \
    case KernelIsa::kAvx512Bf16: return kernels_avx512bf16::__VA_ARGS__; \
    case KernelIsa::kAvx512: return kernels_avx512::__VA_ARGS__;         \
    case KernelIsa::kAvx2: return kernels_avx2::__VA_ARGS__;             \
    default: return kernels_base::__VA_ARGS__;                           \
  }

// ------------------------------------------------------- entry points --

// memcpy(dst, src, bytes); with AVX-512, non-temporal stores where dst is
// 64-byte aligned and bytes a multiple of 64 (for a block written once and
// read much later: no read-for-ownership, no eviction of the caller's data).
inline void StreamCopy(void* dst, const void* src, size_t bytes) { MOELOG_KERNEL_DISPATCH(StreamCopy(dst, src, bytes)) }

template <typename TS, typename TD>
void CastScaleChunk(const TS* src, TD* dst, int64_t n, float scale) {
  MOELOG_KERNEL_DISPATCH(CastScaleChunk<TS, TD>(src, dst, n, scale))
}

// dst[i] = src[i] (* scale) converted, parallel.
template <typename TS, typename TD>
void CastScale(const TS* src, TD* dst, int64_t n, float scale = 1.0f) {
  constexpr int64_t kChunk = 4096;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i += kChunk) CastScaleChunk(src + i, dst + i, std::min(kChunk, n - i), scale);
}

// dst[j * ldd + i] = row(i)[j] for j < cols and i < rows_pad, where row(i)
// returns row i of the source (const bf16_t*) or nullptr for a zero row:
// the transposed [cols, rows_pad] matrix of (possibly gathered) rows. The
// weight-gradient matmuls use it to turn token-major rows into a plain left
// operand. REQUIRES: cols % 16 == 0, rows_pad % 32 == 0.
template <typename RowFn>
void TransposeRowsBf16(RowFn&& row, int64_t rows_pad, int64_t cols, bf16_t* dst, int64_t ldd) {
  MOELOG_KERNEL_DISPATCH(TransposeRowsBf16(row, rows_pad, cols, dst, ldd))
}

// TransposeRowsBf16 of a row-major [rows, cols] matrix (row stride lds),
// zero-padded to rows_pad rows. REQUIRES: rows <= rows_pad.
inline void TransposeBf16(const bf16_t* src, int64_t rows, int64_t cols, int64_t lds, int64_t rows_pad, bf16_t* dst,
                          int64_t ldd) {
  TransposeRowsBf16([&](int64_t i) { return i < rows ? src + i * lds : nullptr; }, rows_pad, cols, dst, ldd);
}

// h = SiLU(a) * b * s for one row of m values.
template <typename TA, typename TH>
void SwiGluRow(const TA* a, const TA* b, int64_t m, float s, TH* h) {
  MOELOG_KERNEL_DISPATCH(SwiGluRow(a, b, m, s, h))
}

// h[r, j] = SiLU(a) * b * scale_r for rows [0, rows), j < m; a at
// ab[r*ld + j], b at ab[b_off + r*ld + j]; scale_r = row_scale[r] or 1.
template <typename TA, typename TH>
void SwiGluRows(const TA* ab, int64_t ld, int64_t b_off, int64_t rows, int64_t m, const float* row_scale, TH* h,
                int64_t ldh) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    SwiGluRow(ab + r * ld, ab + b_off + r * ld, m, row_scale != nullptr ? row_scale[r] : 1.0f, h + r * ldh);
}

template <typename TA, typename TD, typename TO>
void SwiGluBackwardRow(const TA* a, const TA* b, const TD* d, int64_t m, float s, TO* da, TO* db) {
  MOELOG_KERNEL_DISPATCH(SwiGluBackwardRow(a, b, d, m, s, da, db))
}

// Backward of SwiGluRows: with d = dh * scale_r, da = d * b * SiLU'(a) and
// db = d * SiLU(a), written with the same layout as ab.
template <typename TA, typename TD, typename TO>
void SwiGluBackwardRows(const TA* ab, int64_t ld, int64_t b_off, int64_t rows, int64_t m, const float* row_scale,
                        const TD* dh, int64_t lddh, TO* dab) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    SwiGluBackwardRow(ab + r * ld, ab + b_off + r * ld, dh + r * lddh, m, row_scale != nullptr ? row_scale[r] : 1.0f,
                      dab + r * ld, dab + b_off + r * ld);
}

// max |src[j]|, j < n.
template <typename T>
float AbsMax(const T* src, int64_t n) {
  MOELOG_KERNEL_DISPATCH(AbsMax(src, n))
}

// q[j] = clip(round_half_even(src[j] / scale), +-127), j < n.
template <typename T>
void QuantizeWithScale(const T* src, int64_t n, float scale, int8_t* q) {
  MOELOG_KERNEL_DISPATCH(QuantizeWithScale(src, n, scale, q))
}

// Quantizes one row of n values of src: returns the scale, writes q[0, n).
template <typename T>
float QuantizeRow(const T* src, int64_t n, int8_t* q) {
  const float scale = QuantScale(AbsMax(src, n));
  QuantizeWithScale(src, n, scale, q);
  return scale;
}

// out[j] = T(acc[j] * s), j < n: the dequantization of an s32 accumulator
// row (s = row scale * expert scale).
template <typename T>
void DequantizeRow(const int32_t* acc, int64_t n, float s, T* out) {
  MOELOG_KERNEL_DISPATCH(DequantizeRow(acc, n, s, out))
}

// The int8 up projection's epilogue for one row, with the numerics of the
// unfused steps (dequantize to T, SwiGLU in f32 from the T values rounded to
// T, quantize that T row): gate = T(acc_gate * s_gate), up = T(acc_up *
// s_up), h = T(SiLU(gate) * up * w) for j < m; then h quantized per row into
// hq (returns its scale). ab_gate / ab_up / h_out, if not null, receive gate,
// up and h (the activations a backward pass needs).
template <typename T>
float Int8SwiGluQuantRow(const int32_t* acc_gate, const int32_t* acc_up, int64_t m, float s_gate, float s_up,
                         float w, float* hbuf, int8_t* hq, T* ab_gate, T* ab_up, T* h_out) {
  MOELOG_KERNEL_DISPATCH(Int8SwiGluQuantRow(acc_gate, acc_up, m, s_gate, s_up, w, hbuf, hq, ab_gate, ab_up, h_out))
}

// hi = bf16((0 + s1 * hi) + s2 * src), n values: the second of a token's two
// combine contributions, the first kept as it came with its scale s1.
template <typename TS>
void PairScaleAddBf16Row(bf16_t* hi, const TS* src, float s1, float s2, int64_t n) {
  MOELOG_KERNEL_DISPATCH(PairScaleAddBf16Row(hi, src, s1, s2, n))
}

// hi = bf16(0 + src) (first) or bf16(hi + src): a token's two unscaled bf16
// contributions, summed exactly in f32 and rounded once.
template <typename TS>
void PairAddBf16Row(bf16_t* hi, const TS* src, bool first, int64_t n) {
  MOELOG_KERNEL_DISPATCH(PairAddBf16Row(hi, src, first, n))
}

// d = T(s * T(src * dout_scale)), n values.
template <typename T>
void ScaledGradRow(const T* src, float dout_scale, float s, int64_t n, T* d) {
  MOELOG_KERNEL_DISPATCH(ScaledGradRow(src, dout_scale, s, n, d))
}

// dst = T(src), n values.
template <typename T>
void StoreRow(const float* src, int64_t n, T* dst) {
  MOELOG_KERNEL_DISPATCH(StoreRow(src, n, dst))
}

// dst = f32(src), n bf16 values (exact).
inline void Bf16ToF32Row(const bf16_t* src, int64_t n, float* dst) { MOELOG_KERNEL_DISPATCH(Bf16ToF32Row(src, n, dst)) }

// dst = bf16(src) or, accumulating, bf16(f32(dst) + src): the bf16 output of
// a matmul computed in f32, rounded once like oneDNN's sum post-op.
inline void F32ToBf16Row(const float* src, int64_t n, bool accumulate, bf16_t* dst) {
  MOELOG_KERNEL_DISPATCH(F32ToBf16Row(src, n, accumulate, dst))
}

// out[2j] = r0[j], out[2j+1] = r1[j] for j < 64 (one row pair of the VNNI
// weight layout).
inline void InterleaveRowPair64(const bf16_t* r0, const bf16_t* r1, bf16_t* out) {
  MOELOG_KERNEL_DISPATCH(InterleaveRowPair64(r0, r1, out))
}

// The 16x16 transpose of 32-bit words (bf16 pairs) at src (row stride ld
// bf16 values): out[(p * 64 + i) * 2 + {0,1}] = src[i * ld + 2p + {0,1}].
inline void TransposePairs16x16(const bf16_t* src, int64_t ld, bf16_t* out) {
  MOELOG_KERNEL_DISPATCH(TransposePairs16x16(src, ld, out))
}

// Calls fn(T{}) with T = float or bf16_t per dtype (kF32 / kBF16).
template <typename Fn>
void DispatchFloat(DType dt, Fn&& fn) {
  if (dt == DType::kF32) fn(float{});
  else fn(bf16_t{});
}

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_KERNELS_H_
