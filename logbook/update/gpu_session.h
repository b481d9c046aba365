// `moelog update --target <GPU hardware file>` (h100, b200, ...): a GPU
// logbook's harness commands (DeepEP's test scripts and the like, through
// their GPU adapters: data/adapters/*.json with "class": "gpu") planned on
// the GPU model (engine/gpu) and predicted in this process. Each entry's
// region gets a table of the modeled figures (time, bandwidth as the library
// counts it, the dominant stage and its bound) beside the figures the entry's
// recorded harness output states (read by the adapter's output rules), and
// the recorded figure as a percentage of the model. The region names the
// hardware file, the parameter file and the model version. Figures are not
// calibrated toward the logbook's own record: the delta is the answer.
#ifndef MOELOG_LOGBOOK_UPDATE_GPU_SESSION_H_
#define MOELOG_LOGBOOK_UPDATE_GPU_SESSION_H_

#include <ostream>
#include <string>
#include <vector>

#include "engine/gpu/model.h"

#include "logbook/update/session.h"

namespace moelog::logbook {

// Whether `target` names a hardware file of class "gpu" (data/hardware).
bool IsGpuTarget(const std::string& target);

// The GPU session on the logbook at `path`: --entry, --dry-run, --check and
// --overwrite-edits as `update` takes them; no run store (predictions cost
// microseconds and are computed again each time). Exit codes as RunSession's.
SessionSummary RunGpuSession(const std::string& path, const SessionOptions& options, std::ostream& out,
                             std::ostream& err);

// One GPU harness invocation of a logbook's entry, as the GPU model's case.
struct GpuEntryCase {
  std::string entry, label;
  engine::gpu::Case c;
};

// The GPU cases of the logbook at `path` (its entries' harness commands
// planned through the GPU adapters, on a scale-up domain of
// `scaleup_domain`), in document order. A nonzero Stop exit code on a
// document that does not load (reported on `err`).
std::vector<GpuEntryCase> GpuCasesOf(const std::string& path, int64_t scaleup_domain, std::ostream& err,
                                     int* exit_code);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_GPU_SESSION_H_
