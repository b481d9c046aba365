// The CPU MoE layer, as separately callable pieces:
//
//   PlanPack / GatherRows   routing -> expert-sorted row buffer ("dispatch")
//   ExpertMlp               SwiGLU expert MLP over a packed row buffer for a
//                           contiguous set of experts, forward and backward
//   CombineScatter /        packed expert outputs -> [T,H] (weighted
//   CombineInversePermute   scatter-add, or inverse permutation + sum over K)
//   CombineBackward /       [T,H] gradient -> packed rows, and packed row
//   ScatterAddRows          gradients -> [T,H]
//   SharedExpert            the always-on dense SwiGLU expert
//
// The single-device engine (cpu_backend.cc) chains them; expert parallelism
// calls the same pieces with the experts a rank owns: PlanPack with
// expert_begin/expert_count selects the local rows, ExpertMlp runs them with
// the local weights (group sizes are per local expert), CombineScatter adds
// them into a [T,H] partial sum that the caller reduces.
//
// Conventions: tensors are row-major. x and weights are float32 or bfloat16
// (all the same dtype). Matmuls accumulate in f32. Expert e of an
// ExpertWeights is local expert e (global expert expert_begin + e).
#ifndef MOELOG_ENGINE_CPU_MOE_LAYER_H_
#define MOELOG_ENGINE_CPU_MOE_LAYER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cpu/matmul.h"
#include "engine/cpu/tensor.h"
#include "engine/routing.h"
#include "engine/status.h"

