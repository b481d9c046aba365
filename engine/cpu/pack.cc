// Packing ("dispatch", harness 2.3 and 2.6): sort assignments by expert,
// apply the capacity policy, gather x rows.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>

#include "engine/cpu/kernels.h"
#include "engine/cpu/moe_layer.h"
#include "engine/enum_names.h"

namespace moelog::engine::cpu {

namespace {

const Named<GroupedBackend> kBackends[] = {{"gmm", GroupedBackend::kGmm}, {"ragged_dot", GroupedBackend::kRaggedDot}};
const Named<PackStrategy> kStrategies[] = {{"argsort", PackStrategy::kArgsort},
                                           {"tuple_sort", PackStrategy::kTupleSort},
                                           {"expert_score_sort", PackStrategy::kExpertScoreSort}};
const Named<CapacityPolicy> kPolicies[] = {
    {"none", CapacityPolicy::kNone}, {"drop", CapacityPolicy::kDrop}, {"pad", CapacityPolicy::kPad}};
const Named<QuantMode> kQuantModes[] = {{"none", QuantMode::kNone},
                                        {"int8", QuantMode::kInt8},
                                        {"int8_routed", QuantMode::kInt8Routed},
                                        {"int8_all", QuantMode::kInt8All},
                                        {"int8_routed_prequant", QuantMode::kInt8RoutedPrequant}};
const Named<RematMode> kRematModes[] = {
    {"none", RematMode::kNone}, {"expert_mlp", RematMode::kExpertMlp}, {"combine", RematMode::kCombine}};

}  // namespace

Result<GroupedBackend> ParseGroupedBackend(const std::string& n) {
  return ValueNamed(kBackends, n, "--backend", "grouped matmul");
}
Result<PackStrategy> ParsePackStrategy(const std::string& n) {
  return ValueNamed(kStrategies, n, "--routing-pack-strategy", "strategy");
}
Result<CapacityPolicy> ParseCapacityPolicy(const std::string& n) {
  return ValueNamed(kPolicies, n, "--capacity-policy", "policy");
}
Result<QuantMode> ParseQuantMode(const std::string& n) { return ValueNamed(kQuantModes, n, "--quant-mode", "mode"); }
Result<RematMode> ParseRematMode(const std::string& n) { return ValueNamed(kRematModes, n, "--remat-mode", "mode"); }

bool QuantRouted(QuantMode q) {
  return q == QuantMode::kInt8Routed || q == QuantMode::kInt8All || q == QuantMode::kInt8RoutedPrequant;
}
bool QuantDense(QuantMode q) { return q == QuantMode::kInt8 || q == QuantMode::kInt8All; }

namespace {

// argsort: a stable sort of position indices keyed by expert id.
std::vector<int64_t> SortArgsort(const std::vector<int32_t>& ids) {
  std::vector<int64_t> idx(ids.size());
  std::iota(idx.begin(), idx.end(), int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return ids[a] < ids[b]; });
  return idx;
}

// tuple_sort: an (unstable) sort of (expert id, flat position, token) tuples;
// the flat position as second key makes the order unique, so it equals the
// stable argsort.
std::vector<int64_t> SortTuples(const std::vector<int32_t>& ids, int64_t topk) {
  std::vector<std::tuple<int32_t, int64_t, int64_t>> t(ids.size());
  for (size_t p = 0; p < ids.size(); ++p)
    t[p] = {ids[p], static_cast<int64_t>(p), static_cast<int64_t>(p) / topk};
  std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  std::vector<int64_t> out(ids.size());
  for (size_t r = 0; r < t.size(); ++r) out[r] = std::get<1>(t[r]);
  return out;
}

// expert_score_sort: a counting sort (histogram, prefix sum, stable scatter)
// keyed on the expert id only, carrying the token's top-1 score along as the
// harness does (the score is not a sort key there either).
std::vector<int64_t> SortCounting(const std::vector<int32_t>& ids, int64_t topk,
                                  const std::vector<float>& weights) {
  int32_t max_id = 0;
  for (int32_t v : ids) max_id = std::max(max_id, v);
  std::vector<int64_t> start(static_cast<size_t>(max_id) + 2, 0);
  for (int32_t v : ids) ++start[static_cast<size_t>(v) + 1];
  for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  std::vector<int64_t> out(ids.size());
  std::vector<float> score(ids.size());
  for (size_t p = 0; p < ids.size(); ++p) {
    int64_t r = start[static_cast<size_t>(ids[p])]++;
    out[static_cast<size_t>(r)] = static_cast<int64_t>(p);
    size_t top1 = (p / static_cast<size_t>(topk)) * static_cast<size_t>(topk);
    score[static_cast<size_t>(r)] = weights.empty() ? 0.0f : weights[top1];
  }
  return out;
}

}  // namespace

