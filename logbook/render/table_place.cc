// The rows a run table shows (one per configuration) and where the entry's
// recorded figures go on them; figures that fit no row are listed, never
// put on a guessed row.
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/target.h"
#include "engine/v5p/coverage.h"
#include "logbook/numbers.h"
#include "logbook/render/render_table.h"
#include "logbook/render/table_parts.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace table_parts {
namespace {

// A Result bullet as a short line of the unplaced list.
std::string FigureSource(const std::string& text) {
  std::string s;
  for (char c : text) s += c == '\n' || c == '|' ? ' ' : c;
  if (s.size() > 90) s = Utf8Prefix(s, 87) + "...";  // never half a UTF-8 character ("—")
  return s;
}

// "unvalidated (quant_mode=int8)" for a modeled row on a path no calibration
// row measured, "" otherwise (measured rows, calibrated paths).
std::string ModelPath(const TableRow& row) {
  if (!engine::IsModeledTarget(row.target)) return "";
  const std::vector<std::string> paths = engine::v5p::UncalibratedPaths(row.config);
  if (paths.empty()) return "";
  std::string s;
  for (const auto& p : paths) s += (s.empty() ? "" : ", ") + p;
  return "unvalidated (" + s + ")";
}

}  // namespace

// One row per configuration. Invocations of the same configuration (a
// setting the harness ignores, a repeated run) are one row; rows of
// different configurations never merge, even when the model gives them
// identical figures: equal figures are a finding, said in the caption
// (`equal` receives the one column two such modeled rows differ in; "" marks
// a configuration shown once for several invocations).
std::vector<ShownRow> ShowRows(const std::vector<TableRow>& rows, const std::vector<std::string>& varying,
                               const std::vector<std::string>& model_path, std::set<std::string>* equal) {
  std::vector<ShownRow> shown;
  for (size_t i = 0; i < rows.size(); ++i) {
    ShownRow r{{}, {i}};
    for (const auto& k : varying) {
      auto it = rows[i].config.find(k);
      r.cells.push_back(it == rows[i].config.end() ? "" : it->second);
    }
    shown.push_back(std::move(r));
  }
  auto same_model = [&](size_t a, size_t b) {
    return engine::IsModeledTarget(rows[a].target) && engine::IsModeledTarget(rows[b].target) &&
           rows[a].status == "ok" && rows[b].status == "ok" && MetricCells(rows[a]) == MetricCells(rows[b]) &&
           model_path[a] == model_path[b];
  };
  std::vector<ShownRow> out;
  std::map<std::vector<std::string>, size_t> by_cells;  // cells -> index in out
  for (auto& r : shown) {
    auto it = by_cells.find(r.cells);
    if (it != by_cells.end() && same_model(out[it->second].members[0], r.members[0])) {
      out[it->second].members.push_back(r.members[0]);
      equal->insert("");
      continue;
    }
    by_cells.emplace(r.cells, out.size());
    out.push_back(std::move(r));
  }
  // Modeled rows that differ in one column only and get identical figures:
  // the caption names the column (linear: one key per row and column).
  std::vector<std::string> figures(rows.size());
  for (const auto& r : out) figures[r.members[0]] = MetricCells(rows[r.members[0]]) + "\n" + model_path[r.members[0]];
  for (size_t c = 0; c < varying.size(); ++c) {
    std::map<std::vector<std::string>, std::string> seen;  // other cells + figures -> this column's value
    for (const auto& r : out) {
      const TableRow& row = rows[r.members[0]];
      if (!engine::IsModeledTarget(row.target) || row.status != "ok") continue;
      std::vector<std::string> key = r.cells;
      key[c] = figures[r.members[0]];
      auto [it, fresh] = seen.emplace(std::move(key), r.cells[c]);
      if (!fresh && it->second != r.cells[c]) equal->insert(varying[c]);
    }
  }
  return out;
}


namespace {

// For a figure that fits several rows: what it leaves unnamed, " (names no
// distribution: random, runs)", from the columns whose values differ among
// the rows it fits ("" when it fits fewer than two). When the model gives
// all those rows the same figure, the figure is compared with it all the
// same: the comparison needs no row.
std::string SeveralRowsDiffer(const std::vector<TableRow>& rows, const std::vector<std::string>& varying,
                              const RecordedFigure& figure) {
  std::vector<std::set<std::string>> values(varying.size());
  std::vector<std::vector<std::string>> order(varying.size());
  std::vector<size_t> fit;
  for (size_t i = 0; i < rows.size(); ++i) {
    const TableRow& r = rows[i];
    if (!FigureFits(figure.run, r.config)) continue;
    fit.push_back(i);
    for (size_t k = 0; k < varying.size(); ++k) {
      auto it = r.config.find(varying[k]);
      const std::string v = it == r.config.end() ? "" : it->second;
      if (values[k].insert(v).second) order[k].push_back(v);
    }
  }
  if (fit.size() < 2) return "";
  std::string out;
  for (size_t k = 0; k < varying.size(); ++k) {
    if (order[k].size() < 2) continue;
    std::string vs;
    for (size_t j = 0; j < order[k].size() && j < 4; ++j) vs += (j ? ", " : "") + (order[k][j].empty() ? "-" : order[k][j]);
    if (order[k].size() > 4) vs += ", ...";
    out += (out.empty() ? "" : "; ") + varying[k] + ": " + vs;
  }
  if (out.empty()) return "";
  const TableRow& first = rows[fit[0]];
  bool equal = engine::IsModeledTarget(first.target) && first.status == "ok";
  for (size_t i : fit)
    equal = equal && engine::IsModeledTarget(rows[i].target) && rows[i].status == "ok" &&
            MetricCells(rows[i]) == MetricCells(first);
  const auto rec = figure.run.metrics.find("tflops");
  const auto mod = first.metrics.find("tflops");
  if (equal && rec != figure.run.metrics.end() && mod != first.metrics.end() && rec->second > 0 &&
      std::isfinite(mod->second)) {
    const double d = (mod->second - rec->second) / rec->second * 100.0;
    out += "; the model gives each " + Significant(mod->second) + " TF/s, " + (d >= 0 ? "+" : "") + Fixed(d, 1) +
           "% vs this figure";
  }
  return " (names no " + out + ")";
}

}  // namespace