namespace moelog::engine::cpu {

// Rows per tile of the `gmm` grouped matmul (the megablox tile, harness 2.4).
inline constexpr int64_t kGmmTileRows = 512;

enum class GroupedBackend { kGmm, kRaggedDot };
enum class PackStrategy { kArgsort, kTupleSort, kExpertScoreSort };
enum class CapacityPolicy { kNone, kDrop, kPad };
enum class QuantMode { kNone, kInt8, kInt8Routed, kInt8All, kInt8RoutedPrequant };
enum class RematMode { kNone, kExpertMlp, kCombine };

// Parses the harness flag values ("gmm", "argsort", "drop", "int8_routed",
// "expert_mlp", ...). Unknown names give InvalidArgument.
Result<GroupedBackend> ParseGroupedBackend(const std::string& name);
Result<PackStrategy> ParsePackStrategy(const std::string& name);
Result<CapacityPolicy> ParseCapacityPolicy(const std::string& name);
Result<QuantMode> ParseQuantMode(const std::string& name);
Result<RematMode> ParseRematMode(const std::string& name);

// True when the routed expert matmuls run in int8 (int8_routed, int8_all,
// int8_routed_prequant).
bool QuantRouted(QuantMode q);
// True when the dense (shared expert) matmuls run in int8 (int8, int8_all).
bool QuantDense(QuantMode q);

// ---------------------------------------------------------------- packing --

struct PackOptions {
  PackStrategy strategy = PackStrategy::kArgsort;
  CapacityPolicy capacity = CapacityPolicy::kNone;
  double capacity_factor = 0.0;  // cap = max(1, ceil(cf * T*K / E)) when policy != none
  // Experts [expert_begin, expert_begin + expert_count) get rows; count 0
  // means all real experts. Group g of the plan is expert expert_begin + g.
  int64_t expert_begin = 0;
  int64_t expert_count = 0;
  // Single-device harness layout: assignments outside the expert range (null
  // slots) still occupy rows at the tail of the buffer (they are gathered but
  // never computed). EP sets this false and gets only its own rows.
  bool keep_other_rows = true;
  // Round the buffer up to a multiple of kGmmTileRows with zero rows (gmm).
  bool pad_rows_to_tile = false;
};

// Where every packed row comes from. Built from the routing alone (no x).
struct PackPlan {
  int64_t tokens = 0, topk = 0, experts = 0;  // experts: routed experts E (global)
  int64_t rows = 0;                   // buffer rows (>= valid rows; includes tail and tile padding)
  std::vector<int64_t> flat;          // [rows] flat position t*K+k of each row, -1 for padding
  std::vector<int32_t> token;         // [rows] token of each row (0 for padding)
  std::vector<float> weight;          // [rows] routing weight; 0 for null, dropped and padding rows
  std::vector<uint8_t> keep;          // [rows] 1 if the row's x is gathered (not dropped/padding)
  std::vector<int64_t> group_sizes;   // [expert_count] rows per (local) expert, consecutive from row 0
  int64_t valid_rows = 0;             // sum(group_sizes); rows past it are never computed
  int64_t cap = 0;                    // capacity (0 when policy none)
  int64_t dropped = 0;                // assignments dropped by the capacity policy
};

// Sorts the assignments by expert with the chosen strategy (all three give
// the same order: by expert id, then by flat position) and applies the
// capacity policy (drop: rows of rank >= cap keep their slot but get zero x
// and weight; pad: exactly cap slots per expert, missing ones zero).
// REQUIRES: routing.ids/weights have tokens*topk entries.
Result<PackPlan> PlanPack(const Routing& routing, const PackOptions& options);

// The order alone ([rows] flat positions, sorted by expert then flat
// position), computed by `strategy`. Exposed for tests.
std::vector<int64_t> SortAssignments(const std::vector<int32_t>& ids, int64_t topk, PackStrategy strategy,
                                     const std::vector<float>& weights);

// The inverse permutation of plan.flat: inv[p] = row of flat position p, or
// -1 if p has no row (EP: another rank's expert; pad: over capacity).
std::vector<int64_t> InversePermutation(const PackPlan& plan);

// The expert-sorted row buffer an ExpertMlp consumes.
struct PackedRows {
  const PackPlan* plan = nullptr;  // token/weight/group sizes
  Tensor x;                        // [plan->rows, H], x dtype; dropped and padding rows zero
  // int8 routed modes: x quantized per token before the gather (pack+quant
  // fusion) and gathered with it. Empty otherwise.
  std::vector<int8_t> xq;          // [plan->rows, H]
  std::vector<float> xq_scale;     // [plan->rows]
};

// Gathers x [T,H] into rows->x. With quantize_rows also fills xq/xq_scale
// (per-token symmetric int8: each token quantized once, its int8 row copied
// to each of its rows). With quantize_rows and !float_rows only the int8
// rows are gathered and rows->x is a [0, H] tensor of x's dtype (enough for
// the int8 forward; the int8 backward needs the float rows). Reuses rows'
// buffers when the shape matches.
void GatherRows(const Tensor& x, const PackPlan& plan, bool quantize_rows, PackedRows* rows,
                bool float_rows = true);
// The MaxText-style dispatch (--dispatch-permute-mode repeat_sort): repeat
// every token K times into `repeated` [T*K, H], then permute those rows by the
// sort order. Same result as GatherRows (without quantization).
void GatherRowsRepeatSort(const Tensor& x, const PackPlan& plan, Tensor* repeated, PackedRows* rows);

// ----------------------------------------------------------- expert MLP --

// Weights of a contiguous set of experts: w1 (gate) and w3 (up) [L,H,M],
// w2 (down) [L,M,H], w13 [L,H,2M] = w1|w3 along the last axis.
struct ExpertWeights {
  Tensor w1, w3, w2, w13;
  int64_t experts() const { return w1.empty() ? 0 : w1.dim(0); }
  int64_t hidden() const { return w1.empty() ? 0 : w1.dim(1); }
  int64_t mlp_dim() const { return w1.empty() ? 0 : w1.dim(2); }
};

// Allocates w13 if needed and fills it from w1 and w3.
void BuildW13(ExpertWeights* w);

// Training with fused_w13 may leave w13 unbuilt: the expert MLP's matmuls
// against w13 (the up projection, and dx rows against its transpose) then
// concatenate w1|w3 a chunk of experts at a time. A chunk is two experts
// per thread (so each batch keeps the threads busy), or as many as 4 MiB of
// w13 holds when that is more (tiny experts: fewer, larger batches), at most
// all of them.
int64_t W13ChunkExperts(int64_t experts, int64_t hidden, int64_t mlp_dim, DType dtype, int threads);

struct ExpertGrads {
  Tensor dw1, dw3, dw2;  // same shapes and dtype as the weights
};

struct ExpertMlpOptions {
  GroupedBackend backend = GroupedBackend::kGmm;
  bool fused_w13 = false;   // one [H,2M] up matmul, output split at M
  bool preweight = false;   // h *= routing weight before W2
  QuantMode quant = QuantMode::kNone;
  RematMode remat = RematMode::kNone;
  // Forward-only hot loops: use weights reordered once by Prepare().
  bool prepacked = false;
};

// The SwiGLU expert MLP over packed rows: h = SiLU(x W1) * (x W3) (times the
// row weight with preweight), y = h W2, row r using its group's expert. Rows
// past the group-size sum are skipped (gmm) or written as zero (ragged_dot).
// Keeps scratch buffers and activations between calls: one instance per
// layer, not thread-safe.
class ExpertMlp {
 public:
  ExpertMlp(MatmulRunner* runner, ExpertMlpOptions options);

