// A table whose unit is a column of its own (JMH's `| Score | Error | Units
// |`): each row's unit joins its figure's cell, and the figure's spread and
// repeat count leave the table, before the table stage reads it. A table of
// "time / rate" cells that writes the rate's unit once gives it to the
// bare rates (ShareSlashUnits).

#include <algorithm>
#include <map>
#include <set>

#include "logbook/numbers.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook {

namespace reader {

namespace {

struct UnitColumnWords {
  std::set<std::string> units, spreads, counts;
};

// The words of data/reader/unit_columns.json, read once.
const UnitColumnWords& Words() {
  static const UnitColumnWords words = [] {
    UnitColumnWords w;
    for (const auto& [key, into] : {std::pair{"unit_headers", &w.units}, std::pair{"spread_headers", &w.spreads},
                                    std::pair{"count_headers", &w.counts}})
      *into = DataWords("data/reader/unit_columns.json", key);
    return w;
  }();
  return words;
}

std::string Cell(const std::vector<std::string>& row, size_t c) { return c < row.size() ? Trim(row[c]) : ""; }

// Whether every cell of column `c` that holds something is a unit the
// vocabulary knows ("us/op", "ops/s"), and one does.
bool UnitCells(const TableBlock& t, size_t c) {
  bool any = false;
  for (const auto& row : t.rows) {
    const std::string u = Cell(row, c);
    if (u.empty()) continue;
    UnitInfo info{};
    if (!AnyUnit(u, &info) || info.derived) return false;
    any = true;
  }
  return any;
}

// Whether a cell is a number alone, with a decimal point or comma
// ("21,080", "1647.810").
bool BareNumber(const std::string& cell) {
  if (cell.empty()) return false;
  for (char ch : cell)
    if (!std::isdigit(static_cast<unsigned char>(ch)) && ch != '.' && ch != ',') return false;
  return std::isdigit(static_cast<unsigned char>(cell[0])) != 0;
}

bool BareColumn(const TableBlock& t, size_t c) {
  bool any = false;
  for (const auto& row : t.rows) {
    const std::string v = Cell(row, c);
    if (v.empty()) continue;
    if (!BareNumber(v)) return false;
    any = true;
  }
  return any;
}

// Whether a number's comma cannot group thousands ("0,820", "1647,810",
// "21,08"): the column writes decimal commas.
bool DecimalComma(const std::string& v) {
  const size_t comma = v.find(',');
  if (comma == std::string::npos || v.find('.') != std::string::npos || v.find(',', comma + 1) != std::string::npos)
    return false;
  const size_t after = v.size() - comma - 1;
  return after != 3 || comma > 3 || v[0] == '0';
}

}  // namespace

bool FoldUnitColumn(const TableBlock& t, TableBlock* folded) {
  const auto& w = Words();
  size_t unit_col = t.header.size();
  for (size_t c = 0; c < t.header.size(); ++c)
    if (w.units.count(Lower(Trim(t.header[c]))) && UnitCells(t, c)) unit_col = c;
  if (unit_col == t.header.size()) return false;
  // The figure: the nearest column of bare numbers before the unit, past its spread.
  std::vector<size_t> drop{unit_col};
  size_t score = unit_col;
  for (size_t c = unit_col; c-- > 0;) {
    if (w.spreads.count(Lower(Trim(t.header[c])))) {
      drop.push_back(c);
      continue;
    }
    if (BareColumn(t, c)) score = c;
    break;
  }
  if (score == unit_col) return false;
  for (size_t c = 0; c < t.header.size(); ++c)
    if (c != score && w.counts.count(Lower(Trim(t.header[c]))) && BareColumn(t, c)) drop.push_back(c);
  bool decimal_comma = false;
  for (const auto& row : t.rows) decimal_comma = decimal_comma || DecimalComma(Cell(row, score));
  TableBlock with_units = t;
  // Its header names no metric of its own ("Score" is no model's score): the unit does.
  for (const auto& row : t.rows)
    if (const std::string u = Cell(row, unit_col); !u.empty()) {
      with_units.header[score] = "(" + u + ")";
      break;
    }
  for (auto& row : with_units.rows) {
    if (score >= row.size() || Cell(row, score).empty()) continue;
    std::string v = Cell(row, score);
    if (decimal_comma) std::replace(v.begin(), v.end(), ',', '.');
    row[score] = v + " " + Cell(row, unit_col);
  }
  std::sort(drop.begin(), drop.end());  // WithoutColumns takes them in order
  *folded = WithoutColumns(with_units, drop);
  return true;
}

namespace {

// A cell "12.1s / 81.2 MIPS" or "8.4s / 70.3": its two parts (trimmed)
// around one spaced slash, the first a number with a unit; false otherwise.
bool SlashPair(const std::string& cell, std::string* first, std::string* second, std::string* unit1,
               std::string* unit2) {
  const size_t cut = cell.find(" / ");
  if (cut == std::string::npos || cell.find(" / ", cut + 3) != std::string::npos) return false;
  *first = Trim(cell.substr(0, cut));
  *second = Trim(cell.substr(cut + 3));
  return NumberCell(*first, unit1) && !unit1->empty() && NumberCell(*second, unit2);
}

}  // namespace

bool ShareSlashUnits(const TableBlock& t, TableBlock* shared) {
  constexpr size_t kMaxCells = 4096;  // bounded: a larger table is read as it is
  std::map<std::string, std::set<std::string>> partner;  // first part's metric -> second parts' units
  size_t bare = 0, cells = 0;
  std::string first, second, u1, u2;
  for (const auto& row : t.rows)
    for (const auto& cell : row) {
      if (++cells > kMaxCells) return false;
      UnitInfo a{}, b{};
      if (!SlashPair(cell, &first, &second, &u1, &u2) || !AnyUnit(u1, &a)) continue;
      if (u2.empty()) ++bare;
      else if (AnyUnit(u2, &b) && b.metric != a.metric) partner[a.metric].insert(u2);
    }
  if (bare == 0 || partner.empty()) return false;
  *shared = t;
  bool any = false;
  for (auto& row : shared->rows)
    for (auto& cell : row) {
      UnitInfo a{};
      if (!SlashPair(cell, &first, &second, &u1, &u2) || !u2.empty() || !AnyUnit(u1, &a)) continue;
      const auto it = partner.find(a.metric);
      if (it == partner.end() || it->second.size() != 1) continue;  // one unit the rate is written in, no guess
      cell = first + " / " + second + " " + *it->second.begin();
      any = true;
    }
  return any;
}

}  // namespace reader
}  // namespace moelog::logbook
