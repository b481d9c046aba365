// What an entry's Result says failed: "`gmm/int8/bfloat16`: failed with
// ... `TypeError: ...`", "topk=8: timed out", "ep run killed (OOM)". Such
// a run is shown failed with the author's reason, never modeled as a
// success.
#ifndef MOELOG_LOGBOOK_UPDATE_RECORDED_FAILURES_H_
#define MOELOG_LOGBOOK_UPDATE_RECORDED_FAILURES_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/doc/document.h"

namespace moelog::logbook {

struct RecordedFailure {
  int line = 0;
  std::vector<std::string> label;  // the values naming the run ("gmm", "int8", "bfloat16")
  std::string outcome;             // "failed", "timed out" or "killed"
  std::string reason;              // the author's words for why ("TypeError: pad operand ..."), or ""
};

// The Result bullets (any depth) that say a run failed, timed out or was
// killed and name the run by a label before their colon. Bullets that
// deny a failure ("no run failed") and those without a label give none.
std::vector<RecordedFailure> RecordedFailures(const Entry& entry);

// True when every value of the failure's label is a value of `config`
// (case-insensitive): the failure names that row.
bool FailureNames(const RecordedFailure& f, const std::map<std::string, std::string>& config);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_RECORDED_FAILURES_H_
