// Charts of an entry's runs, drawn with gnuplot (chart_gnuplot.h).
//
// PlanChart (chart_plan.cc) decides what a chart shows: the swept axis on x
// (lines for a numeric sweep, grouped bars for a categorical A/B), one
// coloured series per combination of the other varied keys, small multiples
// past 6 series, and the logbook's own figures on the points of the configs
// they fit. ChartData/ChartScript (chart_script.cc) write the plan as a .dat
// and a .gp; DrawChart (chart.cc) runs gnuplot and installs the chart only
// when it is whole. Every chart is written with its .dat and .gp beside it,
// so `cd figures/X && gnuplot ID.gp` redraws it; the same inputs give the
// same bytes. The rules: docs/reference.md, "Chart rules".
//
// Nothing from a document reaches gnuplot unescaped: titles, labels and
// values pass a strict character allow-list and are single-quoted, and
// paths with other characters are refused.
#ifndef MOELOG_LOGBOOK_CHART_H_
#define MOELOG_LOGBOOK_CHART_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// One plotted observation: a run's config, its metrics and where it came
// from ("recorded" = numbers written in the logbook, "measured", "modeled").
struct ChartPoint {
  std::string source = "measured";
  std::string id;  // the run's ID ("<entry>#n" for a logbook figure)
  std::map<std::string, std::string> config;
  std::map<std::string, double> metrics;  // tflops (TF/s), tokens_per_s, ...
};

// Points from stored runs (source measured for cpu, modeled for v5p, unless
// the run says otherwise). A modeled run's metrics "band_lo" and "band_hi"
// (ratios measured/modeled throughput) give its error bar.
std::vector<ChartPoint> PointsFromRuns(const std::vector<StoredRun>& runs);

struct ChartOptions {
  std::string x_key;                    // "" = the swept axis
  std::vector<std::string> y_metrics;   // "" = primary_metric (one per panel)
  std::vector<std::string> series_keys; // "" = every other key that varies
  RunKeys keys;                          // the keys --series may name (the logbook's)
  std::string primary_metric;           // the logbook Scope's primary metric ("" = tflops)
  std::string title;                    // the entry's label (shortened to about 60 characters)
  // The entry's own words (heading, prose, fields): the figure they name
  // first is the one charted when no --y and no primary metric is given.
  std::string headline;
  std::string id;                       // the entry's ID, after the title
  std::set<std::string> listed;         // logbook figures (IDs) already listed as placed nowhere
  bool png = false;                     // PNG (pngcairo) instead of SVG
  // |log| of the modeled ratio of two bars of a cluster under which the
  // model cannot tell them apart (engine/v5p/uncertainty.h within_entry);
  // 0: not judged.
  double ratio_band = 0;
  // A subtitle for charts that hold modeled figures ("": none), e.g. that
  // they are shown uncalibrated.
  std::string modeled_note;
  // The legend's name of the model's figures ("": "model (v5p)").
  std::string model_label;
  // The figures are a prediction, not evidence (an entry whose commands
  // nobody ran, or that ran elsewhere): titled "Prediction:" and drawn
  // hatched (bars) or dashed (lines), so nobody takes them for a result.
  bool prediction = false;
};

// One coloured series of a panel: moelog's figures (measured or modeled) and
// the logbook's figures for the same configs, one slot per x value.
struct ChartSeries {
  std::string name;                             // legend label (escaped)
  std::string metric;
  int axis = 1;                                 // 1 = left y axis, 2 = right
  int colour = 0;                               // index into the palette; the same name keeps its colour
  std::vector<std::optional<double>> y;         // moelog's
  std::vector<std::optional<double>> recorded;  // the logbook's, drawn hollow / outlined beside moelog's
  // Where the measurement is expected (modeled figures on validated paths:
  // the band of past errors, points' metrics "band_lo"/"band_hi"); drawn as
  // error bars.
  std::vector<std::optional<double>> lo, hi;
};

// One panel (small multiple): the series of one value of the panel keys.
struct ChartPanel {
  std::string label;   // "" when the chart has one panel
  std::string metric;  // left y axis
  std::vector<ChartSeries> series;
};

