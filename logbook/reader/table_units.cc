// A table whose unit is a column of its own (JMH's `| Score | Error | Units
// |`): each row's unit joins its figure's cell, and the figure's spread and
// repeat count leave the table, before the table stage reads it.

#include <algorithm>
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

}  // namespace reader
}  // namespace moelog::logbook
