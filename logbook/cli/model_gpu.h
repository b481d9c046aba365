// The GPU side of `moelog model` (cmd_model_gpu.cc): predict, and fit /
// validate with --target gpu.
#ifndef MOELOG_LOGBOOK_CLI_MODEL_GPU_H_
#define MOELOG_LOGBOOK_CLI_MODEL_GPU_H_

#include <string>

#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdModelPredict(const Args& args);
int CmdModelGpu(const std::string& verb, const Args& args);

// moelog bench --target <GPU hardware file> (cmd_bench_gpu.cc).
bool IsGpuBenchTarget(const Args& args);
int CmdBenchGpu(const Args& args);

// fp8 | bf16 | fp32 | fp4 for a dtype or one of its long names (float8_e4m3fn,
// bfloat16, float32, nvfp4); anything else unchanged (the model refuses it).
std::string CanonicalGpuDtype(const std::string& d);

// Whether the arguments say --target gpu (or --target=gpu).
inline bool NamesGpuTarget(const Args& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--target=gpu") return true;
    if (args[i] == "--target" && i + 1 < args.size() && args[i + 1] == "gpu") return true;
  }
  return false;
}

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_MODEL_GPU_H_
