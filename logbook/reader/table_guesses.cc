#include "logbook/reader/table_guesses.h"

#include <string>

#include "logbook/reader/figures_cells.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

bool ApproximateRangeColumn(const TableBlock& t, size_t c) {
  int ranges = 0;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    bool approximate = false;
    const std::string cell = CellCore(Undecorated(Unticked(row[c])), &approximate);
    std::string low, high;
    if (!approximate || !DashRange(cell, &low, &high)) return false;
    ++ranges;
  }
  return ranges > 0;
}

}  // namespace moelog::logbook::reader
