#include "logbook/render/chart_trim.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "logbook/numbers.h"

namespace moelog::logbook {
namespace {

// A series with no point in its panel (a key value whose figures are all of
// another metric: "metric=Latency" on a TF/s chart) is dropped, so the legend
// names only what is drawn; a panel keeps at least one series.
void DropEmptySeries(ChartPlan* plan) {
  auto drawn = [](const ChartSeries& s) {
    auto any = [](const std::vector<std::optional<double>>& v) {
      return std::any_of(v.begin(), v.end(), [](const auto& y) { return y.has_value(); });
    };
    return any(s.y) || any(s.recorded);
  };
  for (auto& panel : plan->panels) {
    if (std::none_of(panel.series.begin(), panel.series.end(), drawn)) continue;
    panel.series.erase(std::remove_if(panel.series.begin(), panel.series.end(), [&](const ChartSeries& s) { return !drawn(s); }),
                       panel.series.end());
  }
}

// A panel with nothing drawn (a key value whose figures are all of another
// metric: "M=1" on a TF/s chart of M=256 only) is dropped, and so is an x
// value with nothing drawn in any panel: a chart shows no empty frames or
// empty slots. Nothing is dropped from a chart with nothing drawn at all.
void DropEmptyPanelsAndValues(ChartPlan* plan) {
  auto any = [](const std::vector<std::optional<double>>& v, size_t from, size_t to) {
    for (size_t i = from; i < to && i < v.size(); ++i)
      if (v[i]) return true;
    return false;
  };
  auto drawn = [&](const ChartPanel& p, size_t from, size_t to) {
    return std::any_of(p.series.begin(), p.series.end(),
                       [&](const ChartSeries& s) { return any(s.y, from, to) || any(s.recorded, from, to); });
  };
  const size_t nx = plan->x_values.size();
  if (std::none_of(plan->panels.begin(), plan->panels.end(), [&](const ChartPanel& p) { return drawn(p, 0, nx); }))
    return;
  plan->panels.erase(std::remove_if(plan->panels.begin(), plan->panels.end(),
                                    [&](const ChartPanel& p) { return !drawn(p, 0, nx); }),
                     plan->panels.end());
  for (size_t x = nx; x-- > 0;) {
    if (std::any_of(plan->panels.begin(), plan->panels.end(), [&](const ChartPanel& p) { return drawn(p, x, x + 1); }))
      continue;
    plan->x_values.erase(plan->x_values.begin() + static_cast<std::ptrdiff_t>(x));
    if (x < plan->x_names.size()) plan->x_names.erase(plan->x_names.begin() + static_cast<std::ptrdiff_t>(x));
    for (auto& p : plan->panels)
      for (auto& s : p.series)
        for (auto* v : {&s.y, &s.recorded, &s.lo, &s.hi})
          if (x < v->size()) v->erase(v->begin() + static_cast<std::ptrdiff_t>(x));
  }
}

}  // namespace

void TrimChart(ChartPlan* plan) {
  DropEmptySeries(plan);
  DropEmptyPanelsAndValues(plan);
  if (plan->kind != ChartPlan::Kind::kLine || plan->x_values.empty()) return;
  const auto lo = ParseNumber(plan->x_values.front()), hi = ParseNumber(plan->x_values.back());
  plan->log_x = lo && hi && *lo > 0 && *hi / *lo >= 16;
}

size_t DrawnValues(const ChartPlan& plan) {
  size_t n = 0;
  for (const auto& p : plan.panels)
    for (const auto& s : p.series)
      for (const auto* v : {&s.y, &s.recorded})
        n += static_cast<size_t>(std::count_if(v->begin(), v->end(), [](const auto& y) { return y.has_value(); }));
  return n;
}

}  // namespace moelog::logbook