  const ExpertMlpOptions& options() const { return options_; }

  // Prepacks (and, for int8_routed_prequant, quantizes) the weights once.
  // Call again after the weights change. REQUIRES: w13 built if fused_w13.
  Status Prepare(const ExpertWeights& w);

  // y: [rows->plan->rows, H] in x dtype (allocated if the shape differs).
  // With save_for_backward the activations Backward needs are kept (which
  // ones depends on the remat mode).
  Status Forward(const ExpertWeights& w, const PackedRows& rows, Tensor* y, bool save_for_backward = false);
  // The two halves of Forward, for stage timing: Up -> h (internal), Down -> y.
  // keep_activations: also keep what Backward reads (the int8 fused up
  // projection otherwise writes only the quantized h).
  Status Up(const ExpertWeights& w, const PackedRows& rows, bool keep_activations = false);
  Status Down(const ExpertWeights& w, const PackedRows& rows, Tensor* y);

  // Forward (nothing saved) with the inverse-permutation combine fused into
  // the down projection: y_rows as Forward writes it, and out [T,H] (x dtype,
  // allocated by the caller) = the same sum CombineInversePermuteInto forms
  // from y_rows, each token finished by the job that computes its last row.
  // int8 routed modes only (InternalError otherwise).
  Status ForwardCombine(const ExpertWeights& w, const PackedRows& rows, const std::vector<int64_t>& inv,
                        bool apply_weight, Tensor* y_rows, Tensor* out);

  // Gradients for the rows of the last Forward(save_for_backward = true):
  // dy [rows, H] (x dtype) -> dx_rows [rows, H] and the expert weight grads
  // (overwritten, not accumulated). int8 routed modes are straight-through.
  Status Backward(const ExpertWeights& w, const PackedRows& rows, const Tensor& dy, Tensor* dx_rows,
                  ExpertGrads* grads);

  // Frees the saved activations and the backward's scratch (kept otherwise
  // for the next call): for callers that hold several instances and run
  // them one after the other, so that only one holds its scratch at a time.
  // The next Forward allocates them again.
  void ReleaseActivations();

