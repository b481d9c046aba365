// moelog plot LOGBOOK --entry ID [--x AXIS] [--y METRIC[,METRIC]] [--png]:
// draws one entry's chart under figures/ beside the logbook (with its .dat
// and .gp) and prints the chart's path and Markdown link.
// moelog plot LOGBOOK --x AXIS [--series KEYS] [--where FILTER]...: the same
// from the logbook's stored runs across entries.
#include <iostream>

#include "engine/v5p/uncertainty.h"
#include "engine/target.h"
#include "logbook/criteria/recorded.h"
#include "logbook/render/calibration.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/store_flags.h"
#include "logbook/criteria/criteria.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/store/sha256.h"
#include "logbook/text.h"
#include "logbook/update/counted_runs.h"
#include "logbook/update/entry_chart.h"

namespace moelog::cli {
namespace {

// The chart of the logbook's stored runs that pass every --where filter,
// across its entries; named by its axes and a hash of the filters.
Result<logbook::EntryChart> PlotAcrossEntries(const std::string& path, const logbook::Logbook& lb,
                                              std::vector<logbook::StoredRun> runs,
                                              const std::vector<std::string>& where, logbook::ChartOptions o) {
  const std::vector<logbook::StoredRun> recorded = logbook::RecordedRuns(lb);
  o.keys = logbook::RecordedKeys(lb);  // --where and --series may name the recorded runs' keys
  std::vector<logbook::Condition> filters;
  for (const auto& w : where) {
    auto c = logbook::ParseRunFilter(w, o.keys);
    if (!c.ok()) return Status::InvalidArgument(c.status().message());  // a bad flag: usage, exit 2
    filters.push_back(*c);
  }
  std::vector<logbook::StoredRun> kept;
  for (const auto& r : runs)
    if (r.source != "recorded" && logbook::MatchesFilters(r, filters)) kept.push_back(r);
  // A logbook moelog ran nothing of: the chart of what it records.
  if (kept.empty())
    for (const auto& r : recorded)
      if (logbook::MatchesFilters(r, filters)) kept.push_back(r);
  if (kept.empty()) return Status::NotFound("no stored run of " + path + " passes the filters (`moelog runs --logbook " + path + "`)");
  std::string filter_text, key = o.x_key;
  for (const auto& w : where) filter_text += (filter_text.empty() ? "" : ", ") + w;
  for (const auto& s : o.series_keys) key += "-" + s;
  for (const auto& y : o.y_metrics) key += "-" + y;
  o.title = "Across entries" + (filter_text.empty() ? std::string() : ": " + filter_text);
  o.id = o.title;  // no entry ID to add
  o.primary_metric = logbook::PrimaryMetric(lb);
  const std::string stem = "plot-" + logbook::ChartStem(o.x_key) + "-" +
                           logbook::Sha256Hex(key + "|" + filter_text).substr(0, 8);
  return logbook::DrawEntryChart(path, stem, logbook::PointsFromRuns(kept), o);
}

// Modeled runs carry the band of the model's past errors on their path
// (error bars), uncalibrated.
void ShowModeledBands(std::vector<logbook::StoredRun>* runs, logbook::ChartOptions* o) {
  auto u = engine::v5p::LoadUncertaintyByName("");
  if (!u.ok()) return;
  logbook::ModelView view;
  view.calibrate = false;
  view.bands = std::move(u).value();
  view.have_bands = true;
  o->ratio_band = view.bands.within_entry;
  for (auto& r : *runs)
    if (engine::IsModeledTarget(r.target) && r.source != "recorded") logbook::ShowModeled(view, "", "", &r);
}

// One entry's chart; with --no-recorded, without the figures it records.
Result<logbook::EntryChart> PlotEntry(const std::string& path, const logbook::Logbook& lb, const logbook::Entry& e,
                                      std::vector<logbook::StoredRun> runs, bool no_recorded, logbook::ChartOptions o) {
  o.primary_metric = logbook::PrimaryMetric(lb);
  if (no_recorded) {
    // ChartForEntry adds the entry's recorded figures only when `runs`
    // holds none of them: an empty recorded run (no config, no metrics)
    // stands in for them and draws nothing.
    logbook::StoredRun none;
    none.entry_id = e.id;
    none.source = "recorded";
    runs.push_back(none);
  }
  return logbook::ChartForEntry(path, e, runs, o);
}

struct PlotFlags {
  std::string path, entry, x, y, series;
  std::vector<std::string> where;
  bool png = false, no_recorded = false;
  StoreFlags store;

