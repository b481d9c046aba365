// Which figure a chart draws when no --y names one (ChooseChartMetric), and
// that a chart shows no panel and no x value with nothing drawn.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

ChartPoint Recorded(std::map<std::string, std::string> cfg, std::map<std::string, double> metrics) {
  ChartPoint p;
  p.source = "recorded";
  p.config = std::move(cfg);
  p.metrics = std::move(metrics);
  return p;
}

// A load test printed a record per load level: its duration (a setting of
// the test), a count, latencies and a throughput.
std::vector<ChartPoint> LoadLevels() {
  std::vector<ChartPoint> pts;
  for (int users : {10, 20, 40})
    pts.push_back(Recorded({{"record", std::to_string(users) + " users"}},
                           {{"duration_time_s", 60.0},
                            {"latency_p50_time_s", 0.040 + users * 0.001},
                            {"latency_p99_time_s", 0.090 + users * 0.004},
                            {"throughput_requests_per_s", 2.0 * users}}));
  return pts;
}

TEST(ChartMetric, ARecordOfLoadLevelsChartsItsThroughputNotItsDuration) {
  EXPECT_EQ(ChooseChartMetric(LoadLevels(), {}), "throughput_requests_per_s");
}

TEST(ChartMetric, TheMetricTheEntryNamesFirstWins) {
  ChartOptions o;
  o.headline = "p99 latency under load\nThroughput flattens past 20 users.";
  EXPECT_EQ(ChooseChartMetric(LoadLevels(), o), "latency_p99_time_s");
  o.headline = "Load test\nLatency stays flat until 20 users.";
  EXPECT_EQ(ChooseChartMetric(LoadLevels(), o), "latency_p50_time_s");
  o.headline = "Load test\nThroughput flattens past 20 users; latency doubles.";
  EXPECT_EQ(ChooseChartMetric(LoadLevels(), o), "throughput_requests_per_s");
}

TEST(ChartMetric, ANamedMetricHalfThePointsLackIsASideFigure) {
  std::vector<ChartPoint> pts;
  for (const char* bits : {"1", "4", "16", "64"})
    for (const char* side : {"before", "after"}) pts.push_back(Recorded({{"bits", bits}, {"arrow", side}}, {{"time_s", 1.0}}));
  pts.push_back(Recorded({{"arrow", "before"}}, {{"memory_mib", 24}}));
  pts.push_back(Recorded({{"arrow", "after"}}, {{"memory_mib", 6}}));
  ChartOptions o;
  o.headline = "Worker pool\nMemory drops from 24 MB to 6 MB.";
  EXPECT_EQ(ChooseChartMetric(pts, o), "time_s");
}

TEST(ChartMetric, TheScopesPrimaryMetricComesFirst) {
  ChartOptions o;
  o.primary_metric = "latency_p50_time_s";
  o.headline = "throughput";
  EXPECT_EQ(ChooseChartMetric(LoadLevels(), o), "latency_p50_time_s");
}

TEST(ChartMetric, AMetricMostPointsLackIsNotCharted) {
  // TF/s of two kernels at one shape of four; times at every shape: a
  // TF/s chart would show a corner of the entry.
  std::vector<ChartPoint> pts;
  for (const char* m : {"1", "16", "64", "256"})
    for (const char* k : {"eager", "compiled", "fused", "gemv"}) {
      std::map<std::string, double> fig = {{"time_s", 2e-5}};
      if (std::string(m) == "256" && std::string(k) < "f") fig["tflops"] = 100;
      pts.push_back(Recorded({{"m", m}, {"kernel", k}}, fig));
    }
  EXPECT_EQ(ChooseChartMetric(pts, {}), "time_s");
  // At a quarter of the points or more, the rate is the figure.
  pts[2].metrics["tflops"] = pts[3].metrics["tflops"] = 50;
  EXPECT_EQ(ChooseChartMetric(pts, {}), "tflops");
}

TEST(ChartMetric, NeverACountOrASettingWhenAFigureIsThere) {
  std::vector<ChartPoint> pts;
  for (const char* v : {"a", "b"})
    pts.push_back(Recorded({{"variant", v}}, {{"warmup_time_s", 0.1}, {"iters", 3000}, {"time_s", v[0] * 1e-3}}));
  EXPECT_EQ(ChooseChartMetric(pts, {}), "time_s");
  // A rate ranks over a time, and a time over another measure.
  pts[0].metrics["memory_mib"] = pts[1].metrics["memory_mib"] = 10;
  EXPECT_EQ(ChooseChartMetric(pts, {}), "time_s");
  pts[0].metrics["ops_per_s"] = pts[1].metrics["ops_per_s"] = 10;
  EXPECT_EQ(ChooseChartMetric(pts, {}), "ops_per_s");
}

