#include "engine/parallel/parallel_runner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "engine/cpu/kernels.h"
#include "engine/cpu/moe_block.h"
#include "engine/cpu/moe_layer.h"
#include "engine/cpu/reference.h"
#include "engine/parallel/dispatch_plan.h"
#include "engine/parallel/mpi_comm.h"
#include "engine/parallel/sim_comm.h"
#include "engine/timing.h"

namespace moelog::engine::parallel {
namespace {

using cpu::DType;
using cpu::Tensor;

// ---------------------------------------------------------------- helpers --

void Resize(Tensor* t, DType dt, std::vector<int64_t> shape) {
  if (t->empty() || t->dtype() != dt || t->shape() != shape) *t = Tensor::Scratch(dt, std::move(shape));
}

// Converts a tensor's values to float32 (vectorized per dtype).
void ToF32(const Tensor& t, std::vector<float>* out) {
  const int64_t n = t.numel();
  out->resize(static_cast<size_t>(n));
  cpu::DispatchFloat(t.dtype(), [&](auto tag) { cpu::CastScale(t.as<decltype(tag)>(), out->data(), n); });
}

// Stores float32 values into a tensor of its dtype (rounding for bf16).
void FromF32(const float* in, Tensor* t) {
  const int64_t n = t->numel();
  cpu::DispatchFloat(t->dtype(), [&](auto tag) { cpu::CastScale(in, t->as<decltype(tag)>(), n); });
}

// Experts [e0, e0 + l) of an [E, a, b] tensor, plus `zero_extra` zero experts.
Tensor SliceExperts(const Tensor& src, int64_t e0, int64_t l, int64_t zero_extra) {
  const int64_t per = src.dim(1) * src.dim(2);
  Tensor t(src.dtype(), {l + zero_extra, src.dim(1), src.dim(2)});
  const size_t es = static_cast<size_t>(cpu::DTypeSize(src.dtype()));
  std::memcpy(t.data(), src.at(e0 * per), static_cast<size_t>(l * per) * es);
  if (zero_extra > 0) std::memset(t.at(l * per), 0, static_cast<size_t>(zero_extra * per) * es);
  return t;
}

// Frees a buffer whose contents were consumed (an exchange buffer after its
// collective, a step's scratch): the simulated devices run one after the
// other, so only what a device still needs stays resident.
template <typename V>
void Release(V* v) {
  V().swap(*v);
}
void Release(Tensor* t) {
  if (!t->is_view()) *t = Tensor();
}

// Gathers rows of a [*, h] tensor into a float32 buffer, block after block.
void PackSendRows(const Tensor& src, const std::vector<std::vector<int32_t>>& lists, int64_t h,
                  std::vector<float>* out, std::vector<int64_t>* counts) {
  int64_t total = 0;
  for (const auto& l : lists) total += static_cast<int64_t>(l.size());
  out->resize(static_cast<size_t>(total * h));
  counts->clear();
  int64_t row = 0;
  const DType dt = src.dtype();
  for (const auto& l : lists) {
    counts->push_back(static_cast<int64_t>(l.size()) * h);
    const int64_t base = row;
    const int64_t n = static_cast<int64_t>(l.size());
    cpu::DispatchFloat(dt, [&](auto tag) {
      using T = decltype(tag);
      const T* in = src.as<T>();
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; ++i) {
        float* o = out->data() + (base + i) * h;
        const T* r = in + int64_t{l[static_cast<size_t>(i)]} * h;
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) o[j] = cpu::ToF(r[j]);
      }
    });
    row += n;
  }
}

// out[list[i]] += rows[i] over the concatenated lists (rows returned by the
// combine exchange). Each list holds distinct tokens, lists run one after the
// other, so rows of one list never collide.
void ScatterReturnedRows(const std::vector<float>& rows, const std::vector<std::vector<int32_t>>& lists, int64_t h,
                         float* out) {
  int64_t row = 0;
  for (const auto& l : lists) {
    const int64_t n = static_cast<int64_t>(l.size());
    const int64_t base = row;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const float* src = rows.data() + (base + i) * h;
      float* o = out + int64_t{l[static_cast<size_t>(i)]} * h;
      for (int64_t j = 0; j < h; ++j) o[j] += src[j];
    }
    row += n;
  }
}

// The device's rows of each token (CSR over the rows of the partial buffer),
// in row order: valid rows with keep, and (weighted combines) weight != 0 --
// exactly the rows CombineScatter / ScatterAddRows add.
struct TokenRows {
  std::vector<int64_t> begin;  // [tokens + 1]
  std::vector<int32_t> rows;
  std::vector<uint8_t> live;  // [tokens]: 1 where the token has rows
  std::vector<int32_t> live_tokens;  // the tokens with rows, ascending: the rows of a compact partial
};

TokenRows BuildTokenRows(const cpu::PackPlan& plan, int64_t tokens, bool skip_zero_weight) {
  TokenRows tr;
  tr.begin.assign(static_cast<size_t>(tokens + 1), 0);
  auto live = [&](int64_t r) {
    const size_t i = static_cast<size_t>(r);
    return plan.keep[i] != 0 && !(skip_zero_weight && plan.weight[i] == 0.0f);
  };
  for (int64_t r = 0; r < plan.valid_rows; ++r)
    if (live(r)) ++tr.begin[static_cast<size_t>(plan.token[static_cast<size_t>(r)]) + 1];
  for (int64_t t = 0; t < tokens; ++t) tr.begin[static_cast<size_t>(t + 1)] += tr.begin[static_cast<size_t>(t)];
  tr.rows.resize(static_cast<size_t>(tr.begin.back()));
  std::vector<int64_t> next(tr.begin.begin(), tr.begin.end() - 1);
  for (int64_t r = 0; r < plan.valid_rows; ++r)
    if (live(r)) tr.rows[static_cast<size_t>(next[static_cast<size_t>(plan.token[static_cast<size_t>(r)])]++)] =
        static_cast<int32_t>(r);
  tr.live.resize(static_cast<size_t>(tokens));
  for (int64_t t = 0; t < tokens; ++t) {
    tr.live[static_cast<size_t>(t)] = tr.begin[static_cast<size_t>(t + 1)] > tr.begin[static_cast<size_t>(t)];
    if (tr.live[static_cast<size_t>(t)]) tr.live_tokens.push_back(static_cast<int32_t>(t));
  }
  return tr;
}

// out[t] = sum over the token's rows of (weight ? plan.weight[r] : 1) * y[r],
// in row order, and 0 for tokens without rows: the same values as zeroing
// out and then CombineScatter / ScatterAddRows, but every element of out
// [tokens, h] is written once, with no separate zero-fill pass. With
// live_only, tokens without rows (tr.live 0) are not written at all: the
// row-sparse all-reduce reads them as zeros. With Layout::kCompact, out
// holds the live tokens' rows only (row i is token tr.live_tokens[i]).
enum class Layout { kDense, kLiveOnly, kCompact };
void GatherSumRows(const Tensor& y, const TokenRows& tr, const cpu::PackPlan& plan, bool weight, float* out,
                   int64_t h, Layout layout) {
  const bool compact = layout == Layout::kCompact;
  const int64_t tokens = compact ? static_cast<int64_t>(tr.live_tokens.size())
                                 : static_cast<int64_t>(tr.begin.size()) - 1;
  cpu::DispatchFloat(y.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* yp = y.as<T>();
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < tokens; ++i) {
      const int64_t t = compact ? int64_t{tr.live_tokens[static_cast<size_t>(i)]} : i;
      float* o = out + i * h;
      const int64_t b = tr.begin[static_cast<size_t>(t)], e = tr.begin[static_cast<size_t>(t + 1)];
      if (b == e && layout == Layout::kLiveOnly) continue;
      std::fill(o, o + h, 0.0f);
      for (int64_t i = b; i < e; ++i) {
        const int64_t r = tr.rows[static_cast<size_t>(i)];
        const float w = weight ? plan.weight[static_cast<size_t>(r)] : 1.0f;
        const T* src = yp + r * h;
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) o[j] += w * cpu::ToF(src[j]);
      }
    }
  });
}

