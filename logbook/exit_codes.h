// The exit codes particular to logbook commands. The generic ones, how a
// Status ends a process (0 ok, 1 error, 2 usage, 3 parse, 5 unsupported),
// are engine/status.h's; `moelog --help` documents them all.
#ifndef MOELOG_LOGBOOK_EXIT_CODES_H_
#define MOELOG_LOGBOOK_EXIT_CODES_H_

namespace moelog {

enum CommandExitCode : int {
  kExitCriteriaUnmet = 4,  // `moelog check`: some checkable criterion is unmet
  kExitNeedsConsent = 6,   // `update`/`run`: commands were skipped that need --allow-shell (the rest was done)
  kExitCriteriaPredicted = 7,  // `moelog check`: none unmet, but some criterion is met by model predictions only
  kExitInterrupted = 130,  // a signal ended the command
};

}  // namespace moelog

#endif  // MOELOG_LOGBOOK_EXIT_CODES_H_