RecordedCells PlaceRecorded(const std::vector<TableRow>& rows, const std::vector<std::string>& varying,
                            const std::vector<ShownRow>& shown, const std::vector<RecordedFigure>& figures) {
  RecordedCells c;
  c.tflops.resize(shown.size());
  c.tokens.resize(shown.size());
  c.time.resize(shown.size());
  c.tflops_text.assign(shown.size(), "");
  c.tokens_text.assign(shown.size(), "");
  c.time_text.assign(shown.size(), "");
  std::vector<std::map<std::string, std::string>> configs;
  for (const auto& r : rows) configs.push_back(r.config);
  std::vector<int> group(rows.size());
  for (size_t g = 0; g < shown.size(); ++g)
    for (size_t m : shown[g].members) group[m] = static_cast<int>(g);
  const std::vector<FigurePlacement> placed = PlaceFigures(figures, configs, group);
  std::vector<std::pair<std::string, std::string>> unplaced;  // values, where from and why
  for (size_t i = 0; i < figures.size(); ++i) {
    const auto& m = figures[i].run.metrics;
    if (placed[i].row < 0) {
      const std::string why = placed[i].why + SeveralRowsDiffer(rows, varying, figures[i]);
      // Figures of one Result bullet placed nowhere for one reason: one line.
      const std::string from = ", from \"" + FigureSource(figures[i].text) + "\": " + why;
      if (!unplaced.empty() && unplaced.back().second == from)
        unplaced.back().first += ", " + RecordedValuesAsWritten(figures[i]);
      else
        unplaced.emplace_back(RecordedValuesAsWritten(figures[i]), from);
      c.where.push_back("no row (" + why + ")");
      continue;
    }
    const auto row = static_cast<size_t>(placed[i].row);
    std::string cells;
    for (size_t k = 0; k < varying.size(); ++k)
      cells += (cells.empty() ? "" : ", ") + varying[k] + "=" + shown[row].cells[k];
    c.where.push_back("row " + (cells.empty() ? std::string("(the only one)") : cells));
    // The author's digits when written in the unit the column shows, the
    // repeats a median summarizes beside it.
    const StoredRun& run = figures[i].run;
    auto text = [&](const char* metric, std::initializer_list<const char*> units, double scale, int fallback) {
      int d = fallback;
      auto dec = run.decimals.find(metric);
      auto u = run.units.find(metric);
      if (dec != run.decimals.end() && u != run.units.end())
        for (const char* w : units)
          if (u->second == w) d = std::min(dec->second, 16);
      if (std::string(metric) == "time_s") d = ShownDecimals(run, metric, scale, d);
      std::string t = MedianText(run, metric, m.at(metric) * scale, d) + RepeatsText(run, metric, scale, d);
      return std::string(metric) == "tokens_per_s" ? GroupThousands(t) : t;
    };
    if (m.count("tflops"))
      c.tflops[row] = m.at("tflops"), c.any_tflops = true,
      c.tflops_text[row] = text("tflops", {"TF/s", "TFLOP/s", "TFLOPs/s", "TFLOPS"}, 1, 3);
    if (m.count("tokens_per_s"))
      c.tokens[row] = m.at("tokens_per_s"), c.any_tokens = true,
      c.tokens_text[row] = text("tokens_per_s", {"tokens/s", "tok/s", "tokens/sec", "tok/sec"}, 1, 0);
    if (m.count("time_s"))
      c.time[row] = m.at("time_s"), c.any_time = true, c.time_text[row] = text("time_s", {"ms", "ms/step", "ms/iter"}, 1e3, 3);
  }
  for (const auto& [values, from] : unplaced) c.unplaced += NoteLine("- " + values + from) + "\n";
  return c;
}

std::vector<std::string> ModelPaths(const std::vector<TableRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(ModelPath(r));
  return out;
}

}  // namespace table_parts

using table_parts::ModelPaths;
using table_parts::PlaceRecorded;
using table_parts::ShowRows;

std::vector<std::string> RecordedPlaces(const std::vector<TableRow>& rows, const std::vector<RecordedFigure>& figures) {
  const auto varying = VaryingColumns(rows);
  std::set<std::string> equal;
  const auto shown = ShowRows(rows, varying, ModelPaths(rows), &equal);
  return PlaceRecorded(rows, varying, shown, figures).where;
}

std::string ExplainRecorded(const std::vector<std::string>& places, const std::vector<RecordedFigure>& figures) {
  std::string out;
  for (size_t i = 0; i < figures.size() && i < places.size(); ++i)
    out += "line " + std::to_string(figures[i].line) + ": " + RecordedValuesAsWritten(figures[i]) + " -> " + places[i] + "\n";
  return out;
}

std::vector<bool> FiguresOnTable(const std::vector<std::string>& places) {
  std::vector<bool> out;
  for (const auto& w : places) out.push_back(w.rfind("row ", 0) == 0);
  return out;
}

}  // namespace moelog::logbook
