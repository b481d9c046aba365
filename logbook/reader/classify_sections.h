// Reader stage classify, sections: the figures of an entry that sits in a
// section naming a device's specifications ("## L4 GPU Specifications" over
// "### Memory Hierarchy") state the device's ratings, no run
// (classify_sections.cc).
#ifndef MOELOG_LOGBOOK_READER_CLASSIFY_SECTIONS_H_
#define MOELOG_LOGBOOK_READER_CLASSIFY_SECTIONS_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Lists the figures of `entry` as not tabled and drops them from `out` when
// the section it sits in names specifications (spec_leads of
// vocabulary.json) and the entry runs no command.
void DropUnderSpecSection(const Logbook& logbook, const Entry& entry, std::vector<RecordedFigure>* out,
                          std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_CLASSIFY_SECTIONS_H_
