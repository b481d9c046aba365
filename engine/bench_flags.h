// The run keys of a benchmark, each declared once: the harness's flags (and
// moelog's) as BenchConfig fields, plus the run-level keys a stored run
// answers (host, entry, source). Everything that lists keys derives from this
// table: the command line of `moelog bench` (logbook/plan/bench_args.cc), the
// cache key (CanonicalConfigJson), the keys a criterion or `--same` may name
// (KnownRunKeys), the aliases of NormalizeKey, which keys pairing ignores,
// which keys may be a table column, and the chart axes with their labels.
//
// Adding a flag: a field in BenchConfig (its initializer is the default), one
// entry in BenchFlags() (engine/bench_flags.cc), and the engine code that
// uses it.
#ifndef MOELOG_ENGINE_BENCH_FLAGS_H_
#define MOELOG_ENGINE_BENCH_FLAGS_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/bench_config.h"

namespace moelog::engine {

// The BenchConfig field a flag sets; monostate for run-level keys.
using FlagField = std::variant<std::monostate, int64_t BenchConfig::*, double BenchConfig::*,
                               std::string BenchConfig::*, bool BenchConfig::*>;

// How pairing and grouping treat the key.
enum class Pairing {
  kCompared,   // two runs with different values are different experiments
  kIgnored,    // output and process settings, repetition counts, expanded sweep lists
  kFollows,    // follows another key (FlagSpec::follows): varied with it, never alone
};

// What the cache key (CanonicalConfigJson) holds of the flag.
enum class CacheRole {
  kValue,      // its value (for topk, null_route_frac, devices: the one the run uses),
               // unless the target says the key is not its own (Target::foreign_keys)
  kWhenSet,    // its value when it differs from the default (older cache keys stay valid)
  kNone,       // nothing: it does not change what is measured or modeled
};

enum class AxisKind { kNone, kNumeric, kCategorical };

// A chart axis: numeric axes are tried as x before categorical ones, each in
// `rank` order; `label` names it under the axis ("" : the key itself).
struct FlagAxis {
  AxisKind kind = AxisKind::kNone;
  int rank = 0;
  const char* label = "";
};

struct FlagSpec {
  const char* key;                         // run key: "mlp_dim"
  const char* flag = "";                   // "--mlp-dim"; "" : no command-line flag
  FlagField field = {};                    // what the flag sets (its type and default)
  const char* help = "";                   // `moelog bench --help`
  std::vector<std::string> choices = {};   // allowed values; empty: any
  const char* alias = "";                  // short name NormalizeKey accepts ("pass")
  Pairing pairing = Pairing::kCompared;
  const char* follows = "";                // Pairing::kFollows: the key it follows
  bool column = true;                      // may be a table column (never when ignored)
  FlagAxis axis = {};
  CacheRole cache = CacheRole::kValue;
};

// Every run key, in the order `moelog bench --help` lists the flags.
const std::vector<FlagSpec>& BenchFlags();

// The entry of a (normalized) run key; nullptr when none.
const FlagSpec* FindRunKey(const std::string& key);

// The chart axes of one kind, in rank order.
std::vector<std::string> AxisKeys(AxisKind kind);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_BENCH_FLAGS_H_
