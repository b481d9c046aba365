#include "logbook/render/chart_gnuplot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "logbook/file_util.h"
#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

std::string Dir(const std::string& name) {
  fs::path d = fs::path(testing::TempDir()) / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

ChartPoint Point(std::map<std::string, std::string> cfg, double tflops, double tps = 0,
                 std::string source = "modeled") {
  ChartPoint p;
  p.config = std::move(cfg);
  p.config.emplace("tokens", "32768");
  p.metrics["tflops"] = tflops;
  if (tps > 0) p.metrics["tokens_per_s"] = tps;
  p.source = std::move(source);
  return p;
}

// Charts of every kind: lines with logbook figures and error bars, two
// axes, bars with outlined logbook bars, small multiples.
std::vector<std::pair<std::string, ChartPlan>> EveryKind() {
  std::vector<ChartPoint> lines, two_axes, bars, many;
  for (const char* shared : {"0", "5632"})
    for (int k : {1, 2, 4, 8}) {
      const double tf = 80.0 * k / (1.0 + 0.1 * k) + (shared[0] == '0' ? 0 : 100);
      ChartPoint p = Point({{"topk", std::to_string(k)}, {"shared_expert_dim", shared}}, tf);
      p.metrics["band_lo"] = 0.95;
      p.metrics["band_hi"] = 1.04;
      lines.push_back(p);
      lines.push_back(Point({{"topk", std::to_string(k)}, {"shared_expert_dim", shared}}, tf * 1.05, 0, "recorded"));
    }
  for (int m : {1408, 1536, 1792, 2048}) two_axes.push_back(Point({{"mlp_dim", std::to_string(m)}}, m / 5.0, 1e6 - m));
  for (const char* pm : {"none", "ep"})
    for (const char* k : {"2", "8"}) {
      bars.push_back(Point({{"parallel_mode", pm}, {"topk", k}}, pm[0] == 'e' ? 240 : 190));
      bars.push_back(Point({{"parallel_mode", pm}, {"topk", k}}, pm[0] == 'e' ? 140 : 195, 0, "recorded"));
    }
  for (int e : {8, 16, 32, 64})
    for (int h : {1024, 2048})
      for (int k : {1, 2, 4, 8})
        many.push_back(Point({{"experts", std::to_string(e)}, {"hidden", std::to_string(h)}, {"topk", std::to_string(k)}},
                             e + h / 100.0 + k));
  std::vector<std::pair<std::string, ChartPlan>> out;
  for (const auto& [name, pts] : std::vector<std::pair<std::string, std::vector<ChartPoint>>>{
           {"lines", lines}, {"two-axes", two_axes}, {"bars", bars}, {"panels", many}}) {
    auto plan = PlanChart(pts, {});
    EXPECT_TRUE(plan.ok()) << name << ": " << plan.status().ToString();
    if (plan.ok()) out.emplace_back(name, *plan);
  }
  return out;
}

// One gnuplot process draws the same bytes as one process a chart: a chart
// drawn after others (lines after bars, SVG after PNG) is not coloured by
// what came before.
TEST(SharedGnuplot, DrawsTheSameBytesAsOneProcessEachChart) {
  const std::string alone = Dir("moelog_gp_alone"), shared = Dir("moelog_gp_shared");
  const auto kinds = EveryKind();
  ASSERT_EQ(kinds.size(), 4u);
  // Each kind twice, in SVG then PNG, interleaved.
  std::vector<std::pair<std::string, bool>> order;
  for (int round = 0; round < 2; ++round)
    for (size_t i = 0; i < kinds.size(); ++i) order.emplace_back(kinds[i].first, round == 1 && i % 2 == 0);
  std::map<std::string, std::string> expected;
  for (const auto& step : order) {
    const std::string& name = step.first;  // a name the lambda below can capture
    const bool png = step.second;
    const ChartPlan& plan = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == name; })->second;
    auto f = DrawChart(plan, alone, name + (png ? "-png" : ""), png);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    expected[f->chart.substr(alone.size())] = *ReadFile(f->chart);
  }
  SharedGnuplot scope;
  for (const auto& step : order) {
    const std::string& name = step.first;  // a name the lambda below can capture
    const bool png = step.second;
    const ChartPlan& plan = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == name; })->second;
    auto f = DrawChart(plan, shared, name + (png ? "-png" : ""), png);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    EXPECT_EQ(*ReadFile(f->chart), expected[f->chart.substr(shared.size())]) << name << (png ? " (png)" : "");
  }
  EXPECT_EQ(scope.session().started(), 1);
}

