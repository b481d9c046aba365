#include "logbook/reader/table_derived.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "logbook/reader/data_words.h"

namespace moelog::logbook::reader {
namespace {

// A time or a latency: the smaller, the faster.
bool LowerIsBetter(const std::string& metric) {
  return metric.find("time_s") != std::string::npos || metric.find("latency") != std::string::npos;
}

// Whether `got` is `written` as the author rounded it: within half a unit
// of its last written digit, or 1.5 % (a ratio of rounded figures).
bool Near(double got, double written, int decimals) {
  const double half = decimals >= 0 ? 0.5 * std::pow(10.0, -decimals) * 1.001 : 0.0;
  return std::fabs(got - written) <= std::max(half, 0.015 * std::fabs(written));
}

// The first metric runs `a` and `b` both measured (neither derived), or "".
std::string Shared(const StoredRun& a, const StoredRun& b) {
  for (const auto& [m, v] : a.metrics)
    if (!a.derived.count(m) && b.metrics.count(m) && !b.derived.count(m) && v != 0 && b.metrics.at(m) != 0) return m;
  return "";
}

// The run of `runs` a derived figure of `value` in `unit` describes: the one
// owner every pair that works out to it names; -1 when none or several.
int Owner(double value, const std::string& unit, int decimals, const std::vector<StoredRun*>& runs) {
  const bool change = unit == "%";
  std::vector<int> owners;
  for (size_t i = 0; i < runs.size(); ++i)
    for (size_t j = 0; j < runs.size(); ++j) {
      const std::string m = i == j ? "" : Shared(*runs[i], *runs[j]);
      if (m.empty()) continue;
      const double a = runs[i]->metrics.at(m), b = runs[j]->metrics.at(m);
      int owner = -1;
      if (change) {  // "-76%": run i taken from run j; the sign may be left out
        const double pct = (a - b) / b * 100;
        if (Near(pct, value, decimals) || (value > 0 && Near(-pct, value, decimals))) owner = static_cast<int>(i);
      } else if (Near(a / b, value, decimals)) {  // "3.86x": a/b, the faster run's
        owner = static_cast<int>(LowerIsBetter(m) ? j : i);
      }
      if (owner >= 0 && std::find(owners.begin(), owners.end(), owner) == owners.end()) owners.push_back(owner);
    }
  // "1.00x": both ways round; the first run the author wrote takes it.
  if (owners.size() == 2 && !change && std::fabs(value - 1) < 0.03) return std::min(owners[0], owners[1]);
  return owners.size() == 1 ? owners[0] : -1;
}

// Whether a header says ratio ("Ratio", "ratio (new/old)").
bool RatioWord(const std::string& header) {
  for (const auto& w : Words(Lower(header)))
    if (w == "ratio") return true;
  return false;
}

}  // namespace

std::string PercentColumnName(const std::string& header) {
  std::string name;
  for (char ch : SnakeKey(header))
    if (std::isalnum(static_cast<unsigned char>(ch))) name += ch;
    else if (ch == '/') return "";
    else if (!name.empty() && name.back() != '_') name += '_';
  while (!name.empty() && name.back() == '_') name.pop_back();
  return std::any_of(name.begin(), name.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); }) ? name : "";
}

bool ChangePercentHeader(const std::string& header) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/table.json", "change_percent_headers"));
  for (const auto& w : Words(Lower(header)))
    if (words->count(w)) return true;
  return false;
}

void SharesAlone(std::vector<ColumnInfo>* cols) {
  bool share = false;
  for (const auto& c : *cols) {
    if (!c.metric.empty() && !c.derived) return;
    share = share || c.metric == "share_pct";
  }
  if (share)
    for (auto& c : *cols)
      if (c.metric == "share_pct") c.derived = false;
}

bool BareColumn(const TableBlock& t, size_t c) {
  bool any = false;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    std::string unit;
    if (!NumberCell(Unticked(row[c]), &unit) || !unit.empty()) return false;
    any = true;
  }
  return any;
}

namespace {

// Whether a header compares with something ("vs chunk", "versus FA2").
bool VersusHeader(const std::string& header) {
  const auto words = Words(Lower(header));
  return !words.empty() && (words[0] == "vs" || words[0] == "vs." || words[0] == "versus");
}

// Whether column `c` is headed as a ratio and each of its cells is one ("0.76x").
bool RatioColumn(const TableBlock& t, size_t c, const std::string& header) {
  bool any = false;
  const bool ratio_word = RatioWord(header);
  for (const auto& row : t.rows) {
    if (!ratio_word || c >= row.size() || EmptyCell(row[c])) continue;
    std::string unit;
    NumberCell(Unticked(row[c]), &unit);  // false for a ratio's unit, which it still sets
    // "1.87x FASTER", "1.61x slower": a factor with the way it points after it.
    if (const size_t sp = unit.find(' '); sp != std::string::npos) unit.resize(sp);
    if (unit != "x" && unit != "X" && unit != "\xC3\x97") return false;
    any = true;
  }
  return any;
}

}  // namespace

// Whether every cell of column `c` that holds something is a factor ("2.13x",
// "**1.44x**"), and one does.
bool FactorCells(const TableBlock& t, size_t c) {
  bool any = false;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    bool approximate = false;
    std::string cell = CellCore(Unticked(row[c]), &approximate);
    if (cell.size() < 2 || (cell.back() != 'x' && cell.back() != 'X') || !ParseNumber(cell.substr(0, cell.size() - 1)))
      return false;
    any = true;
  }
  return any;
}

