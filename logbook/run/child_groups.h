// The process groups of the runs moelog has started and not yet reaped. When
// moelog itself is stopped by SIGINT, SIGTERM or SIGHUP (Ctrl-C, a closed
// terminal, a job scheduler), each such group is killed before moelog dies:
// every run starts in a group of its own (so a timeout kills the script and
// all it started), which also shields it from the signals sent to moelog's
// group, and without this it would run on, orphaned.
#ifndef MOELOG_LOGBOOK_RUN_CHILD_GROUPS_H_
#define MOELOG_LOGBOOK_RUN_CHILD_GROUPS_H_

#include <sys/types.h>

namespace moelog::logbook {

// Registers a run's process group (its leader's pid) and, on first use,
// installs the handlers (a signal moelog was started with ignored stays
// ignored). False when the table of live groups is full (the group is then not
// killed with moelog; it still has its timeout).
bool WatchChildGroup(pid_t group);
// The group has been reaped or killed: forget it.
void ForgetChildGroup(pid_t group);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RUN_CHILD_GROUPS_H_
