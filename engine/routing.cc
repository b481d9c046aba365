#include "engine/routing.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <system_error>
#include <thread>

namespace moelog::engine {

namespace {
constexpr uint64_t kRngStep = 0x9E3779B97F4A7C15ULL;  // splitmix64's counter step
}  // namespace

uint64_t Rng::NextU64() {
  uint64_t z = (state_ += kRngStep);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double Rng::Uniform() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

double Rng::Normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u1 = 0;
  do { u1 = Uniform(); } while (u1 <= 0.0);
  double u2 = Uniform();
  double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = r * std::sin(2.0 * M_PI * u2);
  has_spare_ = true;
  return r * std::cos(2.0 * M_PI * u2);
}

void SinCosNear(double x, double* s, double* c) {
  // x less the nearest multiple q of pi/2, pi/2 in three parts (fdlibm's
  // pio2_1, pio2_2, pio2_2t: q times the first two is exact, and so is x
  // less it where the remainder is small), so a remainder near a zero of sin
  // or cos keeps its relative accuracy (pi/2 to 1e-37).
  constexpr double kTwoOverPi = 0.63661977236758134308;
  const double p1 = std::bit_cast<double>(uint64_t{0x3FF921FB54400000});
  const double p2 = std::bit_cast<double>(uint64_t{0x3DD0B4611A600000});
  const double p2t = std::bit_cast<double>(uint64_t{0x3BA3198A2E037073});
  const int q = static_cast<int>(x * kTwoOverPi + 0.5);
  const double qd = q;
  const double y = ((x - qd * p1) - qd * p2) - qd * p2t;
  // fdlibm's kernels on |y| <= pi/4 (errors under 1 ulp).
  const double z = y * y;
  const double sr = 8.33333333332248946124e-03 +
                    z * (-1.98412698298579493134e-04 +
                         z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)));
  const double sy = y + z * y * (-1.66666666666666324348e-01 + z * sr);
  const double cr = z * (4.16666666666666019037e-02 +
                         z * (-1.38888888888741095749e-03 +
                              z * (2.48015872894767294178e-05 +
                                   z * (-2.75573143513906633035e-07 +
                                        z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  const double hz = 0.5 * z, w = 1.0 - hz;
  const double cy = w + (((1.0 - w) - hz) + z * cr);
  switch (q & 3) {
    case 0: *s = sy; *c = cy; break;
    case 1: *s = cy; *c = -sy; break;
    case 2: *s = -sy; *c = -cy; break;
    default: *s = -cy; *c = sy; break;
  }
}

namespace {

// One Box-Muller pair from a generator at `state`, as Normal() draws it;
// false (nothing written) when its first uniform is 0, which Normal() redraws.
inline bool NormalPairAt(uint64_t* state, double* c, double* s) {
  Rng g(*state);
  const double u1 = g.Uniform();
  if (u1 <= 0.0) return false;
  const double u2 = g.Uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  *s = r * std::sin(2.0 * M_PI * u2);
  *c = r * std::cos(2.0 * M_PI * u2);
  *state += 2 * kRngStep;
  return true;
}

// A float that every double within a relative 2^-40 of d rounds to, or
// nothing: glibc's sin and cos and SinCosNear differ by a few ulps (about
// 2^-50), so when d's float is this far from a rounding boundary, the
// Box-Muller value made with either is the same float.
inline bool FloatIsSure(double d, float* f) {
  constexpr double kTol = 0x1.0p-40;
  *f = static_cast<float>(d);
  return static_cast<float>(d * (1.0 + kTol)) == *f && static_cast<float>(d * (1.0 - kTol)) == *f;
}

// Pairs [begin, end) of a fill whose first pair starts at `state`; false at
// a zero first uniform. The same floats as NormalPairAt: each pair's sine and
// cosine come from SinCosNear, and only a value whose float glibc's could
// round otherwise (about 1 in 2^15) is made again with std::sin/std::cos,
// as NormalPairAt makes it.
bool FillPairs(uint64_t state, float* out, size_t begin, size_t end, double scale) {
  constexpr size_t kBlock = 64;
  double r[kBlock], x[kBlock];
  state += 2 * kRngStep * begin;
  for (size_t p0 = begin; p0 < end; p0 += kBlock) {
    const size_t n = std::min(kBlock, end - p0);
    for (size_t j = 0; j < n; ++j) {  // as NormalPairAt draws them
      Rng g(state + 2 * kRngStep * j);
      const double u1 = g.Uniform();
      if (u1 <= 0.0) return false;
      const double u2 = g.Uniform();
      r[j] = std::sqrt(-2.0 * std::log(u1));
      x[j] = 2.0 * M_PI * u2;
    }
    for (size_t j = 0; j < n; ++j) {
      double sn = 0, cs = 0;
      SinCosNear(x[j], &sn, &cs);
      float fc = 0, fs = 0;
      if (FloatIsSure(scale * (r[j] * cs), &fc) && FloatIsSure(scale * (r[j] * sn), &fs)) {
        out[2 * (p0 + j)] = fc;
        out[2 * (p0 + j) + 1] = fs;
      } else {
        out[2 * (p0 + j)] = static_cast<float>(scale * (r[j] * std::cos(x[j])));
        out[2 * (p0 + j) + 1] = static_cast<float>(scale * (r[j] * std::sin(x[j])));
      }
    }
    state += 2 * kRngStep * n;
  }
  return true;
}

}  // namespace

namespace {

// Pairs [begin, end) of a fill whose first pair starts at `state`, split over
// a few threads when there are many; false when a pair's first uniform is 0
// (Normal() redraws it, so the counters no longer say where pairs start) or
// not every thread could start.
bool FillPairsOnCores(uint64_t state, float* out, size_t begin, size_t end, double scale) {
  const size_t pairs = end - begin;
  constexpr size_t kPairsPerThread = size_t{1} << 18;
  const size_t threads = std::min<size_t>({4, std::max(1u, std::thread::hardware_concurrency()),
                                           std::max<size_t>(1, pairs / kPairsPerThread)});
  if (threads <= 1) return FillPairs(state, out, begin, end, scale);
  std::vector<char> ok(threads, 0);
  std::vector<std::thread> pool;
  auto chunk = [&](size_t c) {
    ok[c] = FillPairs(state, out, begin + pairs * c / threads, begin + pairs * (c + 1) / threads, scale) ? 1 : 0;
  };
  try {
    for (size_t c = 1; c < threads; ++c) pool.emplace_back(chunk, c);
  } catch (const std::system_error&) {
  }
  chunk(0);
  for (auto& t : pool) t.join();
  return pool.size() + 1 == threads && std::all_of(ok.begin(), ok.end(), [](char v) { return v != 0; });
}

}  // namespace

void Rng::FillNormal(float* out, size_t n, double scale) {
  size_t i = 0;
  if (has_spare_ && n > 0) out[i++] = static_cast<float>(scale * Normal());
  const size_t pairs = (n - i) / 2;
  constexpr size_t kPairsPerThread = size_t{1} << 18;
  const bool exact = pairs >= 2 * kPairsPerThread && std::thread::hardware_concurrency() > 1 &&
                     FillPairsOnCores(state_, out + i, 0, pairs, scale);
  if (exact) state_ += 2 * kRngStep * pairs;
  if (!exact)
    for (size_t p = 0; p < 2 * pairs; ++p) out[i + p] = static_cast<float>(scale * Normal());
  i += 2 * pairs;
  if (i < n) out[i] = static_cast<float>(scale * Normal());
}

int64_t Rng::Geometric(double p) {
  if (p >= 1.0) return 1;
  double u = 0;
  do { u = Uniform(); } while (u <= 0.0);
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(std::log(u) / std::log1p(-p))));
}

uint64_t FoldIn(uint64_t key, uint64_t data) {
  Rng r(key ^ (data * 0xD1B54A32D192ED03ULL + 0x8CB92BA72F3D8DD7ULL));
  r.NextU64();
  return r.NextU64();
}

uint64_t KeyForLabel(uint64_t seed, const std::string& label) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char ch : label) h = (h ^ ch) * 1099511628211ULL;
  return FoldIn(seed, h);
}

