// Parsing the harness's command line into an engine::BenchConfig: the
// flags of bench_moe_hillclimb.py (the union of its versions, same names,
// choices and defaults) plus moelog's own (--target, --json, --threads,
// --devices, --mesh, --hardware, ...). The engine takes the config; this is
// the command-line language of `moelog bench` and of logbook commands.
#ifndef MOELOG_LOGBOOK_PLAN_BENCH_ARGS_H_
#define MOELOG_LOGBOOK_PLAN_BENCH_ARGS_H_

#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/status.h"

namespace moelog::logbook {

// Parses harness-style arguments (without the program name), e.g.
// {"--tokens", "128", "--topk-list=1,2"}, and validates the config. Unknown
// flags (with the nearest known one), bad choices and bad values give
// InvalidArgument naming the flag. `--help` gives NotFound with the help text
// as message (callers print it and exit 0).
Result<engine::BenchConfig> ParseBenchArgs(const std::vector<std::string>& args);

// The same without the config's validation: each flag and its value alone
// (an unknown flag, a value outside its choices), not how flags combine.
Result<engine::BenchConfig> ParseBenchFlags(const std::vector<std::string>& args);

// Every flag `moelog bench` knows, "--tokens", ... (adapters are checked against it).
const std::vector<std::string>& BenchFlagNames();

// The help text of `moelog bench`.
std::string BenchHelp();

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_PLAN_BENCH_ARGS_H_
