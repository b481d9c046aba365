// Stage update/ (the last before cli/): `update` and `run` as named steps.
//
// The steps of one `update`/`run`, in the order session.cc runs them. Each
// takes what the steps before it made (work.h) and either goes on or stops
// the session with an exit code, having said why on `err`.
//
//   load   LoadDocument, CheckUnitIds               (load_step.cc)
//   plan   OpenStore, MakePlanOptions, PlanWork,
//          ReportNeedsConsent, PrintPlan            (plan_step.cc)
//   run    RunMissing: run, then store;
//          WarnSharedIds                            (run_step.cc)
//   render RenderEdits, AddCriteriaStatus           (render_step.cc)
//   write  SpliceEdits, ReportCheck, WriteDocument,
//          ReportUpdate                             (write_step.cc)
#ifndef MOELOG_LOGBOOK_UPDATE_STEPS_H_
#define MOELOG_LOGBOOK_UPDATE_STEPS_H_

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "logbook/plan/launchers.h"
#include "logbook/render/render_table.h"
#include "logbook/update/session.h"
#include "logbook/update/work.h"

namespace moelog::logbook {

// A step's verdict: nullopt to go on, or the exit code the session ends with.
using Stop = std::optional<int>;

// Reads `path` (LF line ends from here on), parses it as `kind` (its
// diagnostics to err) and finds its units and owned regions. Stops on an
// unreadable file and on malformed regions (exit 3, file untouched).
Stop LoadDocument(const std::string& path, DocumentKind kind, LoadedDocument* doc, std::ostream& err);

// Warns about regions that belong to no unit; stops (exit 2) when --entry
// names an ID the document does not have.
Stop CheckUnitIds(const LoadedDocument& doc, const std::vector<std::string>& entries, std::ostream& err);

// The run store at --db or beside the document, opened when it exists or
// when this session may run. Stops when it cannot be used.
Stop OpenStore(const LoadedDocument& doc, const SessionOptions& opt, std::unique_ptr<RunStore>* store,
               std::ostream& err);
std::string StorePath(const LoadedDocument& doc, const SessionOptions& opt);

// How commands are planned: target, extra bench flags, the launcher table
// (--launchers, loaded into `table`). Stops (exit 2) on a bad table.
Stop MakePlanOptions(const SessionOptions& opt, LauncherTable* table, PlanOptions* popt, std::ostream& err);

// The units the options select (--entry, --failed, --stale), every command
// planned (all at once, on every core) and looked up in the cache.
// With `model`, every unit's table gets it, and its calibration samples
// come from every entry of a logbook (the units not selected planned too,
// from the store only). Model batches the cache would serve are computed
// again (CheckModelRows): one that differs counts in sum->tampered and runs
// again. Foreign rows the lookup skipped count in sum->foreign_ignored.
std::vector<UnitWork> PlanWork(const LoadedDocument& doc, const SessionOptions& opt, const PlanOptions& popt,
                               RunStore* store, SessionSummary* sum, std::ostream& err, ModelView* model = nullptr);

// Commands skipped for want of --allow-shell, each reported as FILE:LINE.
int ReportNeedsConsent(const LoadedDocument& doc, const std::vector<UnitWork>& work, std::ostream& err);

// --dry-run: each unit's plan with cache hits and misses.
void PrintPlan(const std::vector<UnitWork>& work, SessionSummary* sum, std::ostream& out);

// Counts runnable units, invocations and cache hits into `sum`.
void CountWork(const std::vector<UnitWork>& work, SessionSummary* sum);

// Runs every runnable command's missing invocations (opt.jobs at once, with
// a progress line) and stores their records, serially. A failed run counts
// in sum->failed; a record the store refuses is dropped (the document shows
// only what the store holds) and counts in sum->write_errors.
Stop RunMissing(const LoadedDocument& doc, const SessionOptions& opt, RunStore* store, std::vector<UnitWork>* work,
                SessionSummary* sum, std::ostream& err);

// Warns (FILE:LINE) about each entry whose ID the store also holds runs of
// another logbook for: the IDs are the same, the runs do not mix.
void WarnSharedIds(const LoadedDocument& doc, RunStore* store, std::ostream& err);

// Each unit's region: its table, notes and chart (drawn when `draw`), or
// the reason a command does not plan. Reports incomplete and stale units.
std::vector<RegionEdit> RenderEdits(const LoadedDocument& doc, const SessionOptions& opt, bool draw,
                                    const std::vector<UnitWork>& work, SessionSummary* sum, std::ostream& out,
                                    std::ostream& err);

// --stale: leaves out the units whose region already shows what it would
// show now (rendered as the render step renders them).
void DropUpToDate(const LoadedDocument& doc, std::vector<UnitWork>* work, std::ostream& err);

// A runnable unit's table, built once for its region, its chart and
// --show-recorded: the rows (each invocation's records), a note per command
// that does not run, whether every invocation has records, and where each
// figure its Result records goes on the table.
struct UnitTable {
  std::vector<TableRow> rows;
  std::vector<std::string> notes;
  bool complete = true;
  std::vector<std::string> places;  // RecordedPlaces of the unit's figures
};
UnitTable TableOf(const UnitWork& w);

// A runnable unit's region contents: its table and notes.
std::string RenderUnit(const UnitWork& w, const UnitTable& table);
// The table rows of a runnable unit (each invocation's records), and a note
// per command that does not run. Built once while the unit's records stay
// the same (UnitWork::rows_memo); the reference lives until they change.
const std::vector<TableRow>& UnitRows(const UnitWork& w, std::vector<std::string>* notes, bool* complete);

// The calibration samples of each unit of `work` that records figures
// (replacing what `model` held for it); with `fresh_only`, only of the units
// that ran in this session (the others' samples were learned from the store).
void LearnCalibration(const std::vector<UnitWork>& work, ModelView* model, bool fresh_only = false);

// The unit's chart, linked with its stamp below the table: drawn when `draw`
// unless the chart the `old` region's stamp names is still there. "" when
// the runs vary along no axis; a note when the chart could not be drawn
// (counted in write_errors). `chart_stale`: not drawn now, and the chart on
// disk is missing, incomplete, changed or drawn from other data.
std::string ChartLink(const LoadedDocument& doc, const UnitWork& w, const UnitTable& table, const Region* old, bool draw,
                      std::ostream& err, int* write_errors, bool* chart_stale);

// The Stop Criteria status region, when some criterion carries a predicate:
// evaluated on the runs that count (counted_runs.h), as `check` does.
// A predicate that does not parse is reported and counted in sum->invalid.
void AddCriteriaStatus(const LoadedDocument& doc, RunStore* store, const LauncherTable* table,
                       std::vector<RegionEdit>* edits,
                       SessionSummary* sum, std::ostream& err);

// The document with the edits spliced in; hand-edited regions are kept
// (reported) unless --overwrite-edits, which lists each one it replaces.
// With --check the text is what --overwrite-edits would write, so the diff
// shows it.
SpliceResult SpliceEdits(const LoadedDocument& doc, const std::vector<RegionEdit>& edits,
                         const SessionOptions& opt, SessionSummary* sum, std::ostream& err);

// --check: the diff and the stale units; the exit code.
int ReportCheck(const LoadedDocument& doc, const SpliceResult& res, SessionSummary* sum, std::ostream& out);

// Writes the new text atomically in the file's own line endings, after
// checking that the rewrite keeps the document's structure and that the
// file did not change on disk meanwhile.
Stop WriteDocument(const LoadedDocument& doc, const SpliceResult& res, std::ostream& err);

// The closing lines and the exit code of an update.
int ReportUpdate(const LoadedDocument& doc, const SpliceResult& res, bool writes, SessionSummary* sum,
                 std::ostream& out);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_STEPS_H_
