#include "logbook/reader/figures_vertical.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/figures_output_words.h"


#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/table_derived.h"

namespace moelog::logbook::reader {
namespace {

// The words of data/reader/vertical_tables.json, read once.
struct VerticalWords {
  std::set<std::string> names, values, no_run, long_metrics, spreads, goals;
};

const VerticalWords& Vocab() {
  static const VerticalWords words = [] {
    VerticalWords w;
    for (const auto& [key, into] : {std::pair{"name_headers", &w.names}, std::pair{"value_headers", &w.values},
                                    std::pair{"no_run_labels", &w.no_run}, std::pair{"long_metric_headers", &w.long_metrics},
                                    std::pair{"spread_headers", &w.spreads}, std::pair{"goal_headers", &w.goals}})
      *into = DataWords("data/reader/vertical_tables.json", key);
    return w;
  }();
  return words;
}

// A header or label as compared: lower case, no markup, no closing colon.
std::string Plain(const std::string& s) {
  std::string p = Lower(Unticked(s));
  while (!p.empty() && (p.back() == ':' || p.back() == '.')) p.pop_back();
  return parse_detail::Trim(p);
}

bool HasAlpha(const std::string& s) {
  // A letter of any script ("Ошибки", "延迟") is one too.
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || (c & 0x80); });
}

// Whether a text names a sheet of no run (its words, punctuation aside).
bool NamesNoRun(const std::string& text) {
  for (const auto& w : Words(Lower(text))) {
    std::string word;
    for (char c : w)
      if (std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80)) word += c;  // "硬件": a word in any script
    if (Vocab().no_run.count(word)) return true;
    // A script written without spaces: the word is found inside the run of letters ("理论最大值" holds "理论").
    if (std::any_of(word.begin(), word.end(), [](char c) { return (c & 0x80) != 0; }))
      for (const auto& label : Vocab().no_run)
        if ((label[0] & 0x80) && word.find(label) != std::string::npos) return true;
  }
  return false;
}

// The table's caption: a one-line paragraph right above it.
std::string Caption(const Entry& e, const TableBlock& t) {
  for (const auto& p : e.paragraphs)
    if (p.end_line < t.line && p.end_line >= t.line - 2 && p.line == p.end_line && p.text.size() <= 80) return p.text;
  return "";
}

// What a metric row's name says of its run besides the metric: settings
// written `key=value` ("Tokens/sec batch=1") and a closing parenthesis of
// words that is no unit nor statistic ("(baseline)", "(LocalLeap)"), keyed
// case; `*metric` gets the name without them ("Tokens/sec").
Config RowQualifiers(const std::string& name, std::string* metric) {
  Config q;
  std::string rest = Trim(name);
  if (const size_t open = rest.rfind('('); open != std::string::npos && open > 0 && rest.back() == ')') {
    const std::string inner = Trim(rest.substr(open + 1, rest.size() - open - 2));
    UnitInfo u{};
    const auto words = Words(Lower(inner));
    bool plain = !inner.empty() && HasAlpha(inner) && words.size() <= 3 && !UnitOf(inner, &u) &&
                 inner.find_first_of(",=/%") == std::string::npos;
    for (const auto& w : words) plain = plain && !StatWord(w) && !StatisticWord(w) && !MetricWord(w);
    if (plain) q["case"] = inner, rest = Trim(rest.substr(0, open));
  }
  std::string kept;
  for (const auto& w : Words(rest)) {
    const size_t eq = w.find('=');
    if (eq != std::string::npos && eq > 0 && eq + 1 < w.size() && IsIdentStart(w[0])) q[SnakeKey(w.substr(0, eq))] = w.substr(eq + 1);
    else kept += (kept.empty() ? "" : " ") + w;
  }
  *metric = q.empty() ? name : kept;
  return q;
}