// CombineBackward of the loss gradient dout = y * scale (in y's dtype, as
// CastScale forms it) read straight from y: dy[r] = w * dout[token[r]] for
// the live rows, zero for the rest. Same values as CastScale then
// CombineBackward, but a device that holds the replicated output forms the
// gradient only for the rows its experts read, not for every token.
void CombineBackwardFromOutput(const Tensor& y, const cpu::PackPlan& plan, bool apply_weight, float scale,
                               Tensor* dy) {
  const int64_t h = y.dim(1);
  const DType dt = y.dtype();
  Resize(dy, dt, {plan.rows, h});
  cpu::DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < plan.rows; ++r) {
      const size_t i = static_cast<size_t>(r);
      const bool live = r < plan.valid_rows && plan.keep[i];
      const float w = live ? (apply_weight ? plan.weight[i] : 1.0f) : 0.0f;
      T* d = dy->as<T>() + r * h;
      if (w == 0.0f) {
        std::memset(d, 0, static_cast<size_t>(h) * sizeof(T));
        continue;
      }
      const T* s = y.as<T>() + int64_t{plan.token[i]} * h;
#pragma omp simd
      for (int64_t j = 0; j < h; ++j) d[j] = cpu::FromF<T>(w * cpu::ToF(cpu::FromF<T>(cpu::ToF(s[j]) * scale)));
    }
  });
}

// ------------------------------------------------------------------ device --

struct Device {
  const DeviceDispatch* dd = nullptr;
  int device = 0, expert_rank = 0, data_index = 0;
  cpu::PackPlan plan;
  cpu::ExpertWeights w;
  cpu::SharedWeights sw;
  std::unique_ptr<cpu::ExpertMlp> mlp;
  std::unique_ptr<cpu::SharedExpert> shared;
  cpu::PackedRows rows;
  TokenRows combine_rows, dx_rows_of;  // per-token rows for the forward combine and the dx scatter
  Tensor x_src;    // rows are gathered from it: replica x, gathered x, or received rows
  Tensor x_shard;  // ring/a2a: the device's token shard
  std::vector<float> f_send, f_recv, f_ret;  // communication staging
  std::vector<int64_t> send_counts, recv_counts;
  std::vector<float> acc;  // partial sums of the expert outputs (or dx rows)
  std::vector<float> out;  // the device's output accumulator (f32)
  Tensor y_rows, y;
  Tensor dout, dout_src, dy_rows, dx_rows, dx;
  cpu::ExpertGrads grads;
  // The shared expert's weight gradients: the device's own, or (compact_psum
  // on simulated devices) its replica's, which every device of it computes
  // alike.
  std::shared_ptr<cpu::SharedGrads> sgrads;
};

// Where a step's wall time goes. kComm is every communication block: packing
// into the f32 staging buffers, the collective itself, unpacking (including
// the reduction of the rows a2a returns). The others are the compute the
// single-device engine also does. In forward-only runs the expert MLP is
// timed as up and down; in training as one forward (kMlp) and the backward
// compute (kBackward).
enum Stage { kPack, kUp, kDown, kMlp, kCombine, kShared, kBackward, kComm, kStageCount };
constexpr const char* kStageNames[kStageCount] = {"pack",   "up",       "down", "expert_mlp",
                                                  "combine", "shared", "backward", "comm"};
using StageSeconds = std::array<double, kStageCount>;
using SteadyClock = std::chrono::steady_clock;

// Adds the wall time of its scope to one stage.
class StageClock {
 public:
  StageClock(StageSeconds* acc, Stage s) : acc_(acc), s_(s), t0_(SteadyClock::now()) {}
  ~StageClock() { (*acc_)[s_] += std::chrono::duration<double>(SteadyClock::now() - t0_).count(); }
  StageClock(const StageClock&) = delete;
  StageClock& operator=(const StageClock&) = delete;

 private:
  StageSeconds* acc_;
  Stage s_;
  SteadyClock::time_point t0_;
};

struct Options {
  CommPath path = CommPath::kCompactPsum;
  DispatchKind kind = DispatchKind::kCompact;
  int64_t tokens = 0, hidden = 0, mlp_dim = 0, shared_dim = 0, topk = 0;
  DType dtype = DType::kBF16;
  Wire wire = Wire::kBF16;
  bool fused = false, preweight = false, shared_fused = false, training = false, quant_rows = false;
};

class ParallelModel {
 public:
  ParallelModel(Communicator* comm, const DispatchPlan* plan, Options o) : comm_(comm), plan_(plan), o_(o) {}

  Status Setup(const cpu::BlockConfig& bc, cpu::BlockData* data);
  Status Forward();
  Status Backward();
  std::vector<Device>& devices() { return dev_; }
  cpu::MatmulRunner& runner() { return runner_; }
  // Stage seconds accumulated since the last ResetStages().
  const StageSeconds& stages() const { return stage_s_; }
  void ResetStages() { stage_s_.fill(0.0); }

 private:
  int64_t ReplicaTokens() const { return o_.tokens / plan_->mesh.data; }
  int64_t ShardTokens() const { return ReplicaTokens() / plan_->mesh.expert; }
  template <typename F>
  std::vector<std::span<float>> Spans(F field) {
    std::vector<std::span<float>> s;
    for (auto& d : dev_) s.emplace_back(field(d));
    return s;
  }
  template <typename F>
  std::vector<std::span<const float>> CSpans(F field) {
    std::vector<std::span<const float>> s;
    for (auto& d : dev_) s.emplace_back(field(d));
    return s;
  }
  Status ExchangeToOwners(const Tensor Device::*src);
  Status ExchangeBack();
  // The token rows each device's experts read: its shard tensor `shard`
  // all-gathered (ring_ag_rs) or sent to the owners (a2a) into `dst`;
  // nothing for compact_psum (every device holds the replica's tokens).
  Status ExchangeIn(const Tensor Device::*shard, Tensor Device::*dst);
  // Setup of one device: the engine's row plan from the dispatch plan, and
  // its experts' weights.
  void PlanRows(Device* d) const;
  // compact_psum: the device's y, dout and dx are views of its replica's.
  void ShareReplicaOutputs(Device* d);
  Status PrepareWeights(const cpu::BlockConfig& bc, cpu::BlockData& data, Device* d);
  // The shared expert's weights (views of the run's) and, for compact_psum,
  // one SharedExpert per replica: every device of a replica computes it on
  // the same tokens, so its saved activations are the same values.
  void PrepareShared(const cpu::BlockConfig& bc, cpu::BlockData& data, Device* d);
  // Rows of the device's [rows, H] partial sums (acc).
  int64_t PartialRows(const Device& d) const {
    return o_.path == CommPath::kA2a ? d.plan.tokens : ReplicaTokens();
  }
  // Forward, per device: gather, expert MLP, weighted scatter-add into the
  // partial (acc); then the shared expert and the cast after the reduction.
  Status LocalExpertsForward();
  Status SharedForwardAndCast();
  // Backward: dL/dy of loss = mean(y^2) into dout (unless the combine forms
  // it from y), and the shared expert's backward with dx's cast.
  void OutputGradient(float inv_n);
  Status SharedBackwardAndCast();
  // Each device's partial [rows,H] sums in `acc` become its output `out`
  // along the comm path: all-reduce (compact_psum), reduce-scatter to the
  // token shard of `ts` rows (ring_ag_rs) or returned rows (a2a). With
  // SparsePartials() the reduction reads only the rows `rows` marks live and
  // lands in the dtype tensor `result` when LandsInResult(), else in `out`.
  Status ReducePartials(int64_t ts, Tensor Device::*result, const TokenRows Device::*rows);
  // compact_psum / ring_ag_rs over more than one device: each device's
  // [T_r,H] partial holds only the tokens its experts saw, and the
  // all-reduce / reduce-scatter treats the rest as zero.
  bool SparsePartials() const { return o_.path != CommPath::kA2a && plan_->mesh.expert > 1; }
  // The reduction lands cast in the output tensor (y, dx) itself: nothing
  // (no shared expert) is added after it.
  bool LandsInResult() const { return SparsePartials() && o_.shared_dim == 0; }
  // compact_psum over simulated devices: each device's partial holds its
  // live tokens' rows only (Layout::kCompact), and the group's sum lands in
  // one f32 buffer per replica (replica_out_), which its devices share as
  // real devices would each hold an identical copy. Under MPI a rank keeps
  // its dense partial.
  bool CompactPartials() const {
    return o_.path == CommPath::kCompactPsum && SparsePartials() && !comm_->spans_processes();
  }
  Layout PartialLayout() const {
    return CompactPartials() ? Layout::kCompact : SparsePartials() ? Layout::kLiveOnly : Layout::kDense;
  }
  // Values of a device's partial sums over the tokens `tr` describes.
  size_t AccSize(const Device& d, const TokenRows& tr) const {
    const int64_t rows = CompactPartials() ? static_cast<int64_t>(tr.live_tokens.size()) : PartialRows(d);
    return static_cast<size_t>(rows * o_.hidden);
  }
  // A device whose replica's output another device of it computes: its
  // shared expert would repeat that device's on the same tokens (real
  // devices run theirs side by side), so it is not run a second time.
  bool Redundant(const Device& d) const { return CompactPartials() && d.expert_rank != 0; }
  // The f32 output a device's shared expert adds to: its own out or its
  // replica's.
  float* SharedOut(Device& d);
  void ReleaseOutputs();
  // Training with fused_w13: the int8 routed modes quantize the whole w13,
  // so the computing device's is built (BuildDeviceW13); float matmuls read
  // w1|w3 concatenated a chunk of experts at a time inside the expert MLP
  // (cpu::W13ChunkExperts), and no device's whole w13 exists.
  bool TrainingBuildsW13() const { return o_.training && o_.fused && o_.quant_rows; }
  // d's w13 = concat(w1, w3), built into w13_scratch_ (a view of it).
  void BuildDeviceW13(Device* d);
  // Where a device's reduced rows land (and `result` is sized to `rows`).
  ReduceLanding Landing(Device& d, Tensor* result, int64_t rows);
  Status AllReduceGrads();
  Status AllReduceTensors(Axis axis, std::vector<Tensor*> (*pick)(Device&), int64_t n);