  void Add(CLI::App& app) {
    app.add_option("LOGBOOK", path, "the logbook")->required();
    app.add_option("--entry", entry, "entry ID (see `moelog ids LOGBOOK`); without it, runs across entries");
    app.add_option("--x", x, "x axis: topk, null_route_frac, mlp_dim, tokens, experts, devices, or a categorical key");
    app.add_option("--y", y, "metric(s), comma separated: tflops, tokens_per_s, tflops_per_device, time_s, ...");
    app.add_option("--series", series, "config keys naming the series, comma separated (default: every other varied key)");
    app.add_option("--where", where, "across entries: only runs with KEY=VALUE, KEY!=VALUE or KEY in {A,B} (repeatable)");
    app.add_flag("--png", png, "write PNG instead of SVG");
    store.Add(app, "run store (default: .moelog/runs.db beside the logbook)");
    app.add_flag("--no-recorded", no_recorded, "leave out the figures written in the logbook");
    store.AddPlanTable(app);
  }
  // A usage error in the combination of flags ("" when none).
  std::string UsageError() const {
    if (entry.empty() && x.empty()) return "name --entry ID, or --x AXIS to plot runs across entries";
    if (!entry.empty() && !where.empty())
      return "--where filters runs across entries; with --entry, the entry's runs are the chart";
    return "";
  }
};

}  // namespace

int CmdPlot(const Args& args) {
  CLI::App app{"Draw a chart: one entry's runs (--entry), or the logbook's stored runs across\n"
               "entries (--x, with --series and --where). Numeric sweeps give lines, categorical\n"
               "A/Bs grouped bars; the logbook's own figures are drawn beside moelog's (hollow\n"
               "markers, outlined bars). Rules: docs/reference.md, \"Chart rules\".",
               "moelog plot"};
  PlotFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;
  if (const std::string usage = f.UsageError(); !usage.empty()) {
    PrintError("plot", usage);
    return kExitUsage;
  }
  auto lb = logbook::LoadLogbook(f.path);
  if (auto code = Failed("plot", lb.status())) return *code;
  const logbook::Entry* e = f.entry.empty() ? nullptr : lb->FindEntry(f.entry);
  if (!f.entry.empty() && !e) {
    PrintError("plot", "no entry '" + f.entry + "' in " + f.path + " (see `moelog ids " + f.path + "`)");
    return kExitUsage;
  }
  std::string note;
  std::vector<logbook::StoredRun> runs;
  if (auto code = f.store.LogbookRuns("plot", *lb, f.path, false, &runs, &note)) return *code;
  logbook::ChartOptions o;
  // `plot` shows the model's figures uncalibrated, and says so: the factor
  // is learned from the earlier entries' recorded figures placed on their
  // tables' rows, which `update` builds (its charts are calibrated as its
  // tables are).
  o.modeled_note = "modeled figures uncalibrated (the charts of moelog update apply the calibration of the logbook)";
  ShowModeledBands(&runs, &o);
  o.x_key = f.x;
  o.png = f.png;
  o.y_metrics = logbook::SplitList(f.y);
  o.series_keys = logbook::SplitList(f.series);
  auto chart = e ? PlotEntry(f.path, *lb, *e, runs, f.no_recorded, o) : PlotAcrossEntries(f.path, *lb, runs, f.where, o);
  if (!chart.ok()) {
    PrintError("plot", chart.status().ToString());
    return chart.status().code() == Status::Code::kNotFound ? kExitError : chart.status().ExitCode();
  }
  std::cout << chart->files.chart << "\n" << chart->markdown;
  return kExitOk;
}

}  // namespace moelog::cli
