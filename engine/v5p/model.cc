#include "engine/v5p/model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace moelog::engine::v5p {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t RoundUp(int64_t a, int64_t b) { return CeilDiv(a, b) * b; }

// Time split by what bounds it; a stage's bound is its largest part.
enum Bound { kMxu = 0, kHbm, kIci, kVpu, kFixed, kNumBounds };
const char* const kBoundName[kNumBounds] = {"MXU", "HBM", "ICI", "VPU", "fixed"};

struct Acc {
  double t[kNumBounds] = {0, 0, 0, 0, 0};
  void Add(Bound b, double s) { t[b] += s; }
  // Adds max(mxu, hbm) to the larger side (a roofline kernel).
  void Roofline(double mxu_s, double hbm_s) {
    if (mxu_s >= hbm_s) t[kMxu] += mxu_s; else t[kHbm] += hbm_s;
  }
  double Sum() const { return t[0] + t[1] + t[2] + t[3] + t[4]; }
  void Merge(const Acc& o) {
    for (int i = 0; i < kNumBounds; ++i) t[i] += o.t[i];
  }
  const char* BoundName() const {
    int best = 0;
    for (int i = 1; i < kNumBounds; ++i) if (t[i] > t[best]) best = i;
    return kBoundName[best];
  }
};

// Visits of a (possibly transformed) group list: each size divided by `div`
// (rounded up, for a data-parallel shard of the tokens), `add_first` rows added
// to group 0 (the harness's EP padding) and an optional trailing group.
struct VisitCount { int64_t visits = 0, empty = 0, rows = 0, groups = 0; };
VisitCount CountVisits(const int64_t* sizes, int64_t groups, int64_t div, int64_t add_first, int64_t tail,
                       int64_t tm) {
  VisitCount v;
  int64_t start = 0;
  auto one = [&](int64_t n) {
    if (n <= 0) { ++v.empty; return; }
    int64_t end = start + n;
    ++v.groups;
    v.visits += CeilDiv(end, tm) - start / tm;
    start = end;
  };
  for (int64_t g = 0; g < groups; ++g) one(CeilDiv(sizes[g], div) + (g == 0 ? add_first : 0));
  if (tail > 0) one(tail);
  v.rows = start;
  return v;
}

struct Ctx {
  const Hardware& hw;
  const ModelParams& p;
  const ModelCase& c;
  double bw() const { return hw.hbm_bw; }
  double b() const { return static_cast<double>(c.elem_bytes); }
  // XLA-compiled kernels stream their operands through VMEM in tiles sized
  // to the scoped VMEM limit; each tile step pays a fixed cost, so a kernel
  // takes (1 + overhead / limit) times its transfer time.
  double xla() const {
    const double v = c.scoped_vmem_bytes > 0 ? c.scoped_vmem_bytes : hw.xla_scoped_vmem_default;
    return 1.0 + p[kXlaStepBytes] / std::max(1.0, v);
  }
};

// XLA's ragged_dot runs the groups one after another and starts fetching a
// group's [K, N] weights only when the group starts: unlike megablox gmm,
// whose pipeline prefetches the next tile across group boundaries, each
// group's weight fetch is exposed once, at HBM bandwidth. The cost grows with
// the number of (non-empty) groups and not with the tokens, so ragged_dot's
// gap to gmm widens with experts and narrows with tokens.
double RaggedGroupFetchSeconds(const Ctx& x, int64_t groups, int64_t k, int64_t n, double weight_bytes) {
  return static_cast<double>(groups) * static_cast<double>(k) * static_cast<double>(n) * weight_bytes /
         (x.bw() * x.p[kEtaHbm]);
}

// One grouped matmul over `visits` m-tiles: lhs [m, K] x rhs [G, K, N].
// int8: int8 operands at the int8 rate, int32 output.
void Gmm(const Ctx& x, const VisitCount& v, int64_t m_buf, int64_t k, int64_t n, bool ragged, bool int8,
         Acc* acc) {
  const Hardware& hw = x.hw;
  const int64_t tm = hw.tile_m;
  const int64_t tk = std::min(hw.tile_k, k), tn = std::min(hw.tile_n, n);
  const int64_t kt = CeilDiv(k, tk), nt = CeilDiv(n, tn);
  const double steps = static_cast<double>(v.visits) * kt * nt;
  const double flops = 2.0 * static_cast<double>(v.visits) * tm * (kt * tk) * (nt * tn);
  // The n axis is the only "parallel" grid axis: it is split over the chip's
  // TensorCores, so an odd tile count leaves a core idle for one round.
  const int64_t cores = std::max<int64_t>(1, hw.cores_per_chip);
  const double core_frac = static_cast<double>(nt) / static_cast<double>(cores * CeilDiv(nt, cores));
  const double eta = x.p[kEtaMxuGmm];  // the same MXU work; ragged_dot's extra is RaggedGroupFetchSeconds
  const double peak = int8 ? hw.peak_int8_ops : hw.peak_bf16_flops;
  const double b_in = int8 ? 1.0 : x.b();
  const double b_out = int8 ? 4.0 : x.b();
  double bytes = steps * static_cast<double>(tm * tk + tk * tn) * b_in +
                 static_cast<double>(v.visits) * tm * static_cast<double>(n) * b_out;
  // ragged_dot writes zeros for rows past the groups; megablox never visits them.
  if (ragged && m_buf > v.rows) bytes += static_cast<double>(m_buf - v.rows) * n * b_out;
  acc->Roofline(flops / (peak * eta * core_frac), bytes / (x.bw() * x.p[kEtaHbm]));
  acc->Add(kFixed, steps * x.p[kGmmStepS]);
  if (ragged) acc->Add(kHbm, RaggedGroupFetchSeconds(x, v.groups, k, n, b_in));
}

