// The figures stage on printouts that give one run's figures in forms of
// their own: a measurement with its spread, then the rate it makes after an
// arrow; a JMH run's iterations (its warm-up ones no measurements); a
// perf_report's sweep table (the first column the axis, one column per
// provider); a list of one run's samples after a label naming their unit.
#include <gtest/gtest.h>

#include <string>

#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-04-11 09:30 - sweep\n\n";

// The value of the figure's one metric whose name starts with `prefix` (-1: none).
double Named(const RecordedFigure& f, const std::string& prefix) {
  for (const auto& [m, v] : f.run.metrics)
    if (m.rfind(prefix, 0) == 0) return v;
  return -1;
}

std::vector<RecordedFigure> Read(const std::string& body, std::vector<UnreadFigures>* unread = nullptr) {
  return ReadEntry(kHead, body, unread);
}

TEST(ReaderRateSamples, MeasurementWithSpreadThenItsRateAfterAnArrow) {
  const auto figs = Read(
      "```\n$ python gemm_bench.py --n 4096\n"  // 8
      "Mean: 1.907 ± 0.004 ms → 72.1 TFLOPS\n"  // 9
      "```\n");
  const RecordedFigure* f = OnLine(figs, 9);
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_NEAR(f->run.metrics.at("time_s"), 0.001907, 1e-12);
  EXPECT_NEAR(f->run.metrics.at("std_time_s"), 0.000004, 1e-12);  // the spread, a statistic of the mean
  EXPECT_DOUBLE_EQ(f->run.metrics.at("tflops"), 72.1);
  EXPECT_FALSE(f->run.derived.count("tflops"));
  EXPECT_EQ(f->run.config.at("n"), "4096");
}

TEST(ReaderRateSamples, AnArrowBetweenTwoFiguresOfOneMetricIsNoRate) {
  const auto figs = Read("```\n$ python gemm_bench.py\nMean: 1.907 ms -> 1.512 ms\n```\n");
  for (const auto& f : figs) EXPECT_FALSE(f.run.metrics.count("time_s") && f.run.metrics.count("tflops"));
}

TEST(ReaderRateSamples, JmhIterationsAreSamplesOfTheResultAndWarmupsNoFigures) {
  std::vector<UnreadFigures> unread;
  const auto figs = Read(
      "```\n$ java -jar bench.jar Hash\n"             // 8
      "# Warmup Iteration   1: 5120.331 ops/ms\n"     // 9
      "Iteration   1: 6001.250 ops/ms\n"              // 10
      "Iteration   2: 6013.870 ops/ms\n"              // 11
      "\n"                                            // 12
      "Result \"bench.Hash.murmur\":\n"               // 13
      "  6007.560 ±(99.9%) 39.870 ops/ms [Average]\n"  // 14
      "```\n",
      &unread);
  EXPECT_EQ(OnLine(figs, 9), nullptr);
  ASSERT_EQ(figs.size(), 1u);
  const RecordedFigure* r = OnLine(figs, 14);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(OnLine(figs, 10), r);
  EXPECT_EQ(OnLine(figs, 11), r);
  EXPECT_NEAR(Named(*r, "iteration_1_"), 6001250, 1e-6);  // kept per second, shown as written
  EXPECT_NEAR(Named(*r, "iteration_2_"), 6013870, 1e-6);
  bool warmup_listed = false;
  for (const auto& u : unread) warmup_listed = warmup_listed || u.line == 9;
  EXPECT_TRUE(warmup_listed);
}

TEST(ReaderRateSamples, JmhIterationsWithoutAResultAreOneRun) {
  const auto figs = Read("```\n$ java -jar bench.jar Hash\nIteration   1: 812.5 us/op\nIteration   2: 809.1 us/op\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_NEAR(Named(figs[0], "iteration_2_"), 0.0008091, 1e-12);
}

TEST(ReaderRateSamples, PerfReportSweepTableOneColumnPerProvider) {
  const auto figs = Read(
      "Bandwidth in GB/s.\n\n"                          // 7
      "```\n$ python softmax_bench.py\n"              // 10
      "softmax-performance:\n"                        // 11
      "        N     Torch    Fused\n"                // 12
      "0   1024.0  512.000  980.250\n"                 // 13
      "1   2048.0  640.125  1101.500\n"                // 14
      "```\n");
  ASSERT_EQ(figs.size(), 4u);
  const RecordedFigure* a = OnLine(figs, 13);
  ASSERT_NE(a, nullptr);
  for (const auto& f : figs) {
    EXPECT_TRUE(f.run.config.count("provider")) << f.line;
    EXPECT_FALSE(f.run.config.count("0")) << f.line;  // the row's index is no key
  }
  EXPECT_EQ(figs[0].run.config.at("n"), "1024.0");
  EXPECT_EQ(figs[0].run.config.at("provider"), "Torch");
  ASSERT_EQ(figs[1].run.units.size(), 1u);
  EXPECT_EQ(figs[1].run.units.begin()->second, "GB/s");  // the unit the text above names
  EXPECT_EQ(figs[1].run.decimals.begin()->second, 3);
  EXPECT_EQ(figs[1].run.config.at("provider"), "Fused");
  EXPECT_EQ(figs[0].run.config.at("benchmark"), "softmax-performance");
}

TEST(ReaderRateSamples, SamplesAfterALabelNamingTheirUnitAreOneRow) {
  const auto figs = Read("Three back-to-back runs of the load script.\n\nRaw throughput (req/s): 4120, 4188, 4097\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(Named(figs[0], "run_1_"), 4120);
  EXPECT_DOUBLE_EQ(Named(figs[0], "run_2_"), 4188);
  EXPECT_DOUBLE_EQ(Named(figs[0], "run_3_"), 4097);
}

TEST(ReaderRateSamples, ProfilerMetricRowsUnderARuleWithoutAHeader) {
  const auto figs = Read(
      "```\n$ ncu --metrics sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum ./scan\n"  // 8
      "  scan_kernel(int*, int) (128, 1, 1)x(512, 1, 1), Context 1, Stream 7\n"                               // 9
      "    Section: Command line profiler metrics\n"                                                           // 10
      "    ------------------------------------------------ ----------- ------------\n"                       // 11
      "    gpu__time_duration.sum                               usecond        84.35\n"                       // 12
      "    sm__throughput.avg.pct_of_peak_sustained_elapsed           %        62.10\n"                       // 13
      "    ------------------------------------------------ ----------- ------------\n"                       // 14
      "```\n");
  const RecordedFigure* t = OnLine(figs, 12);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->run.metrics.size(), 1u);
  EXPECT_NEAR(t->run.metrics.begin()->second, 84.35e-6, 1e-12);  // usecond: the unit column's
  EXPECT_NE(OnLine(figs, 13), nullptr);
  EXPECT_EQ(OnLine(figs, 11), nullptr);
}

TEST(ReaderRateSamples, AFigureSharedByTwoThingsWrittenOnce) {
  std::vector<UnreadFigures> unread;
  const auto figs = Read("```bash\npython bench.py\n```\n\nFused and split paths tie after the fix (0.212 ms both).\n", &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.000212, 1e-12);
}

TEST(ReaderRateSamples, AnAsideWithoutASharedWordStaysAnAside) {
  const auto figs = Read("```bash\npython bench.py\n```\n\nFused path is faster now (0.212 ms in the old build).\n");
  EXPECT_TRUE(figs.empty());
}

}  // namespace
}  // namespace moelog::logbook::reader
