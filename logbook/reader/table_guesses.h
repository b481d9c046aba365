// Reader stage table: a column of guesses. A guide's table of modes or steps
// says how long each is thought to take ("| acc | ~5-10 mins |", "| submit
// -isl -osl | ~1–1.5 hours |"): every figure an approximate range. Those are
// what a reader should expect, not a run's readings, as the same range in
// prose is ("~30-60 ms": figures_scan.cc).
#ifndef MOELOG_LOGBOOK_READER_TABLE_GUESSES_H_
#define MOELOG_LOGBOOK_READER_TABLE_GUESSES_H_

#include <cstddef>

#include "logbook/doc/document.h"

namespace moelog::logbook::reader {

// Whether every non-empty cell of column `c` of `t` is an approximate range
// (`~` or `≈` or an approximation word before it: "~15-20 mins", "about
// 1-2 h", "≈20–30 ms"), with at least one such cell.
bool ApproximateRangeColumn(const TableBlock& t, size_t c);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_GUESSES_H_
