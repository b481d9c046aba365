// Reader stage figures: cells of stacked figures, and unfilled template cells.
#include "logbook/reader/table_stacked.h"

#include <cctype>
#include <set>

#include "logbook/doc/parse_logbook.h"
#include "logbook/numbers.h"

namespace moelog::logbook::reader {
namespace {

// The parts of `cell` between `<br>` tags (`<br/>`, `<br />` too), trimmed;
// one part when there is none.
std::vector<std::string> BrParts(const std::string& cell) {
  std::vector<std::string> out;
  const std::string lower = Lower(cell);
  size_t from = 0;
  for (size_t at = lower.find("<br"); at != std::string::npos; at = lower.find("<br", from)) {
    const size_t close = lower.find('>', at);
    if (close == std::string::npos) break;
    out.push_back(parse_detail::Trim(cell.substr(from, at - from)));
    from = close + 1;
  }
  out.push_back(parse_detail::Trim(cell.substr(from)));
  return out;
}

// `34.6/40.5GB/gpu` -> `34.6GB/gpu`: the amount used of a total written
// with its unit after the total; `part` unchanged for any other.
std::string UsedOfTotal(const std::string& part) {
  const size_t slash = part.find('/');
  if (slash == std::string::npos || slash == 0 || !ParseNumber(part.substr(0, slash))) return part;
  size_t e = slash + 1;
  while (e < part.size() && (std::isdigit(static_cast<unsigned char>(part[e])) || part[e] == '.')) ++e;
  if (e == slash + 1 || !ParseNumber(part.substr(slash + 1, e - slash - 1))) return part;
  return part.substr(0, slash) + part.substr(e);
}

}  // namespace

bool StackedParts(const std::string& cell, std::vector<std::pair<std::string, UnitInfo>>* parts) {
  parts->clear();
  const std::vector<std::string> split = BrParts(cell);
  if (split.size() < 2) return false;
  std::set<std::string> metrics;
  for (const std::string& raw : split) {
    const std::string part = UsedOfTotal(raw);
    size_t n = 0;  // the number, then its unit (one needing context too: `GB/gpu` in a memory grid)
    while (n < part.size() && (std::isdigit(static_cast<unsigned char>(part[n])) || part[n] == '.')) ++n;
    const std::string unit = parse_detail::Trim(part.substr(n));
    UnitInfo info{};
    if (n == 0 || !ParseNumber(part.substr(0, n)) || unit.empty() || unit == "%" || !AnyUnit(unit, &info) ||
        info.derived || !metrics.insert(info.metric).second)
      continue;
    parts->emplace_back(part, info);
  }
  return parts->size() >= 2;
}

std::string FirstStacked(const std::string& cell) {
  const std::vector<std::string> parts = BrParts(cell);
  return parts.size() >= 2 ? parts[0] : "";
}

bool UnfilledTemplateCell(const std::string& cell) {
  int units = 0;
  for (const std::string& part : BrParts(cell))
    for (const std::string& w : Words(part)) {
      UnitInfo info{};
      if (w == "%" || (w[0] == '/' && w.size() > 1)) continue;  // a share's mark, a total without its amount
      if (w.find_first_of("0123456789") != std::string::npos || !AnyUnit(w, &info) || info.derived) return false;
      ++units;
    }
  return units >= 2;
}

}  // namespace moelog::logbook::reader
