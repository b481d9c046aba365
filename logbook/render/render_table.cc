#include "logbook/render/render_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "engine/bench_flags.h"
#include "engine/target.h"
#include "engine/v5p/coverage.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/numbers.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/render/units.h"
#include "logbook/store/stored_run.h"
#include "logbook/store/stored_run_reader.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// Appends " TEXT |" (one table cell). Built by appends: GCC 12 at -O3 warns
// (-Wrestrict, a false positive, GCC bug 105651) on `" " + std::string`.
void Cell(std::string* out, const std::string& text) {
  out->append(" ").append(text).append(" |");
}

std::string JsonScalar(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) return FormatValue(v.get<double>());
  if (v.is_null()) return "";
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char* kPriority[] = {"mlp_path", "parallel_mode", "topk", "routing_pack_strategy", "distribution", "queue_mode", "mode",
                           "remat_mode", "quant_mode", "backend", "impl", "bench_pass", "pass", "tokens", "hidden",
                           "mlp_dim", "experts", "shared_expert_dim", "shared_fused", "dtype"};

// Keys that never make a column (engine/bench_flags.cc says which): keys
// pairing ignores, bookkeeping (target, source, hardware, seeds).
bool NeverColumn(const std::string& k) {
  // "stage_bound_shared=MXU": what bounds a stage in the model's output, not a setting.
  if (k.rfind("stage_bound_", 0) == 0) return true;
  const engine::FlagSpec* f = engine::FindRunKey(k);
  return f != nullptr && (!f->column || f->pairing == engine::Pairing::kIgnored);
}

std::string EscapeCell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}


}  // namespace

TableRow RowFromRecord(const RunRecord& record) {
  TableRow row;
  row.target = record.target;
  try {
    const auto j = nlohmann::json::parse(record.config_json);
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_array()) {
          std::string joined;
          for (const auto& e : it.value()) {
            if (!joined.empty()) joined += ',';
            joined += JsonScalar(e);
          }
          row.config[it.key()] = joined;
        } else {
          row.config[it.key()] = JsonScalar(it.value());
        }
      }
    }
  } catch (const std::exception&) {
    // A malformed stored config leaves only the point columns.
  }
  // Loop bindings ("loop.tk") belong to the entry that first ran this config;
  // a cached run can be shared by entries, so they never make columns.
  for (const auto& [k, v] : record.point)
    if (k.rfind("loop.", 0) != 0 && k != "source") row.config[ConfigKeyOfPoint(k)] = v;
  row.metrics = record.metrics;
  row.status = record.status;
  row.version = record.moelog_version;
  return row;
}

// Whether `values` (one per row) is a function of `by` (same rows): equal
// `by` values always come with equal `values`.
bool FollowsFrom(const std::vector<std::string>& by, const std::vector<std::string>& values) {
  std::map<std::string, std::string> seen;
  for (size_t i = 0; i < by.size(); ++i)
    if (!seen.emplace(by[i], values[i]).second && seen[by[i]] != values[i]) return false;
  return true;
}

// The varying keys, in kPriority order, without keys whose values repeat an
// earlier column's. An mlp_profile path (mlp_path) names its program: the
// keys its adapter sets with it (parallel mode, impl, staged_parallel) are
// implied and left out.
std::vector<std::string> VaryingColumns(const std::vector<TableRow>& rows) {
  std::set<std::string> keys;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.config)
      if (!NeverColumn(k)) keys.insert(k);
  std::vector<std::string> order;
  for (const char* p : kPriority)
    if (keys.erase(p)) order.push_back(p);
  for (const auto& k : keys) order.push_back(k);
  std::vector<std::string> out;
  std::vector<std::vector<std::string>> seen;
  for (const auto& k : order) {
    std::vector<std::string> values;
    for (const auto& r : rows) {
      auto it = r.config.find(k);
      values.push_back(it == r.config.end() ? "" : it->second);
    }
    std::set<std::string> distinct(values.begin(), values.end());
    if (distinct.size() < 2) continue;
    if (std::find(seen.begin(), seen.end(), values) != seen.end()) continue;
    if (!seen.empty() && out.front() == "mlp_path" && FollowsFrom(seen.front(), values)) continue;
    seen.push_back(values);
    out.push_back(k);
  }
  return out;
}

