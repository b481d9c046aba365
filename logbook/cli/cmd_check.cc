// moelog check LOGBOOK: evaluates the Stop Criteria predicates against the
// run store (and, with --recorded, the figures written in the logbook).
// One line per criterion: "file:line: met|unmet|manual: sentence [detail; runs ...]".
// Exit 0 when every checkable criterion is met, 4 when some is unmet,
// 3 for a predicate that does not parse.
#include <iostream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/update/update_hooks.h"

namespace moelog::cli {

int CmdCheck(const Args& args) {
  CLI::App app{"Evaluate a logbook's Stop Criteria. A bullet carries a predicate in\n"
               "<!-- moelog: ... --> or `moelog: ...`; bullets without one are manual.\n"
               "Exit codes: 0 all checkable criteria met, 4 some unmet, 3 bad predicate.",
               "moelog check"};
  std::string path, db;
  bool recorded = false, quiet = false;
  app.add_option("LOGBOOK", path, "the logbook")->required();
  app.add_option("--db", db, "run store (default: .moelog/runs.db beside the logbook)");
  app.add_flag("--recorded", recorded, "also count figures written in the entries' Result fields as evidence");
  app.add_flag("-q,--quiet", quiet, "print only unmet criteria");
  if (auto code = ParseCommandLine(app, args)) return *code;

  auto text = logbook::ReadFile(path);
  if (!text.ok()) {
    PrintError("check", text.status().ToString());
    return text.status().ExitCode();
  }
  *text = logbook::ToLf(*text, logbook::DetectLineEnding(*text));  // CRLF and lone-CR files alike
  const logbook::Logbook lb = logbook::ParseLogbook(*text, path);
  if (logbook::StopCriteriaBullets(lb, *text).empty()) {
    std::cerr << path << ":1: no bullets under '## Stop Criteria'\n";
    return kExitParse;
  }
  if (db.empty()) db = logbook::DefaultStorePath(path);
  std::string note;
  auto runs = logbook::LogbookRuns(lb, db, recorded, &note);
  if (!runs.ok()) {
    PrintError("check", runs.status().ToString());
    return runs.status().ExitCode();
  }
  auto results = logbook::CheckCriteria(*text, lb, *runs);
  if (!results.ok()) {
    std::cerr << results.status().message() << "\n";
    return results.status().ExitCode();
  }
  int met = 0, unmet = 0, manual = 0;
  for (const auto& r : *results) {
    if (r.state == logbook::CriterionState::kMet) ++met;
    else if (r.state == logbook::CriterionState::kUnmet) ++unmet;
    else ++manual;
    if (!quiet || r.state == logbook::CriterionState::kUnmet) std::cout << FormatCheckLine(path, r) << "\n";
  }
  std::cout << met << " met, " << unmet << " unmet, " << manual << " manual (" << note << ")\n";
  return logbook::CheckExitCode(*results);
}

}  // namespace moelog::cli
