// A logbook as the commands that read it see it, beyond its parse: the runs
// that count for it (CountedRuns, LogbookRuns), its entries' commands
// planned with their pins and harness revisions (PlanEntries, PinnedBenchArgs),
// an entry's chart (ChartForEntry), and its Stop Criteria evaluated
// (CheckCriteria, CriteriaStatusRegion). `update`, `check`, `compare`,
// `plot`, `next` and `runs` share these, so each answers alike.
#ifndef MOELOG_LOGBOOK_UPDATE_HOOKS_H_
#define MOELOG_LOGBOOK_UPDATE_HOOKS_H_

#include <map>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/render/chart.h"
#include "logbook/criteria/criteria.h"
#include "logbook/doc/document.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/store/run_store.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// The reason of the plans of an entry whose pin does not check: an error of
// the document's moelog annotations (the update fails), unlike a command
// that cannot plan (reported; the update goes on).
inline constexpr const char* kPinErrorReason = "its pin does not check: ";

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

// The metric the logbook's Scope names as primary ("Primary metric(s): ...
// TF/s ..."), the default y of its charts; "" when it names none.
std::string PrimaryMetric(const Logbook& logbook);

// The chart of one entry: its stored runs (`runs` may hold runs of other
// entries; only entry.id's are used) and its recorded figures, drawn under
// <dir of logbook>/figures/<entry id>.svg (.png when options.png) with .dat
// and .gp beside it. Returns the image link for the entry's owned region
// ("![...](figures/ID.svg)\n") and the files. NotFound when the entry has
// nothing that varies along an axis (no chart: leave the region without one).
// `how` (chart.h): whether to write, and the stamp the entry's region holds.
// The points of an entry's chart: its runs among `runs`, and the figures its
// Result states unless `runs` holds them already.
std::vector<ChartPoint> EntryChartPoints(const Entry& entry, const std::vector<StoredRun>& runs);

Result<EntryChart> ChartForEntry(const std::string& logbook_path, const Entry& entry,
                                 const std::vector<StoredRun>& runs, const ChartOptions& options = {},
                                 const ChartDraw& how = {});

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

#endif  // MOELOG_LOGBOOK_UPDATE_HOOKS_H_
