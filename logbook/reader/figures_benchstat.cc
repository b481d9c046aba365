// Reader stage figures, Go's benchstat comparison tables (figures_frameworks.h):
//
//   name          old time/op    new time/op    delta
//   Escape-8         823ns ± 2%     929ns ± 1%  +12.88%  (p=0.000 n=10+10)
//
// Each row is a benchmark case (its GOMAXPROCS suffix a key), each `old`
// and `new` column a run of it (variant=old, variant=new), the value's
// `± 2%` its spread over the runs, the delta derived (listed, not tabled).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_frameworks.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

struct StatColumn {
  std::string metric, base_unit;  // base_unit: what a value in a unit of `units` is shown in
  std::string suffix;             // what a value's prefix is shown with when that makes a unit ("n" + "s")
  std::map<std::string, double> units;  // a value's glued unit -> its factor ("kB": 1000); empty: the reader's units
};

struct BenchstatWords {
  std::string first, last, plus_minus;
  std::vector<std::string> box;  // the rules of its newer header ("│", as a printed line gives it "|")
  std::set<std::string> summaries;  // a row over all cases ("geomean")
  std::map<std::string, StatColumn> columns;  // "alloc/op" -> bytes_per_op, its units
};

const BenchstatWords& Words() {
  static const BenchstatWords w = [] {
    BenchstatWords out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("benchstat") || !j["benchstat"].is_object()) return out;
    const auto& b = j["benchstat"];
    out.first = b.value("header_first", ""), out.last = b.value("header_last", ""), out.plus_minus = b.value("plus_minus", "");
    if (b.contains("box_rules") && b["box_rules"].is_array())
      for (const auto& r : b["box_rules"])
        if (r.is_string()) out.box.push_back(r.get<std::string>());
    if (b.contains("summary_rows") && b["summary_rows"].is_array())
      for (const auto& r : b["summary_rows"])
        if (r.is_string()) out.summaries.insert(r.get<std::string>());
    if (b.contains("columns") && b["columns"].is_object())
      for (const auto& [name, c] : b["columns"].items()) {
        if (!c.is_object()) continue;
        StatColumn col;
        col.metric = c.value("metric", ""), col.base_unit = c.value("base_unit", ""), col.suffix = c.value("prefix_unit", "");
        if (c.contains("units") && c["units"].is_object())
          for (const auto& [u, f] : c["units"].items())
            if (f.is_number()) col.units[u] = f.get<double>();
        out.columns[name] = col;
      }
    return out;
  }();
  return w;
}

struct Column {
  std::string label, stat;  // "old", "time/op"
};

// "name  old time/op  new time/op  delta": each run's label and statistic.
bool Header(const std::vector<std::string>& toks, std::vector<Column>* cols) {
  const BenchstatWords& w = Words();
  if (w.first.empty() || toks.size() < 3 || LowerAscii(toks[0]) != w.first || LowerAscii(toks.back()) != w.last) return false;
  cols->clear();
  for (size_t k = 1; k + 1 < toks.size(); ++k) {
    const bool stat = toks[k].find("/op") != std::string::npos || w.columns.count(toks[k]);
    if (!stat && k + 2 < toks.size()) {
      cols->push_back({toks[k], toks[k + 1]});
      ++k;
    } else if (stat) {
      cols->push_back({"", toks[k]});
    } else {
      return false;
    }
  }
  return !cols->empty();
}

// A value as printed ("823ns", "5.03µs", "9.87kB", "1.23k"): its digits and unit.
bool Value(const std::string& tok, std::string* digits, std::string* unit) {
  size_t n = 0;
  while (n < tok.size() && (std::isdigit(static_cast<unsigned char>(tok[n])) || tok[n] == '.')) ++n;
  *digits = tok.substr(0, n), *unit = tok.substr(n);
  return n > 0 && ParseNumber(*digits).has_value();
}

// The metric and factor of a column's value in `unit`; false when unknown.
bool Metric(const std::string& stat, const std::string& unit, std::string* metric, double* factor) {
  const BenchstatWords& w = Words();
  const auto c = w.columns.find(stat);
  if (c != w.columns.end() && !c->second.units.empty()) {
    const auto u = c->second.units.find(unit);
    if (u == c->second.units.end()) return false;
    *metric = c->second.metric, *factor = u->second;
    return true;
  }
  UnitInfo info{};
  if (!OutputUnit(unit, "", &info) || info.derived) return false;
  *metric = info.metric, *factor = info.factor;
  return true;
}