namespace {

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

// The metric cells of a row as the table prints them.
std::string MetricCells(const TableRow& r, bool per_device = true) {
  std::string out;
  // moelog's figures in 4 significant digits (a model's or one machine's
  // figure has no more), tokens/s with its thousands grouped.
  auto metric = [&](const char* k, double scale, bool group) {
    auto it = r.metrics.find(k);
    Cell(&out, it == r.metrics.end() || !std::isfinite(it->second) ? "-" : Significant(it->second * scale, 4, group));
  };
  metric("time_s", 1000.0, false);
  metric("tflops", 1.0, false);
  if (per_device) metric("tflops_per_device", 1.0, false);
  metric("tokens_per_s", 1.0, true);
  return out;
}

// A table row as shown: the cells of the varying columns and the runs it
// stands for (several when invocations ran the same configuration).
struct ShownRow {
  std::vector<std::string> cells;
  std::vector<size_t> members;
};

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

// The repeats a recorded figure is the median of: " (median of 3,
// 191.837-191.897)"; "" for a single figure.
std::string RepeatsText(const StoredRun& run, const std::string& metric, double scale, int decimals) {
  auto r = run.repeats.find(metric);
  if (r == run.repeats.end() || r->second.size() < 2) return "";
  const auto [lo, hi] = std::minmax_element(r->second.begin(), r->second.end());
  std::string out = " (median of ";
  out += std::to_string(r->second.size()) + ", " + Fixed(*lo * scale, decimals) + "\xE2\x80\x93" +
         Fixed(*hi * scale, decimals) + ")";
  return out;
}

// A recorded figure's value at `decimals` (its written ones); the median of
// an even count of repeats (a mean of two) gets one more digit when needed.
std::string MedianText(const StoredRun& run, const std::string& metric, double value, int decimals) {
  auto r = run.repeats.find(metric);
  if (r != run.repeats.end() && r->second.size() % 2 == 0 && Fixed(value, decimals + 1).back() != '0')
    return Fixed(value, decimals + 1);
  return Fixed(value, decimals);
}

// Seconds per unit of a time as written ("ms": 1e-3); 0 for no time unit.
double TimeUnitSeconds(const std::string& u) {
  if (u == "s" || u == "sec" || u == "secs" || u == "second" || u == "seconds" || u == "s/step") return 1;
  if (u == "ms" || u == "ms/step" || u == "ms/iter") return 1e-3;
  if (u == "us" || u == "\xC2\xB5s") return 1e-6;
  // "ns", "usec", "μs", "msec": any time unit of the reader's vocabulary.
  reader::UnitInfo info{};
  if (reader::UnitIn(reader::ReaderLexicon(), u, &info) && info.metric == "time_s") return info.factor;
  return 0;
}

// The decimals a recorded figure keeps when shown at `scale` (stored value
// times scale): its author's, moved by the unit change, so `0.406 s` shows
// as `406` ms, never `406.000`; `fallback` when its digits are unknown.
int ShownDecimals(const StoredRun& run, const std::string& metric, double scale, int fallback) {
  auto d = run.decimals.find(metric);
  if (d == run.decimals.end()) return fallback;
  auto u = run.units.find(metric);
  const double written = u == run.units.end() ? 0 : TimeUnitSeconds(u->second);
  if (written == 0) return std::min(d->second, 16);
  // shown = written figure * (scale * seconds per written unit).
  const int shift = static_cast<int>(std::lround(std::log10(scale * written)));
  return std::clamp(d->second - shift, 0, 16);
}

// The recorded figures of a table: per shown row, the TF/s and tokens/s the
// entry's Result states for it, and the list of figures placed on no row.
struct RecordedCells {
  std::vector<std::optional<double>> tflops, tokens, time;  // time in seconds
  std::vector<std::string> tflops_text, tokens_text, time_text;  // the cells as shown (author's digits, repeats)
  bool any_tflops = false, any_tokens = false, any_time = false;
  std::string unplaced;      // "\n\nRecorded figures placed on no row:\n\n- ...\n" or ""
  std::vector<std::string> where;  // per figure: "row k=v, ..." or "no row (why)"

