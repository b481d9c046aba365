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
#include "logbook/cli/store_flags.h"
#include "logbook/criteria/recorded.h"
#include "logbook/criteria/suggest.h"
#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/update/counted_runs.h"
#include "logbook/update/criteria_status.h"

namespace moelog::cli {
namespace {

// check --suggest: each criterion with its proposal (and what check would
// say of it now), or why it stays manual; --write adds the proposals.
int Suggest(const LogbookFile& file, const logbook::Logbook& doc, const std::vector<logbook::StoredRun>& runs,
            const logbook::Logbook& evidence, const std::set<int>& only, bool write) {
  const std::string& path = file.path;
  const std::string& text = file.text;
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
  if (auto code = file.Write("check", out)) return *code;
  std::cerr << path << ": added " << written << " predicate" << (written == 1 ? "" : "s") << " as comments\n";
  return kExitOk;
}

// --only "1,3": the criterion numbers to write; nullopt after printing the
// error for an item that is not one.
std::optional<std::set<int>> ParseOnly(const std::string& only_text) {
  std::set<int> only;
  for (size_t b = 0; b < only_text.size();) {
    size_t e = only_text.find(',', b);
    if (e == std::string::npos) e = only_text.size();
    const std::string item = only_text.substr(b, e - b);
    char* end = nullptr;
    const long n = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n < 1 || n > 100000) {
      PrintError("check", "--only: '" + item + "' is not a criterion number");
      return std::nullopt;
    }
    only.insert(static_cast<int>(n));
    b = e + 1;
  }
  return only;
}

// One line per criterion (only the open ones when quiet), then the counts.
int PrintCheck(const std::string& path, const std::vector<logbook::CriterionResult>& results, bool quiet,
               const std::string& note, const std::string& evidence_path) {
  int met = 0, unmet = 0, manual = 0, predicted = 0;
  for (const auto& r : results) {
    if (r.state == logbook::CriterionState::kMet) ++met;
    else if (r.state == logbook::CriterionState::kUnmet) ++unmet;
    else if (r.state == logbook::CriterionState::kPredicted) ++predicted;
    else ++manual;
    const bool open = r.state == logbook::CriterionState::kUnmet || r.state == logbook::CriterionState::kPredicted;
    if (!quiet || open) std::cout << FormatCheckLine(path, r) << "\n";
  }
  std::cout << met << " met, " << unmet << " unmet, " << predicted << " predicted, " << manual << " manual (" << note
            << (evidence_path.empty() ? "" : " of " + evidence_path) << ")\n";
  return logbook::CheckExitCode(results);
}

struct CheckFlags {
  std::string path, evidence_path, only_text;
  bool recorded = true, quiet = false, accept_foreign = false, suggest = false, write = false;
  StoreFlags store;

  void Add(CLI::App& app) {
    app.add_option("FILE", path, "the logbook (or, with --logbook, a criteria document)")->required();
    app.add_option("--logbook", evidence_path, "check FILE's criteria against this logbook's runs");
    store.Add(app, "run store (default: .moelog/runs.db beside the logbook)");
    app.add_flag("--recorded,!--no-recorded", recorded,
                 "count the figures written in the entries' Result fields as evidence (the default; "
                 "--no-recorded leaves them out)");
    app.add_flag("-q,--quiet", quiet, "print only unmet and predicted criteria");
    app.add_flag("--suggest", suggest, "propose a predicate for each prose criterion it can read, beside its prose");
    app.add_flag("--write", write, "with --suggest: add the proposals as <!-- moelog: ... --> comments (atomic; "
                                   "the prose is never changed)");
    app.add_option("--only", only_text, "with --write: the criteria to write, by number (\"1,3\")");
    app.add_flag("--accept-foreign-runs", accept_foreign,
                 "also count stored runs this user did not make on this host (a store received with the logbook)");
    store.AddPlanTable(app);
  }
};

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
  CheckFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  if ((f.write || !f.only_text.empty()) && !f.suggest) {
    PrintError("check", "--write and --only go with --suggest");
    return kExitUsage;
  }
  const auto only = ParseOnly(f.only_text);
  if (!only) return kExitUsage;
  LogbookFile file;
  if (auto code = file.Open("check", f.path, f.write)) return *code;
  const logbook::Logbook criteria_doc = logbook::ParseLogbook(file.text, f.path);
  if (logbook::StopCriteriaBullets(criteria_doc, file.text).empty()) {
    std::cout << f.path << ": nothing to check (no bullets under a 'Stop Criteria' heading)\n";
    return kExitOk;
  }
  logbook::Logbook evidence = criteria_doc;
  if (!f.evidence_path.empty()) {
    auto lb = logbook::LoadLogbook(f.evidence_path);
    if (auto code = Failed("check", lb.status())) return *code;
    evidence = std::move(*lb);
  }
  std::string note;
  std::vector<logbook::StoredRun> runs;
  if (auto code = f.store.LogbookRuns("check", evidence, f.evidence_path.empty() ? f.path : f.evidence_path,
                                      f.recorded, &runs, &note, f.accept_foreign))
    return *code;
  if (f.suggest) return Suggest(file, criteria_doc, runs, evidence, *only, f.write);
  auto results = logbook::CheckCriteria(file.text, criteria_doc, runs, &evidence);
  if (!results.ok()) {
    std::cerr << results.status().message() << "\n";
    return results.status().ExitCode();
  }
  return PrintCheck(f.path, *results, f.quiet, note, f.evidence_path);
}

}  // namespace moelog::cli
