// Reader stage table, shared-unit cells: a column whose header names two or
// more figures with a slash list ("fwd / bwd", "p50/p99 (ms)", "before /
// after") over cells of as many numbers sharing one unit ("7.48 / 5.05 ms",
// "12/40"). Each number is the figure its name gives: a statistic or a part
// of one run (p50, p99, fwd, bwd: one figure set, named apart), the side of a
// comparison (before, after: two), or a run of its own (variant=<name>).
#ifndef MOELOG_LOGBOOK_READER_TABLE_PAIRS_H_
#define MOELOG_LOGBOOK_READER_TABLE_PAIRS_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// The names of a header's slash list ("fwd / bwd" -> {fwd, bwd}; "p50/p99
// latency (ms)" -> {p50, p99}), none for a header without one or a unit's
// slash ("tok/s", "ms/step").
std::vector<std::string> SlashNames(const std::string& header);

// Gives each column of such cells its names (ColumnInfo::parts), and the
// unit its cells write when its header writes none.
void PairColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);

// A cell of a column with names: each of its numbers into the figure set its
// name gives. False for a cell of another number of figures.
bool PairCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_PAIRS_H_
