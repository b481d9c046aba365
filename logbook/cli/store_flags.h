// The preamble the commands that read a logbook and its runs share (check,
// compare, ids, next, plot, runs): a failed step's error and exit code, the
// logbook file a command may rewrite (its lock and line ending), and the
// options that find the run store and the plan table.
#ifndef MOELOG_LOGBOOK_CLI_STORE_FLAGS_H_
#define MOELOG_LOGBOOK_CLI_STORE_FLAGS_H_

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/file_util.h"
#include "logbook/store/run_store.h"
#include "logbook/update/counted_runs.h"

namespace moelog::cli {

// nullopt when `st` is ok; otherwise prints "moelog <command>: error: ..."
// and gives the status's exit code.
inline std::optional<int> Failed(const std::string& command, const Status& st) {
  if (st.ok()) return std::nullopt;
  PrintError(command, st.ToString());
  return st.ExitCode();
}

// A logbook file as a command reads it and may rewrite it: held under its
// lock when the command writes, its text with LF line ends (unless the
// command keeps them) and the line ending to write back.
struct LogbookFile {
  std::string path;
  std::string text;
  logbook::LineEnding ending = logbook::LineEnding::kLf;
  logbook::FileLock lock;

  std::optional<int> Open(const std::string& command, const std::string& file, bool write, bool to_lf = true) {
    path = file;
    if (write)
      if (auto code = Failed(command, lock.Acquire(path))) return code;
    auto raw = logbook::ReadFile(path);
    if (auto code = Failed(command, raw.status())) return code;
    text = std::move(raw).value();
    if (!to_lf) return std::nullopt;
    ending = logbook::DetectLineEnding(text);
    text = logbook::ToLf(text, ending);  // CRLF and lone-CR files alike
    return std::nullopt;
  }
  // Atomically replaces the file with `lf_text` in its own line ending.
  std::optional<int> Write(const std::string& command, const std::string& lf_text) const {
    return Failed(command, logbook::AtomicWriteFile(logbook::WrittenPath(path), logbook::FromLf(lf_text, ending)));
  }
};

// --db and the plan table flags (--launchers, --adapters), then the runs of
// a logbook they find: the store's and, when asked, the recorded figures.
struct StoreFlags {
  std::string db;
  PlanTableFlags plan_table;

  void Add(CLI::App& app, const std::string& db_help = "run store (default: .moelog/runs.db beside the logbook)") {
    app.add_option("--db", db, db_help);
  }
  void AddPlanTable(CLI::App& app) { plan_table.Add(app); }
  // The runs of `lb` in the store at --db (default: beside `runs_of`); or
  // an exit code after printing the error.
  std::optional<int> LogbookRuns(const std::string& command, const logbook::Logbook& lb, const std::string& runs_of,
                                 bool recorded, std::vector<logbook::StoredRun>* runs, std::string* note,
                                 bool accept_foreign = false) {
    if (db.empty()) db = logbook::DefaultStorePath(runs_of);
    const logbook::LauncherTable* table = nullptr;
    if (auto code = plan_table.Load(command, &table)) return code;
    auto r = logbook::LogbookRuns(lb, db, recorded, note, table, accept_foreign);
    if (auto code = Failed(command, r.status())) return code;
    *runs = std::move(r).value();
    return std::nullopt;
  }
};

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_STORE_FLAGS_H_
