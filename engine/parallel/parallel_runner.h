// Expert and data parallelism on the cpu target: `--parallel-mode ep|dp`,
// `--devices N`, `--mesh data=A,expert=B`, `--ep-comm-path`, `--ep-dispatch`.
//
// Devices are simulated in one process (SimComm) or are the ranks of an
// `mpirun -np N` job (MpiComm, one device per rank); the numerics and the
// byte accounting are identical. Each device runs the CPU engine's pieces
// (engine/cpu/moe_layer.h) on its own rows:
//
//   compact_psum  x replicated in the replica; gather own rows, expert MLP,
//                 weighted scatter-add into a [T_r,H] partial, ring all-reduce
//                 over the expert axis. The shared expert runs on the full
//                 replicated [T_r,H] after the all-reduce (docs/harness.md §2.7: outside
//                 the shard-map), on every device of the group. Backward:
//                 all-reduce of the [T_r,H] dx partials.
//   ring_ag_rs    x token-sharded [T_r/B,H]; ring all-gather of x, expert MLP,
//                 ring reduce-scatter of the partials back to the shards. The
//                 shared expert runs on the local shard. Backward: all-gather
//                 of dy, reduce-scatter of dx, all-reduce of the shared grads.
//   For both, a device writes only the partial rows of the tokens its experts
//   saw: the reduction (Communicator::AllReduceSumRows / ReduceScatterSumRows)
//   reads the other rows as zeros, moves the same bytes as the dense one and
//   lands the result cast in y / dx (or in the f32 accumulator the shared
//   expert adds to), so no device zero-fills or casts the whole [T_r,H].
//   compact_psum without a shared expert forms dL/dy only at the rows each
//   device reads.
//   a2a           x token-sharded; all-to-all-v of each token once per remote
//                 expert owner it routes to, expert MLP, weighted sum per
//                 (token, owner), all-to-all-v back, scatter-add into the
//                 shard. Shared expert on the shard. Backward mirrors it.
//   dense_masked  (--ep-dispatch) like compact_psum/ring_ag_rs, but every
//                 device runs the replica's whole T_r*K row buffer, foreign
//                 rows masked and sent through a zero dummy expert.
//   DP (B = 1)    tokens sharded over the data axis, weights replicated; no
//                 communication in forward; forward_backward all-reduces the
//                 gradients of every weight over the data axis.
// In a mesh data=A x expert=B, replica a runs EP over its B devices on tokens
// [a*T/A, (a+1)*T/A), and expert/shared weight gradients are also all-reduced
// over the data axis. Combines always scatter-add (docs/harness.md §2.5: forced in EP).
//
// The dispatch plan is built once, outside the timed region. Communication
// travels in the run's dtype (bf16: 2 bytes per value).
#ifndef MOELOG_ENGINE_PARALLEL_PARALLEL_RUNNER_H_
#define MOELOG_ENGINE_PARALLEL_PARALLEL_RUNNER_H_

#include <memory>

#include "engine/bench_config.h"
#include "engine/metrics.h"
#include "engine/routing.h"
#include "engine/status.h"

namespace moelog::engine::cpu {
struct BlockData;
struct DataShare;
}

namespace moelog::engine::parallel {

// Call once per process before anything is printed (the cpu backend factory
// does): under mpirun it initializes MPI and, with --quiet-ranks (default),
// silences stdout on ranks other than 0. Does nothing otherwise.
// InvalidArgument naming --devices or --mesh when an ep/dp run's device
// count is not the MPI world size (each rank is one device).
Status PrepareProcess(const BenchConfig& config);

// The device mesh of the config: --mesh, or ep -> data=1,expert=N,
// dp -> data=N,expert=1.
struct MeshShape {
  int data = 1, expert = 1;
};
MeshShape MeshForConfig(const BenchConfig& config);

// The part of the run's data device `device` reads: its replica's tokens
// (compact_psum) or its token shard (ring_ag_rs, a2a), and its experts
// (every expert without an expert axis). Under MPI a rank generates only
// this (cpu::GenerateBlockDataShare), as a real device holds only its own.
cpu::DataShare DeviceDataShare(const BenchConfig& config, int device);

// Runs one sweep point in parallel. `data` holds the x and weights the
// single-device engine uses (same seed), so results are comparable with
// --parallel-mode none: all of them, or (a share) at least what the devices
// of this process read; each device reads its own part in place.
// Fills devices, mesh, comm (bytes sent/received per device per step: the
// largest over devices; comm_s = measured seconds in the communication blocks
// -- the collectives plus packing into / unpacking from their f32 staging
// buffers, split in extra comm_collective_s and comm_staging_s -- and
// compute_s = the rest of the step), time, aggregate and per-device TF/s, and
// extra figures (per-device bytes, the analytic volumes, local capacity, rows
// the expert MLPs compute). With --stage-timing, the stages of the timed steps
// (pack, up, down | expert_mlp, combine, shared, backward, comm), summed over
// the simulated devices, or the slowest rank's under MPI. --capacity-policy
// drop drops the same assignments as the single-device engine (pad is
// refused by BenchConfig::Validate). With --check-numerics, y and every
// gradient are gathered (untimed) and compared with the single-device engine.
// Under MPI the reported time of each iteration is the slowest rank's.
// REQUIRES: config.Validate().ok(), config.parallel_mode != "none".
Result<RunResult> RunParallel(const BenchConfig& config, const RunPoint& point, const Routing& routing,
                              cpu::BlockData* data);

// One parallel configuration on simulated devices in this process, set up
// once (dispatch plan, device buffers, prepacked weights; untimed) and then
// stepped on demand, so a measurement can interleave it with other
// configurations and with --parallel-mode none. RunParallel's timed step and
// figures are the same code.
class SimSession {
 public:
  // REQUIRES: config.Validate().ok(), config.parallel_mode != "none"; data
  // and routing outlive the session.
  static Result<std::unique_ptr<SimSession>> Create(const BenchConfig& config, const RunPoint& point,
                                                    const Routing& routing, cpu::BlockData* data);
  ~SimSession();

  struct StepTiming {
    double total_s = 0;       // the step's wall time
    double collective_s = 0;  // inside the collectives
    // The communication blocks: collectives + packing into / unpacking from
    // their f32 staging buffers (and the reduction of a2a's returned rows).
    double comm_s = 0;
    std::vector<StageTime> stages;  // summed over the simulated devices
  };
  // One forward (and backward for forward_backward) step.
  Result<StepTiming> Step();
  // Rows the expert MLPs compute, summed over the devices (padding excluded),
  // and the rows their buffers hold (padding included).
  int64_t computed_rows() const;
  int64_t buffer_rows() const;

 private:
  SimSession();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace moelog::engine::parallel

#endif  // MOELOG_ENGINE_PARALLEL_PARALLEL_RUNNER_H_
