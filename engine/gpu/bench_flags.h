// The flags `moelog bench --target <GPU hardware file>` takes, as a list: a
// GPU harness adapter (logbook/plan/adapters.h, "class": "gpu") is checked
// against it when it is read, so an adapter can only produce arguments the GPU
// bench accepts. logbook/cli/cmd_bench_gpu.cc declares the same flags.
#ifndef MOELOG_ENGINE_GPU_BENCH_FLAGS_H_
#define MOELOG_ENGINE_GPU_BENCH_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/gpu/model.h"
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

// One GPU bench invocation as the model takes it: the case (tokens per
// rank, the EP layout resolved against the hardware as `moelog bench`
// resolves it), the pass, and the hardware file it names.
struct GpuBenchCase {
  Case c;
  std::string target;        // --target (a hardware file's name)
  std::string hardware;      // --hardware (a path), "" when not given
  std::string pass = "forward";
  int64_t batch_tokens = 0;  // tokens of the whole batch
};

// Parses GPU bench arguments (CheckGpuBenchArgs' words; the last of a
// repeated flag wins, as in the harness). `scaleup_domain` resolves
// --gpus-per-node when only --ep is given. InvalidArgument names the flag.
Result<GpuBenchCase> ParseGpuBenchArgs(const std::vector<std::string>& args, int64_t scaleup_domain);

// fp8 | bf16 | fp32 | fp4 for a dtype or one of its long names (float8_e4m3fn,
// bfloat16, float32, nvfp4); anything else unchanged (the model refuses it).
std::string CanonicalDtype(const std::string& d);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_BENCH_FLAGS_H_
