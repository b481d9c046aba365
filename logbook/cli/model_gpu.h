// The GPU side of `moelog model` (cmd_model_gpu.cc): predict, and fit /
// validate with --target gpu.
#ifndef MOELOG_LOGBOOK_CLI_MODEL_GPU_H_
#define MOELOG_LOGBOOK_CLI_MODEL_GPU_H_

#include <string>

#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdModelPredict(const Args& args);
int CmdModelGpu(const std::string& verb, const Args& args);

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
