// The moelog commands. Each lives in its own cmd_<name>.cc, parses its own
// flags (CLI11) and returns a process exit code (see engine/status.h).
#ifndef MOELOG_LOGBOOK_CLI_COMMANDS_H_
#define MOELOG_LOGBOOK_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace moelog::cli {

using Args = std::vector<std::string>;  // arguments after the command name

int CmdBench(const Args& args);    // run one benchmark (harness flags)
int CmdModel(const Args& args);    // v5p model: fit | validate
int CmdUpdate(const Args& args);   // run a logbook's entries and write results back
int CmdRun(const Args& args);      // run a recipe's steps
int CmdRuns(const Args& args);     // query the run store
int CmdIds(const Args& args);      // list / write entry IDs
int CmdCheck(const Args& args);    // evaluate stop criteria
int CmdPlot(const Args& args);     // draw one chart
int CmdCompare(const Args& args);  // A/B table from the run store
int CmdNew(const Args& args);      // new logbook | recipe | entry
int CmdNext(const Args& args);     // propose the next experiments

// Prints "moelog <cmd>: error: <message>" to stderr.
void PrintError(const std::string& command, const std::string& message);

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_COMMANDS_H_
