// StoredRun: the view of one stored benchmark run that criteria, comparisons
// and charts work on. It is deliberately flat (strings and numbers) so the
// same code serves runs read from the SQLite run store, runs recorded in a
// logbook's Result text, and hand-built runs in tests.
#ifndef MOELOG_LOGBOOK_STORED_RUN_H_
#define MOELOG_LOGBOOK_STORED_RUN_H_

#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "logbook/numbers.h"

namespace moelog::logbook {

struct StoredRun {
  std::string id;                              // run ID ("r42"), unique in the store
  std::map<std::string, std::string> config;   // effective per-run config: key -> value
                                               // (keys as in CanonicalConfigJson, one
                                               // value per swept axis: "topk" -> "2")
  std::map<std::string, double> metrics;       // "tflops" (TF/s), "tokens_per_s", "mean_s", ...
  std::string entry_id;                        // logbook entry that produced it ("" if none)
  std::string target;                          // cpu | v5p
  std::string host;                            // machine that produced it
  std::string cpu_isa;                         // cpu runs: "isa=avx2 bf16=f32-compute kernels=avx2"
  std::string source = "measured";             // measured | modeled | recorded
  // Recorded runs (source "recorded", read from a logbook's Result text, never
  // a row of the run store): where the figure is written, the unit of each
  // metric as written ("TF/s", "tokens/s", "ms", "GB/s", "%", "x"; time_s is
  // held in seconds whatever the unit), and the metrics that are derived from
  // other figures (speedups, deltas) rather than measured.
  std::string file;
  int line = 0;
  std::map<std::string, std::string> units;
  std::set<std::string> derived;
  // Recorded runs: the decimals each figure was written with in its unit
  // ("0.027212" -> 6, "21.050%" -> 3), so tables show the author's digits.
  // Absent when the written number is not the value in its unit ("3.5M").
  std::map<std::string, int> decimals;
  // Recorded runs: the metrics the author wrote as approximate ("~17.5",
  // "about 64.7M tok/s"): kept as recorded, shown with "~".
  std::set<std::string> approximate;
  // Recorded runs: the repeats a figure summarizes, as written ("no_vjp:
  // 191.837, 191.861, 191.897 TF/s"): the metric holds their median.
  std::map<std::string, std::vector<double>> repeats;
};

// Looks a key up in the config, also answering the run-level keys "target",
// "host", "entry" and "source". nullopt when the run has no such key.
std::optional<std::string> RunValue(const StoredRun& run, const std::string& key);

// True when two config values mean the same: equal strings, or both numbers
// that compare equal ("2" == "2.0"), or "true"/"false" against "1"/"0".
bool ValuesEqual(const std::string& a, const std::string& b);

// The run keys are declared in engine/bench_flags.cc (engine::BenchFlags);
// these answer from that table.

// Keys that never distinguish two runs when pairing or grouping them: output
// and process settings (json, threads, trace_dir, quiet_ranks, check_numerics),
// repetition counts (iters, warmup), and sweep lists that were expanded into
// per-run values (topk_list, null_route_frac_list, null_route_sweep).
bool IsIgnoredForPairing(const std::string& key);

// The key `key` follows ("parallel_mode" for devices and mesh: none runs on
// one device), "" for the others. A key that follows a varied key is varied
// with it, never on its own.
std::string FollowedKey(const std::string& key);

// Normalizes a user-written key: dashes become underscores, lower case, and
// the aliases (pass -> bench_pass, parallel -> parallel_mode, quant ->
// quant_mode, remat -> remat_mode, routing -> routing_pack_strategy,
// shared -> shared_expert_dim, null_frac -> null_route_frac, queue -> queue_mode).
std::string NormalizeKey(const std::string& key);

// True when `key` (normalized) names a key of moelog's runs: every flag of
// `moelog bench`.
bool IsKnownRunKey(const std::string& key);
const std::set<std::string>& KnownRunKeys();

// The keys a predicate, --where, --series or --same may name for one
// logbook: moelog's run keys plus the keys its recorded figures use (a
// harness moelog has no adapter for names its own: num_devices,
// implementations, harness, accelerator). A value, made per logbook by
// RecordedKeys (logbook/criteria/recorded.h); the default holds moelog's keys
// only. `any`: every key (a generic harness's Config words).
struct RunKeys {
  std::set<std::string> recorded;
  bool any = false;
  bool Has(const std::string& key) const { return any || IsKnownRunKey(key) || recorded.count(key) > 0; }
  std::set<std::string> Names() const;  // for "valid: ..." lists
};

// The metrics every run reports (tflops, tokens_per_s, time_s, mfu, ...).
const std::set<std::string>& KnownMetrics();

// "a, b, c": for error messages that list the valid names.
std::string JoinKeys(const std::set<std::string>& keys);



}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_STORED_RUN_H_