// Weight-gradient grouped matmul (tgmm): out [G, K, N] = lhs^T [K, m] x [m, N],
// visiting empty groups once to zero their output.
void Tgmm(const Ctx& x, const VisitCount& v, int64_t groups, int64_t k, int64_t n, bool ragged, Acc* acc) {
  const Hardware& hw = x.hw;
  const int64_t tm = hw.tile_m;
  const int64_t tk = std::min(hw.tile_k, k), tn = std::min(hw.tile_n, n);
  const int64_t kt = CeilDiv(k, tk), nt = CeilDiv(n, tn);
  const double visits = static_cast<double>(v.visits + v.empty);
  const double steps = visits * kt * nt;
  const double flops = 2.0 * visits * tm * (kt * tk) * (nt * tn);
  const int64_t cores = std::max<int64_t>(1, hw.cores_per_chip);
  const double core_frac = static_cast<double>(nt) / static_cast<double>(cores * CeilDiv(nt, cores));
  const double eta = x.p[kEtaMxuGmm];  // the same MXU work; ragged_dot's extra is RaggedGroupFetchSeconds
  const double bytes = steps * static_cast<double>(tm * tk + tm * tn) * x.b() +
                       static_cast<double>(groups) * k * n * x.b();
  acc->Roofline(flops / (hw.peak_bf16_flops * eta * core_frac), bytes / (x.bw() * x.p[kEtaHbm]));
  acc->Add(kFixed, steps * x.p[kGmmStepS]);
  // ragged_dot's transpose writes each group's [K, N] gradient when the group ends: exposed likewise.
  if (ragged) acc->Add(kHbm, RaggedGroupFetchSeconds(x, v.groups, k, n, x.b()));
}

void Stream(const Ctx& x, double bytes, Acc* acc) { acc->Add(kHbm, x.xla() * bytes / (x.bw() * x.p[kEtaHbm])); }
// Row gather: read and write each D-wide row.
void Gather(const Ctx& x, double rows, int64_t d, Acc* acc) {
  acc->Add(kHbm, x.xla() * 2.0 * rows * d * x.b() / (x.bw() * x.p[kEtaGather]));
}
// Row scatter (no add): read the row, write it to its target row.
void RowScatter(const Ctx& x, double rows, int64_t d, Acc* acc) {
  acc->Add(kHbm, x.xla() * 2.0 * rows * d * x.b() / (x.bw() * x.p[kEtaScatter]));
}
// The transpose of a permutation gather: a scatter-add whose indices never
// repeat (each target row receives one update).
void PermutationScatterAdd(const Ctx& x, double rows, int64_t d, Acc* acc) {
  acc->Add(kHbm, x.xla() * 3.0 * rows * d * x.b() / (x.bw() * x.p[kEtaScatterUnique]));
}
// Row scatter-add: read row, read-modify-write the target row.
void ScatterAdd(const Ctx& x, double rows, int64_t d, Acc* acc) {
  acc->Add(kHbm, x.xla() * 3.0 * rows * d * x.b() / (x.bw() * x.p[kEtaScatter]));
}
void Sort(const Ctx& x, double n, int64_t operands, Acc* acc) {
  if (n < 2) return;
  acc->Add(kVpu, x.xla() * x.p[kSortS] * n * std::log2(n) * static_cast<double>(operands) / 2.0);
}
// Dense matmul kernel: max(MXU, HBM) on its own operand traffic; XLA tiles
// it in VMEM like any of its kernels.
void Dense(const Ctx& x, double flops, double bytes, bool int8, Acc* acc) {
  const double peak = int8 ? x.hw.peak_int8_ops : x.hw.peak_bf16_flops;
  acc->Roofline(x.xla() * flops / (peak * x.p[kEtaDense]), x.xla() * bytes / (x.bw() * x.p[kEtaHbm]));
}

// The per-chip expert problem.
struct Local {
  VisitCount v;        // busiest chip's visits
  int64_t groups = 0;  // local groups (weights resident)
  int64_t m_buf = 0;   // rows of the packed buffer
  int64_t tokens = 0;  // tokens the combine writes ([tokens, D])
  int64_t out_tokens = 0;  // tokens of the layer's output on this chip (after the combine's collective)
  int64_t sort_n = 0;  // keys sorted in the timed region (0: none)
  int64_t gather_rows = 0;   // pack gather rows
  int64_t combine_rows = 0;  // rows combined back
  int64_t shared_tokens = 0; // tokens the shared expert runs on, per chip
  bool scatter = false;      // combine by scatter-add
  bool pack_in_graph = true; // pack (sort+gather) is timed
};

// The rows chip d of pe receives per data shard: its lg experts' share of
// each group, ceil(group size / pd).
int64_t ChipRows(const int64_t* gs, int64_t d, int64_t lg, int64_t pd) {
  int64_t cnt = 0;
  for (int64_t g = d * lg; g < (d + 1) * lg; ++g) cnt += CeilDiv(gs[g], pd);
  return cnt;
}

// The chip with the most tile visits when chip d's groups get `first_pad`
// padding rows in the first group and `dummy(d)` rows in a dummy expert.
template <typename Dummy, typename FirstPad>
VisitCount WorstChip(const Hardware& hw, const ModelCase& c, int64_t lg, FirstPad first_pad, Dummy dummy) {
  VisitCount worst;
  for (int64_t d = 0; d < c.expert_axis; ++d) {
    VisitCount v = CountVisits(c.group_sizes.data() + d * lg, lg, c.data_axis, first_pad(d), dummy(d), hw.tile_m);
    if (v.visits > worst.visits) worst = v;
  }
  return worst;
}

// One chip (none) or one data shard (dp) with every expert.
void LocalAllExperts(const Hardware& hw, const ModelCase& c, Local* l) {
  const int64_t tm = hw.tile_m, pd = c.data_axis, a = c.slots, e = c.experts;
  l->groups = e;
  if (c.capacity == Capacity::kPad) {
    l->m_buf = RoundUp(e * c.cap, tm);
    int64_t start = 0;
    for (int64_t g = 0; g < e; ++g) {
      if (c.cap <= 0) { ++l->v.empty; continue; }
      ++l->v.groups;
      l->v.visits += CeilDiv(start + c.cap, tm) - start / tm;
      start += c.cap;
    }
    l->v.rows = start;
    // The dispatch moves every assignment into the slots and every
    // assignment's output back out of them, the combine scatter-adding it
    // from its slot (the discarded slot's zeros past capacity) into its
    // token's row (PadDispatchBytes): both scale with T*K whatever the
    // factor; only the expert work scales with E*cap.
    l->gather_rows = a;
    l->combine_rows = a;
  } else {
    l->v = CountVisits(c.group_sizes.data(), e, pd, 0, 0, tm);
    l->m_buf = RoundUp(CeilDiv(a, pd), tm);
    l->gather_rows = CeilDiv(a, pd);
    l->combine_rows = CeilDiv(a, pd);
  }
  l->sort_n = CeilDiv(a, pd);
  l->shared_tokens = l->tokens;
  l->pack_in_graph = !(c.prequeue && c.pass == Pass::kForward);
}