  Communicator* comm_;
  const DispatchPlan* plan_;
  Options o_;
  cpu::MatmulRunner runner_;
  std::vector<Device> dev_;
  Tensor shared_w13_;  // the fused shared weight every device reads
  // TrainingBuildsW13: the w13 of the device that computes, one buffer
  // the devices take turns in (they run one after the other here), so a
  // device refills it instead of allocating and faulting in a fresh one. It
  // is freed once the last device's expert MLP is done (forward, backward):
  // it does not add to the shared expert's buffers.
  Tensor w13_scratch_;
  // compact_psum: per replica, the output, its gradient and dx, which every
  // device of the replica holds alike after the all-reduces.
  std::vector<Tensor> replica_y_, replica_dout_, replica_dx_;
  // CompactPartials: per replica, the reduced f32 sums and the shared
  // expert's gradients.
  std::vector<std::vector<float>> replica_out_;
  std::vector<std::shared_ptr<cpu::SharedGrads>> replica_sgrads_;
  StageSeconds stage_s_{};
};

void ParallelModel::PlanRows(Device* d) const {
  const DeviceDispatch& dd = *d->dd;
  const bool dummy = o_.kind == DispatchKind::kDenseMasked;
  d->plan.tokens = o_.path == CommPath::kA2a
                       ? [&] { int64_t s = 0; for (int64_t c : dd.recv_counts) s += c; return s; }()
                       : ReplicaTokens();
  d->plan.topk = o_.topk;
  d->plan.experts = dd.expert_count + (dummy ? 1 : 0);
  d->plan.rows = dd.rows();
  d->plan.flat = dd.flat;
  d->plan.token = dd.token;
  d->plan.weight = dd.weight;
  d->plan.keep = dd.keep;
  d->plan.group_sizes = dd.group_sizes;
  d->plan.valid_rows = dd.rows();
  if (!dummy) {
    // The buffer keeps the plan's local_cap rows, but the padding rows the
    // plan counts in the last group are never computed, gathered or
    // combined: the engine's groups hold the real rows only, so the expert
    // MLP (which skips rows past the group-size sum) does no dummy work.
    d->plan.group_sizes.back() -= dd.rows() - dd.count;
    d->plan.valid_rows = dd.count;
  }
}

void ParallelModel::PrepareShared(const cpu::BlockConfig& bc, cpu::BlockData& data, Device* d) {
  const int64_t h = o_.hidden, s = o_.shared_dim;
  d->sw.w1 = Tensor::View(data.shared.w1, 0, {h, s});
  d->sw.w3 = Tensor::View(data.shared.w3, 0, {h, s});
  d->sw.w2 = Tensor::View(data.shared.w2, 0, {s, h});
  if (o_.shared_fused) {
    if (shared_w13_.empty()) shared_w13_ = Tensor(o_.dtype, {h, 2 * s});
    d->sw.w13 = Tensor::View(shared_w13_, 0, {h, 2 * s});
    cpu::BuildSharedW13(&d->sw);
  }
  if (o_.path == CommPath::kCompactPsum) {
    for (const Device& other : dev_)
      if (other.data_index == d->data_index && other.shared) {
        d->shared = std::make_unique<cpu::SharedExpert>(*other.shared);  // shares its activations
        return;
      }
  }
  d->shared = std::make_unique<cpu::SharedExpert>(&runner_, o_.shared_fused, bc.quant);
}

Status ParallelModel::PrepareWeights(const cpu::BlockConfig& bc, cpu::BlockData& data, Device* d) {
  const DeviceDispatch& dd = *d->dd;
  // Weights: the owned experts, read in place (a copy, with a zero dummy
  // expert, for dense_masked). The data may hold only some experts (a
  // rank's share under MPI): e0 is the first owned one's place in it.
  const int64_t e0 = dd.expert_begin - data.expert_begin;
  if (e0 < 0 || e0 + dd.expert_count > data.experts.experts())
    return Status::Internal("parallel runner: device " + std::to_string(d->device) + " owns experts " +
                            std::to_string(dd.expert_begin) + ".." + std::to_string(dd.expert_begin + dd.expert_count) +
                            " but the data holds " + std::to_string(data.experts.experts()) + " from " +
                            std::to_string(data.expert_begin));
  if (o_.kind == DispatchKind::kDenseMasked) {
    d->w.w1 = SliceExperts(data.experts.w1, e0, dd.expert_count, 1);
    d->w.w3 = SliceExperts(data.experts.w3, e0, dd.expert_count, 1);
    d->w.w2 = SliceExperts(data.experts.w2, e0, dd.expert_count, 1);
  } else {
    const int64_t hm = o_.hidden * o_.mlp_dim, l = dd.expert_count;
    d->w.w1 = Tensor::View(data.experts.w1, e0 * hm, {l, o_.hidden, o_.mlp_dim});
    d->w.w3 = Tensor::View(data.experts.w3, e0 * hm, {l, o_.hidden, o_.mlp_dim});
    d->w.w2 = Tensor::View(data.experts.w2, e0 * hm, {l, o_.mlp_dim, o_.hidden});
  }
  // Forward-only runs prepack (or prequantize) w13 below; training builds it
  // (if at all) while the device computes.
  if (o_.fused && (!o_.training || TrainingBuildsW13())) cpu::BuildW13(&d->w);
  if (o_.shared_dim > 0) PrepareShared(bc, data, d);
  cpu::ExpertMlpOptions mo;
  mo.backend = bc.backend;
  mo.fused_w13 = bc.fused_w13;
  mo.preweight = bc.preweight;
  mo.quant = bc.quant;
  mo.remat = bc.remat;
  mo.prepacked = !o_.training;
  d->mlp = std::make_unique<cpu::ExpertMlp>(&runner_, mo);
  MOELOG_RETURN_IF_ERROR(d->mlp->Prepare(d->w));
  // A training step concatenates w1|w3 while the device computes, a chunk
  // of experts at a time (the int8 routed modes: the device's whole w13,
  // LocalExpertsForward, Backward), as the single-device pipeline
  // concatenates an expert's w1|w3 while it is in flight: no device holds
  // its whole w13 through the step. Forward-only runs read the prepacked
  // (or prequantized) weights and never the plain w13.
  const bool packed = !o_.training && (bc.quant == cpu::QuantMode::kNone ||
                                       bc.quant == cpu::QuantMode::kInt8RoutedPrequant);
  if (o_.fused && (o_.training || packed)) Release(&d->w.w13);
  return Status::Ok();
}

void ParallelModel::ShareReplicaOutputs(Device* d) {
  const size_t a = static_cast<size_t>(d->data_index);
  const int64_t tr = ReplicaTokens(), h = o_.hidden;
  if (replica_y_.size() <= a) {
    replica_y_.resize(a + 1);
    replica_dout_.resize(a + 1);
    replica_dx_.resize(a + 1);
  }
  for (auto* t : {&replica_y_[a], &replica_dout_[a], &replica_dx_[a]})
    if (t->empty()) *t = Tensor(o_.dtype, {tr, h});
  d->y = Tensor::View(replica_y_[a], 0, {tr, h});
  if (o_.training) {
    d->dout = Tensor::View(replica_dout_[a], 0, {tr, h});
    d->dx = Tensor::View(replica_dx_[a], 0, {tr, h});
  }
}

