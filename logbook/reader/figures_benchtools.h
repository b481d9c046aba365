// Reader stage figures, bench tools' printouts (blocks_benchtools.h tells
// their lines): a line that continues the run of the line above it
// (criterion's `thrpt: [...]` under `name  time: [...]`) joins that run.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_BENCHTOOLS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_BENCHTOOLS_H_

#include <cstddef>
#include <vector>

#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// The figure `out` got last (at index `kept`, read on `line`) joins the one
// before it when both have one configuration, that one was read at most two
// lines above, and they share no metric; else both stay.
void JoinLineAbove(size_t kept, int line, std::vector<RecordedFigure>* out);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_BENCHTOOLS_H_
