// An entry's commands as the commands that read a logbook plan them: with
// the logbook's and the entry's pins (moelog annotations pinning harness
// flags) and the harness revisions that apply to its date and commit.
#ifndef MOELOG_LOGBOOK_UPDATE_ENTRY_PLANS_H_
#define MOELOG_LOGBOOK_UPDATE_ENTRY_PLANS_H_

#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"
#include "logbook/plan/shell_plan.h"

namespace moelog::logbook {

// The reason of the plans of an entry whose pin does not check: an error of
// the document's moelog annotations (the update fails), unlike a command
// that cannot plan (reported; the update goes on).
inline constexpr const char* kPinErrorReason = "its pin does not check: ";

// When and where the entry says it ran: "DATE TIME" of its heading and the
// first commit its fields name ("commit=`5b6f53c5d`"), for harness revisions.
EntryContext ContextOf(const Entry& entry);
// The commands of `entries` (of `logbook`) planned: out[i][command]. An entry
// with pins (its own or the logbook's) or to which a harness revision of the
// options' adapters applies is planned on its own, with its context
// (ContextOf) and its pins' flags appended to each invocation; the others
// together. A pin that does not check makes that entry's plans invalid ("its
// pin does not check: FILE:LINE: ...") and its FILE:LINE message goes to
// *pin_errors when given.
std::vector<std::vector<Plan>> PlanEntries(const Logbook& logbook, const std::vector<const Entry*>& entries,
                                           const PlanOptions& options, std::vector<std::string>* pin_errors = nullptr);

// The harness flags an entry's pins add to each of its invocations (the
// logbook's pins, then the entry's: the last value of a flag wins, as on a
// command line), e.g. {"--ep-dispatch", "dense_masked"}. Each pin is checked
// as the harness flag it names; InvalidArgument "FILE:LINE: pin 'k=v': why"
// for an unknown key or a value the flag refuses (or a malformed pin line).
Result<std::vector<std::string>> PinnedBenchArgs(const Logbook& logbook, const Entry& entry);
// "ep_dispatch=dense_masked" for the region's note (no line numbers: regions
// above move them); "" without pins.
std::string PinsNote(const Logbook& logbook, const Entry& entry);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_ENTRY_PLANS_H_