Status ParallelModel::Setup(const cpu::BlockConfig& bc, cpu::BlockData* data) {
  const int64_t h = o_.hidden, tr = ReplicaTokens(), ts = ShardTokens();
  for (int device : comm_->local_devices()) {
    Device d;
    d.dd = &plan_->devices[static_cast<size_t>(device)];
    d.device = device;
    d.expert_rank = plan_->mesh.ExpertIndex(device);
    d.data_index = plan_->mesh.DataIndex(device);
    const DeviceDispatch& dd = *d.dd;
    PlanRows(&d);
    MOELOG_RETURN_IF_ERROR(PrepareWeights(bc, *data, &d));
    // Tokens: the replica's rows of x for compact_psum, the device's shard
    // otherwise; read in place (one copy in this process). The data may
    // hold only the device's rows (a rank's share under MPI).
    const bool replicated = o_.path == CommPath::kCompactPsum;
    const int64_t row0 = dd.token_begin + (replicated ? 0 : d.expert_rank * ts) - data->token_begin;
    const int64_t rows = replicated ? tr : ts;
    if (row0 < 0 || row0 + rows > data->x.dim(0))
      return Status::Internal("parallel runner: device " + std::to_string(device) +
                              " reads tokens the data does not hold");
    if (replicated) {
      d.x_src = Tensor::View(data->x, row0 * h, {tr, h});
      ShareReplicaOutputs(&d);
    } else {
      d.x_shard = Tensor::View(data->x, row0 * h, {ts, h});
    }
    const size_t a = static_cast<size_t>(d.data_index);
    if (CompactPartials()) {
      if (replica_sgrads_.size() <= a) replica_sgrads_.resize(a + 1);
      if (!replica_sgrads_[a]) replica_sgrads_[a] = std::make_shared<cpu::SharedGrads>();
      d.sgrads = replica_sgrads_[a];
    } else {
      d.sgrads = std::make_shared<cpu::SharedGrads>();
    }
    d.combine_rows = BuildTokenRows(d.plan, PartialRows(d), !o_.preweight);
    d.dx_rows_of = BuildTokenRows(d.plan, PartialRows(d), false);
    dev_.push_back(std::move(d));
  }
  return runner_.status();
}

// a2a: every device sends the listed rows of its shard tensor `src` to their
// expert owners; the received rows land in f_recv.
Status ParallelModel::ExchangeToOwners(const Tensor Device::*src) {
  const int64_t h = o_.hidden;
  std::vector<std::vector<int64_t>> sc, rc;
  for (auto& d : dev_) {
    PackSendRows(d.*src, d.dd->send_tokens, h, &d.f_send, &d.send_counts);
    d.recv_counts.clear();
    int64_t total = 0;
    for (int64_t c : d.dd->recv_counts) {
      d.recv_counts.push_back(c * h);
      total += c * h;
    }
    d.f_recv.resize(static_cast<size_t>(total));
    sc.push_back(d.send_counts);
    rc.push_back(d.recv_counts);
  }
  return comm_->AllToAllV(Axis::kExpert, CSpans([](Device& d) { return std::span<const float>(d.f_send); }), sc,
                          Spans([](Device& d) { return std::span<float>(d.f_recv); }), rc, o_.wire);
}

// a2a: the per-(token, owner) sums in acc go back to the token's shard (f_ret).
Status ParallelModel::ExchangeBack() {
  std::vector<std::vector<int64_t>> sc, rc;
  for (auto& d : dev_) {
    sc.push_back(d.recv_counts);
    rc.push_back(d.send_counts);
    int64_t n = 0;
    for (int64_t c : d.send_counts) n += c;
    d.f_ret.resize(static_cast<size_t>(n));
  }
  return comm_->AllToAllV(Axis::kExpert, CSpans([](Device& d) { return std::span<const float>(d.acc); }), sc,
                          Spans([](Device& d) { return std::span<float>(d.f_ret); }), rc, o_.wire);
}

ReduceLanding ParallelModel::Landing(Device& d, Tensor* result, int64_t rows) {
  ReduceLanding l;
  if (LandsInResult()) {
    Resize(result, o_.dtype, {rows, o_.hidden});
    if (o_.dtype == DType::kBF16) l.bf16 = result->as<uint16_t>();
    else l.f32 = result->as<float>();
  } else if (CompactPartials()) {
    const size_t a = static_cast<size_t>(d.data_index);
    if (replica_out_.size() <= a) replica_out_.resize(a + 1);
    replica_out_[a].resize(static_cast<size_t>(rows * o_.hidden));
    l.f32 = replica_out_[a].data();
  } else if (o_.path == CommPath::kCompactPsum) {
    l.f32 = d.acc.data();  // in place: the reduction consumes the partials (ReducePartials swaps them to out)
  } else {
    d.out.resize(static_cast<size_t>(rows * o_.hidden));
    l.f32 = d.out.data();
  }
  return l;
}

Status ParallelModel::ReducePartials(int64_t ts, Tensor Device::*result, const TokenRows Device::*rows) {
  const int64_t h = o_.hidden;
  switch (o_.path) {
    case CommPath::kCompactPsum: {
      if (!SparsePartials()) {
        MOELOG_RETURN_IF_ERROR(
            comm_->AllReduceSum(Axis::kExpert, Spans([](Device& d) { return std::span<float>(d.acc); }), o_.wire));
        for (auto& d : dev_) d.out.swap(d.acc);
        break;
      }
      std::vector<std::span<const uint8_t>> live;
      std::vector<ReduceLanding> land;
      if (CompactPartials()) {
        std::vector<std::span<const int32_t>> live_rows;
        for (auto& d : dev_) {
          live_rows.emplace_back((d.*rows).live_tokens);
          land.push_back(Landing(d, &(d.*result), ReplicaTokens()));
        }
        MOELOG_RETURN_IF_ERROR(comm_->AllReduceSumCompactRows(
            Axis::kExpert, CSpans([](Device& d) { return std::span<const float>(d.acc); }), live_rows,
            ReplicaTokens(), h, land, o_.wire));
        break;
      }
      for (auto& d : dev_) {
        live.emplace_back((d.*rows).live);
        land.push_back(Landing(d, &(d.*result), static_cast<int64_t>(d.acc.size()) / h));
      }
      MOELOG_RETURN_IF_ERROR(comm_->AllReduceSumRows(
          Axis::kExpert, Spans([](Device& d) { return std::span<float>(d.acc); }), live, h, land, o_.wire));
      if (!LandsInResult())
        for (auto& d : dev_) d.out.swap(d.acc);
      break;
    }
    case CommPath::kRingAgRs:
      if (SparsePartials()) {
        std::vector<std::span<const uint8_t>> live;
        std::vector<ReduceLanding> land;
        for (auto& d : dev_) {
          live.emplace_back((d.*rows).live);
          land.push_back(Landing(d, &(d.*result), ts));
        }
        MOELOG_RETURN_IF_ERROR(comm_->ReduceScatterSumRows(
            Axis::kExpert, Spans([](Device& d) { return std::span<float>(d.acc); }), live, h, land, o_.wire));
        break;
      }
      for (auto& d : dev_) d.out.resize(static_cast<size_t>(ts * h));
      MOELOG_RETURN_IF_ERROR(comm_->ReduceScatterSum(
          Axis::kExpert, CSpans([](Device& d) { return std::span<const float>(d.acc); }),
          Spans([](Device& d) { return std::span<float>(d.out); }), o_.wire));
      break;
    case CommPath::kA2a:
      MOELOG_RETURN_IF_ERROR(ExchangeBack());
      for (auto& d : dev_) {
        d.out.assign(static_cast<size_t>(ts * h), 0.0f);
        ScatterReturnedRows(d.f_ret, d.dd->send_tokens, h, d.out.data());
        Release(&d.f_ret);
      }
      break;
  }
  for (auto& d : dev_) Release(&d.acc);  // the partials are consumed
  return Status::Ok();
}