  // The "recorded" and "delta" cells of `metric` for row `r`.
  static void Append(const TableRow& r, const char* metric, const std::optional<double>& rec, const std::string& shown,
                     std::string* out, const std::string& mark = "") {
    if (!rec) {
      *out += " - | - |";
      return;
    }
    Cell(out, shown);
    auto m = r.metrics.find(metric);
    if (m == r.metrics.end() || *rec == 0) {
      *out += " - |";
      return;
    }
    const double d = (m->second - *rec) / *rec * 100.0;
    std::string delta = d >= 0 ? "+" : "";
    delta.append(Fixed(d, 1)).append("%");
    Cell(out, delta + mark);
  }
};

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
        unplaced.back().first += ", " + RecordedValuesAsWritten(figures[i].run);
      else
        unplaced.emplace_back(RecordedValuesAsWritten(figures[i].run), from);
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

}  // namespace

std::vector<std::string> RecordedPlaces(const std::vector<TableRow>& rows, const std::vector<RecordedFigure>& figures) {
  const auto varying = VaryingColumns(rows);
  std::set<std::string> equal;
  const auto shown = ShowRows(rows, varying, ModelPaths(rows), &equal);
  return PlaceRecorded(rows, varying, shown, figures).where;
}

std::string ExplainRecorded(const std::vector<std::string>& places, const std::vector<RecordedFigure>& figures) {
  std::string out;
  for (size_t i = 0; i < figures.size() && i < places.size(); ++i)
    out += "line " + std::to_string(figures[i].line) + ": " + RecordedValuesAsWritten(figures[i].run) + " -> " + places[i] + "\n";
  return out;
}

namespace {

// A recorded figure in the unit and digits its author wrote, when that unit
// is not the stored one ("4204 MB", not 4009.25 MiB; "4.10 ms", not
// 0.0041 s; "221k tokens/s"); "" when the figure is best shown as stored.
// Whether `metric` is one of a unit's metric `base` ("p90_time_s" of
// time_s): its figures are stored in that metric's unit.
bool MetricOfUnit(const std::string& metric, const std::string& base) {
  if (metric.size() <= base.size() + 1) return false;
  // "cpu_time_s" (a qualifier before) or "time_s_p50" (a statistic after).
  return (metric.compare(metric.size() - base.size(), base.size(), base) == 0 &&
          metric[metric.size() - base.size() - 1] == '_') ||
         metric.compare(0, base.size() + 1, base + "_") == 0;
}

std::string WrittenText(const StoredRun& run, const std::string& metric, double v) {
  const auto u = run.units.find(metric);
  const auto d = run.decimals.find(metric);
  if (u == run.units.end() || d == run.decimals.end() || run.repeats.count(metric) || run.derived.count(metric))
    return "";
  reader::UnitInfo info{};
  if (!reader::UnitIn(reader::ReaderLexicon(), u->second, &info) || info.derived || info.factor <= 0 ||
      info.factor == 1)
    return "";
  std::string plain;
  const double magnitude = reader::MagnitudeOf(reader::ReaderLexicon(), u->second, &plain);
  // "Before: 219MB" read as before_mb was stored as written, not in the unit's metric (memory_mib).
  const bool stored_as_written = info.metric != metric && !MetricOfUnit(metric, info.metric);
  std::string text = Fixed(stored_as_written ? v : v / info.factor, std::min(d->second, 16));
  if (magnitude != 1) text = GroupThousands(text) + u->second.substr(0, u->second.find(' '));
  text += " " + plain;
  if (info.metric != metric) text += " (" + metric + ")";
  return run.approximate.count(metric) ? "~" + text : text;
}

std::string ValuesText(const std::map<std::string, double>& metrics, const StoredRun* run) {
  // Throughput first, then times and other measures; derived figures
  // (deltas, speedups) are the author's arithmetic, not listed.
  std::string values;
  auto add = [&](const std::string& metric, double v) {
    if (const std::string w = run == nullptr ? "" : WrittenText(*run, metric, v); !w.empty()) {
      values += (values.empty() ? "" : ", ") + w;
      return;
    }
    std::string unit = metric == "tflops" ? " TF/s" : metric == "tokens_per_s" ? " tokens/s"
                       : metric == "time_s" ? " s" : metric == "gb_per_s" ? " GB/s" : metric == "mfu" ? "% MFU"
                       : " " + metric;
    // Times are stored in seconds from what was written in ms or us: nine
    // significant digits drop the division's float noise (4.10 ms is
    // "0.0041 s", not "0.0040999999999999995 s").
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    const std::string shown = metric.find("time_s") != std::string::npos ? std::string(buf) : Readable(v);
    values += (values.empty() ? "" : ", ") + (run == nullptr ? shown : WrittenNumber(*run, metric, v, shown)) + unit;
  };
  for (const char* m : {"tflops", "tokens_per_s"})
    if (auto it = metrics.find(m); it != metrics.end()) add(it->first, it->second);
  for (const auto& [metric, v] : metrics) {
    if (metric == "tflops" || metric == "tokens_per_s" || metric == "speedup") continue;
    if (metric.size() >= 9 && metric.compare(metric.size() - 9, 9, "delta_pct") == 0) continue;
    add(metric, v);
  }
  if (values.empty())  // a figure that is derived only ("speedup=6.41") is still named
    for (const auto& [metric, v] : metrics) add(metric, v);
  return values;
}

}  // namespace

