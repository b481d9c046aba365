// moelog compare --a k=v[,...] --b k=v[,...] [--same k,...] [LOGBOOK | --db PATH]:
// pairs stored runs that agree on every other config key (or on --same) and
// prints an A/B table with % delta; repeats give the spread and a
// "within noise" mark; different hosts or targets are warned about.
#include <iostream>

#include "logbook/criteria/recorded.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/store_flags.h"
#include "engine/v5p/uncertainty.h"
#include "logbook/criteria/compare.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/store/stored_run_reader.h"
#include "logbook/text.h"
#include "logbook/update/counted_runs.h"

namespace moelog::cli {

namespace {

struct CompareFlags {
  std::string a, b, same, metric = "tflops", path, entry;
  bool recorded = true;
  StoreFlags store;

  void Add(CLI::App& app) {
    app.add_option("--a", a, "side A, e.g. quant_mode=none")->required();
    app.add_option("--b", b, "side B, e.g. quant_mode=int8")->required();
    app.add_option("--same", same, "control keys that must agree, comma separated (default: all others)");
    app.add_option("--metric", metric, "metric to compare (tflops, tokens_per_s, mean_s, ...)");
    app.add_option("LOGBOOK", path, "logbook whose runs to compare (its store and its Results' figures)");
    store.Add(app, "run store (default: .moelog/runs.db beside LOGBOOK, or in this directory)");
    app.add_option("--entry", entry, "only runs of this entry");
    app.add_flag("--recorded,!--no-recorded", recorded,
                 "count the figures written in the entries' Result fields as runs (the default with LOGBOOK, as in "
                 "`check`; --no-recorded leaves them out)");
    store.AddPlanTable(app);
  }
};

// The sides, the control keys and the metric of the flags; nullopt after
// printing a usage error.
std::optional<logbook::CompareOptions> OptionsOf(const CompareFlags& f, const logbook::RunKeys& keys) {
  logbook::CompareOptions o;
  auto pa = logbook::ParseAssignments(f.a, "--a", keys);
  auto pb = logbook::ParseAssignments(f.b, "--b", keys);
  for (const auto* p : {&pa, &pb})
    if (!p->ok()) {
      PrintError("compare", p->status().ToString());
      return std::nullopt;
    }
  o.a = *pa;
  o.b = *pb;
  for (std::string k : logbook::SplitList(f.same)) {
    k = logbook::NormalizeKey(k);
    if (k.empty()) continue;
    if (!keys.Has(k)) {
      PrintError("compare", "--same: unknown config key '" + k + "' (valid: " + logbook::JoinKeys(keys.Names()) + ")");
      return std::nullopt;
    }
    o.same.push_back(k);
  }
  o.metric = logbook::NormalizeKey(f.metric);
  // Modeled A/B pairs are judged against the band of the model's past
  // within-entry ratio errors (data/v5p_bands.json), when it ships.
  if (auto u = engine::v5p::LoadUncertaintyByName(""); u.ok()) o.ratio_band = u->within_entry;
  return o;
}

// The runs to pair: the logbook's (its store, and its figures unless
// --no-recorded), else every run of the store; only --entry's when given.
std::optional<int> LoadRuns(CompareFlags& f, std::vector<logbook::StoredRun>* runs, std::string* note) {
  if (!f.path.empty()) {
    auto lb = logbook::LoadLogbook(f.path);
    if (auto code = Failed("compare", lb.status())) return code;
    if (auto code = f.store.LogbookRuns("compare", *lb, f.path, f.recorded, runs, note)) return code;
  } else {
    if (f.store.db.empty()) f.store.db = logbook::DefaultStorePath("./compare");
    int64_t foreign = 0;
    auto r = logbook::LoadStoredRuns(f.store.db, logbook::RunQuery{}, false, &foreign);
    if (auto code = Failed("compare", r.status())) return code;
    *runs = std::move(*r);
    *note = std::to_string(runs->size()) + " stored runs in " + f.store.db + logbook::ForeignNote(foreign);
  }
  if (!f.entry.empty()) {
    std::vector<logbook::StoredRun> keep;
    for (auto& r : *runs)
      if (r.entry_id == f.entry) keep.push_back(std::move(r));
    *runs = std::move(keep);
  }
  return std::nullopt;
}

}  // namespace

int CmdCompare(const Args& args) {
  CLI::App app{"A/B table of runs with % delta. A run is on side A when it matches every --a\n"
               "key=value, on side B likewise; A and B runs pair when they agree on every other\n"
               "config key (iters, warmup, threads and output settings aside) or on --same keys.",
               "moelog compare"};
  CompareFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;

  // The keys a logbook's recorded runs use (a harness's own flags) are
  // valid in --a, --b and --same.
  logbook::RunKeys keys;
  if (f.recorded && !f.path.empty())
    if (auto lb = logbook::LoadLogbook(f.path); lb.ok()) keys = logbook::RecordedKeys(*lb);
  const auto o = OptionsOf(f, keys);
  if (!o) return kExitUsage;
  if (f.recorded && f.path.empty()) {
    if (app.count("--recorded") > 0) {
      PrintError("compare", "--recorded needs LOGBOOK");
      return kExitUsage;
    }
    f.recorded = false;  // no logbook: the store's runs alone
  }
  std::vector<logbook::StoredRun> runs;
  std::string note;
  if (auto code = LoadRuns(f, &runs, &note)) return *code;
  auto c = logbook::CompareRuns(runs, *o);
  if (!c.ok()) {
    PrintError("compare", c.status().ToString() + " (" + note + ")");
    return kExitError;
  }
  std::cout << logbook::RenderComparison(*c, *o);
  if (note.find(" foreign run") != std::string::npos) std::cerr << "moelog compare: " << note << "\n";
  for (const auto& row : c->rows)
    for (const auto& w : row.warnings) std::cerr << "moelog compare: warning: " << w << "\n";
  return kExitOk;
}

}  // namespace moelog::cli
