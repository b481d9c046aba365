#include "engine/bench_flags.h"

#include <algorithm>
#include <type_traits>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "engine/target.h"

namespace moelog::engine {
namespace {

using BC = BenchConfig;
constexpr Pairing kIgnored = Pairing::kIgnored;
constexpr CacheRole kNoCache = CacheRole::kNone;

FlagAxis Numeric(int rank, const char* label = "") { return {AxisKind::kNumeric, rank, label}; }
FlagAxis Categorical(int rank, const char* label = "") { return {AxisKind::kCategorical, rank, label}; }

// --target first: moelog adds it to every invocation it plans, and the
// command-line parser looks options up in the order they are declared.
// (A table, not a function: nothing reads it during static initialization.)
const std::vector<FlagSpec> kFlags = {
    {.key = "target", .flag = "--target", .field = &BC::target,
     .help = "engine backend: cpu (measured) or v5p (modeled)", .choices = TargetNames(), .column = false,
     .axis = Categorical(11)},
    {.key = "tokens", .flag = "--tokens", .field = &BC::tokens, .help = "T, tokens in the whole batch",
     .axis = Numeric(4, "tokens per step")},
    {.key = "hidden", .flag = "--hidden", .field = &BC::hidden, .help = "H, model width",
     .axis = Numeric(7, "hidden size")},
    {.key = "mlp_dim", .flag = "--mlp-dim", .field = &BC::mlp_dim, .help = "M, routed expert intermediate width",
     .axis = Numeric(3, "expert MLP width")},
    {.key = "experts", .flag = "--experts", .field = &BC::experts, .help = "E, routed experts",
     .axis = Numeric(5, "experts")},
    {.key = "topk", .flag = "--topk", .field = &BC::topk, .help = "K, experts per token",
     .axis = Numeric(1, "top-k (experts per token)")},
    {.key = "topk_list", .flag = "--topk-list", .field = &BC::topk_list,
     .help = "comma list of K values (replaces --topk)", .pairing = kIgnored, .cache = kNoCache},
    {.key = "shared_expert_dim", .flag = "--shared-expert-dim", .field = &BC::shared_expert_dim,
     .help = "S, shared expert width (0: none)", .alias = "shared", .axis = Numeric(8, "shared expert width")},
    {.key = "shared_fused", .flag = "--shared-fused", .field = &BC::shared_fused,
     .help = "shared gate/up as one [H,2S] matmul", .axis = Categorical(13)},
    {.key = "dtype", .flag = "--dtype", .field = &BC::dtype, .help = "float32 | bfloat16",
     .choices = {"float32", "bfloat16"}},
    {.key = "backend", .flag = "--backend", .field = &BC::backend, .help = "grouped matmul",
     .choices = {"gmm", "ragged_dot"}, .axis = Categorical(2)},
    {.key = "impl", .flag = "--impl", .field = &BC::impl, .help = "expert MLP and combine variant",
     .choices = {"baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter", "fast", "both"},
     .axis = Categorical(3)},
    {.key = "distribution", .flag = "--distribution", .field = &BC::distribution, .help = "router logits",
     .choices = {"random", "runs", "both"}, .axis = Categorical(8)},
    {.key = "bench_pass", .flag = "--bench-pass", .field = &BC::bench_pass,
     .choices = {"forward", "forward_backward"}, .alias = "pass", .axis = Categorical(10)},
    {.key = "queue_mode", .flag = "--queue-mode", .field = &BC::queue_mode,
     .help = "packing inside (full) or outside (prequeue) the timed region", .choices = {"full", "prequeue", "both"},
     .alias = "queue", .axis = Categorical(9)},
    {.key = "routing_pack_strategy", .flag = "--routing-pack-strategy", .field = &BC::routing_pack_strategy,
     .choices = {"argsort", "tuple_sort", "expert_score_sort"}, .alias = "routing",
     .axis = Categorical(7, "routing pack strategy")},
    {.key = "remat_mode", .flag = "--remat-mode", .field = &BC::remat_mode,
     .choices = {"none", "expert_mlp", "combine"}, .alias = "remat", .axis = Categorical(4, "remat mode")},
    {.key = "stage_timing", .flag = "--stage-timing", .field = &BC::stage_timing,
     .help = "also time pack/up/down/combine"},
    {.key = "capacity_factor", .flag = "--capacity-factor", .field = &BC::capacity_factor},
    {.key = "capacity_policy", .flag = "--capacity-policy", .field = &BC::capacity_policy,
     .choices = {"none", "drop", "pad"}},
    {.key = "run_alpha", .flag = "--run-alpha", .field = &BC::run_alpha,
     .help = "stickiness of the runs distribution"},
    {.key = "run_noise_scale", .flag = "--run-noise-scale", .field = &BC::run_noise_scale},
    {.key = "iters", .flag = "--iters", .field = &BC::iters, .help = "timed iterations", .pairing = kIgnored},
    {.key = "warmup", .flag = "--warmup", .field = &BC::warmup, .help = "untimed iterations after the first call",
     .pairing = kIgnored},
    {.key = "seed", .flag = "--seed", .field = &BC::seed, .column = false},
    {.key = "parallel_mode", .flag = "--parallel-mode", .field = &BC::parallel_mode,
     .choices = {"none", "ep", "dp"}, .alias = "parallel", .axis = Categorical(5, "parallel mode")},
    {.key = "ep_comm_path", .flag = "--ep-comm-path", .field = &BC::ep_comm_path,
     .choices = {"compact_psum", "ring_ag_rs", "a2a"}, .axis = Categorical(12, "EP communication path")},
    {.key = "ep_dispatch", .flag = "--ep-dispatch", .field = &BC::ep_dispatch, .choices = {"compact", "dense_masked"}},
    {.key = "dispatch_permute_mode", .flag = "--dispatch-permute-mode", .field = &BC::dispatch_permute_mode,
     .choices = {"direct_take", "repeat_sort"}},
    {.key = "use_custom_sort_vjp", .flag = "--use-custom-sort-vjp", .field = &BC::use_custom_sort_vjp},
    {.key = "trace_dir", .flag = "--trace-dir", .field = &BC::trace_dir,
     .help = "accepted for compatibility; moelog writes no profiler traces", .pairing = kIgnored,
     .cache = kNoCache},
    {.key = "trace_steps", .flag = "--trace-steps", .field = &BC::trace_steps,
     .help = "accepted for compatibility (bench_moe_mlp_profile.py); moelog writes no profiler traces",
     .pairing = kIgnored, .cache = kNoCache},
    {.key = "devices", .flag = "--devices", .field = &BC::devices, .help = "devices for ep/dp (cpu target)",
     .pairing = Pairing::kFollows, .follows = "parallel_mode", .axis = Numeric(6, "devices")},
    {.key = "mesh", .flag = "--mesh", .field = &BC::mesh, .help = "data=A,expert=B", .pairing = Pairing::kFollows,
     .follows = "parallel_mode"},
    {.key = "mlp_path", .flag = "--mlp-path", .field = &BC::mlp_path,
     .help = "the layer as bench_moe_mlp_profile.py runs it: ref_dp, staged_dp (dp), fused_ep (ep)",
     .choices = {"ref_dp", "staged_dp", "fused_ep"}, .axis = Categorical(1), .cache = CacheRole::kWhenSet},
    {.key = "staged_parallel", .flag = "--staged-parallel", .field = &BC::staged_parallel,
     .help = "staged_dp: overlap its stages", .cache = CacheRole::kWhenSet},
    {.key = "xla_scoped_vmem_kib", .flag = "--xla-scoped-vmem-kib", .field = &BC::xla_scoped_vmem_kib,
     .help = "v5p target: XLA's scoped VMEM limit (LIBTPU_INIT_ARGS --xla_tpu_scoped_vmem_limit_kib; 0: default)",
     .cache = CacheRole::kWhenSet},
    {.key = "quant_mode", .flag = "--quant-mode", .field = &BC::quant_mode,
     .choices = {"none", "int8", "int8_routed", "int8_all", "int8_routed_prequant"}, .alias = "quant",
     .axis = Categorical(6, "quantization")},
    {.key = "int8_impl", .flag = "--int8-impl", .field = &BC::int8_impl,
     .help = "v5p target: --quant-mode int8 as native int8 dots or as fake_quant (quantize-dequantize around bf16 "
             "matmuls, the harness's first int8 revision)",
     .choices = {"native", "fake_quant"}, .cache = CacheRole::kWhenSet},
    {.key = "null_route_frac", .flag = "--null-route-frac", .field = &BC::null_route_frac, .alias = "null_frac",
     .axis = Numeric(2, "null route fraction")},
    {.key = "null_route_frac_list", .flag = "--null-route-frac-list", .field = &BC::null_route_frac_list,
     .pairing = kIgnored, .cache = kNoCache},
    {.key = "null_route_sweep", .flag = "--null-route-sweep", .field = &BC::null_route_sweep,
     .help = "fractions 0.1..0.9", .pairing = kIgnored, .cache = kNoCache},
    {.key = "null_experts", .flag = "--null-experts", .field = &BC::null_experts},
    {.key = "null_route_seed", .flag = "--null-route-seed", .field = &BC::null_route_seed, .column = false},
    {.key = "renormalize_real_after_null", .flag = "--renormalize-real-after-null",
     .field = &BC::renormalize_real_after_null},
    {.key = "null_routing_mode", .flag = "--null-routing-mode", .field = &BC::null_routing_mode,
     .choices = {"independent", "take_until_null"}},
    {.key = "json", .flag = "--json", .field = &BC::json, .help = "print one JSON document with every figure",
     .pairing = kIgnored, .cache = kNoCache},
    {.key = "check_numerics", .flag = "--check-numerics", .field = &BC::check_numerics,
     .help = "compare with the double-precision reference", .pairing = kIgnored},
    {.key = "threads", .flag = "--threads", .field = &BC::threads, .help = "CPU threads (0: all cores)",
     .pairing = kIgnored},
    {.key = "hardware", .flag = "--hardware", .field = &BC::hardware,
     .help = "v5p target: hardware file (name in data/ or path)", .column = false},
    {.key = "model_params", .flag = "--model-params", .field = &BC::model_params,
     .help = "v5p target: fitted parameter file", .column = false},
    {.key = "quiet_ranks", .field = &BC::quiet_ranks, .pairing = kIgnored, .cache = kNoCache},
    {.key = "max_memory", .flag = "--max-memory", .field = &BC::max_memory_gb,
     .help = "cpu target: refuse a run whose estimated peak memory exceeds this many GB (0: the memory available)",
     .pairing = kIgnored, .cache = kNoCache},
    {.key = "quiet", .flag = "--quiet", .field = &BC::quiet,
     .help = "cpu target: no progress line on the terminal (runs done, the current one, time left)",
     .pairing = kIgnored, .cache = kNoCache},
    // Run-level keys: what a stored run answers besides its config.
    {.key = "host", .pairing = kIgnored, .cache = kNoCache},
    {.key = "entry", .pairing = kIgnored, .cache = kNoCache},
    {.key = "source", .pairing = kIgnored, .cache = kNoCache},
};

}  // namespace

const std::vector<FlagSpec>& BenchFlags() { return kFlags; }

const FlagSpec* FindRunKey(const std::string& key) {
  // Pairing and column choice ask this per key of every run: a hash lookup.
  static const std::unordered_map<std::string, const FlagSpec*> kByKey = [] {
    std::unordered_map<std::string, const FlagSpec*> m;
    for (const auto& f : BenchFlags()) m.emplace(f.key, &f);
    return m;
  }();
  auto it = kByKey.find(key);
  return it == kByKey.end() ? nullptr : it->second;
}

std::vector<std::string> AxisKeys(AxisKind kind) {
  std::vector<const FlagSpec*> axes;
  for (const auto& f : BenchFlags())
    if (f.axis.kind == kind) axes.push_back(&f);
  std::stable_sort(axes.begin(), axes.end(), [](const FlagSpec* a, const FlagSpec* b) { return a->axis.rank < b->axis.rank; });
  std::vector<std::string> keys;
  for (const FlagSpec* f : axes) keys.push_back(f->key);
  return keys;
}

namespace {

// A flag's value as the cache key holds it: the config's own, or for a few
// flags one derived from the whole config (the expanded sweep lists, the
// devices the run uses, staged_parallel where it applies).
nlohmann::json FlagValue(const BenchConfig& c, const FlagSpec& f) {
  const std::string key = f.key;
  if (key == "topk") return c.TopkValues();
  if (key == "null_route_frac") return c.NullFracValues();
  if (key == "devices") return c.DeviceCount();
  if (key == "staged_parallel") return c.staged_parallel && c.mlp_path == "staged_dp";
  return std::visit([&](auto field) -> nlohmann::json {
    if constexpr (std::is_same_v<decltype(field), std::monostate>) return nullptr;
    else return c.*field;
  }, f.field);
}

// Whether the cache key holds the flag: kWhenSet flags only when they differ
// from the default (the hillclimb layer's keys, and cache keys, are unchanged
// by flags added later).
bool InCacheKey(const BenchConfig& c, const FlagSpec& f, const nlohmann::json& value) {
  if (f.cache == CacheRole::kNone) return false;
  const auto& foreign = TargetOrDefault(c.target).foreign_keys;
  if (std::find(foreign.begin(), foreign.end(), f.key) != foreign.end()) return false;
  return f.cache == CacheRole::kValue || value != FlagValue(BenchConfig{}, f);
}

}  // namespace

std::string CanonicalConfigJson(const BenchConfig& c) {
  nlohmann::json j;  // std::map-backed: keys come out sorted
  for (const FlagSpec& f : BenchFlags()) {
    if (f.cache == CacheRole::kNone) continue;
    nlohmann::json value = FlagValue(c, f);
    if (InCacheKey(c, f, value)) j[f.key] = std::move(value);
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace moelog::engine
