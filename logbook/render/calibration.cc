#include "logbook/render/calibration.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "engine/target.h"
#include "engine/v5p/coverage.h"
#include "logbook/render/render_table.h"

namespace moelog::logbook {

std::string CalibrationKey(const std::string& harness, const std::string& revision, const std::string& day) {
  const std::string h = harness.empty() ? std::string("moelog") : harness;
  return h + ": " + (!revision.empty() ? revision : day.empty() ? std::string("(undated)") : day);
}

namespace {
// The figures a table shows agree (to 1e-6).
bool SameFigures(const TableRow& a, const TableRow& b) {
  for (const char* k : {"time_s", "tflops", "tokens_per_s"}) {
    auto x = a.metrics.find(k), y = b.metrics.find(k);
    if ((x == a.metrics.end()) != (y == b.metrics.end())) return false;
    if (x != a.metrics.end() && !(std::fabs(x->second - y->second) <= 1e-6 * std::fabs(x->second))) return false;
  }
  return true;
}
}  // namespace

std::string UnvalidatedPathKey(const std::map<std::string, std::string>& config) {
  std::string out;
  for (const std::string& p : engine::v5p::UncalibratedPaths(config)) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::vector<CalibrationSample> TableSamples(const std::vector<TableRow>& rows,
                                            const std::vector<RecordedFigure>& figures, const std::string& entry,
                                            const std::string& when, const engine::v5p::Uncertainty* bands) {
  std::vector<CalibrationSample> out;
  if (when.empty() || figures.empty()) return out;
  std::vector<std::map<std::string, std::string>> configs;
  configs.reserve(rows.size());
  for (const auto& r : rows) configs.push_back(r.config);
  // Modeled rows with identical figures: a figure that fits several of them
  // (names no distribution where the model gives random and runs the same
  // figure) is compared with that one figure. The table keeps the rows apart
  // and lists such a figure with the model's figure beside it.
  std::vector<int> group(rows.size());
  std::vector<size_t> first_of;  // group -> its first row
  for (size_t i = 0; i < rows.size(); ++i) {
    group[i] = static_cast<int>(first_of.size());
    for (size_t g = 0; g < first_of.size(); ++g) {
      const TableRow& o = rows[first_of[g]];
      if (o.target == rows[i].target && o.status == rows[i].status && SameFigures(o, rows[i]) &&
          o.cal_key == rows[i].cal_key) {
        group[i] = static_cast<int>(g);
        break;
      }
    }
    if (group[i] == static_cast<int>(first_of.size())) first_of.push_back(i);
  }
  // A figure that names its row is a figure of that row, even when other
  // rows of its group hold figures too; only a figure that fits several rows
  // falls back to their group.
  const std::vector<FigurePlacement> by_row = PlaceFigures(figures, configs);
  const std::vector<FigurePlacement> by_group = PlaceFigures(figures, configs, group);
  for (size_t i = 0; i < figures.size(); ++i) {
    size_t at = 0;
    if (by_row[i].row >= 0)
      at = static_cast<size_t>(by_row[i].row);
    else if (by_group[i].row >= 0)
      at = first_of[static_cast<size_t>(by_group[i].row)];
    else
      continue;
    const TableRow& r = rows[at];
    if (!engine::IsModeledTarget(r.target) || r.status != "ok") continue;
    for (const char* metric : {"tflops", "tokens_per_s"}) {
      const auto rec = figures[i].run.metrics.find(metric);
      const auto mod = r.metrics.find(metric);
      if (rec == figures[i].run.metrics.end() || mod == r.metrics.end()) continue;
      if (!(rec->second > 0) || !(mod->second > 0) || !std::isfinite(rec->second) || !std::isfinite(mod->second))
        continue;
      out.push_back({entry, when, r.cal_key, std::log(rec->second / mod->second), UnvalidatedPathKey(r.config)});
      if (bands != nullptr)
        if (const engine::v5p::ErrorBand b = engine::v5p::BandFor(*bands, r.config); b.validated) {
          out.back().band_lo = std::log(b.lo);
          out.back().band_hi = std::log(b.hi);
        }
      break;  // one figure set is one run: TF/s, else tokens/s
    }
  }
  return out;
}

bool CalibrationSample::Far() const {
  const double width = band_hi - band_lo;
  return width > 0 && (log_ratio > band_hi + width || log_ratio < band_lo - width);
}

namespace {
// The samples a factor learns from: a figure far outside its band (Far)
// only when another far figure on the same side agrees with it (within
// its band's width); the rest are held, counted in *held.
std::vector<CalibrationSample> Agreed(const std::vector<CalibrationSample>& samples, int* held) {
  std::vector<CalibrationSample> out;
  for (size_t i = 0; i < samples.size(); ++i) {
    const CalibrationSample& s = samples[i];
    bool keep = !s.Far();
    for (size_t j = 0; j < samples.size() && !keep; ++j)
      keep = j != i && samples[j].Far() && (samples[j].log_ratio > 0) == (s.log_ratio > 0) &&
             std::fabs(samples[j].log_ratio - s.log_ratio) <= s.band_hi - s.band_lo;
    if (keep) out.push_back(s);
    else ++*held;
  }
  return out;
}

// The factor of an unvalidated path: its figures' log ratios over the key's
// factor `base`, each entry's mean weighed as ShrunkFactor does, against a
// prior N(0, kPathTau^2) on the path's residual. Figures further than the
// key's outlier bound from the model are left out.
Calibration PathFactor(const std::vector<CalibrationSample>& samples, const Calibration& base,
                       const std::string& path, const engine::v5p::ShrinkagePrior& prior) {
  Calibration c;
  c.key = base.key;
  c.path = path;
  c.outlier = engine::v5p::kOutlierTaus * prior.tau;
  const double lb = std::log(base.factor);
  std::map<std::string, std::pair<double, int>> by_entry;  // sum, count
  for (const CalibrationSample& s : samples) {
    if (!std::isfinite(s.log_ratio)) continue;
    if (std::fabs(s.log_ratio) > c.outlier) {
      ++c.excluded;
      continue;
    }
    auto& e = by_entry[s.entry];
    e.first += s.log_ratio - lb;
    ++e.second;
    if (s.when > c.up_to) c.up_to = s.when;
  }
  double precision = 1.0 / (kPathTau * kPathTau), weighted = 0;
  for (const auto& [entry, sc] : by_entry) {
    const double var = prior.sigma_entry * prior.sigma_entry + prior.sigma_within * prior.sigma_within / sc.second;
    precision += 1.0 / var;
    weighted += (sc.first / sc.second) / var;
    c.n += sc.second;
    ++c.entries;
  }
  c.factor = c.n > 0 ? std::exp(lb + weighted / precision) : 1.0;
  c.log_sd = std::sqrt(1.0 / precision + base.log_sd * base.log_sd);
  return c;
}
}  // namespace

Calibration CalibrateFor(const std::vector<CalibrationSample>& samples, const std::string& key,
                         const std::string& when, const engine::v5p::ShrinkagePrior& prior,
                         const std::string& path) {
  Calibration c;
  c.key = key;
  if (when.empty()) return c;
  if (!path.empty()) {
    std::vector<CalibrationSample> own;
    for (const CalibrationSample& s : samples)
      if (s.key == key && s.path == path && !s.when.empty() && s.when < when) own.push_back(s);
    int held = 0;
    Calibration p = PathFactor(Agreed(own, &held), CalibrateFor(samples, key, when, prior), path, prior);
    p.held = held;
    return p;
  }
  std::vector<CalibrationSample> earlier;
  for (const CalibrationSample& s : samples)
    if (s.key == key && s.path.empty() && !s.when.empty() && s.when < when) earlier.push_back(s);
  std::vector<engine::v5p::FactorSample> use;
  for (const CalibrationSample& s : Agreed(earlier, &c.held)) {
    use.push_back({s.entry, s.log_ratio});
    if (s.when > c.up_to) c.up_to = s.when;
  }
  const engine::v5p::Factor f = engine::v5p::ShrunkFactor(use, prior);
  c.log_sd = f.log_sd;
  c.factor = f.factor;
  c.n = f.n;
  c.entries = f.entries;
  c.excluded = f.excluded;
  c.outlier = engine::v5p::kOutlierTaus * prior.tau;
  return c;
}

std::vector<CalibrationSample> ModelView::AllSamples() const {
  std::vector<CalibrationSample> all;
  for (const auto& [id, s] : samples) all.insert(all.end(), s.begin(), s.end());
  return all;
}

Calibration ModelView::For(const std::string& key, const std::string& when, const std::string& path) const {
  if (!calibrate) return Calibration{};
  const auto k = std::make_tuple(key, when, path);
  if (auto it = cache_.find(k); it != cache_.end()) return it->second;
  std::vector<CalibrationSample> all;
  for (const auto& [id, s] : samples)
    for (const auto& x : s)
      if (x.key == key && !x.when.empty() && x.when < when) all.push_back(x);
  return cache_[k] = CalibrateFor(all, key, when, bands.prior, path);
}

ModeledFigure Calibrated(double modeled_throughput, const Calibration& cal, const engine::v5p::ErrorBand& band) {
  ModeledFigure f;
  f.uncalibrated = modeled_throughput;
  f.value = modeled_throughput * (cal.applied() ? cal.factor : 1.0);
  f.has_band = band.validated;
  if (f.has_band) {
    f.lo = f.value * band.lo;
    f.hi = f.value * band.hi;
  }
  return f;
}

void ShowModeled(const ModelView& view, const std::string& key, const std::string& when, StoredRun* run) {
  {
    const Calibration c = view.For(key, when, UnvalidatedPathKey(run->config));
    if (c.applied()) {
      for (const char* k : {"tflops", "tflops_per_device", "tokens_per_s"})
        if (auto it = run->metrics.find(k); it != run->metrics.end()) it->second *= c.factor;
      for (const char* k : {"time_s", "mean_s"})
        if (auto it = run->metrics.find(k); it != run->metrics.end()) it->second /= c.factor;
    }
  }
  if (!view.have_bands) return;
  const engine::v5p::ErrorBand b = engine::v5p::BandFor(view.bands, run->config);
  if (!b.validated) return;
  run->metrics["band_lo"] = b.lo;
  run->metrics["band_hi"] = b.hi;
}

std::string CalibrationText(const Calibration& c) {
  // The factor with its uncertainty: "x0.984 ± 0.029" (one posterior sd).
  char factor[64];
  std::snprintf(factor, sizeof factor, "x%.3f \xC2\xB1 %.3f", c.factor, c.factor * c.log_sd);
  std::string s;
  if (c.n > 0)
    s = "calibrated on " + std::to_string(c.n) + " recorded figure" + (c.n == 1 ? "" : "s") +
        (c.path.empty() ? " of entries up to " : " of this path (" + c.path + ") in entries up to ") + c.up_to +
        ": " + factor + " (" + std::to_string(c.entries) + " entr" + (c.entries == 1 ? "y" : "ies") + ", " + c.key +
        ")";
  else if (!c.path.empty())
    s = "not calibrated on " + c.path + ": no earlier recorded figure of this path (" + c.key + ")";
  else
    s = "not calibrated (" + c.key + ")";
  if (c.excluded > 0) {
    char far[32];
    std::snprintf(far, sizeof far, "x%.2f..x%.2f", std::exp(-c.outlier), std::exp(c.outlier));
    s += "; " + std::to_string(c.excluded) + " earlier recorded figure" + (c.excluded == 1 ? "" : "s") +
         " outside " + far + " of the model left out (another setup, not a harness drift)";
  }
  if (c.held > 0)
    s += "; " + std::to_string(c.held) + " earlier recorded figure" + (c.held == 1 ? "" : "s") +
         " further outside the model's p10–p90 band than the band is wide held out until a second figure agrees";
  return s;
}

std::string CalibrationShort(const Calibration& c) {
  char factor[64];
  std::snprintf(factor, sizeof factor, "x%.3f \xC2\xB1 %.3f", c.factor, c.factor * c.log_sd);
  std::string s = std::string(factor) + " (" + std::to_string(c.n) + " figure" + (c.n == 1 ? "" : "s");
  if (!c.path.empty()) s += ", " + (c.path.size() > 40 ? c.path.substr(0, 37) + "..." : c.path);
  return s + ")";
}

}  // namespace moelog::logbook
