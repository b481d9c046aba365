#include "logbook/render/chart.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <string>
#include <vector>

#include "logbook/file_util.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

// A small XML well-formedness check: balanced, properly nested tags, quoted
// attributes, known entity syntax; prolog, comments and CDATA skipped.
bool WellFormedXml(const std::string& x, std::string* why) {
  std::vector<std::string> stack;
  size_t i = 0;
  bool root_seen = false;
  while (i < x.size()) {
    if (x[i] != '<') {
      if (x[i] == '&') {
        size_t semi = x.find(';', i);
        if (semi == std::string::npos || semi - i > 10) { *why = "bad entity at " + std::to_string(i); return false; }
      }
      if (stack.empty() && !std::isspace(static_cast<unsigned char>(x[i])) && root_seen) {
        *why = "text after the root element";
        return false;
      }
      ++i;
      continue;
    }
    if (x.compare(i, 4, "<!--") == 0) {
      size_t e = x.find("-->", i + 4);
      if (e == std::string::npos) { *why = "unclosed comment"; return false; }
      i = e + 3;
      continue;
    }
    if (x.compare(i, 9, "<![CDATA[") == 0) {
      size_t e = x.find("]]>", i);
      if (e == std::string::npos) { *why = "unclosed CDATA"; return false; }
      i = e + 3;
      continue;
    }
    if (x.compare(i, 2, "<?") == 0 || x.compare(i, 2, "<!") == 0) {
      size_t e = x.find('>', i);
      if (e == std::string::npos) { *why = "unclosed declaration"; return false; }
      i = e + 1;
      continue;
    }
    // A tag: scan to '>' honoring quotes.
    size_t j = i + 1;
    char quote = 0;
    while (j < x.size() && (quote || x[j] != '>')) {
      if (quote && x[j] == quote) quote = 0;
      else if (!quote && (x[j] == '"' || x[j] == '\'')) quote = x[j];
      else if (!quote && x[j] == '<') { *why = "'<' inside a tag at " + std::to_string(j); return false; }
      ++j;
    }
    if (j >= x.size()) { *why = "unclosed tag"; return false; }
    std::string tag = x.substr(i + 1, j - i - 1);
    bool closing = !tag.empty() && tag[0] == '/';
    bool self = !tag.empty() && tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" \t\r\n/"));
    if (name.empty()) { *why = "empty tag name"; return false; }
    if (closing) {
      if (stack.empty() || stack.back() != name) { *why = "mismatched </" + name + ">"; return false; }
      stack.pop_back();
    } else if (!self) {
      if (stack.empty() && root_seen) { *why = "second root element"; return false; }
      stack.push_back(name);
      root_seen = true;
    }
    i = j + 1;
  }
  if (!stack.empty()) { *why = "unclosed <" + stack.back() + ">"; return false; }
  if (!root_seen) { *why = "no root element"; return false; }
  return true;
}

ChartPoint Point(std::map<std::string, std::string> cfg, double tflops, double tps = 0, std::string source = "modeled") {
  ChartPoint p;
  p.config = std::move(cfg);
  p.config.emplace("tokens", "32768");
  p.metrics["tflops"] = tflops;
  if (tps > 0) p.metrics["tokens_per_s"] = tps;
  p.source = std::move(source);
  return p;
}

// Top-k sweep at two shared-expert widths, recorded and modeled.
std::vector<ChartPoint> TopkSweep() {
  std::vector<ChartPoint> pts;
  for (const char* shared : {"0", "5632"})
    for (int k : {1, 2, 4, 6, 8}) {
      double tf = 80.0 * k / (1.0 + 0.1 * k) + (shared[0] == '0' ? 0 : 100);
      pts.push_back(Point({{"topk", std::to_string(k)}, {"shared_expert_dim", shared}}, tf, 1.6e6 / (0.5 + 0.2 * k)));
      pts.push_back(Point({{"topk", std::to_string(k)}, {"shared_expert_dim", shared}}, tf * 1.05, 0, "recorded"));
    }
  return pts;
}

