// The peak memory of an ep/dp run on simulated devices, estimated before
// anything is allocated, by the same accounting the parallel runner
// allocates by (parallel_runner.cc):
//   one copy of the run's data (x, every expert's weights, the shared
//   weights), which the devices read in place;
//   per device: its fused w13, its weight gradients, its prepacked weights
//   (forward only), its dispatched rows and the expert MLP's saved
//   activations, and the output, its gradient and dx of its token shard;
//   per replica (compact_psum) or per device (ring_ag_rs, a2a): the shared
//   expert's activations, scratch and (training) weight gradients;
//   at the reductions: every device's f32 partial sums and (ring_ag_rs, a2a)
//   landing buffer at once; compact_psum over simulated devices: each
//   device's live rows only (the share of tokens its experts see under
//   uniform routing), one replica's chunks in flight and one f32 landing
//   per replica (exchange buffers are freed once consumed, so they do not
//   add up across the steps).
// Under MPI each rank is one device and holds what a real device would: its
// share of the data (its experts, its tokens, the shared weights), its
// buffers, and what real devices replicate (compact_psum: the replica's
// outputs, the shared expert over the replica's tokens, a dense f32 partial).
// With --check-numerics, after the steps: the results assembled in f32 (every
// rank, or every simulated device while it contributes) and the
// single-device reference's own peak (rank 0, or the process).
#ifndef MOELOG_ENGINE_PARALLEL_MEMORY_ESTIMATE_H_
#define MOELOG_ENGINE_PARALLEL_MEMORY_ESTIMATE_H_

#include <cstdint>

#include "engine/bench_config.h"
#include "engine/cpu/moe_block.h"

namespace moelog::engine::parallel {

// Bytes the whole process holds at its peak (all simulated devices).
// REQUIRES: config.parallel_mode != "none"; bc = MakeBlockConfig(config, impl).
// Under MPI: the sum over the ranks (they share the machine).
double EstimateParallelBytes(const BenchConfig& config, const cpu::BlockConfig& bc, int64_t topk);
// Bytes rank `rank` of the run under MPI holds at its peak (every rank
// alike, except that with --check-numerics rank 0 also runs the
// single-device reference on the whole data, generated again).
double EstimateRankBytes(const BenchConfig& config, const cpu::BlockConfig& bc, int64_t topk, int rank);

}  // namespace moelog::engine::parallel

#endif  // MOELOG_ENGINE_PARALLEL_MEMORY_ESTIMATE_H_
