// BenchConfig: every flag of the hillclimb harness (the union of its versions,
// same names, defaults and choices) plus moelog's additions. RunPoint: one
// point of the harness's sweep loop (distribution x topk x impl x null frac).
#ifndef MOELOG_ENGINE_BENCH_CONFIG_H_
#define MOELOG_ENGINE_BENCH_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/target.h"  // kV5pSampleTokens, kMaxV5pTokens

namespace moelog::engine {

struct BenchConfig {
  // Shape and dtype (docs/harness.md §1.1).
  int64_t tokens = 32768;
  int64_t hidden = 2048;
  int64_t mlp_dim = 4096;
  int64_t experts = 8;
  int64_t topk = 4;
  std::string topk_list;             // "2,8": replaces topk when non-empty
  int64_t shared_expert_dim = 0;
  bool shared_fused = false;
  std::string dtype = "bfloat16";    // float32 | bfloat16
  // Kernel and implementation (1.2).
  std::string backend = "gmm";       // gmm | ragged_dot
  std::string impl = "both";         // baseline fused_w13 preweight fused_w13_preweight scatter fast both
  std::string distribution = "both"; // random | runs | both
  std::string bench_pass = "forward";   // forward | forward_backward
  std::string queue_mode = "full";      // full | prequeue | both
  std::string routing_pack_strategy = "argsort";  // argsort | tuple_sort | expert_score_sort
  std::string remat_mode = "none";      // none | expert_mlp | combine
  bool stage_timing = false;
  double capacity_factor = 0.0;
  std::string capacity_policy = "none";  // none | drop | pad
  // The policy that applies: a factor of 0 disables capacity, as in the
  // harness (docs/harness.md §2.6), whatever the policy says.
  std::string EffectiveCapacityPolicy() const { return capacity_factor > 0.0 ? capacity_policy : "none"; }
  double run_alpha = 0.98;
  double run_noise_scale = 0.35;
  int64_t iters = 5;
  int64_t warmup = 2;
  int64_t seed = 0;
  // Parallelism (1.3, and moelog's dp / a2a / mesh / devices additions).
  std::string parallel_mode = "none";    // none | ep | dp
  std::string ep_comm_path = "compact_psum";  // compact_psum | ring_ag_rs | a2a
  std::string ep_dispatch = "compact";   // compact | dense_masked
  std::string dispatch_permute_mode = "direct_take";  // direct_take | repeat_sort
  bool use_custom_sort_vjp = false;
  std::string trace_dir;
  int64_t trace_steps = 3;               // bench_moe_mlp_profile.py's profiler steps (no traces here)
  int64_t devices = 4;                   // device count for ep/dp on the cpu target
  std::string mesh;                      // "data=A,expert=B"
  // The MoE layer as bench_moe_mlp_profile.py runs it (docs/harness.md §4):
  // "" = the hillclimb layer; ref_dp (reference fused MoE, tokens sharded,
  // weights replicated: --parallel-mode dp), staged_dp (the staged fused MoE,
  // dp; --staged-parallel overlaps its stages), fused_ep (the fused
  // routing+MoE kernel on the expert axis: --parallel-mode ep). The cpu
  // target computes each with the engine's dp/ep layer; the v5p model has a
  // term for each.
  std::string mlp_path;
  bool staged_parallel = false;
  // XLA's scoped VMEM limit on the chip, KiB (libtpu's
  // --xla_tpu_scoped_vmem_limit_kib, set through LIBTPU_INIT_ARGS); 0: the
  // chip's default. XLA sizes its kernels' VMEM tiles to it; the v5p model
  // has a term for it (the cpu target ignores it).
  int64_t xla_scoped_vmem_kib = 0;
  // Quantization (1.4).
  std::string quant_mode = "none";  // none int8 int8_routed int8_all int8_routed_prequant
  // How the harness revision implements --quant-mode int8: native (the
  // int8 dot of today's harness) or fake_quant (the int8 branch's first
  // revision: quantize-dequantize around the bf16 matmuls, no int8 rate).
  // The v5p model has a term for it (the cpu target ignores it).
  std::string int8_impl = "native";
  // Null routing (1.5).
  double null_route_frac = 0.0;
  std::string null_route_frac_list;
  bool null_route_sweep = false;
  int64_t null_experts = 0;
  int64_t null_route_seed = 0;
  bool renormalize_real_after_null = false;
  std::string null_routing_mode = "independent";  // independent | take_until_null
  // moelog additions.
  std::string target = "cpu";       // cpu | v5p
  bool json = false;                // print one JSON document instead of text lines
  bool check_numerics = false;      // compare against the double-precision reference
  int64_t threads = 0;              // 0: all cores
  std::string hardware = "v5p";     // v5p target: hardware file name or path
  std::string model_params;         // v5p target: fitted parameter file ("" = default)
  bool quiet_ranks = true;          // MPI: ranks other than 0 print nothing
  // cpu target: refuse a run whose estimated peak memory exceeds this many
  // GB (10^9 bytes); 0: the memory available when the run starts.
  double max_memory_gb = 0;
  bool quiet = false;               // no progress line on a terminal

