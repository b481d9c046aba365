// The flags `moelog bench --target <GPU hardware file>` takes, as a list: a
// GPU harness adapter (logbook/plan/adapters.h, "class": "gpu") is checked
// against it when it is read, so an adapter can only produce arguments the GPU
// bench accepts. logbook/cli/cmd_bench_gpu.cc declares the same flags.
#ifndef MOELOG_ENGINE_GPU_BENCH_FLAGS_H_
#define MOELOG_ENGINE_GPU_BENCH_FLAGS_H_

#include <string>
#include <vector>

#include "engine/status.h"

namespace moelog::engine::gpu {

struct GpuBenchFlag {
  const char* name;   // "--tokens"
  bool takes_value;   // false: a switch (--json)
};

// Every flag of the GPU bench, --target first.
const std::vector<GpuBenchFlag>& GpuBenchFlags();

// Whether `args` are GPU bench arguments: every word starting with "--" is
// one of GpuBenchFlags (or `--flag=value` of one that takes a value), every
// value-taking flag has its value. InvalidArgument names the first fault.
Status CheckGpuBenchArgs(const std::vector<std::string>& args);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_BENCH_FLAGS_H_
