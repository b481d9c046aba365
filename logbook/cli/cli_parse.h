// Runs a CLI11 parser over a command's arguments with moelog's exit codes:
// --help prints and gives kExitOk, any parse error prints and gives
// kExitUsage. CLI11 exceptions never leave this function.
#ifndef MOELOG_LOGBOOK_CLI_CLI_PARSE_H_
#define MOELOG_LOGBOOK_CLI_CLI_PARSE_H_

#include <CLI/CLI.hpp>

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
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    return kExitOk;
  } catch (const CLI::CallForAllHelp& e) {
    app.exit(e);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_CLI_PARSE_H_