// The qualifiers of each row's name in column `col` of `t` (RowQualifiers),
// when they tell rows apart: two rows or more qualified, not all alike.
std::vector<Config> TableRowQualifiers(const TableBlock& t, size_t col, std::vector<std::string>* metrics) {
  std::vector<Config> q(t.rows.size());
  metrics->assign(t.rows.size(), "");
  std::set<Config> seen;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string name = col < t.rows[r].size() ? Unticked(t.rows[r][col]) : "";
    q[r] = RowQualifiers(name, &(*metrics)[r]);
    if (!q[r].empty()) seen.insert(q[r]);
  }
  if (seen.size() < 2) {
    q.assign(t.rows.size(), Config{});
    for (size_t r = 0; r < t.rows.size(); ++r) (*metrics)[r] = col < t.rows[r].size() ? Unticked(t.rows[r][col]) : "";
  }
  return q;
}

// A row of a setting rather than a figure: a short value that starts with
// a letter ("llama-3-8b", "bf16", "paged KV"), or a whole number beside a
// name that names no unit, metric or unitless figure ("Batch size | 8").
bool SettingRow(const std::string& name, const std::string& value) {
  if (name.empty() || name.size() > 40 || value.empty() || value.size() > 40 || RemarkColumn(name)) return false;
  if (std::isalpha(static_cast<unsigned char>(value[0]))) return Words(value).size() <= 4;
  if (!std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  if (!PrintedKeyUnit(name).empty() || UnitlessMetricName(SnakeKey(name)) || name.find('(') != std::string::npos)
    return false;
  for (const auto& w : Words(Lower(name)))
    if (MetricWord(w) || StatWord(w)) return false;
  return true;
}

// Whether any value cell of `t` is written with a unit of its own.
bool AnyCellUnit(const TableBlock& t) {
  for (const auto& row : t.rows)
    for (size_t c = 1; c < row.size(); ++c) {
      std::string unit;
      if (NumberCell(Unticked(row[c]), &unit) && !unit.empty()) return true;
    }
  return false;
}

// A row's name without a parenthetical that holds a number ("Long-Tasks (10
// s)": the window the tasks were counted over, not their unit).
std::string WithoutNumberedAside(const std::string& name) {
  const size_t open = name.find('('), close = name.find(')', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos || open == 0 || name.find_first_of("0123456789", open) > close)
    return name;
  return parse_detail::Trim(name.substr(0, open) + name.substr(close + 1));
}

// The metric a row's name gives its bare numbers: the unit it names
// ("Decode latency (ms)"), else, in a table that writes no unit anywhere,
// the name itself ("TTFT p50", unitless); none for a derived row ("Speedup"),
// a setting's ("Batch size | 8") or a remark's.
ColumnInfo RowMetric(const std::string& name, const std::string& value, bool no_units) {
  const ColumnInfo c = ColumnMetric(WithoutNumberedAside(name));
  if (c.derived || name.empty() || RemarkColumn(name) || NamesNoRun(name) || SettingRow(name, value)) return {};
  if (!c.metric.empty()) return c;
  if (!no_units || !HasAlpha(name)) return {};
  ColumnInfo own;
  own.metric = SnakeKey(name), own.factor = 1;
  return own;
}

// Whether a column after the first names a metric by its header ("Decode ms").
bool HeadersNameMetrics(const TableBlock& t) {
  for (size_t c = 1; c < t.header.size(); ++c)
    if (const ColumnInfo m = ColumnMetric(Unticked(t.header[c])); !m.metric.empty() && !m.derived) return true;
  return false;
}

// Whether two headers after the first name their metric in words
// (metric_line_words of output.json: "| Benchmark | Time (ns) | CPU Time (ns)
// | Iterations |"): the columns are the metrics and the rows runs, whatever
// the rows' names hold ("Ring Buffer Throughput"); "| Metric | Before (ms) |
// After (ms) |" names a unit only, its columns runs.
bool HeadersNameMetricsApart(const TableBlock& t) {
  const std::set<std::string>& metric_words = OutputVocabulary().metric_line_words;
  int named = 0;
  for (size_t c = 1; c < t.header.size(); ++c) {
    const std::string h = Unticked(t.header[c]);
    const auto words = Words(Lower(h));
    if (const ColumnInfo m = ColumnMetric(h); !m.metric.empty() && !m.derived &&
        std::any_of(words.begin(), words.end(), [&](const std::string& w) { return metric_words.count(w) > 0; }))
      ++named;
  }
  return named >= 2;
}

// Whether the rows of `t` name their metrics by a unit ("| Prompt | 1K |
// 2K |" over "| Prefill token/s | 105 | 102 |" and "| Latency (ms) | ...":
// two rows at least, and most rows that hold a figure).
bool RowsNameMetrics(const TableBlock& t) {
  if (HeadersNameMetrics(t)) return false;  // "| Size | Copy (MB/s) |": the columns name the metric
  int named = 0, with_figures = 0;
  for (const auto& row : t.rows) {
    bool figure = false;
    std::string unit;
    for (size_t c = 1; c < row.size(); ++c) figure = figure || NumberCell(Unticked(row[c]), &unit);
    if (!figure || row.empty()) continue;
    ++with_figures;
    const std::string name = Unticked(row[0]);  // "64 MiB" is a size the row is keyed by, no metric's name
    const ColumnInfo m = name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])) ? ColumnInfo{} : ColumnMetric(name);
    named += !m.metric.empty() && !m.derived ? 1 : 0;
  }
  return named >= 2 && 2 * named >= with_figures;
}

