// Reader stage table, cells and columns: what a table's cell or column is
// beyond one number under a metric's header, and the columns a table of
// figures leaves out (estimates, plans, pass/fail checks).
#include <algorithm>

#include "engine/format.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/table_pairs.h"
#include "logbook/reader/table_stacked.h"
#include "logbook/reader/table_statcells.h"

namespace moelog::logbook::reader {

namespace {

// Words of data/reader/table.json this file reads, once.
const std::set<std::string>& ParameterWords() {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/table.json", "parameter_words"));
  return *words;
}

}  // namespace

// A time written in several parts, largest unit first ("1m 44s 79ms", "2h
// 51m 31s", "1h 02m"; DurationInParts): the same time in seconds, as
// "104.079 s" (the decimals its smallest part is written to), into
// `seconds`. False for any other cell (one part is a figure of its own: "44s").
bool DurationCell(const std::string& cell, std::string* seconds) {
  const std::string core = parse_detail::Trim(cell);
  PartsDuration d;
  if (!DurationInParts(core, 0, &d) || d.end != core.size()) return false;
  *seconds = Fixed(d.seconds, d.decimals) + " s";
  return true;
}

// A cell of two or more figures each named by its parenthesis ("295
// (forced balance) / 237 (dropless)", "1.2 ms (fused), 1.9 ms (eager)"):
// each part's figure without its name, and the name. False for any other cell.
bool NamedParts(const std::string& cell, std::vector<std::pair<std::string, std::string>>* parts) {
  parts->clear();
  size_t from = 0;
  while (from < cell.size()) {
    const size_t open = cell.find(" (", from), close = open == std::string::npos ? open : cell.find(')', open);
    if (close == std::string::npos) return false;
    const std::string figure = parse_detail::Trim(cell.substr(from, open - from));
    const std::string name = parse_detail::Trim(cell.substr(open + 2, close - open - 2));
    std::string unit;
    const auto words = Words(name);
    if (!NumberCell(figure, &unit) || words.empty() || words.size() > 3 ||
        !std::all_of(name.begin(), name.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == ' ' || c == '-' || c == '_'; }))
      return false;
    parts->emplace_back(figure, name);
    size_t next = close + 1;
    while (next < cell.size() && (cell[next] == ' ' || cell[next] == '/' || cell[next] == ',' || cell[next] == ';')) ++next;
    if (next < cell.size() && next == close + 1) return false;  // "(a)b": no separator
    from = next;
  }
  return parts->size() >= 2;
}

// A cell written with its measured range in brackets ("58.077 ms [58.050,
// 58.408]"): the figure, and the range's two ends. False for any other cell.
bool RangeCell(const std::string& cell, std::string* figure, std::string* low, std::string* high) {
  const size_t open = cell.find(" ["), comma = cell.find(',', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || comma == std::string::npos || cell.back() != ']') return false;
  *figure = parse_detail::Trim(cell.substr(0, open));
  *low = parse_detail::Trim(cell.substr(open + 2, comma - open - 2));
  *high = parse_detail::Trim(cell.substr(comma + 1, cell.size() - comma - 2));
  std::string unit;
  return NumberCell(*figure, &unit) && ParseNumber(*low).has_value() && ParseNumber(*high).has_value();
}

// A cell of figures in different units, one after another between spaced
// slashes ("22.26us / 849.03 GB/s", "47.35us / 102.04 TFLOPS / 509.34
// GB/s") or side by side, two spaces or more apart ("812.40 seq/s  3.10
// tflops/gpu"): each part a number with a unit of its own metric, each metric
// once; the parts into `parts` with their unit's metric. False for any other
// cell ("10.1 GB / 81.6 GB" is one metric twice: used of total).
namespace {
// The length of the separator between two figures of a cell at `at`: a
// spaced slash (" / ", 1), two spaces or more (the figures side by side:
// `812.40 seq/s  3.10 tflops/gpu`), else 0.
size_t PartGap(const std::string& cell, size_t at) {
  if (cell[at] == '/' && at > 0 && cell[at - 1] == ' ' && at + 1 < cell.size() && cell[at + 1] == ' ') return 1;
  size_t n = 0;
  while (at + n < cell.size() && cell[at + n] == ' ') ++n;
  return n >= 2 && at > 0 && at + n < cell.size() ? n : 0;
}
}  // namespace

