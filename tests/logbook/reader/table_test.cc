// The table stage: a figure goes on the one row of a table of runs its
// configuration fits.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace moelog::logbook