// Whether the headers after the first are values of what it names ("|
// eval sims | raw | 1 | 2 | 3 |": two-thirds of them numbers, the others
// one short word) over rows each a name and bare decimals ("| opt-rate |
// 0.950 | 0.587 |"): each row's name is its metric, each column a run
// keyed by the first header (eval_sims=2).
bool ValueHeaders(const TableBlock& t) {
  if (t.header.size() < 3 || Plain(t.header[0]).empty() || !ColumnMetric(Unticked(t.header[0])).metric.empty()) return false;
  size_t numbers = 0;
  for (size_t c = 1; c < t.header.size(); ++c) {
    const std::string h = Unticked(t.header[c]);
    std::string unit;
    if (NumberCell(h, &unit) && unit.empty()) ++numbers;
    else if (h.size() > 5 || Words(h).size() != 1) return false;
  }
  if (3 * numbers < 2 * (t.header.size() - 1)) return false;
  for (const auto& row : t.rows) {
    if (row.empty() || !HasAlpha(Unticked(row[0]))) return false;
    for (size_t c = 1; c < row.size(); ++c) {
      std::string unit;
      if (!EmptyCell(row[c]) && (!NumberCell(Unticked(row[c]), &unit) || !unit.empty() || Unticked(row[c]).find('.') == std::string::npos))
        return false;
    }
  }
  return !t.rows.empty();
}

// A row whose only cell is its first ("| **6 experts V0.2.0** | | |"): the
// name of the rows below it, up to the next such row; "" for any other row.
std::string GroupRow(const std::vector<std::string>& row) {
  if (row.empty() || EmptyCell(row[0])) return "";
  for (size_t c = 1; c < row.size(); ++c)
    if (!EmptyCell(row[c])) return "";
  std::string name = Unticked(row[0]);
  name.erase(std::remove(name.begin(), name.end(), '*'), name.end());
  return parse_detail::Trim(name);
}

// A cell NumberCell takes, or a number whose unit is a share ("78%", "100%
// (1 core pinned)") or one the row's name tells (`| RAM | 2.1 GB |`): its
// unit in `unit`.
bool RowCell(const std::string& cell, const std::string& name, std::string* unit) {
  if (NumberCell(cell, unit)) return true;
  std::string plain = Unticked(cell);
  if (const size_t open = plain.find(" ("); open != std::string::npos) plain.resize(open);
  size_t n = 0;
  while (n < plain.size() && (std::isdigit(static_cast<unsigned char>(plain[n])) || plain[n] == '.' || plain[n] == ',')) ++n;
  if (n == 0 || !ParseNumber(plain.substr(0, n))) return false;
  *unit = parse_detail::Trim(plain.substr(n));
  UnitInfo info{};
  return *unit == "%" || (UnitOfIn(*unit, name, &info) && !info.derived);
}

