#include "engine/metrics.h"

namespace moelog::engine {

double HarnessFlops(const BenchConfig& c, int64_t real_assignments, int64_t pad_cap) {
  const double hm6 = 6.0 * static_cast<double>(c.hidden) * static_cast<double>(c.mlp_dim);
  double routed = hm6 * static_cast<double>(real_assignments);
  if (c.capacity_policy == "pad" && pad_cap > 0) routed = hm6 * static_cast<double>(c.experts * pad_cap);
  double shared = 6.0 * static_cast<double>(c.tokens) * c.hidden * static_cast<double>(c.shared_expert_dim);
  double fwd = routed + shared;
  return c.bench_pass == "forward_backward" ? 3.0 * fwd : fwd;
}

void FillCommonFigures(const BenchConfig& c, const Routing& routing, RunResult* r) {
  r->pass = c.bench_pass;
  r->backend = c.backend;
  r->remat_mode = c.remat_mode;
  r->quant_mode = c.quant_mode;
  r->parallel_mode = c.parallel_mode;
  r->ep_comm_path = c.ep_comm_path;
  r->mesh = c.mesh;
  std::vector<int64_t> groups = GroupSizes(routing);
  r->run_stats = ComputeRunStats(routing);
  r->load_stats = ComputeLoadStats(groups);
  r->capacity = ComputeCapacityStats(groups, c.tokens, routing.topk,
                                     c.capacity_policy == "none" ? 0.0 : c.capacity_factor);
  r->null_target = routing.null_target;
  r->null_realized = routing.null_realized;
  r->null_mode = routing.null_mode;
  r->null_experts = routing.null_experts;
  r->null_assignments = routing.null_assignments;
  r->real_assignments = routing.real_assignments;
  r->flops = HarnessFlops(c, routing.real_assignments, r->capacity.cap);
  double t = r->time.mean_s;
  r->tflops = t > 0 ? r->flops / t / 1e12 : 0.0;
  r->tflops_per_device = r->devices > 0 ? r->tflops / static_cast<double>(r->devices) : r->tflops;
  r->tokens_per_s = t > 0 ? static_cast<double>(c.tokens) / t : 0.0;
}

std::map<std::string, double> HeadlineFigures(const RunResult& r) {
  std::map<std::string, double> m = {
      {"time_s", r.time.mean_s},   {"time_median_s", r.time.median_s},
      {"time_min_s", r.time.min_s}, {"time_max_s", r.time.max_s},
      {"tflops", r.tflops},         {"tflops_per_device", r.tflops_per_device},
      {"tokens_per_s", r.tokens_per_s}};
  if (r.mfu > 0) m["mfu"] = r.mfu;
  return m;
}

}  // namespace moelog::engine
