// The shared (always-on) SwiGLU expert, forward and backward.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/cpu/kernels.h"
#include "engine/cpu/moe_layer.h"

namespace moelog::engine::cpu {
namespace {

// Scratch: large buffers on transparent huge pages, so refilling one after
// ReleaseActivations costs a fault per 2 MiB, not per 4 KiB.
void Resize(Tensor* t, DType dtype, std::vector<int64_t> shape) {
  if (t->empty() || t->dtype() != dtype || t->shape() != shape) *t = Tensor::Scratch(dtype, std::move(shape));
}

// Per-column symmetric int8 quantization of a [k, n] matrix (leading dim ld)
// into a contiguous [k, n] buffer.
void QuantizeCols(const void* src, DType dt, int64_t k, int64_t n, int64_t ld, int8_t* q, float* scales) {
  std::vector<float> amax(static_cast<size_t>(n), 0.0f);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) amax[j] = std::max(amax[j], std::fabs(LoadF(src, dt, i * ld + j)));
  for (int64_t j = 0; j < n; ++j) scales[j] = amax[j] / 127.0f + std::numeric_limits<float>::min();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      q[i * n + j] = static_cast<int8_t>(std::clamp(std::nearbyint(LoadF(src, dt, i * ld + j) / scales[j]), -127.0f, 127.0f));
}

// Buffers of one int8 dense matmul.
struct Int8Scratch {
  std::vector<int8_t> xq, wq;
  std::vector<float> xs, ws;
  std::vector<int32_t> acc;
};

}  // namespace

void BuildSharedW13(SharedWeights* w) {
  const int64_t h = w->w1.dim(0), s = w->w1.dim(1);
  Resize(&w->w13, w->w1.dtype(), {h, 2 * s});
  const int64_t es = DTypeSize(w->w1.dtype());
  for (int64_t i = 0; i < h; ++i) {
    std::memcpy(w->w13.at(i * 2 * s), w->w1.at(i * s), static_cast<size_t>(s * es));
    std::memcpy(w->w13.at(i * 2 * s + s), w->w3.at(i * s), static_cast<size_t>(s * es));
  }
}

double SharedExpertBytes(int64_t tokens, int64_t hidden, int64_t shared_dim, DType dtype, bool fused,
                         QuantMode quant, bool training) {
  if (shared_dim <= 0) return 0;
  const double t = static_cast<double>(tokens), h = static_cast<double>(hidden);
  const double s = static_cast<double>(shared_dim), es = static_cast<double>(DTypeSize(dtype));
  double bytes = t * 2 * s * 4 + t * s * es;  // gu (f32), hs
  if (QuantDense(quant)) {
    // Int8Scratch keeps its largest call: x rows (int8) and the int32
    // accumulator of gate|up or of the down matmul, the weights quantized.
    const double n = fused ? 2 * s : s;
    bytes += t * std::max(h, s) + t * std::max(n, h) * 4 + h * std::max(n, h) + 4 * (t + std::max(n, h));
  }
  if (training) {
    bytes += t * s * 4 + t * 2 * s * es;  // dhs (f32), dgu
    if (fused) bytes += h * 2 * s * es;   // dw13
  }
  return bytes;
}

struct SharedExpert::Impl {
  Tensor gu;   // [T, 2S] f32: gate | up
  Tensor hs;   // [T, S] x dtype: SiLU(gate) * up
  Tensor dhs;  // [T, S] f32
  Tensor dgu;  // [T, 2S] x dtype
  Tensor dw13; // [H, 2S]
  Int8Scratch q;
};

SharedExpert::SharedExpert(MatmulRunner* runner, bool fused, QuantMode quant)
    : runner_(runner), fused_(fused), quant_(quant), impl_(std::make_shared<Impl>()) {}

namespace {

// out[t, j] (f32, leading dim ld_out) (+)= sum_i a[t,i] w[i,j] via int8:
// a per row, w per column.
void Int8Dense(MatmulRunner* mm, Int8Scratch* s, const void* a, DType dt, int64_t rows, int64_t k,
               int64_t lda, const void* w, int64_t n, int64_t ldw, float* out, int64_t ld_out, bool accumulate) {
  s->xq.resize(static_cast<size_t>(rows * k));
  s->xs.resize(static_cast<size_t>(rows));
  s->wq.resize(static_cast<size_t>(k * n));
  s->ws.resize(static_cast<size_t>(n));
  s->acc.resize(static_cast<size_t>(rows * n));
  QuantizeRows(a, dt, rows, k, lda, s->xq.data(), s->xs.data());
  QuantizeCols(w, dt, k, n, ldw, s->wq.data(), s->ws.data());
  mm->Run(MatView::RowMajor(s->xq.data(), DType::kS8, rows, k, k), MatView::RowMajor(s->wq.data(), DType::kS8, k, n, n),
          OutView{s->acc.data(), DType::kS32, rows, n, n});
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      float v = static_cast<float>(s->acc[r * n + j]) * s->xs[r] * s->ws[j];
      out[r * ld_out + j] = accumulate ? out[r * ld_out + j] + v : v;
    }
}

}  // namespace

