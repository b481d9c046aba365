// RunResult: every figure one benchmark run produces, measured (cpu) or
// modeled (v5p). Printed as the harness's lines, as JSON, and stored by the
// logbook layer.
#ifndef MOELOG_ENGINE_METRICS_H_
#define MOELOG_ENGINE_METRICS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/routing.h"

namespace moelog::engine {

struct TimingStats {
  double mean_s = 0, median_s = 0, min_s = 0, max_s = 0;
  std::vector<double> samples_s;
};

// One stage of the layer. Measured stages (cpu --stage-timing) leave `bound`
// empty; modeled stages name what bounds them: MXU, HBM, ICI, VPU or fixed.
struct StageTime {
  std::string name;
  double seconds = 0;
  std::string bound;
};

struct NumericsCheck {
  std::string tensor;   // "y", "dx", "dw1", ...
  double max_rel_err = 0;
  double tolerance = 0;
  bool ok = true;
};

struct CommStats {
  int64_t bytes_sent_per_device = 0;
  int64_t bytes_recv_per_device = 0;
  double comm_s = 0;      // time in communication (measured or modeled)
  double compute_s = 0;   // time in compute
};

struct RunResult {
  RunPoint point;
  std::string pass, backend, remat_mode, quant_mode, parallel_mode, ep_comm_path, mesh;
  std::string source = "measured";  // measured | modeled
  std::string unvalidated;           // modeled on paths no calibration row covers: "parallel_mode=dp, ..."
  int64_t devices = 1;
  TimingStats time;
  double flops = 0;             // harness convention (docs/harness.md §3.2)
  double tflops = 0;            // aggregate, flops / mean time
  double tflops_per_device = 0;
  double tokens_per_s = 0;
  double mfu = 0;               // modeled: flops / (t * devices * peak); 0 if unknown
  RunStats run_stats;
  LoadStats load_stats;
  CapacityStats capacity;
  // Null routing (copied from the Routing).
  double null_target = 0, null_realized = 0;
  std::string null_mode = "independent";
  int64_t null_experts = 0, null_assignments = 0, real_assignments = 0;
  std::vector<StageTime> stages;       // --stage-timing
  std::vector<NumericsCheck> numerics; // --check-numerics
  CommStats comm;
  bool oom = false;                    // modeled: does not fit the chip's HBM
  double memory_bytes = 0;             // estimate (cpu: peak estimate; v5p: per chip HBM)
  std::map<std::string, double> extra; // backend-specific figures
};

// Harness FLOP count for one run: 6*H*M*real_assignments (pad: 6*H*M*E*cap)
// plus 6*T*H*S; times 3 for forward_backward.
double HarnessFlops(const BenchConfig& config, int64_t real_assignments, int64_t pad_cap);

// Fills run_stats, load_stats, capacity, null fields and flops/tflops/
// tokens_per_s (from result->time.mean_s and result->devices).
void FillCommonFigures(const BenchConfig& config, const Routing& routing, RunResult* result);

// The headline figures of a run, by the names the JSON output and the run
// store use: time_s (mean), time_median_s, time_min_s, time_max_s, tflops,
// tflops_per_device, tokens_per_s, and mfu when it is known.
std::map<std::string, double> HeadlineFigures(const RunResult& r);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_METRICS_H_