std::string FigureValuesText(const std::map<std::string, double>& metrics) { return ValuesText(metrics, nullptr); }

std::string RecordedValuesAsWritten(const StoredRun& run) { return ValuesText(run.metrics, &run); }

std::vector<bool> FiguresOnTable(const std::vector<std::string>& places) {
  std::vector<bool> out;
  for (const auto& w : places) out.push_back(w.rfind("row ", 0) == 0);
  return out;
}

namespace {

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
  for (const auto& n : t.Notes(lead)) notes += n + "\n";
  if (!t.rec.unplaced.empty()) notes += (notes.empty() ? "" : "\n") + std::string("Recorded figures placed on no row:\n\n") + t.rec.unplaced;
  return t.Caption(lead) + "\n\n" + out + (notes.empty() ? "" : "\n" + notes);
}

namespace {

// A recorded metric's column: header and how a value prints.
struct RecordedColumn {
  std::string metric, header;
  double scale = 1;  // stored value -> shown value (time_s in ms: 1e3)
  int decimals = 3;
  std::string unit;  // the unit shown, when it is the unit figures were written in ("ms")
};

// The unit most figures of `metric` were written in.
std::string CommonUnit(const std::vector<RecordedFigure>& figures, const std::string& metric) {
  std::map<std::string, int> n;
  for (const auto& f : figures)
    if (auto it = f.run.units.find(metric); it != f.run.units.end()) ++n[it->second];
  std::string best;
  int most = 0;
  for (const auto& [u, c] : n)
    if (c > most) best = u, most = c;
  return best;
}

// A recorded figure as its author wrote it ("0.027212", "21.050"), when it
// was written in the unit its column shows; else at the column's decimals.
// Whether `digits` stand in `text` as one number of their own (not part of
// a longer one: "1,412" in "| 1,412 |", not in "21,412").
bool NumberIn(const std::string& text, const std::string& digits) {
  auto part = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == ',' || ch == '.'; };
  for (size_t at = text.find(digits); at != std::string::npos; at = text.find(digits, at + 1)) {
    const size_t end = at + digits.size();
    const bool before = at > 0 && part(text[at - 1]);
    const bool after = end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ',' ||
                                             (text[end] == '.' && end + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[end + 1]))));
    if (!before && !after) return true;
  }
  return false;
}

// A figure's digits grouped as its author wrote them: "9,118,240" when its
// line writes them so, "1306.66" when it writes them plain; as shown otherwise.
std::string AsWrittenGrouping(const RecordedFigure& f, const std::string& shown) {
  if (shown.empty() || shown.find_first_not_of("0123456789,.-") != std::string::npos) return shown;
  std::string plain = shown;
  plain.erase(std::remove(plain.begin(), plain.end(), ','), plain.end());
  const std::string grouped = GroupThousands(plain);
  if (grouped == plain) return shown;
  if (NumberIn(f.text, grouped)) return grouped;
  if (NumberIn(f.text, plain)) return plain;
  return shown;
}

