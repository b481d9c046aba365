// Reader stage figures: a measurement written with its spread ("550.8 ±
// 1.3 TFLOPS", "7.75 +/- 0.02 ms"): the figure is the measurement, in the
// unit written after the spread; the spread is no figure of its own.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_SPREAD_H_
#define MOELOG_LOGBOOK_READER_FIGURES_SPREAD_H_

#include <string>

namespace moelog::logbook::reader {

// `s` with each "number ± spread unit" written as "number unit", the blanks
// the spread took after the unit (the same length: every later position of
// the text holds), and a spread with no unit after it blanked. False, `out`
// untouched, when `s` has none.
bool SpreadsDropped(const std::string& s, std::string* out);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_SPREAD_H_