// The metric of a cell under header `h` in a row named `name`: its own
// unit's, else the one the row's name gives (RowMetric); none for a remark,
// a check, an estimate or a comparison column's bare share.
ColumnInfo CellMetric(const std::string& h, const std::string& name, const std::string& cell, bool no_units) {
  std::string unit;
  UnitInfo info{};
  if (h.empty() || RemarkColumn(h) || CheckColumn(h) || EstimateColumn(h) || NamesNoRun(h) || !RowCell(cell, name, &unit))
    return {};
  // A column named as a comparison ("Gap", "FA2 vs SDPA") holds a run's
  // figure only when its cell writes a unit of its own ("1.2 ms").
  if (ColumnMetric(h).derived && (unit.empty() || unit == "%")) return {};
  // "| RAM | 2.1 GB |": a unit of several metrics, told by the row's name.
  if (!unit.empty() && unit != "%" && (UnitOf(unit, &info) || UnitOfIn(unit, name, &info)) && !info.derived)
    return ColumnInfo{info.metric, unit, "", info.factor, false, {}, {}};
  // "| CPU postgres | 100% | 78% |": a share the row names (a utilization, a rate).
  if (unit == "%" && HasAlpha(name) && !ColumnMetric(name).derived && !RemarkColumn(name) && !NamesNoRun(name) &&
      !SettingRow(name, cell))
    return ColumnInfo{SnakeKey(name) + "_pct", "%", "", 1, false, {}, {}};
  return unit.empty() ? RowMetric(name, cell, no_units) : ColumnInfo{};
}

// The column's run met on a row above (prefill's, then decode's) among
// [from, to): the row's figures `figs` join it, its line among the run's
// lines. False when there is none.
bool JoinColumnRun(const StoredRun& figs, const Config& cfg, int line, std::vector<RecordedFigure>::iterator from,
                   std::vector<RecordedFigure>::iterator to) {
  auto same = std::find_if(from, to, [&](const RecordedFigure& f) {
    return f.run.config == cfg && !f.run.metrics.count(figs.metrics.begin()->first);
  });
  if (same == to) return false;
  MergeRunFigures(figs, &same->run);
  if (std::find(same->joined_lines.begin(), same->joined_lines.end(), line) == same->joined_lines.end())
    same->joined_lines.push_back(line);
  return true;
}

// A metric row's derived cells ("| p50 read | 75 ms | 18 ms | -76% |", a
// column headed Δ, change, vs ...): each onto the run column it works out
// for (AttachDerived), named after the row's metric so the rows' changes
// stay apart on a column's run ("p50_read_time_s_delta_pct").
void RowChange(const TableBlock& t, const std::vector<std::string>& row, std::vector<std::pair<size_t, StoredRun>>* cells) {
  if (cells->size() < 2) return;
  std::vector<StoredRun*> runs;
  for (auto& [c, figs] : *cells) runs.push_back(&figs);
  const std::string base = runs[0]->metrics.begin()->first;
  for (size_t c = 1; c < row.size() && c < t.header.size(); ++c) {
    const ColumnInfo col = ColumnMetric(Unticked(t.header[c]));
    if (!col.derived || std::any_of(cells->begin(), cells->end(), [&](const auto& cell) { return cell.first == c; }))
      continue;
    std::map<std::string, StoredRun> d;
    MetricCell(Unticked(row[c]), col, &d);
    if (d.empty() || d.begin()->second.metrics.empty()) continue;
    StoredRun named;
    for (const auto& [m, v] : d.begin()->second.metrics) {
      const std::string n = base + "_" + m;
      named.metrics[n] = v, named.derived.insert(n);
      if (auto u = d.begin()->second.units.find(m); u != d.begin()->second.units.end()) named.units[n] = u->second;
      if (auto k = d.begin()->second.decimals.find(m); k != d.begin()->second.decimals.end()) named.decimals[n] = k->second;
    }
    AttachDerived(&named, runs);
  }
}

