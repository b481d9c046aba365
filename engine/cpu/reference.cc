#include "engine/cpu/reference.h"

#include <algorithm>
#include <cmath>

namespace moelog::engine::cpu {
namespace {

double Sig(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// One SwiGLU expert applied to one row, scaled by `w`, added to y; with
// gradients, backpropagates dy (already for this row) into dx and the grads.
void Expert(const double* x, const double* w1, const double* w3, const double* w2, int64_t h, int64_t m,
            double w, double* y, const double* dy, double* dx, double* dw1, double* dw3, double* dw2) {
  std::vector<double> a(static_cast<size_t>(m), 0.0), b(static_cast<size_t>(m), 0.0), hv(static_cast<size_t>(m));
  for (int64_t i = 0; i < h; ++i) {
    const double xi = x[i];
    for (int64_t j = 0; j < m; ++j) {
      a[j] += xi * w1[i * m + j];
      b[j] += xi * w3[i * m + j];
    }
  }
  for (int64_t j = 0; j < m; ++j) hv[j] = a[j] * Sig(a[j]) * b[j];
  if (y != nullptr)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t c = 0; c < h; ++c) y[c] += w * hv[j] * w2[j * h + c];
  if (dy == nullptr) return;
  std::vector<double> dh(static_cast<size_t>(m), 0.0);
  for (int64_t j = 0; j < m; ++j) {
    double acc = 0;
    for (int64_t c = 0; c < h; ++c) {
      acc += dy[c] * w2[j * h + c];
      dw2[j * h + c] += w * hv[j] * dy[c];
    }
    dh[j] = w * acc;
  }
  std::vector<double> da(static_cast<size_t>(m)), db(static_cast<size_t>(m));
  for (int64_t j = 0; j < m; ++j) {
    double s = Sig(a[j]), silu = a[j] * s;
    da[j] = dh[j] * b[j] * (s + silu * (1 - s));
    db[j] = dh[j] * silu;
  }
  for (int64_t i = 0; i < h; ++i) {
    double acc = 0;
    for (int64_t j = 0; j < m; ++j) {
      dw1[i * m + j] += x[i] * da[j];
      dw3[i * m + j] += x[i] * db[j];
      acc += da[j] * w1[i * m + j] + db[j] * w3[i * m + j];
    }
    dx[i] += acc;
  }
}

}  // namespace

ReferenceOutputs ReferenceMoe(const ReferenceInputs& in, bool gradients) {
  const int64_t t = in.tokens, h = in.hidden, m = in.mlp_dim, e = in.experts, s = in.shared_dim;
  const Routing& rt = *in.routing;
  const int64_t k = rt.topk;
  // Which assignments survive the capacity policy (first cap per expert in flat order).
  std::vector<uint8_t> kept(static_cast<size_t>(t * k), 0);
  std::vector<int64_t> count(static_cast<size_t>(e), 0);
  for (int64_t p = 0; p < t * k; ++p) {
    const int32_t id = rt.ids[p];
    if (id < 0 || id >= e) continue;
    if (in.cap > 0 && count[id] >= in.cap) continue;
    ++count[id];
    kept[p] = 1;
  }
  ReferenceOutputs out;
  out.y.assign(static_cast<size_t>(t * h), 0.0);
  auto forward_token = [&](int64_t tok, double* y) {
    for (int64_t q = 0; q < k; ++q) {
      const int64_t p = tok * k + q;
      if (!kept[p]) continue;
      const int64_t id = rt.ids[p];
      Expert(&in.x[tok * h], &in.w1[id * h * m], &in.w3[id * h * m], &in.w2[id * m * h], h, m, rt.weights[p], y,
             nullptr, nullptr, nullptr, nullptr, nullptr);
    }
    if (s > 0)
      Expert(&in.x[tok * h], in.sw1.data(), in.sw3.data(), in.sw2.data(), h, s, 1.0, y, nullptr, nullptr, nullptr,
             nullptr, nullptr);
  };
#pragma omp parallel for schedule(dynamic, 4)
  for (int64_t tok = 0; tok < t; ++tok) forward_token(tok, &out.y[tok * h]);
  double sum = 0;
  for (double v : out.y) sum += v * v;
  out.loss = sum / static_cast<double>(t * h);
  if (!gradients) return out;
  out.dx.assign(static_cast<size_t>(t * h), 0.0);
  out.dw1.assign(in.w1.size(), 0.0);
  out.dw3.assign(in.w3.size(), 0.0);
  out.dw2.assign(in.w2.size(), 0.0);
  out.dsw1.assign(in.sw1.size(), 0.0);
  out.dsw3.assign(in.sw3.size(), 0.0);
  out.dsw2.assign(in.sw2.size(), 0.0);
  std::vector<double> dy(static_cast<size_t>(h));
  for (int64_t tok = 0; tok < t; ++tok) {
    for (int64_t c = 0; c < h; ++c) dy[c] = 2.0 * out.y[tok * h + c] / static_cast<double>(t * h);
    for (int64_t q = 0; q < k; ++q) {
      const int64_t p = tok * k + q;
      if (!kept[p]) continue;
      const int64_t id = rt.ids[p];
      Expert(&in.x[tok * h], &in.w1[id * h * m], &in.w3[id * h * m], &in.w2[id * m * h], h, m, rt.weights[p],
             nullptr, dy.data(), &out.dx[tok * h], &out.dw1[id * h * m], &out.dw3[id * h * m], &out.dw2[id * m * h]);
    }
    if (s > 0)
      Expert(&in.x[tok * h], in.sw1.data(), in.sw3.data(), in.sw2.data(), h, s, 1.0, nullptr, dy.data(),
             &out.dx[tok * h], out.dsw1.data(), out.dsw3.data(), out.dsw2.data());
  }
  return out;
}

double MaxRelErr(const std::vector<double>& got, const std::vector<double>& ref) {
  double num = 0, den = 0;
  const size_t n = std::min(got.size(), ref.size());
  for (size_t i = 0; i < n; ++i) {
    num = std::max(num, std::fabs(got[i] - ref[i]));
    den = std::max(den, std::fabs(ref[i]));
  }
  if (got.size() != ref.size()) return INFINITY;
  if (den == 0) return num == 0 ? 0.0 : INFINITY;
  return num / den;
}

}  // namespace moelog::engine::cpu