struct ChartPlan {
  enum class Kind { kLine, kBars };
  Kind kind = Kind::kLine;
  std::string x_key;
  std::vector<std::string> x_values;  // line: numeric axis values, ascending; bars: cluster labels
  std::vector<std::string> x_names;   // bars: the clusters named in full (key=value), for notes
  std::string bar_key;                // bars: the compared key (one coloured bar per value)
  std::vector<ChartPanel> panels;
  std::string title, x_label;            // escaped
  std::string what;                      // "TF/s vs top-k": what is plotted, for the image's alt text
  std::vector<std::string> subtitles;    // lines under the title (escaped)
  std::string source;                    // moelog's side in the legend: "model (v5p)", "measured (cpu)", ...
  bool any_recorded = false;             // some logbook figure is drawn
  bool log_x = false;                    // a numeric axis spanning 16x or more
  bool any_band = false;                 // some figure has an error bar
  bool prediction = false;               // ChartOptions::prediction
  // Said under the chart in the region: logbook figures not drawn (matching
  // no point of the chart), points hidden by explicit --series.
  std::vector<std::string> notes;
  size_t LegendEntries() const;
};

// The axes moelog recognizes. Numeric: topk, null_route_frac, mlp_dim,
// tokens, experts, devices, hidden, shared_expert_dim. Categorical: backend,
// impl, remat_mode, parallel_mode, quant_mode, routing_pack_strategy,
// distribution, queue_mode, bench_pass, target, ep_comm_path, shared_fused.
bool IsNumericAxis(const std::string& key);
// A metric as an axis and legend say it: "TF/s", "tokens/s", "TF/s per device", "time (s)".
std::string MetricLabel(const std::string& metric);
// The y axis label `plan` draws `metric` under, in the unit it plots
// ("p95 time (ms)" for times under a second; chart_script.cc).
std::string DrawnAxisLabel(const ChartPlan& plan, const std::string& metric);
bool IsCategoricalAxis(const std::string& key);

// Plans the chart (rules in docs/reference.md "Charts"):
//  - x: --x, else the numeric axis with 3+ values (lines with markers), else
//    the categorical key that varies (grouped bars: its values side by side
//    in clusters of the other varied key);
//  - series: the combinations of the other varied keys, named as a reader
//    would ("EP", "k=8", "shared 5632"); keys that follow another (devices
//    with the parallel mode) and keys the model gives identical figures for
//    are folded; more than 6 series become panels (small multiples) by the
//    key with the fewest values, sharing the y range;
//  - logbook figures (source "recorded") are placed on the point of the
//    config they fit (recorded.h PlaceFigures) and drawn there in the
//    series' colour, hollow or outlined; those that fit no point are notes;
//  - one metric per panel: --y, else the Scope's primary metric, else TF/s;
//    a single series also gets tokens/s on the right axis.
// NotFound when nothing varies (no chart to draw); InvalidArgument for an
// unknown x_key or series key, or a metric no point has.
Result<ChartPlan> PlanChart(const std::vector<ChartPoint>& points, const ChartOptions& options);

// The .dat text of a plan (deterministic).
std::string ChartData(const ChartPlan& plan);

// The .gp script: reads `data_file`, writes `output_file` (both relative
// names, no directory), terminal svg or pngcairo.
std::string ChartScript(const ChartPlan& plan, const std::string& data_file, const std::string& output_file, bool png);

// The primary metric a logbook's Scope names ("Primary metric(s): ...
// TF/s ..., tokens/s"): the first of TF/s, tokens/s, time it mentions, as
// a metric key; "" when it names none.
std::string PrimaryMetricOf(const std::string& scope_text);

// The metric a chart draws when no --y names one (chart_metric.cc): of the
// metrics recorded at two points or more and at least a quarter as often
// as the most recorded one, the
// primary metric, else the one `options.headline` names first (a chart of
// the logbook's figures only; a metric half the points lack is not named),
// else a rate
// (TF/s, tokens/s, GB/s, requests/s), MFU, a latency, another time, another
// measure; a count or a setting (iterations, a warmup) last; derived figures
// (speedups, deltas) never. Of two alike, the figure or its centre (mean,
// p50) before a spread (max, p99). "" when no point records a figure.
std::string ChooseChartMetric(const std::vector<ChartPoint>& points, const ChartOptions& options);

// A recorded comparison drawn whole (chart_sides.cc): when every point is
// a logbook figure that writes one side of a change by a change word
// ("before_time_s"; change_columns of sections.json) beside one other
// figure of the same measure ("single_literal_copy_time_s", "time_s") and
// the chart draws one of the two (`metric`), `out` gets two points per
// point, keyed side=before and side=<the other's words>, each with the
// measure ("time_s"): the chart shows both sides, not the one. False (and
// `out` untouched) otherwise.
bool SplitChangeSides(const std::vector<ChartPoint>& points, const std::string& metric,
                      std::vector<ChartPoint>* out);

