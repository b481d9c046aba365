// The recorded figures' API as the criteria and the modules above them call it
// (RecordedRuns, RecordedFigures, LogbookFigures, PlaceFigures ...): read by
// the staged reader of logbook/reader/ (recorded.h there says what each
// function gives).
#ifndef MOELOG_LOGBOOK_CRITERIA_RECORDED_H_
#define MOELOG_LOGBOOK_CRITERIA_RECORDED_H_

#include "logbook/reader/recorded.h"

#endif  // MOELOG_LOGBOOK_CRITERIA_RECORDED_H_
