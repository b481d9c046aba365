// Reader stage table, cells of named statistics: a cell that lists one
// measurement's statistics, each named ("avg: 12.5 ms, std: 2.1 ms, min:
// 9.0 ms, max: 18.0 ms", "mean 12.5 ms, max 18.0 ms"), as a profiler's or a
// harness's summary pasted into a table. Each statistic is a figure of the
// row's run under its name ("avg_time_s", "max_time_s"), in the unit written.
#ifndef MOELOG_LOGBOOK_READER_TABLE_STATCELLS_H_
#define MOELOG_LOGBOOK_READER_TABLE_STATCELLS_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// The statistics of such a cell, each its name (lower case) and its number
// with its unit ("12.5 ms"); none for any other cell.
std::vector<std::pair<std::string, std::string>> NamedStatistics(const std::string& cell);

// Gives a column whose header names no metric and whose every cell is such
// a list the metric of the unit its cells write.
void StatisticCellColumns(const TableBlock& t, std::vector<ColumnInfo>* cols);

// A cell of such a list: each statistic into the row's figure set. False for
// any other cell.
bool StatisticsCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at);

// A cell's figure without the count written after it ("359 ms, 5992
// calls", "4.1 s, 20 runs": how many calls or runs the figure sums or
// spans; count_after_figure of data/reader/table.json); the cell itself
// when it ends with no such count.
std::string WithoutCount(const std::string& cell);

// A unit that counts something per second that the vocabulary does not
// know ("inf/s", "pos/s", "frames/sec": a word of letters over a second),
// as a rate of that word ("inf_per_s", as written, factor 1), or per minute
// ("chunks/min": chunks_per_min); false for any other unit.
bool CountPerSecond(const std::string& unit, UnitInfo* info);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_STATCELLS_H_
