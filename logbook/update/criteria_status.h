// A logbook's Stop Criteria evaluated against its runs and entries: the
// results `check` prints and the status region `update` writes.
#ifndef MOELOG_LOGBOOK_UPDATE_CRITERIA_STATUS_H_
#define MOELOG_LOGBOOK_UPDATE_CRITERIA_STATUS_H_

#include <map>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/criteria/criteria.h"
#include "logbook/doc/document.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// What criteria know about entries: ID (explicit and derived) -> has_result
// (a Result field whose text or sub-bullets are not empty, "pending", "N/A").
std::map<std::string, EntryFacts> EntryFactsOf(const Logbook& logbook);

// The body of the owned status region under "## Stop Criteria" for
// `logbook_text` (the file's bytes; predicates are read from the bullets'
// HTML comments / inline code) evaluated against `runs`. ParseError
// "file:line: message" for a bad predicate. Deterministic text ending in a
// newline (RenderCriteriaStatus).
Result<std::string> CriteriaStatusRegion(const std::string& logbook_text, const Logbook& logbook,
                                         const std::vector<StoredRun>& runs);

// The evaluated criteria themselves (for `moelog check`). `entries`, when
// given, is the logbook whose entries `entry ...` predicates ask about (a
// criteria document checked against another logbook); else `logbook`.
Result<std::vector<CriterionResult>> CheckCriteria(const std::string& logbook_text, const Logbook& logbook,
                                                   const std::vector<StoredRun>& runs,
                                                   const Logbook* entries = nullptr);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_CRITERIA_STATUS_H_
