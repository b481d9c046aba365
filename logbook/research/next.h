// `moelog next`: proposes a logbook's next experiments. It reads the runs
// (measured, recorded and modeled), takes the shape of the latest entry's
// best run, and searches the configurations of the hillclimb harness around
// the best configuration measured or recorded at that shape: the keys
// researchers vary (parallel mode, EP collective path, routing pack
// strategy, queue mode, remat, backend, impl, quantization, fused shared
// expert, dispatch permutation, custom sort VJP), the shape held unless the
// Scope frees some of its keys (ScopeFreedShapeKeys). Each
// configuration is predicted with the v5p model; the routing is computed
// once per shape and shared by every configuration of it, so 10^5
// configurations take well under a second (tests/bench/next_search_bench.cc).
//
// The model is calibrated on the logbook: the recorded figures on validated
// paths of the anchor's harness revision give a factor (recorded/modeled,
// shrunk toward 1: engine/v5p/uncertainty.h ShrunkFactor). Each proposal
// carries the calibrated figure and its interval (the path's band of past
// errors, p10..p90, data/v5p_bands.json), its gain over the best
// configuration measured or recorded (both figures the model's own, so the
// model's bias cancels), the stage that dominates its
// time, the unmet criterion it would meet, and whether its path is
// validated. Validated proposals rank by expected improvement over the best
// (a wide interval on a promising path counts); proposals on paths no
// calibration row took are exploration, listed apart with the prior's
// interval (PriorBand, compounded per unvalidated key), fewest changed keys
// first, then by the interval's lower end (next_internal.h RankExploration).
#ifndef MOELOG_LOGBOOK_RESEARCH_NEXT_H_
#define MOELOG_LOGBOOK_RESEARCH_NEXT_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/bench_config.h"
#include "engine/status.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/params.h"
#include "logbook/criteria/criteria.h"
#include "logbook/doc/document.h"
#include "logbook/research/next_steps.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// One key the search varies and the values it tries.
struct SearchAxis {
  std::string key;
  std::vector<std::string> values;
};
// The harness keys researchers vary (the shape is never among them).
std::vector<SearchAxis> DefaultSearchAxes();

// The shape keys the logbook's Scope frees ("- What may vary: top-k and
// experts", "- Free to vary: `topk` in {2,4,8}", "The shape may vary"), each
// with the values the bullet lists for it (empty: none listed). A bullet
// counts when it says a thing may, can or is free to vary ("may not vary",
// "never varies" do not); what follows "except", "but" or "other than" in it
// stays held. Shape keys: tokens, hidden, mlp_dim, experts, topk,
// shared_expert_dim, bench_pass, distribution, dtype ("shape" names them
// all). One bounded pass over each Scope bullet.
std::map<std::string, std::vector<std::string>> ScopeFreedShapeKeys(const Logbook& logbook);

// A configuration the model predicted.
struct Candidate {
  std::map<std::string, std::string> changes;  // key -> value where it differs from the anchor
  double time_s = 0;
  double tflops = 0, tokens_per_s = 0;
  std::string dominant;                        // "expert_up (MXU)"
  std::vector<std::string> unvalidated;        // paths no calibration row took ("quant_mode=int8")
  bool oom = false;
  bool skips_work = false;                     // the harness skips part of the pass (int8 routed fwd+bwd)
};

// Every combination of `axes` applied to `anchor` (combinations whose keys
// cannot matter -- EP keys without EP, remat without a backward pass, a
// fused shared expert without one -- are tried once), predicted on `hw` with
// `params`. The routing is built once. InvalidArgument when the anchor does
// not validate; combinations the harness refuses are skipped. `tried`
// receives the number predicted.
Result<std::vector<Candidate>> SearchConfigs(const engine::BenchConfig& anchor, const std::vector<SearchAxis>& axes,
                                             const engine::v5p::Hardware& hw, const engine::v5p::ModelParams& params,
                                             int* tried = nullptr);

// The model's figure for one configuration (the same routing as SearchConfigs).
Result<Candidate> PredictConfig(const engine::BenchConfig& config, const engine::v5p::Hardware& hw,
                                const engine::v5p::ModelParams& params);

// A run's config as the harness config it stands for (target v5p).
Result<engine::BenchConfig> ConfigOfRun(const StoredRun& run);

