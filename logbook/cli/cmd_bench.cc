// moelog bench: the hillclimb harness's command line on the embedded engine.
#include <iostream>

#include "engine/bench.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdBench(const Args& args) {
  auto config = engine::ParseBenchArgs(args);
  if (!config.ok()) {
    if (config.status().code() == Status::Code::kNotFound) {  // --help
      std::cout << config.status().message();
      return kExitOk;
    }
    PrintError("bench", config.status().ToString());
    return config.status().ExitCode();
  }
  auto results = engine::RunBench(*config, std::cout);
  if (!results.ok()) {
    PrintError("bench", results.status().ToString());
    return results.status().ExitCode();
  }
  return kExitOk;
}

}  // namespace moelog::cli