// EP, dense_masked: global-length masked dispatch. Every chip runs all
// slots; rows of other chips' experts (and null slots) go to a dummy expert
// that is computed.
void LocalDenseMasked(const Hardware& hw, const ModelCase& c, Local* l) {
  const int64_t pd = c.data_axis, lg = c.experts / c.expert_axis;
  const int64_t a_shard = CeilDiv(c.slots, pd);
  const int64_t* gs = c.group_sizes.data();
  l->m_buf = RoundUp(a_shard, hw.tile_m);
  l->v = WorstChip(hw, c, lg, [](int64_t) { return int64_t{0}; },
                   [&](int64_t d) { return a_shard - ChipRows(gs, d, lg, pd); });
  l->groups = lg + 1;
  l->sort_n = a_shard;
  l->gather_rows = a_shard;
  l->combine_rows = a_shard;
  l->shared_tokens = l->tokens;
}

// EP, compact dispatch: every chip's buffer holds the largest chip's rows
// rounded to the capacity multiple.
void LocalCompact(const Hardware& hw, const ModelCase& c, Local* l) {
  const int64_t pd = c.data_axis, pe = c.expert_axis, lg = c.experts / pe;
  const int64_t* gs = c.group_sizes.data();
  int64_t max_count = 0;
  for (int64_t d = 0; d < pe; ++d) max_count = std::max(max_count, ChipRows(gs, d, lg, pd));
  const int64_t local_cap = std::max<int64_t>(hw.ep_cap_multiple, RoundUp(max_count, hw.ep_cap_multiple));
  // The harness adds the padding rows to the first local group (docs/harness.md §2.7).
  l->v = WorstChip(hw, c, lg, [&](int64_t d) { return local_cap - ChipRows(gs, d, lg, pd); },
                   [](int64_t) { return int64_t{0}; });
  l->groups = lg;
  l->m_buf = local_cap;
  l->gather_rows = local_cap;
  l->combine_rows = local_cap;
  if (c.comm == CommPath::kA2a) {
    // Local routing of this chip's token shard, then dispatch.
    l->sort_n = CeilDiv(CeilDiv(c.slots, pd), pe);
    l->shared_tokens = l->tokens / pe;
  } else {
    l->sort_n = 0;  // compact dispatch is built on the host, outside the timed call
    l->shared_tokens = c.comm == CommPath::kRingAgRs ? l->tokens / pe : l->tokens;
  }
  l->pack_in_graph = true;
}

Local BuildLocal(const Hardware& hw, const ModelCase& c) {
  Local l;
  l.tokens = c.tokens / c.data_axis;
  // ring_ag_rs reduce-scatters the output along tokens (and a2a returns each
  // chip its own tokens): what follows the combine runs on T/n tokens, where
  // compact_psum leaves the whole [T, D] on every chip.
  const bool sharded_out = c.parallel == Parallel::kEp && !c.dense_masked && c.comm != CommPath::kCompactPsum;
  l.out_tokens = sharded_out ? l.tokens / std::max<int64_t>(1, c.expert_axis) : l.tokens;
  const bool nulls = c.real_assignments < c.slots;
  l.scatter = c.scatter_impl || c.capacity == Capacity::kPad || c.parallel == Parallel::kEp || nulls;
  if (c.parallel != Parallel::kEp) LocalAllExperts(hw, c, &l);
  else if (c.dense_masked) LocalDenseMasked(hw, c, &l);
  else LocalCompact(hw, c, &l);
  return l;
}

bool RoutedInt8(const ModelCase& c) {
  return c.quant == Quant::kInt8Routed || c.quant == Quant::kInt8All || c.quant == Quant::kInt8RoutedPrequant;
}
bool DenseInt8(const ModelCase& c) {
  return (c.quant == Quant::kInt8 && !c.fake_quant) || c.quant == Quant::kInt8All;
}

// Fake quantization of a matmul operand of `elems` elements of `bytes` each,
// as the XLA program around a bf16 matmul runs it: one read for the absmax,
// then one read and one write of the quantized-dequantized copy the matmul
// reads (a Pallas gmm or a dot takes its operands materialized). The matmul
// itself keeps the bf16 rate. No parameter. Its backward is taken as the
// straight-through identity (no pass; the revision's gradient is not known).
void FakeQuant(const Ctx& x, double elems, double bytes, Acc* acc) { Stream(x, 3.0 * elems * bytes, acc); }

// Forward expert MLP: up projection(s), SiLU*up, optional preweight, down.
void ExpertForward(const Ctx& x, const Local& l, Acc* up, Acc* down) {
  const ModelCase& c = x.c;
  const int64_t d = c.hidden, f = c.mlp;
  const bool i8 = RoutedInt8(c);
  const bool ragged = c.ragged_dot || i8;  // int8 routed modes always use ragged_dot
  const double m = static_cast<double>(l.m_buf);
  if (i8) {
    // Per-row quantization of h for the second projection (x was quantized in
    // the pack); dequantization of both int32 outputs; weights re-quantized
    // inside every call unless pre-quantized.
    Stream(x, m * f * (x.b() + x.b() + 1.0), up);
    Stream(x, m * (2.0 * f) * (4.0 + x.b()), up);
    Stream(x, m * d * (4.0 + x.b()), down);
    if (c.quant != Quant::kInt8RoutedPrequant)
      Stream(x, static_cast<double>(l.groups) * 3.0 * d * f * (2.0 * x.b() + 1.0), up);
  }
  if (c.fake_quant) {
    // Each expert matmul's activations and weights, quantized and
    // dequantized in every call: x and w13 (or w1, w3) for the up
    // projection, h and w2 for the down.
    const double g = static_cast<double>(l.groups);
    FakeQuant(x, m * d + g * 2.0 * d * f, x.b(), up);
    FakeQuant(x, m * f + g * f * d, x.b(), down);
  }
  if (c.fused_w13) {
    Gmm(x, l.v, l.m_buf, d, 2 * f, ragged, i8, up);
  } else {
    Gmm(x, l.v, l.m_buf, d, f, ragged, i8, up);
    Gmm(x, l.v, l.m_buf, d, f, ragged, i8, up);
  }
  Stream(x, m * 3.0 * f * x.b(), up);              // SiLU(gate) * up
  if (c.preweight) Stream(x, m * 2.0 * f * x.b(), up);
  Gmm(x, l.v, l.m_buf, f, d, ragged, i8, down);
}