namespace {

void FillRuns(int64_t T, int64_t E, uint64_t seed, double alpha, double noise, std::vector<float>* v) {
  Rng rng(FoldIn(seed, 1));
  rng.FillNormal(v->data(), v->size(), noise);
  double mean_run = std::max(2.0, 1.0 / std::max(1e-6, 1.0 - alpha));
  double p = std::clamp(1.0 / mean_run, 0.01, 0.9);
  std::vector<int64_t> load(E, 0);
  int64_t prev = -1;
  std::vector<int64_t> cand;
  for (int64_t t = 0; t < T;) {
    int64_t len = std::min(rng.Geometric(p), T - t);
    int64_t lo = *std::min_element(load.begin(), load.end());
    cand.clear();
    for (int64_t e = 0; e < E; ++e)
      if (load[e] == lo) cand.push_back(e);
    if (cand.size() > 1) {
      auto it = std::find(cand.begin(), cand.end(), prev);
      if (it != cand.end()) cand.erase(it);
    }
    int64_t e = cand[rng.NextU64() % cand.size()];
    for (int64_t i = 0; i < len; ++i) (*v)[(t + i) * E + e] += 6.0f;
    load[e] += len;
    prev = e;
    t += len;
  }
}

}  // namespace

Logits GenerateLogits(const std::string& distribution, int64_t tokens, int64_t experts,
                      uint64_t seed, double run_alpha, double run_noise_scale) {
  Logits l{tokens, experts, std::vector<float>(static_cast<size_t>(tokens * experts))};
  uint64_t key = KeyForLabel(seed, "route/" + distribution);
  if (distribution == "runs") {
    FillRuns(tokens, experts, key, run_alpha, run_noise_scale, &l.values);
  } else {
    Rng rng(key);
    rng.FillNormal(l.values.data(), l.values.size(), 1.0);
  }
  return l;
}