Status SharedExpert::Forward(const SharedWeights& w, const Tensor& x, float* out, bool) {
  Impl& s = *impl_;
  const int64_t t = x.dim(0), h = x.dim(1), sd = w.dim();
  if (sd == 0) return Status::Ok();
  const DType dt = x.dtype();
  Resize(&s.gu, DType::kF32, {t, 2 * sd});
  Resize(&s.hs, dt, {t, sd});
  const bool q = QuantDense(quant_);
  MatView xv = MatView::RowMajor(x.data(), dt, t, h, h);
  if (q) {
    if (fused_) {
      Int8Dense(runner_, &s.q, x.data(), dt, t, h, h, w.w13.data(), 2 * sd, 2 * sd, s.gu.as<float>(), 2 * sd, false);
    } else {
      Int8Dense(runner_, &s.q, x.data(), dt, t, h, h, w.w1.data(), sd, sd, s.gu.as<float>(), sd, false);
      Int8Dense(runner_, &s.q, x.data(), dt, t, h, h, w.w3.data(), sd, sd, s.gu.as<float>() + t * sd, sd, false);
    }
  } else if (fused_) {
    runner_->Run(xv, MatView::RowMajor(w.w13.data(), dt, h, 2 * sd, 2 * sd), OutView{s.gu.data(), DType::kF32, t, 2 * sd, 2 * sd});
  } else {
    runner_->Run(xv, MatView::RowMajor(w.w1.data(), dt, h, sd, sd), OutView{s.gu.data(), DType::kF32, t, sd, sd});
    runner_->Run(xv, MatView::RowMajor(w.w3.data(), dt, h, sd, sd), OutView{s.gu.as<float>() + t * sd, DType::kF32, t, sd, sd});
  }
  const float* gu = s.gu.as<float>();
  // Fused: rows of gate|up. Split: the gate block, then the up block.
  const int64_t ld = fused_ ? 2 * sd : sd, boff = fused_ ? sd : t * sd;
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    SwiGluRows(gu, ld, boff, t, sd, nullptr, s.hs.as<T>(), sd);
  });
  if (q) {
    Int8Dense(runner_, &s.q, s.hs.data(), dt, t, sd, sd, w.w2.data(), h, h, out, h, true);
  } else {
    runner_->Run(MatView::RowMajor(s.hs.data(), dt, t, sd, sd), MatView::RowMajor(w.w2.data(), dt, sd, h, h),
                 OutView{out, DType::kF32, t, h, h}, /*accumulate=*/true);
  }
  return runner_->status();
}

void SharedExpert::ReleaseActivations() {
  Impl& s = *impl_;
  for (Tensor* t : {&s.gu, &s.hs, &s.dhs, &s.dgu, &s.dw13}) *t = Tensor();
}

Status SharedExpert::Backward(const SharedWeights& w, const Tensor& x, const Tensor& dout, float* dx,
                              SharedGrads* grads) {
  Impl& s = *impl_;
  const int64_t t = x.dim(0), h = x.dim(1), sd = w.dim();
  if (sd == 0) return Status::Ok();
  const DType dt = x.dtype();
  Resize(&grads->dw1, dt, {h, sd});
  Resize(&grads->dw3, dt, {h, sd});
  Resize(&grads->dw2, dt, {sd, h});
  Resize(&s.dhs, DType::kF32, {t, sd});
  Resize(&s.dgu, dt, {t, 2 * sd});
  MatView dov = MatView::RowMajor(dout.data(), dt, t, h, h);
  // dWs2 = hs^T dout; dhs = dout Ws2^T.
  runner_->Run(MatView::RowMajor(s.hs.data(), dt, t, sd, sd).T(), dov, OutView{grads->dw2.data(), dt, sd, h, h});
  runner_->Run(dov, MatView::RowMajor(w.w2.data(), dt, sd, h, h).T(), OutView{s.dhs.data(), DType::kF32, t, sd, sd});
  const float* gu = s.gu.as<float>();
  const float* dhs = s.dhs.as<float>();
  const int64_t ld = fused_ ? 2 * sd : sd, boff = fused_ ? sd : t * sd;
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    SwiGluBackwardRows(gu, ld, boff, t, sd, nullptr, dhs, sd, s.dgu.as<T>());
  });
  MatView xt = MatView::RowMajor(x.data(), dt, t, h, h).T();
  if (fused_) {
    Resize(&s.dw13, dt, {h, 2 * sd});
    runner_->Run(xt, MatView::RowMajor(s.dgu.data(), dt, t, 2 * sd, 2 * sd), OutView{s.dw13.data(), dt, h, 2 * sd, 2 * sd});
    const int64_t es = DTypeSize(dt);
    for (int64_t i = 0; i < h; ++i) {
      std::memcpy(grads->dw1.at(i * sd), s.dw13.at(i * 2 * sd), static_cast<size_t>(sd * es));
      std::memcpy(grads->dw3.at(i * sd), s.dw13.at(i * 2 * sd + sd), static_cast<size_t>(sd * es));
    }
    runner_->Run(MatView::RowMajor(s.dgu.data(), dt, t, 2 * sd, 2 * sd),
                 MatView::RowMajor(w.w13.data(), dt, h, 2 * sd, 2 * sd).T(), OutView{dx, DType::kF32, t, h, h}, true);
  } else {
    runner_->Run(xt, MatView::RowMajor(s.dgu.data(), dt, t, sd, sd), OutView{grads->dw1.data(), dt, h, sd, sd});
    runner_->Run(xt, MatView::RowMajor(s.dgu.at(t * sd), dt, t, sd, sd), OutView{grads->dw3.data(), dt, h, sd, sd});
    runner_->Run(MatView::RowMajor(s.dgu.data(), dt, t, sd, sd), MatView::RowMajor(w.w1.data(), dt, h, sd, sd).T(),
                 OutView{dx, DType::kF32, t, h, h}, true);
    runner_->Run(MatView::RowMajor(s.dgu.at(t * sd), dt, t, sd, sd), MatView::RowMajor(w.w3.data(), dt, h, sd, sd).T(),
                 OutView{dx, DType::kF32, t, h, h}, true);
  }
  return runner_->status();
}

}  // namespace moelog::engine::cpu
