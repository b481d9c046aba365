// Reader stage figures, bench frameworks' result tables printed to a
// console, where a row is one benchmark case and its columns name the
// case's parameters, its score and the score's statistics:
//  - JMH's `Benchmark  (size)  Mode  Cnt  Score   Error  Units` table: each
//    row one case (its name, its `@Param` values under the parenthesized
//    columns, its mode), the score in the row's unit, `± error` a statistic
//    of that score (error_<metric>), the count no figure;
// The words are data: data/reader/bench_printouts.json "framework_tables".
#ifndef MOELOG_LOGBOOK_READER_FIGURES_FRAMEWORKS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_FRAMEWORKS_H_

#include <set>
#include <vector>

#include "logbook/reader/figures_printed.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// The rows of each framework table among `lines`: one figure a row, keyed
// by the entry's `context`, the case's name, its parameters and its mode;
// the lines taken (the header and its rows) go into `read`.
void FrameworkTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_FRAMEWORKS_H_