// One row: a figure per run column that prints a value.
bool Row(const std::vector<std::string>& toks, const std::vector<Column>& cols, const PrintedLine& l, const Config& context,
         const EntryCtx& x, std::vector<RecordedFigure>* out) {
  bool kept = false;
  std::vector<std::pair<std::string, std::string>> keys;
  const std::string name = BenchCaseName(toks[0], &keys);
  size_t k = 1;
  for (const auto& col : cols) {
    std::string digits, unit, metric;
    double factor = 1;
    while (k < toks.size() && !Value(toks[k], &digits, &unit)) ++k;  // a delta between columns: "+12.88% (p=0.000 n=10)"
    if (k >= toks.size()) return kept;
    ++k;
    if (k + 1 < toks.size() && toks[k] == Words().plus_minus) k += 2;  // "± 2%": the spread over its runs
    if (!Metric(col.stat, unit, &metric, &factor) || out->size() > kMaxFiguresPerEntry) continue;
    Config cfg = context;
    cfg["benchmark"] = name;
    for (const auto& [key, v] : keys) cfg[key] = v;
    if (!col.label.empty()) cfg["variant"] = col.label;
    RecordedFigure f{NewRecorded(x, cfg, l.line), l.line, l.text};
    f.run.line = l.line;
    // The case's run in an earlier table of the block (time/op above alloc/op): one row.
    auto same = std::find_if(out->begin(), out->end(), [&](const RecordedFigure& o) {
      return o.run.config == f.run.config && !o.run.metrics.count(metric);
    });
    if (same == out->end()) {
      out->push_back(std::move(f));
      same = out->end() - 1;
    } else if (same->line != l.line) {
      same->joined_lines.push_back(l.line);
    }
    StoredRun& run = same->run;
    run.metrics[metric] = *ParseNumber(digits) * factor;
    const auto own = Words().columns.find(col.stat);  // a unit of the column's own ("9.87kB"): shown in the base one
    bool base = own == Words().columns.end() || own->second.units.empty();
    run.units[metric] = base ? unit : own->second.base_unit;
    if (UnitInfo known{}; !base && !own->second.suffix.empty() && UnitOf(unit + own->second.suffix, &known))
      run.units[metric] = unit + own->second.suffix, base = true;  // "823.0n" of sec/op: 823.0 ns, as written
    if (base || factor == 1) run.decimals[metric] = WrittenDecimals(digits);  // digits as written in their unit
    kept = true;
  }
  return kept;
}

// The cells of a line ruled by box_rule ("│ old.txt │ new.txt │"), trimmed, the empty ones dropped.
std::vector<std::string> BoxCells(const std::string& t, const std::string& bar) {
  std::vector<std::string> cells;
  for (size_t p = 0; p <= t.size();) {
    const size_t q = std::min(t.find(bar, p), t.size());
    if (std::string c = parse_detail::Trim(t.substr(p, q - p)); !c.empty()) cells.push_back(c);
    p = q + (q < t.size() ? bar.size() : 1);
  }
  return cells;
}

// benchstat's ruled header, two lines: the runs' labels ("│ old.txt │
// new.txt │"), then each run's statistic ("│ sec/op │ sec/op  vs base │").
bool BoxHeader(const std::string& first, const std::string& second, std::vector<Column>* cols) {
  const auto bar = std::find_if(Words().box.begin(), Words().box.end(), [&](const std::string& b) {
    return first.find(b) != std::string::npos && second.find(b) != std::string::npos;
  });
  if (bar == Words().box.end()) return false;
  const auto labels = BoxCells(first, *bar), stats = BoxCells(second, *bar);
  if (labels.empty() || labels.size() != stats.size()) return false;
  cols->clear();
  for (size_t k = 0; k < labels.size(); ++k) {
    const auto w = SpaceWords(stats[k]);
    if (w.empty() || !Words().columns.count(w[0])) return false;
    cols->push_back({labels[k], w[0]});
  }
  return true;
}

}  // namespace

void BenchstatTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread) {
  std::vector<Column> cols;
  for (size_t i = 0; i < lines.size(); ++i) {
    const PrintedLine& l = lines[i];
    if (read->count(l.line)) continue;
    const auto toks = SpaceWords(l.text);
    if (toks.empty()) {
      cols.clear();
      continue;
    }
    if (Header(toks, &cols) || (i + 1 < lines.size() && BoxHeader(l.text, lines[i + 1].text, &cols))) {
      read->insert(l.line);
      if (toks[0] != Words().first) read->insert(lines[++i].line);  // the box header's second line
      continue;
    }
    if (!cols.empty() && Words().summaries.count(LowerAscii(toks[0]))) {  // "geomean": over the cases
      read->insert(l.line);
      if (unread) unread->push_back({l.line, FigureText(l.text), "a mean over the cases benchstat compares: derived, not tabled"});
      continue;
    }
    if (cols.empty() || toks.size() < cols.size() + 1) continue;
    if (!Row(toks, cols, l, context, x, out)) continue;
    read->insert(l.line);
    const bool delta = std::any_of(toks.begin() + 1, toks.end(), [](const std::string& t) {
      return t.size() > 2 && (t[0] == '+' || t[0] == '-') && t.back() == '%';
    });
    if (unread && delta)
      unread->push_back({l.line, FigureText(l.text), "the change between the runs benchstat compares: derived, not tabled"});
  }
}

}  // namespace moelog::logbook::reader