// Backward of the expert MLP: dX gmm (transposed weights) and dW tgmm per
// projection, activation backward. The weight-gradient matmuls go to
// `wgrad` (they need only saved activations and the output gradient, not
// the gradient of the layer's input), the rest to `acc`.
void ExpertBackward(const Ctx& x, const Local& l, Acc* acc, Acc* wgrad, bool* int8_skipped) {
  const ModelCase& c = x.c;
  const int64_t d = c.hidden, f = c.mlp;
  const double m = static_cast<double>(l.m_buf);
  const bool ragged = c.ragged_dot;
  // As the harness did it: int8_routed / int8_all differentiate through round(),
  // so no expert dgrad/wgrad matmul runs (their gradient is zero).
  const bool skip = c.quant == Quant::kInt8Routed || c.quant == Quant::kInt8All;
  *int8_skipped = skip;
  const bool prequant = c.quant == Quant::kInt8RoutedPrequant;
  Stream(x, m * 5.0 * f * x.b(), acc);  // activation backward
  if (c.preweight) Stream(x, m * 3.0 * f * x.b(), acc);
  if (skip) {
    Stream(x, m * (2.0 * f + d) * 4.0, acc);  // scale gradients: reductions over the int32 outputs
    return;
  }
  if (prequant) Stream(x, m * (d + 2.0 * f) * (2.0 * x.b() + 1.0), acc);  // per-row grad quantization
  // down: dX [m,F] = g[m,D] W2^T, dW2 [G,F,D]
  Gmm(x, l.v, l.m_buf, d, f, ragged || prequant, prequant, acc);
  Tgmm(x, l.v, l.groups, f, d, ragged, wgrad);
  if (c.fused_w13) {
    Gmm(x, l.v, l.m_buf, 2 * f, d, ragged || prequant, prequant, acc);
    Tgmm(x, l.v, l.groups, d, 2 * f, ragged, wgrad);
  } else {
    Gmm(x, l.v, l.m_buf, f, d, ragged || prequant, prequant, acc);
    Gmm(x, l.v, l.m_buf, f, d, ragged || prequant, prequant, acc);
    Stream(x, m * d * 3.0 * x.b(), acc);  // dx = dx1 + dx3
    Tgmm(x, l.v, l.groups, d, f, ragged, wgrad);
    Tgmm(x, l.v, l.groups, d, f, ragged, wgrad);
  }
}

// Of `rows` assignments under the pad policy, those within their expert's
// capacity (each owns a slot; the rest share the discarded one).
double PadKeptRows(const ModelCase& c, double rows) {
  double kept = 0;
  for (int64_t g : c.group_sizes) kept += static_cast<double>(std::min(g, c.cap));
  return std::min(kept, rows);
}

void PackForward(const Ctx& x, const Local& l, Acc* acc) {
  const ModelCase& c = x.c;
  if (!l.pack_in_graph) return;
  const int64_t d = c.hidden;
  if (l.sort_n > 0) Sort(x, static_cast<double>(l.sort_n), c.sort_operands, acc);
  double rows = static_cast<double>(l.gather_rows);
  if (c.repeat_sort && l.sort_n > 0) Stream(x, rows * d * x.b(), acc);  // repeat tokens K times
  Gather(x, rows, d, acc);
  if (RoutedInt8(c)) {
    Stream(x, static_cast<double>(l.tokens) * d * (2.0 * x.b() + 1.0), acc);  // per-token quantization of x
  }
  if (c.capacity == Capacity::kDrop) Stream(x, rows * d * 2.0 * x.b(), acc);  // zero dropped rows
  if (c.capacity == Capacity::kPad) {
    // Every assignment's row is scattered into its slot of a zeroed
    // [E*cap, D] buffer (rows past the capacity into a discarded slot): the
    // dispatch scales with T*K whatever the factor; the buffer with E*cap.
    Stream(x, PadDispatchBytes(c).buffer, acc);
    // Rows within capacity land in distinct slots; the rows past it all go to
    // the one discarded slot, a scatter whose index always repeats (each
    // write waits on the previous one's, as a scatter-add's does).
    const double kept = PadKeptRows(c, rows);
    RowScatter(x, kept, d, acc);
    ScatterAdd(x, rows - kept, d, acc);
  }
  if (c.parallel == Parallel::kEp) Stream(x, rows * d * 2.0 * x.b(), acc);     // mask invalid rows
  // The dense masked dispatch indexes the global-length buffer a second time
  // (the mask's nonzero take that routes other chips' rows to the dummy
  // expert): another gather of every slot.
  if (c.dense_masked) Gather(x, rows, d, acc);
}

void PackBackward(const Ctx& x, const Local& l, Acc* acc) {
  const ModelCase& c = x.c;
  const int64_t d = c.hidden;
  const double rows = static_cast<double>(l.gather_rows);
  if (c.custom_sort_vjp && c.repeat_sort && l.sort_n > 0) {
    Gather(x, rows, d, acc);                      // inverse permutation
    Stream(x, rows * d * x.b() + static_cast<double>(l.tokens) * d * x.b(), acc);  // sum over K
  } else {
    Stream(x, static_cast<double>(l.tokens) * d * x.b(), acc);  // zero dx
    ScatterAdd(x, rows, d, acc);                                // transpose of the gather
  }
  if (c.capacity == Capacity::kPad) Gather(x, rows, d, acc);  // transpose of the slot scatter
  if (c.dense_masked) ScatterAdd(x, rows, d, acc);            // transpose of the masked take
}

void CombineForward(const Ctx& x, const Local& l, Acc* acc) {
  const ModelCase& c = x.c;
  const int64_t d = c.hidden;
  const double rows = static_cast<double>(l.combine_rows);
  const double t = static_cast<double>(l.tokens);
  if (l.scatter) {
    Stream(x, t * d * x.b() + rows * d * x.b() * 2.0, acc);  // zero buffer, weight the rows
    ScatterAdd(x, rows, d, acc);
  } else {
    Sort(x, rows, 2, acc);  // inv = argsort(sort_idx)
    Gather(x, rows, d, acc);
    Stream(x, rows * d * x.b() + t * d * (4.0 + x.b()), acc);  // f32 weighted sum over K, cast
  }
}

