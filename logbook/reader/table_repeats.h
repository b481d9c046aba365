// Reader stage table, repeat columns: a table whose columns are repeats of
// one measurement ("| config | Run1 | Run2 | Run3 | Avg |", "| size | trial
// 1 | trial 2 | mean |"), each row one configuration. The cells are one
// metric, in the unit one column's header writes ("Avg (ms)"), the cells'
// own, or the one the table's caption, the sentence before it, its
// sub-heading or the entry's heading names ("times in ms", "(seconds)").
#ifndef MOELOG_LOGBOOK_READER_TABLE_REPEATS_H_
#define MOELOG_LOGBOOK_READER_TABLE_REPEATS_H_

#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// A header that names one repeat ("Run1", "Run 2", "run_3", "Trial 1",
// "#2", "rep 4"; repeat_headers of data/reader/table.json, then a whole
// number): its name as a metric's prefix ("run_1"), else "".
std::string RepeatName(const std::string& header);

// Gives the repeat columns of a table (two or more, every cell a number) and
// the statistic columns beside them ("Avg", "mean", "min") one metric, each
// column named apart on the row ("run_1_time_s", "avg_time_s"): one figure
// set per row. False, leaving `cols` as they were, when the table has no
// such columns or nothing names their unit.
bool RepeatColumns(const TableBlock& t, const std::vector<std::string>& headers, const EntryCtx& x,
                   std::vector<ColumnInfo>* cols);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_REPEATS_H_