Status ParallelModel::ExchangeIn(const Tensor Device::*shard, Tensor Device::*dst) {
  const int64_t h = o_.hidden, tr = ReplicaTokens();
  if (o_.path == CommPath::kRingAgRs) {
    for (auto& d : dev_) ToF32(d.*shard, &d.f_send), d.f_recv.resize(static_cast<size_t>(tr * h));
    MOELOG_RETURN_IF_ERROR(comm_->AllGather(Axis::kExpert,
                                            CSpans([](Device& d) { return std::span<const float>(d.f_send); }),
                                            Spans([](Device& d) { return std::span<float>(d.f_recv); }), o_.wire));
  } else if (o_.path == CommPath::kA2a) {
    MOELOG_RETURN_IF_ERROR(ExchangeToOwners(shard));
  } else {
    return Status::Ok();
  }
  for (auto& d : dev_) {
    Resize(&(d.*dst), o_.dtype, {o_.path == CommPath::kA2a ? d.plan.tokens : tr, h});
    FromF32(d.f_recv.data(), &(d.*dst));
    Release(&d.f_send);
    Release(&d.f_recv);
  }
  return Status::Ok();
}

Status ParallelModel::LocalExpertsForward() {
  const int64_t h = o_.hidden;
  for (auto& d : dev_) {
    {
      StageClock c(&stage_s_, kPack);
      cpu::GatherRows(d.x_src, d.plan, o_.quant_rows, &d.rows);
    }
    if (o_.training) {
      StageClock c(&stage_s_, kMlp);
      if (TrainingBuildsW13()) BuildDeviceW13(&d);  // w13 = concat(w1, w3), rebuilt every training step
      MOELOG_RETURN_IF_ERROR(d.mlp->Forward(d.w, d.rows, &d.y_rows, true));
      if (TrainingBuildsW13()) d.w.w13 = Tensor();  // the view; the next device refills the buffer
    } else {
      // Forward without saving is exactly Up then Down.
      {
        StageClock c(&stage_s_, kUp);
        MOELOG_RETURN_IF_ERROR(d.mlp->Up(d.w, d.rows));
      }
      StageClock c(&stage_s_, kDown);
      MOELOG_RETURN_IF_ERROR(d.mlp->Down(d.w, d.rows, &d.y_rows));
    }
    StageClock c(&stage_s_, kCombine);
    d.acc.resize(AccSize(d, d.combine_rows));
    GatherSumRows(d.y_rows, d.combine_rows, d.plan, !o_.preweight, d.acc.data(), h, PartialLayout());
    Release(&d.y_rows);
    if (o_.path != CommPath::kCompactPsum) Release(&d.x_src);  // the exchanged tokens are consumed
  }
  Release(&w13_scratch_);
  return Status::Ok();
}

void ParallelModel::BuildDeviceW13(Device* d) {
  const int64_t l = d->w.experts(), h = o_.hidden, m = o_.mlp_dim;
  if (w13_scratch_.numel() < l * h * 2 * m) w13_scratch_ = Tensor::Scratch(o_.dtype, {l * h * 2 * m});
  d->w.w13 = Tensor::View(w13_scratch_, 0, {l, h, 2 * m});
  cpu::BuildW13(&d->w);
}

float* ParallelModel::SharedOut(Device& d) {
  if (CompactPartials()) return replica_out_[static_cast<size_t>(d.data_index)].data();
  return d.out.data();
}

void ParallelModel::ReleaseOutputs() {
  for (auto& d : dev_) Release(&d.out);
  for (auto& o : replica_out_) Release(&o);
}

Status ParallelModel::SharedForwardAndCast() {
  for (auto& d : dev_) {
    // A redundant device's shared expert would compute its replica's values
    // again, on the same tokens into the same activations: real devices do
    // so side by side, in no more step time; here it would add a device's
    // worth of work in turn. Its replica's y holds the values already.
    if (Redundant(d)) continue;
    const Tensor& xs = o_.path == CommPath::kCompactPsum ? d.x_src : d.x_shard;
    float* out = SharedOut(d);
    if (o_.shared_dim > 0) {
      StageClock c(&stage_s_, kShared);
      MOELOG_RETURN_IF_ERROR(d.shared->Forward(d.sw, xs, out, o_.training));
    }
    StageClock c(&stage_s_, kCombine);
    Resize(&d.y, o_.dtype, {xs.dim(0), o_.hidden});
    FromF32(out, &d.y);
    if (!CompactPartials()) Release(&d.out);
  }
  ReleaseOutputs();
  return Status::Ok();
}

Status ParallelModel::Forward() {
  if (o_.training) {
    // w13 and the shared w13 are rebuilt inside every training step (docs/harness.md §2.10).
    StageClock c(&stage_s_, kMlp);
    for (auto& d : dev_)
      if (o_.shared_fused && o_.shared_dim > 0) cpu::BuildSharedW13(&d.sw);
  }
  {
    StageClock c(&stage_s_, kComm);
    MOELOG_RETURN_IF_ERROR(ExchangeIn(&Device::x_shard, &Device::x_src));
  }
  MOELOG_RETURN_IF_ERROR(LocalExpertsForward());
  // Partial sums out, shared expert, cast.
  {
    StageClock c(&stage_s_, kComm);
    MOELOG_RETURN_IF_ERROR(ReducePartials(ShardTokens(), &Device::y, &Device::combine_rows));
  }
  if (LandsInResult()) return runner_.status();
  MOELOG_RETURN_IF_ERROR(SharedForwardAndCast());
  return runner_.status();
}

Status ParallelModel::AllReduceTensors(Axis axis, std::vector<Tensor*> (*pick)(Device&), int64_t n) {
  // One all-reduce per tensor (dw1, dw3, dw2), each over its first n values.
  const size_t count = pick(dev_[0]).size();
  for (size_t i = 0; i < count; ++i) {
    std::vector<std::vector<float>> stage(dev_.size());
    std::vector<std::span<float>> spans;
    for (size_t j = 0; j < dev_.size(); ++j) {
      Tensor* t = pick(dev_[j])[i];
      ToF32(*t, &stage[j]);
      spans.emplace_back(stage[j].data(), static_cast<size_t>(n));
    }
    MOELOG_RETURN_IF_ERROR(comm_->AllReduceSum(axis, spans, o_.wire));
    for (size_t j = 0; j < dev_.size(); ++j) FromF32(stage[j].data(), pick(dev_[j])[i]);
  }
  return Status::Ok();
}

Status ParallelModel::AllReduceGrads() {
  const DeviceMesh& m = plan_->mesh;
  if (o_.shared_dim > 0) {
    auto pick = [](Device& d) { return std::vector<Tensor*>{&d.sgrads->dw1, &d.sgrads->dw3, &d.sgrads->dw2}; };
    const int64_t n = o_.hidden * o_.shared_dim;
    if (o_.path == CommPath::kCompactPsum) {
      if (m.data > 1) MOELOG_RETURN_IF_ERROR(AllReduceTensors(Axis::kData, pick, n));
    } else if (m.Size() > 1) {
      MOELOG_RETURN_IF_ERROR(AllReduceTensors(Axis::kWorld, pick, n));
    }
  }
  if (m.data > 1) {
    auto pick = [](Device& d) { return std::vector<Tensor*>{&d.grads.dw1, &d.grads.dw3, &d.grads.dw2}; };
    const int64_t n = (plan_->experts / m.expert) * o_.hidden * o_.mlp_dim;
    MOELOG_RETURN_IF_ERROR(AllReduceTensors(Axis::kData, pick, n));
  }
  return Status::Ok();
}

void ParallelModel::OutputGradient(float inv_n) {
  StageClock c(&stage_s_, kBackward);
  for (auto& d : dev_) {
    Resize(&d.dout, o_.dtype, d.y.shape());
    cpu::DispatchFloat(o_.dtype, [&](auto tag) {
      using T = decltype(tag);
      cpu::CastScale(d.y.as<T>(), d.dout.as<T>(), d.y.numel(), inv_n);
    });
  }
}

Status ParallelModel::SharedBackwardAndCast() {
  StageClock c(&stage_s_, kBackward);
  for (auto& d : dev_) {
    if (Redundant(d)) continue;  // as in SharedForwardAndCast: the replica's dx and gradients are computed
    const Tensor& xs = o_.path == CommPath::kCompactPsum ? d.x_src : d.x_shard;
    float* out = SharedOut(d);
    if (o_.shared_dim > 0) {
      MOELOG_RETURN_IF_ERROR(d.shared->Backward(d.sw, xs, d.dout, out, d.sgrads.get()));
      d.shared->ReleaseActivations();  // consumed: not held through the next step's expert MLPs
    }
    Resize(&d.dx, o_.dtype, {xs.dim(0), o_.hidden});
    FromF32(out, &d.dx);
    if (!CompactPartials()) Release(&d.out);
  }
  ReleaseOutputs();
  return Status::Ok();
}

