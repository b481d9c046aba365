// Vectorizable elementwise kernels of the CPU engine: SiLU/SwiGLU forward
// and backward and dtype casts, typed on the storage (float or bf16_t) so the
// inner loops compile to AVX-512 (`omp simd`).
#ifndef MOELOG_ENGINE_CPU_KERNELS_H_
#define MOELOG_ENGINE_CPU_KERNELS_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>
#define MOELOG_KERNELS_AVX512 1
#endif

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
// epilogue. AVX-512 paths where the compiler targets it (the engine is built
// with -march=native); the portable loops give the same results.

// round_half_even(v), exact for |v| < 2^22 (quantized values are within
// +-128): adding and subtracting 1.5 * 2^23 rounds in the default
// round-to-nearest-even mode, and unlike std::nearbyint it vectorizes.
inline float RoundHalfEven(float v) { return (v + 12582912.0f) - 12582912.0f; }

// scale = amax / 127 + FLT_MIN (never 0).
inline float QuantScale(float amax) { return amax / 127.0f + std::numeric_limits<float>::min(); }

#if defined(MOELOG_KERNELS_AVX512)
// GCC 12 reports the deliberately undefined pass-through operands inside its
// own AVX-512 intrinsic headers as maybe-uninitialized once inlined here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
namespace simd {
// 16 (or the first `n` < 16, rest zero) values of src as floats.
inline __m512 Load(const float* p, int64_t n = 16) {
  return n >= 16 ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << n) - 1u), p);
}
inline __m512 Load(const bf16_t* p, int64_t n = 16) {
  const __m256i h = n >= 16 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
                            : _mm256_maskz_loadu_epi16(static_cast<__mmask16>((1u << n) - 1u), p);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
inline __m512 LoadS32(const int32_t* p, int64_t n = 16) {
  const __m512i v = n >= 16 ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << n) - 1u), p);
  return _mm512_cvtepi32_ps(v);
}
// Stores 16 (or the first n) floats as float or bf16 (round to nearest even,
// the same as FromF).
inline void Store(float* p, __m512 v, int64_t n = 16) {
  if (n >= 16) _mm512_storeu_ps(p, v);
  else _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << n) - 1u), v);
}
// 16 floats as bf16 with FromF's integer rounding, packed into 16 16-bit
// lanes.
inline __m256i ToBf16Emulated(__m512 v) {
  const __m512i u = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  return _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), 16));
}
// The same with vcvtneps2bf16 where the CPU has it (one instruction instead
// of five). It rounds every normal value and infinity like FromF; denormals
// become a signed zero and NaNs a quiet NaN.
inline __m256i ToBf16(__m512 v) {
#if defined(__AVX512BF16__)
  return reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(v));
#else
  return ToBf16Emulated(v);
#endif
}
// v rounded to bf16 and widened back to float.
inline __m512 RoundToBf16(__m512 v) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(ToBf16(v)), 16));
}
inline void Store(bf16_t* p, __m512 v, int64_t n = 16) {
  const __m256i h = ToBf16(v);
  if (n >= 16) _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), h);
  else _mm256_mask_storeu_epi16(p, static_cast<__mmask16>((1u << n) - 1u), h);
}
// The value as stored in T and read back (bf16 rounding; identity for float).
template <typename T>
inline __m512 AsStored(__m512 v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else return RoundToBf16(v);
}
// q = clip(round_half_even(v / scale), +-127) for 16 (or the first n) values.
inline void StoreQuant(int8_t* q, __m512 v, __m512 scale, int64_t n = 16) {
  __m512 r = _mm512_div_ps(v, scale);
  r = _mm512_min_ps(_mm512_max_ps(r, _mm512_set1_ps(-127.0f)), _mm512_set1_ps(127.0f));
  const __m128i b = _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(r));  // MXCSR default: nearest even
  if (n >= 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(q), b);
  else _mm_mask_storeu_epi8(q, static_cast<__mmask16>((1u << n) - 1u), b);
}
inline __m512 Abs(__m512 v) { return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff))); }
// FastExp / FastSigmoid, 16 lanes (same polynomial as the scalar ones).
inline __m512 Exp(__m512 x) {
  x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-87.0f)), _mm512_set1_ps(88.0f));
  const __m512 t = _mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f));
  const __m512 fi = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512 f = _mm512_sub_ps(t, fi);
  __m512 p = _mm512_set1_ps(1.535336188319500e-4f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.339887440266574e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.618437357674640e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.550332471162809e-2f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.402264791363012e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.931472028550421e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, fi);  // p * 2^fi, exact like the scalar version's multiply
}
// 1 / (1 + exp(-z)) with the reciprocal from rcp14 and one Newton step
// (relative error ~1e-7, like the division; a division per element costs
// about as much as the rest of the SwiGLU epilogue). Saturates to 0 for
// z < -88 like the scalar version (exp is clamped, so d stays finite).
inline __m512 Sigmoid(__m512 z) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 d = _mm512_add_ps(one, Exp(_mm512_sub_ps(_mm512_setzero_ps(), z)));
  const __m512 r = _mm512_rcp14_ps(d);
  return _mm512_mul_ps(r, _mm512_fnmadd_ps(d, r, _mm512_set1_ps(2.0f)));
}
// In-register transpose of a 16x16 matrix of 32-bit elements (r[i] holds
// row i): afterwards r[j] holds column j.
__attribute__((always_inline)) inline void Transpose16x16(__m512i r[16]) {
  __m512i t[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  // r[4a + c], 128-bit lane L: rows 4a..4a+3 of column 4L + c.
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  // Transpose the 4x4 grid of 128-bit lanes, per c.
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    const __m512i u0 = _mm512_shuffle_i32x4(r[c], r[4 + c], 0x88), u1 = _mm512_shuffle_i32x4(r[c], r[4 + c], 0xdd);
    const __m512i u2 = _mm512_shuffle_i32x4(r[8 + c], r[12 + c], 0x88);
    const __m512i u3 = _mm512_shuffle_i32x4(r[8 + c], r[12 + c], 0xdd);
    t[c] = _mm512_shuffle_i32x4(u0, u2, 0x88);
    t[4 + c] = _mm512_shuffle_i32x4(u1, u3, 0x88);
    t[8 + c] = _mm512_shuffle_i32x4(u0, u2, 0xdd);
    t[12 + c] = _mm512_shuffle_i32x4(u1, u3, 0xdd);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) r[i] = t[i];
}
}  // namespace simd
#endif

