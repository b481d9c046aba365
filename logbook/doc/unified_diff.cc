#include "logbook/doc/unified_diff.h"

#include <dtl/dtl.hpp>

#include <sstream>
#include <vector>

#include "logbook/doc/markdown.h"

namespace moelog::logbook {

std::string UnifiedDiff(std::string_view a, std::string_view b, const std::string& name) {
  if (a == b) return "";
  auto lines = [](std::string_view t) {
    std::vector<std::string> out;
    for (std::string_view l : SplitLines(t)) out.emplace_back(l);
    return out;
  };
  dtl::Diff<std::string, std::vector<std::string>> diff(lines(a), lines(b));
  diff.onHuge();  // memory linear in the edit script on long documents
  diff.compose();
  diff.composeUnifiedHunks();
  std::ostringstream out;
  out << "--- " << name << "\n+++ " << name << " (moelog)\n";
  diff.printUnifiedFormat(out);
  return out.str();
}

}  // namespace moelog::logbook
