// The alt text (and title) of a chart names a time metric in the unit its
// axis draws: "p95 time (ms)" for times under a second, never "(s)" beside
// an axis in ms.
#include <gtest/gtest.h>

#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

TEST(ChartAltUnit, ATimeMetricIsNamedInTheUnitTheAxisDraws) {
  std::vector<ChartPoint> pts;
  for (int bs : {8, 16, 32}) {
    ChartPoint p;
    p.source = "recorded";
    p.config = {{"bs", std::to_string(bs)}};
    p.metrics["p95_time_s"] = 0.001 * bs;
    pts.push_back(p);
  }
  ChartOptions o;
  o.y_metrics = {"p95_time_s"};
  auto plan = PlanChart(pts, o);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_NE(plan->what.find("p95 time (ms)"), std::string::npos) << plan->what;
  EXPECT_EQ(plan->what.find("(s)"), std::string::npos) << plan->what;
}

TEST(ChartAltUnit, ANameThatSaysTimeIsNotToldItAgain) {
  EXPECT_EQ(MetricLabel("p95_latency_time_s"), "p95 latency (s)");
  EXPECT_EQ(MetricLabel("avg_step_time_s"), "avg step time (s)");
}

}  // namespace
}  // namespace moelog::logbook
