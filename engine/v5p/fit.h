// Calibration of the v5p model: reading measured rows (the seed CSV format),
// fitting the efficiencies/overheads (Levenberg-Marquardt on log time with a
// ridge toward the priors and box bounds), and validating in-sample and under
// grouped cross-validation. Only `moelog model fit|validate` read the CSV; a
// prediction never consults measured values.
#ifndef MOELOG_ENGINE_V5P_FIT_H_
#define MOELOG_ENGINE_V5P_FIT_H_

#include <map>
#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/status.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/model.h"
#include "engine/v5p/params.h"
#include "engine/v5p/uncertainty.h"

namespace moelog::engine::v5p {

// One measured run, converted to seconds per call.
struct Measurement {
  std::string id;        // CSV id, e.g. S2-057
  std::string entry;     // logbook entry heading (the CV group)
  std::string family;    // shape family "T=..,D=..,E=.."
  std::string logbook;   // the logbook it was recorded in (CSV seed_file; "" when the CSV has none)
  std::string when;      // the entry's "YYYY-MM-DD HH:MM" (from its heading), "" when the heading has none
  std::string harness;   // hillclimb | mlp_profile
  std::string cal_key;   // what calibration groups it by: harness and revision, else harness and day
  std::string metric;    // tflops | tokens_per_s | time_s
  double value = 0;      // as measured
  double time_s = 0;     // measured seconds per call
  BenchConfig config;
  RunPoint point;
  ModelCase model_case;  // built with the engine's routing
};

// Reads the hillclimb rows of a measurements CSV (header as in
// data/seed_measurements.csv) with metric tflops, tokens_per_s or time_s.
// Rows marked dup_of= and the second metric of the same run in the same entry
// are skipped. Missing config fields take the harness defaults the CSV notes
// document: backend gmm, impl fused_w13, parallel_mode none, pack argsort,
// queue full, quant none, remat none, distribution random, null 0, seed 0,
// shared_fused false, bf16. Routing comes from the engine (cached per shape).
Result<std::vector<Measurement>> LoadMeasurements(const std::string& csv_path, const Hardware& hw);

struct FitOptions {
  double prior_weight = 0.05;  // ridge weight per parameter, in log space
  int max_iters = 60;
  double calibration_tau = 0.10;  // prior sd of the log calibration factor (uncertainty.h)
};

struct FitResult {
  ModelParams params;
  int iterations = 0;
  double rms_log_error = 0;
  int rows = 0;
};

// Fits the parameters to `rows` (all of them, or the subset whose index has
// include[i] == true when `include` is non-empty), starting from `start`.
FitResult Fit(const Hardware& hw, const std::vector<Measurement>& rows, const ModelParams& start,
              const FitOptions& options, const std::vector<bool>& include = {});

// Relative errors (pred/meas - 1) of a set of predictions.
struct ErrorSummary {
  int n = 0;
  double mape = 0, median_abs = 0, p90_abs = 0, max_abs = 0;
};
ErrorSummary Summarize(const std::vector<double>& rel_errors);

struct ValidationReport {
  std::vector<double> predicted_s;     // in-sample, per row
  std::vector<double> cv_entry_s;      // leave-one-entry-out, per row
  std::vector<double> cv_family_s;     // leave-one-family-out, per row
  std::vector<double> cv_path_s;       // leave-one-path-out (BandPath), per row: the error on an unfitted path
  // Chronological: each entry predicted by the fit on the entries before it
  // (NaN for rows of the first entries, with too little before them, and of
  // entries with no time). The way the model is used: fitted on the past.
  std::vector<double> cv_chrono_s;
  // Leave one logbook out (NaN everywhere when one logbook has data).
  std::vector<double> cv_logbook_s;
  // Leave-one-entry-out, then calibrated as a logbook would be: by the
  // factor earlier entries of the same harness revision (or day) teach
  // (their leave-one-entry-out errors, shrunk toward 1 as ShrunkFactor).
  std::vector<double> cal_entry_s;
  std::vector<double> cal_chrono_s;  // the chronological predictions, calibrated the same way
  ErrorSummary in_sample, cv_entry, cv_family, cv_chrono, cv_logbook, cal_entry, cal_chrono;
  int logbooks = 0;
};

// Runs the in-sample prediction with `params` and both grouped CVs (refitting
// from the priors without the held-out group each time).
ValidationReport Validate(const Hardware& hw, const std::vector<Measurement>& rows, const ModelParams& params,
                          const FitOptions& options);

// Chronological CV needs this many rows fitted before an entry is predicted.
inline constexpr int kMinChronoTrainRows = 30;

// The bands of data/v5p_bands.json from a validation (uncertainty.h): per
// path, the 10th/90th percentiles of measured/modeled throughput under the
// chronological CV when the path has 8 such rows, else under leave one entry
// out; the within-entry ratio band from leave-one-entry-out predictions; the
// calibration prior's entry and figure scatter from the leave-one-entry-out
// errors (tau stays the physical prior given).
Uncertainty MakeUncertainty(const std::vector<Measurement>& rows, const ValidationReport& report, double tau);

// The chronological CV's predictions (ValidationReport::cv_chrono_s).
std::vector<double> ChronologicalCv(const Hardware& hw, const std::vector<Measurement>& rows,
                                    const FitOptions& options);
// `pred_s` divided by the factor the rows of earlier entries with the same
// calibration key teach (their own pred_s against their measurement; NaN
// predictions are skipped and stay NaN).
std::vector<double> CalibrateChronologically(const std::vector<Measurement>& rows, const std::vector<double>& pred_s,
                                             const ShrinkagePrior& prior);
// The calibration prior with the given tau and the scatter of the entries'
// mean log errors (sigma_entry) and of rows around them (sigma_within)
// under `pred_s`.
ShrinkagePrior EstimatePrior(const std::vector<Measurement>& rows, const std::vector<double>& pred_s, double tau);
// Summarize over the rows whose prediction is finite.
ErrorSummary SummarizeFinite(const std::vector<Measurement>& rows, const std::vector<double>& pred_s);
// The canonical config keys of a row as the store would hold them (the keys
// BandPath and UncalibratedPaths read).
std::map<std::string, std::string> ConfigMap(const BenchConfig& c);

// Error by path: for each key researchers vary (backend, impl, EP comm
// path, quant mode, capacity policy, pass) and each of its values in the
// rows, the number of rows and the median |error| in-sample and under
// leave-one-entry-out CV.
struct PathError {
  std::string key, value;
  int n = 0;
  double median_in = 0, median_cv = 0;
  int n_chrono = 0;
  double median_chrono = 0, median_cal = 0;  // chronological; chronological calibrated
};
std::vector<PathError> ErrorsByPath(const std::vector<Measurement>& rows, const ValidationReport& report);

// How the model ranks the configurations of one logbook entry (three or more
// rows): Spearman's rank correlation between the measured figures and the
// model's (leave-one-entry-out: the entry's own rows are not in the fit), and
// whether the model's best configuration is the measured best. Figures are
// throughputs (higher is better); time rows rank by 1/time.
// Configurations the model figures equal (to 1e-9) to its best are its pick
// together. When the model's pick is another configuration, `best_gap` is
// how far the pick's measured figure falls below the measured best; within
// `tolerance` (the measurements' own replicate spread, ReplicateSpread) the
// two cannot be told apart by measurement, and `best_tie` is set.
struct EntryRanking {
  std::string entry;
  int n = 0;
  double rho = 0;
  bool best_matches = false;
  bool best_tie = false;
  double best_gap = 0;
};
std::vector<EntryRanking> RankByEntry(const std::vector<Measurement>& rows, const std::vector<double>& predicted_s,
                                      double tolerance = 0.0);

// The run-to-run spread of the measurements: over every configuration
// measured more than once (the same harness config in any entry), its
// max/min - 1; the 90th percentile of those (one noisy rerun does not set
// it). 0 when nothing was measured twice.
double ReplicateSpread(const std::vector<Measurement>& rows);
// Spearman's rank correlation of two equally long lists (ties: mean ranks);
// 1 when either list is constant and the other too, 0 when only one is.
double SpearmanRho(const std::vector<double>& a, const std::vector<double>& b);

// Text report: one line per row (measured and predicted seconds, error
// in-sample and under both CVs), then MAPE / median / p90 / max per mode.
std::string FormatValidation(const std::vector<Measurement>& rows, const ValidationReport& report);

// JSON object text describing a fit (CSV, rows, rms log error, in-sample errors).
std::string FitInfoJson(const std::string& csv_path, const FitResult& fit, const ErrorSummary& in_sample);

}  // namespace moelog::engine::v5p

#endif  // MOELOG_ENGINE_V5P_FIT_H_