bool MetricParts(const std::string& cell, std::vector<std::pair<std::string, UnitInfo>>* parts) {
  parts->clear();
  std::set<std::string> metrics;
  for (size_t from = 0; from <= cell.size();) {
    while (from < cell.size() && cell[from] == ' ') ++from;
    size_t cut = from, gap = 0;
    while (cut < cell.size() && (gap = PartGap(cell, cut)) == 0) ++cut;
    const std::string part = parse_detail::Trim(cell.substr(from, cut - from));
    std::string unit;
    UnitInfo info{};
    if (!NumberCell(part, &unit) || unit.empty() || !AnyUnit(unit, &info) || info.derived || !metrics.insert(info.metric).second)
      return false;
    parts->emplace_back(part, info);
    from = cut + std::max<size_t>(gap, 1);
  }
  return parts->size() >= 2;
}

// The column for one part of a MetricParts cell: the part's metric, named
// as the column's is ("gpu_a_time_s" -> "gpu_a_gb_per_s").
ColumnInfo PartColumn(const ColumnInfo& col, const UnitInfo& part) {
  ColumnInfo out = col;
  UnitInfo own{};
  std::string prefix;
  if (AnyUnit(col.unit, &own) && col.metric.size() > own.metric.size() &&
      col.metric.compare(col.metric.size() - own.metric.size(), own.metric.size(), own.metric) == 0)
    prefix = col.metric.substr(0, col.metric.size() - own.metric.size());
  out.metric = prefix + part.metric;
  out.factor = part.factor;
  out.unit.clear();
  return out;
}

// A cell that compares runs rather than names one: a factor ("1.31x",
// "~63x", "2.5×") or a signed or plain percentage ("53.0%", "-4.2%"). It keys
// no row (a ratio or share is no configuration); it is no run's own figure.
bool ComparisonCell(const std::string& raw) {
  bool approximate = false;
  std::string c = CellCore(Unticked(raw), &approximate);
  for (const char* mark : {"x", "X", "%", "\xC3\x97"})
    if (const std::string m = mark; c.size() > m.size() && c.compare(c.size() - m.size(), m.size(), m) == 0) {
      c = parse_detail::Trim(c.substr(0, c.size() - m.size()));
      if (!c.empty() && (c[0] == '+' || c[0] == '-')) c.erase(c.begin());
      return !c.empty() && std::isdigit(static_cast<unsigned char>(c[0])) && ParseNumber(c).has_value();
    }
  return false;
}

// A cell that stands for a figure not yet there: words only, in brackets
// ("[to be measured]", "(pending)").
// A template's cell left unfilled is one too: the units of its figures
// alone, two or more ("samples/sec  tflops/gpu"); one unit alone may name a
// row's unit (a Unit column).
bool PlaceholderCell(const std::string& cell) {
  if (cell.empty()) return false;
  const bool bracketed = (cell.front() == '[' && cell.back() == ']') || (cell.front() == '(' && cell.back() == ')');
  if (cell.size() > 2 && bracketed && cell.find_first_of("0123456789") == std::string::npos) return true;
  return UnfilledTemplateCell(cell);
}

// A cell written as a range, its unit after the second end ("32-113ms",
// "2.1–2.6 s", "30ms-110ms"): its ends, each with the unit. False for any
// other cell (a date "2025-12-21", a negative number, a range without unit).
bool DashRange(const std::string& cell, std::string* low, std::string* high) {
  size_t dash = cell.find('-'), len = 1;
  if (const size_t en = cell.find("\xE2\x80\x93"); en != std::string::npos && (dash == std::string::npos || en < dash))
    dash = en, len = 3;
  if (dash == std::string::npos || dash == 0 || cell.find('-', dash + len) != std::string::npos) return false;
  *low = parse_detail::Trim(cell.substr(0, dash));
  *high = parse_detail::Trim(cell.substr(dash + len));
  std::string lu, hu;
  if (!NumberCell(*low, &lu) || !NumberCell(*high, &hu) || hu.empty() || (!lu.empty() && lu != hu)) return false;
  if (lu.empty()) *low += hu;
  return true;
}

// A cell written as a dict ("{'p50': 12.3, 'p99': 40.1}", `{"fwd": 1.2,
// "bwd": 2.3}`, a program's printout pasted into the table): each number a
// figure of the column, a statistic's under its name ("p99_time_s"), any
// other key's a part of its own (variant=<key>). False for any other cell,
// or a dict with a value that is no number.
bool DictCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at) {
  std::vector<DictItem> items;
  if (!PrintedDict(parse_detail::Trim(cell), &items) || items.size() > 16) return false;
  for (const auto& item : items)
    if (std::string unit; item.kind == DictItem::Kind::kOther || !NumberCell(item.value, &unit)) return false;
  for (const auto& item : items) {
    ColumnInfo part = col;
    if (StatisticWord(item.key) || SpreadStatistic(item.key)) part.metric = Lower(item.key) + "_" + col.metric;
    else part.scale["variant"] = item.key;
    MetricCell(item.value, part, by_at);
  }
  return true;
}