std::string RecordedCell(const RecordedFigure& f, const RecordedColumn& c) {
  auto it = f.run.metrics.find(c.metric);
  if (it == f.run.metrics.end()) return "-";
  auto d = f.run.decimals.find(c.metric);
  auto u = f.run.units.find(c.metric);
  auto canon = [](const std::string& w) -> std::string {
    if (w == "seconds" || w == "second" || w == "sec" || w == "secs" || w == "s/step") return "s";
    if (w == "ms/step" || w == "ms/iter") return "ms";
    return w == "\xC2\xB5s" ? "us" : w;
  };
  // "221k" written in a column of tokens/s: shown as written, "221k".
  std::string plain;
  const double magnitude =
      u == f.run.units.end() ? 1 : reader::MagnitudeOf(reader::ReaderLexicon(), u->second, &plain);
  if (magnitude != 1 && d != f.run.decimals.end() &&
      (c.unit.empty() ? c.scale == 1 : SameWrittenUnit(plain, c.unit)) && !f.run.repeats.count(c.metric)) {
    std::string out = GroupThousands(Fixed(it->second * c.scale / magnitude, std::min(d->second, 16)));
    if (f.run.approximate.count(c.metric)) out.insert(0, 1, '~');
    return out + u->second.substr(0, u->second.find(' '));
  }
  const bool as_written =
      d != f.run.decimals.end() &&
      (c.unit.empty()
           ? c.scale == 1 && (u == f.run.units.end() || WrittenUnitFactor(u->second) <= 0 ||
                              WrittenUnitFactor(u->second) == 1)
           : u != f.run.units.end() && (canon(u->second) == canon(c.unit) || SameWrittenUnit(u->second, c.unit)));
  // "12.4 TFLOP/s" in a column of GFLOPS: as written, unit and all.
  if (const std::string other = as_written ? "" : OtherUnitText(f.run, c.metric); !other.empty()) {
    const size_t sp = other.find(' ');  // "11,020 MB/s": its digits grouped as written too
    const std::string shown = sp == std::string::npos ? other : AsWrittenGrouping(f, other.substr(0, sp)) + other.substr(sp);
    return (f.run.approximate.count(c.metric) ? "~" : "") + shown;
  }
  // "~17.5": the author's approximation stays one. A time written in
  // another unit keeps its significant digits (0.406 s -> 406 ms).
  int decimals = as_written ? std::min(d->second, 16) : c.decimals;
  if (!as_written && u != f.run.units.end() && TimeUnitSeconds(u->second) > 0 &&
      (c.metric == "time_s" || c.metric.find("time_s") != std::string::npos))
    decimals = ShownDecimals(f.run, c.metric, c.scale, c.decimals);
  // Throughputs and cycle counts are grouped by thousands ("14,410 cycles").
  if (c.metric == "tokens_per_s" || c.metric.rfind("tokens_per_s", 0) == 0 || c.metric == "cycles" ||
      (c.metric.size() > 6 && c.metric.compare(c.metric.size() - 6, 6, "_per_s") == 0 && c.metric != "gb_per_s")) {
    std::string out = AsWrittenGrouping(f, GroupThousands(MedianText(f.run, c.metric, it->second * c.scale, decimals)));
    if (f.run.approximate.count(c.metric)) out.insert(0, 1, '~');
    return out + RepeatsText(f.run, c.metric, c.scale, decimals);
  }
  std::string out = AsWrittenGrouping(f, MedianText(f.run, c.metric, it->second * c.scale, decimals));
  if (f.run.approximate.count(c.metric)) out.insert(0, 1, '~');
  return out + RepeatsText(f.run, c.metric, c.scale, decimals);
}