// memcpy(dst, src, bytes) with non-temporal stores where dst is 64-byte
// aligned and bytes a multiple of 64: for a block that is written once and
// read much later, the cache lines are not first read from memory (no
// read-for-ownership) and do not evict what the caller works on. Fenced, so
// the data is visible to other threads after their next synchronization.
inline void StreamCopy(void* dst, const void* src, size_t bytes) {
#if defined(MOELOG_KERNELS_AVX512)
  if (reinterpret_cast<uintptr_t>(dst) % 64 == 0 && bytes % 64 == 0) {
    char* d = static_cast<char*>(dst);
    const char* s = static_cast<const char*>(src);
    for (size_t o = 0; o < bytes; o += 64)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d + o), _mm512_loadu_si512(s + o));
    _mm_sfence();
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

// dst[i] = src[i] (* scale) converted, parallel.
template <typename TS, typename TD>
void CastScale(const TS* src, TD* dst, int64_t n, float scale = 1.0f) {
#if defined(MOELOG_KERNELS_AVX512)
  if constexpr (std::is_same_v<TD, bf16_t>) {
    // Explicit vectors: the bf16 store is one instruction with AVX512_BF16.
    const __m512 vs = _mm512_set1_ps(scale);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i += 16)
      simd::Store(dst + i, _mm512_mul_ps(simd::Load(src + i, n - i), vs), n - i);
    return;
  }
#endif
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i) dst[i] = FromF<TD>(ToF(src[i]) * scale);
}

// dst[j * ldd + i] = row(i)[j] for j < cols and i < rows_pad, where row(i)
// returns row i of the source (const bf16_t*) or nullptr for a zero row:
// the transposed [cols, rows_pad] matrix of (possibly gathered) rows. The
// weight-gradient matmuls use it to turn token-major rows into a plain left
// operand. REQUIRES: cols % 16 == 0, rows_pad % 32 == 0.
template <typename RowFn>
void TransposeRowsBf16(RowFn&& row, int64_t rows_pad, int64_t cols, bf16_t* dst, int64_t ldd) {
#if defined(MOELOG_KERNELS_AVX512)
  // Per block of 32 rows x 16 columns: interleave row pairs into 32-bit
  // elements, then transpose those 16x16. A block of 32 rows is read front
  // to back (whole rows, so gathered rows stream), while the next block's
  // rows are prefetched.
  const bf16_t* next[32];
  for (int p = 0; p < 32; ++p) next[p] = row(p);
  for (int64_t i0 = 0; i0 < rows_pad; i0 += 32) {
    const bf16_t* src[32];
    for (int p = 0; p < 32; ++p) {
      src[p] = next[p];
      next[p] = i0 + 32 < rows_pad ? row(i0 + 32 + p) : nullptr;
    }
    for (int64_t j0 = 0; j0 < cols; j0 += 16) {
      if (j0 % 32 == 0) {
        for (int p = 0; p < 32; ++p)
          if (next[p] != nullptr) _mm_prefetch(reinterpret_cast<const char*>(next[p] + j0), _MM_HINT_T1);
      }
      __m512i r[16];
#pragma GCC unroll 16
      for (int p = 0; p < 16; ++p) {
        const bf16_t* a = src[2 * p];
        const bf16_t* b = src[2 * p + 1];
        const __m256i va = a != nullptr ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + j0))
                                        : _mm256_setzero_si256();
        const __m256i vb = b != nullptr ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + j0))
                                        : _mm256_setzero_si256();
        r[p] = _mm512_or_si512(_mm512_cvtepu16_epi32(va), _mm512_slli_epi32(_mm512_cvtepu16_epi32(vb), 16));
      }
      simd::Transpose16x16(r);
