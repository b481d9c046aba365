// Reader stage figures: the unit a document or an entry says its tables are
// in, for a table of values by column that names none (figures_docunit.cc;
// DocumentTableUnit is declared in internal.h).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_DOCUNIT_H_
#define MOELOG_LOGBOOK_READER_FIGURES_DOCUNIT_H_

#include <string>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// The unit the entry's text above `table_line` names for its tables ("All
// times in ms.", "latency in microseconds"), by sentences that state no
// figure, when one unit only; "".
std::string EntryTableUnit(const EntryCtx& x, int table_line);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_DOCUNIT_H_