// "| Metric | PyTorch | Triton | Gap |": rows of metrics, each further
// column a run (variant=<its header>); a cell written with its own unit is
// that run's figure of the row's metric, a bare number one of the metric its
// row's name gives (RowMetric), any other cell (a share, a ratio, a remark)
// none.
bool MetricRowsFigures(const TableBlock& t, const Config& context, const EntryCtx& x,
                       std::vector<RecordedFigure>* out) {
  // "| | iter-0 | iter-1 |": a first column left unheaded names the rows too,
  // unless the columns name the metrics ("| | Prefill ms | Decode ms |": rows of runs).
  const bool unheaded = Plain(t.header[0]).empty() && !HeadersNameMetrics(t);
  if (t.header.size() < 3 || !(Vocab().names.count(Plain(t.header[0])) || unheaded || RowsNameMetrics(t) || ValueHeaders(t)) ||
      HeadersNameMetricsApart(t) || NamesNoRun(t.subheading) || NamesNoRun(Caption(*x.entry, t)))
    return false;
  const size_t before = out->size();
  const bool no_units = !AnyCellUnit(t);
  // Under a header that names no metric column ("| Prompt | 1K | 2K |"), the
  // columns are values of what it names (prompt=1K) and each row's name
  // qualifies its metric (prefill_tokens_per_s): one row per column.
  const bool keyed_columns = !Vocab().names.count(Plain(t.header[0]));
  const std::string column_key = unheaded ? "variant" : SnakeKey(Unticked(t.header[0]));
  std::string group;
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    if (const std::string g = GroupRow(row); !g.empty()) {
      group = g;
      continue;
    }
    const std::string text = RowText(row);
    std::vector<std::pair<size_t, StoredRun>> cells;  // each run column's figures of the row
    for (size_t c = 1; c < row.size() && c < t.header.size(); ++c) {
      const std::string h = Unticked(t.header[c]), cell = Unticked(row[c]);
      ColumnInfo col = CellMetric(h, Unticked(row[0]), cell, no_units);
      if (col.metric.empty()) continue;
      if (const std::string q = Qualifier(Unticked(row[0])); keyed_columns && !q.empty())
        col.metric = QualifiedMetricName(q, col.metric);
      std::map<std::string, StoredRun> figs;
      MetricCell(cell, col, &figs);
      if (!figs.empty() && HasBaseMetric(figs[""])) cells.emplace_back(c, std::move(figs[""]));
    }
    RowChange(t, row, &cells);  // "| p50 | 75 ms | 18 ms | -76% |": the change onto the run it was taken to
    for (auto& [c, run_figs] : cells) {
      const std::string h = Unticked(t.header[c]);
      std::map<std::string, StoredRun> figs{{"", std::move(run_figs)}};
      Config cfg = context;
      if (keyed_columns && !column_key.empty()) cfg[column_key] = h;
      else cfg[SnakeKey(Unticked(t.header[0]))] = Unticked(row[0]), cfg["variant"] = h;  // "metric", "benchmark" ...
      if (!group.empty()) cfg["group"] = group;
      const int line = t.line + 2 + static_cast<int>(r);
      if (!keyed_columns || !JoinColumnRun(figs[""], cfg, line, out->begin() + static_cast<std::ptrdiff_t>(before), out->end())) {
        StoredRun run = NewRecorded(x, cfg, line);
        MergeRunFigures(figs[""], &run);
        out->push_back({std::move(run), line, text, false, true});
      }
    }
  }
  return out->size() > before;
}

// The unit a vertical table's caption, else the sub-heading it sits under,
// names for its bare numbers ("#### Latency Distribution (µs)" over "| Min
// | 26 |"), as a value-columns table's (ValueMetric); "" for none.
std::string SheetUnit(const Entry& e, const TableBlock& t) {
  if (const ColumnInfo c = CaptionUnit(Caption(e, t)); !c.metric.empty()) return c.unit;
  return CaptionUnit(t.subheading).unit;
}