// Whether the points of time `metric` are named as different measures: a
// whole run's duration ("duration", "elapsed"; pgbench's `duration: 60 s`)
// beside a request's latency ("latency average = 0.412 ms"): one chart of
// the two compares nothing (chart_metric.cc).
bool MixesRunAndRequestTimes(const std::vector<ChartPoint>& points, const std::string& metric);

// What an entry's region records about the chart it links: a hash of the
// chart's inputs (its .dat and .gp texts) and of the chart file drawn from
// them (16 hex digits of SHA-256 each). A chart is reused only when both
// still hold; otherwise it is missing, stale (drawn from other inputs: a kill
// between writing the inputs and installing the chart) or changed, and is
// redrawn (`update`) or reported (`update --check`).
struct ChartStamp {
  std::string inputs, chart;
  bool operator==(const ChartStamp&) const = default;
};

// "<!-- moelog:chart inputs=... chart=... -->\n", the line under the link.
std::string FormatChartStamp(const ChartStamp& stamp);
// The stamp in a region's text, if it holds one.
std::optional<ChartStamp> FindChartStamp(std::string_view region_text);

struct ChartFiles {
  std::string chart, data, script;  // paths as written
  ChartStamp stamp;                 // of the chart as installed (or as it would be)
  bool current = true;              // false: the chart on disk is not the one `stamp` names
};

// How to treat the files on disk. write == false: nothing is written (for
// `update --check`); the stamp is `recorded` when the chart on disk still
// matches it, and `current` is false otherwise. write == true: gnuplot runs
// unless the files on disk match `recorded` and the new inputs.
struct ChartDraw {
  bool write = true;
  std::optional<ChartStamp> recorded;
};

// Writes <dir>/<base>.dat, <base>.gp and runs gnuplot (with a time limit) to
// draw <base>.svg (or .png). IOError when gnuplot fails, times out or leaves
// an incomplete chart (with gnuplot's stderr in the message); the old chart
// then stays. InvalidArgument when dir or base contain characters moelog will
// not hand to gnuplot.
Result<ChartFiles> DrawChart(const ChartPlan& plan, const std::string& dir, const std::string& base, bool png,
                             const ChartDraw& how = {});

// Escapes a label for gnuplot: keeps letters, digits, space and _.,:;=+-/()%[]{}*#!?@
// and replaces anything else with '_' (backticks are dropped); collapses
// whitespace; at most `max_bytes` bytes.
std::string GnuplotLabel(const std::string& text, size_t max_bytes = 80);

// A file-name stem from an entry ID or heading: the ID itself when it is only
// [A-Za-z0-9_-] and at most 60 bytes; otherwise the kept characters (runs of
// anything else as one '-', cut to 51 bytes) and "-" + 8 hex digits of a hash
// of the whole ID, so two IDs never share a chart file.
std::string ChartStem(const std::string& entry_id);

// The folder under figures/ that holds one logbook's charts: the file name
// without ".md" (ChartStem of it), so two logbooks in one folder never share
// a chart file, even where their entry IDs agree ("ep.md" -> "ep").
std::string FigureFolder(const std::string& logbook_path);

// For `moelog update` and `moelog plot`: plans and draws the chart of one
// entry under `<dir of logbook>/figures/<FigureFolder>/` as
// <ChartStem(entry_id)>[-suffix].svg and returns the Markdown to put in the
// entry's owned region, e.g.
//   "![MOE-I8-004: TF/s and tokens/s vs topk](figures/int8/MOE-I8-004.svg)\n"
// NotFound when the entry's points do not vary along any axis (no chart).
struct EntryChart {
  ChartFiles files;
  std::string markdown;  // image link relative to the logbook's directory
};

// Whether the chart file at `path` exists and is whole (an SVG whose root
// element is closed, a PNG ending with IEND): a missing, truncated or empty
// chart is redrawn by `update` and reported stale by `update --check`.
bool ChartFileComplete(const std::string& path);
// The markdown is the link and its stamp line.
Result<EntryChart> DrawEntryChart(const std::string& logbook_path, const std::string& entry_id,
                                  const std::vector<ChartPoint>& points, const ChartOptions& options,
                                  const std::string& suffix = "", const ChartDraw& how = {});

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_CHART_H_
