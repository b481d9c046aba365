// Reader stage classify, set lengths: a part of a test plan whose only
// figures are how long its tests are set to run ("- **Duration**: 30
// minutes") records no run (classify_setlength.cc).
#ifndef MOELOG_LOGBOOK_READER_CLASSIFY_SETLENGTH_H_
#define MOELOG_LOGBOOK_READER_CLASSIFY_SETLENGTH_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Lists the figures of `entry` as not tabled and drops them from `out` when
// the entry runs no command and each of them is a whole number of minutes or
// hours in a field named as a length (set_length_labels of vocabulary.json).
void DropSetLengths(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_CLASSIFY_SETLENGTH_H_
