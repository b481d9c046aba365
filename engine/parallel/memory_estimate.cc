#include "engine/parallel/memory_estimate.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/cpu/moe_layer.h"
#include "engine/parallel/mpi_comm.h"
#include "engine/parallel/parallel_runner.h"

namespace moelog::engine::parallel {
namespace {

// The shape of the run as the estimate reads it (all in doubles).
struct Dims {
  double es = 2, t = 0, h = 0, m = 0, e = 0, s = 0, k = 0;
  double a = 1, b = 1, d = 1;  // data replicas, expert devices per replica, devices
  double tr = 0, ts = 0, l = 0;  // replica tokens, shard tokens, experts per device
  double rows = 0;               // rows a device's buffers hold
  bool training = false, fused = false, shared_fused = false, quant_rows = false, masked = false;
  bool compact = true, ring = false, a2a = false;
  bool compact_rows = false;  // compact_psum on simulated devices: partials hold live rows only
  bool bf16_wire = true;      // collectives travel in bf16
  double threads = 1;         // OpenMP threads (each has a matmul output buffer)
  double live = 1;            // the share of the replica's tokens a device's experts see
  cpu::DType dtype = cpu::DType::kBF16;
  cpu::QuantMode quant = cpu::QuantMode::kNone;
};

Dims DimsOf(const BenchConfig& c, const cpu::BlockConfig& bc, int64_t topk) {
  Dims x;
  x.es = static_cast<double>(cpu::DTypeSize(bc.dtype));
  x.dtype = bc.dtype;
  x.quant = bc.quant;
  x.t = static_cast<double>(c.tokens);
  x.h = static_cast<double>(c.hidden);
  x.m = static_cast<double>(c.mlp_dim);
  x.e = static_cast<double>(c.experts);
  x.s = static_cast<double>(c.shared_expert_dim);
  x.k = static_cast<double>(topk);
  const MeshShape mesh = MeshForConfig(c);
  x.a = std::max(1, mesh.data);
  x.b = std::max(1, mesh.expert);
  x.d = x.a * x.b;
  x.tr = std::floor(x.t / x.a);
  x.ts = std::floor(x.tr / x.b);
  x.l = std::ceil(x.e / x.b);
  x.training = c.bench_pass == "forward_backward";
  x.fused = bc.fused_w13;
  x.shared_fused = bc.shared_fused;
  x.quant_rows = cpu::QuantRouted(bc.quant);
  x.masked = c.ep_dispatch == "dense_masked";
  x.ring = c.ep_comm_path == "ring_ag_rs";
  x.a2a = c.ep_comm_path == "a2a";
  x.compact = !x.ring && !x.a2a;
  x.compact_rows = x.compact && x.b > 1 && !LaunchedByMpi();
  x.bf16_wire = c.dtype != "float32";
  x.threads = c.threads > 0 ? static_cast<double>(c.threads) : static_cast<double>(omp_get_max_threads());
  // A token picks k distinct experts; it misses the device's l of e with
  // probability prod_i (e - l - i) / (e - i) (uniform routing).
  double miss = 1;
  for (double i = 0; i < x.k; ++i) miss *= std::max(0.0, x.e - x.l - i) / std::max(1.0, x.e - i);
  x.live = x.masked ? 1.0 : 1.0 - miss;
  // Routed rows of one device: its share of the replica's assignments (the
  // whole replica's with dense_masked), up to the buffer's tile multiple.
  const double share = x.masked ? x.tr * x.k : x.tr * x.k / x.b;
  x.rows = std::ceil(share / cpu::kGmmTileRows) * cpu::kGmmTileRows;
  return x;
}

// What one device keeps between its steps and across forward and backward.
double DeviceBytes(const Dims& x) {
  const double w = x.h * x.m * x.es;  // one expert matrix
  double bytes = 0;
  if (x.masked) bytes += 3 * (x.l + 1) * w;  // its own copy, with a zero expert
  // w13: a forward run on plain weights keeps it; training builds it while
  // the device computes (EstimateParallelBytes); prepacked forward runs drop it.
  const bool packed = x.quant == cpu::QuantMode::kNone || x.quant == cpu::QuantMode::kInt8RoutedPrequant;
  if (x.fused && !x.training && !packed) bytes += x.l * 2 * w;
  bytes += 3 * x.l * w;                      // gradients (training) or prepacked weights (forward)
  bytes += x.rows * 3 * x.m * x.es;          // gate|up and h (saved, or the forward's scratch)
  bytes += x.rows * x.h * x.es;              // dispatched rows
  if (x.quant_rows) bytes += x.rows * (x.h + 4);
  bytes += x.rows * 24;                      // its row plan
  if (!x.compact) bytes += x.ts * x.h * x.es * (x.training ? 3 : 1);  // y, dout, dx of its shard
  // Shared gradients: a device's own (one per replica with compact_rows,
  // counted in EstimateParallelBytes).
  if (x.training && x.s > 0 && !x.compact_rows) bytes += 3 * x.h * x.s * x.es;
  return bytes;
}

// One shared expert instance over n tokens: activations, and the backward's
// scratch (training: both freed after the backward).
double SharedBytes(const Dims& x, double n, bool training) {
  return cpu::SharedExpertBytes(static_cast<int64_t>(n), static_cast<int64_t>(x.h), static_cast<int64_t>(x.s),
                                x.dtype, x.shared_fused, x.quant, training);
}
double SharedBytes(const Dims& x, double n) { return SharedBytes(x, n, x.training); }

// Every device's exchange buffers at a reduction: the f32 partial sums and
// the f32 landing buffer (none when the reduction lands in the output).
double ReductionBytes(const Dims& x) {
  if (x.compact_rows) {
    // Each device's live rows, the chunks in flight (one replica's worth)
    // and the replica's f32 landing (none when it lands in y or dx).
    const double replica = x.tr * x.h * 4;
    const double landing = x.s > 0 ? replica : 0;
    return x.a * (x.b * x.live * replica + replica + landing);
  }
  const double partial_rows = x.compact || x.ring ? x.tr : std::min(x.tr, x.rows);
  // compact_psum reduces in place (the partials become the output); with
  // sparse partials and no shared expert the reduction lands in y or dx.
  double landing = 0;
  const bool sparse = !x.a2a && x.b > 1;
  if (!x.compact && !(sparse && x.s <= 0)) landing = x.ts * x.h * 4;
  double bytes = x.d * (partial_rows * x.h * 4 + landing);
  // ring_ag_rs gathers the tokens (f32 staging and the gathered copy) first.
  if (x.ring) bytes = std::max(bytes, x.d * (x.tr * x.h * (4 + x.es) + x.ts * x.h * 4));
  // Over a data axis the weight gradients are all-reduced through f32
  // staging, one tensor (L x H x M) a device at a time.
  if (x.a > 1 && x.training) bytes = std::max(bytes, x.d * x.l * x.h * x.m * 4);
  return bytes;
}

// Training: the computing device's w13 (a chunk of its experts' with float
// matmuls, all of them in the int8 routed modes; and each thread's output
// buffer the split of a dW13 lands in) and its backward's row buffers (dy
// and dx rows, dh, d(gate|up)); freed before the shared expert runs.
double ComputingDeviceBytes(const Dims& x) {
  if (!x.training) return 0;
  double bytes = x.rows * (2 * x.h + 3 * x.m) * x.es;
  if (x.fused) {
    const double built = x.quant_rows ? x.l
                                      : static_cast<double>(cpu::W13ChunkExperts(
                                            static_cast<int64_t>(x.l), static_cast<int64_t>(x.h),
                                            static_cast<int64_t>(x.m), x.dtype, static_cast<int>(x.threads)));
    bytes += built * 2 * x.h * x.m * x.es + x.threads * 2 * x.h * x.m * x.es;
  }
  return bytes;
}

// One rank of an MPI run (one device): its share of the data (its tokens,
// its experts, the shared weights), its device's buffers, the replica's
// outputs (compact_psum) and the shared expert's activations, which it
// holds as a real device would (`held`); at its peak one of (they never
// coexist, `transient`): its expert MLP's training buffers, its exchange
// buffers (the dense f32 partials, and the bf16 wire copy when the sum
// lands in f32), or the shared expert's backward scratch with the f32 sum
// it adds dx to.
struct RankPeak {
  double held = 0, transient = 0;
};
RankPeak RankBytes(const Dims& x) {
  const double tokens = x.compact ? x.tr : x.ts;
  const double share = tokens * x.h * x.es + 3 * x.l * x.h * x.m * x.es + 3 * x.h * x.s * x.es;
  const double outputs = x.compact ? x.tr * x.h * x.es * (x.training ? 3 : 1) : 0;
  const double shared_w13 = x.shared_fused && x.s > 0 ? x.h * 2 * x.s * x.es : 0;
  double exchange = ReductionBytes(x) / x.d;
  const bool lands_f32 = x.s > 0 || x.a2a || x.b == 1;
  if (x.bf16_wire && lands_f32) exchange += (x.a2a ? std::min(x.tr, x.rows) : x.tr) * x.h * 2;
  const double shared_act = SharedBytes(x, tokens, false);
  const double shared_bwd = x.s > 0 && x.training ? SharedBytes(x, tokens) - shared_act + tokens * x.h * 4 : 0;
  RankPeak p;
  p.held = share + DeviceBytes(x) + outputs + shared_w13 + shared_act;
  p.transient = std::max({ComputingDeviceBytes(x), exchange, shared_bwd});
  return p;
}

// --check-numerics, after the timed steps: the global results (y; training:
// dx and every expert's and the shared expert's weight gradients) are
// assembled in f32 by an all-reduce over every device, one tensor after the
// other; each of `local` devices in the process fills a whole buffer of the
// tensor being assembled (the first one's becomes the result). The peak of
// that, and what the process keeps: every result.
struct GatherPeak {
  double peak = 0, kept = 0;
};
GatherPeak GatheredBytes(const Dims& x, double local) {
  std::vector<double> sizes = {x.t * x.h};
  if (x.training) {
    sizes.push_back(x.t * x.h);
    sizes.insert(sizes.end(), 3, x.e * x.h * x.m);
    if (x.s > 0) sizes.insert(sizes.end(), 3, x.h * x.s);
  }
  GatherPeak g;
  for (double n : sizes) {
    g.peak = std::max(g.peak, g.kept + local * n * 4);
    g.kept += n * 4;
  }
  return g;
}

// The single-device reference that --check-numerics compares with (rank 0,
// or the process of simulated devices), run once the results are gathered:
// the single-device engine's own peak on the whole data (the estimate of a
// `none` run; without the data when the process already holds it), and the
// comparison's two f64 copies of the largest tensor.
double ReferenceBytes(const Dims& x, const cpu::BlockConfig& bc, int64_t topk, bool data_held) {
  double bytes = cpu::EstimateBytes(bc, topk, x.training, false);
  if (data_held) bytes -= x.t * x.h * x.es + 3 * x.e * x.h * x.m * x.es + 3 * x.h * x.s * x.es;
  return bytes + 16 * std::max(x.t * x.h, x.training ? x.e * x.h * x.m : 0.0);
}

}  // namespace

double EstimateParallelBytes(const BenchConfig& c, const cpu::BlockConfig& bc, int64_t topk) {
  const Dims x = DimsOf(c, bc, topk);
  // Every rank is a process of its own: the machine holds them all.
  if (LaunchedByMpi()) {
    double sum = 0;
    for (int rank = 0; rank < static_cast<int>(x.d); ++rank) sum += EstimateRankBytes(c, bc, topk, rank);
    return sum;
  }
  const double data = x.t * x.h * x.es + 3 * x.e * x.h * x.m * x.es + 3 * x.h * x.s * x.es;
  const double outputs = x.tr * x.h * x.es * (x.training ? 3 : 1);  // y, dout, dx of a replica
  const double shared_w13 = x.shared_fused && x.s > 0 ? x.h * 2 * x.s * x.es : 0;
  double held = x.d * DeviceBytes(x) + shared_w13;
  if (x.compact_rows && x.training && x.s > 0) held += x.a * 3 * x.h * x.s * x.es;  // shared gradients
  if (x.compact) held += x.a * outputs;
  const double shared = x.compact ? x.a * SharedBytes(x, x.tr) : x.d * SharedBytes(x, x.ts);
  const double run = data + held + shared + ComputingDeviceBytes(x) + ReductionBytes(x);
  if (!c.check_numerics) return run;
  // After the steps the activations and scratch are freed (forward-only runs
  // keep the shared expert's): the results are gathered, then the reference runs.
  const double after = data + held + (x.training ? 0 : shared);
  const GatherPeak g = GatheredBytes(x, x.d);
  return std::max({run, after + g.peak, after + g.kept + ReferenceBytes(x, bc, topk, true)});
}

double EstimateRankBytes(const BenchConfig& c, const cpu::BlockConfig& bc, int64_t topk, int rank) {
  const Dims x = DimsOf(c, bc, topk);
  const RankPeak p = RankBytes(x);
  if (!c.check_numerics) return p.held + p.transient;
  // After the steps: the rank's data and buffers, the gathered results, and
  // on rank 0 the reference on the whole data, generated again.
  const GatherPeak g = GatheredBytes(x, 1);
  double after = p.held + g.peak;
  if (rank == 0) after = std::max(after, p.held + g.kept + ReferenceBytes(x, bc, topk, false));
  return std::max(p.held + p.transient, after);
}

}  // namespace moelog::engine::parallel
