// Routing: synthetic router logits (random, runs), top-k with softmax over the
// selected logits, null routing, and the statistics the harness prints. The
// CPU engine and the v5p model both take group sizes from here, so the model
// sees exactly the load imbalance the engine computes.
#ifndef MOELOG_ENGINE_ROUTING_H_
#define MOELOG_ENGINE_ROUTING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace moelog::engine {

// Router logits [tokens, experts] in row-major float32.
struct Logits {
  int64_t tokens = 0;
  int64_t experts = 0;
  std::vector<float> values;
};

// A deterministic counter-based generator (splitmix64). Same seed, same values
// on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t NextU64();
  double Uniform();       // [0,1)
  double Normal();        // N(0,1), Box-Muller
  // out[i] = float(scale * Normal()) for i in [0, n): the same values, and
  // the generator left in the same state, as n calls in turn. Large fills
  // are split over a few threads (each Box-Muller pair takes two draws, so
  // a chunk's start is known; the 2^-53-likely redraw of a zero falls back
  // to the sequential fill).
  void FillNormal(float* out, size_t n, double scale);
  int64_t Geometric(double p);  // trials until first success, >= 1
 private:
  uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0;
};

// sin(x) and cos(x) for x in [0, 2 pi], within a few ulps of glibc's (not
// its bits): Rng::FillNormal's fast path, which keeps glibc's floats (see
// routing.cc FloatIsSure). Exposed for its accuracy test.
void SinCosNear(double x, double* s, double* c);

// Mixes a parent key with a label, like JAX's fold_in.
uint64_t FoldIn(uint64_t key, uint64_t data);
uint64_t KeyForLabel(uint64_t seed, const std::string& label);

// `random`: iid N(0,1). `runs`: geometric runs (mean max(2, 1/(1-alpha))) on
// the least-loaded expert (previous run's expert excluded when there is a
// choice), N(0, noise_scale) noise plus 6.0 at the run's expert.
// The logits depend only on (seed, distribution), so they are identical
// across a top-k or null sweep.
Logits GenerateLogits(const std::string& distribution, int64_t tokens, int64_t experts,
                      uint64_t seed, double run_alpha, double run_noise_scale);

// GenerateLogits("random", tokens, ...) from the logits of fewer tokens of
// the same experts and seed (`logits`, grown in place): those are its first
// rows (one stream, row-major), so only the new rows are drawn.
// REQUIRES: *logits == GenerateLogits("random", logits->tokens, logits->experts, seed, ...).
void GrowRandomLogits(Logits* logits, int64_t tokens, uint64_t seed);

struct RunStats { int64_t runs = 0; double mean = 0, p95 = 0; int64_t max = 0; };

// What GroupSizes (before token_scale) and ComputeRunStats find in a
// routing's ids, computed once for the runs that share a selection.
struct RoutingStats {
  std::vector<int64_t> groups;
  RunStats runs;
};

// Fixed routing at one topk and null fraction.
struct Routing {
  int64_t tokens = 0;
  int64_t topk = 0;
  int64_t experts = 0;
  std::vector<int32_t> ids;     // [T*K], flat p = t*K + k; null slots have ids >= experts
  std::vector<float> weights;   // [T*K] float32, 0 for null slots
  // Null routing.
  double null_target = 0.0;
  double null_realized = 0.0;
  int64_t null_experts = 0;     // M, number of null slot ids (0 when no null routing)
  int64_t null_assignments = 0;
  int64_t real_assignments = 0;
  std::string null_mode = "independent";
  // Each routed token stands for this many tokens of the batch: > 1 when the
  // routing is a bounded sample of a larger batch (the v5p model of very large
  // T). GroupSizes and the assignment counts are scaled by it.
  double token_scale = 1.0;
  // StatsOf(ids as they are), when the maker knows them (RunBench: one
  // selection serves many runs); GroupSizes and ComputeRunStats then read
  // them. ApplyNullRouting drops them when it changes ids; whoever else
  // changes ids must too.
  std::shared_ptr<const RoutingStats> stats;
};

// GroupSizes (before token_scale) and ComputeRunStats of r's ids, computed.
RoutingStats StatsOf(const Routing& r);

// Top-k per token (descending logit, ties by lower expert id), weights are a
// softmax over the k selected logits.
Routing TopK(const Logits& logits, int64_t topk);
// TopK(logits, k) from a wider selection `wide` = TopK(logits, K), K >= k:
// each token's first k, the weights a softmax over them. The same routing,
// bit for bit, at O(T k) instead of a pass over every logit.
// REQUIRES: wide.topk >= k >= 1, wide from these logits.
Routing TopKPrefix(const Logits& logits, const Routing& wide, int64_t k);

// `r` = TopK(the first r->tokens rows of logits, K) grown to every row:
// each token's selection is its own, so the first rows keep theirs.
void GrowTopK(const Logits& logits, Routing* r);
// The routing of the first `tokens` tokens of `r` (r before null routing):
// what TopK gives on the first `tokens` rows of its logits.
Routing FirstTokens(const Routing& r, int64_t tokens);

struct NullOptions {
  double frac = 0.0;
  std::string mode = "independent";  // independent | take_until_null
  int64_t null_experts = 0;          // 0: M = max(1, round_half_even(E f / (1-f)))
  uint64_t key = 0;                  // null-mask key (folds in --null-route-seed)
  bool renormalize = false;
};

// Applies null routing in place. f == 0 leaves the routing unchanged (but
// fills real_assignments). For a fixed key, independent masks are nested in f.
void ApplyNullRouting(const NullOptions& options, Routing* routing);

// Per-expert assignment counts over real experts 0..E-1.
std::vector<int64_t> GroupSizes(const Routing& routing);

struct LoadStats { int64_t min = 0, max = 0; double std = 0, cv = 0; };
struct CapacityStats { int64_t cap = 0, dropped = 0; double drop_frac = 0; };

// Run lengths of column 0 of the ids (after nulling), numpy-style p95.
RunStats ComputeRunStats(const Routing& routing);
LoadStats ComputeLoadStats(const std::vector<int64_t>& group_sizes);
// cap = ceil(cf * T*K / E) (0 when cf <= 0); dropped = sum max(count - cap, 0).
CapacityStats ComputeCapacityStats(const std::vector<int64_t>& group_sizes, int64_t tokens,
                                   int64_t topk, double capacity_factor);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_ROUTING_H_
