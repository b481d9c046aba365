// `moelog next` on a GPU target (a GPU hardware file, given by --target or
// pinned by the logbook): configurations around the latest GPU harness
// invocation the logbook records -- EP degree, nodes x GPUs per node, the
// kernel library, low-latency vs normal kernels, dtype, the SMs a kernel
// takes -- predicted on the GPU model (engine/gpu) and ranked by modeled time
// at the invocation's tokens per rank (so by per-GPU throughput). The routing
// is computed once per EP layout and shared, so 10^5 configurations take well
// under a second (tests/bench/next_search_bench.cc).
#ifndef MOELOG_LOGBOOK_RESEARCH_NEXT_GPU_H_
#define MOELOG_LOGBOOK_RESEARCH_NEXT_GPU_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine/gpu/hardware.h"
#include "engine/gpu/model.h"
#include "engine/gpu/params.h"
#include "engine/status.h"

namespace moelog::logbook {

// What the GPU search varies (each list: the values tried).
struct GpuAxes {
  std::vector<int64_t> ep;                  // EP degrees (those the experts divide)
  std::vector<int64_t> gpus_per_node;       // splits of an EP degree into nodes x GPUs (those that divide it)
  std::vector<std::string> libraries;       // deepep, hybrid_ep, nccl, allgather, ...
  std::vector<bool> low_latency = {false};  // dispatch/combine kernels: also the low-latency ones
  std::vector<std::string> dtypes;          // the dispatch dtype (combine kernels: the combine dtype)
  std::vector<int64_t> sms = {0};           // SMs a communication kernel takes (0: the library's default)
};

// The axes around `anchor` on `hw`: EP 8..256 (and the anchor's), GPUs per
// node in powers of two up to the scale-up domain, DeepEP / Hybrid-EP / NCCL
// / the anchor's library, low-latency for dispatch and combine, fp8 and bf16,
// the default SMs and the anchor's.
GpuAxes DefaultGpuAxes(const engine::gpu::Hardware& hw, const engine::gpu::Case& anchor);

struct GpuCandidate {
  engine::gpu::Case c;
  double time_s = 0, bytes = 0;
  std::string dominant, bound;
};

// Every combination of `axes` applied to `anchor`, predicted; combinations
// the model does not cover are skipped. Sorted by time, fastest first.
// `tried` receives the number predicted.
std::vector<GpuCandidate> SearchGpuConfigs(const engine::gpu::Hardware& hw, const engine::gpu::Params& params,
                                           const engine::gpu::Case& anchor, const GpuAxes& axes,
                                           int* tried = nullptr);

struct GpuNextReport {
  std::string target, pin;          // the hardware file's name; where the logbook pins it ("": --target)
  std::string hardware_file, params_file;
  std::string anchor_entry, anchor_label;
  engine::gpu::Case anchor;
  double anchor_time_s = 0;
  int searched = 0;
  double search_s = 0;
  std::vector<GpuCandidate> ranked;
};

// The report for the logbook at `path` on GPU target `target`, around the
// last GPU invocation of `entry` ("" : of the last entry that has one).
// NotFound when the logbook has no GPU harness invocation.
Result<GpuNextReport> ProposeGpuNext(const std::string& path, const std::string& target, const std::string& pin,
                                     const std::string& entry, std::ostream& err);

std::string FormatGpuNextReport(const GpuNextReport& report, int count);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RESEARCH_NEXT_GPU_H_
