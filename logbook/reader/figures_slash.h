// Reader stage figures, shared-unit lists in prose: two to four numbers
// between slashes sharing the unit after the last, named by a slash list
// before or after them ("fwd/bwd: 3.1/7.4 ms", "p50/p99 latency = 12/40
// ms", "2.2/4.4 ms (fwd/bwd)", "before/after: 41/29.5 us"). Each number is
// the figure its name gives, as if written one by one ("fwd 3.1 ms, bwd 7.4
// ms"; a comparison's sides as an arrow, "41 us -> 29.5 us"), before the
// figures of the text are read.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_SLASH_H_
#define MOELOG_LOGBOOK_READER_FIGURES_SLASH_H_

#include <string>

namespace moelog::logbook::reader {

// `s` with each such list written one figure at a time, into `out`; false
// (and `out` untouched) when `s` has none. `label`: the name of the field
// `s` is the value of ("fwd/bwd" of "- fwd/bwd: 3.1/7.4 ms"), names a list
// that nothing in `s` names.
bool SlashFigureLists(const std::string& s, std::string* out, const std::string& label = "");

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_SLASH_H_
