// TiledMoe: the routed experts of the single-device MoE block as one fused
// pipeline per row tile: gather -> up (+SwiGLU) -> down -> weighted combine,
// so only a tile's intermediates are alive (per-thread tile buffers) instead
// of row buffers for all T*K assignments.
//
// Forward-only runs read the weights in their prepacked (oneDNN blocked) form
// only; the caller may drop the plain weights after Prepack. Training reads
// the plain weights (they change every step): the forward prepacks the
// in-flight expert's weights into per-thread buffers (fused_w13: after
// concatenating w1|w3). The backward (bf16) prepacks the transposes of the
// in-flight expert's weights the same way, and computes the weight
// gradients as plain x packed products: the token-major x and h rows
// transposed by its own kernel, d(gate|up) and dy packed with the tokens as
// K (zero-padded to the 32-row blocks).
//
// The combine sums each token's weighted expert outputs in f32 and rounds
// once, without a [T,H] f32 buffer. Into a bf16 y, a token with two
// contributions (top-2) keeps the first one unscaled in y until the second
// arrives; with three or more the f32 sum is kept split in two 16-bit planes:
// the upper halves in y itself, the lower halves in a side plane (allocated
// only then). The token's last contribution rounds the sum into y. The
// backward's dx needs no side plane when no token has more than two row
// gradients (they are bf16 values, so the first one is exact in dx). Threads
// add into a token under a per-token-stripe lock; with K <= 2 contributions
// per token the result does not depend on their order (products are rounded,
// and f32 addition is commutative), so it is deterministic. (The unfused
// combine sums in slot order with fused multiply-adds; results agree within
// one rounding.)
//
// Training (Backward) runs one expert per job: gather x rows, SwiGLU from the
// saved gate|up pre-activations (or, with remat expert_mlp, from a recomputed
// up projection; bf16 reads the saved h^T instead), dW2 = h^T dy, dh = dy W2^T, SwiGLU backward in place,
// dW1/dW3 = x^T d(gate)/d(up), dx rows = d(gate|up) W13^T, then dx rows are
// added into dx the same way as the forward combine. dout = 2y/(T*H) and the
// combine backward dy are formed per row on the fly.
#ifndef MOELOG_ENGINE_CPU_MOE_PIPELINE_H_
#define MOELOG_ENGINE_CPU_MOE_PIPELINE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/cpu/matmul.h"
#include "engine/cpu/moe_layer.h"
#include "engine/cpu/tensor.h"
#include "engine/status.h"

namespace moelog::engine::cpu {

struct PipelineOptions {
  GroupedBackend backend = GroupedBackend::kGmm;
  bool fused_w13 = false;  // one [H,2M] up matmul per tile
  bool preweight = false;  // h *= routing weight; combine unweighted
  RematMode remat = RematMode::kNone;
  // bf16 backward: oneDNN on the plain (transposed) views instead of
  // moelog's transposed and packed operands.
  bool plain_backward = false;
};

// The token count of an expert padded for the bf16 backward's weight-gradient
// matmuls (tokens as K): rounded up to the 32-row K block of the packed bf16
// layout, plus one more block where that would put the rows of a transposed
// operand ([H or M, tokens]) a multiple of 1 KiB apart, where they share L1
// cache sets. Measured at 1024 tokens against 1056 (cpu_kernels_bench):
// oneDNN's f32-output weight-gradient matmul [1024, K] x [K, 1024] runs 12-16%
// slower per FLOP, the x transpose 1-4% slower.
int64_t PadTokens(int64_t n);

class TiledMoe {
 public:
  TiledMoe(MatmulRunner* runner, PipelineOptions options);

  // Prepacks expert e (of `experts`) from plain matrices: w1, w3 [H,M] and w2
  // [M,H] (fused_w13: w1|w3 are concatenated into a temporary [H,2M] first).
  // Forward-only runs call it for every expert before Forward.
  void PrepackExpert(int64_t e, int64_t experts, int64_t hidden, int64_t mlp_dim, DType dtype, const void* w1,
                     const void* w3, const void* w2);
  // PrepackExpert for every expert of w.
  Status Prepack(const ExpertWeights& w);
  bool prepacked() const { return !p2_.empty(); }

