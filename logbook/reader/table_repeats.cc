// Reader stage table, repeat columns (table_repeats.h): a table whose
// columns are repeats of one measurement, each row one configuration.
#include "logbook/reader/table_repeats.h"

#include "logbook/reader/data_words.h"

namespace moelog::logbook::reader {

namespace {

// The words a repeat's header starts with (repeat_headers of data/reader/table.json).
const std::set<std::string>& RepeatWords() {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/table.json", "repeat_headers"));
  return *words;
}

// A header without its parentheses ("Run 1 (ms)" -> "run 1"), in lower case.
std::string BareHeader(const std::string& header) {
  std::string out;
  int depth = 0;
  for (char c : Lower(header)) {
    if (c == '(') ++depth;
    else if (c == ')') depth = std::max(0, depth - 1);
    else if (depth == 0) out += c;
  }
  return parse_detail::Trim(out);
}

// A statistic column's header ("Avg", "mean (ms)", "Median"): its statistic
// word, else "".
std::string StatisticName(const std::string& header) {
  const auto w = Words(BareHeader(header));
  if (w.size() != 1 || !(StatisticWord(w[0]) || SpreadStatistic(w[0]))) return "";
  return w[0];
}

// Whether every cell of column `c` that holds something is a number, and
// one does.
bool NumberColumn(const TableBlock& t, size_t c) {
  bool any = false;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    std::string unit;
    if (!NumberCell(row[c], &unit)) return false;
    any = true;
  }
  return any;
}

// The column of a unit as written ("ms" -> time_s in ms), none when it names
// no measured metric.
ColumnInfo UnitColumn(const std::string& unit) {
  ColumnInfo out;
  UnitInfo info{};
  if (unit.empty() || !UnitOf(unit, &info) || info.derived) return out;
  out.metric = info.metric, out.unit = unit, out.factor = info.factor;
  return out;
}

// The unit the text above the table names: the sentence or caption right
// before it (after any table or sub-heading before it), else the sub-heading
// it sits under, else the entry's heading.
ColumnInfo NamedUnit(const TableBlock& t, const EntryCtx& x) {
  int from = 0;
  const Entry::SubHeading* under = nullptr;
  if (x.entry != nullptr) {
    for (const auto& other : x.entry->tables)
      if (other.line < t.line) from = std::max(from, other.line);
    for (const auto& sub : x.entry->subheadings)
      if (sub.line < t.line) from = std::max(from, sub.line), under = &sub;
  }
  const EntryCtx::Text* before = nullptr;
  for (const auto& p : x.prose)
    if (p.end_line < t.line && p.line > from && (before == nullptr || p.end_line > before->end_line)) before = &p;
  if (before != nullptr)
    if (ColumnInfo c = CaptionUnit(before->text); !c.metric.empty()) return UnitColumn(c.unit);
  if (under != nullptr)
    if (ColumnInfo c = CaptionUnit(under->text); !c.metric.empty()) return UnitColumn(c.unit);
  if (x.entry != nullptr)
    if (ColumnInfo c = CaptionUnit(x.entry->heading); !c.metric.empty()) return UnitColumn(c.unit);
  return {};
}

// The unit of the repeat and statistic columns `idx`: one a header of theirs
// writes, else their cells', else the one named above the table.
ColumnInfo RepeatUnit(const TableBlock& t, const std::vector<size_t>& idx, const std::vector<ColumnInfo>& cols,
                      const EntryCtx& x) {
  for (size_t c : idx)
    if (!cols[c].metric.empty() && !cols[c].derived)
      if (ColumnInfo u = UnitColumn(cols[c].unit); !u.metric.empty()) return u;
  for (size_t c : idx)
    if (ColumnInfo u = CellUnitMetric(t, c, ""); !u.metric.empty() && !u.derived) return UnitColumn(u.unit);
  return NamedUnit(t, x);
}

}  // namespace

std::string RepeatName(const std::string& header) {
  const std::string h = BareHeader(header);
  size_t n = 0;
  while (n < h.size() && std::isalpha(static_cast<unsigned char>(h[n]))) ++n;
  std::string word = h.substr(0, n);
  size_t d = n;
  while (d < h.size() && (h[d] == ' ' || h[d] == '_' || h[d] == '-' || h[d] == '#')) ++d;
  if (word.empty() && d > 0 && h[0] == '#') word = "run";  // "#2"
  const std::string digits = h.substr(d);
  if (word.empty() || !RepeatWords().count(word) || digits.empty() || digits.size() > 3 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return "";
  return word + "_" + digits;
}

bool RepeatColumns(const TableBlock& t, const std::vector<std::string>& headers, const EntryCtx& x,
                   std::vector<ColumnInfo>* cols) {
  std::vector<size_t> repeats, stats;
  for (size_t c = 0; c < headers.size() && c < cols->size(); ++c) {
    if (!RepeatName(headers[c]).empty()) repeats.push_back(c);
    else if (!StatisticName(headers[c]).empty()) stats.push_back(c);
  }
  if (repeats.size() < 2) return false;
  for (size_t c : repeats)
    if (!NumberColumn(t, c)) return false;
  std::vector<size_t> idx = repeats;
  for (size_t c : stats)
    if (NumberColumn(t, c)) idx.push_back(c);
  const ColumnInfo unit = RepeatUnit(t, idx, *cols, x);
  if (unit.metric.empty()) return false;
  for (size_t c : idx) {
    const ColumnInfo& own = (*cols)[c];
    if (!own.metric.empty() && (own.derived || UnitColumn(own.unit).metric != unit.metric)) continue;  // "CV %"
    const bool repeat = std::find(repeats.begin(), repeats.end(), c) != repeats.end();
    const std::string name = repeat ? RepeatName(headers[c]) : StatisticName(headers[c]);
    ColumnInfo col = unit;
    if (!own.metric.empty()) col.unit = own.unit, col.factor = own.factor;
    col.metric = name + "_" + unit.metric;
    (*cols)[c] = col;
  }
  return true;
}

}  // namespace moelog::logbook::reader
