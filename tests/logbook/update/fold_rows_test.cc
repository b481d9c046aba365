#include "logbook/update/fold_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace moelog::logbook {
namespace {

TableRow Modeled(const std::string& pm, const std::string& strategy, const std::string& dist, double tflops) {
  TableRow r;
  r.config = {{"parallel_mode", pm}, {"routing_pack_strategy", strategy}, {"distribution", dist}, {"topk", "2"}};
  r.metrics = {{"tflops", tflops}, {"time_s", 1.0 / tflops}};
  r.target = "v5p";
  r.cal_key = "hillclimb";
  return r;
}

RecordedFigure Figure(const std::string& pm, const std::string& strategy, double tflops) {
  RecordedFigure f;
  f.run.config = {{"parallel_mode", pm}, {"routing_pack_strategy", strategy}, {"distribution", "random"}, {"topk", "2"}};
  f.run.metrics = {{"tflops", tflops}};
  return f;
}

// A harness run without --distribution runs both distributions: eight
// configurations modeled twice. Its Result "(random distribution)" names
// one: eight rows, and a note for the distribution left out.
std::vector<TableRow> PackAb() {
  std::vector<TableRow> rows;
  for (const char* pm : {"none", "ep"})
    for (const char* s : {"argsort", "tuple_sort"})
      for (const char* d : {"random", "runs"}) {
        // The model tells the strategies apart without EP only.
        const double t = std::string(pm) == "ep" ? 146.0 : std::string(s) == "argsort" ? 107.7 : 107.3;
        rows.push_back(Modeled(pm, s, d, t));
      }
  return rows;
}

TEST(FoldRows, AResultNamingOneDistributionSelectsIt) {
  std::vector<TableRow> rows = PackAb();
  const std::vector<RecordedFigure> figures = {Figure("none", "argsort", 99.6), Figure("none", "tuple_sort", 98.4),
                                               Figure("ep", "argsort", 144.3), Figure("ep", "tuple_sort", 144.8)};
  const auto notes = FoldIndistinctRows(&rows, figures);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& r : rows) EXPECT_EQ(r.config.at("distribution"), "random");
  // The Result tells the EP strategies apart: two rows, not one.
  EXPECT_EQ(rows[2].config.at("routing_pack_strategy"), "argsort");
  EXPECT_EQ(rows[3].config.at("routing_pack_strategy"), "tuple_sort");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("distribution=runs not shown"), std::string::npos) << notes[0];
  // In any order, and whatever else the runs' metrics hold (group sizes):
  // the Result's selection comes before folding what it leaves alike.
  std::vector<TableRow> reversed = PackAb();
  std::reverse(reversed.begin(), reversed.end());
  for (auto& r : reversed) r.metrics["max_group_rows"] = r.config["distribution"] == "runs" ? 900 : 300;
  FoldIndistinctRows(&reversed, figures);
  ASSERT_EQ(reversed.size(), 4u);
  for (const auto& r : reversed) EXPECT_EQ(r.config.at("distribution"), "random");
}

TEST(FoldRows, RowsNothingTellsApartAreOneRowNamingTheirValues) {
  std::vector<TableRow> rows = PackAb();
  const auto notes = FoldIndistinctRows(&rows, {});
  // Every row stands for both distributions: a note says so (no column would).
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("each row stands for distribution random, runs"), std::string::npos) << notes[0];
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].config.at("distribution"), "random, runs");
  EXPECT_EQ(rows[0].config.at("routing_pack_strategy"), "argsort");
  EXPECT_EQ(rows[2].config.at("parallel_mode"), "ep");
  EXPECT_EQ(rows[2].config.at("routing_pack_strategy"), "argsort, tuple_sort");
  EXPECT_EQ(rows[2].config.at("distribution"), "random, runs");
}

// Measured rows, failed rows and rows of different figures never fold.
TEST(FoldRows, MeasuredFailedAndDifferentRowsStay) {
  std::vector<TableRow> rows = {Modeled("none", "argsort", "random", 10), Modeled("none", "argsort", "runs", 10),
                                Modeled("ep", "argsort", "random", 10), Modeled("ep", "argsort", "runs", 11)};
  rows[0].target = rows[1].target = "cpu";
  rows[2].status = "failed";
  EXPECT_TRUE(FoldIndistinctRows(&rows, {}).empty());
  EXPECT_EQ(rows.size(), 4u);
}

}  // namespace
}  // namespace moelog::logbook
