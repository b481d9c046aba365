// moelog compare --a k=v[,...] --b k=v[,...] [--same k,...] [LOGBOOK | --db PATH]:
// pairs stored runs that agree on every other config key (or on --same) and
// prints an A/B table with % delta; repeats give the spread and a
// "within noise" mark; different hosts or targets are warned about.
#include <iostream>
#include <sstream>

#include "logbook/criteria/recorded.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "engine/v5p/uncertainty.h"
#include "logbook/criteria/compare.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_adapter.h"
#include "logbook/store/run_store.h"
#include "logbook/update/update_hooks.h"

namespace moelog::cli {

int CmdCompare(const Args& args) {
  CLI::App app{"A/B table of runs with % delta. A run is on side A when it matches every --a\n"
               "key=value, on side B likewise; A and B runs pair when they agree on every other\n"
               "config key (iters, warmup, threads and output settings aside) or on --same keys.",
               "moelog compare"};
  std::string a, b, same, metric = "tflops", db, path, entry;
  bool recorded = false;
  app.add_option("--a", a, "side A, e.g. quant_mode=none")->required();
  app.add_option("--b", b, "side B, e.g. quant_mode=int8")->required();
  app.add_option("--same", same, "control keys that must agree, comma separated (default: all others)");
  app.add_option("--metric", metric, "metric to compare (tflops, tokens_per_s, mean_s, ...)");
  app.add_option("LOGBOOK", path, "logbook whose runs to compare (its store and, with --recorded, its figures)");
  app.add_option("--db", db, "run store (default: .moelog/runs.db beside LOGBOOK, or in this directory)");
  app.add_option("--entry", entry, "only runs of this entry");
  app.add_flag("--recorded", recorded, "include figures written in the logbook (needs LOGBOOK)");
  PlanTableFlags plan_table;
  plan_table.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  // The keys a logbook's recorded runs use (a harness's own flags) are
  // valid in --a, --b and --same.
  logbook::RunKeys keys;
  if (recorded && !path.empty())
    if (auto lb = logbook::LoadLogbook(path); lb.ok()) keys = logbook::RecordedKeys(*lb);
  logbook::CompareOptions o;
  auto pa = logbook::ParseAssignments(a, "--a", keys);
  auto pb = logbook::ParseAssignments(b, "--b", keys);
  for (const auto* p : {&pa, &pb})
    if (!p->ok()) {
      PrintError("compare", p->status().ToString());
      return kExitUsage;
    }
  o.a = *pa;
  o.b = *pb;
  std::stringstream ss(same);
  for (std::string k; std::getline(ss, k, ',');) {
    k = logbook::NormalizeKey(k);
    if (k.empty()) continue;
    if (!keys.Has(k)) {
      PrintError("compare", "--same: unknown config key '" + k + "' (valid: " + logbook::JoinKeys(keys.Names()) + ")");
      return kExitUsage;
    }
    o.same.push_back(k);
  }
  o.metric = logbook::NormalizeKey(metric);
  // Modeled A/B pairs are judged against the band of the model's past
  // within-entry ratio errors (data/v5p_bands.json), when it ships.
  if (auto u = engine::v5p::LoadUncertaintyByName(""); u.ok()) o.ratio_band = u->within_entry;
  if (recorded && path.empty()) {
    PrintError("compare", "--recorded needs LOGBOOK");
    return kExitUsage;
  }

  std::vector<logbook::StoredRun> runs;
  std::string note;
  if (!path.empty()) {
    auto lb = logbook::LoadLogbook(path);
    if (!lb.ok()) {
      PrintError("compare", lb.status().ToString());
      return lb.status().ExitCode();
    }
    const logbook::LauncherTable* table = nullptr;
    if (auto code = plan_table.Load("compare", &table)) return *code;
    auto r = logbook::LogbookRuns(*lb, db.empty() ? logbook::DefaultStorePath(path) : db, recorded, &note, table);
    if (!r.ok()) {
      PrintError("compare", r.status().ToString());
      return r.status().ExitCode();
    }
    runs = std::move(*r);
  } else {
    if (db.empty()) db = logbook::DefaultStorePath("./compare");
    auto r = logbook::LoadStoredRuns(db, logbook::RunQuery{});
    if (!r.ok()) {
      PrintError("compare", r.status().ToString());
      return r.status().ExitCode();
    }
    runs = std::move(*r);
    note = std::to_string(runs.size()) + " stored runs in " + db;
  }
  if (!entry.empty()) {
    std::vector<logbook::StoredRun> keep;
    for (auto& r : runs)
      if (r.entry_id == entry) keep.push_back(std::move(r));
    runs = std::move(keep);
  }
  auto c = logbook::CompareRuns(runs, o);
  if (!c.ok()) {
    PrintError("compare", c.status().ToString() + " (" + note + ")");
    return kExitError;
  }
  std::cout << logbook::RenderComparison(*c, o);
  for (const auto& row : c->rows)
    for (const auto& w : row.warnings) std::cerr << "moelog compare: warning: " << w << "\n";
  return kExitOk;
}

}  // namespace moelog::cli
