// Reader stage classify: a printed line whose label names what a change
// saves or gains (`Savings: 54%`, `Net gain: 0.8 s`, change_label_words of
// vocabulary.json) states a difference of two runs (classify_changelines.cc).
#ifndef MOELOG_LOGBOOK_READER_CLASSIFY_CHANGELINES_H_
#define MOELOG_LOGBOOK_READER_CLASSIFY_CHANGELINES_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Marks derived the figures of such lines among `figs` (figures read from a
// printout's or a fence's line, not a table's nor prose's, which their own
// readers judge).
void ChangeLinesDerived(std::vector<RecordedFigure>* figs);

// Drops, listing them in `unread`, the utilizations a sentence says a
// monitor showed while the benchmark ran ("I see 100% GPU utilization in
// nvidia-smi"; monitor_tools of vocabulary.json): the device's state, no
// figure of the run.
void DropMonitorReadings(std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* unread);

// The entry's figures as the kinds of report writing above judge them
// (DropRepeatedTables, ChangeLinesDerived, DropMonitorReadings), then its
// transaction rates (TransactionRates).
void ReportKinds(const Entry& e, std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_CLASSIFY_CHANGELINES_H_
