// Reader stage figures: a table cell of figures stacked with `<br>` (a
// scaling grid's `0.61 samples/sec<br>1.41 tflops/gpu<br>34.6/40.5GB/gpu<br>79%`)
// and the template's cell of units left unfilled (table_stacked.cc).
#ifndef MOELOG_LOGBOOK_READER_TABLE_STACKED_H_
#define MOELOG_LOGBOOK_READER_TABLE_STACKED_H_

#include <string>
#include <utility>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// The figures of a cell stacked with `<br>`: each part a number with a unit
// of a metric of its own (the first of a metric kept); a part `used/total`
// with the unit after the total (`34.6/40.5GB/gpu`) is the amount used;
// a part of no unit (`79%` unnamed aside) is no figure. False unless two
// parts at least are figures.
bool StackedParts(const std::string& cell, std::vector<std::pair<std::string, UnitInfo>>* parts);

// The first figure's part of a cell stacked with `<br>` (its first part),
// "" for a cell of no `<br>`.
std::string FirstStacked(const std::string& cell);

// Whether a cell is a template's unfilled one: units alone, or a total
// without the amount before its slash (`samples/sec<br> tflops/gpu<br>/40.5GB/gpu<br>%`),
// two units at least, no other number.
bool UnfilledTemplateCell(const std::string& cell);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_STACKED_H_
