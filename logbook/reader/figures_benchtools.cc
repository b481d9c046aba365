#include "logbook/reader/figures_benchtools.h"

#include <algorithm>

namespace moelog::logbook::reader {

void JoinLineAbove(size_t kept, int line, std::vector<RecordedFigure>* out) {
  if (kept == 0 || out->size() != kept + 1) return;
  RecordedFigure& above = (*out)[kept - 1];
  const StoredRun& own = out->back().run;
  const bool shared = std::any_of(own.metrics.begin(), own.metrics.end(),
                                  [&](const auto& m) { return above.run.metrics.count(m.first) > 0; });
  if (above.run.config != own.config || above.line < line - 2 || above.line >= line || shared) return;
  for (const auto& [m, v] : own.metrics) above.run.metrics[m] = v;
  for (const auto& [m, u] : own.units) above.run.units[m] = u;
  for (const auto& [m, d] : own.decimals) above.run.decimals[m] = d;
  out->pop_back();
}

}  // namespace moelog::logbook::reader
