// The analytical model of one MoE layer on a TPU slice: a sum of per-stage
// roofline terms (max of MXU time and HBM time per kernel), collective terms on
// the slice's ICI links and fixed overheads. Group sizes come from the same
// routing code the CPU engine uses, so tile padding, group-boundary visits and
// EP load imbalance are exact. No measured value is consulted here.
#ifndef MOELOG_ENGINE_V5P_MODEL_H_
#define MOELOG_ENGINE_V5P_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/routing.h"
#include "engine/status.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/params.h"

namespace moelog::engine::v5p {

// Megablox gmm tile visits: sum over non-empty groups of
// ceil(end/tm) - floor(start/tm) (a group starting mid-tile revisits that tile).
// Groups are consecutive from row 0. REQUIRES: tm > 0, sizes >= 0.
int64_t GmmVisits(const int64_t* sizes, int64_t groups, int64_t tm);
inline int64_t GmmVisits(const std::vector<int64_t>& sizes, int64_t tm) {
  return GmmVisits(sizes.data(), static_cast<int64_t>(sizes.size()), tm);
}

// Collective times on an axis of n chips of the slice (bandwidth term plus hop
// latency), for V bytes of the full (gathered/unreduced) array per chip.
// `links` is the number of usable links per chip on that axis group.
struct IciLink {
  double link_bw = 0;     // bytes/s one way per link
  int64_t links = 2;      // usable links per chip
  double hop_latency = 0; // s
  double eta = 1;         // achieved fraction
};
// Bytes each chip receives for an all-gather / reduce-scatter of V: (n-1)/n*V.
double AllGatherBytes(double v, int64_t n);
double AllGatherTime(double v, int64_t n, const IciLink& l);
double ReduceScatterTime(double v, int64_t n, const IciLink& l);
// All-reduce = reduce-scatter + all-gather: 2(n-1)/n*V bytes per chip.
double AllReduceTime(double v, int64_t n, const IciLink& l);
// All-to-all where each chip holds b bytes, b/n per destination; on a 2x2 mesh
// the diagonal is 2 hops, so byte-hops per chip = (n-1)/n * b * mean hops.
double AllToAllTime(double b, int64_t n, const IciLink& l);
// Usable links per chip for an axis group of n chips of a 2x2 slice.
int64_t LinksForGroup(int64_t n, int64_t slice_links);

enum class Pass { kForward, kForwardBackward };
enum class Parallel { kNone, kEp, kDp };
enum class CommPath { kCompactPsum, kRingAgRs, kA2a };
enum class Quant { kNone, kInt8, kInt8Routed, kInt8All, kInt8RoutedPrequant };
enum class Remat { kNone, kExpertMlp, kCombine };
enum class Capacity { kNone, kDrop, kPad };
// The layer as bench_moe_mlp_profile.py runs it (BenchConfig::mlp_path).
enum class MlpPath { kNone, kRefDp, kStagedDp, kFusedEp };

// Everything the model needs about one run, as numbers (built once per
// config; the routing part is group_sizes and the assignment counts).
struct ModelCase {
  int64_t tokens = 0, hidden = 0, mlp = 0, experts = 0, topk = 0, shared = 0;
  bool shared_fused = false;
  int64_t elem_bytes = 2;  // bf16 = 2, float32 = 4
  bool ragged_dot = false;
  bool fused_w13 = false, preweight = false, scatter_impl = false;
  Parallel parallel = Parallel::kNone;
  CommPath comm = CommPath::kCompactPsum;
  bool dense_masked = false;
  int64_t data_axis = 1, expert_axis = 1;  // devices = data_axis * expert_axis
  Pass pass = Pass::kForward;
  bool prequeue = false;
  int64_t sort_operands = 2;  // argsort 2 (keys + iota), tuple_sort 3, expert_score_sort 4
  bool repeat_sort = false, custom_sort_vjp = false;
  Remat remat = Remat::kNone;
  Quant quant = Quant::kNone;
  // The int8 branch's first revision (BenchConfig::int8_impl fake_quant):
  // --quant-mode int8 quantized and dequantized the operands of the bf16
  // expert and shared matmuls, which ran at the bf16 rate.
  bool fake_quant = false;
  Capacity capacity = Capacity::kNone;
  int64_t cap = 0;  // capacity per expert (pad/drop)
  // Routing.
  std::vector<int64_t> group_sizes;  // per real expert, global
  int64_t real_assignments = 0;      // sum of group sizes
  int64_t slots = 0;                 // T*K (null slots included)
  MlpPath mlp_path = MlpPath::kNone;
  bool staged_parallel = false;
  double scoped_vmem_bytes = 0;  // XLA's scoped VMEM limit (0: the chip's default)

  int64_t devices() const { return data_axis * expert_axis; }
};

// Tokens of the layer's output each chip holds after the combine: T for one
// chip and for compact_psum (the psum replicates [T, D]), T/n for ring_ag_rs
// and a2a on n chips. The work after the combine (the loss and its gradient)
// runs on these.
int64_t OutputTokensPerChip(const Hardware& hw, const ModelCase& c);

// What the pad capacity policy's dispatch moves per call, in bytes: every
// assignment's row into the padded buffer (gathered from x, scattered into
// its slot) and its output back out (gathered from its slot): T*K rows each
// way, whatever the factor; and the zeroed [E*cap, D] buffer, which grows
// with the factor. Zero for the other policies.
struct PadDispatch {
  double assignments = 0, buffer = 0;
};
PadDispatch PadDispatchBytes(const ModelCase& c);

// Builds the case. REQUIRES: config.Validate().ok(). chips_per_slice sets the
// default device count of ep/dp (the harness used every chip of the slice).
Result<ModelCase> MakeCase(const BenchConfig& config, const RunPoint& point, const std::vector<int64_t>& group_sizes,
                           int64_t real_assignments, int64_t chips_per_slice);

struct Stage {
  const char* name = "";
  double seconds = 0;
  const char* bound = "fixed";  // MXU, HBM, ICI, VPU or fixed
};

struct Prediction {
  double time_s = 0;
  int64_t devices = 1;
  bool oom = false;
  double memory_bytes = 0;  // per chip HBM estimate
  double comm_bytes_per_device = 0;
  double comm_s = 0;
  double peak_flops = 0;    // per chip, of the dominant matmul dtype
  bool int8_backward_skipped = false;  // int8_routed/int8_all fwd+bwd: no expert dgrad/wgrad (as the harness)
  static constexpr int kMaxStages = 12;
  Stage stages[kMaxStages];
  int num_stages = 0;
};

// Predicts one run. Allocation-free; the cost is O(experts).
Prediction Predict(const Hardware& hw, const ModelParams& p, const ModelCase& c);

}  // namespace moelog::engine::v5p

#endif  // MOELOG_ENGINE_V5P_MODEL_H_