Status ParallelModel::Backward() {
  const int64_t h = o_.hidden;
  const bool apply_weight = !o_.preweight;
  // loss = mean(y^2) over the global [T,H] in f32: dL/dy = 2y / (T H).
  const float inv_n = 2.0f / static_cast<float>(o_.tokens * h);
  // compact_psum without a shared expert: each device forms the gradient
  // only at the rows it reads (CombineBackwardFromOutput), not for every
  // replicated token.
  const bool dout_from_y = LandsInResult() && o_.path == CommPath::kCompactPsum;
  if (!dout_from_y) OutputGradient(inv_n);
  // The gradient of the output, where the device's rows read it.
  const Tensor Device::*dsrc = o_.path == CommPath::kCompactPsum ? &Device::dout : &Device::dout_src;
  {
    StageClock c(&stage_s_, kComm);
    MOELOG_RETURN_IF_ERROR(ExchangeIn(&Device::dout, &Device::dout_src));
  }
  {
    StageClock c(&stage_s_, kBackward);
    for (auto& d : dev_) {
      if (dout_from_y) CombineBackwardFromOutput(d.y, d.plan, apply_weight, inv_n, &d.dy_rows);
      else cpu::CombineBackward(d.*dsrc, d.plan, apply_weight, &d.dy_rows);
      if (o_.path != CommPath::kCompactPsum) Release(&d.dout_src);
      if (TrainingBuildsW13()) BuildDeviceW13(&d);  // the device's w13 again, while it computes
      MOELOG_RETURN_IF_ERROR(d.mlp->Backward(d.w, d.rows, d.dy_rows, &d.dx_rows, &d.grads));
      if (TrainingBuildsW13()) d.w.w13 = Tensor();
      // The device's activations, dispatched rows and scratch are consumed.
      d.mlp->ReleaseActivations();
      Release(&d.dy_rows);
      Release(&d.rows.x);
      Release(&d.rows.xq);
      Release(&d.rows.xq_scale);
      d.acc.resize(AccSize(d, d.dx_rows_of));
      GatherSumRows(d.dx_rows, d.dx_rows_of, d.plan, false, d.acc.data(), h, PartialLayout());
      Release(&d.dx_rows);
    }
    Release(&w13_scratch_);
  }
  {
    StageClock c(&stage_s_, kComm);
    MOELOG_RETURN_IF_ERROR(ReducePartials(ShardTokens(), &Device::dx, &Device::dx_rows_of));
  }
  if (!LandsInResult()) MOELOG_RETURN_IF_ERROR(SharedBackwardAndCast());
  StageClock c(&stage_s_, kComm);
  MOELOG_RETURN_IF_ERROR(AllReduceGrads());
  return runner_.status();
}

// ------------------------------------------------------------ collection --

// Global tensors assembled from the devices (untimed): every element is
// contributed by exactly one device, then summed over the world.
struct Gathered {
  std::vector<float> y, dx, dw1, dw3, dw2, sdw1, sdw3, sdw2;
};

Status GatherResults(Communicator* comm, const DispatchPlan& plan, const Options& o, std::vector<Device>& devs,
                     Gathered* g) {
  const DeviceMesh& m = plan.mesh;
  const int64_t h = o.hidden, tr = o.tokens / m.data, ts = tr / m.expert;
  const int64_t l = plan.experts / m.expert;
  auto contribute = [&](std::vector<float>* dst, int64_t total, auto fill) -> Status {
    std::vector<std::vector<float>> bufs(devs.size(), std::vector<float>(static_cast<size_t>(total), 0.0f));
    std::vector<std::span<float>> spans;
    for (size_t i = 0; i < devs.size(); ++i) {
      fill(devs[i], bufs[i].data());
      spans.emplace_back(bufs[i]);
    }
    MOELOG_RETURN_IF_ERROR(comm->AllReduceSum(Axis::kWorld, spans, Wire::kF32));
    *dst = std::move(bufs[0]);
    return Status::Ok();
  };
  auto rows_of = [&](const Tensor Device::*field) {
    return [&, field](Device& d, float* out) {
      std::vector<float> v;
      const bool replicated = o.path == CommPath::kCompactPsum;
      if (replicated && d.expert_rank != 0) return;  // the expert group holds identical copies
      ToF32(d.*field, &v);
      const int64_t row0 = d.dd->token_begin + (replicated ? 0 : d.expert_rank * ts);
      std::copy(v.begin(), v.end(), out + row0 * h);
    };
  };
  MOELOG_RETURN_IF_ERROR(contribute(&g->y, o.tokens * h, rows_of(&Device::y)));
  if (!o.training) return Status::Ok();
  MOELOG_RETURN_IF_ERROR(contribute(&g->dx, o.tokens * h, rows_of(&Device::dx)));
  auto experts_of = [&](Tensor cpu::ExpertGrads::*field) {
    return [&, field](Device& d, float* out) {
      if (d.data_index != 0) return;  // identical over the data axis after the all-reduce
      std::vector<float> v;
      ToF32(d.grads.*field, &v);
      const int64_t per = v.size() / static_cast<size_t>((d.grads.*field).dim(0));
      std::copy(v.begin(), v.begin() + l * per, out + d.dd->expert_begin * per);
    };
  };
  const int64_t ew = plan.experts * h * o.mlp_dim;
  MOELOG_RETURN_IF_ERROR(contribute(&g->dw1, ew, experts_of(&cpu::ExpertGrads::dw1)));
  MOELOG_RETURN_IF_ERROR(contribute(&g->dw3, ew, experts_of(&cpu::ExpertGrads::dw3)));
  MOELOG_RETURN_IF_ERROR(contribute(&g->dw2, ew, experts_of(&cpu::ExpertGrads::dw2)));
  if (o.shared_dim > 0) {
    auto shared_of = [&](Tensor cpu::SharedGrads::*field) {
      return [&, field](Device& d, float* out) {
        if (d.device != 0) return;  // identical everywhere after the all-reduces
        std::vector<float> v;
        ToF32((*d.sgrads).*field, &v);
        std::copy(v.begin(), v.end(), out);
      };
    };
    const int64_t sw = h * o.shared_dim;
    MOELOG_RETURN_IF_ERROR(contribute(&g->sdw1, sw, shared_of(&cpu::SharedGrads::dw1)));
    MOELOG_RETURN_IF_ERROR(contribute(&g->sdw3, sw, shared_of(&cpu::SharedGrads::dw3)));
    MOELOG_RETURN_IF_ERROR(contribute(&g->sdw2, sw, shared_of(&cpu::SharedGrads::dw2)));
  }
  return Status::Ok();
}

