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

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_CLI_PARSE_H_
