// moelog bench: the hillclimb harness's command line on the embedded engine.
#include <iostream>
#include <string>

#include "engine/bench.h"
#include "logbook/cli/commands.h"
#include "logbook/plan/bench_args.h"

namespace moelog::cli {

int CmdBench(const Args& args) {
  auto config = logbook::ParseBenchArgs(args);
  if (!config.ok()) {
    if (config.status().code() == Status::Code::kNotFound) {  // --help
      std::cout << config.status().message();
      return kExitOk;
    }
    PrintError("bench", config.status().ToString());
    return config.status().ExitCode();
  }
  if (config->target == "v5p") {
    // The model predicts one deterministic figure for the v5p-8 slice: these
    // flags change nothing there, and saying so beats ignoring them silently.
    for (const char* flag : {"--threads", "--iters", "--warmup", "--check-numerics"})
      for (const auto& a : args)
        if (a == flag || a.rfind(std::string(flag) + "=", 0) == 0) {
          std::cerr << "moelog bench: warning: " << flag << " has no effect on --target v5p (a model of the "
                    << "v5p-8 slice: one deterministic prediction, 4 chips)\n";
          break;
        }
  }
  auto results = engine::RunBench(*config, std::cout);
  if (!results.ok()) {
    PrintError("bench", results.status().ToString());
    return results.status().ExitCode();
  }
  return kExitOk;
}

}  // namespace moelog::cli
