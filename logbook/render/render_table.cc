// The run table of an entry moelog ran (render_table.h, RenderRunTable):
// its caption, the model's calibration and bands, the columns and rows.
#include "logbook/render/render_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "engine/target.h"
#include "engine/v5p/coverage.h"
#include "logbook/numbers.h"
#include "logbook/render/table_parts.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

using table_parts::Cell;
using table_parts::EscapeCell;
using table_parts::MetricCells;
using table_parts::ModelPaths;
using table_parts::PlaceRecorded;
using table_parts::RecordedCells;
using table_parts::ShownRow;
using table_parts::ShowRows;

// What produced a table's figures, the first words of its region's
// caption: a modeled figure must never pass for a measurement. The model
// named by its hardware file and moelog's version (the cache key's).
std::string FiguresSource(const std::vector<TableRow>& rows) {
  bool v5p = false, cpu = false;
  std::string hardware, version;
  for (const auto& r : rows) {
    (engine::IsModeledTarget(r.target) ? v5p : cpu) = true;
    if (version.empty()) version = r.version;
    if (!engine::IsModeledTarget(r.target) || !hardware.empty()) continue;
    auto h = r.config.find("hardware");
    hardware = h == r.config.end() || h->second.empty() ? "v5p" : h->second;
  }
  // The hardware file by its name (data/hardware/<name>.json).
  const std::string model = "v5p model (" + Utf8Prefix(hardware, 40) + ".json" +
                            (version.empty() ? "" : ", moelog " + Utf8Prefix(version, 20)) + ")";
  if (v5p && cpu) return "v5p rows predicted by " + model + ", cpu rows measured on this machine";
  if (v5p) return "Predicted by " + model;
  return "Measured by moelog on this machine's CPU" + (version.empty() ? "" : " (moelog " + Utf8Prefix(version, 20) + ")");
}

// The longest caption line a region opens with.
constexpr size_t kCaptionChars = 200;
// A calibration factor this far from 1 gets a column of the uncalibrated
// TF/s (2%: under half the width of the model's p10-p90 bands).
constexpr double kUncalibratedColumn = 0.02;

// The model's view of each row: calibration and band (modeled rows on
// validated paths), and the rows with calibrated figures.
struct ModelCells {
  std::vector<TableRow> rows;               // metrics calibrated
  std::vector<Calibration> cal;             // per row
  std::vector<engine::v5p::ErrorBand> band; // per row
  bool any_calibrated = false, any_band = false;
  // Some factor moves figures by kUncalibratedColumn or more: the table
  // shows the model's TF/s before calibration beside them (a smaller move
  // is said by the caption's factor alone).
  bool uncalibrated_column = false;
  std::vector<Calibration> used;            // distinct applied calibrations, by key
};

ModelCells ApplyModel(const std::vector<TableRow>& rows, const ModelView* model, const std::string& when) {
  ModelCells m;
  m.rows = rows;
  m.cal.resize(rows.size());
  m.band.resize(rows.size());
  if (!model) return m;
  std::map<std::string, Calibration> by_key;
  for (size_t i = 0; i < rows.size(); ++i) {
    TableRow& r = m.rows[i];
    if (!engine::IsModeledTarget(r.target) || r.status != "ok") continue;
    if (model->have_bands) {
      m.band[i] = engine::v5p::BandFor(model->bands, r.config);
      m.any_band = m.any_band || m.band[i].validated;
    }
    if (!model->calibrate) continue;
    const std::string path = UnvalidatedPathKey(r.config);
    const std::string k = r.cal_key + (path.empty() ? "" : "\n" + path);
    auto it = by_key.find(k);
    if (it == by_key.end()) it = by_key.emplace(k, model->For(r.cal_key, when, path)).first;
    m.cal[i] = it->second;
    if (!m.cal[i].applied()) continue;
    m.any_calibrated = true;
    const double f = m.cal[i].factor;
    m.uncalibrated_column = m.uncalibrated_column || std::fabs(f - 1.0) >= kUncalibratedColumn;
    if (auto t = r.metrics.find("tflops"); t != r.metrics.end()) r.metrics["tflops_uncalibrated"] = t->second;
    for (const char* k : {"tflops", "tflops_per_device", "tokens_per_s"})
      if (auto t = r.metrics.find(k); t != r.metrics.end()) t->second *= f;
    if (auto t = r.metrics.find("time_s"); t != r.metrics.end()) t->second /= f;
  }
  for (const auto& [key, c] : by_key)
    if (c.said()) m.used.push_back(c);
  return m;
}

std::string BandCell(const TableRow& r, const engine::v5p::ErrorBand& b) {
  auto t = r.metrics.find("tflops");
  if (!b.validated || t == r.metrics.end() || !std::isfinite(t->second)) return "-";
  // A band's ends need no more digits than the band is wide: 3 significant.
  return Significant(t->second * b.lo, 3) + "–" + Significant(t->second * b.hi, 3);
}