// How a time metric shows in the unit most of its figures were written in:
// "time (ms)" at 1e3, "time (us)" at 1e6, else "time (s)".
RecordedColumn TimeColumn(const std::vector<RecordedFigure>& figures, const std::string& metric) {
  const std::string tu = CommonUnit(figures, metric);
  RecordedColumn c{metric, "time (s)", 1, 6, tu.empty() ? "s" : tu};
  if (tu == "ms" || tu == "ms/step" || tu == "ms/iter") c.header = "time (ms)", c.scale = 1e3, c.decimals = 3;
  if (tu == "us" || tu == "\xC2\xB5s") c.header = "time (us)", c.scale = 1e6, c.decimals = 3;
  // "ns", "microseconds", "μs", "msec": another spelling of a shorter time, as written.
  if (const double f = TimeUnitSeconds(tu); f > 0 && f < 1 && c.scale == 1)
    c.header = "time (" + tu + ")", c.scale = 1 / f, c.decimals = 3;
  // "16 minutes", "4.26 hours": a longer unit the vocabulary knows is shown as written.
  reader::UnitInfo info{};
  if (reader::UnitIn(reader::ReaderLexicon(), tu, &info) && info.metric.find("time_s") != std::string::npos &&
      info.factor > 1)
    c.header = "time (" + tu + ")", c.scale = 1 / info.factor;
  return c;
}

// A column of a metric moelog has no header of its own for ("memory_mib",
// "val_loss"): headed by its name and, when its figures were written in one
// unit of the vocabulary ("31,745 MiB", "12.3 GB"), shown in that unit.
RecordedColumn OwnColumn(const std::vector<RecordedFigure>& figures, const std::string& metric) {
  RecordedColumn c{metric, metric, 1, 3, ""};
  std::string u;
  reader::MagnitudeOf(reader::ReaderLexicon(), CommonUnit(figures, metric), &u);  // "6.44B" is in the column's unit
  if (u == "%") {
    c.header = UnitColumnHeader(metric, u), c.unit = "%";
    return c;
  }
  reader::UnitInfo info{};
  if (u.empty() || !reader::UnitIn(reader::ReaderLexicon(), u, &info) || info.derived || info.factor <= 0) return c;
  c.scale = 1 / info.factor, c.unit = u, c.header = UnitColumnHeader(metric, u);
  if (info.metric != metric && !MetricOfUnit(metric, info.metric)) c.scale = 1;  // before_mb: stored as written
  return c;
}

// A column of one of moelog's own metrics (TF/s, tokens/s, GB/s) shown in
// the unit its figures were written in when that is another of the
// vocabulary ("GFLOPS" at 1e3, "MB/s" at 1e3); else `header` at `scale`.
RecordedColumn BaseColumn(const std::vector<RecordedFigure>& figures, const std::string& metric,
                          const std::string& header, double scale, int decimals) {
  RecordedColumn c{metric, header, scale, decimals, ""};
  std::string u;
  reader::MagnitudeOf(reader::ReaderLexicon(), CommonUnit(figures, metric), &u);
  reader::UnitInfo info{};
  if (u.empty() || !reader::UnitIn(reader::ReaderLexicon(), u, &info) || info.metric != metric || info.derived ||
      info.factor <= 0 || info.factor == 1)
    return c;
  c.header = u, c.scale = 1 / info.factor, c.unit = u;
  return c;
}

