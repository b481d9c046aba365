// Reader stage figures: a printout's section title that names a metric, its
// unit and the series of the numbers under it ("Bandwidth in KiB/sec
// (Read/Write)", "IOPS (Read/Write)"; figures_serieslines.cc).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_SERIESLINES_H_
#define MOELOG_LOGBOOK_READER_FIGURES_SERIESLINES_H_

#include <string>
#include <vector>

namespace moelog::logbook::reader {

// The title read: its metric's name and unit as written, and its series;
// false for any other line.
bool PrintedSeriesTitle(const std::string& t, std::string* name = nullptr, std::string* unit = nullptr,
                        std::vector<std::string>* series = nullptr);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_SERIESLINES_H_