 private:
  struct Impl;
  struct FusedCombine;
  Status DownImpl(const ExpertWeights& w, const PackedRows& rows, Tensor* y, FusedCombine* combine);
  // Up without keeping gate|up, bf16 on prepacked weights that CanSliceUp.
  Status SlicedUp(const ExpertWeights& w, const PackedRows& rows);
  // Up's paths (expert_mlp.cc): float/bf16 grouped matmuls, or int8 routed.
  void UpFloat(const ExpertWeights& w, const PackedRows& rows, bool packed);
  void UpInt8(const ExpertWeights& w, const PackedRows& rows, bool keep_activations);
  void SwiGluTile(const PackPlan& plan, DType dt, int64_t m, int64_t r, int64_t n);
  // Backward's stages (expert_mlp.cc).
  void BackwardDw2(const ExpertWeights& w, const PackPlan& plan, const Tensor& dy, ExpertGrads* grads);
  void BackwardDh(const ExpertWeights& w, const PackPlan& plan, const Tensor& dy);
  void BackwardDhInt8(const ExpertWeights& w, const PackPlan& plan, const Tensor& dy);
  void BackwardDw13(const ExpertWeights& w, const PackedRows& rows, ExpertGrads* grads);
  void BackwardDx(const ExpertWeights& w, const PackPlan& plan, Tensor* dx_rows);
  void BackwardDxInt8(const ExpertWeights& w, const PackPlan& plan, Tensor* dx_rows);
  MatmulRunner* runner_;
  ExpertMlpOptions options_;
  std::shared_ptr<Impl> impl_;
};

// --------------------------------------------------------------- combine --

// out[token[r]] += (apply_weight ? weight[r] : 1) * y[r] over the valid rows.
// out: [T,H] float32 accumulator (not cleared here). Parallel over columns,
// so no two threads touch the same element.
void CombineScatter(const Tensor& y, const PackPlan& plan, bool apply_weight, float* out, int64_t hidden);

// out[t] = sum_k (apply_weight ? w[t,k] : 1) * y[inv[t*K+k]] in f32, skipping
// slots without a valid row. Overwrites out [T,H].
void CombineInversePermute(const Tensor& y, const PackPlan& plan, const std::vector<int64_t>& inv,
                           bool apply_weight, float* out, int64_t hidden);

// The same sum rounded once into out [T,H] (float32 or bfloat16, allocated
// by the caller): no f32 buffer and no separate cast pass when nothing else
// is added to the output. Overwrites out.
void CombineInversePermuteInto(const Tensor& y, const PackPlan& plan, const std::vector<int64_t>& inv,
                               bool apply_weight, Tensor* out);

// Combine backward: dy[r] = (apply_weight ? weight[r] : 1) * dout[token[r]]
// for valid rows, zero for the rest. dout [T,H] in x dtype.
void CombineBackward(const Tensor& dout, const PackPlan& plan, bool apply_weight, Tensor* dy);
// The same gradient through the inverse permutation (the non-scatter
// combine's backward): dy[inv[p]] = w_p * dout[p / K].
void CombineBackwardInverse(const Tensor& dout, const PackPlan& plan, const std::vector<int64_t>& inv,
                            bool apply_weight, Tensor* dy);

// dx[token[r]] += dx_rows[r] over valid rows with keep[r] (dropped rows had
// zero input, so their gradient is zero). dx: [T,H] float32 accumulator.
void ScatterAddRows(const Tensor& dx_rows, const PackPlan& plan, float* dx, int64_t hidden);

// --------------------------------------------------------- shared expert --

struct SharedWeights {
  Tensor w1, w3, w2, w13;  // [H,S], [H,S], [S,H], [H,2S]
  int64_t dim() const { return w1.empty() ? 0 : w1.dim(1); }
};
void BuildSharedW13(SharedWeights* w);

struct SharedGrads {
  Tensor dw1, dw3, dw2;
};

// The shared SwiGLU expert on all T tokens: gate/up with f32 output (one
// fused [H,2S] matmul or two), SiLU*up in f32, down matmul accumulated into
// an f32 [T,H] buffer. int8 / int8_all: dense matmuls in int8 (per-row x
// scales, per-column weight scales).
class SharedExpert {
 public:
  SharedExpert(MatmulRunner* runner, bool fused, QuantMode quant);
  // out [T,H] f32 += shared(x).
  Status Forward(const SharedWeights& w, const Tensor& x, float* out, bool save_for_backward = false);
  // dout [T,H] x dtype; dx [T,H] f32 accumulated; grads overwritten.
  Status Backward(const SharedWeights& w, const Tensor& x, const Tensor& dout, float* dx, SharedGrads* grads);
  // Frees the activations and the backward's scratch once Backward consumed
  // them (the next Forward allocates them again), so they are not held
  // between training steps. Instances copied from this one share them.
  void ReleaseActivations();

 private:
  struct Impl;
  MatmulRunner* runner_;
  bool fused_;
  QuantMode quant_;
  std::shared_ptr<Impl> impl_;
};

// Bytes one SharedExpert instance allocates over `tokens` rows: its
// activations and scratch (kept between steps), by the buffers Forward and
// Backward (when training) size; not the gradients the caller holds. 0
// without a shared expert.
double SharedExpertBytes(int64_t tokens, int64_t hidden, int64_t shared_dim, DType dtype, bool fused,
                         QuantMode quant, bool training);

// ------------------------------------------------------------- int8 quant --

// Symmetric int8 quantization of each row of a [rows, cols] matrix (harness
// 2.9): scale = amax/127 + FLT_MIN, q = clip(round_half_even(v/scale), +-127).
void QuantizeRows(const void* src, DType dtype, int64_t rows, int64_t cols, int64_t ld, int8_t* q,
                  float* scales);
// One scale for the whole matrix (per-expert weight quantization).
float QuantizeMatrix(const void* src, DType dtype, int64_t n, int8_t* q);

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_MOE_LAYER_H_
