// Reader stage figures: a list of one run's samples after a label that
// names their unit ("Raw throughput (req/s): 4120, 4188, 4097", "Raw
// retained TPS: 1021, 1034, 1019"): one row, the samples named apart as a
// table's repeat columns are (run_1_<metric>, run_2_<metric>, ...), not
// a run or a row each.
#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The bare numbers of a list written "a, b, c" (a sentence's full stop
// after it allowed); empty when anything else is written.
std::vector<std::string> BareList(std::string rest) {
  rest = parse_detail::Trim(rest);
  if (!rest.empty() && rest.back() == '.') rest.pop_back();
  std::vector<std::string> items;
  for (size_t p = 0; p <= rest.size();) {
    const size_t comma = std::min(rest.find(", ", p), rest.size());
    const std::string item = parse_detail::Trim(rest.substr(p, comma - p));
    if (item.empty() || item.find_first_not_of("0123456789.") != std::string::npos || !ParseNumber(item)) return {};
    items.push_back(item);
    p = comma + 2;
  }
  return items;
}

}  // namespace

bool SampleList(const std::string& rest, const std::string& unit, int line, const std::string& text, const EntryCtx& x,
                const WalkScope& scope, std::vector<RecordedFigure>* out) {
  UnitInfo info{};
  if (unit.empty() || !UnitOf(unit, &info) || info.derived) return false;
  const std::vector<std::string> items = BareList(rest);
  if (items.size() < 2 || out->size() > kMaxFiguresPerEntry) return false;
  StoredRun run = NewRecorded(x, scope.context, line);
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string m = QualifiedMetricName("run_" + std::to_string(k + 1), info.metric);
    run.metrics[m] = ToStored(*ParseNumber(items[k]), info.factor), run.units[m] = unit, run.decimals[m] = WrittenDecimals(items[k]);
  }
  out->push_back({std::move(run), line, text, scope.loose});
  out->back().refers = scope.refers;
  for (const auto& item : items) out->back().written += item + "\n";  // "7120, 7188": each as written, not a grouped "7,120"
  return true;
}

}  // namespace moelog::logbook::reader
