// The table stage: a figure goes on the one row of a table of runs its
// configuration fits.
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

RecordedFigure Fig(std::map<std::string, std::string> config, double tflops) {
  RecordedFigure f;
  f.run.config = std::move(config);
  f.run.metrics["tflops"] = tflops;
  return f;
}

TEST(ReaderTable, AFigureGoesOnTheOneRowItFits) {
  const std::vector<std::map<std::string, std::string>> rows = {{{"topk", "2"}}, {{"topk", "8"}}};
  auto p = PlaceFigures({Fig({{"topk", "8"}}, 140.2)}, rows);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].row, 1);
}

TEST(ReaderTable, AFigureThatFitsSeveralRowsIsUnplaced) {
  const std::vector<std::map<std::string, std::string>> rows = {{{"topk", "2"}}, {{"topk", "8"}}};
  auto p = PlaceFigures({Fig({{"tokens", "4096"}}, 140.2)}, rows);
  EXPECT_EQ(p[0].row, -1);
  EXPECT_EQ(p[0].why, "matches several rows");
}

TEST(ReaderTable, TwoFiguresClaimingOneRowAreBothUnplaced) {
  const std::vector<std::map<std::string, std::string>> rows = {{{"topk", "2"}}};
  auto p = PlaceFigures({Fig({{"topk", "2"}}, 140.2), Fig({{"topk", "2"}}, 150.1)}, rows);
  EXPECT_EQ(p[0].row, -1);
  EXPECT_EQ(p[1].why, "another figure claims its row");
}

TEST(ReaderTable, AVariantWordIsNoRowsConfig) {
  EXPECT_FALSE(FigureFits(Fig({{"variant", "staged"}}, 1).run, {{"topk", "2"}}));
  EXPECT_TRUE(FigureFits(Fig({{"topk", "2"}, {"harness", "x"}}, 1).run, {{"topk", "2"}}));
}


std::vector<RecordedFigure> TableEntryFigures(const std::string& table) {
  const std::string text = "# Log\n\n## 2026-01-02 Sweep\nNotes above the table.\n" + table;
  const Logbook lb = ParseLogbook(text, "t.md");
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0]);
}

// A row keeps every figure of its columns: a unit in the header's
// parentheses or last word (the vocabulary's), a column of the model's
// quality; each row's figures carry the row's own line.
TEST(ReaderTable, ARowKeepsEveryColumnsFigure) {
  const auto figs = TableEntryFigures(
      "| run | tok/sec | TTFT (s) | peak mem (MiB) | total time (min) | Val Loss |\n"
      "|---|---:|---:|---:|---:|---:|\n"
      "| a | 4682 | 5.32 | 18983.58 | 3.00 | 3.2781 |\n"
      "| b | 7852 | 6.16 | 19722.27 | 3.13 | 3.3744 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 7);
  EXPECT_EQ(figs[1].line, 8);
  const auto& m = figs[1].run.metrics;
  EXPECT_EQ(m.size(), 5u);
  EXPECT_DOUBLE_EQ(m.at("tokens_per_s"), 7852);
  EXPECT_DOUBLE_EQ(m.at("memory_mib"), 19722.27);
  EXPECT_DOUBLE_EQ(m.at("val_loss"), 3.3744);
  bool ttft = false, minutes = false;
  for (const auto& [k, v] : m) ttft = ttft || v == 6.16, minutes = minutes || std::abs(v - 3.13 * 60) < 1e-9;
  EXPECT_TRUE(ttft);
  EXPECT_TRUE(minutes);
}

// A column its header calls an estimate ("Speed (est)") holds no run's
// figures, nor the row's configuration.
TEST(ReaderTable, AnEstimateColumnIsNoFigure) {
  const auto figs = TableEntryFigures(
      "| tokens | TTFT | Prefill Speed (est) |\n"
      "|---:|---:|---:|\n"
      "| 4456 | 5.32s | ~838 tok/s |\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 1u);
  EXPECT_FALSE(figs[0].run.metrics.count("tokens_per_s"));
  for (const auto& [k, v] : figs[0].run.config) EXPECT_EQ(v.find("838"), std::string::npos) << k;
}

}  // namespace
}  // namespace moelog::logbook