std::string TempDir(const std::string& name) {
  // One folder per test process: builds and checkouts test at the same time.
  fs::path d = fs::path(testing::TempDir()) / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

void ExpectGoodSvg(const std::string& path) {
  auto svg = ReadFile(path);
  ASSERT_TRUE(svg.ok()) << path;
  EXPECT_GT(svg->size(), 1000u);
  std::string why;
  EXPECT_TRUE(WellFormedXml(*svg, &why)) << path << ": " << why;
  EXPECT_NE(svg->find("<svg"), std::string::npos);
}

// Every series of every panel, and every text a reader sees.
std::vector<const ChartSeries*> AllSeries(const ChartPlan& plan) {
  std::vector<const ChartSeries*> out;
  for (const auto& p : plan.panels)
    for (const auto& s : p.series) out.push_back(&s);
  return out;
}

std::string AllText(const ChartPlan& plan) {
  std::string text = plan.title + "|" + plan.x_label;
  for (const auto& s : plan.subtitles) text += "|" + s;
  for (const auto& x : plan.x_values) text += "|" + x;
  for (const auto& p : plan.panels) text += "|" + p.label;
  for (const auto* s : AllSeries(plan)) text += "|" + s->name;
  return text;
}

// A sweep over topk: lines, one series per shared width (in the colour it
// keeps), the logbook's figures on the same series at the same x.
TEST(ChartPlan, LineForNumericSweepWithLogbookFiguresOnTheirSeries) {
  auto plan = PlanChart(TopkSweep(), {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->kind, ChartPlan::Kind::kLine);
  EXPECT_EQ(plan->x_key, "topk");
  EXPECT_EQ(plan->x_values, (std::vector<std::string>{"1", "2", "4", "6", "8"}));
  ASSERT_EQ(plan->panels.size(), 1u);
  const auto& series = plan->panels[0].series;
  ASSERT_EQ(series.size(), 2u);  // no shared | shared 5632; TF/s only (two series: one metric)
  EXPECT_EQ(series[0].name, "no shared");
  EXPECT_EQ(series[1].name, "shared 5632");
  EXPECT_EQ(plan->panels[0].metric, "tflops");
  for (const auto& s : series)
    for (size_t x = 0; x < plan->x_values.size(); ++x) {
      ASSERT_TRUE(s.y[x] && s.recorded[x]) << s.name << " x=" << plan->x_values[x];
      EXPECT_NEAR(*s.recorded[x], *s.y[x] * 1.05, 1e-9);  // the figure of the same config
    }
  EXPECT_TRUE(plan->any_recorded);
  EXPECT_EQ(plan->source, "model (v5p)");
  EXPECT_TRUE(plan->notes.empty());
}

// One series: TF/s and tokens/s in two panels side by side, one y axis
// each; a Scope naming tokens/s first makes it the chart's metric.
TEST(ChartPlan, SingleSeriesGetsTwoAxesAndScopeNamesTheMetric) {
  std::vector<ChartPoint> pts;
  for (int m : {1408, 1536, 1792, 2048}) pts.push_back(Point({{"mlp_dim", std::to_string(m)}}, m / 5.0, 1e6 - m));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->panels.size(), 2u);
  EXPECT_EQ(plan->panels[0].series[0].metric, "tflops");
  EXPECT_EQ(plan->panels[1].series[0].metric, "tokens_per_s");
  for (const auto* s : AllSeries(*plan)) EXPECT_EQ(s->axis, 1);
  EXPECT_EQ(PrimaryMetricOf("- Primary metric(s): `forward_backward` TF/s and tokens/s"), "tflops");
  EXPECT_EQ(PrimaryMetricOf("- Primary metrics: tokens/s at fixed TF/s"), "tokens_per_s");
  EXPECT_EQ(PrimaryMetricOf("- Goal: more TF/s"), "");
  pts.push_back(pts[0]);
  pts.back().config["shared_expert_dim"] = "5632";  // now two series: one metric
  ChartOptions o;
  o.primary_metric = "tokens_per_s";
  plan = PlanChart(TopkSweep(), o);
  ASSERT_TRUE(plan.ok());
  for (const auto* s : AllSeries(*plan)) EXPECT_EQ(s->metric, "tokens_per_s");
  o.y_metrics = {"tflops_per_device"};
  EXPECT_EQ(PlanChart(TopkSweep(), o).status().code(), Status::Code::kInvalidArgument);  // no point records it
}

// The title line fits the chart's width: a heading beside a short ID keeps
// both; an ID so long it would leave the heading under 60 characters is
// left out rather than cutting the heading to a stub.
TEST(ChartPlan, TheTitleLineFitsTheChartsWidth) {
  ChartOptions o;
  o.title = "Pipelined softmax with warp-specialized producer and consumer groups at head dim 128";
  o.id = "FMHA-2026-10-14";
  auto plan = PlanChart(TopkSweep(), o);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->title, o.title + " (" + o.id + ")");
  o.id = "FMHA-KERNEL-TUNING-LOG-FOR-THE-BLACKWELL-FUSED-MULTI-HEAD-ATTENTION-FORWARD-PASS-20261014-1";
  plan = PlanChart(TopkSweep(), o);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->title, o.title);
  o.title += " and a long tail of words that goes on past what one line of the chart holds at its narrowest width";
  plan = PlanChart(TopkSweep(), o);
  ASSERT_TRUE(plan.ok());
  EXPECT_LE(plan->title.size(), 124u);
}

// More than 6 series: one panel per value of the key with the fewest
// values, every panel at most 6 series, the same colours in each.
TEST(ChartPlan, ManySeriesBecomeSmallMultiples) {
  std::vector<ChartPoint> pts;
  for (const char* pm : {"none", "ep"})
    for (int e : {8, 16, 32, 60, 64, 128, 256})
      for (int k : {1, 2, 4, 8})
        pts.push_back(Point({{"parallel_mode", pm}, {"experts", std::to_string(e)}, {"topk", std::to_string(k)},
                             {"devices", pm[0] == 'e' ? "4" : "1"}},
                            e + k + (pm[0] == 'e' ? 50 : 0)));
  ChartOptions o;
  o.x_key = "topk";
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // 7 expert counts: more than 6 even in one panel after the parallel mode
  // went to panels, so each mode's 7 series are cut into two panels.
  ASSERT_EQ(plan->panels.size(), 4u);
  for (const auto& p : plan->panels) EXPECT_LE(p.series.size(), 6u);
  EXPECT_EQ(plan->panels[0].label, "no EP, E=8 to E=60");
  EXPECT_EQ(plan->panels[3].label, "EP, E=64 to E=256");
  EXPECT_EQ(plan->panels[0].series[3].colour, plan->panels[2].series[3].colour);
  EXPECT_NE(AllText(*plan).find("TF/s summed over the chips of a run: no EP on 1 chip, EP on 4 chips"), std::string::npos)
      << AllText(*plan);
  pts.erase(std::remove_if(pts.begin(), pts.end(), [](const ChartPoint& p) { return p.config.at("experts") == "256"; }),
            pts.end());
  plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->panels.size(), 2u);
  EXPECT_EQ(plan->panels[0].label, "no EP");
  EXPECT_EQ(plan->panels[1].label, "EP");
  for (const auto& p : plan->panels) EXPECT_LE(p.series.size(), 6u);
  EXPECT_LE(plan->LegendEntries(), 8u);
}

