// MoeBlock: the whole single-device MoE block of the benchmark (pack, routed
// expert MLP, combine, shared expert; forward and the fixed-routing training
// step) built from the pieces of moe_layer.h, plus the synthetic data and the
// numerics check against the double-precision reference.
#ifndef MOELOG_ENGINE_CPU_MOE_BLOCK_H_
#define MOELOG_ENGINE_CPU_MOE_BLOCK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/cpu/moe_layer.h"
#include "engine/cpu/moe_pipeline.h"
#include "engine/metrics.h"
#include "engine/routing.h"

namespace moelog::engine::cpu {

struct BlockConfig {
  int64_t tokens = 0, hidden = 0, mlp_dim = 0, experts = 0, shared_dim = 0;
  DType dtype = DType::kBF16;
  std::string impl = "fused_w13";
  bool fused_w13 = false, preweight = false, scatter = false;  // from impl
  bool shared_fused = false;
  GroupedBackend backend = GroupedBackend::kGmm;
  PackStrategy strategy = PackStrategy::kArgsort;
  CapacityPolicy capacity = CapacityPolicy::kNone;
  double capacity_factor = 0.0;
  QuantMode quant = QuantMode::kNone;
  RematMode remat = RematMode::kNone;
  bool repeat_sort = false;  // --dispatch-permute-mode repeat_sort
  // Tiled bf16 training: the backward's weight-gradient and transposed-weight
  // matmuls on oneDNN with the plain operands, as for other dtypes (the
  // reference the benchmarks compare moelog's packed operands with).
  bool plain_backward = false;
};

// The block configuration of one sweep point. InvalidArgument for unknown names.
Result<BlockConfig> MakeBlockConfig(const BenchConfig& config, const std::string& impl);

// x [T,H] and the weights. Values are iid N(0,1) like the harness; weights are
// then scaled by 1/sqrt(fan_in) (H for w1/w3, M or S for w2) so activations
// stay O(1) and bf16/int8 errors are measured relative to meaningful values.
// Deterministic in (seed, shapes), independent of the thread count.
struct BlockData {
  Tensor x;
  ExpertWeights experts;
  SharedWeights shared;
  uint64_t seed = 0;
  // The expert weights are not materialized: a forward-only tiled MoeBlock
  // generates each expert's slices (GenerateExpertWeights) while packing it.
  bool deferred_experts = false;
  // What part of the run's data this is (GenerateBlockDataShare): x holds
  // the run's rows token_begin.. and experts its experts expert_begin..;
  // `share` is false when everything is held.
  bool share = false;
  int64_t token_begin = 0, expert_begin = 0;
};
BlockData GenerateBlockData(int64_t tokens, int64_t hidden, int64_t mlp_dim, int64_t experts, int64_t shared_dim,
                            DType dtype, uint64_t seed);
// The same data without the expert weights (deferred_experts).
BlockData GenerateBlockDataDeferred(int64_t tokens, int64_t hidden, int64_t mlp_dim, int64_t experts,
                                    int64_t shared_dim, DType dtype, uint64_t seed);
// The part of the run's data one device of a parallel run holds (a rank
// under MPI): x rows [token_begin, token_begin + tokens) and experts
// [expert_begin, expert_begin + experts), the shared weights whole.
struct DataShare {
  int64_t token_begin = 0, tokens = 0, expert_begin = 0, experts = 0;
  bool operator==(const DataShare&) const = default;
};
// GenerateBlockData's values at the share's rows and experts, bit for bit
// (the same streams, skipped to the share), without the rest.
BlockData GenerateBlockDataShare(int64_t hidden, int64_t mlp_dim, int64_t shared_dim, DType dtype, uint64_t seed,
                                 const DataShare& share);
// Expert e's w1, w3 [H,M] and w2 [M,H] as GenerateBlockData makes them
// (its slices e of the [E,...] tensors), written to the given buffers.
void GenerateExpertWeights(int64_t hidden, int64_t mlp_dim, int64_t e, DType dtype, uint64_t seed, void* w1,
                           void* w3, void* w2);

// True when MoeBlock runs the routed experts on the fused tile pipeline
// (TiledMoe): no int8 routed matmuls and no repeat_sort dispatch.
bool UsesTiledPipeline(const BlockConfig& c);

// Estimated peak bytes of a run (data, buffers, gradients, reference).
double EstimateBytes(const BlockConfig& c, int64_t topk, bool backward, bool check_numerics);
// MemAvailable from /proc/meminfo in bytes (0 if unreadable).
double AvailableBytes();

class MoeBlock {
 public:
  // REQUIRES: data and routing outlive the block.
  MoeBlock(const BlockConfig& config, BlockData* data, const Routing* routing);