struct Proposal {
  Candidate candidate;
  engine::BenchConfig config;  // the anchor with the candidate's changes
  double uncalibrated = 0;   // primary metric, the model's figure
  double predicted = 0;      // the same, calibrated (x NextReport::factor)
  double lo = 0, hi = 0;     // where a measurement is expected (the path's p10-p90 band; validated paths)
  double band = 0;           // relative half-width of the interval (0: none)
  double gain_pct = 0;       // over the best configuration, both by the model
  double expected_improvement = 0;  // in the metric's units
  std::string serves;        // the unmet criterion it would meet ("" none)
  int serves_line = 0;
  // Exploration (a path no calibration row took): the interval is the wide
  // prior of the model's error on a path it was not fitted on, never a point.
  bool exploration = false;
  bool figured = true;       // the model gave a figure (criteria and record steps may have none)
  bool harness = true;       // `config` is the hillclimb harness's (the command is written from it)
  Step step;                 // criteria and record steps: where it starts and what it completes
};

// The prior of the model's error (measured/modeled) on a path it was not
// fitted on, per unvalidated key.
struct PriorBand {
  double lo = 1, hi = 1;
  double history_lo = 1, history_hi = 1;  // the logbook's first measurements of a path
  int history = 0;                        // how many
};

struct NextOptions {
  int count = 5;
  std::string entry;         // the entry whose shape to search ("" = latest with runs)
  std::string params_name;   // v5p parameter file ("" default)
  std::string_view text;     // the logbook's text (for the predicates read from prose; may be empty)
};

struct NextReport {
  std::string metric = "tflops";  // tflops | tokens_per_s
  std::string shape;              // "tokens=32768 hidden=2048 ..."
  std::string anchor_entry;
  std::string best_run;           // run ID of the best measured/recorded config at the shape
  std::string best_kind;          // measured | recorded | modeled (nothing better known)
  double best_figure = 0;         // its figure as stored
  double best_modeled = 0;        // the model's (calibrated) figure for the best configuration at the shape
  double factor = 1;              // calibration: recorded / modeled, shrunk toward 1
  int factor_figures = 0, factor_entries = 0;
  std::string bands;              // the band file read ("" none)
  int compared = 0;               // measured/recorded configurations at the shape the model figured
  engine::BenchConfig anchor;
  int searched = 0;
  double search_s = 0;
  std::vector<Proposal> criteria;  // runs that complete unmet criteria: proposed first
  std::vector<Proposal> validated, unvalidated;
  std::vector<Proposal> record;    // without the model: untried neighbours of the best recorded figure
  std::string record_metric;
  bool searched_model = false;     // the harness's runs gave the model a start
  std::string none_why;           // no validated proposal beats the best: why
  std::map<std::string, std::vector<std::string>> freed;  // shape keys the Scope frees -> values searched
  int shapes = 1;                 // shapes searched (the anchor's, plus the freed keys' values)
  PriorBand prior;                // exploration's prior per unvalidated key
};

// The report for a logbook. `runs`: LogbookRuns (recorded included);
// `criteria`: its Stop Criteria (the unmet ones give the first proposals).
// A logbook with no run the model can start from (another harness, a GPU
// logbook) still gets the criteria's steps and the record's; only an
// --entry that has no such run is NotFound.
Result<NextReport> ProposeNext(const Logbook& logbook, const std::vector<StoredRun>& runs,
                               const std::vector<Criterion>& criteria, const NextOptions& options);

std::string FormatNextReport(const NextReport& report);

// The proposal --write writes: the first criteria step, else the first
// validated proposal, else the first exploration, else the first record
// step; nullptr when there is none.
const Proposal* FirstProposal(const NextReport& report);

// `text` with a new entry appended after the last entry for the first
// proposal: the logbook's next ID, a Hypothesis stating the prediction or
// the criterion it completes, the Command in the form of the command that
// ran its base run (same launcher, the proposal's flags; the hillclimb
// harness's loops resolved), Config, `Result: pending`. The text is parsed
// back and compared with the entry meant (entry_writer.h): InvalidArgument
// naming the difference when it would not read back so. NotFound only when
// there is no proposal.
Result<std::string> AppendProposalEntry(const Logbook& logbook, std::string_view text, const NextReport& report,
                                        const std::string& now, std::string* new_id);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RESEARCH_NEXT_H_