void GrowRandomLogits(Logits* logits, int64_t tokens, uint64_t seed) {
  if (tokens <= logits->tokens) return;
  const uint64_t key = KeyForLabel(seed, "route/random");
  const size_t n1 = logits->values.size(), n2 = static_cast<size_t>(tokens * logits->experts);
  // Value i of the fill is the cosine (even i) or sine (odd i) of Box-Muller
  // pair i/2, which starts 2 (i/2) counter steps after the key: unless a
  // pair's first uniform was 0 (2^-53-likely), which Normal() redraws, moving
  // every later pair. Then the whole fill is made again.
  bool exact = true;
  for (size_t p = 0; p < (n1 + 1) / 2 && exact; ++p) {
    Rng g(key + 2 * kRngStep * p);
    exact = g.Uniform() > 0.0;
  }
  std::vector<float>& v = logits->values;
  v.resize(n2);
  size_t i = n1;
  double c = 0, sn = 0;
  if (exact && i % 2 == 1) {  // the sine of the pair whose cosine ends the old rows
    uint64_t st = key + 2 * kRngStep * (i / 2);
    exact = NormalPairAt(&st, &c, &sn);
    if (exact) v[i++] = static_cast<float>(sn);
  }
  exact = exact && FillPairsOnCores(key, v.data(), i / 2, n2 / 2, 1.0);
  if (exact && n2 % 2 == 1) {
    uint64_t st = key + 2 * kRngStep * (n2 / 2);
    exact = NormalPairAt(&st, &c, &sn);
    if (exact) v[n2 - 1] = static_cast<float>(c);
  }
  if (!exact) {
    *logits = GenerateLogits("random", tokens, logits->experts, seed, 0, 0);
    return;
  }
  logits->tokens = tokens;
}

