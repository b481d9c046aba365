// A load-test report written summary first (its summary table, then a key
// figures table, then the detailed runs, then findings and its
// configuration): the tables that repeat figures above are no runs, and the
// section of the settings used is none either (classify.cc,
// sections.json).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "logbook/reader/internal.h"
#include "logbook/reader/segment.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

// A section naming the test's configuration (`## Test configuration`, `##
// 📝 测试配置`) states the settings the runs used: no entry.
TEST(ClassifyReportRecaps, ATestConfigurationSectionIsNoEntry) {
  EXPECT_TRUE(IsReservedSectionName("Test configuration"));
  EXPECT_TRUE(IsReservedSectionName("\xF0\x9F\x93\x9D \xE6\xB5\x8B\xE8\xAF\x95\xE9\x85\x8D\xE7\xBD\xAE"));  // 📝 测试配置
  const std::set<int> kept = KeptLines(
      "# Search API load test\n\n## Runs\n\n| case | QPS | p50 |\n|---|---|---|\n| cached | 2,410 | 18.21ms |\n\n"
      "## Test configuration\n\n```yaml\nthreads: 8\nconnections: 200\nduration: 60s\n```\n");
  EXPECT_EQ(kept, (std::set<int>{7}));
}

// The key figures table under the summary repeats the summary's rows
// (rounded: `95ms` of 94.62ms): no run of its own; a later section's table
// repeating them, one of its figures of two digits only, restates them too.
TEST(ClassifyReportRecaps, ATableRepeatingTheSummarysRowsIsNoRun) {
  const std::string doc =
      "# Search API load test\n\n## Results of the runs\n\n"
      "| test | endpoint | QPS | avg latency |\n|---|---|---|---|\n"
      "| T1 | GET /search | 2,410 | 41.37ms |\n| T2 | GET /suggest | 733 | 94.62ms |\n\n"  // 7, 8
      "### Key figures\n\n| endpoint | QPS | avg latency |\n|---|---|---|\n"
      "| GET /search | 2,410 | 41ms |\n| GET /suggest | 733 | 95ms |\n\n"  // 14, 15
      "## Findings\n\n| endpoint | QPS | avg latency | bottleneck |\n|---|---|---|---|\n"
      "| GET /search | 2,410 | 41ms | index scan |\n";  // 21
  EXPECT_EQ(KeptLines(doc), (std::set<int>{7, 8}));
}

// Near miss: a second table of the same entry that measures new runs (one
// figure equal by chance) is the entry's own.
TEST(ClassifyReportRecaps, ASecondTableOfNewRunsStays) {
  const std::string doc =
      "# Search API load test\n\n## Runs\n\n"
      "| test | endpoint | QPS | avg latency |\n|---|---|---|---|\n"
      "| T1 | GET /search | 2,410 | 41.37ms |\n| T2 | GET /suggest | 733 | 94.62ms |\n\n"
      "### With cache\n\n| endpoint | QPS | avg latency |\n|---|---|---|\n"
      "| GET /search | 5,102 | 41.37ms |\n| GET /suggest | 1,988 | 30.05ms |\n";
  EXPECT_EQ(KeptLines(doc), (std::set<int>{7, 8, 14, 15}));
  // A group's table of one row whose one figure equals one above: no recap.
  const std::string groups =
      "# Web frameworks\n\n## Runs\n\n| solon 1.2 | size | QPS |\n|---|---|---|\n| solon(jetty) | 2.2m | 12.3\xE4\xB8\x87 |\n"
      "| solon(undertow) | 4.5m | 12.0\xE4\xB8\x87 |\n\n| jfinal 4.9 | size | QPS |\n|---|---|---|\n| jfinal(undertow) | 4.4m | 12.3\xE4\xB8\x87 |\n";
  EXPECT_EQ(KeptLines(groups), (std::set<int>{7, 8, 12}));
}

// Later sections' tables that repeat an earlier section's figures: a row of
// two figures, one of three digits (`2,410 | 41ms`), and a figure under a
// column qualified by words the reader does not know (`当前 QPS`: current)
// restate the runs above. Near miss: a row whose latency is new is a run.
TEST(ClassifyReportRecaps, LaterSectionsRepeatingARowOrAQualifiedColumnRestateIt) {
  const std::string head =
      "# Search API load test\n\n## 1. Results of the runs\n\n| test | endpoint | QPS | avg latency |\n|---|---|---|---|\n"
      "| T1 | GET /search | 2,410 | 41.37ms |\n| T2 | GET /suggest | 733 | 94.62ms |\n\n";
  const std::string doc = head +
      "## 2. Gateway cost\n\n| endpoint | QPS | avg latency | bottleneck |\n|---|---|---|---|\n"
      "| GET /search | 2,410 | 41ms | index scan |\n\n"
      "## 3. Cache potential\n\n| endpoint | \xE5\xBD\x93\xE5\x89\x8D QPS | expected QPS |\n|---|---|---|\n"
      "| GET /suggest | 733 | 5,000+ |\n";
  EXPECT_EQ(KeptLines(doc), (std::set<int>{7, 8}));
  const std::string again = head +
      "## 2. Gateway cost\n\n| endpoint | QPS | avg latency | bottleneck |\n|---|---|---|---|\n"
      "| GET /search | 2,410 | 57ms | index scan |\n";
  EXPECT_EQ(KeptLines(again), (std::set<int>{7, 8, 14}));
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A printed line whose label names what a change saves or gains (`Savings:
// 54%` under a worked cost comparison) states a difference, no run; a
// printed share of another name (`Hit rate: 54%`) is the run's figure.
TEST(ClassifyReportRecaps, APrintedSavingsLineIsDerived) {
  const std::string head = "# Cost notes\n\n## Routing\n\n```\nRouted to small model: 61%\n";
  EXPECT_EQ(KeptLines(head + "Savings: 54%\n```\n").count(7), 0u);
  EXPECT_EQ(KeptLines(head + "Hit rate: 54%\n```\n").count(7), 1u);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A memory amount labelled a limit or a quota (`Memory limit: 512MB` among a
// container's resource settings) is what the run was allowed, no reading;
// the memory it used is one.
TEST(ClassifyReportRecaps, AMemoryLimitIsNoReading) {
  const std::string head = "# Container tuning\n\n## Run 2\n\n";
  EXPECT_EQ(KeptLines(head + "- Memory limit: 512MB\n- Memory quota per pod: 2 GiB\n").size(), 0u);
  EXPECT_EQ(KeptLines(head + "- Memory used: 498MB\n"), (std::set<int>{5}));
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A utilization seen in a monitor while the benchmark ran ("I see 100% GPU
// utilization in nvidia-smi") is the device's state, no figure of the run;
// a utilization the benchmark reports is one.
TEST(ClassifyReportRecaps, AUtilizationSeenInAMonitorIsNoRunsFigure) {
  const std::string head = "# Kernel notes\n\n## Fused softmax\n\n";
  EXPECT_EQ(KeptLines(head + "While the sweep runs, htop shows 100% CPU utilization on every core.\n").size(), 0u);
  EXPECT_EQ(KeptLines(head + "While the sweep runs, nvidia-smi reports 97% GPU utilization.\n").size(), 0u);
  EXPECT_EQ(KeptLines(head + "The fused kernel reached 71% SM utilization in the profile.\n"), (std::set<int>{5}));
}

}  // namespace
}  // namespace moelog::logbook::reader