// A cell of several figures (PairCell: each named by its header's slash
// list; StatisticsCell: "avg: 12.5 ms, max: 18.0 ms"; DictCell; NamedParts: each keyed by its name;
// ReadingParts: each keyed by its reading; MetricParts: each its own metric; RangeCell: the figure and its range's
// ends as metrics of their own), each read as a cell of the column. False
// for a cell of one figure.
bool SplitCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at) {
  if (PairCell(cell, col, by_at) || StatisticsCell(cell, col, by_at) || DictCell(cell, col, by_at)) return true;
  for (const auto& [split, key] : {std::pair{&NamedParts, "variant"}, std::pair{&ReadingParts, "reading"}})
    if (std::vector<std::pair<std::string, std::string>> parts; split(cell, &parts)) {
      for (const auto& [figure, name] : parts) {  // each part a run of its own, keyed by its name
        ColumnInfo named = col;
        named.scale[key] = name;
        MetricCell(figure, named, by_at);
      }
      return true;
    }
  if (std::vector<std::pair<std::string, UnitInfo>> parts; MetricParts(cell, &parts) || StackedParts(cell, &parts)) {
    for (const auto& [figure, info] : parts) {
      ColumnInfo part = PartColumn(col, info);
      std::string unit;
      NumberCell(figure, &unit);
      part.unit = unit;
      MetricCell(figure, part, by_at);
    }
    return true;
  }
  if (std::string from, to; DashRange(cell, &from, &to)) {
    for (const auto& [end, value] : {std::pair<const char*, std::string>{"min_", from}, {"max_", to}}) {
      ColumnInfo side = col;
      side.metric = end + col.metric;
      MetricCell(value, side, by_at);
    }
    return true;
  }
  std::string figure, low, high;
  if (!RangeCell(cell, &figure, &low, &high)) return false;
  MetricCell(figure, col, by_at);
  for (const auto& [end, value] : {std::pair<const char*, std::string>{"range_low_", low}, {"range_high_", high}}) {
    ColumnInfo side = col;
    side.metric = end + col.metric;
    MetricCell(value, side, by_at);
  }
  return true;
}

// "| s | ..." over 32, 128, 384: a first column headed by one letter over
// plain whole numbers names the rows' parameter, whatever unit the letter spells.
bool LetterKeyColumn(const TableBlock& t, const std::vector<std::string>& headers) {
  const std::string first = headers.empty() ? "" : parse_detail::Trim(headers[0]);
  return first.size() == 1 && std::isalpha(static_cast<unsigned char>(first[0])) && !t.rows.empty() &&
         std::all_of(t.rows.begin(), t.rows.end(), [](const std::vector<std::string>& r) {
           const std::string v = r.empty() ? "" : parse_detail::Trim(r[0]);
           return !v.empty() && std::all_of(v.begin(), v.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
         });
}

// A header that names a setting of the rows, a size or a count ("hidden_dim",
// "num_experts", "max_num_tokens", "batch", "M"): one letter, or a word of
// parameter_words (data/reader/table.json) among its words.
bool ParameterHeader(const std::string& header) {
  std::string words;
  for (char c : Lower(header)) words += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
  const auto w = Words(words);
  if (w.size() == 1 && w[0].size() == 1 && std::isalpha(static_cast<unsigned char>(w[0][0]))) return true;
  return std::any_of(w.begin(), w.end(), [](const std::string& x) { return ParameterWords().count(x) > 0; });
}

// A header of parameter words only ("Size", "Block size", "Seq len"): its
// cells set the rows up, even written with a unit ("64 MiB").
bool SettingHeader(const std::string& header) {
  std::string words;
  for (char c : Lower(header)) words += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
  const auto w = Words(words);
  return !w.empty() && std::all_of(w.begin(), w.end(), [](const std::string& x) { return ParameterWords().count(x) > 0; });
}

// A column of a derived figure by its header ("Change", "Delta", "vs
// Baseline") whose cells hold no number ("16MB read size", "Reduce
// allocations"; a change written in its own unit, "-5.3 us", is one): the
// rows' names, a label column.
bool NamesUnderDerivedHeader(const TableBlock& t, size_t c, const ColumnInfo& col) {
  if (!col.derived) return false;
  bool any = false;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    std::string unit, cell = Unticked(row[c]);
    if (!cell.empty() && (cell[0] == '-' || cell[0] == '+')) cell.erase(0, 1);
    if (CellNumber(Unticked(row[c]), col) || NumberCell(cell, &unit)) return false;  // "-5.3 us" under "Δ vs base": a change
    any = true;
  }
  return any;
}

