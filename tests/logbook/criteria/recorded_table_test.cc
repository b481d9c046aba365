// Results tables as researchers write them, read as recorded runs: statistic
// columns, approximate cells, values of a key as columns, arrow cells.
#include <gtest/gtest.h>

#include <string>

#include "logbook/criteria/recorded.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

std::vector<RecordedFigure> Read(const std::string& body, std::vector<UnreadFigures>* unread = nullptr) {
  const std::string text = "# T\n\n## Log\n\n### 2026-05-01 10:00 - TAB-001: a table\n" + body;
  const Logbook lb = ParseLogbook(text, "t.md");
  EXPECT_EQ(lb.entries.size(), 1u);
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0], "t.md", unread);
}

std::string Cfg(const StoredRun& r, const std::string& k) {
  auto it = r.config.find(k);
  return it == r.config.end() ? "<none>" : it->second;
}

TEST(RecordedTable, ALoneP90HoldsItsNeighboursMetricAndATildeIsApproximate) {
  auto figs = Read(
      "- Command: `python tools/plan_cost.py --reps 10`\n- Result:\n\n"
      "| Part | median ms | p90 |\n|---|---:|---:|\n| plan | 412.6 | 440.1 |\n| meta | ~18.5 | \xE2\x80\x94 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("time_s"), 0.4126);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("p90_time_s"), 0.4401);
  EXPECT_EQ(figs[0].run.units.at("p90_time_s"), "ms");
  EXPECT_EQ(figs[0].run.decimals.at("p90_time_s"), 1);
  EXPECT_EQ(Cfg(figs[0].run, "p90"), "<none>");  // a statistic, not a key
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("time_s"), 0.0185);
  EXPECT_TRUE(figs[1].run.approximate.count("time_s"));
  EXPECT_FALSE(figs[1].run.metrics.count("p90_time_s"));
}