// Columns of metrics named beside a base one ("exposed_collective_time_s",
// "mfu_p50", "p90_time_s", "useful_tflops_per_rank"): the base's header and
// scale with the name; what is left, under its own name.
void NamedColumns(const std::vector<RecordedFigure>& figures, std::set<std::string>* left,
                  std::vector<RecordedColumn>* cols) {
  std::set<std::string>& metrics = *left;
  auto add = [&](const std::string& m, const std::string& header, double scale, int decimals) {
    if (metrics.erase(m)) cols->push_back({m, header, scale, decimals, ""});
  };
  struct Base {
    const char* metric;
    const char* header;
    double scale;
    int decimals;
  };
  const Base kBases[] = {{"time_s", "time (ms)", 1e3, 3},  {"tflops", "TF/s", 1, 3}, {"tokens_per_s", "tokens/s", 1, 0},
                         {"gb_per_s", "GB/s", 1, 1},       {"mfu", "MFU %", 1, 2}};
  auto words = [](std::string q) {
    std::replace(q.begin(), q.end(), '_', ' ');
    return q;
  };
  for (const auto& m : std::vector<std::string>(metrics.begin(), metrics.end())) {
    for (const Base& b : kBases) {
      const std::string base = b.metric;
      if (m.size() > base.size() + 1 && m.compare(m.size() - base.size() - 1, base.size() + 1, "_" + base) == 0) {
        const std::string q = words(m.substr(0, m.size() - base.size() - 1));
        if (base == "time_s" && metrics.erase(m)) {  // "p90 time (ms)": in the unit its figures were written in
          RecordedColumn t = TimeColumn(figures, m);
          // "p95 latency (ms)", "train/step time avg (s)": a name that says time is not told it again.
          if (reader::NamesATime(q) && t.header.rfind("time ", 0) == 0) t.header.erase(0, 5);
          t.header.insert(0, q + " ");
          cols->push_back(std::move(t));
        }
        add(m, q + " " + b.header, b.scale, b.decimals);
        break;
      }
      if (m.size() > base.size() + 1 && m.compare(0, base.size() + 1, base + "_") == 0) {
        add(m, std::string(b.header) + " (" + words(m.substr(base.size() + 1)) + ")", b.scale, b.decimals);
        break;
      }
    }
  }
  for (const auto& m : std::vector<std::string>(metrics.begin(), metrics.end())) {
    // "useful_tflops_per_rank": a per-device figure, headed by its base's words.
    const size_t per = m.rfind("_per_");
    bool named = false;
    for (const Base& b : kBases) {
      const std::string base = b.metric;
      if (per == std::string::npos || per < base.size() || m.compare(per - base.size(), base.size(), base) != 0) continue;
      const std::string q = per == base.size() ? "" : words(m.substr(0, per - base.size() - 1)) + " ";
      add(m, q + b.header + " per " + m.substr(per + 5), b.scale, b.decimals);
      named = true;
      break;
    }
    if (!named && metrics.erase(m)) cols->push_back(OwnColumn(figures, m));
  }
}

std::vector<RecordedColumn> RecordedColumns(const std::vector<RecordedFigure>& figures) {
  std::set<std::string> metrics;
  for (const auto& f : figures)
    for (const auto& [m, v] : f.run.metrics) metrics.insert(m);
  std::vector<RecordedColumn> cols;
  auto add = [&](const std::string& m, const std::string& header, double scale, int decimals) {
    if (metrics.erase(m)) cols.push_back({m, header, scale, decimals, ""});
  };
  if (metrics.erase("time_s")) cols.push_back(TimeColumn(figures, "time_s"));
  for (const auto& [m, header, decimals] : {std::tuple<const char*, const char*, int>{"tflops", "TF/s", 3},
                                            {"tokens_per_s", "tokens/s", 0}, {"gb_per_s", "GB/s", 1}})
    if (metrics.erase(m)) cols.push_back(BaseColumn(figures, m, header, 1, decimals));
  add("mfu", "MFU %", 1, 2);  // as written: 12.61 %
  add("speedup", "speedup (derived)", 1, 3);
  for (const auto& m : std::vector<std::string>(metrics.begin(), metrics.end())) {
    if (m.size() < 9 || m.compare(m.size() - 9, 9, "delta_pct") != 0) continue;
    std::string base = m == "delta_pct" ? "" : m.substr(0, m.size() - 10);
    base = base == "tflops" ? "TF/s " : base == "tokens_per_s" ? "tokens/s " : base == "time_s" ? "time " : base.empty() ? "" : base + " ";
    // "delta %" only over percentages: a change written without one is shown so.
    const bool percent = std::all_of(figures.begin(), figures.end(), [&](const RecordedFigure& f) {
      const auto u = f.run.units.find(m);
      return !f.run.metrics.count(m) || u == f.run.units.end() || u->second == "%";
    });
    add(m, base + (percent ? "delta % (derived)" : "delta (derived)"), 1, 2);
  }
  NamedColumns(figures, &metrics, &cols);
  return cols;
}

}  // namespace

