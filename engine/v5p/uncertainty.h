// How sure the v5p model is, and how a logbook's own record corrects it.
//
// Bands: each validated path (an mlp_profile program; the hillclimb harness
// on one chip, under compact EP, under dense-masked EP) carries the 10th and
// 90th percentiles of its past errors, as the ratio measured/modeled
// throughput, from `moelog model validate` (chronological error where enough
// rows have it: the model fitted on entries before each entry predicts it).
// A/B differences carry the band of within-entry ratios instead: the error of
// the modeled ratio of two configurations of one entry, where a factor the
// whole entry shares cancels. The bands are data (data/v5p_bands.json, written
// by `moelog model validate --bands-out`), shipped beside the parameters.
// Paths no calibration row covers (coverage.h) have no band.
//
// Calibration: a factor the earlier entries' recorded figures teach, shrunk
// toward 1 (a normal prior on its logarithm, sd `tau`: how far a harness
// revision or a day moves every figure) with each entry's figures counted as
// one noisy look at it (an entry's own factor, sd `sigma_entry`, plus the
// scatter of its figures, sd `sigma_within`): few figures move it little.
#ifndef MOELOG_ENGINE_V5P_UNCERTAINTY_H_
#define MOELOG_ENGINE_V5P_UNCERTAINTY_H_

#include <map>
#include <string>
#include <vector>

#include "engine/status.h"

namespace moelog::engine::v5p {

// The interval of measured/modeled throughput on one path: the shown
// throughput F is expected in [F*lo, F*hi] (its time in [t/hi, t/lo]).
struct ErrorBand {
  bool validated = false;  // false: an unvalidated path, no band
  double lo = 1, hi = 1;
  int n = 0;               // past errors behind it
  std::string path;        // the path it belongs to ("parallel_mode=ep, ep_dispatch=compact")
  std::string method;      // "chronological" | "leave-one-entry-out"
};

struct ShrinkagePrior {
  double tau = 0.10;          // sd of log factor across harness revisions / days (prior)
  double sigma_entry = 0.03;  // sd of one entry's own log factor around its revision's
  double sigma_within = 0.02; // sd of one figure's log error around its entry's factor
};

struct Uncertainty {
  std::vector<ErrorBand> paths;  // per validated path
  ErrorBand all;                 // every validated row, for a validated path with too few rows of its own
  // The wide prior of a path no calibration row took: the 10th and 90th
  // percentiles of the model's error on each path when the fit leaves that
  // path's rows out (leave-one-path-out). validated=false when the file
  // has none (then UnvalidatedPrior widens `all`).
  ErrorBand unvalidated;
  double within_entry = 0;       // |log error| of a within-entry ratio, 80th percentile
  int within_entry_pairs = 0;
  ShrinkagePrior prior;
  std::string source;            // the file read
};

// The path label BandFor groups a configuration by (canonical config keys,
// as stored: "mlp_path", "parallel_mode", "ep_dispatch").
std::string BandPath(const std::map<std::string, std::string>& config);

// The band of a modeled configuration: validated=false (and no interval)
// when it takes a path no calibration row covers (UncalibratedPaths).
ErrorBand BandFor(const Uncertainty& u, const std::map<std::string, std::string>& config);

// The interval of a configuration on a path no calibration row took: the
// file's leave-one-path-out band, else `all` widened threefold around 1.
// Never a point: lo < 1 < hi.
ErrorBand UnvalidatedPrior(const Uncertainty& u);

// Whether a modeled ratio a/b (two configurations of one entry) is inside
// the within-entry band: the model cannot tell the two apart.
bool WithinRatioBand(const Uncertainty& u, double ratio);

// data/v5p_bands.json (ResolveDataFile, like the parameters) or a path.
Result<Uncertainty> LoadUncertaintyByName(const std::string& name_or_path);
Result<Uncertainty> LoadUncertainty(const std::string& path);
std::string UncertaintyToJson(const Uncertainty& u, const std::string& about);

// One recorded figure's log(recorded/modeled throughput), with the entry it
// belongs to (the entry's figures share a factor).
struct FactorSample {
  std::string entry;
  double log_ratio = 0;
};
struct Factor {
  double factor = 1;    // multiplies modeled throughput (divides time)
  int n = 0;            // figures behind it
  int entries = 0;
  int excluded = 0;     // figures further than kOutlierTaus * tau from the model, left out
  double log_sd = 0;    // posterior sd of log(factor): the factor's own uncertainty
};
// A figure further from the model than this many prior sds (4 x 0.10: a
// factor outside 0.67..1.49) is not the drift of a harness revision but
// another setup (other hardware, a CPU smoke test, a mislabelled figure):
// it is left out, not learned from.
inline constexpr double kOutlierTaus = 4.0;
// The posterior mean of exp(log factor) under the prior: each entry's mean
// log ratio m_j weighs 1/(sigma_entry^2 + sigma_within^2/n_j) against the
// prior's 1/tau^2. No samples: factor 1.
Factor ShrunkFactor(const std::vector<FactorSample>& samples, const ShrinkagePrior& prior);

// Quantile (linear interpolation) of a list; 0 for an empty one.
double Quantile(std::vector<double> v, double q);

}  // namespace moelog::engine::v5p

#endif  // MOELOG_ENGINE_V5P_UNCERTAINTY_H_
