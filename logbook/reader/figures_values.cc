#include "logbook/reader/figures_values.h"

#include <algorithm>

#include "logbook/reader/figures_docunit.h"
#include "logbook/reader/figures_ratewords.h"
#include "logbook/reader/figures_vertical.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/table_derived.h"
#include "logbook/reader/table_statcells.h"

namespace moelog::logbook::reader {

// A header that is one value word ("bf16", "fp8wire", "ring_x"): a letter
// first, no space; not a key's name, a statistic, a check or a remark.
bool ValueHeader(const std::string& h, const EntryCtx& x) {
  // "(128,64)", "4096", "128x64": a tuple or number names a value too.
  if (!h.empty() && h.size() <= 24 && (h[0] == '(' || std::isdigit(static_cast<unsigned char>(h[0]))))
    return std::all_of(h.begin(), h.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == '(' || c == ')' || c == ',' || c == 'x' || c == '.';
    });
  if (h.empty() || h.size() > 32 || !IsIdentStart(h[0]) || ParameterHeader(h) || Words(h).size() > 5) return false;
  // "pp128/tg128"; "dispatch only"; a run named by settings and words ("MTP=1 (FP16 KV)"),
  // not one scale's value alone ("T=1": ScaleValueColumns) (ValueColumns: over bare numbers)
  const bool settings_named = Words(h).size() >= 2;
  for (char c : h)
    if (!IsIdentChar(c) && c != '.' && c != '+' && c != '/' && c != ' ' &&
        !(settings_named && (c == '=' || c == '(' || c == ')')))
      return false;
  const std::string key = NormalizeKey(h);
  if (UnitInfo rate{}; CountPerSecond(h, &rate)) return false;  // "Rows/sec": a rate's unit, no value
  // A switch of moelog's harness (`json`) names no column of another's table.
  const bool run_key = IsRunKey(key) && !(x.generic && IsBoolFlag(key));
  return !run_key && !x.vars.count(key) && !x.fixed.count(key) && !StatisticWord(h) && !SpreadStatistic(h) &&
         !CheckColumn(h) && !OutcomeCount(h) && !RemarkColumn(h) && ColumnMetric(h).metric.empty();
}