std::vector<int64_t> SortAssignments(const std::vector<int32_t>& ids, int64_t topk, PackStrategy s,
                                     const std::vector<float>& weights) {
  switch (s) {
    case PackStrategy::kArgsort: return SortArgsort(ids);
    case PackStrategy::kTupleSort: return SortTuples(ids, topk);
    case PackStrategy::kExpertScoreSort: return SortCounting(ids, topk, weights);
  }
  return SortArgsort(ids);
}

namespace {

// Appends flat position p (-1: a padding row) with its weight to the plan.
inline void AddPackRow(const Routing& routing, int64_t p, bool keep, float w, PackPlan* plan) {
  plan->flat.push_back(p);
  plan->token.push_back(p < 0 ? 0 : static_cast<int32_t>(p / routing.topk));
  plan->weight.push_back(w);
  plan->keep.push_back(keep ? 1 : 0);
}

// --capacity-policy pad: exactly cap slots per local expert, its first cap
// assignments then zeros.
void PackPadded(const Routing& routing, const std::vector<int64_t>& order, int64_t e_begin, int64_t e_count,
                PackPlan* plan) {
  size_t i = 0;
  while (i < order.size() && routing.ids[order[i]] < e_begin) ++i;
  for (int64_t g = 0; g < e_count; ++g) {
    int64_t taken = 0;
    while (i < order.size() && routing.ids[order[i]] == e_begin + g) {
      int64_t p = order[i++];
      if (taken < plan->cap) {
        AddPackRow(routing, p, true, routing.weights[p], plan);
        ++taken;
      }
    }
    for (; taken < plan->cap; ++taken) AddPackRow(routing, -1, false, 0.0f, plan);
    plan->group_sizes[static_cast<size_t>(g)] = plan->cap;
  }
}

// Every local assignment in expert order (under drop, those past the cap
// kept as zero-weight rows); other experts' rows after them when asked.
void PackLocal(const Routing& routing, const std::vector<int64_t>& order, int64_t e_begin, int64_t e_count,
               const PackOptions& o, PackPlan* plan) {
  auto local = [&](int32_t id) { return id >= e_begin && id < e_begin + e_count; };
  int64_t rank = 0;
  int32_t prev = -1;
  for (int64_t p : order) {
    int32_t id = routing.ids[p];
    if (!local(id)) continue;
    rank = id == prev ? rank + 1 : 0;
    prev = id;
    ++plan->group_sizes[static_cast<size_t>(id - e_begin)];
    bool dropped = o.capacity == CapacityPolicy::kDrop && rank >= plan->cap;
    AddPackRow(routing, p, !dropped, dropped ? 0.0f : routing.weights[p], plan);
  }
  if (o.keep_other_rows)
    for (int64_t p : order)
      if (!local(routing.ids[p])) AddPackRow(routing, p, true, 0.0f, plan);
}

}  // namespace

