// Runs a CLI11 parser over a command's arguments with moelog's exit codes:
// --help prints the help on stdout and gives kExitOk; a parse error prints
// "moelog <command>: error: <message>" on stderr and gives kExitUsage.
// CLI11 exceptions never leave this function.
#ifndef MOELOG_LOGBOOK_CLI_CLI_PARSE_H_
#define MOELOG_LOGBOOK_CLI_CLI_PARSE_H_

#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/cli/commands.h"
#include "logbook/plan/launchers.h"

namespace moelog::cli {

// nullopt when parsing succeeded and the command should run; otherwise the
// exit code to return.
inline std::optional<int> ParseCommandLine(CLI::App& app, const Args& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::string name = app.get_name();
    if (name.rfind("moelog ", 0) == 0) name = name.substr(7);
    PrintError(name, e.what());
    return kExitUsage;
  }
  return std::nullopt;
}

// `--launchers FILE` and `--adapters DIR` of the commands that plan a
// logbook's commands to know which runs count (check, compare, plot).
struct PlanTableFlags {
  std::string launchers, adapters;
  logbook::LauncherTable table;
  void Add(CLI::App& app) {
    app.add_option("--launchers", launchers, "extra launcher table (JSON), as given to update");
    app.add_option("--adapters", adapters, "folder of harness adapters (*.json), as given to update");
  }
  // Loads them; the table (null: the built-in one), or an exit code after
  // printing the error (the file and key of a schema error).
  std::optional<int> Load(const std::string& command, const logbook::LauncherTable** out) {
    *out = nullptr;
    if (launchers.empty() && adapters.empty()) return std::nullopt;
    auto t = logbook::LoadPlanTable(launchers, adapters);
    if (!t.ok()) {
      PrintError(command, t.status().message());
      return kExitUsage;
    }
    table = std::move(*t);
    *out = &table;
    return std::nullopt;
  }
};

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_CLI_PARSE_H_
