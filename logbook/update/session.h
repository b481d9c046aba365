// The update pipeline shared by `moelog update` (logbooks) and `moelog run`
// (recipes): parse -> plan each unit's commands (shell_plan.h) -> cache
// lookup in the run store -> run what is missing (runner.h) -> store ->
// render one table per runnable unit -> splice owned regions (regions.h) and
// write atomically under a file lock. A "unit" is a logbook entry or a
// recipe step.
#ifndef MOELOG_LOGBOOK_SESSION_H_
#define MOELOG_LOGBOOK_SESSION_H_

#include <ostream>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"

namespace moelog::logbook {

struct SessionOptions {
  std::string target = "v5p";            // --target added to every planned invocation
  std::string target_pin;                // where the logbook pins `target` ("" : given by --target or the default)
  std::vector<std::string> entries;      // --entry: only these unit IDs ("" = all)
  bool failed = false;                   // only units whose stored runs include a failure
  bool stale = false;                    // only units whose region is missing or stale
  bool rerun = false;                    // --rerun: ignore the cache, run every invocation again
  bool overwrite_edits = false;          // --overwrite-edits: replace regions edited by hand (each listed)
  bool dry_run = false;                  // print the plan (commands, cache hit/miss); run and write nothing
  bool check = false;                    // run and write nothing; stale or missing regions -> exit 1 + diff
  bool allow_shell = false;              // consent to run commands that need bash (shell_plan.h)
  std::string sandbox = "bwrap";         // consented scripts: "bwrap" sandbox, or "none"
  bool write = true;                     // rewrite the document (moelog run: only with --write)
  bool print_tables = false;             // print each unit's table to `out` (moelog run)
  bool calibrate = true;                 // --no-calibrate: modeled figures as the model gives them
  bool show_recorded = false;            // print where each figure of a Result went (row or why none)
  bool progress = false;                 // progress line on stderr
  bool quiet = false;                    // --quiet: no progress line even on a terminal
  double max_memory_gb = 0;              // cpu runs: --max-memory for the bench (0: memory available)
  int jobs = 1;                          // parallel plan executions
  double timeout_s = 3600;               // per child process
  std::string db;                        // "" = .moelog/runs.db beside the document
  std::string launchers;                 // extra launcher table (JSON), "" = defaults only
  std::string adapters;                  // folder of harness adapters (*.json) matched first, "" = built-in only
  std::string moelog_binary;             // for shell/subprocess runs; "" = this executable
  std::vector<std::string> extra_bench_args;  // appended to every invocation
  // --accept-foreign-runs: serve and count rows this user did not make on
  // this host (a store received with the logbook); model rows are still
  // checked against the model.
  bool accept_foreign = false;
};

struct SessionSummary {
  int exit_code = 0;
  int units = 0;             // units considered (after --entry/--failed/--stale filters)
  int runnable = 0;          // units with at least one runnable command
  int invocations = 0;       // planned benchmark invocations of runnable units
  int cache_hits = 0;        // invocations served from the store
  int executed = 0;          // invocations run now
  int failed = 0;            // invocations that failed
  int needs_consent = 0;     // commands skipped because they need --allow-shell
  int write_errors = 0;      // charts or store rows that could not be written: exit 1
  int invalid = 0;           // moelog annotations that do not check (a bad predicate or pin): exit 1
  int unplannable = 0;       // commands that cannot be planned (bad flags, a --target conflict): reported, exit 0
  int tampered = 0;          // stored model batches that differ from the model (not served): exit 1
  int64_t foreign_ignored = 0;  // foreign rows the cache lookup skipped
  bool changed = false;      // the document was (or, with --check, would be) rewritten
  std::vector<std::string> written;      // unit IDs whose region was written
  std::vector<std::string> kept_edited;  // hand-edited regions left alone
  std::vector<std::string> stale;        // --check: stale or missing unit IDs
};

enum class DocumentKind { kLogbook, kRecipe };

// Runs the pipeline on one document. Messages go to `out` (per-unit status,
// plans, tables, diffs) and `err` (diagnostics, progress). Exit codes: 0 ok;
// 1 a run failed, a chart or store row could not be written, a command cannot
// be planned, a hand-edited region was kept, or --check found stale or
// missing regions; 2 bad options; 3 the document's regions are malformed or a
// rewrite would not be safe (file unchanged); 6 commands that need
// --allow-shell were skipped (each reported as file:line), the rest done.
SessionSummary RunSession(const std::string& path, DocumentKind kind, const SessionOptions& options,
                          std::ostream& out, std::ostream& err);

// The region ID of recipe step `n` of the recipe at `path`:
// "<FILE-STEM>-STEP-<n>" (upper case, non-alphanumerics as '-').
std::string RecipeStepId(const std::string& path, int n);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_SESSION_H_
