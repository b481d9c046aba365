// The GPU MoE-layer model: per-stage physical terms (bytes over achievable
// bandwidth plus latency, FLOPs over achievable throughput) for expert
// parallelism over nodes x GPUs per node. Dispatch and combine follow DeepEP's
// normal kernels (NVLink intranode; RDMA internode, one copy per destination
// node, then NVLink forwarding), its low-latency kernels, NCCL all-to-all, or
// an all-gather baseline; GEMMs follow DeepGEMM-style tiling (waves over SMs,
// per-tile epilogue, HBM bound). Routing comes from engine/routing (the
// selection the CPU engine and the v5p model also use), so the counts of
// distinct ranks and nodes per token and the experts' group sizes are real.
#ifndef MOELOG_ENGINE_GPU_MODEL_H_
#define MOELOG_ENGINE_GPU_MODEL_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/gpu/hardware.h"
#include "engine/gpu/params.h"
#include "engine/routing.h"
#include "engine/status.h"

namespace moelog::engine::gpu {

struct Case {
  std::string kernel = "moe_layer";  // ep_dispatch | ep_combine | ep_dispatch_ll | ep_combine_ll | grouped_gemm |
                                     // dense_gemm | moe_layer | alltoall | allreduce
  int64_t tokens = 4096;             // per rank (DeepEP's count)
  int64_t hidden = 7168, mlp_dim = 2048, experts = 256, topk = 8;
  int64_t ep = 8, nodes = 1, gpus_per_node = 8;
  int64_t topk_groups = -1;          // -1: the library's test default (DeepEP: min(nodes, 4) when internode)
  std::string dtype = "fp8", combine_dtype = "bf16";
  int64_t sms = 0;                   // 0: the library's default
  std::string library = "deepep";
  std::string interconnect;          // empty: the hardware file's
  std::string layout = "contiguous"; // grouped_gemm: contiguous | masked
  int64_t groups = 0, m_per_group = 0, n = 0, k = 0;  // GEMM problem
  bool backward = false;             // moe_layer: forward_backward
  int64_t shared_mlp_dim = 0;        // moe_layer: shared expert width (0: none)
  uint64_t seed = 0;
};

// The model's version, named beside every figure it makes (bump when its
// physics change).
inline constexpr char kModelVersion[] = "moelog-gpu-3";

// The widest router the model routes (experts per layer).
inline constexpr int64_t kMaxExperts = int64_t{1} << 16;

// What the routing of one rank's tokens gives the communication and GEMM
// stages (counts over that rank's tokens; rows per rank over the batch).
struct RouteCounts {
  double selections = 0;       // tokens x topk
  double distinct_ranks = 0;   // sum over tokens of distinct destination ranks
  double distinct_nodes = 0;   // sum over tokens of distinct destination nodes
  double self_hits = 0;        // tokens with an expert on the source rank itself
  double own_node_hits = 0;    // tokens with an expert on the source node
  double same_node_selections = 0;  // selections whose expert is on the source node
  std::vector<double> local_groups;  // rows per local expert on the most loaded rank (whole batch; moe_layer only)
};

// Routes `tokens` tokens of one rank (and up to a bounded sample of the
// whole batch for the group sizes) with engine/routing's random router.
RouteCounts CountRoutes(const Case& c);

// CountRoutes for many EP layouts of the same shapes: a routing is computed
// once per shape (and, where node-group limiting applies, per node count),
// then counted per layout (ranks and nodes per token, the loaded rank's
// groups). A search over configurations shares one.
class RouteCounter {
 public:
  const RouteCounts& For(const Case& c);

 private:
  std::map<std::string, Routing> routings_;
  std::map<std::string, RouteCounts> counts_;
};

struct Stage {
  Stage() = default;
  explicit Stage(std::string stage_name) : name(std::move(stage_name)) {}
  std::string name;
  double time_s = 0, bytes = 0, flops = 0;
  std::string bound;  // the unit or link that binds: "nvlink", "rdma", "hbm", "tensor", "latency", "sm"
};

struct Prediction {
  double time_s = 0;
  double bytes = 0;  // counted as the library defines its bandwidth
  double flops = 0;
  std::vector<Stage> stages;
};

// Checks the case against the hardware; NotSupported says what is not
// modeled, InvalidArgument what is inconsistent.
Status CheckCase(const Hardware& hw, const Case& c);

// The prediction; NotSupported for what the model does not cover.
Result<Prediction> Predict(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r);

// Bytes per token of a dispatch or combine message as DeepEP counts them.
double NormalTokenBytes(const std::string& dtype, int64_t hidden);
double LowLatencyTokenBytes(const std::string& dtype, int64_t hidden, bool dispatch);

// JSON text of a prediction (time_s, bytes, flops, stages) or of a case's
// unsupported reason.
std::string PredictionJson(const Case& c, const Hardware& hw, const Prediction& pr);

// `text` as a JSON string literal (quoted, escaped).
std::string JsonString(const std::string& text);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_MODEL_H_
