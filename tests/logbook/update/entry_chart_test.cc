#include "logbook/update/entry_chart.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

TEST(EntryChart, SeedSweepsAndABsGetCharts) {
  fs::path dir = fs::path(testing::TempDir()) / "moelog_hooks";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string src = std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/moe_ep_benchmark_logbook.md";
  const std::string path = (dir / "ep.md").string();
  fs::copy_file(src, path);
  auto lb = LoadLogbook(path);
  ASSERT_TRUE(lb.ok());
  int lines = 0, bars = 0;
  for (const auto& e : lb->entries) {
    const bool topk = e.label.find("Top-k") != std::string::npos, width = e.label.find("Width") != std::string::npos;
    const bool ab = e.label.find("Remat") != std::string::npos || e.label.find("Backend A/B") != std::string::npos;
    if (!topk && !width && !ab) continue;
    auto chart = ChartForEntry(path, e, {});
    ASSERT_TRUE(chart.ok()) << e.id << ": " << chart.status().ToString();
    EXPECT_GT(fs::file_size(chart->files.chart), 1000u) << e.id;
    EXPECT_NE(chart->markdown.find("(figures/ep/" + e.id + ".svg)"), std::string::npos);
    auto gp = ReadFile(chart->files.script);
    ASSERT_TRUE(gp.ok());
    (gp->find("with boxes") != std::string::npos ? bars : lines)++;
    // Nothing written when draw is false, same link; the chart is current
    // for the stamp it was drawn with.
    ChartDraw dry_how;
    dry_how.write = false;
    dry_how.recorded = chart->files.stamp;
    auto dry = ChartForEntry(path, e, {}, {}, dry_how);
    ASSERT_TRUE(dry.ok());
    EXPECT_EQ(dry->markdown, chart->markdown);
    EXPECT_TRUE(dry->files.current);
    EXPECT_EQ(FindChartStamp(chart->markdown), chart->files.stamp);
  }
  EXPECT_GE(lines, 3);  // two top-k sweeps and the width sweep
  EXPECT_GE(bars, 2);   // remat and backend A/Bs
  // An entry without figures has no chart.
  EXPECT_EQ(ChartForEntry(path, lb->entries.front(), {}).status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace moelog::logbook
