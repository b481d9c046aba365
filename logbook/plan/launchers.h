// The launcher table: how moelog recognizes the programs a logbook command
// invokes. Loaded from JSON (data/launchers.json ships the defaults; a user
// file can add entries). Three kinds of entries:
//   - interpreters: program prefixes that run a script, e.g.
//     `uv run --package levanter --extra tpu [python] SCRIPT`,
//     `.venv/bin/python SCRIPT`, `python3 -u SCRIPT`;
//   - launchers: remote launchers that are stripped, keeping their `-e K=V`
//     variables, e.g. `uv run scripts/ray/dev_tpu.py --config C execute -- CMD`;
//   - harnesses: the adapters (adapters.h) of the scripts moelog runs on its
//     engine. data/adapters/ holds the built-in ones; a table's own
//     "harnesses" entries (name, script, action "bench" = the hillclimb
//     harness's flags, or "no_adapter" + reason, env_vars) are read as
//     adapters too.
#ifndef MOELOG_LOGBOOK_LAUNCHERS_H_
#define MOELOG_LOGBOOK_LAUNCHERS_H_

#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/plan/adapters.h"

namespace moelog::logbook {

struct InterpreterSpec {
  std::string program;                   // basename to match: "uv", "python", "python3"
  std::string subcommand;                // "run" for uv; empty for python
  std::vector<std::string> value_options;   // options that take a value: "--package"
  std::vector<std::string> switch_options;  // options without value: "--no-sync", "-u"
  bool optional_python = false;          // a "python"/"python3" word may follow (uv run python X)
  std::string module_option;             // "-m": `python -m pkg.mod` runs pkg/mod.py
};

struct LauncherSpec {
  std::string name;                      // "dev_tpu"
  std::string script;                    // path suffix matched against the script: "scripts/ray/dev_tpu.py"
  std::string run_subcommand = "execute";  // the subcommand whose payload is run
  std::string env_option = "-e";         // `-e K=V` (also `-e=K=V` and `--env K=V` if listed)
  std::vector<std::string> env_option_aliases;  // e.g. "--env"
  bool env_value_separate = false;       // `-e NAME VALUE` (two words) instead of `-e NAME=VALUE`
  std::vector<std::string> value_options;   // launcher options that take a value (skipped)
  std::string separator = "--";          // payload follows this word ("" when none)
  std::string command_option;            // payload is this option's value: gcloud's `--command 'CMD'`
  bool host_first = false;               // ssh: the first word not an option is the host, the payload follows
  // The payload is the command's first word that is not an option, after
  // `leading_words` such words (`timeout 600 CMD`: 1; `nohup CMD`: 0).
  bool rest_is_payload = false;
  int leading_words = 0;
  // The command's own `K=V` prefixes reach the payload (a local wrapper:
  // `K=V timeout 600 CMD`); a remote launcher's do not.
  bool passes_env = false;
};

struct LauncherTable {
  std::vector<InterpreterSpec> interpreters;
  std::vector<LauncherSpec> launchers;
  std::vector<Adapter> harnesses;       // matched in order
  // Files of an --adapters folder that are neither adapters nor its
  // launchers.json, each with why ("notes.json (not an adapter: no moelog_adapter key)").
  std::vector<std::string> skipped;

  // Entry whose script suffix matches `script` (path-component aligned), or null.
  const LauncherSpec* FindLauncher(const std::string& script) const;
  const Adapter* FindHarness(const std::string& script) const;
  // The first adapter for `script` that applies to the entry (its "applies":
  // a user's adapter for some dates or commits, the built-in elsewhere).
  const Adapter* FindHarness(const std::string& script, const EntryContext& context) const;
  const InterpreterSpec* FindInterpreter(const std::string& program) const;
};

// "python", "python3", "python3.11": a Python interpreter's program name.
bool IsPythonProgram(const std::string& basename);

// Parses a table from JSON text. Schema errors give InvalidArgument naming the
// offending key ("launchers[0].script: expected a string").
Result<LauncherTable> ParseLauncherTable(const std::string& json_text);

// The built-in defaults (the contents of data/launchers.json, compiled in so
// the binary works from any directory), with the built-in adapters.
const LauncherTable& DefaultLauncherTable();

// Defaults plus the entries of `path` (user entries are matched first).
// IOError if the file cannot be read; InvalidArgument for schema errors.
Result<LauncherTable> LoadLauncherTable(const std::string& path);

// `table` with the adapters of DIR (LoadAdapters) matched before its own.
Status AddAdapters(const std::string& dir, LauncherTable* table);

// The table commands are planned with: the defaults, with the entries of
// `launchers_file` and the adapters of `adapters_dir` matched first (either
// may be ""). Errors name the file (and the key of a schema error).
Result<LauncherTable> LoadPlanTable(const std::string& launchers_file, const std::string& adapters_dir);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_LAUNCHERS_H_
