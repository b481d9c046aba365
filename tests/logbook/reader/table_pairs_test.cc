// Reader stage table, shared-unit cells: a header's slash list names each
// number of its cells ("fwd / bwd" over "7.48 / 5.05 ms").
#include <gtest/gtest.h>

#include "logbook/reader/table_pairs.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char kHead[] = "# Kernel notes\n\n";

TEST(TablePairs, SlashNamesOfAHeader) {
  EXPECT_EQ(SlashNames("fwd / bwd"), (std::vector<std::string>{"fwd", "bwd"}));
  EXPECT_EQ(SlashNames("p50/p99 latency (ms)"), (std::vector<std::string>{"p50", "p99"}));
  EXPECT_EQ(SlashNames("**before/after**"), (std::vector<std::string>{"before", "after"}));
  EXPECT_TRUE(SlashNames("tok/s").empty());
  EXPECT_TRUE(SlashNames("time (ms/step)").empty());
  EXPECT_TRUE(SlashNames("ms/step").empty());
  EXPECT_TRUE(SlashNames("kernel").empty());
}

// Parts of one run ("fwd / bwd"): one figure set per row, each part named.
TEST(TablePairs, PhasesOfOneRunShareTheUnitAfterTheLast) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-05-01 norm kernels\n\n| kernel | fwd / bwd |\n|---|---|\n"
                              "| reference | 6.12 / 9.80 ms |\n| fused | 2.05 / 3.31 ms |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("fwd_time_s"), 6.12e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("bwd_time_s"), 9.80e-3, 1e-12);
  EXPECT_EQ(figs[0].run.units.at("bwd_time_s"), "ms");
  EXPECT_EQ(figs[0].run.decimals.at("bwd_time_s"), 2);
  EXPECT_NEAR(figs[1].run.metrics.at("fwd_time_s"), 2.05e-3, 1e-12);
  EXPECT_NE(figs[0].run.config, figs[1].run.config);
}

// Statistics ("p50/p99 (ms)") over bare numbers: the header's unit.
TEST(TablePairs, StatisticsInTheHeadersUnit) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-05-02 server latency\n\n| batch | p50/p99 (ms) |\n|---|---|\n"
                              "| 1 | 11/38 |\n| 8 | 19/61 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("p50_time_s"), 11e-3, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("p99_time_s"), 38e-3, 1e-12);
  EXPECT_NEAR(figs[1].run.metrics.at("p99_time_s"), 61e-3, 1e-12);
}

// "before / after": two runs of each row, its two sides.
TEST(TablePairs, BeforeAndAfterAreTwoRuns) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-05-03 allocator patch\n\n| workload | before / after |\n|---|---|\n"
                              "| alloc-heavy | 41.0 / 29.5 us |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 41.0e-6, 1e-12);
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 29.5e-6, 1e-12);
  EXPECT_NE(figs[0].run.config, figs[1].run.config);
}

// Names that are configurations ("eager / compiled"): a run each.
TEST(TablePairs, ConfigurationNamesAreARunEach) {
  const auto figs = ReadEntry(kHead,
                              "## 2026-05-04 compile modes\n\n| model | eager / compiled |\n|---|---|\n"
                              "| small | 12.5 ms / 8.25 ms |\n");
  ASSERT_EQ(figs.size(), 2u);
  std::map<std::string, double> by_variant;
  for (const auto& f : figs) by_variant[f.run.config.at("variant")] = f.run.metrics.at("time_s");
  EXPECT_NEAR(by_variant.at("eager"), 12.5e-3, 1e-12);
  EXPECT_NEAR(by_variant.at("compiled"), 8.25e-3, 1e-12);
}

}  // namespace
}  // namespace moelog::logbook::reader