std::vector<double> ToDouble(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

// Runs the single-device engine on the same data and routing and compares.
Result<std::vector<NumericsCheck>> CompareWithSingleDevice(const cpu::BlockConfig& bc, cpu::BlockData* data,
                                                           const Routing& routing, bool training,
                                                           const Gathered& g) {
  // A rank's share of the data: the reference runs on the whole of it,
  // generated again from the same seed (the same values, bit for bit).
  std::unique_ptr<cpu::BlockData> whole;
  if (data->share) {
    whole = std::make_unique<cpu::BlockData>(cpu::GenerateBlockData(bc.tokens, bc.hidden, bc.mlp_dim, bc.experts,
                                                                    bc.shared_dim, bc.dtype, data->seed));
    data = whole.get();
  }
  cpu::MoeBlock block(bc, data, &routing);
  MOELOG_RETURN_IF_ERROR(block.Prepare(training));
  if (training) {
    MOELOG_RETURN_IF_ERROR(block.TrainStep());
  } else {
    MOELOG_RETURN_IF_ERROR(block.Forward(true));
  }
  std::vector<NumericsCheck> out;
  auto add = [&](const std::string& name, const std::vector<float>& got, const Tensor& want) {
    NumericsCheck n;
    n.tensor = name;
    n.max_rel_err = cpu::MaxRelErr(ToDouble(got), want.ToDouble());
    n.tolerance = cpu::NumericsTolerance(bc.dtype, bc.quant, name != "y");
    n.ok = n.max_rel_err <= n.tolerance;
    out.push_back(n);
  };
  add("y", g.y, block.y());
  if (training) {
    add("dx", g.dx, block.dx());
    add("dw1", g.dw1, block.expert_grads().dw1);
    add("dw2", g.dw2, block.expert_grads().dw2);
    add("dw3", g.dw3, block.expert_grads().dw3);
    if (bc.shared_dim > 0) {
      add("shared_dw1", g.sdw1, block.shared_grads().dw1);
      add("shared_dw2", g.sdw2, block.shared_grads().dw2);
      add("shared_dw3", g.sdw3, block.shared_grads().dw3);
    }
  }
  return out;
}

// Everything a ParallelModel points to, built once per run (untimed).
struct Prepared {
  cpu::BlockConfig bc;
  DispatchPlan plan;
  Options o;
};

Result<std::unique_ptr<Prepared>> PrepareRun(const Communicator& comm, const BenchConfig& c, const RunPoint& point,
                                             const Routing& routing) {
  auto path = ParseCommPath(c.ep_comm_path);
  if (!path.ok()) return path.status();
  auto kind = ParseDispatchKind(c.ep_dispatch);
  if (!kind.ok()) return kind.status();
  auto bc = cpu::MakeBlockConfig(c, point.impl);
  if (!bc.ok()) return bc.status();
  // Capacity drop: the single-device engine's cap (pack.cc), applied in the
  // dispatch plan. pad is refused by BenchConfig::Validate (docs/harness.md §2.6).
  int64_t drop_cap = 0;
  if (bc->capacity == cpu::CapacityPolicy::kDrop) {
    const double cap = std::ceil(bc->capacity_factor * static_cast<double>(routing.tokens * routing.topk) /
                                 static_cast<double>(routing.experts));
    drop_cap = std::max<int64_t>(1, static_cast<int64_t>(cap));
  } else if (bc->capacity != cpu::CapacityPolicy::kNone) {
    return Status::NotSupported("--capacity-policy " + c.capacity_policy + " with --parallel-mode " +
                                c.parallel_mode + ": only none and drop are supported");
  }
  auto plan = BuildDispatchPlan(routing, comm.mesh(), *path, *kind, drop_cap);
  if (!plan.ok()) return plan.status();
  auto p = std::make_unique<Prepared>();
  p->bc = *bc;
  p->plan = std::move(plan).value();
  Options& o = p->o;
  o.path = *path;
  o.kind = *kind;
  o.tokens = c.tokens;
  o.hidden = c.hidden;
  o.mlp_dim = c.mlp_dim;
  o.shared_dim = c.shared_expert_dim;
  o.topk = routing.topk;
  o.dtype = bc->dtype;
  o.wire = WireForDtype(c.dtype);
  o.fused = bc->fused_w13;
  o.preweight = bc->preweight;
  o.shared_fused = bc->shared_fused;
  o.training = c.bench_pass == "forward_backward";
  o.quant_rows = cpu::QuantRouted(bc->quant);
  return p;
}

// One step's timing: wall, time inside collectives, per-stage wall.
struct StepRecord {
  double total_s = 0, collective_s = 0;
  StageSeconds stages{};
};

Status RunStep(Communicator* comm, ParallelModel* model, bool training, StepRecord* rec) {
  const double c0 = comm->counters(0).seconds;
  model->ResetStages();
  const auto t0 = SteadyClock::now();
  Status st = model->Forward();
  if (st.ok() && training) st = model->Backward();
  rec->total_s = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  rec->collective_s = comm->counters(0).seconds - c0;
  rec->stages = model->stages();
  return st;
}

// The stages reported for the pass (the ones the step runs).
std::vector<Stage> ReportedStages(const Options& o) {
  std::vector<Stage> s = {kPack};
  if (o.training) s.push_back(kMlp);
  else s.insert(s.end(), {kUp, kDown});
  s.push_back(kCombine);
  if (o.shared_dim > 0) s.push_back(kShared);
  if (o.training) s.push_back(kBackward);
  s.push_back(kComm);
  return s;
}

int64_t ComputedRows(ParallelModel& model) {
  int64_t n = 0;
  for (const Device& d : model.devices()) n += d.plan.valid_rows;
  return n;
}

// The run on an already created communicator. Errors are returned; the MPI
// caller turns them into an abort of the whole job.
// What a run's steps measured: its times and stage times, its bytes per
// device (one untimed step), and the rows computed. After
// ReduceOverProcesses, the slowest rank's times and every rank's bytes.
struct StepMeasurements {
  TimingStats time;
  double collective_s = 0;
  StageSeconds stage_s{};
  std::vector<int64_t> dev_sent, dev_recv;  // per device
  int64_t computed_rows = 0;
};

// One untimed step for the byte counts, then warmup + iters timed steps;
// the collective and stage times are means over the timed steps.
Status TimeSteps(Communicator* comm, ParallelModel* model, const BenchConfig& c, bool training, StepMeasurements* m) {
  Status st;
  std::vector<StepRecord> records;
  auto step = [&] {
    if (!st.ok()) return;
    StepRecord rec;
    st = RunStep(comm, model, training, &rec);
    records.push_back(rec);
  };
  comm->ResetCounters();
  step();
  MOELOG_RETURN_IF_ERROR(st);
  for (size_t i = 0; i < comm->local_devices().size(); ++i) {
    m->dev_sent.push_back(comm->counters(i).bytes_sent);
    m->dev_recv.push_back(comm->counters(i).bytes_recv);
  }
  records.clear();
  comm->ResetCounters();
  m->time = TimeFn(step, c.warmup, c.iters);
  MOELOG_RETURN_IF_ERROR(st);
  const size_t timed = std::min<size_t>(records.size(), static_cast<size_t>(std::max<int64_t>(c.iters, 0)));
  for (size_t i = records.size() - timed; i < records.size(); ++i) {
    m->collective_s += records[i].collective_s;
    for (int k = 0; k < kStageCount; ++k) m->stage_s[k] += records[i].stages[k];
  }
  if (timed > 0) {
    m->collective_s /= static_cast<double>(timed);
    for (double& v : m->stage_s) v /= static_cast<double>(timed);
  }
  m->computed_rows = ComputedRows(*model);
  return Status::Ok();
}

// Under MPI the slowest rank defines each iteration's time (and each
// stage's); bytes and computed rows are gathered from every rank.
void ReduceOverProcesses(Communicator* comm, StepMeasurements* m) {
  if (!comm->spans_processes()) return;
  for (double& s : m->time.samples_s) s = comm->MaxOverProcesses(s);
  m->time = StatsFromSamples(m->time.samples_s);
  m->collective_s = comm->MaxOverProcesses(m->collective_s);
  for (double& v : m->stage_s) v = comm->MaxOverProcesses(v);
  m->dev_sent = comm->GatherOverProcesses(m->dev_sent[0]);
  m->dev_recv = comm->GatherOverProcesses(m->dev_recv[0]);
  int64_t rows = 0;
  for (int64_t v : comm->GatherOverProcesses(m->computed_rows)) rows += v;
  m->computed_rows = rows;
}

// Bytes per device as counted, and whether they equal the dispatch plan's
// analytic volumes; communication = collectives plus packing into and
// unpacking from their staging buffers, compute = the rest of the step.
void FillCommFigures(const StepMeasurements& m, const DispatchPlan& plan, const BenchConfig& c, const Options& o,
                     RunResult* r) {
  r->comm.bytes_sent_per_device = *std::max_element(m.dev_sent.begin(), m.dev_sent.end());
  r->comm.bytes_recv_per_device = *std::max_element(m.dev_recv.begin(), m.dev_recv.end());
  const double comm_s = m.stage_s[kComm];
  r->comm.comm_s = comm_s;
  r->comm.compute_s = std::max(0.0, r->time.mean_s - comm_s);
  r->extra["comm_collective_s"] = m.collective_s;
  r->extra["comm_staging_s"] = std::max(0.0, comm_s - m.collective_s);
  StepVolumeInputs vin;
  vin.hidden = c.hidden;
  vin.mlp_dim = c.mlp_dim;
  vin.shared_dim = c.shared_expert_dim;
  vin.backward = o.training;
  vin.wire = o.wire;
  const std::vector<Volume> analytic = AnalyticStepVolumes(plan, vin);
  int64_t analytic_sent_max = 0;
  for (const Volume& v : analytic) analytic_sent_max = std::max(analytic_sent_max, v.sent);
  bool counted_equals_analytic = true;
  for (size_t d = 0; d < m.dev_sent.size(); ++d) {
    r->extra["comm_bytes_sent_dev" + std::to_string(d)] = static_cast<double>(m.dev_sent[d]);
    r->extra["comm_bytes_recv_dev" + std::to_string(d)] = static_cast<double>(m.dev_recv[d]);
    if (m.dev_sent[d] != analytic[d].sent || m.dev_recv[d] != analytic[d].recv) counted_equals_analytic = false;
  }
  r->extra["comm_bytes_analytic_sent_max"] = static_cast<double>(analytic_sent_max);
  r->extra["comm_counted_equals_analytic"] = counted_equals_analytic ? 1.0 : 0.0;
}

Result<RunResult> RunOn(Communicator* comm, const BenchConfig& c, const RunPoint& point, const Routing& routing,
                        cpu::BlockData* data) {
  auto prepared = PrepareRun(*comm, c, point, routing);
  if (!prepared.ok()) return prepared.status();
  const cpu::BlockConfig& bc = (*prepared)->bc;
  const DispatchPlan* plan = &(*prepared)->plan;
  const Options& o = (*prepared)->o;

  ParallelModel model(comm, plan, o);
  MOELOG_RETURN_IF_ERROR(model.Setup(bc, data));
  MOELOG_RETURN_IF_ERROR(comm->Barrier());  // every process set up before timing
  StepMeasurements m;
  MOELOG_RETURN_IF_ERROR(TimeSteps(comm, &model, c, o.training, &m));
  ReduceOverProcesses(comm, &m);

  RunResult r;
  r.time = m.time;
  r.point = point;
  r.source = "measured";
  r.devices = comm->mesh().Size();
  FillCommFigures(m, *plan, c, o, &r);
  if (c.stage_timing) {
    // Simulated devices: summed over the devices (they run one after the
    // other in this process). MPI: the slowest rank's.
    for (Stage k : ReportedStages(o)) r.stages.push_back({kStageNames[k], m.stage_s[k], ""});
  }
  r.extra["ep_local_cap"] = static_cast<double>(plan->local_cap);
  r.extra["ep_max_local_rows"] = static_cast<double>(plan->max_count);
  r.extra["ep_computed_rows"] = static_cast<double>(m.computed_rows);
  r.extra["mpi_ranks"] = comm->spans_processes() ? comm->mesh().Size() : 0;
  r.extra["cpu_primitives_cached"] = static_cast<double>(model.runner().cached_primitives());
  if (c.check_numerics) {
    Gathered g;
    MOELOG_RETURN_IF_ERROR(GatherResults(comm, *plan, o, model.devices(), &g));
    if (comm->process_rank() == 0) {  // the single-device reference runs once
      auto checks = CompareWithSingleDevice(bc, data, routing, o.training, g);
      if (!checks.ok()) return checks.status();
      r.numerics = std::move(checks).value();
    }
  }
  FillCommonFigures(c, routing, &r);
  r.mesh = comm->mesh().ToString();
  return r;
}

}  // namespace