// Series with long names: a panel of a chunk of them is named by position
// (its first and last names would not fit a panel's title), and the legend
// has as few columns as gnuplot can fit, so it never runs over the panels.
TEST(ChartPlan, LongSeriesNamesKeepPanelTitlesAndLegendInside) {
  std::vector<ChartPoint> pts;
  for (int b = 0; b < 10; ++b)
    for (const char* k : {"1", "2", "4"})
      pts.push_back(Point({{"benchmark", "format_macro_making_loop_with_a_long_name_" + std::to_string(b)}, {"topk", k}},
                          1.0 + b + k[0]));
  ChartOptions o;
  o.x_key = "topk";
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->panels.size(), 2u);
  EXPECT_EQ(plan->panels[0].label, "series 1 to 5 of 10");
  EXPECT_EQ(plan->panels[1].label, "series 6 to 10 of 10");
  const std::string script = ChartScript(*plan, "c.dat", "c.svg", false);
  EXPECT_NE(script.find("maxcols 1 "), std::string::npos) << script.substr(script.find("set key center"), 80);
}

// none vs ep: bars none | EP side by side in clusters k=2 | k=8; the device
// count follows the parallel mode and is no key; the logbook's figure is an
// outlined bar beside moelog's, in no cluster of its own.
TEST(ChartPlan, ABBarsSideBySideWithLogbookBesideModel) {
  std::vector<ChartPoint> pts;
  for (const char* pm : {"none", "ep"})
    for (const char* k : {"2", "8"})
      pts.push_back(Point({{"parallel_mode", pm}, {"topk", k}, {"devices", pm[0] == 'e' ? "4" : "1"}},
                          pm[0] == 'e' ? 120 : 100));
  pts.push_back(Point({{"parallel_mode", "ep"}, {"topk", "2"}}, 90, 0, "recorded"));
  pts.push_back(Point({{"parallel_mode", "ep"}, {"topk", "4"}}, 95, 0, "recorded"));  // no such run
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->kind, ChartPlan::Kind::kBars);
  EXPECT_EQ(plan->x_values, (std::vector<std::string>{"k=2", "k=8"}));
  ASSERT_EQ(plan->panels[0].series.size(), 2u);
  EXPECT_EQ(plan->panels[0].series[0].name, "no EP");
  EXPECT_EQ(plan->panels[0].series[1].name, "EP");
  EXPECT_EQ(plan->panels[0].series[1].recorded[0], 90.0);
  const std::string text = AllText(*plan);
  EXPECT_EQ(text.find("devices"), std::string::npos) << text;
  EXPECT_EQ(text.find("parallel_mode"), std::string::npos) << text;
  ASSERT_EQ(plan->notes.size(), 1u);
  EXPECT_NE(plan->notes[0].find("95 TF/s (matches no row)"), std::string::npos) << plan->notes[0];
}

TEST(ChartPlan, BarsForCategoricalAB) {
  std::vector<ChartPoint> pts;
  for (const char* rm : {"none", "expert_mlp", "combine"})
    for (const char* k : {"2", "8"}) pts.push_back(Point({{"remat_mode", rm}, {"topk", k}}, std::stod(k) * 40 + rm[0]));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->kind, ChartPlan::Kind::kBars);
  EXPECT_EQ(plan->bar_key, "remat_mode");
  ASSERT_EQ(plan->panels[0].series.size(), 3u);
  // Clusters and bars carry the names a reader uses, not config keys.
  EXPECT_EQ(plan->x_values, (std::vector<std::string>{"k=2", "k=8"}));
  EXPECT_EQ(plan->panels[0].series[1].name, "remat expert_mlp");
  EXPECT_EQ(*plan->panels[0].series[1].y[1], 8 * 40 + 'e');
  // Asking for topk on x gives lines instead.
  ChartOptions o;
  o.x_key = "topk";
  EXPECT_EQ(PlanChart(pts, o)->kind, ChartPlan::Kind::kLine);
  o.x_key = "color";
  EXPECT_EQ(PlanChart(pts, o).status().code(), Status::Code::kInvalidArgument);
}

// One key compared and nothing else varied: each bar is labelled under it with
// its value alone (the axis title names the key), and labels too long for
// their bars are turned so they do not run into each other.
TEST(ChartScriptBars, OneKeyBarsAreLabelledByValueAndLongLabelsTurn) {
  std::vector<ChartPoint> pts;
  for (const char* v : {"vendor library sgemm", "block tiling 2d", "shared memory blocking", "coalesced loads", "naive"})
    pts.push_back(Point({{"variant", v}}, 10.0 + static_cast<double>(std::string(v).size())));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->kind, ChartPlan::Kind::kBars);
  const std::string script = ChartScript(*plan, "c.dat", "c.svg", false);
  const size_t tics = script.find("set xtics nomirror scale 0 (");
  ASSERT_NE(tics, std::string::npos);
  const std::string line = script.substr(tics, script.find('\n', tics) - tics);
  EXPECT_NE(line.find("'vendor library sgemm'"), std::string::npos) << line;
  EXPECT_EQ(line.find("variant="), std::string::npos) << line;
  EXPECT_NE(line.find("rotate by -30"), std::string::npos) << line;
  // No legend swatches repeat the names written under the bars.
  EXPECT_EQ(script.find("keyentry"), std::string::npos);
  // Short labels that fit stay level.
  pts.clear();
  for (const char* v : {"a", "b", "c"}) pts.push_back(Point({{"variant", v}}, v[0]));
  const std::string level = ChartScript(*PlanChart(pts, {}), "c.dat", "c.svg", false);
  const size_t at = level.find("set xtics nomirror scale 0 (");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(level.substr(at, level.find('\n', at) - at).find("rotate"), std::string::npos);
}

