// The blocks stage on printouts drawn with box-drawing characters (rich's
// and tabulate's tables, framed banners), and the figures read from them.
#include "logbook/reader/blocks_boxes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook {
namespace {

TEST(BlocksBoxes, ARowIsItsCellsBetweenBarsAndABorderIsARule) {
  bool rule = false;
  EXPECT_EQ(Unboxed("\xE2\x94\x83 sdpa \xE2\x94\x83 4.41 \xE2\x94\x83", &rule), "sdpa | 4.41");  // ┃ sdpa ┃ 4.41 ┃
  EXPECT_FALSE(rule);
  EXPECT_EQ(Unboxed("\xE2\x95\x91 Avg: 3.5 ms \xE2\x95\x91", &rule), "Avg: 3.5 ms");  // ║ ... ║
  Unboxed("\xE2\x94\xA1\xE2\x94\x81\xE2\x94\x81\xE2\x95\x87\xE2\x94\x81\xE2\x94\xA9", &rule);  // ┡━━╇━┩
  EXPECT_TRUE(rule);
  Unboxed("+----+----+", &rule);  // ASCII borders are rules too
  EXPECT_TRUE(rule);
  EXPECT_TRUE(HasBoxDrawing("a \xE2\x94\x82 b"));
  EXPECT_FALSE(HasBoxDrawing("a | b \xE2\x86\x92 c"));  // an arrow is no box
}

TEST(BlocksBoxes, AParagraphMostlyOfFramedLinesIsFramed) {
  const std::string top = "\xE2\x95\x94\xE2\x95\x90\xE2\x95\x97", row = "\xE2\x95\x91 x: 1 ms \xE2\x95\x91";
  EXPECT_TRUE(FramedLines({top, row, row}));
  EXPECT_FALSE(FramedLines({row}));                             // one line is no printout
  EXPECT_FALSE(FramedLines({"prose", "more prose", row, row}));  // half of them
}

std::vector<RecordedFigure> Figures(const std::string& body) { return reader::ReadEntry("# Log\n\n## 2026-02-01 Kernels\n\n", body); }

// rich's table under a command: a row a run, each column its metric.
TEST(BlocksBoxes, ARichTableIsAPrintedTable) {
  const auto figs = Figures(
      "```\n$ python bench.py\n```\n\n```\n"
      "\xE2\x94\x8F\xE2\x94\x81\xE2\x94\x81\xE2\x94\xB3\xE2\x94\x81\xE2\x94\x81\xE2\x94\xB3\xE2\x94\x81\xE2\x94\x81\xE2\x94\x93\n"
      "\xE2\x94\x83 kernel \xE2\x94\x83 time (ms) \xE2\x94\x83 TFLOP/s \xE2\x94\x83\n"
      "\xE2\x94\xA1\xE2\x94\x81\xE2\x94\x81\xE2\x95\x87\xE2\x94\x81\xE2\x94\x81\xE2\x95\x87\xE2\x94\x81\xE2\x94\x81\xE2\x94\xA9\n"
      "\xE2\x94\x82 sdpa \xE2\x94\x82 4.41 \xE2\x94\x82 118.2 \xE2\x94\x82\n"
      "\xE2\x94\x82 flex \xE2\x94\x82 10.49 \xE2\x94\x82 49.7 \xE2\x94\x82\n"
      "\xE2\x94\x94\xE2\x94\x80\xE2\x94\x80\xE2\x94\xB4\xE2\x94\x80\xE2\x94\x80\xE2\x94\xB4\xE2\x94\x80\xE2\x94\x80\xE2\x94\x98\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.00441, 1e-12);
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 0.01049, 1e-12);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

// tabulate's fancy grid, with no command: separators between rows keep the
// rows one table.
TEST(BlocksBoxes, AGridWithRulesBetweenRowsIsOneTable) {
  const auto figs = Figures(
      "```\n"
      "\xE2\x95\x92\xE2\x95\x90\xE2\x95\xA4\xE2\x95\x90\xE2\x95\x95\n"
      "\xE2\x94\x82 kernel \xE2\x94\x82 latency \xE2\x94\x82\n"
      "\xE2\x95\x9E\xE2\x95\x90\xE2\x95\xAA\xE2\x95\x90\xE2\x95\xA1\n"
      "\xE2\x94\x82 naive \xE2\x94\x82 12.1 ms \xE2\x94\x82\n"
      "\xE2\x94\x9C\xE2\x94\x80\xE2\x94\xBC\xE2\x94\x80\xE2\x94\xA4\n"
      "\xE2\x94\x82 tiled \xE2\x94\x82 3.2 ms \xE2\x94\x82\n"
      "\xE2\x95\x98\xE2\x95\x90\xE2\x95\xA7\xE2\x95\x90\xE2\x95\x9B\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 9);
  EXPECT_EQ(figs[1].line, 11);
}

// A framed banner pasted as prose, not fenced: a printout all the same.
TEST(BlocksBoxes, AFramedBannerPastedAsProseIsRead) {
  const auto figs = Figures(
      "\xE2\x95\x94\xE2\x95\x90\xE2\x95\x90\xE2\x95\x97\n"
      "\xE2\x95\x91 RESULTS: 8 users \xE2\x95\x91\n"
      "\xE2\x95\x91 Throughput: 410.3 tok/s \xE2\x95\x91\n"
      "\xE2\x95\x9A\xE2\x95\x90\xE2\x95\x90\xE2\x95\x9D\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tokens_per_s"), 410.3);
}

// A record between banner marks: its lines (a duration, a group of
// statistics, a throughput) are one row, each metric named with what it
// was printed under, the title its key; the next title opens another.
TEST(FiguresRecords, ARecordsLinesAreOneRowKeyedByItsTitle) {
  const auto figs = Figures(
      "```\n"
      "===== RESULTS: 10 users =====\n"
      "Duration: 25.3s\n"
      "TIME TO FIRST TOKEN (TTFT)\n"
      "Avg: 352.5 ms | P99: 424.1 ms\n"
      "THROUGHPUT\n"
      "Aggregate: 216.1 tok/s\n"
      "=============================\n"
      "===== RESULTS: 50 users =====\n"
      "Duration: 30.0s\n"
      "THROUGHPUT\n"
      "Aggregate: 966.8 tok/s\n"
      "=============================\n"
      "```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("record"), "RESULTS: 10 users");
  EXPECT_EQ(figs[0].run.metrics.size(), 4u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("throughput_aggregate_tokens_per_s"), 216.1);
  EXPECT_EQ(figs[1].run.config.at("record"), "RESULTS: 50 users");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("duration_time_s"), 30.0);  // no group of the record before
}

// A frame drawn around printed lines is such a record.
TEST(FiguresRecords, AFrameIsARecord) {
  const std::string bar = "\xE2\x95\x91 ";
  const auto figs = Figures(
      "```\n"
      "\xE2\x95\x94\xE2\x95\x90\xE2\x95\x90\xE2\x95\x97\n" + bar + "RESULTS: 8 users \xE2\x95\x91\n" +
      "\xE2\x95\xA0\xE2\x95\x90\xE2\x95\x90\xE2\x95\xA3\n" + bar + "Duration: 12.5s \xE2\x95\x91\n" + bar +
      "Aggregate: 410.3 tok/s \xE2\x95\x91\n" + "\xE2\x95\x9A\xE2\x95\x90\xE2\x95\x90\xE2\x95\x9D\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.config.at("record"), "RESULTS: 8 users");
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

// A name printed again with a statistic after it ("Per Request: 30.8 tok/s
// (avg)", then "(p50)"): the statistic names it, and the record stays one row.
TEST(FiguresRecords, AStatisticAfterARepeatedNameNamesIt) {
  const auto figs = Figures(
      "```\n"
      "===== RESULTS: 10 users =====\n"
      "Per Request: 30.8 tok/s (avg)\n"
      "Per Request: 30.1 tok/s (p50)\n"
      "=============================\n"
      "```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

// Lines of a record that name runs of their own (a key each) stay rows.
TEST(FiguresRecords, ARecordsRunsWithKeysOfTheirOwnKeepTheirRows) {
  const auto figs = Figures(
      "```\n"
      "===== Sweep =====\n"
      "batch=1 latency=1.20ms\n"
      "batch=8 latency=2.10ms\n"
      "=================\n"
      "```\n");
  EXPECT_EQ(figs.size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook
