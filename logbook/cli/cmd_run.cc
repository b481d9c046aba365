// moelog run RECIPE [--write]: run a recipe's steps in order and print a
// result table per step; --write inserts owned regions after each step's
// shell block.
#include <unistd.h>

#include <iostream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/session_flags.h"
#include "logbook/update/session.h"

namespace moelog::cli {

int CmdRun(const Args& args) {
  CLI::App app{
      "Run a recipe's steps (numbered items or headings with shell blocks) in order and print a result\n"
      "table per step. Runs are stored (and reused) like `moelog update`'s. With --write, each step's table\n"
      "goes into an owned region after its shell block (region ID <FILE-STEM>-STEP-<n>).\n\n"
      "exit codes: 0 ok; 1 a run failed; 2 usage error; 3 malformed regions or unsafe rewrite.",
      "moelog run"};
  logbook::SessionOptions o;
  std::string path;
  bool write = false;
  app.add_option("recipe", path, "recipe Markdown file")->required();
  AddSessionFlags(&app, &o);
  app.add_flag("--write", write, "write each step's table into the recipe (owned regions)");
  if (auto code = ParseCommandLine(app, args)) return *code;
  o.write = write;
  o.print_tables = true;
  o.progress = isatty(2);
  return logbook::RunSession(path, logbook::DocumentKind::kRecipe, o, std::cout, std::cerr).exit_code;
}

}  // namespace moelog::cli