  // The routed experts on x [T,H] for the plan's valid rows. Into y (out_f32
  // null): y [T,H] (x dtype, allocated if needed) is overwritten with the
  // combined sum. Into out_f32 [T,H]: the sums are added to it (the caller
  // adds the shared expert and casts). save_for_backward keeps the gate|up
  // pre-activations of every valid row unless remat is expert_mlp (bf16
  // with 64-column blocks: and h^T per expert, for dW2). w: plain
  // weights (unused when prepacked). lo_plane: a [T,H] bf16 buffer the
  // caller does not need during the call (training passes dx) to hold the
  // low halves of bf16 sums; null: an internal one.
  Status Forward(const ExpertWeights& w, const Tensor& x, const PackPlan& plan, bool save_for_backward, Tensor* y,
                 float* out_f32, Tensor* lo_plane = nullptr);

  // Gradients for the last Forward(save_for_backward = true) with loss
  // mean(y^2): dout = FromF(y * dout_scale) per element. dx [T,H] (x dtype)
  // is overwritten when dx_f32 is null; otherwise the row gradients are added
  // to dx_f32 [T,H]. grads are overwritten.
  Status Backward(const ExpertWeights& w, const Tensor& x, const PackPlan& plan, const Tensor& y, float dout_scale,
                  Tensor* dx, float* dx_f32, ExpertGrads* grads);

  // Returns the pages of the gradient tensors to the OS: a training step
  // overwrites them (like zero_grad(set_to_none=True)), and their pages then
  // fill during the backward while the consumed saved activations are
  // returned, so the two never peak together.
  static void DiscardGradients(ExpertGrads* grads);

  // Bytes held between calls (prepacked weights, saved activations, tile
  // buffers), for the memory estimate.
  int64_t HeldBytes() const;

 private:
  struct Thread;
  struct Accumulator;
  struct ForwardPass;   // one Forward call's state and stages (moe_pipeline.cc)
  // The accumulator's target: out_f32 to add into when given (returns 0),
  // else `out` sized to [t, h] with each token's contributions counted
  // (expected_, arrived_); returns the most any token has.
  int32_t AccumulatorTarget(const PackPlan& plan, int64_t t, int64_t h, DType dt, Tensor* out, float* out_f32,
                            Accumulator* acc);
  struct BackwardPass;  // one Backward call's state and stages (moe_pipeline.cc)
  // Allocates *p as a packed [k, n] weight unless it already is one.
  void EnsurePack(PackedMatrix* p, int64_t k, int64_t n, DType dt);
  // Allocates th's per-thread prepacked weights for [h, m] experts.
  void PrepareThreadPacks(Thread* th, int64_t h, int64_t m, DType dt);
  MatmulRunner* runner_;
  PipelineOptions options_;
  std::vector<PackedMatrix> p13_, p1_, p3_, p2_;
  Tensor saved_ab_;           // [valid rows, 2M] gate|up (fused rows; split: gate block then up block)
  int64_t saved_rows_ = 0;
  // bf16 training (remat none): h^T per expert, [M, padded tokens] at
  // saved_ht_off_[g], the plain left operand of dW2 (no recompute and no
  // transpose in the backward).
  Tensor saved_ht_;
  std::vector<int64_t> saved_ht_off_;
  bool saved_ = false;
  Tensor lo_;                 // [T,H] lower halves of the split f32 sums (bf16 outputs)
  std::vector<int32_t> expected_, arrived_;  // per token: contributions expected / arrived
  std::vector<float> first_scale_;            // per token: scale of its first contribution (bf16 pairs)
  std::vector<std::shared_ptr<Thread>> threads_;
};

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_MOE_PIPELINE_H_
