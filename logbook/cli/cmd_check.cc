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
               "With --logbook, FILE is a criteria document (e.g. recipes/*_criteria.md)\n"
               "checked against that logbook's runs and entries.\n"
               "Exit codes: 0 all checkable criteria met (or nothing to check), 4 some unmet,\n"
               "3 bad predicate.",
               "moelog check"};
  std::string path, db, evidence_path;
  bool recorded = false, quiet = false, accept_foreign = false;
  app.add_option("FILE", path, "the logbook (or, with --logbook, a criteria document)")->required();
  app.add_option("--logbook", evidence_path, "check FILE's criteria against this logbook's runs");
  app.add_option("--db", db, "run store (default: .moelog/runs.db beside the logbook)");
  app.add_flag("--recorded", recorded, "also count figures written in the entries' Result fields as evidence");
  app.add_flag("-q,--quiet", quiet, "print only unmet criteria");
  app.add_flag("--accept-foreign-runs", accept_foreign,
               "also count stored runs this user did not make on this host (a store received with the logbook)");
  PlanTableFlags plan_table;
  plan_table.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  auto text = logbook::ReadFile(path);
  if (!text.ok()) {
    PrintError("check", text.status().ToString());
    return text.status().ExitCode();
  }
  *text = logbook::ToLf(*text, logbook::DetectLineEnding(*text));  // CRLF and lone-CR files alike
  const logbook::Logbook criteria_doc = logbook::ParseLogbook(*text, path);
  if (logbook::StopCriteriaBullets(criteria_doc, *text).empty()) {
    std::cout << path << ": nothing to check (no bullets under a 'Stop Criteria' heading)\n";
    return kExitOk;
  }
  logbook::Logbook evidence = criteria_doc;
  if (!evidence_path.empty()) {
    auto lb = logbook::LoadLogbook(evidence_path);
    if (!lb.ok()) {
      PrintError("check", lb.status().ToString());
      return lb.status().ExitCode();
    }
    evidence = std::move(*lb);
  }
  const std::string runs_of = evidence_path.empty() ? path : evidence_path;
  if (db.empty()) db = logbook::DefaultStorePath(runs_of);
  std::string note;
  const logbook::LauncherTable* table = nullptr;
  if (auto code = plan_table.Load("check", &table)) return *code;
  auto runs = logbook::LogbookRuns(evidence, db, recorded, &note, table, accept_foreign);
  if (!runs.ok()) {
    PrintError("check", runs.status().ToString());
    return runs.status().ExitCode();
  }
  auto results = logbook::CheckCriteria(*text, criteria_doc, *runs, &evidence);
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
  std::cout << met << " met, " << unmet << " unmet, " << manual << " manual (" << note
            << (evidence_path.empty() ? "" : " of " + evidence_path) << ")\n";
  return logbook::CheckExitCode(*results);
}

}  // namespace moelog::cli
