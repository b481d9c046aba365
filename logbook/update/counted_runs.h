// The runs that count for a logbook: the stored runs its entries' commands,
// as written now, resolve to, and the figures its entries record. `update`,
// `check`, `compare`, `plot`, `next` and `runs` all count runs so.
#ifndef MOELOG_LOGBOOK_UPDATE_COUNTED_RUNS_H_
#define MOELOG_LOGBOOK_UPDATE_COUNTED_RUNS_H_

#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/store/run_store.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// The runs that count for a logbook: for each entry, the runs its commands
// as written now resolve to -- each planned invocation's newest successful
// batch in the store (by cache key, whoever stored it), for each of
// `targets`. So a run of a command since edited does not count, a run
// another logbook or entry stored for the same command does count for this
// one (as a cache hit shows it in the table), a run of another logbook's
// entry with the same ID does not, and repeated identical commands or
// --rerun runs give one batch, not repeats. Runs carry the entry's ID.
// `table`: the launchers and harness adapters commands are planned with
// (null: the built-in ones).
std::vector<StoredRun> CountedRuns(const Logbook& logbook, RunStore* store, const std::vector<std::string>& targets,
                                   const LauncherTable* table = nullptr);

// The runs criteria, comparisons and charts of one logbook look at:
// CountedRuns on both targets (from the store at `db_path`; none when the
// file does not exist) and, when `recorded` is set, the figures written in
// the entries' Result fields (recorded.h). `note` receives a one-line
// description of what was loaded ("12 stored runs, 40 recorded").
// Foreign rows (run_store.h) count only with `accept_foreign`; the note says
// how many were ignored.
Result<std::vector<StoredRun>> LogbookRuns(const Logbook& logbook, const std::string& db_path, bool recorded,
                                           std::string* note, const LauncherTable* table = nullptr,
                                           bool accept_foreign = false);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_COUNTED_RUNS_H_
