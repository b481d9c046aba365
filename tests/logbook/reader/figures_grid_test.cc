// Reader stage figures: scaling grids of distributed-training reports (rows
// of setups, columns of nodes x GPUs): the unit stated in the heading's words
// ("Tokens processed per second"), cells holding two figures side by side
// (`812.40 seq/s  3.10 tflops/gpu`) and cells of stacked figures
// (`0.52 seq/s<br>1.22 tflops/gpu<br>30.1/80GB/gpu`).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

// The metric names of a figure set's run.
std::string Metrics(const RecordedFigure& f) {
  std::string out;
  for (const auto& [k, v] : f.run.metrics) out += k + "=" + std::to_string(v) + " ";
  return out;
}

// A grid of bare numbers under a heading that names its rate in words: the
// cells are that rate, each (row, column) its own run.
TEST(FiguresGrid, AHeadingNamingARateInWordsGivesAGridOfBareNumbersItsUnit) {
  const auto figs = ReadEntry("# Sequences processed per second\n\n",
                              "| setup \\ nodes * gpus | 1*1 | 1*8 | 2*8 |\n|---|---|---|---|\n"
                              "| gpt 1.3b | 21.5 | 160.2 | 301.7 |\n| gpt 1.3b with zero2 | 12.9 | 88.1 | 170.3 |\n"
                              "| gpt 13b | OOM | OOM | 4.4 |\n");
  ASSERT_EQ(figs.size(), 7u);
  for (const auto& f : figs) EXPECT_NE(Metrics(f).find("seq"), std::string::npos) << Metrics(f);
}

// A cell holding two figures of different units side by side, spaces between
// (`812.40 seq/s  3.10 tflops/gpu`): both are the cell's run; a cell of units
// without numbers (a template left unfilled) is none.
TEST(FiguresGrid, ACellOfTwoFiguresSideBySideGivesBoth) {
  const auto figs = ReadEntry("# Scaling of gpt 1.3b\n\n",
                              "| setup \\ nodes * gpus | 1*8 | 2*8 |\n|---|---|---|\n"
                              "| gpt 1.3b (tp=1) | 812.40 seq/s  3.10 tflops/gpu | 1590.22 seq/s  3.04 tflops/gpu |\n"
                              "| gpt 1.3b (tp=2) | 430.05 seq/s  1.71 tflops/gpu |  seq/s  tflops/gpu |\n");
  ASSERT_EQ(figs.size(), 3u);
  for (const auto& f : figs) {
    EXPECT_EQ(f.run.metrics.size(), 2u) << Metrics(f);
    EXPECT_NE(Metrics(f).find("tflops"), std::string::npos) << Metrics(f);
  }
}

// The spaced slash between figures stays a separator when spaces pad it
// (`21.40us /  815.10 GB/s`, an aligned column): both figures, not none.
TEST(FiguresGrid, ASlashPaddedWithSpacesStillSeparatesTwoFigures) {
  const auto figs = ReadEntry("# Fused MLP timings\n\n",
                              "Kernel     | A100        | H100\n-----------|-------------|-----------\n"
                              "eager      | 21.40us /  815.10 GB/s | 11.02us /  1580.33 GB/s\n"
                              "fused      | 17.25us / 1011.72 GB/s |  8.91us /  1954.60 GB/s\n");
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) EXPECT_EQ(f.run.metrics.size(), 2u) << Metrics(f);
}

// Stacked cells (`<br>` between figures: rate, tflops, used/total memory)
// in a grid whose other columns are all OOM: each filled cell one run, its
// figures read, the memory used of the total its own figure.
TEST(FiguresGrid, StackedCellsBesideOomColumnsAreRuns) {
  const auto figs = ReadEntry("# Scaling of gpt 20b\n\n",
                              "| setup \\ nodes * gpus | 2*8 | 4*8 |\n|---|---|---|\n"
                              "| zero1<br>tp=8 | OOM | 1.12 seq/s<br>2.05 tflops/gpu<br>61.3/80GB/gpu<br>91% |\n"
                              "| zero3<br>tp=4 | OOM | 0.95 seq/s<br>1.81 tflops/gpu<br>70.2/80GB/gpu<br>88% |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) EXPECT_GE(f.run.metrics.size(), 3u) << Metrics(f);
}

}  // namespace
}  // namespace moelog::logbook::reader
