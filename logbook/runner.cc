#include "logbook/runner.h"

namespace moelog::logbook {

Result<PlanOutcome> RunPlan(const Plan&, const RunnerOptions&) { return Status::NotSupported("runner: not implemented yet"); }
Result<ProcessResult> RunProcess(const std::vector<std::string>&, double, const std::map<std::string, std::string>&,
                                 const std::string&) {
  return Status::NotSupported("runner: not implemented yet");
}
Provenance CollectProvenance(const std::string&) { return {}; }
std::vector<RunRecord> ToRecords(const Plan&, const PlanOutcome&, const std::string&, const std::string&,
                                 const Provenance&, size_t) {
  return {};
}
std::string NowIso8601() { return ""; }

}  // namespace moelog::logbook