Result<PackPlan> PlanPack(const Routing& routing, const PackOptions& o) {
  const int64_t a_total = routing.tokens * routing.topk;
  if (static_cast<int64_t>(routing.ids.size()) != a_total || static_cast<int64_t>(routing.weights.size()) != a_total)
    return Status::Internal("PlanPack: routing has " + std::to_string(routing.ids.size()) + " ids for " +
                            std::to_string(a_total) + " assignments");
  PackPlan plan;
  plan.tokens = routing.tokens;
  plan.topk = routing.topk;
  plan.experts = routing.experts;
  const int64_t e_begin = o.expert_begin;
  const int64_t e_count = o.expert_count > 0 ? o.expert_count : routing.experts - e_begin;
  plan.group_sizes.assign(static_cast<size_t>(e_count), 0);
  if (o.capacity != CapacityPolicy::kNone) {
    double c = std::ceil(o.capacity_factor * static_cast<double>(a_total) / static_cast<double>(routing.experts));
    plan.cap = std::max<int64_t>(1, static_cast<int64_t>(c));
  }
  std::vector<int64_t> order = SortAssignments(routing.ids, routing.topk, o.strategy, routing.weights);
  // Per-expert counts over all real experts, for the drop statistics.
  std::vector<int64_t> counts(static_cast<size_t>(routing.experts), 0);
  for (int32_t id : routing.ids)
    if (id >= 0 && id < routing.experts) ++counts[static_cast<size_t>(id)];
  for (int64_t e = 0; e < routing.experts; ++e)
    if (plan.cap > 0) plan.dropped += std::max<int64_t>(0, counts[static_cast<size_t>(e)] - plan.cap);
  if (o.capacity == CapacityPolicy::kPad) PackPadded(routing, order, e_begin, e_count, &plan);
  else PackLocal(routing, order, e_begin, e_count, o, &plan);
  for (int64_t g : plan.group_sizes) plan.valid_rows += g;
  if (o.pad_rows_to_tile) {
    int64_t n = static_cast<int64_t>(plan.flat.size());
    int64_t padded = (n + kGmmTileRows - 1) / kGmmTileRows * kGmmTileRows;
    for (int64_t r = n; r < padded; ++r) AddPackRow(routing, -1, false, 0.0f, &plan);
  }
  plan.rows = static_cast<int64_t>(plan.flat.size());
  return plan;
}

std::vector<int64_t> InversePermutation(const PackPlan& plan) {
  std::vector<int64_t> inv(static_cast<size_t>(plan.tokens * plan.topk), -1);
  for (int64_t r = 0; r < plan.rows; ++r)
    if (plan.flat[r] >= 0) inv[static_cast<size_t>(plan.flat[r])] = r;
  return inv;
}