  // Expanded sweep axes (filled by Validate()).
  std::vector<int64_t> TopkValues() const;
  std::vector<double> NullFracValues() const;
  std::vector<std::string> DistributionValues() const;
  std::vector<std::string> ImplValues() const;
  std::vector<std::string> QueueModeValues() const;

  // Checks ranges (BenchLimits), what the target can do (engine/target.h) and
  // incompatible combinations. The message names the flag. The MPI world size
  // is the cpu backend's to check (MakeCpuBackend).
  Status Validate() const;

  // Devices the run uses as its cache key records them: one for
  // parallel_mode none, else the target's fixed count (the v5p-8 slice: 4)
  // or --devices.
  int64_t DeviceCount() const;
};

// One run of the sweep: the config with every swept axis fixed.
struct RunPoint {
  std::string distribution;  // random | runs
  int64_t topk = 0;
  std::string impl;          // one of the six impls
  double null_frac = 0.0;
  std::string queue_mode;    // full | prequeue
};

// The harness's loop order: distribution, topk, impl, null frac, queue mode.
// Largest values moelog accepts, checked by Validate() before any allocation
// (exit 2 naming the flag and the limit). Also: tokens x topk at most
// kMaxAssignments and --tokens per BenchLimits on the cpu target (v5p: at
// most kMaxV5pTokens, routed as a kV5pSampleTokens sample), each --mesh axis
// at most kMaxDevices.
struct BenchLimit {
  const char* flag;
  int64_t BenchConfig::*field;
  int64_t min;                 // 1: must be positive; 0: must be >= 0
  int64_t max;
  const char* why;             // what grows with it
  const char* range = nullptr; // the message for either bound, when one says it better
};
inline constexpr int64_t kMaxDevices = 256;
// Values of --topk-list and of --null-route-frac-list: each is a run.
inline constexpr size_t kMaxListValues = 256;
// The v5p model routes at most kV5pSampleTokens tokens (engine/target.h),
// ... and at most kV5pSampleValues logits (sampled tokens x experts) and
// kV5pSampleSlots routed slots (sampled tokens x top-k), so that time and
// memory grow with neither the expert count nor k: under a second and 512 MB
// at any shape inside the limits. The seed logbooks' shapes (T <= 65536 at
// E <= 120, k <= 8) are routed whole.
inline constexpr int64_t kV5pSampleValues = int64_t{1} << 23;
inline constexpr int64_t kV5pSampleSlots = int64_t{1} << 20;
// The tokens the v5p model routes for `experts` experts and top-k `topk`
// (the largest of a sweep): a batch with more is routed as this sample and
// its counts scaled.
constexpr int64_t V5pSampleTokens(int64_t experts, int64_t topk) {
  int64_t t = kV5pSampleTokens;
  if (experts > 0 && kV5pSampleValues / experts < t) t = kV5pSampleValues / experts;
  if (topk > 0 && kV5pSampleSlots / topk < t) t = kV5pSampleSlots / topk;
  return t < 256 ? 256 : t;
}
inline constexpr int64_t kMaxAssignments = int64_t{1} << 24;
const std::vector<BenchLimit>& BenchLimits();

std::vector<RunPoint> ExpandRuns(const BenchConfig& config);


// Canonical JSON of the config (all flags, sorted keys), for cache keys and
// provenance. Two command lines that mean the same run give the same string.
// Defined with the run-key table (engine/bench_flags.cc), whose cache-key
// roles say what it holds.
std::string CanonicalConfigJson(const BenchConfig& config);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_BENCH_CONFIG_H_
