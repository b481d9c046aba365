// RunBench: the harness's sweep loop on a backend, printing the harness's
// lines (or one JSON document) as each run finishes.
#ifndef MOELOG_ENGINE_BENCH_H_
#define MOELOG_ENGINE_BENCH_H_

#include <functional>
#include <ostream>
#include <vector>

#include "engine/bench_config.h"
#include "engine/metrics.h"
#include "engine/status.h"

namespace moelog::engine {

// The routing of every point: logits once per distribution, top-k per K,
// null routing per fraction (null key folds in --null-route-seed).
Routing RoutingForPoint(const BenchConfig& config, const Logits& logits, const RunPoint& point);
// The same from the point's top-k routing (TopK(logits, point.topk)).
Routing RoutingForPoint(const BenchConfig& config, Routing topk, const RunPoint& point);

// Runs every point of the sweep. Text lines go to `out` as runs finish (JSON:
// one document at the end). Returns the results even when printing is off.
Result<std::vector<RunResult>> RunBench(const BenchConfig& config, std::ostream& out, bool print = true);
// The same, calling `hook` as each point starts (finished false) and ends.
using PointHook = std::function<void(const RunPoint& point, bool finished)>;
Result<std::vector<RunResult>> RunBench(const BenchConfig& config, std::ostream& out, bool print,
                                        const PointHook& hook);

// Formatting (docs/harness.md §3.3). Exposed for tests and for the logbook layer.
std::string FormatHeader(const BenchConfig& config, const std::string& devices_line);
std::string FormatRun(const BenchConfig& config, const RunResult& r);
std::string FormatResultLine(const RunResult& r);
std::string ResultsToJson(const BenchConfig& config, const std::string& devices_line,
                          const std::vector<RunResult>& results);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_BENCH_H_
