// Reader stage table, cells of named statistics ("avg: 12.5 ms, std: 2.1
// ms, max: 18.0 ms"): one row's figures, each under its statistic's name.
#include <gtest/gtest.h>

#include "logbook/reader/table_statcells.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(TableStatCells, AListOfNamedStatistics) {
  const auto stats = NamedStatistics("avg: 4.5 ms, std: 0.8 ms, max: 7.0 ms");
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].first, "avg");
  EXPECT_EQ(stats[2].second, "7.0 ms");
  EXPECT_EQ(NamedStatistics("median 220 us, p99 410 us").size(), 2u);
  EXPECT_TRUE(NamedStatistics("avg: 4.5 ms").empty());                // one statistic is a figure
  EXPECT_TRUE(NamedStatistics("avg: 4.5 ms, size: 12 MB").empty());   // not a statistic
  EXPECT_TRUE(NamedStatistics("avg: 4.5 ms, max: 90 GB/s").empty());  // two metrics
  EXPECT_TRUE(NamedStatistics("fast, small").empty());
}

TEST(TableStatCells, EachRowsStatisticsAreItsFigures) {
  const auto figs = ReadEntry("# Build timings\n\n",
                              "## 2026-02-11 checker phases\n\n| phase | checker |\n|---|---|\n"
                              "| scope | avg: 44.0 ms, std: 6.5 ms, min: 31.0 ms, max: 60.0 ms |\n"
                              "| emit | avg: 120.4 ms, std: 9.9 ms, min: 101.0 ms, max: 150.0 ms |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("avg_time_s"), 44.0e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("max_time_s"), 60.0e-3, 1e-12);
  EXPECT_EQ(figs[0].run.decimals.at("std_time_s"), 1);
  EXPECT_NEAR(figs[1].run.metrics.at("min_time_s"), 101.0e-3, 1e-12);
  EXPECT_NE(figs[0].run.config, figs[1].run.config);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A figure with the count of calls it sums ("212 ms, 4096 calls"): the
// figure is read, the count is no figure.
TEST(TableStatCells, ACountAfterAFigureIsNoPartOfIt) {
  EXPECT_EQ(WithoutCount("212 ms, 4096 calls"), "212 ms");
  EXPECT_EQ(WithoutCount("4.1 s, 20 runs"), "4.1 s");
  EXPECT_EQ(WithoutCount("212 ms, fast"), "212 ms, fast");
  EXPECT_EQ(WithoutCount("1, 2 calls ago"), "1, 2 calls ago");
  const auto figs = ReadEntry("# Driver notes\n\n",
                              "## 2026-02-12 unmap path\n\n| call | before | after |\n|---|--:|--:|\n"
                              "| `munmap` | **212 ms**, 4096 calls | 9 ms, 80 calls |\n");
  ASSERT_EQ(figs.size(), 2u);
  std::set<double> values;
  for (const auto& f : figs) values.insert(std::round(f.run.metrics.at("time_s") * 1e3));
  EXPECT_EQ(values, (std::set<double>{9, 212}));
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

TEST(TableStatCells, ACountPerSecondIsARate) {
  UnitInfo info{};
  ASSERT_TRUE(CountPerSecond("inf/s", &info));
  EXPECT_EQ(info.metric, "inf_per_s");
  EXPECT_TRUE(CountPerSecond("frames/sec", &info));
  EXPECT_FALSE(CountPerSecond("ms/step", &info));
  EXPECT_FALSE(CountPerSecond("x/s", &info));
  EXPECT_FALSE(CountPerSecond("b2/s", &info));
}

// Columns of rates in a unit the vocabulary does not know, one per batch
// ("Batch-4 | Batch-32"): each its own run of the row, batch=<n>; a "N/A"
// cell is no remark that keeps the column from being read.
TEST(TableStatCells, BatchColumnsOfCountRatesAreRunsOfTheirOwn) {
  const auto figs = ReadEntry("# Inference notes\n\n",
                              "## 2026-03-09 cpu runtime\n\n| Model | Single | Rate | Batch-4 | Batch-32 |\n"
                              "|---|---|---|---|---|\n| small | 40 ms | 25.0 frm/s | 61.2 seq/s | 70.4 seq/s |\n"
                              "| large | 90 ms | 11.1 frm/s | 20.5 seq/s | N/A |\n");
  ASSERT_EQ(figs.size(), 5u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("frm_per_s"), 25.0);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.040, 1e-12);
  std::set<std::string> batches;
  for (const auto& f : figs) {
    if (f.run.config.count("batch")) batches.insert(f.run.config.at("batch"));
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(v.find("seq/s"), std::string::npos) << k;
  }
  EXPECT_EQ(batches, (std::set<std::string>{"4", "32"}));
}

}  // namespace
}  // namespace moelog::logbook::reader
