// A/B comparisons of stored runs, and the Baseline section's numbers.
//
// Pairing: a run is on side A when it matches every A assignment, on side B
// when it matches every B assignment. A and B runs are paired when they agree
// on every `same` key, or (without `same`) on every other config key except
// repetition and output settings (iters, warmup, threads, json, ...) and the
// target. Runs of one side at one control setting are repeats: the table
// shows their median, the spread (min..max) and marks a delta "within noise"
// when the two sides' ranges overlap. A modeled (v5p) side is one sample
// however often it was stored: "model: no noise".
#ifndef MOELOG_LOGBOOK_COMPARE_H_
#define MOELOG_LOGBOOK_COMPARE_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"
#include "logbook/reader/config_words.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

using Assignments = std::vector<std::pair<std::string, std::string>>;

// Parses "key=value[,key=value...]" (keys normalized with NormalizeKey).
// InvalidArgument naming `flag` for a missing '=', an empty or unknown key.
Result<Assignments> ParseAssignments(const std::string& text, const std::string& flag, const RunKeys& keys = {});

struct CompareOptions {
  Assignments a, b;
  std::vector<std::string> same;     // control keys; empty = every other key
  std::string metric = "tflops";
  // |log| of a modeled A/B ratio under which the model cannot tell the two
  // apart (engine/v5p/uncertainty.h within_entry); negative: not judged.
  double ratio_band = -1;
};

struct SideStats {
  std::vector<std::string> ids;
  double median = 0, min = 0, max = 0;
  std::string hosts, targets;  // distinct values joined by '/'
  std::string isas;            // cpu runs' ISA and bf16 path, distinct values joined by '/'
  bool deterministic = false;  // every run modeled (v5p): one sample, whatever was stored
  std::vector<std::string> unvalidated;  // modeled runs' paths no calibration row covers ("quant_mode=int8")
};

struct ComparisonRow {
  std::map<std::string, std::string> controls;  // the control setting (keys that vary across rows)
  SideStats a, b;
  double delta_pct = 0;       // (b.median - a.median) / a.median * 100
  bool has_repeats = false;   // some side has 2+ runs on one host and CPU path (real repeats)
  bool within_noise = false;  // repeats exist and the min..max ranges overlap
  bool deterministic = false; // both sides modeled: "model: no noise", never "outside noise"
  // Both sides modeled on validated paths and the modeled ratio inside the
  // A/B band: "the model cannot tell these apart".
  bool model_indistinct = false;
  std::vector<std::string> warnings;  // different hosts, targets or CPU ISAs between A and B
};

struct Comparison {
  std::string metric;
  std::vector<std::string> row_keys;  // control keys that differ between rows (table columns)
  // The shape and scale keys (accelerator, devices, tokens, hidden, ...)
  // that are the same on every row: each row states them in its "shape" cell.
  std::vector<std::string> shape_keys;
  std::vector<ComparisonRow> rows;
  int unpaired_a = 0, unpaired_b = 0;  // runs of a side with no partner
};

// Pairs the runs. NotFound when a side matches no run.
Result<Comparison> CompareRuns(const std::vector<StoredRun>& runs, const CompareOptions& options);

// The comparison as a Markdown table plus warning lines, e.g.
//   | topk | A: quant_mode=none (TF/s) | B: quant_mode=int8 (TF/s) | delta (B vs A) | n A/B | note |
std::string RenderComparison(const Comparison& c, const CompareOptions& options);

// A number from the Baseline section with the config it was stated for.
struct BaselineNumber {
  std::map<std::string, std::string> config;  // from `k=v` text (shape lines, labels)
  std::string metric;                          // tflops | tokens_per_s
  double value = 0;
  int line = 0;
};

// The Baseline section's figures. Config comes from `key=value` words in the
// bullet, its ancestors and its number-free siblings (a "shape: `...`" line);
// aliases as in NormalizeKey (parallel=ep, pass=..., routing=...), a bare
// known flag word (shared_fused) means true. The metric comes from the unit
// after the number (TF/s, tokens/s, tok/s) or the label before it ("TF/s:").
std::vector<BaselineNumber> ParseBaseline(const Logbook& logbook);

// The baseline figure for a run: the one of `metric` whose every config key
// agrees with the run, preferring the most keys. nullopt when none agrees.
std::optional<BaselineNumber> MatchBaseline(const std::vector<BaselineNumber>& baseline, const StoredRun& run,
                                            const std::string& metric);

// Percent change of `value` against `base` ("+2.30%", "-24.2%" style
// rounding is the caller's); REQUIRES: base != 0.
double DeltaPercent(double value, double base);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_COMPARE_H_
