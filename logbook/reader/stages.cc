// Which stage of the reader decided a figure's fate, from the fate as
// --show-recorded prints it: the one place that names the stages' reasons.
#include <string>

#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

bool Has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

std::string FateStage(const std::string& fate) {
  const std::string kListed = "listed, not tabled: ";
  const size_t at = fate.find(kListed);
  if (at == std::string::npos) return "table";  // a row (or the reason no row took it)
  const std::string why = fate.substr(at + kListed.size());
  if (why.rfind("not read: ", 0) == 0) return Has(why, "code block") || Has(why, "heading") ? "blocks" : "figures";
  if (Has(why, "matches no row") || Has(why, "matches several rows") || Has(why, "claims its row")) return "table";
  if (Has(why, "nothing naming each") || Has(why, "nothing names")) return "key";
  if (Has(why, "restates") || Has(why, "a range") || Has(why, "an estimate") || Has(why, "hypothetical") ||
      Has(why, "a difference") || Has(why, "a part of a whole") || Has(why, "correctness check") ||
      Has(why, "goals or expectations") || Has(why, "statistics over repeats") ||
      Has(why, "an explanation") || Has(why, "an introduction") || Has(why, "an event's duration") ||
      Has(why, "a device's rating") || Has(why, "a job's, a test's") || Has(why, "a setting or a job's span") ||
      Has(why, "a threshold (") || Has(why, "derived (") || Has(why, "has not run") || Has(why, "a bound (") ||
      Has(why, "computed from") || Has(why, "a device's datasheet") || Has(why, "a device's specifications") ||
      Has(why, "a setting (") || Has(why, "bookkeeping"))
    return "classify";
  return "figures";  // no unit, values by column, past the entry's cap
}

}  // namespace moelog::logbook