namespace {

// A routing of T tokens to K of E experts, its ids and weights to fill.
Routing SizedRouting(int64_t T, int64_t K, int64_t E) {
  Routing r;
  r.tokens = T;
  r.topk = K;
  r.experts = E;
  r.ids.resize(T * K);
  r.weights.resize(T * K);
  return r;
}

// The K best of a row's E logits by a partial sort of the expert indices
// (idx holds E slots), their logits into val.
inline void PartialSortTopK(const float* row, int64_t E, int64_t K, std::vector<int32_t>* idx,
                            std::vector<float>* val) {
  for (int32_t e = 0; e < E; ++e) (*idx)[static_cast<size_t>(e)] = e;
  std::partial_sort(idx->begin(), idx->begin() + K, idx->end(), [row](int32_t a, int32_t b) {
    return row[a] > row[b] || (!(row[b] > row[a]) && a < b);
  });
  for (int64_t k = 0; k < K; ++k) (*val)[k] = row[(*idx)[k]];
}

// Token t's selection into r: the ids, and the softmax of the selected
// logits (best first) as weights; ex is scratch of K slots.
inline void WriteSelection(int64_t t, int64_t K, const std::vector<int32_t>& idx, const std::vector<float>& val,
                           std::vector<double>* ex, Routing* r) {
  const float mx = val[0];
  double sum = 0;
  for (int64_t k = 0; k < K; ++k) sum += ((*ex)[k] = std::exp(static_cast<double>(val[k] - mx)));
  for (int64_t k = 0; k < K; ++k) {
    r->ids[t * K + k] = idx[k];
    r->weights[t * K + k] = static_cast<float>((*ex)[k] / sum);
  }
}

}  // namespace

namespace {

// Tokens [t0, t1) of TopK(logits, r->topk) into r (sized for them).
void TopKRows(const Logits& logits, int64_t t0, int64_t t1, Routing* out) {
  const int64_t E = logits.experts, K = out->topk;
  Routing& r = *out;
  // The K best experts of a token, best first, by (logit descending, expert
  // ascending): a strict total order, so the selection is unique. Insertion
  // into a K-slot list beats a heap for the small K of MoE routers.
  // A large K (up to E) selects by a partial sort instead, O(E log K) a
  // token rather than O(E K): the same order, so the same selection.
  constexpr int64_t kInsertionMaxK = 16;
  std::vector<int32_t> idx(static_cast<size_t>(K > kInsertionMaxK ? E : K));
  std::vector<float> val(static_cast<size_t>(K));   // row[idx[k]] for the insertion lists
  std::vector<double> ex(static_cast<size_t>(K));   // exp(logit - best) of the selected
  for (int64_t t = t0; t < t1; ++t) {
    const float* row = &logits.values[t * E];
    if (K > kInsertionMaxK) {
      PartialSortTopK(row, E, K, &idx, &val);
    } else {
      // The first K experts fill the list; after that an expert enters only
      // above the K-th best so far (ties go to the smaller index, already in).
      for (int32_t e = 0; e < std::min<int64_t>(K, E); ++e) {
        const float v = row[e];
        int64_t pos = e;
        while (pos > 0 && v > val[pos - 1]) {
          idx[pos] = idx[pos - 1];
          val[pos] = val[pos - 1];
          --pos;
        }
        idx[pos] = e;
        val[pos] = v;
      }
      // Blocks of 16: a branch-free mask of the experts above the K-th best
      // at the block's start, then only those, in order, rechecked against
      // the K-th best as it rises (a branch per expert mispredicted often).
      float kth = val[K - 1];
      for (int64_t b = K; b < E; b += 16) {
        const int64_t n = std::min<int64_t>(16, E - b);
        uint32_t mask = 0;
        for (int64_t j = 0; j < n; ++j) mask |= static_cast<uint32_t>(row[b + j] > kth) << j;
        while (mask != 0) {
          const int64_t e = b + std::countr_zero(mask);
          mask &= mask - 1;
          const float v = row[e];
          if (!(v > kth)) continue;
          int64_t pos = K - 1;
          while (pos > 0 && v > val[pos - 1]) {
            idx[pos] = idx[pos - 1];
            val[pos] = val[pos - 1];
            --pos;
          }
          idx[pos] = static_cast<int32_t>(e);
          val[pos] = v;
          kth = val[K - 1];
        }
      }
    }
    WriteSelection(t, K, idx, val, &ex, &r);
  }
}

}  // namespace