// A results table whose columns are values of one key ("| scale | layout |
// bf16 | fp8gemm | fp8wire |", a time in each cell): the columns whose
// header is a value word and whose cells are numbers, when two or more are
// and no column's header names a figure of its own (a speedup aside).
namespace {

// Whether a table's first column is the axis of a sweep (`| tok/rank | dg |
// fp4 |` over 8, 64, 512, 2048): whole numbers, rising row by row, two rows
// at least. Such a column keys its rows; it holds no figures.
bool SweepAxis(const TableBlock& t) {
  long long last = -1;
  int n = 0;
  for (const auto& row : t.rows) {
    if (row.empty()) return false;
    std::string cell;
    for (char c : Trim(row[0]))
      if (c != ',' && c != '*' && c != '`') cell += c;
    if (cell.empty() || cell.size() > 12 || !std::all_of(cell.begin(), cell.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return false;
    const long long v = std::stoll(cell);
    if (v <= last) return false;
    last = v, ++n;
  }
  return n >= 2;
}

// A cell that records a run without a figure ("OOM", "error (OOM)";
// no_run_cells of table.json), not one left empty.
bool NoRunCell(const std::string& raw) {
  const std::string c = Unticked(raw);
  const auto words = Words(Lower(c));
  return !words.empty() && EmptyCell(c) && c != "-" && c != "\xE2\x80\x94" && c != "\xE2\x80\x93" && !PlaceholderCell(c);
}

// A cell opening with a number (after "~" and marks) and a note after it
// in parentheses or after "@": one odd cell of a column of numbers.
bool NotedNumber(const std::string& raw) {
  std::string c = Unticked(raw);
  c.erase(std::remove(c.begin(), c.end(), '*'), c.end());
  size_t p = c.find_first_not_of(" ~\xE2\x89\x88");
  if (p == std::string::npos || !std::isdigit(static_cast<unsigned char>(c[p]))) return false;
  while (p < c.size() && (std::isdigit(static_cast<unsigned char>(c[p])) || c[p] == '.' || c[p] == ',')) ++p;
  while (p < c.size() && c[p] == ' ') ++p;
  return p < c.size() && (c[p] == '(' || c[p] == '@');
}

// "| Method | Mean | Error | Gen0 | Gen1 |" over "121.6 μs | 2.27 μs |
// 28.0762 | 9.2773": whether a column other than `values` writes its cells'
// units (most of its cells a number with one): the rows measure in those
// columns, and the bare ones beside them (GC counts) are no runs.
bool CellsWithUnits(const TableBlock& t, const std::vector<size_t>& values) {
  for (size_t c = 1; c < t.header.size(); ++c) {
    if (std::find(values.begin(), values.end(), c) != values.end()) continue;
    size_t with_unit = 0, cells = 0;
    for (const auto& row : t.rows) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      ++cells;
      if (std::string unit; NumberCell(row[c], &unit) && !unit.empty() && unit != "%" && unit != "x") ++with_unit;
    }
    if (cells >= 2 && with_unit * 2 > cells) return true;
  }
  return false;
}

}  // namespace

std::vector<size_t> ValueColumns(const TableBlock& t, const std::vector<std::string>& headers, const EntryCtx& x,
                                 bool beside_metrics) {
  std::vector<size_t> out, failed_cols;
  std::set<std::string> units;
  for (size_t c = SweepAxis(t) && headers.size() >= 3 ? 1 : 0; c < headers.size(); ++c) {
    if (const ColumnInfo h = ColumnMetric(headers[c]); !h.metric.empty() && !h.derived) {
      if (!beside_metrics) return {};
      continue;  // "| | code | prose | ms/step |": the row's own figure, beside the values
    }
    if (!ValueHeader(headers[c], x) || MeasuredBareColumn(t, c, headers[c])) continue;
    bool numbers = true, any = false, failed = false;
    size_t noted = 0;  // "~31 (30.7/31.1)", "33.6 @256K": a number with a note after it, not read
    for (const auto& row : t.rows) {
      failed = failed || (c < row.size() && NoRunCell(row[c]));
      if (c >= row.size() || EmptyCell(row[c])) continue;
      std::string unit;
      const bool number = NumberCell(row[c], &unit) && (unit.empty() || headers[c].find(' ') == std::string::npos);
      if (!number && NotedNumber(row[c])) ++noted;
      else numbers = numbers && number, any = any || number;
    }
    numbers = numbers && noted <= 1;
    if (numbers && !any && failed) failed_cols.push_back(c);  // a scale no run fit in: `| OOM | OOM |`
    if (!numbers || !any) continue;
    out.push_back(c);
    const ColumnInfo cells = CellUnitMetric(t, c, headers[c]);  // before NameColumns named it by its header
    units.insert(cells.metric + "|" + cells.unit);
  }
  if (!out.empty() && out.size() < 2 && !failed_cols.empty()) {
    out.insert(out.end(), failed_cols.begin(), failed_cols.end());
    std::sort(out.begin(), out.end());
  }
  if (out.size() < 2 || units.size() != 1 || CellsWithUnits(t, out)) return {};
  return out;
}

// The unit a caption names ("Final table (ms/step):", "times in ms"): one
// unit word not right after a number (that is a figure), one metric only.
ColumnInfo CaptionUnit(const std::string& text) {
  ColumnInfo out;
  std::string prev;
  for (std::string w : Words(text)) {
    while (!w.empty() && std::strchr("(),:;*.`", w.back())) w.pop_back();
    while (!w.empty() && std::strchr("(*`", w.front())) w.erase(w.begin());
    UnitInfo info{};
    const bool after_number = !prev.empty() && std::isdigit(static_cast<unsigned char>(prev.back()));
    prev = w;
    if (w.empty() || w == "x" || w == "X" || w == "s" || after_number || !UnitOf(w, &info) || info.derived) continue;
    if (!out.metric.empty() && out.metric != info.metric) return {};
    out.metric = info.metric, out.unit = w, out.factor = info.factor;
  }
  return out;
}

// What a sub-heading that names a unit says its figures measure: its other
// words ("imp Decode (tok/s)" -> "imp_decode"), at most three, no number, no
// metric's name; "" for none.
std::string CaptionWorkload(const std::string& text, const std::string& unit) {
  std::string key;
  int n = 0;
  for (std::string w : Words(text)) {
    while (!w.empty() && std::strchr("(),:;*.`", w.back())) w.pop_back();
    while (!w.empty() && std::strchr("(*`", w.front())) w.erase(w.begin());
    if (w.empty() || w == unit || std::isdigit(static_cast<unsigned char>(w[0])) || MetricWord(w) || MetricWord(Lower(w))) continue;
    if (!key.empty()) key += '_';
    key += SnakeKey(w);
    ++n;
  }
  return n <= 3 ? key : "";
}

// Whether the entry's prose writes one of the table's numbers with a unit
// ("EP16: 37.28 ms" beside a cell 37.28): that unit, when one metric only.
ColumnInfo ProseUnit(const TableBlock& t, const std::vector<size_t>& vcols, const EntryCtx& x) {
  std::set<std::string> cells;
  for (const auto& row : t.rows)
    for (size_t c : vcols)
      if (c < row.size() && !EmptyCell(row[c])) {
        bool approximate = false;
        const std::string core = CellCore(Unticked(row[c]), &approximate);
        cells.insert(core.substr(0, core.find_first_not_of("0123456789.,")));
      }
  ColumnInfo out;
  for (const auto& p : x.prose)
    for (const auto& f : Figures(p.text, false, false)) {
      UnitInfo info{};
      if (f.derived || f.unit.empty() || !UnitOf(f.unit, &info) || f.decimals < 0) continue;
      const double written = FromStored(f.value, info.factor);
      const std::string num = Fixed(written, f.decimals);
      if (!cells.count(num)) continue;
      if (!out.metric.empty() && out.metric != info.metric) return {};
      out.metric = info.metric, out.unit = f.unit, out.factor = info.factor;
    }
  return out;
}

// The metric of a value-columns table's cells: the unit they are written
// in, else the one its caption (the text right above it) names, else the
// one the sub-heading it sits under names ("### Decode (tok/s)"), else the
// rate that sub-heading or the entry's heading names in words (RateInWords), else the
// one the entry's prose writes one of its numbers with, else the one the
// entry's text above it or the document's own text says its tables are in
// (EntryTableUnit, DocumentTableUnit).
ColumnInfo ValueMetric(const TableBlock& t, const std::vector<size_t>& vcols, const std::vector<ColumnInfo>& cols,
                       const EntryCtx& x) {
  if (!cols[vcols[0]].metric.empty()) return CellUnitMetric(t, vcols[0], "");
  for (const auto& p : x.prose)
    if (p.end_line < t.line && p.end_line >= t.line - 2)
      if (ColumnInfo c = CaptionUnit(p.text); !c.metric.empty()) return c;
  const Entry::SubHeading* under = nullptr;
  for (size_t k = 0; x.entry != nullptr && k < x.entry->subheadings.size() && x.entry->subheadings[k].line < t.line; ++k)
    under = &x.entry->subheadings[k];
  if (ColumnInfo c = under ? CaptionUnit(under->text) : ColumnInfo{}; !c.metric.empty()) {
    if (const std::string w = CaptionWorkload(under->text, c.unit); !w.empty()) c.metric = w + "_" + c.metric;
    return c;
  }
  const std::string heading = under ? under->text : x.entry ? x.entry->heading : "";
  if (const std::string u = RateInWords(heading); !u.empty()) return CaptionUnit(u);  // "Samples trained per second"
  if (ColumnInfo c = ProseUnit(t, vcols, x); !c.metric.empty()) return c;
  if (const std::string u = EntryTableUnit(x, t.line); !u.empty()) return CaptionUnit(u);  // "All times in ms."
  return x.table_unit.empty() ? ColumnInfo{} : CaptionUnit(x.table_unit);  // "latency in microseconds" under the title
}

// The key a table's value columns name: one the entry varies with all of
// them as values, else one it sets to one of them, else "variant".
std::string ValueKey(const std::vector<std::string>& headers, const std::vector<size_t>& vcols, const EntryCtx& x) {
  std::string key = KeyOfValue(x.vars, headers[vcols[0]]);
  for (size_t c : vcols)
    if (key.empty() || KeyOfValue(x.vars, headers[c]) != key) key.clear();
  if (!key.empty()) return key;
  for (size_t c : vcols)
    for (const auto& [k, v] : x.fixed)
      if (v == headers[c] && k != "harness" && k != "accelerator" && !NeutralKeyName(k)) return k;
  return "variant";
}

// A table of values by column: each number one run, keyed by its row's
// labels and its column's value. A derived column ("best speedup") is the
// row's, no run. False when the table is no such table.
namespace {

// A value cell's own unit as its column's ("7.5 us" in a table whose rows
// are metrics: "| Metric | PyTorch | Triton |"); none for a bare number.
ColumnInfo CellOwnUnit(const std::string& cell) {
  ColumnInfo out;
  std::string unit;
  UnitInfo info{};
  if (!NumberCell(cell, &unit) || unit.empty() || !UnitOf(unit, &info) || info.derived) return out;
  out.metric = info.metric, out.unit = unit, out.factor = info.factor;
  return out;
}

// Whether figure cells of the value columns write their own unit (a bare
// number beside them is no figure: "| Memory passes | 2 | 3 |").
bool OwnUnits(const TableBlock& t, const std::vector<size_t>& vcols) {
  for (const auto& row : t.rows)
    for (size_t c : vcols)
      if (c < row.size() && !EmptyCell(row[c]) && !CellOwnUnit(Unticked(row[c])).metric.empty()) return true;
  return false;
}

// The row's derived columns ("| Config | v1 | v2 | Ratio |"): each figure
// onto the value column's run it works out for (AttachDerived).
void RowDerived(const std::vector<std::string>& row, const std::vector<ColumnInfo>& cols,
                std::vector<std::pair<std::string, StoredRun>>* sets) {
  std::map<std::string, StoredRun> derived;
  for (size_t c = 0; c < row.size() && c < cols.size(); ++c)
    if (cols[c].derived && !cols[c].metric.empty()) MetricCell(Unticked(row[c]), cols[c], &derived);
  if (derived.empty()) return;
  sets->emplace_back("", std::move(derived.begin()->second));
  AttachDerivedSets(sets);
  sets->pop_back();
}

// Whether every cell of the value columns that holds something is a bare
// number written with decimals ("0.0055", "94.2"), two rows at least.
bool DecimalCells(const TableBlock& t, const std::vector<size_t>& vcols) {
  int n = 0;
  for (const auto& row : t.rows)
    for (size_t c : vcols) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      std::string unit;
      bool approximate = false;
      const std::string core = CellCore(Unticked(row[c]), &approximate);
      if (!NumberCell(core, &unit) || !unit.empty() || core.find('.') == std::string::npos) return false;
      ++n;
    }
  return n >= 2 && t.rows.size() >= 2;
}

// "| decode | 12.63 | 12.18 | −3.6% |" under a change column ("Δ"): the
// change onto the cell's run it works out for (AttachDerived), among the
// row's runs out[first, end).
void RowChanges(const std::vector<std::string>& headers, const std::vector<std::string>& row,
                std::vector<RecordedFigure>* out, size_t first) {
  std::vector<StoredRun*> runs;
  for (size_t k = first; k < out->size(); ++k) runs.push_back(&(*out)[k].run);
  for (size_t c = 1; c < row.size() && c < headers.size() && runs.size() >= 2; ++c) {
    const ColumnInfo col = ColumnMetric(headers[c]);
    if (!col.derived || EmptyCell(row[c])) continue;
    std::map<std::string, StoredRun> d;
    MetricCell(Unticked(row[c]), col, &d);
    if (!d.empty() && !d.begin()->second.metrics.empty()) AttachDerived(&d.begin()->second, runs);
  }
}

// A table of values by column that names no unit anywhere, its cells bare
// numbers with decimals: each column a unitless figure named by its header
// when the headers name metrics ("| Layer | RED | EAD |": red and ead on
// each row's run), else a run per cell keyed variant=<header>, its figure
// unitless ("| Model | Baseline | LoRA |": value). False, nothing read, for
// any other table.
bool UnitlessColumns(const TableBlock& t, const std::vector<std::string>& headers, const std::vector<size_t>& vcols,
                     const std::vector<ColumnInfo>& cols, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out) {
  if (!DecimalCells(t, vcols)) return false;
  // A header names a metric, not a run, when it is an acronym ("RED", "F1")
  // or a quality the vocabulary knows ("val_loss", "score").
  const auto metric_name = [](const std::string& h) {
    const bool caps = h.size() >= 2 && std::none_of(h.begin(), h.end(), [](char ch) { return std::islower(static_cast<unsigned char>(ch)); }) &&
                      std::any_of(h.begin(), h.end(), [](char ch) { return std::isupper(static_cast<unsigned char>(ch)); });
    return caps || UnitlessMetricName(SnakeKey(h));
  };
  const bool by_cell = !std::all_of(vcols.begin(), vcols.end(), [&](size_t c) { return metric_name(headers[c]); });
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    const int line = t.line + 2 + static_cast<int>(r);
    Config cfg = context;
    std::string label;
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c)
      if (cols[c].metric.empty() && std::find(vcols.begin(), vcols.end(), c) == vcols.end())
        LabelCell(t.header[c], Unticked(row[c]), x, &cfg, &label);
    for (const auto& [k, v] : LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds)) cfg[k] = v;
    StoredRun run = NewRecorded(x, cfg, line);
    const size_t first = out->size();
    for (size_t c : vcols) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      bool approximate = false;
      const std::string core = CellCore(Unticked(row[c]), &approximate);
      const std::string metric = by_cell ? "value" : SnakeKey(headers[c]);
      StoredRun& into = by_cell ? out->emplace_back(RecordedFigure{NewRecorded(x, cfg, line), line, RowText(row), false, true}).run : run;
      if (by_cell) into.config["variant"] = headers[c];
      into.metrics[metric] = ParseNumber(core).value_or(0), into.decimals[metric] = WrittenDecimals(core);
    }
    if (by_cell) RowChanges(headers, row, out, first);
    if (!by_cell && !run.metrics.empty()) out->push_back({std::move(run), line, RowText(row), false, true});
  }
  return true;
}