// A table of factors only ("| Problem | Baseline | + KB | Delta |" over
// "2.13x | 2.45x | +15%"): no column holds a run's own figure, so each factor
// is the run's score against a fixed reference (a harness's speedup), its
// measurement; the columns whose header names no metric and whose cells are
// all factors hold it, and so do those headed as a ratio over bare numbers
// ("| Group | Ratio (Rust/C) |" over "| read/scan | 1.62 |").
void FactorColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  for (const auto& c : *cols)
    if (!c.metric.empty() && !c.derived) return;
  static const ColumnInfo kSpeedup = ColumnMetric("speedup");
  static const std::string kRatio = "ratio";
  for (size_t c = 1; c < cols->size(); ++c) {
    ColumnInfo& col = (*cols)[c];
    if (!col.metric.empty()) continue;
    if (!ColumnMetric(headers[c]).derived && FactorCells(t, c))
      col.metric = kSpeedup.metric, col.unit = kSpeedup.unit, col.factor = 1;
    else if (RatioWord(headers[c]) && BareColumn(t, c))
      col.metric = kRatio, col.factor = 1;  // "| Ratio (Rust/C) |" over "0.70": the run's ratio
  }
}

void AttachDerived(StoredRun* derived, const std::vector<StoredRun*>& runs) {
  if (runs.size() < 2) return;
  for (auto it = derived->metrics.begin(); it != derived->metrics.end();) {
    const std::string m = it->first;
    const auto u = derived->units.find(m);
    const std::string unit = u == derived->units.end() ? "" : u->second;
    const auto d = derived->decimals.find(m);
    const int owner = derived->derived.count(m) && (unit == "%" || unit == "x" || unit.empty())
                          ? Owner(it->second, unit, d == derived->decimals.end() ? -1 : d->second, runs)
                          : -1;
    if (owner < 0 || runs[owner]->metrics.count(m)) {
      ++it;
      continue;
    }
    StoredRun& to = *runs[owner];
    to.metrics[m] = it->second;
    to.units[m] = unit;
    if (d != derived->decimals.end()) to.decimals[m] = d->second;
    to.derived.insert(m);
    if (derived->approximate.count(m)) to.approximate.insert(m);
    derived->units.erase(m), derived->decimals.erase(m), derived->derived.erase(m), derived->approximate.erase(m);
    it = derived->metrics.erase(it);
  }
}

void AttachDerivedSets(std::vector<std::pair<std::string, StoredRun>>* sets) {
  std::vector<StoredRun*> runs;
  for (auto& [group, figs] : *sets)
    if (figs.metrics.size() > figs.derived.size()) runs.push_back(&figs);
  for (auto& [group, figs] : *sets)
    if (!figs.metrics.empty() && figs.metrics.size() == figs.derived.size()) AttachDerived(&figs, runs);
}

void ScaleValueColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  std::vector<size_t> scaled;
  for (size_t c = 1; c < cols->size() && c < headers.size(); ++c)
    if ((*cols)[c].metric.empty() && (*cols)[c].scale.size() == 1 && (*cols)[c].at.empty() &&
        ColumnMetric(headers[c]).scale == (*cols)[c].scale && Words(headers[c]).size() == 1 && BareColumn(t, c))
      scaled.push_back(c);
  static const std::string kValue = "value";
  if (scaled.size() >= 2)
    for (size_t c : scaled) (*cols)[c].metric = kValue, (*cols)[c].factor = 1;
}

void RatioColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  if (!std::any_of(cols->begin(), cols->end(), [](const ColumnInfo& c) { return !c.metric.empty() && !c.derived; })) return;
  for (size_t c = 1; c < cols->size() && c < headers.size(); ++c) {
    if ((*cols)[c].metric.empty() && RatioColumn(t, c, headers[c])) (*cols)[c] = ColumnMetric("speedup");
    // "| vs chunk |" over "0.87x": a comparison's speedups, not its change in
    // percent; named by what it compares with when there are several.
    else if (ColumnInfo& col = (*cols)[c]; (col.metric.empty() || (col.derived && col.unit == "%")) &&
                                           VersusHeader(headers[c]) && FactorCells(t, c)) {
      const std::string q = Qualifier(headers[c]);
      col = ColumnMetric("speedup");
      if (!q.empty()) col.metric = QualifiedMetricName(q, col.metric);
    }
  }
}

std::vector<std::pair<std::string, StoredRun>> DerivedOnRuns(std::vector<std::pair<std::string, StoredRun>> sets) {
  AttachDerivedSets(&sets);
  return sets;
}

bool ChangeRow(const std::vector<std::string>& row) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/table.json", "change_row_words"));
  if (row.size() < 2) return false;
  const auto label = Words(Lower(Unticked(row[0])));
  if (std::none_of(label.begin(), label.end(), [](const std::string& w) { return words->count(w) > 0; })) return false;
  bool any = false;
  for (size_t c = 1; c < row.size(); ++c) {
    if (EmptyCell(row[c])) continue;
    if (!ComparisonCell(row[c])) return false;
    any = true;
  }
  return any;
}

bool WithoutChangeRows(const TableBlock& t, TableBlock* out, std::vector<size_t>* rows) {
  rows->clear();
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (ChangeRow(t.rows[r])) rows->push_back(r);
  if (rows->empty() || rows->size() == t.rows.size()) return false;
  *out = t;
  for (size_t r : *rows)
    for (size_t c = 1; c < out->rows[r].size(); ++c) out->rows[r][c].clear();
  return true;
}

}  // namespace moelog::logbook::reader
