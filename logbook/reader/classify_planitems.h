// Reader stage classify, plan items: a list item labelled as what a step of
// a plan is thought to take or win, or as expected or aimed for, records no
// run (classify_planitems.cc).
#ifndef MOELOG_LOGBOOK_READER_CLASSIFY_PLANITEMS_H_
#define MOELOG_LOGBOOK_READER_CLASSIFY_PLANITEMS_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Lists the figures of the entry's plan items as not tabled and drops them
// from `out`.
void DropPlannedItems(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_CLASSIFY_PLANITEMS_H_