// Whether a cell of the value columns writes its unit ("3.05 ms"): the
// columns are then metrics of their own (fwd, fwd+bwd), not values.
bool UnitInCells(const TableBlock& t, const std::vector<size_t>& vcols) {
  for (const auto& row : t.rows)
    for (size_t c : vcols)
      if (std::string unit; c < row.size() && NumberCell(row[c], &unit) && !unit.empty()) return true;
  return false;
}

// A row's figures in the columns of its own metrics beside the values
// ("13.63" under "ms/step"): one set of no value, after the values'.
void RowOwnFigures(const std::vector<std::string>& row, const std::vector<ColumnInfo>& cols, const std::vector<size_t>& vcols,
                   std::vector<std::pair<std::string, StoredRun>>* sets) {
  std::map<std::string, StoredRun> figs;
  for (size_t c = 0; c < row.size() && c < cols.size(); ++c)
    if (!cols[c].metric.empty() && !cols[c].derived && std::find(vcols.begin(), vcols.end(), c) == vcols.end())
      MetricCell(Unticked(row[c]), cols[c], &figs);
  if (!figs.empty() && HasBaseMetric(figs[""])) sets->emplace_back("", std::move(figs[""]));
}

}  // namespace

bool ValueTableFigures(const TableBlock& t, const std::vector<std::string>& headers,
                       const std::vector<ColumnInfo>& cols, const Config& context, const EntryCtx& x,
                       std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  std::vector<size_t> vcols = ValueColumns(t, headers, x);
  // Values beside a column of the rows' own metric ("| | code | prose |
  // ms/step |" under "median decode tok/s"): only in the unit the text names.
  const bool beside = vcols.empty() && !(vcols = ValueColumns(t, headers, x, true)).empty();
  if (vcols.empty()) return false;
  ColumnInfo metric = ValueMetric(t, vcols, cols, x);
  if (beside && (metric.metric.empty() || metric.derived || UnitInCells(t, vcols))) return false;
  // Each cell in a unit of its own: rows of metrics, each column a run.
  const bool own_units = metric.metric.empty() && OwnUnits(t, vcols);
  if (metric.metric.empty() && !own_units) {
    // "| Metric | vLLM | SGLang |" over rows that name their metric: each column a run.
    if (VerticalTableFigures(t, context, x, out, unread) || UnitlessColumns(t, headers, vcols, cols, context, x, out))
      return true;
    if (unread) unread->push_back({t.line, "| " + headers.front() + " | ...", "a table of values by column (" + headers[vcols[0]] + ", " + headers[vcols[1]] + ", ...) that names no unit"});
    return true;
  }
  const std::string key = ValueKey(headers, vcols, x);
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    const int line = t.line + 2 + static_cast<int>(r);
    Config cfg = context;
    std::string label, text = "|";
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c)
      if (cols[c].metric.empty() && std::find(vcols.begin(), vcols.end(), c) == vcols.end())
        LabelCell(t.header[c], Unticked(row[c]), x, &cfg, &label);
    for (const auto& [k, v] : LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds)) cfg[k] = v;
    for (const auto& cell : row) text += " " + cell + " |";
    text = FigureText(text);
    std::vector<std::pair<std::string, StoredRun>> sets;  // each value column's figures
    for (size_t c : vcols) {
      std::map<std::string, StoredRun> figs;
      ColumnInfo m = own_units && c < row.size() ? CellOwnUnit(Unticked(row[c])) : metric;
      // "| Read max RPS | 180 | 540 |" among rows of cells with units: the row's name names its unit.
      if (const ColumnInfo named = ColumnMetric(Unticked(row[0])); own_units && m.metric.empty() && !named.derived &&
                                                                     !named.unit.empty() && c > 0)
        m = named;
      if (c < row.size() && !m.metric.empty()) MetricCell(Unticked(row[c]), m, &figs);
      if (!figs.empty() && HasBaseMetric(figs[""])) sets.emplace_back(headers[c], std::move(figs[""]));
    }
    RowDerived(row, cols, &sets);
    if (beside) RowOwnFigures(row, cols, vcols, &sets);
    for (auto& [header, figs] : sets) {
      StoredRun run = NewRecorded(x, cfg, line);
      if (!header.empty()) run.config[key] = header;
      run.metrics = figs.metrics, run.units = figs.units, run.decimals = figs.decimals;
      run.approximate = figs.approximate, run.derived = figs.derived;
      out->push_back({std::move(run), line, text, false, true});
    }
  }
  return true;
}

}  // namespace moelog::logbook::reader
