// The exit codes particular to logbook commands. The generic ones, how a
// Status ends a process (0 ok, 1 error, 2 usage, 3 parse, 5 unsupported),
// are engine/status.h's; `moelog --help` documents them all.
#ifndef MOELOG_LOGBOOK_EXIT_CODES_H_
#define MOELOG_LOGBOOK_EXIT_CODES_H_

namespace moelog {

// Plain ints, so that a command may return one of these or one of the
// engine's ExitCode values from the same expression.
inline constexpr int kExitCriteriaUnmet = 4;      // `moelog check`: some checkable criterion is unmet
inline constexpr int kExitNeedsConsent = 6;       // `update`/`run`: commands were skipped that need --allow-shell
inline constexpr int kExitCriteriaPredicted = 7;  // `moelog check`: none unmet, but some criterion is met by model predictions only
inline constexpr int kExitInterrupted = 130;      // a signal ended the command

}  // namespace moelog

#endif  // MOELOG_LOGBOOK_EXIT_CODES_H_