// A change column whose header names no percent and whose cells write none
// ("| delta |" over "-25.0"): its figures as written, without a unit (a
// "delta %" header would say what the author did not).
void ChangeUnitsAsWritten(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  for (size_t c = 0; c < headers.size() && c < cols->size(); ++c) {
    ColumnInfo& col = (*cols)[c];
    const std::string h = Lower(headers[c]);
    if (!col.derived || col.unit != "%" || h.find('%') != std::string::npos || h.find("pct") != std::string::npos ||
        h.find("percent") != std::string::npos)
      continue;
    const bool percent = std::any_of(t.rows.begin(), t.rows.end(), [&](const std::vector<std::string>& row) {
      return c < row.size() && row[c].find('%') != std::string::npos;
    });
    if (!percent) col.unit.clear();
  }
}

// A column whose header says its figures are estimates, goals or budgets
// ("Prefill Speed (est)", "expected ms", "target TF/s", "ETA", "Effort"):
// no run's figures, nor the row's configuration (estimate_columns of
// data/reader/table.json).
bool EstimateColumn(const std::string& header) {
  static const std::set<std::string> k = DataWords("data/reader/table.json", "estimate_columns");
  for (std::string w : Words(Lower(header))) {
    while (!w.empty() && std::strchr("().:", w.back())) w.pop_back();
    while (!w.empty() && w.front() == '(') w.erase(w.begin());
    if (k.count(w)) return true;
  }
  return false;
}

// A label column that names goals, targets, expectations or budgets.
bool PlanHeader(const std::string& header) {
  std::string h = Lower(header);
  for (const char* w : {"goal", "goals", "target", "targets", "expected", "expectation", "expectations", "projected",
                        "projection", "estimate", "estimated", "budget", "threshold", "plan", "planned"})
    if (h == w) return true;
  return false;
}

// Columns of differences or error counts ("max / mean abs diff", "Valid
// errors", "Error"): a correctness check's. A header with a check's word
// over cells that write a unit of their own, the header naming no metric
// ("CPU hash search" over "0.4068 s"), names what was timed: no check.
std::vector<size_t> CheckColumns(const std::vector<std::string>& headers, const std::vector<ColumnInfo>& cols) {
  std::vector<size_t> checks;
  for (size_t c = 0; c < headers.size(); ++c) {
    if (!CheckColumn(headers[c]) || Lower(headers[c]).find("checksum") != std::string::npos) continue;
    const bool timed = c < cols.size() && !cols[c].metric.empty() && cols[c].unit != "%" &&
                       ColumnMetric(headers[c]).metric.empty();
    if (!timed) checks.push_back(c);
  }
  return checks;
}

// A table with check columns times a correctness check, not a benchmark --
// unless another column gives a rate (`| Size | Performance | Time (ms) |
// Error |` with GFLOPS cells): then it is a benchmark's table with its
// check beside, read without the check's columns. A time alone is the
// check's own ("| Repeat | Time (ms) | max abs diff |").
bool RateBesideChecks(const std::vector<ColumnInfo>& cols, const std::vector<size_t>& checks) {
  for (size_t c = 0; c < cols.size(); ++c)
    if (!cols[c].metric.empty() && cols[c].metric.find("time") == std::string::npos &&
        std::find(checks.begin(), checks.end(), c) == checks.end())
      return true;
  return false;
}

// The table without the columns `drop` (sorted), its lines kept.
TableBlock WithoutColumns(const TableBlock& t, const std::vector<size_t>& drop) {
  TableBlock u = t;
  for (size_t k = drop.size(); k-- > 0;) {
    const size_t c = drop[k];
    if (c < u.header.size()) u.header.erase(u.header.begin() + static_cast<std::ptrdiff_t>(c));
    for (auto& row : u.rows)
      if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
  }
  return u;
}

bool SentenceCell(const std::string& cell) {
  const size_t words = Words(cell).size();
  return words > 8 || (words >= 5 && cell.back() == '.');
}

}  // namespace moelog::logbook::reader
