// Reader stage figures, tables of values by column: a results table whose
// columns are values of one key ("| scale | bf16 | fp8gemm | fp8wire |", a
// figure in each cell), each cell one run keyed by its row's labels and its
// column's value; the cells' metric from their unit, the caption or
// sub-heading above, or the entry's prose (ValueTableFigures, internal.h).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_VALUES_H_
#define MOELOG_LOGBOOK_READER_FIGURES_VALUES_H_

#include <string>

#include "logbook/doc/document.h"

namespace moelog::logbook::reader {

// A column of bare numbers whose header names what it measures without a
// unit (figures_table.cc).
bool MeasuredBareColumn(const TableBlock& t, size_t c, const std::string& header);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_VALUES_H_
