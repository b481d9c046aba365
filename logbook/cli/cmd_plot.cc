// moelog plot LOGBOOK --entry ID [--x AXIS] [--y METRIC[,METRIC]] [--png]:
// draws one entry's chart under figures/ beside the logbook (with its .dat
// and .gp) and prints the chart's path and Markdown link.
#include <iostream>
#include <sstream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/update/update_hooks.h"

namespace moelog::cli {

int CmdPlot(const Args& args) {
  CLI::App app{"Draw one entry's chart: metrics against the swept axis (lines, TF/s and tokens/s\n"
               "on two y axes) or grouped bars for a categorical A/B; recorded (logbook) and\n"
               "stored (measured/modeled) values are separate series.",
               "moelog plot"};
  std::string path, entry, x, y, db;
  bool png = false, no_recorded = false;
  app.add_option("LOGBOOK", path, "the logbook")->required();
  app.add_option("--entry", entry, "entry ID (see `moelog ids LOGBOOK`)")->required();
  app.add_option("--x", x, "x axis: topk, null_route_frac, mlp_dim, tokens, experts, devices, or a categorical key");
  app.add_option("--y", y, "metric(s), comma separated: tflops, tokens_per_s, tflops_per_device, mean_s, ...");
  app.add_flag("--png", png, "write PNG instead of SVG");
  app.add_option("--db", db, "run store (default: .moelog/runs.db beside the logbook)");
  app.add_flag("--no-recorded", no_recorded, "leave out the figures written in the logbook");
  if (auto code = ParseCommandLine(app, args)) return *code;

  auto lb = logbook::LoadLogbook(path);
  if (!lb.ok()) {
    PrintError("plot", lb.status().ToString());
    return lb.status().ExitCode();
  }
  const logbook::Entry* e = lb->FindEntry(entry);
  if (!e) {
    PrintError("plot", "no entry '" + entry + "' in " + path + " (see `moelog ids " + path + "`)");
    return kExitUsage;
  }
  if (db.empty()) db = logbook::DefaultStorePath(path);
  std::string note;
  auto runs = logbook::LogbookRuns(*lb, db, false, &note);
  if (!runs.ok()) {
    PrintError("plot", runs.status().ToString());
    return runs.status().ExitCode();
  }
  logbook::ChartOptions o;
  o.x_key = x;
  o.png = png;
  std::stringstream ys(y);
  for (std::string m; std::getline(ys, m, ',');)
    if (!m.empty()) o.y_metrics.push_back(m);
  std::vector<logbook::StoredRun> use = *runs;
  if (no_recorded) {
    // ChartForEntry adds recorded figures only when none are given; mark
    // the entry's set as already complete by passing a sentinel-free copy.
    logbook::StoredRun none;
    none.entry_id = e->id;
    none.source = "recorded";
    use.push_back(none);  // no config, no metrics: contributes nothing
  }
  auto chart = logbook::ChartForEntry(path, *e, use, o);
  if (!chart.ok()) {
    PrintError("plot", chart.status().ToString());
    return chart.status().code() == Status::Code::kNotFound ? kExitError : chart.status().ExitCode();
  }
  std::cout << chart->files.chart << "\n" << chart->markdown;
  return kExitOk;
}

}  // namespace moelog::cli
