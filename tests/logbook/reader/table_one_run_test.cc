// The table stage: the figures of one run written on lines of their own
// (bullets under one command, consecutive prose lines) are one row when
// nothing tells the lines' runs apart; lines that each name a
// configuration stay rows of their own.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const std::string kHead = "# Serving notes\n\n## 2026-04-09 int4 decode\n\n";

TEST(ReaderTableOneRun, BulletsOfOneRunAreOneRow) {
  const auto figs = ReadEntry(kHead,
                              "```\npython serve_bench.py --model llama-8b --concurrency 4\n```\n\n"
                              "- decode rate: 63.5 tok/s\n"
                              "- first token: 240 ms\n"
                              "- resident memory: 9.4 GB\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 9);
  EXPECT_EQ(figs[0].run.metrics.size(), 3u);
  EXPECT_EQ(figs[0].joined_lines, (std::vector<int>{10, 11}));
}

TEST(ReaderTableOneRun, BulletsThatNameAConfigStayRows) {
  const auto figs = ReadEntry(kHead,
                              "```\npython serve_bench.py --model llama-8b\n```\n\n"
                              "- concurrency=4: 63.5 tok/s\n"
                              "- concurrency=16: 210.2 tok/s\n");
  EXPECT_EQ(figs.size(), 2u);
}

TEST(ReaderTableOneRun, TwoFiguresOfOneMetricStayRows) {
  // Two timings and nothing naming each: not one run's figures.
  const auto figs = ReadEntry(kHead,
                              "```\npython serve_bench.py --model llama-8b\n```\n\n"
                              "- 63.5 tok/s\n"
                              "- 64.1 tok/s\n");
  EXPECT_NE(figs.size(), 1u);
}

TEST(ReaderTableOneRun, ConsecutiveProseLinesOfOneRunAreOneRow) {
  const auto figs = ReadEntry(kHead,
                              "Ran `python serve_bench.py --model llama-8b --concurrency 8`.\n\n"
                              "Decode rate came to 88.0 tok/s.\n"
                              "First-token latency was 310 ms.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

TEST(ReaderTableOneRun, LinesApartStayRows) {
  // A paragraph between them: separate statements, maybe separate runs.
  const auto figs = ReadEntry(kHead,
                              "Ran `python serve_bench.py --model llama-8b --concurrency 8`.\n\n"
                              "Decode rate came to 88.0 tok/s.\n\n"
                              "With the prompt cache warmed, first-token latency was 290 ms.\n");
  EXPECT_EQ(figs.size(), 2u);
}

TEST(ReaderTableOneRun, BulletsNamingWhatEachMeasuresStayRows) {
  // Each bullet a process's share: one metric of several processes.
  const auto figs = ReadEntry(kHead,
                              "```\npython serve_bench.py --model llama-8b\n```\n\n"
                              "- `gateway`: `71.5% CPU`\n"
                              "- `worker`: `240.2% CPU`\n");
  EXPECT_EQ(figs.size(), 2u);
}

TEST(ReaderTableOneRun, AFigureAtAPointOfTheRunStaysItsOwnRow) {
  const auto figs = ReadEntry(kHead,
                              "```\npython train_small.py --steps 900\n```\n\n"
                              "- Throughput was 14100 tok/s at step 300\n"
                              "- Peak memory 21.5 GB\n");
  EXPECT_EQ(figs.size(), 2u);
}

TEST(ReaderTableOneRun, LabelsNameTheRunsOfOneMetricApart) {
  // "Decode time" / "Prefill time": the words before the metric's word name each line's run.
  const auto figs = ReadEntry(kHead,
                              "Ran the bench.\n\n"
                              "- Decode time: 12.1 ms\n"
                              "- Prefill time: 3.4 ms\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("case"), "Decode");
  EXPECT_EQ(figs[1].run.config.at("case"), "Prefill");
}

TEST(ReaderTableOneRun, LabelsThatNameNoRunLeaveTheLinesAlone) {
  // Labels that say the same ("Time" twice), or no metric's word: nothing named.
  const auto figs = ReadEntry(kHead,
                              "Ran the bench.\n\n"
                              "- Time: 12.1 ms\n"
                              "- time: 3.4 ms\n");
  for (const auto& f : figs) EXPECT_EQ(f.run.config.count("case"), 0u);
}

// A browser benchmark's record written as camel-case keys with the unit as
// their last part ("`parseMs`", "`longTasks.sumMs`"): each key names its
// metric, in milliseconds, and the keys are fields of one record whatever
// their first words; a key's bare count among them is a field too.
TEST(ReaderTableOneRun, CamelCaseKeysOfOneRecordAreOneRow) {
  const auto figs = ReadEntry(kHead,
                              "```\nnode scripts/bench.mjs lazy\n```\n\n"
                              "Result:\n"
                              "- `parseMs`: `1680.2`\n"
                              "- `renderMs`: `62.4`\n"
                              "- `nodes`: `677`\n"
                              "- `longTasks.sumMs`: `1684`\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto& m = figs[0].run.metrics;
  EXPECT_EQ(m.size(), 4u) << ::testing::PrintToString(m);
  EXPECT_EQ(m.count("nodes"), 1u) << ::testing::PrintToString(m);  // a count among the record's keys
  EXPECT_EQ(figs[0].run.config.count("case"), 0u);
  EXPECT_TRUE(m.count("parse_time_s")) << ::testing::PrintToString(m);
  EXPECT_TRUE(m.count("render_time_s")) << ::testing::PrintToString(m);
  EXPECT_NEAR(m.at("parse_time_s"), 1.6802, 1e-9);
}

// A list of settings written as keys names no record: its bare numbers
// are no figures.
TEST(ReaderTableOneRun, KeysOfSettingsAloneAreNoRecord) {
  const auto figs = ReadEntry(kHead,
                              "```\nnode scripts/bench.mjs lazy\n```\n\n"
                              "- `pages`: `520`\n"
                              "- `workers`: `4`\n");
  EXPECT_TRUE(figs.empty());
}

// Plain labels of two runs' figures stay rows: only record keys join.
TEST(ReaderTableOneRun, PlainLabelsWithAnItemBetweenStayRows) {
  const auto figs = ReadEntry(kHead,
                              "```\npython serve_bench.py --model llama-8b\n```\n\n"
                              "- eager: 12.5 ms\n"
                              "- note: warm cache\n"
                              "- compiled: 8.1 ms\n");
  EXPECT_EQ(figs.size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook::reader
