// moelog next LOGBOOK: proposes the next experiments (logbook/research/next.h).
// --write appends the first as a new entry (atomic; nothing else changes).
#include <ctime>
#include <iostream>
#include <optional>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/store_flags.h"
#include "logbook/criteria/criteria.h"
#include "logbook/criteria/recorded.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"
#include "logbook/research/next.h"
#include "logbook/research/next_gpu.h"
#include "logbook/update/gpu_session.h"
#include "logbook/update/pinned_target.h"
#include "logbook/store/run_store.h"
#include "logbook/update/counted_runs.h"

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

struct NextFlags {
  std::string path, entry, params, date, target;
  int count = 5;
  bool write = false;
  StoreFlags store;

  void Add(CLI::App& app) {
    app.add_option("LOGBOOK", path, "the logbook")->required();
    app.add_option("-n,--count", count, "proposals to list (each group)")->check(CLI::Range(1, 100));
    app.add_option("--entry", entry, "search around this entry's shape (default: the latest entry with runs)");
    store.Add(app, "run store (default: .moelog/runs.db beside the logbook)");
    app.add_option("--model-params", params, "v5p parameter file (default data/v5p_params.json)");
    app.add_option("--target", target,
                   "a GPU hardware file (h100, b200, ...): propose GPU configurations ranked by the GPU model "
                   "(default: the GPU the logbook pins in its front matter or a Hardware/Config line)");
    app.add_flag("--write", write, "append the first proposal as a new entry (atomic; nothing else changes)");
    app.add_option("--date", date, "the new entry's \"YYYY-MM-DD HH:MM\" (default: now, UTC)");
    store.AddPlanTable(app);
  }
};

// --write: appends the first proposal as a new entry, when the append keeps
// every entry and adds one.
int AppendFirst(const LogbookFile& file, const logbook::Logbook& lb, const logbook::NextReport& rep,
                const std::string& date) {
  std::string id;
  if (!logbook::FirstProposal(rep)) {  // nothing to write is no failure: the report said why
    std::cerr << file.path << ": nothing written: no candidate\n";
    return kExitOk;
  }
  auto out = logbook::AppendProposalEntry(lb, file.text, rep, date.empty() ? UtcNow() : date, &id);
  if (!out.ok()) {
    PrintError("next", out.status().ToString());
    return kExitError;
  }
  const logbook::Logbook check = logbook::ParseLogbook(*out, file.path);
  bool same = check.entries.size() == lb.entries.size() + 1;
  for (size_t i = 0; same && i < lb.entries.size(); ++i) same = check.entries[i].id == lb.entries[i].id;
  if (!same) {
    PrintError("next", file.path + ": appending the entry would change the document's structure; file unchanged");
    return kExitParse;
  }
  if (auto code = file.Write("next", *out)) return *code;
  std::cerr << file.path << ": appended entry " << check.entries.back().id << " (Result: pending)\n";
  return kExitOk;
}

// A GPU target (--target, or the GPU the logbook pins): configurations
// ranked by the GPU model. nullopt: not a GPU target (the v5p search runs).
std::optional<int> NextOnGpu(const NextFlags& f, const std::string& text) {
  std::string target = f.target, pin;
  if (target.empty()) {
    const logbook::PinnedHardware p = logbook::FindPinnedHardware(text);
    target = p.name, pin = p.where;
  }
  if (target.empty() || target == "v5p" || target == "cpu") return std::nullopt;
  if (!logbook::IsGpuTarget(target)) {
    PrintError("next", "--target must be v5p, cpu or a GPU hardware file's name (got '" + target + "')");
    return kExitUsage;
  }
  if (f.write) {
    PrintError("next", "--write appends v5p proposals; on a GPU target the proposals are only listed");
    return kExitUsage;
  }
  auto rep = logbook::ProposeGpuNext(f.path, target, pin, f.entry, std::cerr);
  if (!rep.ok() && !pin.empty() && rep.status().code() == Status::Code::kNotFound) {
    std::cerr << f.path << ": pins " << target << " but records no GPU harness invocation: the v5p search runs\n";
    return std::nullopt;
  }
  if (!rep.ok()) {
    PrintError("next", rep.status().message());
    return rep.status().code() == Status::Code::kNotFound ? kExitError : kExitUsage;
  }
  std::cout << f.path << ": " << logbook::FormatGpuNextReport(*rep, f.count);
  return kExitOk;
}

}  // namespace

int CmdNext(const Args& args) {
  CLI::App app{"Propose the next experiments of a logbook. First the runs that complete its unmet stop\n"
               "criteria (missing table cells, sweep points, A/B arms, repeats; predicates read from\n"
               "prose marked suggested), on any harness; then configurations of the hillclimb harness\n"
               "around the best one measured or recorded, ranked by the v5p model's expected\n"
               "improvement (validated paths with their band; unvalidated ones as exploration with a\n"
               "wide interval, fewest changed keys first, then by the interval's lower end); for\n"
               "another harness, untried neighbours of the best recorded figure.\n"
               "--write appends the first as a new entry (Result: pending) in the logbook's style,\n"
               "checked to parse back as meant, that `moelog update` then plans.\n"
               "Exit codes: 0 proposals (or no candidate, with the reason), 2 usage, 3 parse, 1 an\n"
               "entry that would not parse back as written (nothing written) or an --entry without runs.",
               "moelog next"};
  NextFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  LogbookFile file;
  if (auto code = file.Open("next", f.path, f.write)) return *code;
  if (auto code = NextOnGpu(f, file.text)) return *code;
  const logbook::Logbook lb = logbook::ParseLogbook(file.text, f.path);
  std::string note;
  std::vector<logbook::StoredRun> runs;
  if (auto code = f.store.LogbookRuns("next", lb, f.path, true, &runs, &note)) return *code;
  auto criteria =
      logbook::ParseCriteria(logbook::StopCriteriaBullets(lb, file.text), f.path, logbook::RecordedKeys(lb));
  if (!criteria.ok()) {
    std::cerr << criteria.status().message() << " (criteria not used)\n";
    criteria = std::vector<logbook::Criterion>{};
  }
  logbook::NextOptions opt;
  opt.count = f.count;
  opt.entry = f.entry;
  opt.params_name = f.params;
  opt.text = file.text;
  auto rep = logbook::ProposeNext(lb, runs, *criteria, opt);
  if (auto code = Failed("next", rep.status())) return *code;
  std::cout << f.path << ": " << note << "\n" << logbook::FormatNextReport(*rep);
  return f.write ? AppendFirst(file, lb, *rep, f.date) : kExitOk;
}

}  // namespace moelog::cli
