// The charts of seed entries as golden plans: the .dat and .gp files moelog
// writes for EP seed entries 13:40 (EP vs none), 14:51 (remat A/B), 14:56
// (top-k at two shared widths), 15:11 (MLP width) and 16:27 (top-k at two
// shapes), and a null-fraction sweep, byte for byte under
// tests/golden/charts/ (regenerate with MOELOG_REGEN_GOLDEN=1 and review the
// diff). Then the rules every chart of the seed logbooks keeps: at most 6
// series a panel, at most 8 legend entries, no internal key in any text,
// every logbook figure on a point moelog drew.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "logbook/doc/parse_logbook.h"
#include "logbook/render/chart.h"
#include "logbook/store/stored_run.h"
#include "logbook/update/session.h"
#include "logbook/update/counted_runs.h"
#include "logbook/update/entry_chart.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;
using moelog::testing::Slurp;

const fs::path kGolden = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / "charts";

bool Regenerating() {
  const char* regen = std::getenv("MOELOG_REGEN_GOLDEN");
  return regen != nullptr && std::string(regen) == "1";
}

// A copy of `source` updated (v5p model) in a fresh folder; returns its path.
std::string Updated(const fs::path& source, const std::string& tag) {
  const fs::path tmp = fs::temp_directory_path() / ("moelog_chart_golden_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path p = tmp / source.filename();
  fs::copy_file(source, p);
  SessionOptions o;
  o.db = (tmp / "runs.db").string();
  std::ostringstream out, err;
  EXPECT_EQ(RunSession(p.string(), DocumentKind::kLogbook, o, out, err).exit_code, 0) << err.str();
  return p.string();
}

void CompareWithGolden(const fs::path& drawn, const fs::path& golden) {
  ASSERT_TRUE(fs::exists(drawn)) << drawn;
  if (Regenerating()) {
    fs::create_directories(golden.parent_path());
    fs::copy_file(drawn, golden, fs::copy_options::overwrite_existing);
    ADD_FAILURE() << "regenerated " << golden << "; review `git diff` and rerun without MOELOG_REGEN_GOLDEN";
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " (regenerate with MOELOG_REGEN_GOLDEN=1)";
  EXPECT_EQ(Slurp(drawn.string()), Slurp(golden.string())) << drawn << " differs from " << golden;
}

TEST(ChartGolden, SeedEntriesAndNullSweepPlans) {
  const std::string ep = Updated(fs::path(MOELOG_TEST_DATA_DIR) / ".." / "recipes" / "moe_ep_benchmark_logbook.md", "ep");
  const fs::path ep_figures = fs::path(ep).parent_path() / "figures" / "moe_ep_benchmark_logbook";
  for (const char* id : {"1340", "1451", "1456", "1511", "1627"})
    for (const char* ext : {".dat", ".gp"}) {
      const std::string name = std::string("MOE-EP-BENCHMARK-20260209-") + id + ext;
      CompareWithGolden(ep_figures / name, kGolden / "ep" / name);
    }
  const std::string null_sweep = Updated(kGolden / "null_sweep.md", "null");
  const fs::path null_figures = fs::path(null_sweep).parent_path() / "figures" / "null_sweep";
  for (const char* ext : {".dat", ".gp"})
    CompareWithGolden(null_figures / (std::string("MOE-NULL-001") + ext), kGolden / "null" / (std::string("MOE-NULL-001") + ext));
  fs::remove_all(fs::path(ep).parent_path());
  fs::remove_all(fs::path(null_sweep).parent_path());
}

// Every text of a plan a reader sees that moelog wrote (the title is the
// entry's label, as its author wrote it).
std::string ReaderText(const ChartPlan& plan) {
  std::string text = plan.x_label + "|" + plan.what;
  for (const auto& s : plan.subtitles) text += "|" + s;
  for (const auto& x : plan.x_values) text += "|" + x;
  for (const auto& p : plan.panels) {
    text += "|" + p.label;
    for (const auto& s : p.series) text += "|" + s.name;
  }
  return text;
}

void CheckStructure(const std::string& path, int* charts) {
  auto lb = LoadLogbook(path);
  ASSERT_TRUE(lb.ok()) << lb.status().ToString();
  auto runs = LogbookRuns(*lb, fs::path(path).parent_path() / "runs.db", false, nullptr);
  ASSERT_TRUE(runs.ok()) << runs.status().ToString();
  ChartOptions o;
  o.primary_metric = PrimaryMetric(*lb);
  for (const auto& e : lb->entries) {
    o.title = e.label;
    o.id = e.id;
    auto plan = PlanChart(EntryChartPoints(e, *runs), o);
    if (!plan.ok()) {
      EXPECT_EQ(plan.status().code(), Status::Code::kNotFound) << e.id << ": " << plan.status().ToString();
      continue;
    }
    ++*charts;
    const std::string where = path + " " + e.id;
    EXPECT_LE(plan->LegendEntries(), 8u) << where;
    const std::string text = ReaderText(*plan);
    EXPECT_EQ(text.find("loop."), std::string::npos) << where << ": " << text;
    for (const auto& key : KnownRunKeys()) {
      if (key.size() <= 2) continue;
      EXPECT_EQ(text.find(key + "="), std::string::npos) << where << ": " << key << " in " << text;
    }
    EXPECT_EQ(text.find("devices"), std::string::npos) << where << ": " << text;
    EXPECT_LE(plan->title.size(), 100u + 3 + e.id.size() + 3) << where;
    // Cluster labels are never cut short of 60 characters (they turn when
    // they do not fit).
    for (const auto& x : plan->x_values) EXPECT_LE(x.size(), 60u) << where << ": tick " << x;
    for (const auto& p : plan->panels) {
      EXPECT_LE(p.series.size(), 6u) << where;
      for (const auto& s : p.series)
        for (size_t x = 0; x < s.recorded.size(); ++x)
          EXPECT_TRUE(!s.recorded[x] || s.y[x]) << where << ": a logbook figure of " << s.name << " at "
                                                << plan->x_values[x] << " has no moelog point beside it";
    }
  }
}

TEST(ChartGolden, EverySeedChartKeepsTheRules) {
  int charts = 0;
  for (const char* seed : {"moe_ep_benchmark_logbook.md", "moe_ep_int8_logbook.md", "example_int8_logbook.md"}) {
    const std::string path = Updated(fs::path(MOELOG_TEST_DATA_DIR) / ".." / "recipes" / seed, "rules");
    CheckStructure(path, &charts);
    fs::remove_all(fs::path(path).parent_path());
  }
  EXPECT_GE(charts, 20);
}

}  // namespace
}  // namespace moelog::logbook
