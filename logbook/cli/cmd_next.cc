// moelog next LOGBOOK: proposes the next experiments (logbook/research/next.h).
// --write appends the first as a new entry (atomic; nothing else changes).
#include <ctime>
#include <iostream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/criteria/criteria.h"
#include "logbook/criteria/recorded.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"
#include "logbook/research/next.h"
#include "logbook/store/run_store.h"
#include "logbook/update/update_hooks.h"

namespace moelog::cli {
namespace {

std::string UtcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M", &tm);
  return b;
}

}  // namespace

int CmdNext(const Args& args) {
  CLI::App app{"Propose the next experiments of a logbook: configurations of the hillclimb harness\n"
               "around the best one measured or recorded at the latest entry's shape, ranked by the\n"
               "v5p model's expected improvement (predicted figure, interval, gain, dominant term,\n"
               "the unmet criterion served; unvalidated paths apart). --write appends the first as\n"
               "a new entry (Result: pending) that `moelog update` then runs or models.\n"
               "Exit codes: 0 proposals (or none, with the reason), 2 usage, 3 parse, 1 nothing to\n"
               "start from or to write.",
               "moelog next"};
  std::string path, db, entry, params, date;
  int count = 5;
  bool write = false;
  app.add_option("LOGBOOK", path, "the logbook")->required();
  app.add_option("-n,--count", count, "proposals to list (each group)")->check(CLI::Range(1, 100));
  app.add_option("--entry", entry, "search around this entry's shape (default: the latest entry with runs)");
  app.add_option("--db", db, "run store (default: .moelog/runs.db beside the logbook)");
  app.add_option("--model-params", params, "v5p parameter file (default data/v5p_params.json)");
  app.add_flag("--write", write, "append the first proposal as a new entry (atomic; nothing else changes)");
  app.add_option("--date", date, "the new entry's \"YYYY-MM-DD HH:MM\" (default: now, UTC)");
  PlanTableFlags plan_table;
  plan_table.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  logbook::FileLock lock;
  if (write) {
    Status st = lock.Acquire(path);
    if (!st.ok()) {
      PrintError("next", st.ToString());
      return st.ExitCode();
    }
  }
  auto raw = logbook::ReadFile(path);
  if (!raw.ok()) {
    PrintError("next", raw.status().ToString());
    return raw.status().ExitCode();
  }
  const logbook::LineEnding ending = logbook::DetectLineEnding(*raw);
  const std::string text = logbook::ToLf(*raw, ending);
  const logbook::Logbook lb = logbook::ParseLogbook(text, path);
  if (db.empty()) db = logbook::DefaultStorePath(path);
  const logbook::LauncherTable* table = nullptr;
  if (auto code = plan_table.Load("next", &table)) return *code;
  std::string note;
  auto runs = logbook::LogbookRuns(lb, db, true, &note, table);
  if (!runs.ok()) {
    PrintError("next", runs.status().ToString());
    return runs.status().ExitCode();
  }
  auto criteria = logbook::ParseCriteria(logbook::StopCriteriaBullets(lb, text), path, logbook::RecordedKeys(lb));
  if (!criteria.ok()) {
    std::cerr << criteria.status().message() << " (criteria not used)\n";
    criteria = std::vector<logbook::Criterion>{};
  }
  logbook::NextOptions opt;
  opt.count = count;
  opt.entry = entry;
  opt.params_name = params;
  auto rep = logbook::ProposeNext(lb, *runs, *criteria, opt);
  if (!rep.ok()) {
    PrintError("next", rep.status().ToString());
    return rep.status().ExitCode();
  }
  std::cout << path << ": " << note << "\n" << logbook::FormatNextReport(*rep);
  if (!write) return kExitOk;
  std::string id;
  auto out = logbook::AppendProposalEntry(lb, text, *rep, date.empty() ? UtcNow() : date, &id);
  if (!out.ok()) {
    PrintError("next", out.status().ToString());
    return kExitError;
  }
  // The append keeps every entry and adds one.
  const logbook::Logbook check = logbook::ParseLogbook(*out, path);
  bool same = check.entries.size() == lb.entries.size() + 1;
  for (size_t i = 0; same && i < lb.entries.size(); ++i) same = check.entries[i].id == lb.entries[i].id;
  if (!same) {
    PrintError("next", path + ": appending the entry would change the document's structure; file unchanged");
    return kExitParse;
  }
  Status st = logbook::AtomicWriteFile(path, logbook::FromLf(*out, ending));
  if (!st.ok()) {
    PrintError("next", st.ToString());
    return st.ExitCode();
  }
  std::cerr << path << ": appended entry " << check.entries.back().id << " (Result: pending)\n";
  return kExitOk;
}

}  // namespace moelog::cli