#pragma GCC unroll 16
      for (int j = 0; j < 16; ++j) _mm512_storeu_si512(dst + (j0 + j) * ldd + i0, r[j]);
    }
  }
#else
  for (int64_t i = 0; i < rows_pad; ++i) {
    const bf16_t* src = row(i);
    for (int64_t j = 0; j < cols; ++j) dst[j * ldd + i] = src != nullptr ? src[j] : bf16_t{0};
  }
#endif
}

// TransposeRowsBf16 of a row-major [rows, cols] matrix (row stride lds),
// zero-padded to rows_pad rows. REQUIRES: rows <= rows_pad.
inline void TransposeBf16(const bf16_t* src, int64_t rows, int64_t cols, int64_t lds, int64_t rows_pad, bf16_t* dst,
                          int64_t ldd) {
  TransposeRowsBf16([&](int64_t i) { return i < rows ? src + i * lds : nullptr; }, rows_pad, cols, dst, ldd);
}

// h[r, j] = SiLU(a) * b * scale_r for rows [0, rows), j < m; a at
// ab[r*ld + j], b at ab[b_off + r*ld + j]; scale_r = row_scale[r] or 1.
template <typename TA, typename TH>
void SwiGluRows(const TA* ab, int64_t ld, int64_t b_off, int64_t rows, int64_t m, const float* row_scale, TH* h,
                int64_t ldh) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const float s = row_scale != nullptr ? row_scale[r] : 1.0f;
    const TA* a = ab + r * ld;
    const TA* b = ab + b_off + r * ld;
    TH* o = h + r * ldh;
#if defined(MOELOG_KERNELS_AVX512)
    // Explicit 16-lane loop: the compiler's vectorization of the scalar loop
    // below is about twice as slow (the bf16 conversions and the division).
    const __m512 sv = _mm512_set1_ps(s);
    for (int64_t j = 0; j < m; j += 16) {
      const int64_t k = std::min<int64_t>(16, m - j);
      const __m512 av = simd::Load(a + j, k), bv = simd::Load(b + j, k);
      simd::Store(o + j, _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(av, simd::Sigmoid(av)), bv), sv), k);
    }
#else
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) {
      const float av = ToF(a[j]);
      o[j] = FromF<TH>(av * FastSigmoid(av) * ToF(b[j]) * s);
    }
#endif
  }
}

// Backward of SwiGluRows: with d = dh * scale_r, da = d * b * SiLU'(a) and
// db = d * SiLU(a), written with the same layout as ab.
template <typename TA, typename TD, typename TO>
void SwiGluBackwardRows(const TA* ab, int64_t ld, int64_t b_off, int64_t rows, int64_t m, const float* row_scale,
                        const TD* dh, int64_t lddh, TO* dab) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const float s = row_scale != nullptr ? row_scale[r] : 1.0f;
    const TA* a = ab + r * ld;
    const TA* b = ab + b_off + r * ld;
    const TD* d = dh + r * lddh;
    TO* da = dab + r * ld;
    TO* db = dab + b_off + r * ld;
#if defined(MOELOG_KERNELS_AVX512)
    const __m512 sv = _mm512_set1_ps(s), one = _mm512_set1_ps(1.0f);
    for (int64_t j = 0; j < m; j += 16) {
      const int64_t k = std::min<int64_t>(16, m - j);
      const __m512 av = simd::Load(a + j, k), bv = simd::Load(b + j, k);
      const __m512 dv = _mm512_mul_ps(simd::Load(d + j, k), sv);
      const __m512 sg = simd::Sigmoid(av), silu = _mm512_mul_ps(av, sg);
      const __m512 dsilu = _mm512_add_ps(sg, _mm512_mul_ps(silu, _mm512_sub_ps(one, sg)));
      simd::Store(da + j, _mm512_mul_ps(_mm512_mul_ps(dv, bv), dsilu), k);
      simd::Store(db + j, _mm512_mul_ps(dv, silu), k);
    }