void GatherRows(const Tensor& x, const PackPlan& plan, bool quantize_rows, PackedRows* rows, bool float_rows) {
  const int64_t h = x.dim(1);
  const int64_t esize = DTypeSize(x.dtype());
  rows->plan = &plan;
  // Without float rows, x stays a [0, H] tensor that only carries the dtype.
  const int64_t frows = float_rows || !quantize_rows ? plan.rows : 0;
  if (rows->x.dtype() != x.dtype() || rows->x.shape() != std::vector<int64_t>{frows, h})
    rows->x = Tensor(x.dtype(), {frows, h});
  const char* src = static_cast<const char*>(x.data());
  char* dst = static_cast<char*>(rows->x.data());
  const size_t row_bytes = static_cast<size_t>(h * esize);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < frows; ++r) {
    if (plan.keep[r]) std::memcpy(dst + r * h * esize, src + int64_t{plan.token[r]} * h * esize, row_bytes);
    else std::memset(dst + r * h * esize, 0, row_bytes);
  }
  if (!quantize_rows) {
    rows->xq.clear();
    rows->xq_scale.clear();
    return;
  }
  // Pack+quant fusion: each token is quantized once, straight into its first
  // row of the buffer, and that int8 row is copied to its other rows.
  const int64_t t = x.dim(0), k = plan.topk;
  rows->xq.resize(static_cast<size_t>(plan.rows * h));
  rows->xq_scale.resize(static_cast<size_t>(plan.rows));
  std::vector<int64_t> slot(static_cast<size_t>(t * k));
  std::vector<int32_t> count(static_cast<size_t>(t), 0);
  for (int64_t r = 0; r < plan.rows; ++r) {
    if (!plan.keep[r]) continue;
    const int64_t tok = plan.token[r];
    slot[static_cast<size_t>(tok * k + count[static_cast<size_t>(tok)]++)] = r;
  }
  int8_t* q = rows->xq.data();
  float* qs = rows->xq_scale.data();
  DispatchFloat(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* xs = x.as<T>();
#pragma omp parallel for schedule(static)
    for (int64_t tok = 0; tok < t; ++tok) {
      const int32_t c = count[static_cast<size_t>(tok)];
      if (c == 0) continue;
      const int64_t* sl = &slot[static_cast<size_t>(tok * k)];
      const float s = QuantizeRow(xs + tok * h, h, q + sl[0] * h);
      qs[sl[0]] = s;
      for (int32_t i = 1; i < c; ++i) {
        std::memcpy(q + sl[i] * h, q + sl[0] * h, static_cast<size_t>(h));
        qs[sl[i]] = s;
      }
    }
  });
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < plan.rows; ++r) {
    if (plan.keep[r]) continue;
    std::memset(q + r * h, 0, static_cast<size_t>(h));
    qs[r] = 0.0f;
  }
}

void GatherRowsRepeatSort(const Tensor& x, const PackPlan& plan, Tensor* repeated, PackedRows* rows) {
  const int64_t t = x.dim(0), h = x.dim(1), k = plan.topk;
  const int64_t es = DTypeSize(x.dtype());
  const size_t row_bytes = static_cast<size_t>(h * es);
  if (repeated->empty() || repeated->dtype() != x.dtype() || repeated->dim(0) != t * k || repeated->dim(1) != h)
    *repeated = Tensor(x.dtype(), {t * k, h});
  const char* src = static_cast<const char*>(x.data());
  char* rep = static_cast<char*>(repeated->data());
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < t * k; ++p) std::memcpy(rep + p * h * es, src + (p / k) * h * es, row_bytes);
  rows->plan = &plan;
  rows->xq.clear();
  rows->xq_scale.clear();
  if (rows->x.empty() || rows->x.dtype() != x.dtype() || rows->x.dim(0) != plan.rows || rows->x.dim(1) != h)
    rows->x = Tensor(x.dtype(), {plan.rows, h});
  char* dst = static_cast<char*>(rows->x.data());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < plan.rows; ++r) {
    if (plan.keep[r]) std::memcpy(dst + r * h * es, rep + plan.flat[r] * h * es, row_bytes);
    else std::memset(dst + r * h * es, 0, row_bytes);
  }
}

void QuantizeRows(const void* src, DType dtype, int64_t rows, int64_t cols, int64_t ld, int8_t* q,
                  float* scales) {
  DispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* s = static_cast<const T*>(src);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) scales[r] = QuantizeRow(s + r * ld, cols, q + r * cols);
  });
}

float QuantizeMatrix(const void* src, DType dtype, int64_t n, int8_t* q) {
  float scale = 0.0f;
  DispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* s = static_cast<const T*>(src);
    constexpr int64_t kChunk = 1 << 14;
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    float amax = 0.0f;
#pragma omp parallel for reduction(max : amax) schedule(static)
    for (int64_t c = 0; c < chunks; ++c)
      amax = std::max(amax, AbsMax(s + c * kChunk, std::min(kChunk, n - c * kChunk)));
    scale = QuantScale(amax);
    const float sc = scale;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < chunks; ++c) QuantizeWithScale(s + c * kChunk, std::min(kChunk, n - c * kChunk), sc, q + c * kChunk);
  });
  return scale;
}

}  // namespace moelog::engine::cpu
