// Reader stage table, shared-unit cells (table_pairs.h).
#include "logbook/reader/table_pairs.h"

namespace moelog::logbook::reader {

namespace {

// The parts of a cell between slashes that come before a number ("7.48 /
// 5.05 ms", "12/40", "12 ms / 40 ms"; the slash of "tok/s" splits nothing).
std::vector<std::string> SlashParts(const std::string& cell) {
  std::vector<std::string> out;
  size_t from = 0;
  for (size_t p = 0; p < cell.size(); ++p) {
    if (cell[p] != '/') continue;
    size_t n = p + 1;
    while (n < cell.size() && (cell[n] == ' ' || cell[n] == '~')) ++n;
    if (n >= cell.size() || !std::isdigit(static_cast<unsigned char>(cell[n]))) continue;
    out.push_back(parse_detail::Trim(cell.substr(from, p - from)));
    from = p + 1;
  }
  out.push_back(parse_detail::Trim(cell.substr(from)));
  return out;
}

// The numbers of a cell of `n` parts, each with the unit written after the
// last when it writes none ("7.48 / 5.05 ms" -> "7.48 ms", "5.05 ms"); none
// when a part is no number or the cell has another number of parts.
std::vector<std::string> SharedUnitParts(const std::string& raw, size_t n) {
  bool approximate = false;
  std::vector<std::string> parts = SlashParts(CellCore(Unticked(raw), &approximate));
  if (parts.size() != n) return {};
  std::string last;
  if (!NumberCell(parts.back(), &last)) return {};
  for (auto& part : parts) {
    std::string unit;
    if (!NumberCell(part, &unit)) return {};
    if (unit.empty() && !last.empty()) part += " " + last;
  }
  return parts;
}

// The unit the cells of column `c` write (all of them split into `n` parts),
// "" when none does; false when a cell holding something does not split.
bool PartCells(const TableBlock& t, size_t c, size_t n, std::string* unit) {
  bool any = false;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    const auto parts = SharedUnitParts(row[c], n);
    if (parts.empty()) return false;
    std::string u;
    NumberCell(parts.back(), &u);
    if (unit->empty()) *unit = u;
    any = true;
  }
  return any;
}

// A name of a slash list: a short word of letters, digits and joiners.
bool PartName(const std::string& w) {
  return !w.empty() && w.size() <= 24 && std::isalpha(static_cast<unsigned char>(w[0])) &&
         std::all_of(w.begin(), w.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+' || c == '.';
         });
}

}  // namespace

std::vector<std::string> SlashNames(const std::string& header) {
  std::string h;
  int depth = 0;
  for (char c : Unticked(header)) {
    if (c == '(') ++depth;
    else if (c == ')') depth = std::max(0, depth - 1);
    else if (depth == 0 && c != '*') h += c;
  }
  for (size_t p = h.find(" /"); p != std::string::npos; p = h.find(" /")) h.erase(p, 1);
  for (size_t p = h.find("/ "); p != std::string::npos; p = h.find("/ ")) h.erase(p + 1, 1);
  std::vector<std::string> names;
  for (const auto& w : Words(h)) {
    if (w.find('/') == std::string::npos) continue;
    UnitInfo info{};
    if (!names.empty() || AnyUnit(w, &info)) return {};  // "tok/s", two lists
    names = SplitList(w, '/');
    for (const auto& name : names)
      if (!PartName(name) || AnyUnit(name, &info)) return {};  // "ms/step"
  }
  return names.size() >= 2 && names.size() <= 4 ? names : std::vector<std::string>{};
}

void PairColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  for (size_t c = 0; c < headers.size() && c < cols->size(); ++c) {
    ColumnInfo& col = (*cols)[c];
    const std::vector<std::string> names = SlashNames(headers[c]);
    std::string unit;
    if (names.empty() || col.derived || !PartCells(t, c, names.size(), &unit)) continue;
    if (col.metric.empty()) {
      UnitInfo info{};
      if (unit.empty() || !UnitOf(unit, &info) || info.derived) continue;
      col.metric = info.metric, col.unit = unit, col.factor = info.factor;
    }
    col.parts = names;
  }
}

bool PairCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at) {
  if (col.parts.empty()) return false;
  const std::vector<std::string> parts = SharedUnitParts(cell, col.parts.size());
  if (parts.empty()) return false;
  const bool sides = col.parts.size() == 2 && ReaderLexicon().before_words.count(Lower(col.parts[0])) > 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    ColumnInfo part = col;
    part.parts.clear();
    const std::string name = Lower(col.parts[i]);
    if (sides) part.at = col.at + kSide + (i == 0 ? "1before" : "2after");  // "before / after": two runs
    else if (PartOfARun(name)) part.metric = SnakeKey(name) + "_" + col.metric;  // "fwd / bwd", "p50/p99": one run's
    else part.scale["variant"] = col.parts[i];  // "eager / compiled": a run each
    MetricCell(parts[i], part, by_at);
  }
  return true;
}

}  // namespace moelog::logbook::reader