Routing TopK(const Logits& logits, int64_t topk) {
  Routing r = SizedRouting(logits.tokens, topk, logits.experts);
  TopKRows(logits, 0, logits.tokens, &r);
  r.real_assignments = logits.tokens * topk;
  return r;
}

void GrowTopK(const Logits& logits, Routing* r) {
  const int64_t t0 = r->tokens, T = logits.tokens, K = r->topk;
  if (T <= t0) return;
  r->ids.resize(static_cast<size_t>(T * K));
  r->weights.resize(static_cast<size_t>(T * K));
  r->tokens = T;
  TopKRows(logits, t0, T, r);
  r->real_assignments = T * K;
}

Routing FirstTokens(const Routing& r, int64_t tokens) {
  if (tokens >= r.tokens) return r;
  Routing out;
  out.tokens = tokens;
  out.topk = r.topk;
  out.experts = r.experts;
  out.ids.assign(r.ids.begin(), r.ids.begin() + tokens * r.topk);
  out.weights.assign(r.weights.begin(), r.weights.begin() + tokens * r.topk);
  out.real_assignments = tokens * r.topk;
  return out;
}

Routing TopKPrefix(const Logits& logits, const Routing& wide, int64_t k) {
  const int64_t T = wide.tokens, E = wide.experts, W = wide.topk;
  Routing r = SizedRouting(T, k, E);
  std::vector<double> ex(static_cast<size_t>(k));
  for (int64_t t = 0; t < T; ++t) {
    const float* row = &logits.values[t * E];
    const int32_t* idx = &wide.ids[t * W];
    // As TopK computes them: the best logit, then a double sum of exps.
    float mx = row[idx[0]];
    double sum = 0;
    for (int64_t j = 0; j < k; ++j) sum += (ex[j] = std::exp(static_cast<double>(row[idx[j]] - mx)));
    for (int64_t j = 0; j < k; ++j) {
      r.ids[t * k + j] = idx[j];
      r.weights[t * k + j] = static_cast<float>(ex[j] / sum);
    }
  }
  r.real_assignments = T * k;
  return r;
}

namespace {

int64_t RoundHalfEven(double x) {
  double f = std::floor(x);
  double d = x - f;
  if (d > 0.5) return static_cast<int64_t>(f) + 1;
  if (d < 0.5) return static_cast<int64_t>(f);
  return static_cast<int64_t>(f) % 2 == 0 ? static_cast<int64_t>(f) : static_cast<int64_t>(f) + 1;
}

}  // namespace

void ApplyNullRouting(const NullOptions& o, Routing* r) {
  const int64_t T = r->tokens, K = r->topk, E = r->experts, A = T * K;
  r->null_target = o.frac;
  r->null_mode = o.mode;
  if (o.frac <= 0.0) {
    r->null_realized = 0.0;
    r->null_assignments = 0;
    r->real_assignments = A;
    return;
  }
  const int64_t M = o.null_experts > 0 ? o.null_experts
                                       : std::max<int64_t>(1, RoundHalfEven(E * o.frac / (1.0 - o.frac)));
  r->null_experts = M;
  r->stats.reset();  // ids change below
  std::vector<uint8_t> mask(A, 0);
  Rng rng(o.key);
  if (o.mode == "take_until_null") {
    for (int64_t t = 0; t < T; ++t) {
      int64_t keep = 0;
      for (int64_t k = 0; k < K; ++k) keep += rng.Uniform() < 1.0 - o.frac ? 1 : 0;
      for (int64_t k = keep; k < K; ++k) mask[t * K + k] = 1;
    }
  } else {
    for (int64_t p = 0; p < A; ++p) mask[p] = rng.Uniform() < o.frac ? 1 : 0;
  }
  if (std::all_of(mask.begin(), mask.end(), [](uint8_t m) { return m != 0; })) mask[0] = 0;
  int64_t nulls = 0;
  for (int64_t p = 0; p < A; ++p) {
    if (!mask[p]) continue;
    r->ids[p] = static_cast<int32_t>(E + p % M);
    r->weights[p] = 0.0f;
    ++nulls;
  }
  if (o.renormalize) {
    for (int64_t t = 0; t < T; ++t) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += r->weights[t * K + k];
      if (s > 0)
        for (int64_t k = 0; k < K; ++k) r->weights[t * K + k] = static_cast<float>(r->weights[t * K + k] / s);
    }
  }
  r->null_assignments = nulls;
  r->real_assignments = A - nulls;
  r->null_realized = static_cast<double>(nulls) / static_cast<double>(A);
}

