// Reader stage blocks: a bench tool's printout pasted without a fence, its
// blank lines splitting it into paragraphs (ApacheBench's banner, its
// settings, its results, its connection times; redis-benchmark's `======
// GET ======` sections): one printout, read as if fenced
// (logbook/doc/pasted_printout.cc).
#include <gtest/gtest.h>

#include <string>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char kAbPasted[] =
    "`$ ab -n 5000 -c 100 http://127.0.0.1:8080/static/app.css`\n"
    "This is ApacheBench, Version 2.3 <$Revision: 1900000 $>\n"
    "Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/\n"
    "Licensed to The Apache Software Foundation, http://www.apache.org/\n\n"
    "Benchmarking 127.0.0.1 (be patient)\n"
    "Completed 2500 requests\nFinished 5000 requests\n\n\n"
    "Server Software:        caddy\nServer Port:            8080\n\n"
    "Document Length:        40211 bytes\n\n"
    "Concurrency Level:      100\n"
    "Time taken for tests:   1.204 seconds\n"
    "Complete requests:      5000\n"
    "Failed requests:        0\n"
    "Requests per second:    4152.77 [#/sec] (mean)\n"
    "Time per request:       24.080 [ms] (mean)\n"
    "Time per request:       0.241 [ms] (mean, across all concurrent requests)\n"
    "Transfer rate:          163977.40 [Kbytes/sec] received\n\n"
    "Connection Times (ms)\n"
    "              min  mean[+/-sd] median   max\n"
    "Connect:        0    3   1.2      3       9\n"
    "Total:          6   23   4.1     23      51\n";

// The results paragraph of a pasted ab printout is read as ab's: requests
// per second, the time per request, the transfer rate, one run.
TEST(BlocksPastedRuns, AnApacheBenchPrintoutPastedInParagraphsIsOneRun) {
  const auto figs = ReadEntry("# Static server runs\n\n## caddy\n\n", kAbPasted);
  const RecordedFigure* rps = OnLine(figs, 24);
  ASSERT_NE(rps, nullptr);
  const RecordedFigure* tpr = OnLine(figs, 25);
  const RecordedFigure* rate = OnLine(figs, 27);
  EXPECT_EQ(tpr, rps);
  EXPECT_EQ(rate, rps);
  bool transfer = false;  // ab's `[Kbytes/sec]`
  for (const auto& [k, v] : rps->run.metrics) transfer = transfer || k.find("gb_per_s") != std::string::npos;
  EXPECT_TRUE(transfer);
}

// Near miss: the author's prose after the printout (a sentence), and a
// paragraph after a fenced printout, are no part of it.
TEST(BlocksPastedRuns, ProseAfterThePrintoutAndAfterAFenceStaysProse) {
  const std::string doc = std::string("# Static server runs\n\n## caddy\n\n") + kAbPasted +
                          "\nThe server kept pace until the cache went cold, then fell behind by a lot.\n";
  const Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_FALSE(lb.entries[0].outputs.empty());
  const int prose_line = lb.entries[0].paragraphs.back().line;
  EXPECT_GT(prose_line, lb.entries[0].outputs.back().end_line);
  EXPECT_EQ(lb.entries[0].outputs.back().end_line, prose_line - 2);

  const Logbook fenced = ParseLogbook(
      "# Runs\n\n## wrk\n\n```\nRunning 10s test @ http://127.0.0.1:8080/\n  2 threads and 10 connections\n"
      "Requests/sec:  10211.40\n```\n\nRequests/sec:  9000.00 was the best of three\nTransfer/sec: 1.20MB\n",
      "t.md");
  ASSERT_EQ(fenced.entries.size(), 1u);
  ASSERT_EQ(fenced.entries[0].outputs.size(), 1u);
  EXPECT_EQ(fenced.entries[0].outputs[0].text.find("9000.00"), std::string::npos);
}

// redis-benchmark's full printout (no -q), pasted without a fence: each
// `====== OP ======` section one run of its operation, its rate the line
// `N requests per second`; the completion time and the cumulative latency
// lines are no figures of it.
TEST(BlocksPastedRuns, ARedisBenchmarkPrintoutsSectionsAreOneRunEach) {
  const std::string body =
      "====== LPUSH ======\n  200000 requests completed in 2.71 seconds\n  64 parallel clients\n  16 bytes payload\n"
      "  keep alive: 1\n\n"                                  // 5..9
      "12.50% <= 0.3 milliseconds\n81.20% <= 0.4 milliseconds\n100.00% <= 2 milliseconds\n"
      "73800.74 requests per second\n\n"                     // 11..14
      "====== LRANGE_100 ======\n  200000 requests completed in 9.02 seconds\n  64 parallel clients\n\n"
      "40.02% <= 1 milliseconds\n100.00% <= 5 milliseconds\n22172.95 requests per second\n";  // 20..22
  const auto figs = ReadEntry("# Queue store\n\n## keydb 6.3\n\n", body);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 14);
  EXPECT_EQ(figs[1].line, 22);
  EXPECT_EQ(figs[0].run.config.at("op"), "LPUSH");
  EXPECT_EQ(figs[1].run.config.at("op"), "LRANGE_100");
  EXPECT_EQ(figs[0].run.metrics.size(), 1u);
}

// Near miss: a banner over lines of named figures, no rate line of
// redis-benchmark's, is no section of it: its figures read as before.
TEST(BlocksPastedRuns, ABannerWithoutARateLineLeavesItsLinesToTheOtherReaders) {
  const auto figs = ReadEntry("# Serving\n\n## run 3\n\n",
                              "```\n====== Summary ======\nmean latency: 12.3 ms\np99 latency: 20.1 ms\n```\n");
  ASSERT_FALSE(figs.empty());
  EXPECT_EQ(figs[0].run.config.count("op"), 0u);
  size_t metrics = 0;
  for (const auto& f : figs) metrics += f.run.metrics.size();
  EXPECT_EQ(metrics, 2u);
}

// A caption between two indented printouts ("Lauf ohne Cache", words
// without a digit, in any language) is prose, never the first printout's
// next lines: each printout is its own run, keyed by the words of its caption
// the other's does not share ("mit", "ohne").
TEST(BlocksPastedRuns, ACaptionBetweenIndentedPrintoutsKeysTheNextRun) {
  const std::string run = "      Thread Stats   Avg      Stdev     Max   +/- Stdev\n";
  const auto figs = ReadEntry("# Labor\n\n## Versuch 2\n\n",
                              "Lauf mit Cache\n\n    Running 10s test @ http://h/\n      1 threads and 8 connections\n" + run +
                                  "        Latency    12.10ms    1.20ms  30.00ms   80.00%\n    Requests/sec:    650.10\n\n"
                                  "Lauf ohne Cache\n\n    Running 10s test @ http://h/\n      1 threads and 8 connections\n" + run +
                                  "        Latency    52.40ms    8.70ms  99.00ms   70.00%\n    Requests/sec:    150.90\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("setup"), "mit");
  EXPECT_EQ(figs[1].run.config.at("setup"), "ohne");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("requests_per_s"), 150.90);
}

}  // namespace
}  // namespace moelog::logbook::reader
