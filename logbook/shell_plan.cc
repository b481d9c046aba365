#include "logbook/shell_plan.h"

namespace moelog::logbook {

const char* VerdictName(PlanVerdict) { return "invalid"; }
std::string Plan::Summary() const { return "invalid: " + reason; }
Plan PlanCommand(std::string_view text, const PlanOptions&) {
  Plan p;
  p.original = std::string(text);
  p.reason = "planner not implemented yet";
  return p;
}
const std::vector<std::string>& ShellAllowList() { static std::vector<std::string> v; return v; }
std::string ShellQuote(std::string_view w) { return "'" + std::string(w) + "'"; }

}  // namespace moelog::logbook