// A key the model gives identical figures for is folded (the logbook's
// figures name one value); where the logbook tells its values apart, kept.
TEST(ChartPlan, KeysTheModelDoesNotDistinguishFoldUnlessTheLogbookDoes) {
  std::vector<ChartPoint> pts;
  for (const char* d : {"random", "runs"})
    for (int k : {1, 2, 4}) pts.push_back(Point({{"distribution", d}, {"topk", std::to_string(k)}}, 10.0 * k, 5e5));
  pts.push_back(Point({{"topk", "2"}}, 21, 0, "recorded"));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(AllText(*plan).find("random"), std::string::npos) << AllText(*plan);
  EXPECT_EQ(plan->panels[0].series[0].recorded[1], 21.0);
  pts.push_back(Point({{"topk", "4"}, {"distribution", "runs"}}, 39, 0, "recorded"));
  pts.push_back(Point({{"topk", "4"}, {"distribution", "random"}}, 41, 0, "recorded"));
  plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_NE(AllText(*plan).find("runs"), std::string::npos) << AllText(*plan);
  // Measured figures are never folded: equal figures there are chance.
  for (auto& p : pts)
    if (p.source == "modeled") p.source = "measured";
  plan = PlanChart(pts, {});
  EXPECT_NE(AllText(*plan).find("random"), std::string::npos);
}

// --series across entries: the keys it leaves out are held at the
// combination that covers the most points, said in a subtitle.
TEST(ChartPlan, ExplicitSeriesHoldTheOtherKeysAndSayWhich) {
  std::vector<ChartPoint> pts;
  for (const char* pm : {"none", "ep"})
    for (int k : {1, 2, 4, 8}) {
      pts.push_back(Point({{"parallel_mode", pm}, {"topk", std::to_string(k)}, {"hidden", "2048"}}, k));
      if (k < 4) pts.push_back(Point({{"parallel_mode", pm}, {"topk", std::to_string(k)}, {"hidden", "3072"}}, k + 1));
    }
  ChartOptions o;
  o.x_key = "topk";
  o.series_keys = {"parallel_mode"};
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->panels[0].series.size(), 2u);
  EXPECT_EQ(*plan->panels[0].series[0].y[0], 1.0);  // hidden=2048 covers 8 points, 3072 only 4
  ASSERT_FALSE(plan->subtitles.empty());
  EXPECT_EQ(plan->subtitles[0], "runs with H=2048");
  ASSERT_EQ(plan->notes.size(), 1u);
  EXPECT_NE(plan->notes[0].find("4 of 12 runs not drawn: they differ in hidden"), std::string::npos) << plan->notes[0];
  o.series_keys = {"colour"};
  EXPECT_EQ(PlanChart(pts, o).status().code(), Status::Code::kInvalidArgument);
}

TEST(ChartPlan, NothingVariesIsNotFound) {
  EXPECT_EQ(PlanChart({Point({{"topk", "2"}}, 1)}, {}).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(PlanChart({}, {}).status().code(), Status::Code::kNotFound);
}

// Figures the logbook recorded at one configuration with other values
// (their distinguishing keys not read): no chart, rather than one of each
// drawn as if the logbook compared them. Distinct ones chart, with no
// "moelog" style swatch and a subtitle saying whose figures they are.
TEST(ChartPlan, RecordedFiguresMoelogCannotTellApartDrawNothing) {
  std::vector<ChartPoint> pts;
  for (const char* variant : {"legacy", "current"})
    for (double v : {24.4, 12.9, 7.1}) pts.push_back(Point({{"variant", variant}}, v, 0, "recorded"));
  auto plan = PlanChart(pts, {});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), Status::Code::kNotFound);
  EXPECT_NE(plan.status().message().find("cannot tell them apart"), std::string::npos) << plan.status().message();
  pts.resize(1);
  pts.push_back(Point({{"variant", "current"}}, 12.9, 0, "recorded"));
  auto two = PlanChart(pts, {});
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_FALSE(two->any_recorded);
  EXPECT_NE(std::find(two->subtitles.begin(), two->subtitles.end(), "figures the logbook recorded (none run by moelog)"),
            two->subtitles.end());
  EXPECT_EQ(ChartScript(*two, "c.dat", "c.svg", false).find("title 'logbook'"), std::string::npos);
  for (auto& p : pts) p.source = "modeled";  // repeats of a modeled run are one bar, and still chart
  pts.push_back(Point({{"variant", "current"}}, 13.0));
  ChartOptions o;
  o.modeled_note = "modeled figures uncalibrated";
  auto modeled = PlanChart(pts, o);
  ASSERT_TRUE(modeled.ok()) << modeled.status().ToString();
  EXPECT_NE(std::find(modeled->subtitles.begin(), modeled->subtitles.end(), o.modeled_note), modeled->subtitles.end());
  auto recorded_only = PlanChart({Point({{"variant", "a"}}, 1, 0, "recorded"), Point({{"variant", "b"}}, 2, 0, "recorded")}, o);
  ASSERT_TRUE(recorded_only.ok());
  EXPECT_EQ(std::find(recorded_only->subtitles.begin(), recorded_only->subtitles.end(), o.modeled_note),
            recorded_only->subtitles.end());
}

TEST(ChartDraw, LineAndBarsAreWellFormedNonEmptySvgAndDeterministic) {
  const std::string dir = TempDir("moelog_chart");
  const std::string lb = dir + "/log.md";
  auto line = DrawEntryChart(lb, "MOE-I8-004", TopkSweep(), {});
  ASSERT_TRUE(line.ok()) << line.status().ToString();
  EXPECT_EQ(line->files.chart, dir + "/figures/log/MOE-I8-004.svg");
  EXPECT_TRUE(fs::exists(dir + "/figures/log/MOE-I8-004.dat"));
  EXPECT_TRUE(fs::exists(dir + "/figures/log/MOE-I8-004.gp"));
  // The alt text says what is plotted (the entry's heading names it).
  EXPECT_EQ(line->markdown.rfind("![TF/s vs top-k (experts per token)](", 0), 0u) << line->markdown;
  EXPECT_NE(line->markdown.find("](figures/log/MOE-I8-004.svg)"), std::string::npos);
  ExpectGoodSvg(line->files.chart);
  auto first = ReadFile(line->files.chart);
  ASSERT_TRUE(DrawEntryChart(lb, "MOE-I8-004", TopkSweep(), {}).ok());
  EXPECT_EQ(*ReadFile(line->files.chart), *first) << "same inputs must give the same bytes";

  std::vector<ChartPoint> ab;
  for (const char* be : {"gmm", "ragged_dot"})
    for (const char* h : {"2048", "3072"}) ab.push_back(Point({{"backend", be}, {"hidden", h}}, be[0] == 'g' ? 275 : 268));
  auto bars = DrawEntryChart(lb, "backend A/B", ab, {});
  ASSERT_TRUE(bars.ok()) << bars.status().ToString();
  // An ID the file name cannot hold as it is gets a hash of the whole ID.
  EXPECT_EQ(bars->files.chart, dir + "/figures/log/backend-A-B-" + ChartStem("backend A/B").substr(12) + ".svg");
  EXPECT_EQ(ChartStem("backend A/B").size(), 20u);
  ExpectGoodSvg(bars->files.chart);
}

