// Helpers `moelog next`'s files share (logbook/research/next*.cc): the
// harness config keys the search reads and writes, and figure formatting.
#ifndef MOELOG_LOGBOOK_RESEARCH_NEXT_INTERNAL_H_
#define MOELOG_LOGBOOK_RESEARCH_NEXT_INTERNAL_H_

#include <string>
#include <vector>

#include "engine/bench_config.h"

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

}  // namespace moelog::logbook::next_internal

#endif  // MOELOG_LOGBOOK_RESEARCH_NEXT_INTERNAL_H_
