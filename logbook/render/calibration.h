// Modeled figures as a logbook shows them: with the band of the model's past
// errors on their path, and calibrated by what the logbook itself recorded.
//
// A logbook's entries record measured figures; moelog places them on the
// rows of its tables (recorded.h). Each figure placed on a modeled row of a
// validated path is a look at how far the model reads from that day's
// harness: log(recorded/modeled). An entry's modeled rows are calibrated by
// the figures of the entries strictly before it with the same key (the
// harness and its revision, where the adapter knows one; else the harness
// and the day), shrunk toward 1 (engine/v5p/uncertainty.h ShrunkFactor).
// The entry's own figures and later entries' never inform it. The factor is
// applied where figures are shown; the store keeps the model's figure.
//
// A row on a path no seed measurement validated ("physics, unchecked",
// engine/v5p/coverage.h) is calibrated only by figures recorded on its own
// path: a per-(key, path) factor, its residual over the key's factor shrunk
// toward 0 with the path prior kPathTau. With no earlier figure on its path
// it stays uncalibrated; the key's factor alone never moves it, and its
// figures never inform the key's factor.
#ifndef MOELOG_LOGBOOK_RENDER_CALIBRATION_H_
#define MOELOG_LOGBOOK_RENDER_CALIBRATION_H_

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "engine/v5p/uncertainty.h"
#include "logbook/criteria/recorded.h"

namespace moelog::logbook {

struct TableRow;

// One recorded figure on a modeled row.
struct CalibrationSample {
  std::string entry;     // entry ID
  std::string when;      // the entry's "YYYY-MM-DD HH:MM"
  std::string key;       // the row's calibration key
  double log_ratio = 0;  // log(recorded/modeled throughput)
  std::string path;      // the row's unvalidated paths (UnvalidatedPathKey); "" on a validated path
  // The row's band as log ratios (log p10, log p90 of recorded/modeled);
  // both 0 when its path has none.
  double band_lo = 0, band_hi = 0;
  // Further outside the band than the band is wide: the figure is held out
  // of calibration until a second such figure agrees with it.
  bool Far() const;
};

// The sd of an unvalidated path's log factor around its key's factor (the
// prior of a path factor): the root mean square of the calibrated
// chronological median |error| of the four disjoint mlp_path paths in
// `moelog model validate` on data/seed_measurements.csv (2.38%, 6.72%,
// 2.66%, 5.24%), what a path keeps off its day's factor (docs/v5p-model.md).
inline constexpr double kPathTau = 0.046;

// The unvalidated paths of a configuration joined ("impl=fused_w13_preweight,
// ep_comm_path=ring_ag_rs"); "" on a validated path.
std::string UnvalidatedPathKey(const std::map<std::string, std::string>& config);

// The calibration key of a modeled run: "hillclimb: <revision>" when the
// adapter applied a harness revision, else "hillclimb: <day>".
std::string CalibrationKey(const std::string& harness, const std::string& revision, const std::string& day);

// The samples of one entry's table: each recorded figure placed on a single
// modeled row (status ok); TF/s where stated, else tokens/s. Undated
// entries give none.
// With `bands`, each sample carries its row's band.
std::vector<CalibrationSample> TableSamples(const std::vector<TableRow>& rows,
                                            const std::vector<RecordedFigure>& figures, const std::string& entry,
                                            const std::string& when,
                                            const engine::v5p::Uncertainty* bands = nullptr);

struct Calibration {
  double factor = 1;    // multiplies modeled throughput
  int n = 0;            // recorded figures behind it
  int entries = 0;
  int excluded = 0;     // figures too far from the model to learn from (ShrunkFactor)
  int held = 0;         // figures far outside their band that no second figure agrees with yet
  double log_sd = 0;    // the factor's uncertainty: posterior sd of its log
  double outlier = 0;   // the |log ratio| past which a figure is left out
  std::string key;
  std::string path;     // an unvalidated path calibrated on its own figures; "" for the key's factor
  std::string up_to;    // the latest entry time among them
  bool applied() const { return n > 0; }
  bool said() const { return n > 0 || excluded > 0 || held > 0; }
};

// The calibration of modeled rows with `key` in an entry at `when`: the
// samples of that key from entries strictly before `when` (never `when`'s
// own). For a configuration not yet in the logbook (the next entry), pass
// a `when` after every entry ("9999-12-31 23:59").
// With a non-empty `path`: the factor of that unvalidated path, learned
// from the earlier figures of (key, path) only, their log ratios over the
// key's factor shrunk toward it with sd kPathTau; not applied (n = 0) when
// the path has no earlier figure.
Calibration CalibrateFor(const std::vector<CalibrationSample>& samples, const std::string& key,
                         const std::string& when, const engine::v5p::ShrinkagePrior& prior,
                         const std::string& path = "");

// What a logbook's tables know about the model: its bands, whether to
// calibrate and the samples (per entry ID) the logbook's record gives.
struct ModelView {
  engine::v5p::Uncertainty bands;
  bool have_bands = false;
  bool calibrate = true;
  std::map<std::string, std::vector<CalibrationSample>> samples;  // by entry ID

  std::vector<CalibrationSample> AllSamples() const;
  // Learned once per (key, when); Learned() drops what was learned before
  // (call it after changing `samples`).
  Calibration For(const std::string& key, const std::string& when, const std::string& path = "") const;
  void Learned() { cache_.clear(); }

 private:
  mutable std::map<std::tuple<std::string, std::string, std::string>, Calibration> cache_;
};

// One modeled throughput as shown.
struct ModeledFigure {
  double uncalibrated = 0;
  double value = 0;        // uncalibrated * factor
  bool has_band = false;   // false on unvalidated paths
  double lo = 0, hi = 0;   // where the measurement is expected (value * band)
};
ModeledFigure Calibrated(double modeled_throughput, const Calibration& cal, const engine::v5p::ErrorBand& band);

// A modeled run as shown: its throughputs and time calibrated for `key` at
// `when` (view.For), and its band as metrics "band_lo"/"band_hi" when its
// path is validated (charts draw them as error bars).
void ShowModeled(const ModelView& view, const std::string& key, const std::string& when, StoredRun* run);

// "calibrated on 12 recorded figures of entries up to 2026-02-09 14:51: x0.930 (3 entries, hillclimb: 2026-02-09)";
// on an unvalidated path "calibrated on 5 recorded figures of this path (impl=...) in entries up to ...: x1.070 (...)"
std::string CalibrationText(const Calibration& c);
// The factor as a table's caption gives it, with its uncertainty and the
// figures behind it: "x0.992 ± 0.021 (4 figures)", with the path for a
// path's own factor: "x1.040 ± 0.046 (2 figures, quant_mode=int8)".
std::string CalibrationShort(const Calibration& c);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RENDER_CALIBRATION_H_