// A chart is reused only when the region's stamp names both its inputs and
// its bytes: a chart drawn from other inputs (a kill after the .dat/.gp were
// written), changed or cut short is redrawn, and reported when not writing.
TEST(ChartDraw, StampDecidesWhetherTheChartIsCurrent) {
  const std::string dir = TempDir("moelog_chart_stamp");
  ChartPlan plan = *PlanChart(TopkSweep(), {});
  auto drawn = DrawChart(plan, dir, "s", false);
  ASSERT_TRUE(drawn.ok()) << drawn.status().ToString();
  const ChartStamp stamp = drawn->stamp;
  ASSERT_EQ(stamp.inputs.size(), 16u);
  ASSERT_EQ(stamp.chart.size(), 16u);
  EXPECT_EQ(FindChartStamp("x\n  " + FormatChartStamp(stamp)), stamp);
  EXPECT_FALSE(FindChartStamp("<!-- moelog:chart inputs=zz chart=1 -->"));
  const std::string svg = *ReadFile(drawn->chart);
  auto check = [&](const std::optional<ChartStamp>& recorded) {
    ChartDraw how;
    how.write = false;
    how.recorded = recorded;
    return DrawChart(plan, dir, "s", false, how)->current;
  };
  EXPECT_TRUE(check(stamp));
  EXPECT_FALSE(check(std::nullopt));  // a region with no stamp proves nothing
  ChartStamp other_inputs = stamp;
  other_inputs.inputs[0] = other_inputs.inputs[0] == '0' ? '1' : '0';
  EXPECT_FALSE(check(other_inputs));
  // Another complete SVG in its place: changed, so redrawn from the inputs.
  const std::string changed = std::string(svg).replace(svg.find("<svg"), 4, "<svg data-x='1'");
  ASSERT_TRUE(AtomicWriteFile(drawn->chart, changed).ok());
  EXPECT_FALSE(check(stamp));
  ChartDraw redraw;
  redraw.recorded = stamp;
  auto again = DrawChart(plan, dir, "s", false, redraw);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->stamp, stamp);
  EXPECT_EQ(*ReadFile(drawn->chart), svg);
}

// Chart files are unique per entry: IDs that differ only in characters a file
// name cannot hold, or beyond 60 characters, never share a chart.
TEST(ChartDraw, StemsOfDistinctIdsNeverCollide) {
  const std::string long_a(70, 'A'), long_b = std::string(69, 'A') + "B";
  EXPECT_NE(ChartStem(long_a), ChartStem(long_b));
  EXPECT_LE(ChartStem(long_a).size(), 60u);
  EXPECT_NE(ChartStem("a/b"), ChartStem("a b"));
  EXPECT_EQ(ChartStem("MOE-I8-003"), "MOE-I8-003");  // plain IDs keep their name
  EXPECT_EQ(ChartStem(ChartStem("a/b")), ChartStem("a/b"));
}

