// Helpers `moelog next`'s files share (logbook/research/next*.cc): the
// harness config keys the search reads and writes, and figure formatting.
#ifndef MOELOG_LOGBOOK_RESEARCH_NEXT_INTERNAL_H_
#define MOELOG_LOGBOOK_RESEARCH_NEXT_INTERNAL_H_

#include <string>
#include <utility>
#include <vector>

#include "engine/bench_config.h"
#include "logbook/research/next.h"

namespace moelog::logbook::next_internal {

// Sets one key of a harness config (false: a key the search does not know).
bool SetKey(engine::BenchConfig* c, const std::string& key, const std::string& v);
// A key's value as a flag takes it ("" unknown).
std::string GetKey(const engine::BenchConfig& c, const std::string& key);
// The keys that make a shape, and a config's shape as "tokens=... hidden=...".
const std::vector<std::string>& ShapeKeys();
std::string ShapeText(const engine::BenchConfig& c);
// "TF/s" | "tokens/s".
std::string MetricName(const std::string& metric);
// A figure as the report shows it.
std::string Fmt(double v);

// ExplorationPrior: measured/modeled at the 10th and 90th percentiles of the
// model's error on paths it was not fitted on (leave-one-path-out, the
// band file's) widened to the range of `history`: measured/modeled on the
// logbook's first measurement of each path (the model uncalibrated). At
// least +-5%.
PriorBand ExplorationPrior(double lopo_lo, double lopo_hi, const std::vector<double>& history);
// The interval factors of a configuration with `keys` unvalidated keys.
std::pair<double, double> CompoundPrior(const PriorBand& prior, size_t keys);
// Exploration in the order it is proposed: fewest changed keys first (a
// combination after its parts), then the higher lower end of the interval;
// intervals whose upper end is not above `best` left out; equal figures
// folded into the first; at most n.
std::vector<Proposal> RankExploration(std::vector<Proposal> props, double best, size_t n);

}  // namespace moelog::logbook::next_internal

#endif  // MOELOG_LOGBOOK_RESEARCH_NEXT_INTERNAL_H_
