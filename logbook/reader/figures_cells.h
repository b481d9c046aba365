// Reader stage figures, table cells: what of a cell is the author's
// decoration, not its value. A result table marks its rows and cells with
// emphasis and pictographs ("**1.84x**", "✅ 12.1 ms", "🔥 88.1", "31.8 ms
// ❌"); the value is what is left.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_CELLS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_CELLS_H_

#include <string>

namespace moelog::logbook::reader {

// `s` without the pictographs (emoji, dingbats, check and cross marks, with
// their variation selectors and joiners) at its start and end, and without
// the spaces they leave. Letters, digits, units ("µs", "×") and arrows stay.
std::string Undecorated(const std::string& s);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_CELLS_H_
