// What a planned chart drops before it is drawn (chart_trim.cc): what would
// show nothing. Used by PlanChart (chart_plan.cc) only.
#ifndef MOELOG_LOGBOOK_RENDER_CHART_TRIM_H_
#define MOELOG_LOGBOOK_RENDER_CHART_TRIM_H_

#include <cstddef>

#include "logbook/render/chart.h"

namespace moelog::logbook {

// Drops the series with nothing drawn in their panel, then the panels and
// the x values with nothing drawn (unless nothing is drawn at all), and sets
// the plan's log x scale for the values left.
void TrimChart(ChartPlan* plan);

// How many values the plan draws (moelog's and the logbook's): a chart of
// one value compares nothing and is not drawn.
size_t DrawnValues(const ChartPlan& plan);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RENDER_CHART_TRIM_H_