TEST(ChartMetric, ATimeBeforeItsSpreadAndAMetricOneRowLacksIsNotCharted) {
  // A benchmark tool's mean, range and deviation: the mean is the figure.
  std::vector<ChartPoint> pts;
  for (const char* c : {"./pack --fast", "./pack --best"})
    pts.push_back(Recorded({{"command", c}}, {{"max_time_s", 0.42}, {"min_time_s", 0.40}, {"std_time_s", 0.006},
                                              {"time_s", 0.41}, {"user_time_s", 0.38}}));
  EXPECT_EQ(ChooseChartMetric(pts, {}), "time_s");
  // A throughput one of two rows prints: its chart would hold one bar.
  pts[0].metrics["elements_per_s"] = 8e8;
  EXPECT_EQ(ChooseChartMetric(pts, {}), "time_s");
}

TEST(ChartMetric, TheBestOfRepeatsBeforeTheWorst) {
  // A leaderboard's fastest and slowest repeat per shape: the fastest is charted.
  std::vector<ChartPoint> pts;
  for (const char* line : {"1", "2", "3"})
    pts.push_back(Recorded({{"line", line}}, {{"max_time_s", 85e-6}, {"min_time_s", 82e-6}}));
  EXPECT_EQ(ChooseChartMetric(pts, {}), "min_time_s");
  // A deviation stays behind the best of repeats too.
  for (auto& p : pts) p.metrics.erase("max_time_s"), p.metrics["std_time_s"] = 1e-6;
  EXPECT_EQ(ChooseChartMetric(pts, {}), "min_time_s");
}

TEST(ChartMetric, UnitWordsOfProseNameNoMetric) {
  std::vector<ChartPoint> pts;
  for (const char* v : {"ring", "all-gather"})
    pts.push_back(Recorded({{"impl", v}}, {{"tflops", 100}, {"tokens_per_s", 5e5}}));
  ChartOptions o;
  o.headline = "Ring vs all-gather at 32768 tokens";
  EXPECT_EQ(ChooseChartMetric(pts, o), "tflops");
}

TEST(ChartMetric, APerRankRateIsLabelledAsTheTableHeadsIt) {
  EXPECT_EQ(MetricLabel("tflops_per_rank"), "TF/s per rank");
  EXPECT_EQ(MetricLabel("useful_tflops_per_rank"), "useful TF/s per rank");
  EXPECT_EQ(MetricLabel("tflops_per_device"), "TF/s per device");
}

TEST(ChartMetric, DerivedFiguresChartNothing) {
  EXPECT_EQ(ChooseChartMetric({Recorded({{"variant", "a"}}, {{"speedup", 2}})}, {}), "");
}

// Kernels at two shapes, TF/s at one: no panel and no kernel of the chart
// is left with nothing drawn.
TEST(ChartPlanEmpty, NoPanelOrXValueWithNothingDrawn) {
  std::vector<ChartPoint> pts;
  for (const char* shape : {"small", "large"})
    for (const char* dev : {"h100", "a100"})
      for (const char* k : {"eager", "fused", "gemv"}) {
        std::map<std::string, double> fig = {{"time_s", 2e-5}};
        if (std::string(shape) == "large" && std::string(k) != "gemv") fig["tflops"] = dev[0] == 'h' ? 100 : 60;
        pts.push_back(Recorded({{"shape", shape}, {"device", dev}, {"kernel", k}}, fig));
      }
  ChartOptions o;
  o.y_metrics = {"tflops"};
  o.x_key = "kernel";
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_FALSE(plan->panels.empty());
  for (const auto& panel : plan->panels) {
    bool any = false;
    for (const auto& s : panel.series)
      for (const auto& y : s.y) any = any || y.has_value();
    EXPECT_TRUE(any) << "empty panel " << panel.label;
  }
  for (size_t x = 0; x < plan->x_values.size(); ++x) {
    bool any = false;
    for (const auto& panel : plan->panels)
      for (const auto& s : panel.series) any = any || (x < s.y.size() && s.y[x].has_value());
    EXPECT_TRUE(any) << "empty x value " << plan->x_values[x];
  }
}

// Two rows of one figure each, in two metrics: whichever is charted, the
// chart would hold one bar. No chart.
TEST(ChartPlanEmpty, AChartOfOneValueIsNotDrawn) {
  const std::vector<ChartPoint> pts = {Recorded({{"variant", "legality"}}, {{"time_per_direct_s", 7.3e-7}}),
                                       Recorded({{"variant", "movegen"}}, {{"time_per_node_s", 7.7e-5}})};
  EXPECT_EQ(PlanChart(pts, {}).status().code(), Status::Code::kNotFound);
}

// A key of the author's printout ("request_rate") is said in words on the
// axis and in the title, never with its underscores.
TEST(ChartPlanEmpty, AnAuthorsKeyIsSaidInWords) {
  std::vector<ChartPoint> pts;
  for (const char* r : {"1", "4", "16"})
    pts.push_back(Recorded({{"request_rate", r}}, {{"throughput_requests_per_s", std::stod(r) * 0.9}}));
  auto plan = PlanChart(pts, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->x_label, "request rate");
  EXPECT_EQ(plan->what.find('_'), std::string::npos) << plan->what;
}

}  // namespace
}  // namespace moelog::logbook