void CombineBackward(const Ctx& x, const Local& l, Acc* acc) {
  const ModelCase& c = x.c;
  const int64_t d = c.hidden;
  const double rows = static_cast<double>(l.combine_rows);
  const double t = static_cast<double>(l.tokens);
  if (l.scatter) {
    Gather(x, rows, d, acc);  // transpose of scatter-add: gather dy rows
    Stream(x, rows * d * x.b() * 2.0, acc);
    if (c.capacity == Capacity::kPad) {
      // Transpose of the combine's read out of the slots: the kept rows'
      // gradients go to distinct slots, the rest all to the discarded one
      // (serialized).
      const double kept = PadKeptRows(c, rows);
      PermutationScatterAdd(x, kept, d, acc);
      ScatterAdd(x, rows - kept, d, acc);
    }
  } else {
    Stream(x, t * d * 4.0 + rows * d * x.b() * 2.0, acc);
    if (c.custom_sort_vjp) {
      Gather(x, rows, d, acc);
    } else {
      Stream(x, rows * d * x.b(), acc);
      PermutationScatterAdd(x, rows, d, acc);  // transpose of the unpermute gather y[inv]
    }
  }
}

// Shared SwiGLU expert on `tokens` tokens: f32 accumulation and outputs.
// `fwd_s` receives the seconds of its forward part.
void Shared(const Ctx& x, int64_t tokens, bool backward, Acc* acc, double* fwd_s) {
  const ModelCase& c = x.c;
  *fwd_s = 0;
  if (c.shared <= 0 || tokens <= 0) return;
  const double before = acc->Sum();
  const double t = static_cast<double>(tokens), d = static_cast<double>(c.hidden), s = static_cast<double>(c.shared);
  const bool i8 = DenseInt8(c);
  const double wb = i8 ? 1.0 : x.b();
  const double x_reads = c.shared_fused ? 1.0 : 2.0;
  // Forward: gate/up ([T,2S] f32 out), SiLU*up in f32, down to [T,D] f32.
  Dense(x, 4.0 * t * d * s, x_reads * t * d * x.b() + 2.0 * d * s * wb + t * 2.0 * s * 4.0, i8, acc);
  Stream(x, t * 2.0 * s * 4.0 + t * s * 4.0, acc);
  Dense(x, 2.0 * t * d * s, t * s * 4.0 + d * s * wb + t * d * 4.0, i8, acc);
  Stream(x, t * d * (4.0 + 2.0 * x.b()), acc);  // add to the routed output, cast
  if (i8) Stream(x, t * d * (2.0 * x.b() + 1.0) + t * s * (4.0 + 1.0) + 3.0 * d * s * (2.0 * x.b() + 1.0), acc);
  // Fake quantization: x and the three weights in bf16, h (the down
  // projection's input) in f32.
  if (c.fake_quant) {
    FakeQuant(x, t * d + 3.0 * d * s, x.b(), acc);
    FakeQuant(x, t * s, 4.0, acc);
  }
  *fwd_s = acc->Sum() - before;
  if (!backward) return;
  // Backward: dX and dW of the three projections (2x the forward FLOPs);
  // int8 mode: the dLHS matmuls run in int8, the weight gradients in bf16.
  Dense(x, 4.0 * t * d * s, t * d * 4.0 + 3.0 * d * s * x.b() + t * s * 4.0 * 2.0, i8, acc);
  Dense(x, 8.0 * t * d * s, t * d * 4.0 + t * 3.0 * s * 4.0 + 3.0 * d * s * 4.0, false, acc);
  Stream(x, t * s * 4.0 * 5.0, acc);  // activation backward in f32
  if (!c.shared_fused) Stream(x, t * d * 4.0 * 3.0, acc);  // dx = dx_gate + dx_up
  else Stream(x, 2.0 * d * s * x.b() * 4.0, acc);          // shared_w13 concat and its gradient split
}

struct IciCtx {
  IciLink link;
  double bytes = 0;  // per device sent (== received)
  double seconds = 0;
};

Stage MakeStage(const char* name, const Acc& a) {
  Stage s;
  s.name = name;
  s.seconds = a.Sum();
  s.bound = a.BoundName();
  return s;
}

}  // namespace

int64_t OutputTokensPerChip(const Hardware& hw, const ModelCase& c) { return BuildLocal(hw, c).out_tokens; }

PadDispatch PadDispatchBytes(const ModelCase& c) {
  PadDispatch p;
  if (c.capacity != Capacity::kPad) return p;
  const double b = static_cast<double>(c.elem_bytes), d = static_cast<double>(c.hidden);
  // Into the slots: gather the row from x (read, write), scatter it into its
  // slot (read, write). Out of them: the forced scatter-add combine reads the
  // row from its slot and read-modify-writes its token's row.
  p.assignments = static_cast<double>(c.slots) * d * b * 7.0;
  p.buffer = static_cast<double>(c.experts * c.cap) * d * b;  // zero-fill of the padded buffer
  return p;
}

int64_t GmmVisits(const int64_t* sizes, int64_t groups, int64_t tm) {
  return CountVisits(sizes, groups, 1, 0, 0, tm).visits;
}

double AllGatherBytes(double v, int64_t n) { return n <= 1 ? 0.0 : v * static_cast<double>(n - 1) / n; }

int64_t LinksForGroup(int64_t n, int64_t slice_links) {
  if (n <= 1) return 0;
  return n >= 4 ? slice_links : 1;
}

double AllGatherTime(double v, int64_t n, const IciLink& l) {
  if (n <= 1) return 0.0;
  return AllGatherBytes(v, n) / (static_cast<double>(l.links) * l.link_bw * l.eta) +
         static_cast<double>(n - 1) * l.hop_latency;
}
double ReduceScatterTime(double v, int64_t n, const IciLink& l) { return AllGatherTime(v, n, l); }
double AllReduceTime(double v, int64_t n, const IciLink& l) {
  return ReduceScatterTime(v, n, l) + AllGatherTime(v, n, l);
}
double AllToAllTime(double b, int64_t n, const IciLink& l) {
  if (n <= 1) return 0.0;
  // Mean hops to the other chips: 1 on a line of 2; (1+1+2)/3 on a 2x2 mesh.
  const double mean_hops = n >= 4 ? 4.0 / 3.0 : 1.0;
  const double byte_hops = b * static_cast<double>(n - 1) / n * mean_hops;
  return byte_hops / (static_cast<double>(l.links) * l.link_bw * l.eta) + 2.0 * l.hop_latency;
}