namespace {

// One table of recorded figures (`numbers`: each figure's number in the
// whole record, document order), its notes after it.
std::string RecordedTablePart(const std::vector<RecordedFigure>& figures, const std::vector<int>& numbers) {
  std::string out;
  // Keys every figure has with one value are said once; the others are columns.
  std::map<std::string, std::set<std::string>> values;
  std::map<std::string, size_t> present;
  for (const auto& f : figures)
    for (const auto& [k, v] : f.run.config) values[k].insert(v), ++present[k];
  std::vector<std::string> keys, shared;
  for (const char* k : kPriority)
    if (values.count(k) && (values[k].size() > 1 || present[k] < figures.size())) keys.push_back(k);
  for (const auto& [k, vs] : values) {
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    if (vs.size() > 1 || present[k] < figures.size()) keys.push_back(k);
    // moelog's own process settings (json, trace_dir) say nothing of a run;
    // another harness's flags of those names are its settings (threads=4).
    else if (!IsIgnoredForPairing(k) || values.count("harness")) shared.push_back(k + "=" + *vs.begin());
  }
  std::string every;
  if (!shared.empty()) {
    every = "- Every figure above: ";
    for (size_t i = 0; i < shared.size(); ++i) every += (i ? ", " : "") + shared[i];
    every = NoteLine(every + ".");
  }
  out += "|";
  const auto cols = RecordedColumns(figures);
  Cell(&out, "#");
  for (const auto& k : keys) Cell(&out, EscapeCell(k));
  for (const auto& c : cols) Cell(&out, EscapeCell(c.header));
  out += "\n|";
  for (size_t i = 0; i < 1 + keys.size(); ++i) out += " --- |";
  for (size_t i = 0; i < cols.size(); ++i) out += " ---: |";
  out += "\n";
  // Figures are numbered in document order (their run IDs' "#n"); lines
  // would move as regions are written above them.
  std::map<std::map<std::string, std::string>, std::vector<int>> same;  // config -> figure numbers
  for (size_t n = 0; n < figures.size(); ++n) {
    const RecordedFigure& f = figures[n];
    out += "|";
    Cell(&out, std::to_string(numbers[n]));
    for (const auto& k : keys) {
      auto it = f.run.config.find(k);
      Cell(&out, it == f.run.config.end() ? "-" : EscapeCell(it->second));  // "Store||XOR" is one cell
    }
    for (const auto& c : cols) Cell(&out, RecordedCell(f, c));
    out += "\n";
    same[f.run.config].push_back(numbers[n]);
  }
  std::string dup;
  for (const auto& [cfg, lines] : same) {
    if (lines.size() < 2) continue;
    dup += "- figures";
    for (size_t i = 0; i < lines.size(); ++i) dup += (i ? ", " : " ") + std::to_string(lines[i]);
    dup += ": the same configuration as far as the entry says (nothing tells these figures apart)\n";
  }
  if (!every.empty()) out += "\n" + every + "\n";
  if (!dup.empty()) out += "\nRecorded figures moelog cannot tell apart:\n\n" + dup;
  return out;
}

}  // namespace

std::string RenderRecordedTable(const std::vector<RecordedFigure>& figures) {
  std::string out = "Recorded in this logbook; moelog ran nothing.";
  if (figures.empty()) return out + "\n";
  // A profiler's reports (its kernels', its API calls') are workloads of
  // their own: a table each, its figures numbered in the record's order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> parts;
  for (size_t n = 0; n < figures.size(); ++n) {
    auto it = figures[n].run.config.find(reader::kWorkloadKey);
    const std::string w = it == figures[n].run.config.end() ? "" : it->second;
    if (!parts.count(w)) order.push_back(w);
    parts[w].push_back(n);
  }
  for (const auto& w : order) {
    std::vector<RecordedFigure> part;
    std::vector<int> numbers;
    for (size_t n : parts[w]) part.push_back(figures[n]), numbers.push_back(static_cast<int>(n + 1));
    if (order.size() > 1 && !w.empty())  // the report is named above its table
      for (auto& f : part) f.run.config.erase(reader::kWorkloadKey);
    out += out.back() == '\n' ? "\n" : "\n\n";
    if (order.size() > 1 && !w.empty()) out += "Report `" + w + "`:\n\n";
    out += RecordedTablePart(part, numbers);
  }
  return out;
}

}  // namespace moelog::logbook
