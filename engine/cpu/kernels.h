// Vectorizable elementwise kernels of the CPU engine: SiLU/SwiGLU forward
// and backward and dtype casts, typed on the storage (float or bf16_t) so the
// inner loops compile to AVX-512 (`omp simd`).
#ifndef MOELOG_ENGINE_CPU_KERNELS_H_
#define MOELOG_ENGINE_CPU_KERNELS_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/cpu/tensor.h"

namespace moelog::engine::cpu {

template <typename T>
inline float ToF(T v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else return std::bit_cast<float>(static_cast<uint32_t>(v) << 16);
}

// Round to nearest even (no NaN special case: NaN inputs give a NaN or Inf
// pattern, either way non-finite).
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
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) {
      const float av = ToF(a[j]);
      o[j] = FromF<TH>(av * FastSigmoid(av) * ToF(b[j]) * s);
    }
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
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) {
      const float av = ToF(a[j]), bv = ToF(b[j]), dv = ToF(d[j]) * s;
      const float sg = FastSigmoid(av), silu = av * sg;
      da[j] = FromF<TO>(dv * bv * (sg + silu * (1.0f - sg)));
      db[j] = FromF<TO>(dv * silu);
    }
  }
}

// dst[i] = src[i] (* scale) converted, parallel.
template <typename TS, typename TD>
void CastScale(const TS* src, TD* dst, int64_t n, float scale = 1.0f) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i) dst[i] = FromF<TD>(ToF(src[i]) * scale);
}

// Calls fn(T{}) with T = float or bf16_t per dtype (kF32 / kBF16).
template <typename Fn>
void DispatchFloat(DType dt, Fn&& fn) {
  if (dt == DType::kF32) fn(float{});
  else fn(bf16_t{});
}

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_KERNELS_H_
