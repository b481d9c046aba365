// The exit codes particular to logbook commands. The generic ones, how a
// Status ends a process (0 ok, 1 error, 2 usage, 3 parse, 5 unsupported),
// are engine/status.h's; `moelog --help` documents them all. Same type as
// those (ExitCode), so a command returns either kind.
#ifndef MOELOG_LOGBOOK_EXIT_CODES_H_
#define MOELOG_LOGBOOK_EXIT_CODES_H_

#include "engine/status.h"

namespace moelog {

// `moelog check`: some checkable criterion is unmet.
inline constexpr ExitCode kExitCriteriaUnmet{4};
// `update`/`run`: commands were skipped that need --allow-shell (the rest was done).
inline constexpr ExitCode kExitNeedsConsent{6};
// `moelog check`: none unmet, but some criterion is met by model predictions only.
inline constexpr ExitCode kExitCriteriaPredicted{7};
// A signal ended the command.
inline constexpr ExitCode kExitInterrupted{130};

}  // namespace moelog

#endif  // MOELOG_LOGBOOK_EXIT_CODES_H_