// A row's value with the sheet's unit after it when the value is a bare
// number and the row's name names no unit of its own ("Min", "P99.9"), so
// it reads as "Min: 26 µs"; with the unit its name holds among its words
// ("Write max RPS": "45 RPS"); else the value as written.
std::string WithSheetUnit(const std::string& name, const std::string& value, const std::string& unit) {
  std::string own;
  if (!NumberCell(value, &own) || !own.empty() || !PrintedKeyUnit(name).empty()) return value;
  // "| Write max RPS | 45 |": a unit the name holds among its words is the bare number's.
  if (const ColumnInfo c = ColumnMetric(name); !c.metric.empty())
    return c.derived || c.unit.empty() || c.unit == "%" ? value : value + " " + c.unit;
  return unit.empty() ? value : value + " " + unit;
}

// The number a value cell writes before a remark in parentheses ("4.1555（第
// 1 层）", "0.91 (median)"), marks dropped.
std::string ValueBeforeRemark(std::string value) {
  value.erase(std::remove(value.begin(), value.end(), '*'), value.end());
  for (const char* open : {"(", "\xEF\xBC\x88"})
    if (const size_t p = value.find(open); p != std::string::npos && p > 0) value = value.substr(0, p);
  return parse_detail::Trim(value);
}

// A row of a figure no unit names, written with decimals, under a name that
// is no setting's nor one the output reader knows ("| EPMI_RED | 0.0145 |",
// "| 2-gram | 0.688 |"): the figure, unitless, named by the row.
bool BareDecimal(const std::string& name, const std::string& raw, const std::string& sheet_unit) {
  std::string unit;
  const std::string value = ValueBeforeRemark(raw);
  if (!sheet_unit.empty() || name.empty() || name.size() > 40 || !HasAlpha(name) || !NumberCell(value, &unit) ||
      !unit.empty() || value.find('.') == std::string::npos || NamesNoRun(name))
    return false;
  const std::string key = SnakeKey(name);
  return !key.empty() && PrintedKeyUnit(name).empty() && !UnitlessMetricName(key) && !SettingKey(key) &&
         !ParameterHeader(name) && !SettingHeader(name) && ColumnMetric(name).metric.empty();
}

// The run of a row BareDecimal took: metric=<its name>, the figure as written.
RecordedFigure BareFigure(const TableBlock& t, size_t r, const Config& settings, const EntryCtx& x) {
  const std::string name = Unticked(t.rows[r][0]), value = ValueBeforeRemark(Unticked(t.rows[r][1]));
  bool approximate = false;
  const std::string core = CellCore(value, &approximate);
  const int line = t.line + 2 + static_cast<int>(r);
  Config cfg = settings;
  cfg["metric"] = name;
  StoredRun run = NewRecorded(x, cfg, line);
  const std::string key = SnakeKey(name);
  run.metrics[key] = ParseNumber(core).value_or(0);
  run.decimals[key] = WrittenDecimals(core);
  if (approximate) run.approximate.insert(key);
  return {std::move(run), line, RowText(t.rows[r]), false, true};
}

}  // namespace

// Whether every row of a two-column table is a name and a plain decimal
// ("| 全层均值 | **4.1444** |", "| 最大值 | 4.1555（第 1 层）|"): a sheet of
// unitless figures whatever its headers say (no unit in any cell).
bool NamedDecimalRows(const TableBlock& t) {
  if (t.rows.size() < 2) return false;
  for (const auto& row : t.rows) {
    if (row.size() < 2 || !HasAlpha(Unticked(row[0]))) return false;
    const std::string cell = ValueBeforeRemark(Unticked(row[1]));
    std::string unit;
    if (cell.find('.') == std::string::npos || !NumberCell(cell, &unit) || !unit.empty()) return false;
  }
  return true;
}