namespace {

std::vector<int64_t> CountGroups(const Routing& r) {
  std::vector<int64_t> g(r.experts, 0);
  for (int32_t id : r.ids)
    if (id >= 0 && id < r.experts) ++g[id];
  return g;
}

// Run lengths of column 0 of the ids (after nulling), numpy-style p95: the
// order statistics by selection (O(n)), as a full sort would give them.
RunStats CountRuns(const Routing& r) {
  RunStats s;
  if (r.tokens == 0) return s;
  std::vector<int64_t> lens;
  int64_t cur = 1;
  for (int64_t t = 1; t < r.tokens; ++t) {
    if (r.ids[t * r.topk] == r.ids[(t - 1) * r.topk]) {
      ++cur;
    } else {
      lens.push_back(cur);
      cur = 1;
    }
  }
  lens.push_back(cur);
  s.runs = static_cast<int64_t>(lens.size());
  s.mean = static_cast<double>(r.tokens) / static_cast<double>(lens.size());
  s.max = *std::max_element(lens.begin(), lens.end());
  double pos = 0.95 * static_cast<double>(lens.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, lens.size() - 1);
  std::nth_element(lens.begin(), lens.begin() + static_cast<std::ptrdiff_t>(lo), lens.end());
  const int64_t at_lo = lens[lo];
  const int64_t at_hi =
      hi == lo ? at_lo : *std::min_element(lens.begin() + static_cast<std::ptrdiff_t>(lo) + 1, lens.end());
  s.p95 = at_lo + (pos - lo) * (at_hi - at_lo);
  return s;
}

}  // namespace

RoutingStats StatsOf(const Routing& r) { return {CountGroups(r), CountRuns(r)}; }

std::vector<int64_t> GroupSizes(const Routing& r) {
  std::vector<int64_t> g = r.stats ? r.stats->groups : CountGroups(r);
  if (r.token_scale != 1.0)
    for (auto& v : g) v = std::llround(static_cast<double>(v) * r.token_scale);
  return g;
}

RunStats ComputeRunStats(const Routing& r) { return r.stats ? r.stats->runs : CountRuns(r); }

LoadStats ComputeLoadStats(const std::vector<int64_t>& g) {
  LoadStats s;
  if (g.empty()) return s;
  s.min = *std::min_element(g.begin(), g.end());
  s.max = *std::max_element(g.begin(), g.end());
  double mean = std::accumulate(g.begin(), g.end(), 0.0) / g.size();
  double var = 0;
  for (int64_t c : g) var += (c - mean) * (c - mean);
  s.std = std::sqrt(var / g.size());
  s.cv = mean > 0 ? s.std / mean : 0.0;
  return s;
}

CapacityStats ComputeCapacityStats(const std::vector<int64_t>& g, int64_t tokens, int64_t topk,
                                   double cf) {
  CapacityStats s;
  if (cf <= 0.0 || g.empty()) return s;
  s.cap = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(cf * tokens * topk / static_cast<double>(g.size()))));
  for (int64_t c : g) s.dropped += std::max<int64_t>(0, c - s.cap);
  s.drop_frac = static_cast<double>(s.dropped) / static_cast<double>(tokens * topk);
  return s;
}

}  // namespace moelog::engine