TEST(RecordedTable, CellUnitsKeepTheAuthorsDigitsAndOutcomeColumnsAreNoKeys) {
  auto figs = Read(
      "- Command: `python tools/bench_push.py --impls ring_x,a2a_x`\n- Result:\n\n"
      "| implementation | median fwd | dropped | final loss | Notes |\n|---|---|---|---|---|\n"
      "| ring_x | 27.85 ms | 512 | 6.12 | the reference |\n| a2a_x | 35.10 ms | 512 | 6.13 | slower |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.decimals.at("time_s"), 2);
  EXPECT_EQ(Cfg(figs[0].run, "dropped"), "<none>");
  EXPECT_EQ(Cfg(figs[0].run, "notes"), "<none>");
  EXPECT_EQ(Cfg(figs[0].run, "final_loss"), "<none>");
  EXPECT_EQ(Cfg(figs[0].run, "case"), "<none>");
}

TEST(RecordedTable, ColumnsThatAreValuesOfTheCommandsListAreOneRunPerCell) {
  auto figs = Read(
      "- Command: `python tools/bench_wire.py --modes bf16,fp8 --iters 20`\n- Result:\n\n"
      "| layout | bf16 | fp8 | best speedup |\n|---|---|---|---|\n"
      "| EP16 | 58.90 ms | **42.05 ms** | 1.40x |\n| EP8 x dp2 | 64.12 ms | 55.30 ms (1.16x) | 1.16x |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(Cfg(figs[0].run, "modes"), "bf16");
  EXPECT_EQ(Cfg(figs[1].run, "modes"), "fp8");
  EXPECT_EQ(Cfg(figs[1].run, "layout"), "EP16");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("time_s"), 0.04205);
  EXPECT_EQ(figs[3].run.decimals.at("time_s"), 2);
  // 64.12 / 55.30: the fp8 run's speedup, shown on its row as a derived figure.
  EXPECT_TRUE(figs[3].run.derived.count("speedup"));
  EXPECT_FALSE(figs[2].run.metrics.count("speedup"));
}

TEST(RecordedTable, ValueColumnsThatNameNoUnitAreListed) {
  std::vector<UnreadFigures> unread;
  auto figs = Read(
      "- Command: `python tools/bench_wire.py --iters 20`\n- Result:\n\n"
      "| layout | bf16 | fp8 |\n|---|---|---|\n| EP16 | 58.90 | 42.05 |\n",
      &unread);
  EXPECT_TRUE(figs.empty());
  bool listed = false;
  for (const auto& u : unread) listed = listed || u.why.find("names no unit") != std::string::npos;
  EXPECT_TRUE(listed);
}

TEST(RecordedTable, AnArrowCellIsAControlAndATreatment) {
  auto figs = Read(
      "- Command: `python tools/bench_stage.py --stages dispatch,combine`\n- Result:\n\n"
      "| stage | fwd |\n|---|---|\n| dispatch | 4.812 -> 4.406 ms |\n| combine | 3.120 ms \xE2\x86\x92 3.118 ms |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(Cfg(figs[0].run, "arrow"), "before");
  EXPECT_EQ(Cfg(figs[1].run, "arrow"), "after");
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("time_s"), 0.004812);
  EXPECT_DOUBLE_EQ(figs[3].run.metrics.at("time_s"), 0.003118);
  EXPECT_EQ(figs[0].run.units.at("time_s"), "ms");
}

TEST(RecordedTable, DeviceSecondsAreTheirOwnMetric) {
  auto figs = Read("- Command: `python tools/profile_step.py`\n- Result: the step totaled `7.407 device-seconds`.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("device_time_s"), 7.407);
  EXPECT_FALSE(figs[0].run.metrics.count("time_s"));
}

TEST(RecordedTable, ARepeatListIsOneRunAtItsMedian) {
  std::vector<UnreadFigures> unread;
  auto figs = Read(
      "- Command: `for rep in 1 2 3; do python tools/bench_sort.py --vjp plain; done`\n- Result:\n"
      "  - plain: `88.412`, `88.440`, `88.397` ms\n  - fused: `71.2 ms` and `64.9 ms`\n",
      &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("time_s"), 0.088412);
  ASSERT_EQ(figs[0].run.repeats.at("time_s").size(), 3u);
  EXPECT_EQ(Cfg(figs[0].run, "vjp"), "plain");
  ASSERT_EQ(unread.size(), 1u);  // 71.2 and 64.9 ms are too far apart to be repeats
  // Without a word of repetition, two unnamed figures stay apart.
  EXPECT_TRUE(Read("- Command: `python tools/bench_sort.py`\n- Result:\n  - plain: `88.412`, `88.440` ms\n").empty());
}

TEST(RecordedTable, AFinalTableRestatingEarlierEntriesKeepsOnlyItsNewCells) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-05-01 10:00 - TAB-001: modes\n"
      "- Command: `python tools/bench_wire.py --modes bf16,fp8`\n- Result:\n\n"
      "| mode | ms/step |\n|---|---|\n| bf16 | 58.31 |\n| fp8 | 41.64 |\n\n"
      "### 2026-05-02 10:00 - TAB-002: final table\n\n"
      "Final table (ms/step):\n\n"
      "| scale | bf16 | fp8 |\n|---|---|---|\n| 2 nodes | 58.31 | 41.64 |\n| 4 nodes | 77.45 | 50.81 |\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  std::vector<std::vector<UnreadFigures>> unread;
  auto figs = LogbookFigures(lb, &unread);
  ASSERT_EQ(figs[1].size(), 2u);  // the 4-node cells; the 2-node row restates TAB-001
  EXPECT_EQ(Cfg(figs[1][0].run, "scale"), "4 nodes");
  EXPECT_EQ(Cfg(figs[1][0].run, "modes"), "bf16");  // the earlier entry's key for these words
  EXPECT_EQ(Cfg(figs[1][1].run, "modes"), "fp8");
  ASSERT_EQ(unread[1].size(), 1u);  // the row, listed once
  EXPECT_NE(unread[1][0].why.find("restates a figure of TAB-001"), std::string::npos);
}

// A label column whose header is more than one word ("GPU/CPU bits") keys
// its rows by those words: rows that differ only there stay apart, and no
// empty `case` is keyed in its place.
TEST(RecordedTable, AMultiWordLabelColumnKeysItsRows) {
  auto figs = Read(
      "- Command: `./run_bench --model qa`\n- Result:\n\n"
      "| Model | GPU/CPU bits | Prefill tok/s |\n|---|---|---|\n"
      "| qa-small | INT4/INT4 | 1003 |\n| qa-small | INT8/INT8 | 873.2 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Cfg(figs[0].run, "gpu_cpu_bits"), "INT4/INT4");
  EXPECT_EQ(Cfg(figs[1].run, "gpu_cpu_bits"), "INT8/INT8");
  EXPECT_EQ(Cfg(figs[0].run, "case"), "<none>");
}

}  // namespace
}  // namespace moelog::logbook
