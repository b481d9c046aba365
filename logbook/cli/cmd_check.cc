// moelog check LOGBOOK: evaluates the Stop Criteria predicates against the
// run store and the figures written in the logbook's Results (recorded runs;
// --no-recorded leaves them out).
// One line per criterion: "file:line: met|unmet|predicted|manual: sentence [detail; runs ...]".
// Exit 0 when every checkable criterion is met, 4 when some is unmet, 7 when
// none is unmet but some is met by model predictions only (predicted), 3 for
// a predicate that does not parse.
#include <cstdlib>
#include <iostream>
#include <set>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/criteria/recorded.h"
#include "logbook/criteria/suggest.h"
#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/update/update_hooks.h"

namespace moelog::cli {
namespace {

// check --suggest: each criterion with its proposal (and what check would
// say of it now), or why it stays manual; --write adds the proposals.
int Suggest(const std::string& path, const std::string& text, logbook::LineEnding ending,
            const logbook::Logbook& doc, const std::vector<logbook::StoredRun>& runs, const logbook::Logbook& evidence,
            const std::set<int>& only, bool write) {
  const auto suggestions = logbook::SuggestPredicates(doc, text);
  const logbook::RunKeys keys = logbook::RecordedKeys(doc);
  logbook::EvalContext ctx;
  ctx.runs = runs;
  ctx.entries = logbook::EntryFactsOf(evidence);
  int proposed = 0;
  for (const auto& s : suggestions) {
    std::cout << path << ":" << s.line << ": [" << s.index << "] " << s.prose << "\n";
    if (!s.existing.empty()) {
      std::cout << "    has predicate: " << s.existing << "\n";
      continue;
    }
    if (s.predicate.empty()) {
      std::cout << "    manual: " << s.reason << "\n";
      continue;
    }
    ++proposed;
    std::cout << "    suggest: " << s.predicate << "\n";
    auto p = logbook::ParsePredicate(s.predicate, path, s.line, keys);
    if (p.ok()) {
      logbook::Criterion c;
      c.text = s.prose;
      c.line = s.line;
      c.predicate = *p;
      const auto r = logbook::Evaluate(c, ctx);
      std::cout << "    check would say: " << logbook::StateName(r.state) << " (" << r.detail << ")\n";
    }
  }
  std::cout << proposed << " of " << suggestions.size() << " criteria read as predicates\n";
  if (!write) return kExitOk;
  int written = 0;
  const std::string out = logbook::InsertSuggestions(text, suggestions, only, &written);
  if (written == 0) {
    std::cerr << path << ": nothing to write\n";
    return kExitOk;
  }
  // Only comment lines were added: every bullet's prose reads the same.
  const logbook::Logbook again = logbook::ParseLogbook(out, path);
  auto before = logbook::ParseCriteria(logbook::StopCriteriaBullets(doc, text), path, keys);
  auto after = logbook::ParseCriteria(logbook::StopCriteriaBullets(again, out), path, keys);
  bool same = before.ok() && after.ok() && before->size() == after->size();
  for (size_t i = 0; same && i < before->size(); ++i) same = (*before)[i].text == (*after)[i].text;
  if (!same) {
    PrintError("check", path + ": adding the predicates would change the criteria's prose; file unchanged");
    return kExitParse;
  }
  Status st = logbook::AtomicWriteFile(path, logbook::FromLf(out, ending));
  if (!st.ok()) {
    PrintError("check", st.ToString());
    return st.ExitCode();
  }
  std::cerr << path << ": added " << written << " predicate" << (written == 1 ? "" : "s") << " as comments\n";
  return kExitOk;
}

}  // namespace

int CmdCheck(const Args& args) {
  CLI::App app{"Evaluate a logbook's Stop Criteria. A bullet carries a predicate in\n"
               "<!-- moelog: ... --> or `moelog: ...`; bullets without one are manual.\n"
               "With --logbook, FILE is a criteria document (e.g. recipes/*_criteria.md)\n"
               "checked against that logbook's runs and entries.\n"
               "Evidence is the store's runs and the figures the entries' Results record.\n"
               "By default only measured and recorded runs meet a criterion; one that\n"
               "modeled (v5p) runs alone would meet is 'predicted' (a predicate's\n"
               "`accept modeled` lets predictions count).\n"
               "Exit codes: 0 all checkable criteria met (or nothing to check), 4 some unmet,\n"
               "7 none unmet but some only predicted, 3 bad predicate.",
               "moelog check"};
  std::string path, db, evidence_path;
  bool recorded = true, quiet = false, accept_foreign = false;
  app.add_option("FILE", path, "the logbook (or, with --logbook, a criteria document)")->required();
  app.add_option("--logbook", evidence_path, "check FILE's criteria against this logbook's runs");
  app.add_option("--db", db, "run store (default: .moelog/runs.db beside the logbook)");
  app.add_flag("--recorded,!--no-recorded", recorded,
               "count the figures written in the entries' Result fields as evidence (the default; "
               "--no-recorded leaves them out)");
  app.add_flag("-q,--quiet", quiet, "print only unmet and predicted criteria");
  bool suggest = false, write = false;
  std::string only_text;
  app.add_flag("--suggest", suggest, "propose a predicate for each prose criterion it can read, beside its prose");
  app.add_flag("--write", write, "with --suggest: add the proposals as <!-- moelog: ... --> comments (atomic; "
                                 "the prose is never changed)");
  app.add_option("--only", only_text, "with --write: the criteria to write, by number (\"1,3\")");
  app.add_flag("--accept-foreign-runs", accept_foreign,
               "also count stored runs this user did not make on this host (a store received with the logbook)");
  PlanTableFlags plan_table;
  plan_table.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  if ((write || !only_text.empty()) && !suggest) {
    PrintError("check", "--write and --only go with --suggest");
    return kExitUsage;
  }
  std::set<int> only;
  for (size_t b = 0; b < only_text.size();) {
    size_t e = only_text.find(',', b);
    if (e == std::string::npos) e = only_text.size();
    const std::string item = only_text.substr(b, e - b);
    char* end = nullptr;
    const long n = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n < 1 || n > 100000) {
      PrintError("check", "--only: '" + item + "' is not a criterion number");
      return kExitUsage;
    }
    only.insert(static_cast<int>(n));
    b = e + 1;
  }
  logbook::FileLock lock;
  if (write) {
    Status st = lock.Acquire(path);
    if (!st.ok()) {
      PrintError("check", st.ToString());
      return st.ExitCode();
    }
  }
  auto text = logbook::ReadFile(path);
  if (!text.ok()) {
    PrintError("check", text.status().ToString());
    return text.status().ExitCode();
  }
  const logbook::LineEnding ending = logbook::DetectLineEnding(*text);
  *text = logbook::ToLf(*text, ending);  // CRLF and lone-CR files alike
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
  if (suggest) return Suggest(path, *text, ending, criteria_doc, *runs, evidence, only, write);
  auto results = logbook::CheckCriteria(*text, criteria_doc, *runs, &evidence);
  if (!results.ok()) {
    std::cerr << results.status().message() << "\n";
    return results.status().ExitCode();
  }
  int met = 0, unmet = 0, manual = 0, predicted = 0;
  for (const auto& r : *results) {
    if (r.state == logbook::CriterionState::kMet) ++met;
    else if (r.state == logbook::CriterionState::kUnmet) ++unmet;
    else if (r.state == logbook::CriterionState::kPredicted) ++predicted;
    else ++manual;
    const bool open = r.state == logbook::CriterionState::kUnmet || r.state == logbook::CriterionState::kPredicted;
    if (!quiet || open) std::cout << FormatCheckLine(path, r) << "\n";
  }
  std::cout << met << " met, " << unmet << " unmet, " << predicted << " predicted, " << manual << " manual (" << note
            << (evidence_path.empty() ? "" : " of " + evidence_path) << ")\n";
  return logbook::CheckExitCode(*results);
}

}  // namespace moelog::cli