#else
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) {
      const float av = ToF(a[j]), bv = ToF(b[j]), dv = ToF(d[j]) * s;
      const float sg = FastSigmoid(av), silu = av * sg;
      da[j] = FromF<TO>(dv * bv * (sg + silu * (1.0f - sg)));
      db[j] = FromF<TO>(dv * silu);
    }
#endif
  }
}


// max |src[j]|, j < n.
template <typename T>
float AbsMax(const T* src, int64_t n) {
#if defined(MOELOG_KERNELS_AVX512)
  __m512 vmax = _mm512_setzero_ps();
  for (int64_t j = 0; j < n; j += 16) vmax = _mm512_max_ps(vmax, simd::Abs(simd::Load(src + j, n - j)));
  return _mm512_reduce_max_ps(vmax);
#else
  float amax = 0.0f;
#pragma omp simd reduction(max : amax)
  for (int64_t j = 0; j < n; ++j) amax = std::max(amax, std::fabs(ToF(src[j])));
  return amax;
#endif
}

// q[j] = clip(round_half_even(src[j] / scale), +-127), j < n.
template <typename T>
void QuantizeWithScale(const T* src, int64_t n, float scale, int8_t* q) {
#if defined(MOELOG_KERNELS_AVX512)
  const __m512 vs = _mm512_set1_ps(scale);
  for (int64_t j = 0; j < n; j += 16) simd::StoreQuant(q + j, simd::Load(src + j, n - j), vs, n - j);
#else
  for (int64_t j = 0; j < n; ++j) q[j] = static_cast<int8_t>(std::clamp(RoundHalfEven(ToF(src[j]) / scale), -127.0f, 127.0f));
#endif
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
#if defined(MOELOG_KERNELS_AVX512)
  const __m512 vs = _mm512_set1_ps(s);
  for (int64_t j = 0; j < n; j += 16) simd::Store(out + j, _mm512_mul_ps(simd::LoadS32(acc + j, n - j), vs), n - j);
#else
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) out[j] = FromF<T>(static_cast<float>(acc[j]) * s);
#endif
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
#if defined(MOELOG_KERNELS_AVX512)
  const __m512 vg = _mm512_set1_ps(s_gate), vu = _mm512_set1_ps(s_up), vw = _mm512_set1_ps(w);
  __m512 vmax = _mm512_setzero_ps();
  for (int64_t j = 0; j < m; j += 16) {
    const int64_t n = m - j;
    const __m512 g = simd::AsStored<T>(_mm512_mul_ps(simd::LoadS32(acc_gate + j, n), vg));
    const __m512 u = simd::AsStored<T>(_mm512_mul_ps(simd::LoadS32(acc_up + j, n), vu));
    const __m512 hv = simd::AsStored<T>(_mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(g, simd::Sigmoid(g)), u), vw));
    if (ab_gate != nullptr) simd::Store(ab_gate + j, g, n);
    if (ab_up != nullptr) simd::Store(ab_up + j, u, n);
    if (h_out != nullptr) simd::Store(h_out + j, hv, n);
    vmax = _mm512_max_ps(vmax, simd::Abs(hv));
    simd::Store(hbuf + j, hv, n);
  }
  const float scale = QuantScale(_mm512_reduce_max_ps(vmax));
  const __m512 vs = _mm512_set1_ps(scale);
  for (int64_t j = 0; j < m; j += 16) simd::StoreQuant(hq + j, simd::Load(hbuf + j, m - j), vs, m - j);
  return scale;
#else
  float amax = 0.0f;
#pragma omp simd reduction(max : amax)
  for (int64_t j = 0; j < m; ++j) {
    const T gt = FromF<T>(static_cast<float>(acc_gate[j]) * s_gate);
    const T ut = FromF<T>(static_cast<float>(acc_up[j]) * s_up);
    const float g = ToF(gt);
    const T ht = FromF<T>(g * FastSigmoid(g) * ToF(ut) * w);
    if (ab_gate != nullptr) ab_gate[j] = gt;
    if (ab_up != nullptr) ab_up[j] = ut;
    if (h_out != nullptr) h_out[j] = ht;
    hbuf[j] = ToF(ht);
    amax = std::max(amax, std::fabs(hbuf[j]));
  }
  const float scale = QuantScale(amax);
  for (int64_t j = 0; j < m; ++j) hq[j] = static_cast<int8_t>(std::clamp(RoundHalfEven(hbuf[j] / scale), -127.0f, 127.0f));
  return scale;
#endif
}

#if defined(MOELOG_KERNELS_AVX512)
#pragma GCC diagnostic pop
#endif

// Calls fn(T{}) with T = float or bf16_t per dtype (kF32 / kBF16).
template <typename Fn>
void DispatchFloat(DType dt, Fn&& fn) {
  if (dt == DType::kF32) fn(float{});
  else fn(bf16_t{});
}

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_KERNELS_H_
