// Dispatch planning for expert and data parallelism (docs/harness.md §2.7), built
// once from the fixed routing, outside the timed region.
//
// Devices form a mesh data=A x expert=B (communicator.h). Data replica a
// handles tokens [a*T/A, (a+1)*T/A); inside it, expert rank j owns experts
// [j*L, (j+1)*L) with L = E/B. Pure EP is A=1, pure DP is B=1.
//
// For every device the plan lists the rows its expert MLP processes:
//  - compact: only the replica's assignments to the device's experts, in the
//    expert-sorted order of docs/harness.md §2.3 (by expert, then flat position t*K+k).
//    All devices use local_cap rows = the largest count over the devices,
//    rounded up to a multiple of 512; the padding rows (zero x, zero weight)
//    are counted in the LAST local group, so every real row is multiplied by
//    its own expert.
//  - dense_masked: a global-length buffer (every one of the replica's T*K
//    assignments); rows of other devices' experts (and null slots) are masked
//    to zero and sent through a dummy expert (group L, zero weights). This is
//    the first, slow EP path of the logbook.
// For the a2a path the plan also lists, per (source shard, destination), the
// unique tokens a shard sends to an expert owner, and where each of the
// destination's rows finds its token in the receive buffer.
#ifndef MOELOG_ENGINE_PARALLEL_DISPATCH_PLAN_H_
#define MOELOG_ENGINE_PARALLEL_DISPATCH_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/parallel/communicator.h"
#include "engine/routing.h"
#include "engine/status.h"

namespace moelog::engine::parallel {

inline constexpr int64_t kLocalCapMultiple = 512;

enum class CommPath { kCompactPsum, kRingAgRs, kA2a };
enum class DispatchKind { kCompact, kDenseMasked };
Result<CommPath> ParseCommPath(const std::string& name);
Result<DispatchKind> ParseDispatchKind(const std::string& name);
const char* CommPathName(CommPath p);

// The rows of one device.
struct DeviceDispatch {
  int device = 0;
  int64_t token_begin = 0, token_count = 0;    // the replica's tokens (global ids)
  int64_t expert_begin = 0, expert_count = 0;  // owned experts L
  int64_t count = 0;                           // real rows (assignments to owned experts, dropped included)
  // Buffer rows (local_cap for compact, T_r*K for dense_masked).
  std::vector<int64_t> flat;     // global flat position t*K+k, -1 for padding
  // Source row of each buffer row: the token index within the replica (x
  // replicated or all-gathered), or for a2a the slot of the receive buffer.
  std::vector<int32_t> token;
  std::vector<float> weight;     // routing weight; 0 for padding and masked rows
  std::vector<uint8_t> keep;     // 1 for real rows (gathered), 0 for padding/masked
  std::vector<int64_t> group_sizes;  // [L] compact, [L+1] dense_masked (dummy last)
  int64_t rows() const { return static_cast<int64_t>(flat.size()); }

  // a2a only. As a source (the device holds tokens shard_begin.. of its
  // replica, shard_count of them): send_tokens[q] are the shard-relative
  // tokens it sends to expert rank q, ascending. As a destination:
  // recv_counts[q] tokens arrive from expert rank q's shard, concatenated in
  // rank order; `token` above indexes that receive buffer.
  int64_t shard_begin = 0, shard_count = 0;
  std::vector<std::vector<int32_t>> send_tokens;
  std::vector<int64_t> recv_counts;
};

struct DispatchPlan {
  DeviceMesh mesh;
  CommPath path = CommPath::kCompactPsum;
  DispatchKind kind = DispatchKind::kCompact;
  int64_t tokens = 0, topk = 0, experts = 0;
  int64_t local_cap = 0;   // rows per device buffer
  int64_t max_count = 0;   // largest real row count over devices
  std::vector<DeviceDispatch> devices;  // [mesh.Size()]
};

// Builds the plan. InvalidArgument when E is not divisible by the expert axis,
// T not by the data axis, or (ring_ag_rs, a2a) T/A not by the expert axis;
// dense_masked has no a2a form.
// drop_cap > 0 applies capacity policy `drop` (docs/harness.md §2.6) exactly as the
// single-device engine does: an assignment whose rank inside its expert (in
// the global expert-sorted order, over all replicas) is >= drop_cap keeps its
// row in its group (the compute stays dense and unchanged) but gets zero x
// and zero weight (keep 0), and a2a does not send its token for it.
Result<DispatchPlan> BuildDispatchPlan(const Routing& routing, const DeviceMesh& mesh, CommPath path,
                                       DispatchKind kind, int64_t drop_cap = 0);

// The communication one step moves, per device, as the parallel runner
// schedules it (see parallel_runner.h for the schedule). Values are bytes.
struct StepVolumeInputs {
  int64_t hidden = 0, mlp_dim = 0, shared_dim = 0;
  bool backward = false;  // forward_backward
  Wire wire = Wire::kBF16;
};
std::vector<Volume> AnalyticStepVolumes(const DispatchPlan& plan, const StepVolumeInputs& in);

}  // namespace moelog::engine::parallel

#endif  // MOELOG_ENGINE_PARALLEL_DISPATCH_PLAN_H_