  // Untimed set-up: builds w13 (and the shared w13), prequantizes the weights
  // for int8_routed_prequant and, for forward-only runs (training = false),
  // prepacks them into oneDNN's blocked layout.
  Status Prepare(bool training);
  // Forward-only runs on the tiled pipeline: after Prepare the plain expert
  // weights in BlockData are released (only the prepacked copies stay). The
  // caller must regenerate BlockData before reusing it. Default false.
  void set_release_plain_weights(bool release) { release_plain_ = release; }
  // True when the routed experts run on the fused tile pipeline (TiledMoe):
  // no int8 routed matmuls and no repeat_sort dispatch.
  bool tiled() const { return tiled_; }
  // Switches the stage functions to the unfused path for --stage-timing
  // (Up calls it on first use): Pack also gathers the row buffer, and
  // Up/Down/Combine run as separate stages on the unfused expert MLP, whose
  // weights are prepared here. Forward and TrainStep stay tiled.
  Status BeginStageTiming();
  // The four stages (harness 3.4), each reading the previous one's output.
  // With the tiled pipeline outside stage timing, Pack only plans the rows
  // (the gather is fused into the tile pipeline).
  Status Pack();
  Status Up();
  Status Down();
  // Combine (+ the shared expert unless stage timing asks without) + cast: y.
  Status Combine(bool with_shared = true);
  // Pack (optional) then up, down, combine.
  Status Forward(bool pack);
  // One fixed-routing training step: rebuild w13 (and shared w13), pack,
  // forward keeping activations per the remat mode, loss = mean(y^2) in f32,
  // backward to dx and every weight gradient.
  Status TrainStep();

  const Tensor& y() const { return y_; }
  double loss() const { return loss_; }
  const PackPlan& plan() const { return plan_; }
  bool uses_scatter() const { return scatter_; }
  // Gradients of the last TrainStep.
  const Tensor& dx() const { return dx_; }
  const ExpertGrads& expert_grads() const { return grads_; }
  const SharedGrads& shared_grads() const { return shared_grads_; }
  MatmulRunner& runner() { return runner_; }

  // Compares y (and after TrainStep every gradient) with the reference.
  std::vector<NumericsCheck> CheckNumerics(bool gradients);

 private:
  Status TiledForward(bool save);
  Status TiledTrainStep();

  BlockConfig c_;
  BlockData* data_;
  const Routing* routing_;
  MatmulRunner runner_;
  PackOptions pack_options_;
  bool scatter_ = false;
  PackPlan plan_;
  PackedRows rows_;
  std::vector<int64_t> inv_;
  ExpertMlp mlp_;
  bool tiled_ = false, release_plain_ = false, staging_ = false, training_ = false;
  TiledMoe pipeline_;
  SharedExpert shared_;
  Tensor y_rows_, y_, dy_rows_, dx_rows_, dout_, dx_, repeated_;
  std::vector<float> out_f32_, dx_f32_;
  ExpertGrads grads_;
  SharedGrads shared_grads_;
  double loss_ = 0;
};

// Per-dtype tolerance on MaxRelErr for --check-numerics.
double NumericsTolerance(DType dtype, QuantMode quant, bool gradient);

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_MOE_BLOCK_H_
