// Combine (harness 2.5): packed expert outputs back to [T,H], and the
// matching backward gathers/scatters.
#include <algorithm>
#include <cstring>

#include <omp.h>

#include "engine/cpu/kernels.h"
#include "engine/cpu/moe_layer.h"

namespace moelog::engine::cpu {
namespace {

// Column block [begin, end) of `hidden` for thread `tid` of `nt`, aligned to
// 16 floats so threads never share a cache line of a row.
void ColumnBlock(int64_t hidden, int tid, int nt, int64_t* begin, int64_t* end) {
  int64_t chunks = (hidden + 15) / 16;
  int64_t per = (chunks + nt - 1) / nt;
  *begin = std::min(hidden, tid * per * 16);
  *end = std::min(hidden, (tid + 1) * per * 16);
}

template <typename T>
inline float Ld(const T* p, int64_t i) {
  return ToF(p[i]);
}

template <typename T>
void ScatterImpl(const T* y, const PackPlan& plan, bool apply_weight, float* out, int64_t hidden) {
#pragma omp parallel
  {
    int64_t b, e;
    ColumnBlock(hidden, omp_get_thread_num(), omp_get_num_threads(), &b, &e);
    for (int64_t r = 0; r < plan.valid_rows && b < e; ++r) {
      const float w = apply_weight ? plan.weight[r] : 1.0f;
      if (w == 0.0f || !plan.keep[r]) continue;
      float* o = out + int64_t{plan.token[r]} * hidden;
      const T* src = y + r * hidden;
#pragma omp simd
      for (int64_t j = b; j < e; ++j) o[j] += w * Ld(src, j);
    }
  }
}

// Sets acc[0, hidden) to the sum of token t's kept rows of y (weighted when
// apply_weight), in slot order.
template <typename T>
inline void SumTokenRows(const T* y, const PackPlan& plan, const std::vector<int64_t>& inv, bool apply_weight,
                         int64_t t, int64_t hidden, float* acc) {
  const int64_t k = plan.topk;
  std::fill(acc, acc + hidden, 0.0f);
  for (int64_t s = 0; s < k; ++s) {
    const int64_t r = inv[t * k + s];
    if (r < 0 || r >= plan.valid_rows || !plan.keep[r]) continue;
    const float w = apply_weight ? plan.weight[r] : 1.0f;
    const T* src = y + r * hidden;
#pragma omp simd
    for (int64_t j = 0; j < hidden; ++j) acc[j] += w * Ld(src, j);
  }
}

template <typename T>
void InverseImpl(const T* y, const PackPlan& plan, const std::vector<int64_t>& inv, bool apply_weight, float* out,
                 int64_t hidden) {
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < plan.tokens; ++t) SumTokenRows(y, plan, inv, apply_weight, t, hidden, out + t * hidden);
}

// InverseImpl with the sum kept in a per-thread f32 row and rounded once
// into the output dtype.
template <typename T, typename TO>
void InverseIntoImpl(const T* y, const PackPlan& plan, const std::vector<int64_t>& inv, bool apply_weight, TO* out,
                     int64_t hidden) {
#pragma omp parallel
  {
    std::vector<float> acc(static_cast<size_t>(hidden));
    float* a = acc.data();
#pragma omp for schedule(static)
    for (int64_t t = 0; t < plan.tokens; ++t) {
      SumTokenRows(y, plan, inv, apply_weight, t, hidden, a);
      TO* o = out + t * hidden;
#pragma omp simd
      for (int64_t j = 0; j < hidden; ++j) o[j] = FromF<TO>(a[j]);
    }
  }
}

}  // namespace

void CombineScatter(const Tensor& y, const PackPlan& plan, bool apply_weight, float* out, int64_t hidden) {
  if (y.dtype() == DType::kF32) ScatterImpl(y.as<float>(), plan, apply_weight, out, hidden);
  else ScatterImpl(y.as<bf16_t>(), plan, apply_weight, out, hidden);
}

void CombineInversePermute(const Tensor& y, const PackPlan& plan, const std::vector<int64_t>& inv,
                           bool apply_weight, float* out, int64_t hidden) {
  if (y.dtype() == DType::kF32) InverseImpl(y.as<float>(), plan, inv, apply_weight, out, hidden);
  else InverseImpl(y.as<bf16_t>(), plan, inv, apply_weight, out, hidden);
}

