// An entry's chart as `update` and `plot` draw it: its stored runs and
// recorded figures, with the logbook's primary metric as the default y.
#ifndef MOELOG_LOGBOOK_UPDATE_ENTRY_CHART_H_
#define MOELOG_LOGBOOK_UPDATE_ENTRY_CHART_H_

#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"
#include "logbook/render/chart.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// The metric the logbook's Scope names as primary ("Primary metric(s): ...
// TF/s ..."), the default y of its charts; "" when it names none.
std::string PrimaryMetric(const Logbook& logbook);

// The entry's own words a chart's metric is chosen by (ChartOptions::
// headline): its heading's label, its paragraphs, its fields.
std::string EntryHeadline(const Entry& entry);

// The points of an entry's chart: its runs among `runs`, and the figures its
// Result states unless `runs` holds them already.
std::vector<ChartPoint> EntryChartPoints(const Entry& entry, const std::vector<StoredRun>& runs);

// The chart of one entry: its stored runs (`runs` may hold runs of other
// entries; only entry.id's are used) and its recorded figures, drawn under
// <dir of logbook>/figures/<entry id>.svg (.png when options.png) with .dat
// and .gp beside it. Returns the image link for the entry's owned region
// ("![...](figures/ID.svg)\n") and the files. NotFound when the entry has
// nothing that varies along an axis (no chart: leave the region without one).
// `how` (chart.h): whether to write, and the stamp the entry's region holds.
Result<EntryChart> ChartForEntry(const std::string& logbook_path, const Entry& entry,
                                 const std::vector<StoredRun>& runs, const ChartOptions& options = {},
                                 const ChartDraw& how = {});

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_ENTRY_CHART_H_
