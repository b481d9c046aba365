// Reader stage figures, bench tools' printed lines in forms of their own:
// a unit in square brackets (ApacheBench), a count's rate in parentheses
// (sysbench), and a printed name "... per sec" (a rate, never seconds).
#include <gtest/gtest.h>

#include "logbook/reader/figures_toollines.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(FiguresToolLines, APerSecondNameIsARateNotSeconds) {
  EXPECT_EQ(PrintedKeyUnit("inserts_per_sec"), "inserts/s");
  EXPECT_EQ(PrintedKeyUnit("lookups per sec"), "lookups/s");
  EXPECT_EQ(PrintedKeyUnit("rows_per_second"), "rows/s");
  EXPECT_EQ(PrintedKeyUnit("elapsed_sec"), "s");
  EXPECT_EQ(PrintedKeyUnit("valid_tokens_per_s"), PrintedKeyUnit("tokens_per_s"));  // a key suffix of its own
}

TEST(FiguresToolLines, BracketsAndCountRatesAreWrittenAsNamedFigures) {
  EXPECT_EQ(ToolLineForm("Time per request:       4.210 [ms] (mean)"), "Time per request:       4.210 ms (mean)");
  EXPECT_EQ(ToolLineForm("Requests per second:    2371.90 [#/sec] (mean)"), "Requests per second:    2371.90 (mean)");
  EXPECT_EQ(ToolLineForm("writes:   5120  (170.61 per sec.)"), "writes per sec: 170.61");
  EXPECT_EQ(ToolLineForm("queries performed: (see below)"), "queries performed: (see below)");
  EXPECT_EQ(ToolLineForm("Server Software:  nginx [beta]"), "Server Software:  nginx [beta]");
  EXPECT_EQ(ToolLineForm("total time:  10.0021s"), "total time:  10.0021s");
}

// A figure in brackets or parentheses with its unit glued after them is
// that figure; a bracket of words or of a bare number stays as written.
TEST(FiguresToolLines, AFigureInBracketsWithItsUnitAfterIsTheFigure) {
  EXPECT_EQ(ToolLineForm("CUTE_FMHA:     [384852.4]Gflop/s  (1.4285)ms"), "CUTE_FMHA:     384852.4 Gflop/s  1.4285 ms");
  EXPECT_EQ(ToolLineForm("run [3] of 5 (12) done"), "run [3] of 5 (12) done");
  EXPECT_EQ(ToolLineForm("(see 2)items"), "(see 2)items");
}

// A key-value store load tool's report lines: a group in brackets, a name
// with its unit in parentheses, the number.
TEST(FiguresToolLines, GroupedCommaLinesAreWrittenAsNamedFigures) {
  EXPECT_EQ(ToolLineForm("[READ], AverageLatency(us), 1114.39"), "READ AverageLatency: 1114.39 us");
  EXPECT_EQ(ToolLineForm("[OVERALL], RunTime(ms), 722993"), "OVERALL RunTime: 722993 ms");
  EXPECT_EQ(ToolLineForm("[READ], Operations, 4073"), "READ Operations: 4073");
  EXPECT_EQ(ToolLineForm("[GC], Time(%), 0.02"), "GC Time: 0.02%");
  EXPECT_EQ(ToolLineForm("[READ], Return=OK, 4073"), "READ Return=OK: 4073");
  EXPECT_EQ(ToolLineForm("[note], see the log, later"), "[note], see the log, later");
}

// Such a report pasted as an indented block under a heading is output.
TEST(FiguresToolLines, AnIndentedReportOfGroupedCommaLinesIsRead) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Store load report\n\n",
                              "## 2026-06-01 workload A\n\n#### Result\n"
                              "       [OVERALL], RunTime(ms), 722993\n"
                              "       [OVERALL], Throughput(ops/sec), 11.30\n"
                              "       [READ], AverageLatency(us), 1114.39\n",
                              &unread);
  std::set<double> values;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) values.insert(v);
  EXPECT_TRUE(values.count(11.30)) << figs.size();
  EXPECT_TRUE(values.count(1114.39) || values.count(1114.39e-6)) << figs.size();
}

// `tps` is tokens a second in a serving log and transactions a second in a
// database tool's: an entry that runs pgbench keeps it as transactions_per_s.
TEST(FiguresToolLines, ADatabaseToolsTpsIsTransactionsASecond) {
  auto metrics = [](const std::string& command) {
    const Logbook lb = ParseLogbook("# Notes\n\n## 2026-06-01 pool on\n\n```\n$ " + command +
                                        "\ntps = 854.102287 (without initial connection time)\n```\n",
                                    "t.md");
    std::set<std::string> out;
    for (const auto& entry : LogbookFigures(lb, nullptr))
      for (const auto& f : entry)
        for (const auto& [m, v] : f.run.metrics) out.insert(m);
    return out;
  };
  EXPECT_EQ(metrics("pgbench -c 8 -T 60 bench"), std::set<std::string>{"transactions_per_s"});
  EXPECT_EQ(metrics("python serve_bench.py --batch 8"), std::set<std::string>{"tokens_per_s"});
}

// A load tool's printout: its rate, its time per request, a count's rate.
TEST(FiguresToolLines, AnApacheBenchAndASysbenchPrintoutAreRead) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Service notes\n\n",
                              "## 2026-06-01 cache on\n\n```bash\nab -n 5000 -c 20 http://127.0.0.1:9000/item\n```\n\n"
                              "```\nRequests per second:    2371.90 [#/sec] (mean)\nTime per request:       4.210 [ms] (mean)\n```\n\n"
                              "```bash\nsysbench oltp_point_select --threads=8 run\n```\n\n"
                              "```\nSQL statistics:\n    transactions:                        90412  (3013.55 per sec.)\n```\n",
                              &unread);
  std::set<double> values;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) values.insert(m.ends_with("time_s") ? v * 1e3 : v);  // time_per_request_mean_time_s
  EXPECT_TRUE(values.count(2371.90)) << figs.size();
  EXPECT_TRUE(values.count(4.210));
  EXPECT_TRUE(values.count(3013.55));
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_NE(v, 90412) << m;  // the count is no figure
}

}  // namespace
}  // namespace moelog::logbook::reader