// " outside p10–p90" when a recorded TF/s lies outside the
// band of its modeled row; "" inside it, or with no band.
std::string OutsideBand(const TableRow& r, const engine::v5p::ErrorBand& b, const std::optional<double>& recorded) {
  auto t = r.metrics.find("tflops");
  if (!recorded || !b.validated || t == r.metrics.end() || !std::isfinite(t->second)) return "";
  if (*recorded >= t->second * b.lo && *recorded <= t->second * b.hi) return "";
  // The band is in the row's own p10–p90 cell.
  return " outside p10–p90";
}

// A run table laid out once: the model's cells, the varying columns, the
// rows shown (one per configuration) and where
// the recorded figures go.
struct RunTableLayout {
  ModelCells mc;
  std::vector<std::string> varying, model_path;
  bool any_unvalidated = false, any_status = false;
  bool per_device = true;  // some row's TF/s/device differs from its TF/s (a column worth its width)
  std::string devices;     // every row's device count when the caption gives it instead of TF/s/device
  std::set<std::string> equal;  // columns the model gives equal figures for ("" : a config shown once)
  std::vector<ShownRow> shown;
  RecordedCells rec;

  const std::vector<TableRow>& rows() const { return mc.rows; }
  // The header cells, in column order.
  std::vector<std::string> Head() const {
    std::vector<std::string> head = varying;
    if (any_status) head.push_back("status");
    for (const char* h : {"time (ms)", "TF/s", "TF/s/device", "tokens/s"})
      if (per_device || std::string(h) != "TF/s/device") head.push_back(h);
    if (mc.uncalibrated_column) head.push_back("TF/s uncalibrated");
    if (mc.any_band) head.push_back("TF/s p10–p90");
    // The delta's direction and what moelog's side is: "model vs logbook".
    bool v5p = false, cpu = false;
    for (const auto& r : rows()) (engine::IsModeledTarget(r.target) ? v5p : cpu) = true;
    const std::string versus = std::string(v5p && cpu ? "moelog" : v5p ? "model" : "measured") + " vs logbook";
    if (rec.any_tflops) {
      head.push_back("recorded TF/s");
      head.push_back(versus);
    }
    if (rec.any_tokens) {
      head.push_back("recorded tokens/s");
      head.push_back("tokens/s " + versus);
    }
    if (rec.any_time) {
      head.push_back("recorded time (ms)");
      head.push_back("time " + versus);
    }
    if (any_unvalidated) head.push_back("v5p model");
    return head;
  }
  // The line of shown row g.
  std::string Row(size_t g) const {
    const size_t i = shown[g].members[0];
    const TableRow& r = rows()[i];
    std::string out = "|";
    for (const auto& cell : shown[g].cells) Cell(&out, EscapeCell(cell));
    if (any_status) Cell(&out, r.status);
    out += MetricCells(r, per_device);
    if (mc.uncalibrated_column) {
      auto u = r.metrics.find("tflops_uncalibrated");
      Cell(&out, u == r.metrics.end() ? "-" : Significant(u->second));
    }
    if (mc.any_band) Cell(&out, BandCell(r, mc.band[i]));
    if (rec.any_tflops)
      RecordedCells::Append(r, "tflops", rec.tflops[g], rec.tflops_text[g], &out, OutsideBand(r, mc.band[i], rec.tflops[g]));
    if (rec.any_tokens) RecordedCells::Append(r, "tokens_per_s", rec.tokens[g], rec.tokens_text[g], &out);
    if (rec.any_time) RecordedCells::Append(r, "time_s", rec.time[g], rec.time_text[g], &out);
    if (any_unvalidated)
      Cell(&out, model_path[i].empty() ? (engine::IsModeledTarget(r.target) ? "validated" : "-") : model_path[i]);
    return out + "\n";
  }
  // The region's first line: what the figures are, the model (hardware file,
  // version) and its calibration, what "recorded" is, where the terms are
  // defined; at most ~200 characters (`lead`, e.g. "Prediction, not run:",
  // first).
  std::string Caption(const std::string& lead) const {
    std::string out = (lead.empty() ? "" : lead + " ") + FiguresSource(rows());
    if (!devices.empty()) out += " on " + Utf8Prefix(devices, 8) + " devices";
    if (!lead.empty() && out.size() > lead.size() + 1 && out[lead.size() + 1] != 'v')
      out[lead.size() + 1] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[lead.size() + 1])));
    const std::string cal = CalibrationList();
    const std::string tail = std::string(rec.any_tflops || rec.any_tokens || rec.any_time ? "; recorded: Result's" : "") +
                             ". Terms: `moelog help regions`";
    if (cal.empty()) return out + tail;
    // Several factors (paths calibrated on their own) go on lines below.
    if (out.size() + cal.size() + tail.size() + 13 > kCaptionChars) return out + ", calibrated (lines below)" + tail;
    return out + ", calibrated " + cal + tail;
  }
  bool CaptionTooLongForFactors(const std::string& lead) const {
    return Caption(lead).find("calibrated (lines below)") != std::string::npos;
  }
  // The applied calibration factors, short ("x0.992 ± 0.021 (4 figures)").
  std::string CalibrationList() const {
    std::string cal;
    for (const Calibration& c : mc.used)
      if (c.applied()) cal += (cal.empty() ? "" : ", ") + CalibrationShort(c);
    return cal;
  }
  // The lines under the table that only some tables need, one line each.
  std::vector<std::string> Notes(const std::string& lead) const {
    std::vector<std::string> out;
    for (const Calibration& c : mc.used)
      if (c.excluded > 0 || c.held > 0)
        out.push_back(NoteLine("- " + CalibrationText(c) + "."));
      else if (c.applied() && CaptionTooLongForFactors(lead))
        out.push_back(NoteLine("- " + c.key + ": calibrated " + CalibrationShort(c) + "."));
    std::set<std::string> keys_equal = equal;
    if (keys_equal.erase("")) out.push_back("- Invocations that ran the same configuration are shown once.");
    if (!keys_equal.empty()) {
      std::string keys;
      for (const auto& k : keys_equal) keys += (keys.empty() ? "" : ", ") + k;
      out.push_back(NoteLine("- Rows that differ only in " + keys +
                             " have identical modeled figures (the model does not tell them apart; a measurement may)."));
    }
    return out;
  }
};