MeshShape MeshForConfig(const BenchConfig& c) {
  MeshShape m;
  if (!c.mesh.empty()) {
    size_t pos = 0;
    std::string s = c.mesh;
    while (pos <= s.size()) {
      size_t comma = s.find(',', pos);
      std::string part = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      size_t eq = part.find('=');
      if (eq != std::string::npos) {
        int v = std::atoi(part.substr(eq + 1).c_str());
        if (part.substr(0, eq) == "data") m.data = v;
        if (part.substr(0, eq) == "expert") m.expert = v;
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    return m;
  }
  const int n = static_cast<int>(c.devices);
  if (c.parallel_mode == "dp") m.data = n;
  else m.expert = n;
  return m;
}

cpu::DataShare DeviceDataShare(const BenchConfig& c, int device) {
  const MeshShape ms = MeshForConfig(c);
  const DeviceMesh mesh{std::max(1, ms.data), std::max(1, ms.expert)};
  const int64_t tr = c.tokens / mesh.data, ts = tr / mesh.expert, l = c.experts / mesh.expert;
  const int64_t a = mesh.DataIndex(device), j = mesh.ExpertIndex(device);
  const bool replicated = c.ep_comm_path != "ring_ag_rs" && c.ep_comm_path != "a2a";
  cpu::DataShare s;
  s.token_begin = a * tr + (replicated ? 0 : j * ts);
  s.tokens = replicated ? tr : ts;
  s.expert_begin = j * l;
  s.experts = l;
  return s;
}

Status PrepareProcess(const BenchConfig& c) {
  if (!LaunchedByMpi()) return Status::Ok();
  // Under mpirun each rank is one device: the device count must be the world size.
  if (c.parallel_mode != "none") {
    const MeshShape m = MeshForConfig(c);
    const int64_t d = int64_t{m.data} * m.expert;
    if (d != MpiWorldSizeFromEnv())
      return Status::InvalidArgument(std::string(c.mesh.empty() ? "--devices" : "--mesh") + ": " +
                                     std::to_string(d) + " devices do not match the MPI world size " +
                                     std::to_string(MpiWorldSizeFromEnv()) + " (mpirun -np)");
  }
  return EnsureMpiInitialized(c.quiet_ranks);
}

Result<RunResult> RunParallel(const BenchConfig& c, const RunPoint& point, const Routing& routing,
                              cpu::BlockData* data) {
  MeshShape ms = MeshForConfig(c);
  DeviceMesh mesh{ms.data, ms.expert};
  if (mesh.Size() < 1) return Status::InvalidArgument("--devices: must be positive");
  if (!LaunchedByMpi()) {
    SimComm comm(mesh);
    return RunOn(&comm, c, point, routing, data);
  }
  MOELOG_RETURN_IF_ERROR(EnsureMpiInitialized(c.quiet_ranks));
  auto comm = MpiComm::Create(mesh);
  if (!comm.ok()) return comm.status();  // same on every rank: a clean usage error
  if (Status f = MaybeInjectFault((*comm)->rank()); !f.ok())
    MpiAbort(f.ToString() + "; ending the job", f.ExitCode());
  auto r = RunOn(comm->get(), c, point, routing, data);
  // A failure on one rank would leave the others waiting in a collective:
  // end the whole job with the message instead.
  if (!r.ok()) MpiAbort("run failed: " + r.status().ToString() + "; ending the job", r.status().ExitCode());
  return r;
}

struct SimSession::Impl {
  explicit Impl(DeviceMesh mesh) : comm(mesh) {}
  SimComm comm;
  std::unique_ptr<Prepared> prepared;
  std::unique_ptr<ParallelModel> model;
};

SimSession::SimSession() = default;
SimSession::~SimSession() = default;

Result<std::unique_ptr<SimSession>> SimSession::Create(const BenchConfig& c, const RunPoint& point,
                                                       const Routing& routing, cpu::BlockData* data) {
  MeshShape ms = MeshForConfig(c);
  DeviceMesh mesh{ms.data, ms.expert};
  if (mesh.Size() < 1) return Status::InvalidArgument("--devices: must be positive");
  std::unique_ptr<SimSession> s(new SimSession());
  s->impl_ = std::make_unique<Impl>(mesh);
  auto prepared = PrepareRun(s->impl_->comm, c, point, routing);
  if (!prepared.ok()) return prepared.status();
  s->impl_->prepared = std::move(prepared).value();
  const Prepared& p = *s->impl_->prepared;
  s->impl_->model = std::make_unique<ParallelModel>(&s->impl_->comm, &p.plan, p.o);
  MOELOG_RETURN_IF_ERROR(s->impl_->model->Setup(p.bc, data));
  return s;
}

Result<SimSession::StepTiming> SimSession::Step() {
  StepRecord rec;
  MOELOG_RETURN_IF_ERROR(RunStep(&impl_->comm, impl_->model.get(), impl_->prepared->o.training, &rec));
  StepTiming t;
  t.total_s = rec.total_s;
  t.collective_s = rec.collective_s;
  t.comm_s = rec.stages[kComm];
  for (Stage k : ReportedStages(impl_->prepared->o)) t.stages.push_back({kStageNames[k], rec.stages[k], ""});
  return t;
}

int64_t SimSession::computed_rows() const { return ComputedRows(*impl_->model); }
int64_t SimSession::buffer_rows() const {
  int64_t n = 0;
  for (const Device& d : impl_->model->devices()) n += d.plan.rows;
  return n;
}

}  // namespace moelog::engine::parallel
