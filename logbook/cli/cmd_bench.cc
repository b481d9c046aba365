// moelog bench: the hillclimb harness's command line on the embedded engine.
#include <unistd.h>

#include <iostream>
#include <string>

#include "engine/bench.h"
#include "engine/target.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/model_gpu.h"
#include "logbook/plan/bench_args.h"
#include "logbook/run/progress.h"

namespace moelog::cli {

int CmdBench(const Args& args) {
  if (IsGpuBenchTarget(args)) return CmdBenchGpu(args);  // --target names a GPU hardware file
  auto config = logbook::ParseBenchArgs(args);
  if (!config.ok()) {
    if (config.status().code() == Status::Code::kNotFound) {  // --help
      std::cout << config.status().message();
      return kExitOk;
    }
    PrintError("bench", config.status().ToString());
    return config.status().ExitCode();
  }
  // A model predicts one deterministic figure: flags that change none of its
  // figures are said to, which beats ignoring them silently.
  const engine::Target& target = engine::TargetOrDefault(config->target);
  for (const std::string& flag : target.inert_flags)
    for (const auto& a : args)
      if (a == flag || a.rfind(flag + "=", 0) == 0) {
        std::cerr << "moelog bench: warning: " << flag << " has no effect on --target " << target.name << " ("
                  << target.about << ")\n";
        break;
      }
  // A progress line on a terminal for measured (cpu) sweeps, cleared before
  // each result is printed (logbook/run/progress.h).
  const bool show = config->target == "cpu" && !config->quiet && isatty(2);
  logbook::RunProgress progress(show);
  engine::PointHook hook;
  if (show) {
    progress.Plan(logbook::WorkOf(*config));
    hook = [&](const engine::RunPoint& p, bool finished) {
      if (finished) return progress.Finish(logbook::WorkOfPoint(*config, p), /*erase=*/true);
      progress.Start(p.distribution + " topk=" + std::to_string(p.topk) + " impl=" + p.impl + " " + p.queue_mode,
                     logbook::WorkOfPoint(*config, p).flops);
    };
  }
  auto results = engine::RunBench(*config, std::cout, true, hook);
  if (!results.ok()) {
    PrintError("bench", results.status().ToString());
    return results.status().ExitCode();
  }
  return kExitOk;
}

}  // namespace moelog::cli