RunTableLayout LayOut(const std::vector<TableRow>& model_rows, const std::vector<RecordedFigure>& figures,
                      const ModelView* model, const std::string& when) {
  RunTableLayout t;
  t.mc = ApplyModel(model_rows, model, when);
  const std::vector<TableRow>& rows = t.mc.rows;
  t.varying = VaryingColumns(rows);
  t.model_path = ModelPaths(rows);
  t.any_unvalidated =
      std::any_of(t.model_path.begin(), t.model_path.end(), [](const std::string& p) { return !p.empty(); });
  t.shown = ShowRows(rows, t.varying, t.model_path, &t.equal);
  t.rec = PlaceRecorded(rows, t.varying, t.shown, figures);
  for (const auto& r : rows) t.any_status = t.any_status || r.status != "ok";
  t.per_device = std::any_of(rows.begin(), rows.end(), [](const TableRow& r) {
    auto a = r.metrics.find("tflops"), d = r.metrics.find("tflops_per_device");
    return d != r.metrics.end() && (a == r.metrics.end() || Significant(a->second) != Significant(d->second));
  });
  // Every row on the same number of devices: the caption says how many,
  // and TF/s/device is TF/s over it (no column of its own).
  std::set<std::string> devices;
  for (const auto& r : rows) {
    auto d = r.config.find("devices");
    devices.insert(d == r.config.end() ? "" : d->second);
  }
  if (t.per_device && devices.size() == 1 && !devices.begin()->empty() && t.varying.end() ==
      std::find(t.varying.begin(), t.varying.end(), "devices")) {
    t.per_device = false;
    t.devices = *devices.begin();
  }
  return t;
}

}  // namespace

std::string RenderRunTable(const std::vector<TableRow>& model_rows, const std::vector<RecordedFigure>& figures,
                           const ModelView* model, const std::string& when, const std::string& lead) {
  const RunTableLayout t = LayOut(model_rows, figures, model, when);
  const std::vector<std::string> head = t.Head();
  std::string out = "|";
  for (const auto& h : head) out += " " + h + " |";
  out += "\n|";
  const size_t text_columns = t.varying.size() + (t.any_status ? 1 : 0);
  for (size_t i = 0; i < head.size(); ++i) {
    const bool text = i < text_columns || (t.any_unvalidated && i + 1 == head.size());
    out += text ? "---|" : "---:|";
  }
  out += "\n";
  for (size_t g = 0; g < t.shown.size(); ++g) out += t.Row(g);
  std::string notes;
  for (const auto& n : t.Notes(lead)) notes.append(n).append("\n");
  // Built by appends: GCC 12 at -O3 warns (-Wrestrict, a false positive,
  // GCC bug 105651) on `"\n" + std::string`.
  if (!t.rec.unplaced.empty())
    notes.append(notes.empty() ? "" : "\n").append("Recorded figures placed on no row:\n\n").append(t.rec.unplaced);
  std::string table = t.Caption(lead);
  table.append("\n\n").append(out);
  if (!notes.empty()) table.append("\n").append(notes);
  return table;
}

}  // namespace moelog::logbook
