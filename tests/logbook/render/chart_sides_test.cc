// A chart of a recorded before/after table draws both sides, not the one
// column its metric choice names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

ChartPoint Recorded(const std::string& input, double before, double after) {
  ChartPoint p;
  p.source = "recorded";
  p.id = "E#" + input;
  p.config = {{"input", input}};
  p.metrics = {{"before_time_s", before}, {"single_literal_copy_time_s", after}, {"speedup", before / after}};
  return p;
}

TEST(ChartSides, ABeforeAfterTableIsChartedWhole) {
  const std::vector<ChartPoint> pts = {Recorded("layout.png", 0.1153, 0.1130), Recorded("mitski.png", 0.4405, 0.4282),
                                       Recorded("corgi.jpeg", 0.8746, 0.8744)};
  auto plan = PlanChart(pts, ChartOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // Both sides are drawn: 3 inputs x 2 sides.
  int drawn = 0;
  bool before = false, after = false;
  std::string names;
  for (const auto& panel : plan->panels)
    for (const auto& s : panel.series) {
      names += s.name + ";";
      for (const auto& y : s.y) drawn += y.has_value();
    }
  for (const auto& x : plan->x_values) names += x + ";";
  before = names.find("before") != std::string::npos;
  after = names.find("single literal copy") != std::string::npos;
  EXPECT_EQ(drawn, 6) << names;
  EXPECT_EQ(plan->bar_key, "side");  // the two sides of each row side by side
  EXPECT_TRUE(before && after) << names;
  EXPECT_EQ(plan->what.find("single literal copy"), std::string::npos) << plan->what;  // "time (s) vs ..."
}

TEST(ChartSides, APointWithoutTheOtherSideIsLeftAlone) {
  ChartPoint a = Recorded("a", 1, 2), b = Recorded("b", 3, 4);
  b.metrics.erase("before_time_s");
  std::vector<ChartPoint> out;
  EXPECT_FALSE(SplitChangeSides({a, b}, "single_literal_copy_time_s", &out));
  EXPECT_TRUE(out.empty());
}

// A YCSB report's throughputs, 11 ops/s beside 7562 ops/s: drawn on a
// logarithmic axis, said so under the title; figures within 100x keep an
// axis from 0.
TEST(ChartLogY, FiguresSpanningHundredfoldAreDrawnOnALogAxis) {
  std::vector<ChartPoint> pts;
  for (const auto& [w, v] : {std::pair<const char*, double>{"A", 11.3}, {"B", 13.5}, {"E", 7562.0}}) {
    ChartPoint p;
    p.source = "recorded", p.id = std::string("E#") + w, p.config = {{"workload", w}};
    p.metrics = {{"overall_throughput_ops_per_s", v}};
    pts.push_back(p);
  }
  auto plan = PlanChart(pts, ChartOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const std::string gp = ChartScript(*plan, "a.dat", "a.svg", false);
  EXPECT_NE(gp.find("set logscale y 10\nset yrange [1:"), std::string::npos) << gp;
  EXPECT_NE(gp.find("axis is logarithmic: its figures span 669x"), std::string::npos) << gp;
  EXPECT_NE(gp.find("unset logscale y"), std::string::npos) << gp;  // the legend strip's own axis is linear
  pts[2].metrics["overall_throughput_ops_per_s"] = 99;
  auto flat = PlanChart(pts, ChartOptions{});
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(ChartScript(*flat, "a.dat", "a.svg", false).find("logscale y"), std::string::npos);
}

// pgbench's "duration: 60 s" and "latency average = 0.412 ms" are no two
// runs of one measure: no chart of them; two latencies are.
TEST(ChartMeasures, ARunsDurationBesideALatencyIsNoChart) {
  std::vector<ChartPoint> pts;
  for (const auto& [m, v] : {std::pair<const char*, double>{"duration", 60}, {"latency average", 0.000412}}) {
    ChartPoint p;
    p.source = "recorded", p.id = std::string("E#") + m, p.config = {{"metric", m}};
    p.metrics = {{"time_s", v}};
    pts.push_back(p);
  }
  EXPECT_FALSE(PlanChart(pts, ChartOptions{}).ok());
  pts[0].config["metric"] = "latency p99";
  EXPECT_TRUE(PlanChart(pts, ChartOptions{}).ok());
}

}  // namespace
}  // namespace moelog::logbook