namespace {

// The data and expert axes of the slice the case runs on: --mesh's, else
// the parallel mode's (ep: every chip an expert shard; dp: every chip a data
// replica; none: one chip).
Status SetAxes(const BenchConfig& cfg, int64_t chips_per_slice, ModelCase* out) {
  ModelCase& c = *out;
  int64_t data = 1, expert = 1;
  if (!cfg.mesh.empty()) {
    for (size_t pos = 0; pos < cfg.mesh.size();) {
      size_t comma = cfg.mesh.find(',', pos);
      std::string part = cfg.mesh.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      size_t eq = part.find('=');
      if (eq != std::string::npos) {
        int64_t v = std::atoll(part.c_str() + eq + 1);
        if (part.substr(0, eq) == "data") data = v;
        if (part.substr(0, eq) == "expert") expert = v;
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  if (cfg.parallel_mode == "ep") {
    c.parallel = Parallel::kEp;
    if (cfg.mesh.empty()) { data = 1; expert = chips_per_slice; }
  } else if (cfg.parallel_mode == "dp") {
    c.parallel = Parallel::kDp;
    if (cfg.mesh.empty()) { data = chips_per_slice; expert = 1; }
    else { data *= expert; expert = 1; }  // dp replicates every expert on each chip
  } else {
    c.parallel = Parallel::kNone;
    data = expert = 1;
  }
  if (data * expert > chips_per_slice)
    return Status::InvalidArgument("--mesh " + cfg.mesh + ": " + std::to_string(data * expert) +
                                   " devices exceed the slice's " + std::to_string(chips_per_slice) + " chips");
  if (c.parallel == Parallel::kEp && cfg.experts % expert != 0)
    return Status::InvalidArgument("--experts not divisible by the expert axis");
  c.data_axis = data;
  c.expert_axis = expert;
  return Status::Ok();
}

}  // namespace

Result<ModelCase> MakeCase(const BenchConfig& cfg, const RunPoint& point, const std::vector<int64_t>& group_sizes,
                           int64_t real_assignments, int64_t chips_per_slice) {
  ModelCase c;
  c.tokens = cfg.tokens;
  c.hidden = cfg.hidden;
  c.mlp = cfg.mlp_dim;
  c.experts = cfg.experts;
  c.topk = point.topk;
  c.shared = cfg.shared_expert_dim;
  c.shared_fused = cfg.shared_fused;
  c.elem_bytes = cfg.dtype == "float32" ? 4 : 2;
  c.ragged_dot = cfg.backend == "ragged_dot";
  const std::string& im = point.impl;
  c.fused_w13 = im == "fused_w13" || im == "fused_w13_preweight" || im == "fast";
  c.preweight = im == "preweight" || im == "fused_w13_preweight";
  c.scatter_impl = im == "scatter" || im == "fast";
  c.pass = cfg.bench_pass == "forward_backward" ? Pass::kForwardBackward : Pass::kForward;
  c.prequeue = point.queue_mode == "prequeue";
  c.sort_operands = cfg.routing_pack_strategy == "argsort" ? 2 : cfg.routing_pack_strategy == "tuple_sort" ? 3 : 4;
  c.repeat_sort = cfg.dispatch_permute_mode == "repeat_sort";
  c.custom_sort_vjp = cfg.use_custom_sort_vjp;
  c.remat = cfg.remat_mode == "expert_mlp" ? Remat::kExpertMlp : cfg.remat_mode == "combine" ? Remat::kCombine
                                                                                              : Remat::kNone;
  const std::string& q = cfg.quant_mode;
  c.quant = q == "int8" ? Quant::kInt8 : q == "int8_routed" ? Quant::kInt8Routed : q == "int8_all" ? Quant::kInt8All
            : q == "int8_routed_prequant" ? Quant::kInt8RoutedPrequant : Quant::kNone;
  c.fake_quant = c.quant == Quant::kInt8 && cfg.int8_impl == "fake_quant";
  const std::string policy = cfg.EffectiveCapacityPolicy();  // factor 0: no limit
  c.capacity = policy == "drop" ? Capacity::kDrop : policy == "pad" ? Capacity::kPad : Capacity::kNone;
  if (c.capacity != Capacity::kNone && cfg.capacity_factor > 0)
    c.cap = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(cfg.capacity_factor * static_cast<double>(cfg.tokens) *
                                                                static_cast<double>(point.topk) /
                                                                static_cast<double>(cfg.experts))));
  c.dense_masked = cfg.parallel_mode == "ep" && cfg.ep_dispatch == "dense_masked";  // ignored without EP, as by the harness
  c.comm = cfg.ep_comm_path == "ring_ag_rs" ? CommPath::kRingAgRs : cfg.ep_comm_path == "a2a" ? CommPath::kA2a
                                                                                             : CommPath::kCompactPsum;
  MOELOG_RETURN_IF_ERROR(SetAxes(cfg, chips_per_slice, &c));
  c.group_sizes = group_sizes;
  c.real_assignments = real_assignments;
  c.slots = cfg.tokens * point.topk;
  c.mlp_path = cfg.mlp_path == "ref_dp" ? MlpPath::kRefDp : cfg.mlp_path == "staged_dp" ? MlpPath::kStagedDp
               : cfg.mlp_path == "fused_ep" ? MlpPath::kFusedEp : MlpPath::kNone;
  c.staged_parallel = cfg.staged_parallel;
  c.scoped_vmem_bytes = 1024.0 * static_cast<double>(cfg.xla_scoped_vmem_kib);
  if (static_cast<int64_t>(group_sizes.size()) != cfg.experts)
    return Status::Internal("group sizes do not match the expert count");
  return c;
}

namespace {

// EP inputs as the harness passed them: single-device arrays moved onto the
// slice on every call. Expert weights are scattered (each chip receives its
// shard; on the 2x2 mesh the diagonal chip's shard shares a link with a
// neighbour's, so the busiest origin link carries ceil((n-1)/links)/n of
// them); x and the shared weights are replicated (every link carries them),
// except x for ring/a2a, which is token-sharded.
void InputPlacement(const Ctx& x, Acc* placement) {
  const ModelCase& c = x.c;
  if (c.parallel != Parallel::kEp) return;
  const double b = x.b(), d = static_cast<double>(c.hidden), f = static_cast<double>(c.mlp);
  const int64_t n = c.devices();
  const int64_t links = std::max<int64_t>(1, LinksForGroup(n, x.hw.ici_links));
  const double shard_frac = static_cast<double>(CeilDiv(n - 1, links)) / static_cast<double>(n);
  // int8_routed_prequant passes the expert weights in already quantized: one byte each.
  const double wb = c.quant == Quant::kInt8RoutedPrequant ? 1.0 : b;
  const double experts_w = static_cast<double>(c.experts) * 3.0 * d * f * wb;
  const double shared_w = 3.0 * d * static_cast<double>(c.shared) * b;
  const double xb = static_cast<double>(c.tokens) * d * b;
  const bool x_replicated = c.comm == CommPath::kCompactPsum || c.dense_masked;
  const double busiest_link = experts_w * shard_frac + shared_w + (x_replicated ? xb : xb * shard_frac);
  placement->Add(kIci, busiest_link / (x.hw.ici_link_bw * x.p[kEtaPlacement]));
}

// The collectives: the EP exchange of activations (forward, and again in the
// backward) and the data-parallel all-reduce of weight gradients. Adds the
// bytes each device sends to `bytes`; `ep_pass_s` receives the seconds of
// one EP exchange (0 without EP).
void Collectives(const Ctx& x, const Local& l, bool bwd, Acc* comm, double* bytes, double* ep_pass_s) {
  const ModelCase& c = x.c;
  const double b = x.b(), d = static_cast<double>(c.hidden), f = static_cast<double>(c.mlp);
  *ep_pass_s = 0;
  IciLink link;
  link.link_bw = x.hw.ici_link_bw;
  link.hop_latency = x.hw.ici_hop_latency_s;
  link.eta = x.p[kEtaIci];
  if (c.parallel == Parallel::kEp) {
    const int64_t n = c.expert_axis;
    link.links = LinksForGroup(n, x.hw.ici_links);
    const double v = static_cast<double>(l.tokens) * d * b;  // [T, D] activations of this data shard
    const double passes = bwd ? 2.0 : 1.0;
    if (c.comm == CommPath::kCompactPsum || c.dense_masked) {
      *ep_pass_s = AllReduceTime(v, n, link);
      *bytes += passes * 2.0 * AllGatherBytes(v, n);
    } else if (c.comm == CommPath::kRingAgRs) {
      *ep_pass_s = AllGatherTime(v, n, link) + ReduceScatterTime(v, n, link);
      *bytes += passes * 2.0 * AllGatherBytes(v, n);
    } else {
      const double held = static_cast<double>(l.m_buf) * d * b;
      *ep_pass_s = 2.0 * AllToAllTime(held, n, link);
      *bytes += passes * 2.0 * AllGatherBytes(held, n);
    }
    comm->Add(kIci, passes * *ep_pass_s);
  }
  if (bwd && c.data_axis > 1) {
    const int64_t n = c.data_axis;
    link.links = LinksForGroup(n, x.hw.ici_links);
    const double grads = static_cast<double>(l.groups) * 3.0 * d * f * b + 3.0 * d * static_cast<double>(c.shared) * b;
    comm->Add(kIci, AllReduceTime(grads, n, link));
    *bytes += 2.0 * AllGatherBytes(grads, n);
  }
}

// The backward pass and what remat replays for it; `wgrad_s` receives the
// seconds of its weight-gradient matmuls (part of `backward`). Returns
// whether the int8 path skipped them.
bool BackwardAndRemat(const Ctx& x, const Local& l, Acc* backward, Acc* remat, double* wgrad_s) {
  const ModelCase& c = x.c;
  const double b = x.b(), d = static_cast<double>(c.hidden), f = static_cast<double>(c.mlp);
  Stream(x, static_cast<double>(l.out_tokens) * d * (b + 4.0), backward);  // loss mean(y^2) and its gradient
  bool skipped = false;
  CombineBackward(x, l, backward);
  Acc wgrad;
  ExpertBackward(x, l, backward, &wgrad, &skipped);
  backward->Merge(wgrad);
  *wgrad_s = wgrad.Sum();
  PackBackward(x, l, backward);
  // w13 = concat(w1, w3) rebuilt every step, and its gradient split; prequant
  // passes w13 in already quantized, so only the gradient is split.
  if (c.fused_w13)
    Stream(x, static_cast<double>(l.groups) * 2.0 * d * f * b * (c.quant == Quant::kInt8RoutedPrequant ? 2.0 : 4.0),
           backward);
  // Remat replays only what the backward needs: expert_mlp recomputes the up
  // projection(s) and SiLU*up (the input of the down projection; the down
  // output is dead). The combine is linear in the expert outputs (routing
  // weights are constants), so its backward saves nothing and combine remat
  // recomputes nothing.
  if (c.remat == Remat::kExpertMlp) {
    Acc unused;
    ExpertForward(x, l, remat, &unused);
  }
  return skipped;
}

// The EP collectives run on the ICI while the MXU computes what does not
// depend on them (XLA's async collectives): the forward's combine reduction
// beside the shared expert's forward (it reads x, not the routed output), the
// backward's input-gradient reduction beside the weight-gradient matmuls and
// the shared expert's backward (`beside_bwd_s`). Each hides the shorter of the
// two. `ep_pass_s`: one EP exchange (Collectives; 0 without EP).
void HideCollectives(double ep_pass_s, double shared_fwd_s, bool bwd, double beside_bwd_s, Acc* comm) {
  double hidden = std::min(ep_pass_s, shared_fwd_s);
  if (bwd) hidden += std::min(ep_pass_s, beside_bwd_s);
  comm->Add(kIci, -hidden);
}

// HBM footprint per chip: inputs as placed, packed activations, and for
// forward_backward the saved residuals, activation gradients and weight grads.
double MemoryBytes(const Ctx& x, const Local& l, bool bwd) {
  const ModelCase& c = x.c;
  const double b = x.b(), d = static_cast<double>(c.hidden), f = static_cast<double>(c.mlp);
  const double e = static_cast<double>(c.experts), s = static_cast<double>(c.shared);
  const double t_glob = static_cast<double>(c.tokens), t_loc = static_cast<double>(l.tokens);
  const double m = static_cast<double>(l.m_buf);
  const double weights_held = (c.parallel == Parallel::kEp ? e : static_cast<double>(l.groups)) * 3.0 * d * f * b +
                              static_cast<double>(l.groups) * 2.0 * d * f * b + 3.0 * d * s * b;
  const double up_b = RoutedInt8(c) ? 4.0 : b;
  const double acts = t_glob * d * b + m * d * b + m * 2.0 * f * up_b + m * f * b + m * d * b +
                      (l.scatter ? t_loc * d * b : m * d * 4.0 + t_loc * d * 4.0) +
                      static_cast<double>(l.shared_tokens) * (3.0 * s * 4.0 + d * 4.0);
  double mem = weights_held + acts;
  if (bwd) mem += acts + static_cast<double>(l.groups) * 3.0 * d * f * b + 3.0 * d * s * b;
  return mem;
}

// Bytes on the busiest link of the origin chip when bench_moe_mlp_profile.py's
// single-device inputs are placed on the n chips of the slice each call: a
// replicated array goes whole to each of the n-1 others, a sharded one a
// 1/n shard to each, each as its own transfer from the origin, which spreads
// them over its usable links, so its busiest link carries ceil((n-1)/links)
// of them. (The hillclimb harness's replicated inputs cost one copy per link,
// a broadcast: InputPlacement. Its calibration rows and this harness's agree
// on one placement efficiency only so; docs/v5p-model.md.)
double BusiestPlacementLink(double replicated, double sharded, int64_t n, int64_t links) {
  if (n <= 1) return 0.0;
  const double per_link = static_cast<double>(CeilDiv(n - 1, std::max<int64_t>(1, links)));
  return per_link * (replicated + sharded / static_cast<double>(n));
}

// bench_moe_mlp_profile.py's paths (forward only, no shared expert), on the
// n chips of the mesh axis:
//  - input placement: x token-sharded; the expert weights replicated for the
//    DP paths (each chip holds every expert), expert-sharded for fused_ep;
//  - expert compute: the SwiGLU experts' 6*H*M flops per assignment, T*K/n
//    assignments per chip, at the harness kernels' efficiency;
//  - fused_ep's dispatch: the fused kernel moves each assignment's row to
//    its expert's chip and back as its own remote copy; they issue one after
//    another, one ICI hop latency each, while the MXU works (the longer of
//    the two is exposed);
//  - staged_dp with --staged-parallel: its stages overlap part of the
//    placement with the compute.
Prediction PredictMlpProfile(const Ctx& x) {
  const ModelCase& c = x.c;
  Prediction out;
  out.devices = c.devices();
  out.peak_flops = x.hw.peak_bf16_flops;
  const int64_t n = std::max<int64_t>(1, c.devices());
  const double b = x.b(), d = static_cast<double>(c.hidden), f = static_cast<double>(c.mlp);
  const double weights = static_cast<double>(c.experts) * 3.0 * d * f * b;
  const double xb = static_cast<double>(c.tokens) * d * b;
  const bool ep = c.mlp_path == MlpPath::kFusedEp;
  const double link_bytes =
      BusiestPlacementLink(ep ? 0.0 : weights, ep ? weights + xb : xb, n, LinksForGroup(n, x.hw.ici_links));
  double place = link_bytes / (x.hw.ici_link_bw * x.p[kEtaPlacement]);
  const double rows = static_cast<double>(c.real_assignments) / static_cast<double>(n);
  const double compute = 6.0 * d * f * rows / (x.hw.peak_bf16_flops * x.p[kEtaMlpProfile]);
  double experts = compute, dispatch = 0.0;
  if (ep) {
    const double dma = rows * x.hw.ici_hop_latency_s;
    dispatch = std::max(0.0, dma - compute);
  }
  if (c.mlp_path == MlpPath::kStagedDp && c.staged_parallel) place -= x.p[kStagedOverlap] * std::min(place, compute);
  auto add = [&](const char* name, double s, Bound r) {
    if (s <= 0 || out.num_stages >= Prediction::kMaxStages) return;
    Acc a;
    a.Add(r, s);
    out.stages[out.num_stages++] = MakeStage(name, a);
    out.time_s += s;
  };
  add("input_placement", place, kIci);
  add("experts", experts, kMxu);
  add("dispatch", dispatch, kIci);
  add("fixed", x.p[kFixedS], kFixed);
  out.comm_s = place + dispatch;
  out.comm_bytes_per_device = link_bytes;
  out.memory_bytes = (ep ? weights / static_cast<double>(n) : weights) + xb +
                     rows * (2.0 * d + 3.0 * f) * b;
  out.oom = out.memory_bytes > x.hw.hbm_bytes;
  return out;
}

}  // namespace

Prediction Predict(const Hardware& hw, const ModelParams& p, const ModelCase& c) {
  if (c.mlp_path != MlpPath::kNone) {
    const Ctx x{hw, p, c};
    return PredictMlpProfile(x);
  }
  Prediction out;
  out.devices = c.devices();
  out.peak_flops = hw.peak_bf16_flops;
  const Ctx x{hw, p, c};
  const Local l = BuildLocal(hw, c);
  const bool bwd = c.pass == Pass::kForwardBackward;

  Acc placement, pack, up, down, combine, shared, comm, backward, remat, fixed;
  double comm_bytes = 0;
  InputPlacement(x, &placement);
  PackForward(x, l, &pack);
  ExpertForward(x, l, &up, &down);
  CombineForward(x, l, &combine);
  double shared_fwd_s = 0, ep_pass_s = 0, wgrad_s = 0;
  Shared(x, l.shared_tokens, bwd, &shared, &shared_fwd_s);
  Collectives(x, l, bwd, &comm, &comm_bytes, &ep_pass_s);
  if (bwd) out.int8_backward_skipped = BackwardAndRemat(x, l, &backward, &remat, &wgrad_s);
  HideCollectives(ep_pass_s, shared_fwd_s, bwd, shared.Sum() - shared_fwd_s + wgrad_s, &comm);
  fixed.Add(kFixed, p[kFixedS]);

  auto add = [&](const char* name, const Acc& a) {
    if (a.Sum() <= 0 || out.num_stages >= Prediction::kMaxStages) return;
    out.stages[out.num_stages++] = MakeStage(name, a);
    out.time_s += a.Sum();
  };
  add("input_placement", placement);
  add("pack", pack);
  add("up", up);
  add("down", down);
  add("combine", combine);
  add("shared", shared);
  add("comm", comm);
  add("backward", backward);
  add("remat", remat);
  add("fixed", fixed);
  out.comm_s = comm.Sum() + placement.Sum();
  out.comm_bytes_per_device = comm_bytes;
  out.memory_bytes = MemoryBytes(x, l, bwd);
  out.oom = out.memory_bytes > hw.hbm_bytes;
  return out;
}

}  // namespace moelog::engine::v5p