std::string SvgScript(const std::string& out) {
  return "set terminal svg size 300,200\nset output '" + out + "'\nplot x\nunset output\n";
}

// A chart that hangs, ends gnuplot or has errors fails alone: it is
// reported with gnuplot's own messages, and the charts after it are drawn
// (by a new process when the old one is gone).
TEST(GnuplotSession, AFailingChartFailsAlone) {
  const std::string dir = Dir("moelog_gp_fail");
  GnuplotSession gp(2);
  ASSERT_TRUE(gp.Run(dir, SvgScript("a.svg")).ok());
  auto hung = gp.Run(dir, "pause 30\n");
  ASSERT_FALSE(hung.ok());
  EXPECT_EQ(hung.status().code(), Status::Code::kIOError);
  EXPECT_NE(hung.status().message().find("longer than 2 s"), std::string::npos) << hung.status().ToString();
  ASSERT_TRUE(gp.Run(dir, SvgScript("b.svg")).ok());
  auto gone = gp.Run(dir, "print 'leaving'\nexit gnuplot\n");
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().message().find("exited"), std::string::npos) << gone.status().ToString();
  EXPECT_NE(gone.status().message().find("leaving"), std::string::npos) << gone.status().ToString();
  // An error inside a chart: gnuplot goes on; the messages are that chart's.
  auto bad = gp.Run(dir, "plot 'no-such-file.dat'\n");
  ASSERT_TRUE(bad.ok()) << bad.status().ToString();
  EXPECT_NE(bad->find("no-such-file.dat"), std::string::npos) << *bad;
  auto c = gp.Run(dir, SvgScript("c.svg"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->find("no-such-file"), std::string::npos) << *c;
  EXPECT_EQ(gp.started(), 3);  // the first, after the hang, after the exit
  for (const char* f : {"a.svg", "b.svg", "c.svg"}) EXPECT_TRUE(ChartFileComplete(dir + "/" + f)) << f;
}

// A chart whose messages never end (a warning for every point) cannot grow
// moelog's memory or hide the end of the chart.
TEST(GnuplotSession, EndlessMessagesAreCut) {
  const std::string dir = Dir("moelog_gp_noisy");
  GnuplotSession gp(30);
  auto noisy = gp.Run(dir, "do for [i=1:20000] { print 'warning number ', i }\n");
  ASSERT_TRUE(noisy.ok()) << noisy.status().ToString();
  EXPECT_LE(noisy->size(), 64u * 1024u);
  EXPECT_EQ(noisy->rfind("warning number", 0), 0u);
  ASSERT_TRUE(gp.Run(dir, SvgScript("after.svg")).ok());
  EXPECT_TRUE(ChartFileComplete(dir + "/after.svg"));
}

// A chart's own text that prints what looks like moelog's end marker (the
// process id and the chart's number are guessable) does not end the chart:
// the marker carries a random number of the session's.
TEST(GnuplotSession, APrintedMarkerDoesNotEndTheChart) {
  const std::string dir = Dir("moelog_gp_marker");
  GnuplotSession gp(30);
  std::string forged;
  for (int serial = 1; serial <= 2; ++serial)
    forged += "print 'moelog-chart-done " + std::to_string(::getpid()) + " " + std::to_string(serial) + "'\n";
  auto first = gp.Run(dir, forged + SvgScript("m1.svg"));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_NE(first->find("moelog-chart-done"), std::string::npos) << *first;  // its messages, whole
  auto second = gp.Run(dir, SvgScript("m2.svg"));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->find("moelog-chart-done"), std::string::npos) << *second;
  for (const char* f : {"m1.svg", "m2.svg"}) EXPECT_TRUE(ChartFileComplete(dir + "/" + f)) << f;
}

}  // namespace
}  // namespace moelog::logbook
