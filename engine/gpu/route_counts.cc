// CountRoutes: the routing facts the GPU model's stages need, from
// engine/routing's router (random logits, top-k), with DeepEP's test-style
// group-limited routing (top-k over the experts of the best nodes).
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/gpu/model.h"
#include "engine/routing.h"

namespace moelog::engine::gpu {
namespace {

constexpr int64_t kSampleTokens = int64_t{1} << 14;  // a bounded sample of larger batches
constexpr int64_t kMaxLogits = int64_t{1} << 24;     // and of wide routers: 64 MB of logits at most

// Keeps only the experts of each token's `groups` best nodes (a node's score
// is its best expert's logit), as DeepEP's internode tests route.
void LimitGroups(Logits* l, int64_t nodes, int64_t groups) {
  if (groups <= 0 || groups >= nodes) return;
  const int64_t per = l->experts / nodes;
  std::vector<std::pair<float, int64_t>> score(static_cast<size_t>(nodes));
  for (int64_t t = 0; t < l->tokens; ++t) {
    float* row = l->values.data() + t * l->experts;
    for (int64_t n = 0; n < nodes; ++n)
      score[n] = {*std::max_element(row + n * per, row + (n + 1) * per), n};
    std::partial_sort(score.begin(), score.begin() + groups, score.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
    for (int64_t i = groups; i < nodes; ++i)
      std::fill(row + score[i].second * per, row + (score[i].second + 1) * per,
                -std::numeric_limits<float>::infinity());
  }
}

int64_t TopkGroups(const Case& c) {
  if (c.topk_groups >= 0) return c.topk_groups;
  const bool deepep = c.library.rfind("deepep", 0) == 0 && c.library != "deepep_v2";
  return deepep && c.nodes > 1 ? std::min<int64_t>(c.nodes, 4) : 0;
}

// Comm counts over the first `tokens` tokens of `r`, for source rank 0.
void CountComm(const Case& c, const Routing& r, int64_t tokens, double scale, RouteCounts* out) {
  const int64_t per_rank = c.experts / c.ep, per_node = per_rank * c.gpus_per_node;
  std::vector<int64_t> ranks, nodes;
  for (int64_t t = 0; t < tokens; ++t) {
    ranks.clear();
    nodes.clear();
    for (int64_t k = 0; k < r.topk; ++k) {
      const int64_t e = r.ids[t * r.topk + k];
      if (e >= c.experts) continue;
      ranks.push_back(e / per_rank);
      nodes.push_back(e / per_node);
      out->same_node_selections += scale * (e / per_node == 0);
      out->selections += scale;
    }
    std::sort(ranks.begin(), ranks.end());
    std::sort(nodes.begin(), nodes.end());
    const auto nr = std::unique(ranks.begin(), ranks.end()) - ranks.begin();
    const auto nn = std::unique(nodes.begin(), nodes.end()) - nodes.begin();
    out->distinct_ranks += scale * static_cast<double>(nr);
    out->distinct_nodes += scale * static_cast<double>(nn);
    out->self_hits += scale * (nr > 0 && ranks[0] == 0);
    out->own_node_hits += scale * (nn > 0 && nodes[0] == 0);
  }
}

}  // namespace

namespace {

struct Sample {
  int64_t comm_tokens = 0, batch_tokens = 0;
  double batch = 0;
};

bool Routable(const Case& c) {
  const bool routed = c.kernel == "moe_layer" || c.kernel.rfind("ep_", 0) == 0;
  return routed && c.tokens > 0 && c.experts > 0 && c.experts <= kMaxExperts && c.topk > 0 && c.ep > 0 &&
         c.nodes > 0 && c.gpus_per_node > 0 && c.experts % c.ep == 0;
}

Sample SampleOf(const Case& c) {
  Sample s;
  const int64_t cap = std::max<int64_t>(1, std::min(kSampleTokens, kMaxLogits / c.experts));
  s.comm_tokens = std::min(c.tokens, cap);
  s.batch = static_cast<double>(c.tokens) * static_cast<double>(c.ep);
  s.batch_tokens = std::max(s.comm_tokens, static_cast<int64_t>(std::min<double>(s.batch, static_cast<double>(cap))));
  if (c.kernel != "moe_layer") s.batch_tokens = s.comm_tokens;  // the experts' groups are the layer's only
  return s;
}

Routing Route(const Case& c, const Sample& s) {
  Logits logits = GenerateLogits("random", s.batch_tokens, c.experts, c.seed, 0.0, 1.0);
  LimitGroups(&logits, c.nodes, TopkGroups(c));
  return TopK(logits, std::min(c.topk, c.experts));
}

RouteCounts CountFrom(const Case& c, const Sample& s, const Routing& r) {
  RouteCounts out;
  CountComm(c, r, s.comm_tokens, static_cast<double>(c.tokens) / static_cast<double>(s.comm_tokens), &out);
  if (c.kernel != "moe_layer") return out;
  const std::vector<int64_t> groups = GroupSizes(r);
  const double scale = s.batch / static_cast<double>(s.batch_tokens);
  const int64_t per_rank = c.experts / c.ep;
  int64_t best = 0, best_rows = -1;
  for (int64_t rank = 0; rank < c.ep; ++rank) {
    int64_t rows = 0;
    for (int64_t e = rank * per_rank; e < (rank + 1) * per_rank; ++e) rows += groups[e];
    if (rows > best_rows) best_rows = rows, best = rank;
  }
  for (int64_t e = best * per_rank; e < (best + 1) * per_rank; ++e)
    out.local_groups.push_back(std::round(static_cast<double>(groups[e]) * scale));
  return out;
}

}  // namespace

RouteCounts CountRoutes(const Case& c) {
  if (!Routable(c)) return RouteCounts{};
  const Sample s = SampleOf(c);
  return CountFrom(c, s, Route(c, s));
}

const RouteCounts& RouteCounter::For(const Case& c) {
  static const RouteCounts kNone;
  if (!Routable(c)) return kNone;
  const Sample s = SampleOf(c);
  const int64_t groups = TopkGroups(c);
  const bool limited = groups > 0 && groups < c.nodes;  // otherwise the layout does not change the routing
  const std::string shape = std::to_string(c.tokens) + "/" + std::to_string(c.experts) + "/" + std::to_string(c.topk) +
                            "/" + std::to_string(c.seed) + "/" + std::to_string(s.batch_tokens) + "/" +
                            (limited ? std::to_string(c.nodes) + "/" + std::to_string(groups) : std::string("-"));
  const std::string layout = shape + "|" + std::to_string(c.ep) + "/" + std::to_string(c.gpus_per_node);
  if (auto it = counts_.find(layout); it != counts_.end()) return it->second;
  auto rt = routings_.find(shape);
  if (rt == routings_.end()) rt = routings_.emplace(shape, Route(c, s)).first;
  return counts_.emplace(layout, CountFrom(c, s, rt->second)).first->second;
}

}  // namespace moelog::engine::gpu