bool VerticalTable(const TableBlock& t) {
  if (t.header.size() != 2 || t.rows.empty()) return false;
  const std::string first = Plain(t.header[0]), second = Plain(t.header[1]);
  if (!Vocab().names.count(first) && !Vocab().values.count(second) && !first.empty() && !NamedDecimalRows(t)) return false;
  if (!ColumnMetric(Unticked(t.header[1])).metric.empty()) return false;  // "| Metric | ms |": a column of one unit
  for (const auto& row : t.rows)
    if (!row.empty() && !EmptyCell(row[0]) && !HasAlpha(Unticked(row[0]))) return false;
  return true;
}

bool VerticalTableFigures(const TableBlock& t, const Config& context, const EntryCtx& x,
                          std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  if (x.entry != nullptr && MetricRowsFigures(t, context, x, out)) return true;
  if (x.entry == nullptr || !VerticalTable(t)) return false;
  const Entry& e = *x.entry;
  // "## 2.1 Hardware": an entry headed by such a word alone is a sheet too.
  const bool sheet_entry = Words(e.heading).size() <= 3 && NamesNoRun(e.heading);
  if (NamesNoRun(t.subheading) || NamesNoRun(Caption(e, t)) || NamesNoRun(Plain(t.header[1])) || sheet_entry ||
      EstimateColumn(t.header[1])) {
    if (unread) unread->push_back({t.line, "| " + Unticked(t.header[0]) + " | ...", "a sheet of specifications, goals or estimates: no run"});
    return true;
  }
  Config settings = context;
  FencedBlock block;  // the rows as printed `Name: value` lines, each on its row's line
  block.line = t.line + 1;
  block.output_cue = "table";
  block.subheading = t.subheading;
  const std::string unit = SheetUnit(e, t);
  std::vector<size_t> bare;  // rows of a figure without a unit the sheet names by its own name
  std::vector<std::string> names;
  const std::vector<Config> qualifiers = TableRowQualifiers(t, 0, &names);
  for (const auto& row : t.rows) {
    std::string name = names[static_cast<size_t>(&row - t.rows.data())];
    while (!name.empty() && name.back() == ':') name.pop_back();
    const std::string value = row.size() < 2 || EmptyCell(row[1]) ? "" : Unticked(row[1]);
    if (ColumnMetric(name).derived) {  // "| Speedup | 2.36x |": derived from the runs, none of its own
      if (unread && !value.empty()) unread->push_back({t.line + 2 + static_cast<int>(&row - t.rows.data()), "| " + Unticked(row[0]) + " | " + value + " |", "derived (a speedup, a change, an efficiency), not a measurement"});
    } else if (EstimateColumn(name)) {  // "| Decode (estimated) | ~19 |": worked out, not measured
      if (unread && !value.empty()) unread->push_back({t.line + 2 + static_cast<int>(&row - t.rows.data()), "| " + Unticked(row[0]) + " | " + value + " |", "an estimate, not a measurement"});
    } else if (SettingRow(name, value)) settings[SnakeKey(name)] = value;
    else if (BareDecimal(name, value, unit)) bare.push_back(&row - t.rows.data());  // "| EPMI_RED | 0.0145 |"
    else if (!name.empty() && !value.empty() && name.find(':') == std::string::npos)
      block.text += name + ": " + WithSheetUnit(name, value, unit);
    block.text += "\n";
  }
  const size_t before = out->size();
  OutputFigures(e, block, settings, x, out, unread);
  for (size_t r : bare) out->push_back(BareFigure(t, r, settings, x));
  for (size_t k = before; k < out->size(); ++k) {
    (*out)[k].table = true;
    const int r = (*out)[k].line - t.line - 2;  // "| Tokens/sec batch=1 (baseline) | 32.9 |": its row's run
    if (r >= 0 && static_cast<size_t>(r) < qualifiers.size())
      for (const auto& [key, v] : qualifiers[static_cast<size_t>(r)]) (*out)[k].run.config[key] = v;
  }
  return true;
}

}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {

namespace {

// The columns of a long table: which names the metric, which holds the
// value, which are spreads; false when `t` is no long table.
bool LongColumns(const TableBlock& t, size_t* metric, size_t* value, std::vector<bool>* spread) {
  *metric = *value = t.header.size();
  spread->assign(t.header.size(), false);
  for (size_t c = 0; c < t.header.size(); ++c) {
    const std::string h = Plain(t.header[c]);
    if (Vocab().long_metrics.count(h) && *metric == t.header.size()) *metric = c;
    else if (Vocab().values.count(h) && *value == t.header.size()) *value = c;
    else (*spread)[c] = h.empty() || Vocab().spreads.count(h) > 0 || Vocab().goals.count(h) > 0;
  }
  if (t.header.size() < 3 || *metric == t.header.size() || *value == t.header.size()) return false;
  int named = 0, numbers = 0;
  std::string unit;
  for (const auto& row : t.rows) {
    named += *metric < row.size() && HasAlpha(Unticked(row[*metric])) ? 1 : 0;
    numbers += *value < row.size() && NumberCell(Unticked(row[*value]), &unit) ? 1 : 0;
  }
  return named >= 2 && numbers >= 2;
}

// A long table row's metric: the unit its name's parenthesis or its value
// cell writes, else the name itself, unitless ("acc_norm").
ColumnInfo LongRowMetric(const std::string& name, const std::string& cell) {
  if (const ColumnInfo c = ColumnMetric(name); !c.metric.empty()) return c.derived ? ColumnInfo{} : c;
  std::string unit;
  UnitInfo info{};
  // "| GPU mem peak | 5.64 GB |": a unit that needs context takes it from the row's name.
  if (!NumberCell(cell, &unit) && (unit.empty() || !AnyUnit(unit, &info))) return {};
  if (!unit.empty()) {
    if (!UnitOfIn(unit, name, &info) || info.derived) return {};
    return ColumnInfo{QualifiedMetricName(SnakeKey(name), info.metric), unit, "", info.factor, false, {}, {}};
  }
  ColumnInfo own;
  own.metric = SnakeKey(name), own.factor = 1;
  return own;
}

}  // namespace

bool LongTableFigures(const TableBlock& t, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out) {
  size_t mcol = 0, vcol = 0;
  std::vector<bool> spread;
  if (!LongColumns(t, &mcol, &vcol, &spread)) return false;
  const size_t before = out->size();
  std::vector<std::string> above(t.header.size());  // an empty setting cell is the one above it
  std::vector<std::string> names;
  const std::vector<Config> qualifiers = TableRowQualifiers(t, mcol, &names);
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    Config cfg = context;
    for (const auto& [k, v] : qualifiers[r]) cfg[k] = v;
    for (size_t c = 0; c < t.header.size(); ++c) {
      if (c == mcol || c == vcol || spread[c]) continue;
      const std::string cell = c < row.size() ? Unticked(row[c]) : "";
      if (!EmptyCell(cell)) above[c] = cell;
      if (!above[c].empty()) cfg[SnakeKey(Unticked(t.header[c]))] = above[c];
    }
    const std::string& name = names[r];
    const std::string cell = vcol < row.size() ? Unticked(row[vcol]) : "";
    const ColumnInfo col = LongRowMetric(name, cell);
    if (col.metric.empty()) continue;
    std::map<std::string, StoredRun> figs;
    MetricCell(cell, col, &figs);
    if (figs.empty() || !HasBaseMetric(figs[""])) continue;
    const int line = t.line + 2 + static_cast<int>(r);
    if (JoinColumnRun(figs[""], cfg, line, out->begin() + static_cast<std::ptrdiff_t>(before), out->end())) continue;
    StoredRun run = NewRecorded(x, cfg, line);
    MergeRunFigures(figs[""], &run);
    out->push_back({std::move(run), line, RowText(row), false, true});
  }
  return out->size() > before;
}

}  // namespace moelog::logbook::reader