void CombineInversePermuteInto(const Tensor& y, const PackPlan& plan, const std::vector<int64_t>& inv,
                               bool apply_weight, Tensor* out) {
  const int64_t hidden = y.dim(1);
  DispatchFloat(y.dtype(), [&](auto tag) {
    using T = decltype(tag);
    DispatchFloat(out->dtype(), [&](auto otag) {
      using TO = decltype(otag);
      InverseIntoImpl(y.as<T>(), plan, inv, apply_weight, out->as<TO>(), hidden);
    });
  });
}

void CombineBackward(const Tensor& dout, const PackPlan& plan, bool apply_weight, Tensor* dy) {
  const int64_t hidden = dout.dim(1);
  const DType dt = dout.dtype();
  if (dy->empty() || dy->dtype() != dt || dy->dim(0) != plan.rows || dy->dim(1) != hidden)
    *dy = Tensor(dt, {plan.rows, hidden});
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < plan.rows; ++r) {
    const bool live = r < plan.valid_rows && plan.keep[r];
    const float w = live ? (apply_weight ? plan.weight[r] : 1.0f) : 0.0f;
    if (w == 0.0f) {
      std::memset(dy->at(r * hidden), 0, static_cast<size_t>(hidden * DTypeSize(dt)));
      continue;
    }
    const int64_t src = int64_t{plan.token[r]} * hidden;
    DispatchFloat(dt, [&](auto tag) {
      using T = decltype(tag);
      const T* s = dout.as<T>() + src;
      T* d = dy->as<T>() + r * hidden;
#pragma omp simd
      for (int64_t j = 0; j < hidden; ++j) d[j] = FromF<T>(w * ToF(s[j]));
    });
  }
}

void CombineBackwardInverse(const Tensor& dout, const PackPlan& plan, const std::vector<int64_t>& inv,
                            bool apply_weight, Tensor* dy) {
  const int64_t hidden = dout.dim(1), k = plan.topk;
  const DType dt = dout.dtype();
  if (dy->empty() || dy->dtype() != dt || dy->dim(0) != plan.rows || dy->dim(1) != hidden)
    *dy = Tensor(dt, {plan.rows, hidden});
  // Rows no flat position maps to (padding) stay zero.
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < plan.rows; ++r)
    if (plan.flat[r] < 0 || r >= plan.valid_rows || !plan.keep[r])
      std::memset(dy->at(r * hidden), 0, static_cast<size_t>(hidden * DTypeSize(dt)));
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < plan.tokens; ++t) {
    for (int64_t s = 0; s < k; ++s) {
      const int64_t r = inv[t * k + s];
      if (r < 0 || r >= plan.valid_rows || !plan.keep[r]) continue;
      const float w = apply_weight ? plan.weight[r] : 1.0f;
      DispatchFloat(dt, [&](auto tag) {
        using T = decltype(tag);
        const T* s = dout.as<T>() + t * hidden;
        T* d = dy->as<T>() + r * hidden;
#pragma omp simd
        for (int64_t j = 0; j < hidden; ++j) d[j] = FromF<T>(w * ToF(s[j]));
      });
    }
  }
}

void ScatterAddRows(const Tensor& dx_rows, const PackPlan& plan, float* dx, int64_t hidden) {
  const DType dt = dx_rows.dtype();
#pragma omp parallel
  {
    int64_t b, e;
    ColumnBlock(hidden, omp_get_thread_num(), omp_get_num_threads(), &b, &e);
    for (int64_t r = 0; r < plan.valid_rows && b < e; ++r) {
      if (!plan.keep[r]) continue;
      float* o = dx + int64_t{plan.token[r]} * hidden;
      DispatchFloat(dt, [&](auto tag) {
        using T = decltype(tag);
        const T* s = dx_rows.as<T>() + r * hidden;
#pragma omp simd
        for (int64_t j = b; j < e; ++j) o[j] += ToF(s[j]);
      });
    }
  }
}

}  // namespace moelog::engine::cpu