TEST(ChartDraw, PngOnRequest) {
  const std::string dir = TempDir("moelog_chart_png");
  ChartOptions o;
  o.png = true;
  auto r = DrawEntryChart(dir + "/log.md", "E-1", TopkSweep(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto png = ReadFile(r->files.chart);
  ASSERT_TRUE(png.ok());
  ASSERT_GT(png->size(), 8u);
  EXPECT_EQ(png->substr(1, 3), "PNG");
}

TEST(ChartDraw, HostileTitlesAndValuesAreNeutralized) {
  const std::string dir = TempDir("moelog_chart_hostile");
  const std::string marker = dir + "/pwned";
  const std::string hostile = "\"; system(\"touch " + marker + "\") ; ' ` !touch " + marker + " `touch " + marker + "`";
  std::vector<ChartPoint> pts = TopkSweep();
  for (auto& p : pts) p.config["impl"] = hostile;  // a value that reaches series names
  pts[0].config["impl"] = "x'; system('touch " + marker + "'); '";
  ChartOptions o;
  o.title = hostile;
  auto r = DrawEntryChart(dir + "/log.md", "E-2", pts, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectGoodSvg(r->files.chart);
  EXPECT_FALSE(fs::exists(marker)) << "a title reached gnuplot's shell";
  auto script = ReadFile(r->files.script);
  ASSERT_TRUE(script.ok());
  for (char bad : {'"', '`', '!', '$'}) EXPECT_EQ(script->find(bad), std::string::npos) << bad;
  // Single quotes appear only as moelog's own quoting: an even count per line.
  std::istringstream lines(*script);
  std::string l;
  while (std::getline(lines, l)) {
    EXPECT_EQ(std::count(l.begin(), l.end(), '\'') % 2, 0) << l;
    auto bs = l.find('\\');  // only moelog's own line continuations
    EXPECT_TRUE(bs == std::string::npos || bs == l.size() - 1) << l;
  }
  EXPECT_EQ(GnuplotLabel("\"; system(\"rm -rf /\")"), "_; system(_rm -rf /_)");
}

TEST(ChartDraw, UnsafePathsAreRefusedAndEmptyChartsAreErrors) {
  ChartPlan plan = *PlanChart(TopkSweep(), {});
  const std::string dir = TempDir("moelog_chart_err");
  EXPECT_EQ(DrawChart(plan, dir + "/it's", "a", false).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(DrawChart(plan, dir, "a b", false).status().code(), Status::Code::kInvalidArgument);
  // A plan with no data at all: gnuplot draws nothing, which moelog reports.
  ChartPlan empty = plan;
  for (auto& p : empty.panels)
    for (auto& s : p.series) {
      std::fill(s.y.begin(), s.y.end(), std::nullopt);
      std::fill(s.recorded.begin(), s.recorded.end(), std::nullopt);
    }
  auto r = DrawChart(empty, dir, "empty", false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(fs::exists(dir + "/empty.svg"));
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// Every kind of chart draws (gnuplot to SVG) and renders (rsvg-convert to a
// PNG, as a reader's viewer would) to a non-empty image: lines with logbook
// markers, two axes, bars with outlined logbook bars, small multiples, and a
// chart with subtitle lines.
TEST(ChartRender, EveryKindDrawsAndRenders) {
  const std::string dir = TempDir("moelog_chart_render");
  std::vector<ChartPoint> two_axes, bars, many;
  for (int m : {1408, 1536, 1792, 2048}) two_axes.push_back(Point({{"mlp_dim", std::to_string(m)}}, m / 5.0, 1e6 - m));
  for (const char* pm : {"none", "ep"})
    for (const char* k : {"2", "8"}) {
      bars.push_back(Point({{"parallel_mode", pm}, {"topk", k}, {"devices", pm[0] == 'e' ? "4" : "1"}},
                           pm[0] == 'e' ? 240 : 190));
      bars.push_back(Point({{"parallel_mode", pm}, {"topk", k}}, pm[0] == 'e' ? 140 : 195, 0, "recorded"));
    }
  for (int e : {8, 16, 32, 64})
    for (int h : {1024, 2048})
      for (int k : {1, 2, 4, 8})
        many.push_back(Point({{"experts", std::to_string(e)}, {"hidden", std::to_string(h)}, {"topk", std::to_string(k)}},
                             e + h / 100.0 + k));
  const std::vector<std::pair<std::string, std::vector<ChartPoint>>> kinds = {
      {"lines", TopkSweep()}, {"two-axes", two_axes}, {"bars", bars}, {"panels", many}};
  const bool rsvg = fs::exists("/usr/bin/rsvg-convert");
  for (const auto& [name, pts] : kinds) {
    auto plan = PlanChart(pts, {});
    ASSERT_TRUE(plan.ok()) << name << ": " << plan.status().ToString();
    auto files = DrawChart(*plan, dir, name, false);
    ASSERT_TRUE(files.ok()) << name << ": " << files.status().ToString();
    ExpectGoodSvg(files->chart);
    if (!rsvg) continue;
    const std::string png = dir + "/" + name + ".png";
    ASSERT_EQ(std::system(("/usr/bin/rsvg-convert '" + files->chart + "' -o '" + png + "'").c_str()), 0) << name;
    EXPECT_TRUE(ChartFileComplete(png)) << name;
    EXPECT_GT(fs::file_size(png), 5000u) << name;
  }
  if (!rsvg) GTEST_SKIP() << "rsvg-convert not installed (Debian librsvg2-bin): SVGs checked, PNG rendering not";
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// A key that changes with the compared one (impl with backend) names the
// bars with it instead of splitting them into clusters or panels.
TEST(ChartPlan, KeysThatChangeWithTheComparedKeyNameItsBars) {
  std::vector<ChartPoint> pts = {Point({{"backend", "ragged_dot"}, {"impl", "baseline"}, {"dtype", "float32"}}, 1),
                                 Point({{"backend", "gmm"}, {"impl", "fused_w13"}, {"dtype", "float32"}}, 2),
                                 Point({{"backend", "gmm"}, {"impl", "fused_w13"}, {"dtype", "bfloat16"}}, 3)};
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->panels.size(), 1u);
  ASSERT_EQ(plan->panels[0].series.size(), 2u);
  EXPECT_EQ(plan->panels[0].series[0].name, "ragged_dot, baseline");
  EXPECT_EQ(plan->x_values, (std::vector<std::string>{"float32", "bfloat16"}));
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

TEST(ChartTitle, BracesAreKept) { EXPECT_EQ(GnuplotLabel("topk={1,2,4,6,8}"), "topk={1,2,4,6,8}"); }

// A recorded run's own key (a flag of a harness moelog has no adapter for)
// is an x axis for the record; for moelog's own runs it stays unknown.
TEST(ChartPlanTest, RecordedRunsOwnKeyIsAnAxis) {
  std::vector<ChartPoint> pts;
  double tps = 1e6;
  for (const char* nd : {"2", "4", "8"}) pts.push_back(Point({{"num_devices", nd}}, 100, tps *= 1.5, "recorded"));
  ChartOptions o;
  o.x_key = "num_devices";
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->x_key, "num_devices");
  EXPECT_EQ(plan->bar_key, "num_devices");  // bars, one per value
  for (auto& p : pts) p.source = "modeled";
  EXPECT_FALSE(PlanChart(pts, o).ok());
}

// A numeric axis whose values are not all numbers ("2.595B" tokens copied
// from a recorded table) is no line's x axis: gnuplot would read "2.595B" as
// an expression. The values become bars, by their labels.
TEST(ChartPlanTest, NumericAxisWrittenWithSuffixesIsBars) {
  std::vector<ChartPoint> pts;
  double mfu = 17;
  for (const char* t : {"2.482B", "2.494B", "2.595B"}) pts.push_back(Point({{"tokens", t}}, mfu += 0.1, 0, "recorded"));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->kind, ChartPlan::Kind::kBars);
  ChartOptions o;
  o.x_key = "tokens";
  plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->kind, ChartPlan::Kind::kBars);
  std::vector<ChartPoint> numbers;
  for (const char* t : {"2482000000", "2494000000", "2595000000"}) numbers.push_back(Point({{"tokens", t}}, mfu += 0.1, 0, "recorded"));
  EXPECT_EQ(PlanChart(numbers, {})->kind, ChartPlan::Kind::kLine);  // numbers: a line
}

// Times under a second are plotted in ms (the unit the tables show), a
// second or more in s: the axis label says which, the data stays in s.
TEST(ChartScript, TimesUnderASecondAreDrawnInMilliseconds) {
  auto script_for = [](double scale) {
    std::vector<ChartPoint> pts;
    for (const char* mode : {"bf16", "fp8"}) {
      ChartPoint p;
      p.source = "recorded";
      p.config = {{"mode", mode}};
      p.metrics["time_s"] = (mode[0] == 'b' ? 0.0241 : 0.0203) * scale;
      pts.push_back(p);
    }
    ChartOptions o;
    o.y_metrics = {"time_s"};
    auto plan = PlanChart(pts, o);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    return plan.ok() ? ChartScript(*plan, "c.dat", "c.svg", false) : std::string();
  };
  const std::string ms = script_for(1);
  EXPECT_NE(ms.find("set ylabel 'time (ms)'"), std::string::npos) << ms;
  EXPECT_NE(ms.find("/1e-3)"), std::string::npos) << ms;
  const std::string s = script_for(100);
  EXPECT_NE(s.find("set ylabel 'time (s)'"), std::string::npos) << s;
  EXPECT_EQ(s.find("/1e-3)"), std::string::npos) << s;
}

// Statistics of one run (p50, mean, tail median) are no sweep: no chart.
TEST(ChartPlan, StatisticsOfOneRunAreNoSweep) {
  std::vector<ChartPoint> pts;
  for (const char* stat : {"p50", "mean", "tail-10 median"}) {
    ChartPoint p;
    p.source = "recorded";
    p.config = {{"statistic", stat}, {"harness", "probe.sh"}};
    p.metrics["mfu"] = 18.3;
    pts.push_back(p);
  }
  EXPECT_EQ(PlanChart(pts, {}).status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// Charts for a paper: no command-line option in a figure, one y axis per
// panel, a y axis that shows a 2-5% A/B (with a break mark), centred bars,
// predictions drawn as such, no grey swatch that matches no bar.
TEST(ChartPaperRules, NoOptionsInFiguresAndOneYAxisPerPanel) {
  std::vector<ChartPoint> pts;
  for (const char* pm : {"none", "ep"})
    for (const char* k : {"2", "8"})
      pts.push_back(Point({{"parallel_mode", pm}, {"topk", k}, {"devices", pm[0] == 'e' ? "4" : "1"}},
                          pm[0] == 'e' ? 120 : 100));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const std::string gp = ChartScript(*plan, "d.dat", "c.svg", false);
  EXPECT_EQ(gp.find("--y"), std::string::npos) << gp;
  EXPECT_EQ(gp.find("tflops_per_device"), std::string::npos) << gp;
  EXPECT_EQ(gp.find("'model (v5p)'"), std::string::npos) << "a grey swatch matches no bar:\n" << gp;
  // One series along a numeric axis: TF/s and tokens/s side by side, no y2.
  std::vector<ChartPoint> line;
  for (const char* k : {"1", "2", "4", "8"}) line.push_back(Point({{"topk", k}}, 100 + std::atoi(k), 1000));
  auto lp = PlanChart(line, {});
  ASSERT_TRUE(lp.ok());
  EXPECT_EQ(lp->panels.size(), 2u);
  EXPECT_EQ(ChartScript(*lp, "d.dat", "c.svg", false).find("\nset y2tics"), std::string::npos);
}

TEST(ChartPaperRules, SmallGapsGetAnAxisNotFromZeroWithABreak) {
  std::vector<ChartPoint> pts;
  for (const char* s : {"argsort", "tuple_sort"})
    for (const char* k : {"2", "8"})
      pts.push_back(Point({{"routing_pack_strategy", s}, {"topk", k}}, s[0] == 'a' ? 193 : 189));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok());
  const std::string gp = ChartScript(*plan, "d.dat", "c.svg", false);
  // The legend strip's own [0:1] aside.
  EXPECT_EQ(gp.find("set yrange [0:"), gp.find("set yrange [0:1]")) << gp;
  EXPECT_NE(gp.find("not 0"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set arrow 1"), std::string::npos) << gp;
  // A 25% gap keeps its axis from 0.
  pts.clear();
  for (const char* s : {"argsort", "tuple_sort"}) pts.push_back(Point({{"routing_pack_strategy", s}}, s[0] == 'a' ? 200 : 100));
  auto wide = PlanChart(pts, {});
  ASSERT_TRUE(wide.ok());
  EXPECT_NE(ChartScript(*wide, "d.dat", "c.svg", false).find("set yrange [0:"), std::string::npos);
}

TEST(ChartPaperRules, BarsOfAClusterAreCentredOnIt) {
  std::vector<ChartPoint> pts;
  for (const char* pm : {"none", "ep"})
    for (const char* k : {"2", "8"})
      if (!(pm[0] == 'e' && k[0] == '8')) pts.push_back(Point({{"parallel_mode", pm}, {"topk", k}}, 100));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok());
  const std::string dat = ChartData(*plan);
  // Cluster k=8 has one bar: it stands on the cluster's centre (position 1).
  EXPECT_NE(dat.find("1 \"k=8\" 100 ? 1.0000 ?"), std::string::npos) << dat;
  EXPECT_NE(dat.find("0 \"k=2\" 100 100 -0.2000 0.2000"), std::string::npos) << dat;
}

TEST(ChartPaperRules, PredictionsAreTitledAndHatched) {
  std::vector<ChartPoint> pts;
  for (const char* q : {"none", "int8"}) pts.push_back(Point({{"quant_mode", q}}, q[0] == 'n' ? 100 : 150));
  ChartOptions o;
  o.prediction = true;
  o.title = "Planned first v5p matrix";
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->title.rfind("Prediction: ", 0), 0u) << plan->title;
  const std::string gp = ChartScript(*plan, "d.dat", "c.svg", false);
  EXPECT_NE(gp.find("fill pattern"), std::string::npos) << gp;
  EXPECT_EQ(gp.find("fill solid"), std::string::npos) << gp;
}

TEST(ChartPaperRules, LongSubtitlesWrapInsteadOfBeingCut) {
  std::vector<ChartPoint> pts;
  for (const char* r : {"argsort", "tuple_sort"})
    for (const char* k : {"2", "4", "8"})
      pts.push_back(Point({{"routing_pack_strategy", r}, {"topk", k}}, 100 + std::atoi(k), 0, "modeled"));
  ChartOptions o;
  o.ratio_band = 0.1;
  for (auto& p : pts) p.metrics["band_lo"] = 0.9, p.metrics["band_hi"] = 1.1;
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  for (const auto& s : plan->subtitles) {
    EXPECT_LE(s.size(), 120u) << s;
    EXPECT_EQ(s.find("..."), std::string::npos) << s;
  }
}

// Tick labels are gnuplot format strings: a '%' in a cluster or bar label
// ("reduction=93.9%") must reach the chart as written, not stop gnuplot with
// "Bad format character". Letters outside ASCII ("Référence") are kept.
TEST(ChartDraw, PercentSignsAndAccentsInTickLabelsRender) {
  const std::string dir = TempDir("moelog_chart_percent");
  std::vector<ChartPoint> pts;
  for (const char* impl : {"Référence 93.9%, base", "GPU 50%...", "100%, CPU"})
    for (const char* k : {"2", "8"}) pts.push_back(Point({{"impl", impl}, {"topk", k}}, std::stod(k) * 40 + impl[0]));
  auto r = DrawEntryChart(dir + "/log.md", "E-3", pts, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectGoodSvg(r->files.chart);
  auto svg = ReadFile(r->files.chart);
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("Référence 93.9%, base"), std::string::npos);
  // One point per bar: both ways the labels can be drawn (clusters, bars).
  pts.clear();
  for (const char* impl : {"a 10%, x", "b 20%..."}) pts.push_back(Point({{"impl", impl}}, impl[0]));
  r = DrawEntryChart(dir + "/log2.md", "E-4", pts, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectGoodSvg(r->files.chart);
  svg = ReadFile(r->files.chart);
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("b 20%..."), std::string::npos);
}

TEST(ChartTitle, Utf8IsKeptAndInvalidBytesAndC1ControlsAreNot) {
  EXPECT_EQ(GnuplotLabel("Réduction du temps (%)"), "Réduction du temps (%)");
  EXPECT_EQ(GnuplotLabel("a\xC2\x9B" "b"), "a__b");  // CSI as a C1 control
  EXPECT_EQ(GnuplotLabel("a\xFF\xFE" "b"), "a__b");
  EXPECT_EQ(GnuplotLabel("ééé", 3), "é");  // never half a character
}

}  // namespace

// An entry that records none of TF/s, tokens/s, GB/s, MFU or time is charted
// by the metric it records ("cycles"), named as written; derived speedups
// chart nothing of their own.
TEST(ChartPlan, AnEntrysOwnMetricIsChartedWhenItRecordsNoneOfMoelogs) {
  std::vector<ChartPoint> pts;
  for (const auto& [v, c] : std::vector<std::pair<std::string, double>>{{"naive", 14410}, {"packed", 9822}, {"prefetch", 7105}}) {
    ChartPoint p;
    p.config["variant"] = v;
    p.metrics["cycles"] = c;
    p.metrics["speedup"] = 14410 / c;
    p.source = "recorded";
    pts.push_back(p);
  }
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_FALSE(plan->panels.empty());
  EXPECT_EQ(plan->panels[0].series[0].metric, "cycles");
  EXPECT_EQ(MetricLabel("cycles"), "cycles");
  EXPECT_EQ(MetricLabel("requests_per_s"), "requests/s");
  EXPECT_EQ(MetricLabel("avg_step_time_s"), "avg step time (s)");
  // A qualified name in words, its unit as a table heads it.
  EXPECT_EQ(MetricLabel("throughput_aggregate_tokens_per_s"), "throughput aggregate tokens/s");
  EXPECT_EQ(MetricLabel("backward_gb_per_s"), "backward GB/s");
  EXPECT_EQ(MetricLabel("bandwidth_gbs"), "bandwidth GB/s");
  for (auto& p : pts) p.metrics.erase("cycles");
  EXPECT_FALSE(PlanChart(pts, {}).ok());  // speedups alone chart nothing
}

// A key value whose figures are all of another metric ("metric=Latency"
// beside "metric=Effective TFLOPS") has no point on the TF/s chart: the
// legend names only the series drawn.
TEST(ChartPlan, ASeriesWithNoPointIsNotInTheLegend) {
  std::vector<ChartPoint> pts;
  for (const std::string setup : {"kernel", "reference"}) {
    ChartPoint tf, lat;
    tf.config = {{"setup", setup}, {"metric", "Effective TFLOPS"}};
    tf.metrics["tflops"] = setup == "kernel" ? 3.21 : 3.22;
    lat.config = {{"setup", setup}, {"metric", "Latency"}};
    lat.metrics["time_s"] = 0.0428;
    tf.source = lat.source = "recorded";
    pts.push_back(tf);
    pts.push_back(lat);
  }
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  for (const auto& panel : plan->panels)
    for (const auto& se : panel.series) {
      const bool any = std::any_of(se.y.begin(), se.y.end(), [](const auto& y) { return y.has_value(); }) ||
                       std::any_of(se.recorded.begin(), se.recorded.end(), [](const auto& y) { return y.has_value(); });
      EXPECT_TRUE(any) << "empty series in the legend: " << se.name << " (" << panel.metric << ")";
    }
}

}  // namespace moelog::logbook
