// The figures stage on load and I/O benchmark tools' printouts (wrk, fio,
// ApacheBench, sysbench) pasted into a logbook: one run's printout is one
// row, every figure the tool printed on it, named as the tool names it
// (its line's label, the group it is printed under, its column or key).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

std::vector<RecordedFigure> Figures(const std::string& body) {
  const Logbook lb = ParseLogbook("# Log\n\n## 2026-02-03 load test\n\n" + body, "t.md");
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0]);
}

bool Has(const RecordedFigure& f, const std::string& metric) { return f.run.metrics.count(metric) > 0; }

TEST(ReaderToolRuns, WrkPrintoutIsOneRowARun) {
  const auto figs = Figures(
      "```\n$ wrk -t4 -c128 -d30s --latency http://127.0.0.1:9000/ping\n"
      "Running 30s test @ http://127.0.0.1:9000/ping\n  4 threads and 128 connections\n"
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency     2.31ms    1.02ms  41.70ms   88.12%\n"
      "    Req/Sec    14.02k     1.31k   17.90k    71.40%\n  Latency Distribution\n     50%    2.11ms\n"
      "     99%    6.02ms\n  1673201 requests in 30.03s, 212.44MB read\nRequests/sec:  55716.31\n"
      "Transfer/sec:      7.07MB\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto& f = figs[0];
  EXPECT_NEAR(f.run.metrics.at("latency_avg_time_s"), 0.00231, 1e-12);
  EXPECT_TRUE(Has(f, "latency_max_time_s"));
  EXPECT_NEAR(f.run.metrics.at("avg_requests_per_s"), 14020, 1e-9);
  EXPECT_NEAR(f.run.metrics.at("latency_p99_time_s"), 0.00602, 1e-12);
  EXPECT_DOUBLE_EQ(f.run.metrics.at("requests_per_s"), 55716.31);
  EXPECT_TRUE(Has(f, "transfer_gb_per_s"));
  EXPECT_DOUBLE_EQ(f.run.metrics.at("requests"), 1673201);  // "1673201 requests in 30.03s": a count of the run
}

TEST(ReaderToolRuns, RepeatedPrintoutsAreARowEach) {
  const auto figs = Figures(
      "```\nRunning 10s test @ http://h/\n  2 threads and 2 connections\n"
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   594.50us   10.82us   0.95ms   92.62%\n"
      "Requests/sec:   3363.10\nTransfer/sec:      2.49MB\n"
      "Running 10s test @ http://h/\n  4 threads and 4 connections\n"
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   589.42us    9.43us   0.95ms   91.56%\n"
      "Requests/sec:   6771.02\nTransfer/sec:      5.00MB\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("threads"), "2");
  EXPECT_EQ(figs[1].run.config.at("connections"), "4");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("requests_per_s"), 6771.02);
  // Rows pasted without their header, one printout after another: the tool's columns, a row a run.
  const auto bare = Figures("```\n./wrk -t2 -c2 -d10s http://h/\nLatency   594.62us    7.77us   0.96ms   94.90%\n"
                            "Transfer/sec:      2.47MB\n\nLatency   595.16us    8.33us   0.91ms   95.37%\n"
                            "Transfer/sec:      2.49MB\n```\n");
  ASSERT_EQ(bare.size(), 2u);
  EXPECT_NEAR(bare[1].run.metrics.at("latency_avg_time_s"), 595.16e-6, 1e-12);
  EXPECT_DOUBLE_EQ(bare[1].run.metrics.at("latency_within_stdev_pct"), 95.37);
}

TEST(ReaderToolRuns, FioJobIsOneRow) {
  const auto figs = Figures(
      "```\nrr: (g=0): rw=randread, bs=(R) 4096B-4096B, ioengine=libaio, iodepth=32\nfio-3.33\nStarting 1 process\n"
      "rr: (groupid=0, jobs=1): err= 0: pid=4410: Sun Mar  1 10:12:44 2026\n"
      "  read: IOPS=52.1k, BW=204MiB/s (213MB/s)(11.9GiB/60001msec)\n"
      "    clat (usec): min=61, max=4120, avg=611.30, stdev=120.88\n"
      "    clat percentiles (usec):\n     |  1.00th=[  383],  5.00th=[  437], 50.00th=[  611],\n"
      "     | 99.00th=[  922], 99.99th=[ 1811]\n"
      "   bw (  KiB/s): min=198120, max=214400, per=100.00%, avg=208410.11, stdev=3012.40, samples=119\n"
      "  cpu          : usr=9.81%, sys=31.20%, ctx=1622011, majf=0, minf=44\n\n"
      "Run status group 0 (all jobs):\n   READ: bw=204MiB/s (213MB/s), 204MiB/s-204MiB/s (213MB/s-213MB/s), io=11.9GiB (12.8GB), run=60001-60001msec\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto& f = figs[0];
  EXPECT_NEAR(f.run.metrics.at("read_iops"), 52100, 1e-9);
  EXPECT_TRUE(Has(f, "read_bw_gb_per_s"));
  EXPECT_NEAR(f.run.metrics.at("clat_avg_time_s"), 611.30e-6, 1e-12);
  EXPECT_NEAR(f.run.metrics.at("clat_p99_time_s"), 922e-6, 1e-12);
  EXPECT_TRUE(Has(f, "cpu_usr_pct"));
}

TEST(ReaderToolRuns, ApacheBenchAndSysbenchAreOneRowEach) {
  const auto ab = Figures(
      "```\nConcurrency Level:      50\nTime taken for tests:   2.118 seconds\nComplete requests:      20000\n"
      "Requests per second:    9442.87 [#/sec] (mean)\nTime per request:       5.295 [ms] (mean)\n"
      "Time per request:       0.106 [ms] (mean, across all concurrent requests)\n"
      "Transfer rate:          7939.78 [Kbytes/sec] received\n\nConnection Times (ms)\n"
      "              min  mean[+/-sd] median   max\nConnect:        0    1   0.4      1       4\n"
      "Total:          1    5   1.3      5      21\n\n"
      "Percentage of the requests served within a certain time (ms)\n  50%      5\n  99%     11\n"
      " 100%     21 (longest request)\n```\n");
  ASSERT_EQ(ab.size(), 1u);
  EXPECT_DOUBLE_EQ(ab[0].run.metrics.at("mean_requests_per_s"), 9442.87);
  EXPECT_NEAR(ab[0].run.metrics.at("time_per_request_mean_time_s"), 0.005295, 1e-12);
  EXPECT_EQ(ab[0].run.metrics.size() >= 8, true);
  EXPECT_NEAR(ab[0].run.metrics.at("p99_time_s"), 0.011, 1e-12);
  const auto sb = Figures(
      "```\nCPU speed:\n    events per second:  4512.33\n\nGeneral statistics:\n    total time:  10.0011s\n"
      "    total number of events:              45130\n\nLatency (ms):\n         min:    0.85\n         avg:    0.89\n"
      "         max:     3.10\n         95th percentile:    0.94\n```\n");
  ASSERT_EQ(sb.size(), 1u);
  EXPECT_DOUBLE_EQ(sb[0].run.metrics.at("events_per_s"), 4512.33);
  EXPECT_NEAR(sb[0].run.metrics.at("latency_avg_time_s"), 0.00089, 1e-12);
}

// perf stat pasted without its command: each counter named by its event, a
// time by its words; what follows '#' is derived from them, no figure.
TEST(ReaderToolRuns, PerfStatCountersAreOneRow) {
  const auto figs = Figures(
      "```\n Performance counter stats for './solver in.txt':\n\n          1,204.55 msec task-clock   #  0.998 CPUs utilized\n"
      "     4,112,530,118      cycles                    #    3.414 GHz\n"
      "     9,870,221,004      instructions              #    2.40  insn per cycle\n\n"
      "       1.206901223 seconds time elapsed\n\n       1.150221000 seconds user\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("instructions"), 9870221004.0);
  EXPECT_TRUE(figs[0].run.metrics.count("cycles"));
  EXPECT_NEAR(figs[0].run.metrics.at("task_clock_time_s"), 1.20455, 1e-12);
  EXPECT_TRUE(figs[0].run.metrics.count("user_time_s"));
  for (const auto& [m, v] : figs[0].run.metrics) EXPECT_NE(v, 2.40) << m;
}

// hyperfine's Summary: its ratio of the runs above is derived, listed, and
// each run keeps its own row.
TEST(ReaderToolRuns, HyperfinesSummaryRatioIsListedDerived) {
  std::vector<UnreadFigures> unread;
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-05-02 fast against best\n\n```\nBenchmark 1: ./pack --fast corpus\n"
      "  Time (mean \xC2\xB1 \xCF\x83):      12.3 ms \xC2\xB1   0.4 ms    [User: 10.1 ms, System: 2.0 ms]\n"
      "Benchmark 2: ./pack --best corpus\n"
      "  Time (mean \xC2\xB1 \xCF\x83):      18.7 ms \xC2\xB1   0.6 ms    [User: 16.2 ms, System: 2.3 ms]\n\n"
      "Summary\n  './pack --fast corpus' ran\n    1.52 \xC2\xB1 0.07 times faster than './pack --best corpus'\n```\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", &unread);
  EXPECT_EQ(figs.size(), 2u);
  bool listed = false;
  for (const auto& u : unread) listed = listed || (u.line == 13 && u.why.find("derived") != std::string::npos);
  EXPECT_TRUE(listed);
}

// YCSB's report: "[GROUP], Name(unit), value" lines, indented under a
// heading. One row a printout, each figure named with its group; counts
// (Operations, Return=OK) are no figures.
const std::string kYcsb =
    "    [OVERALL], RunTime(ms), 61540\n"
    "    [OVERALL], Throughput(ops/sec), 1624.9\n"
    "    [TOTAL_GCs], Count, 7\n"
    "    [TOTAL_GC_TIME], Time(ms), 52\n"
    "    [INSERT], Operations, 50000\n"
    "    [INSERT], AverageLatency(us), 611.25\n"
    "    [INSERT], 95thPercentileLatency(us), 940\n"
    "    [INSERT], 99thPercentileLatency(us), 1288\n"
    "    [INSERT], Return=OK, 50000\n"
    "    [SCAN], Operations, 50000\n"
    "    [SCAN], AverageLatency(us), 1830.5\n"
    "    [SCAN], 99thPercentileLatency(us), 4410\n";

TEST(ReaderToolRuns, YcsbReportIsOneRowAPrintout) {
  const auto figs = Figures("Loaded with workload F, 8 client threads.\n\n" + kYcsb);
  ASSERT_EQ(figs.size(), 1u);
  const auto& f = figs[0];
  EXPECT_NEAR(f.run.metrics.at("insert_average_latency_time_s"), 611.25e-6, 1e-12);
  EXPECT_NEAR(f.run.metrics.at("insert_99th_percentile_latency_time_s"), 1288e-6, 1e-12);
  EXPECT_NEAR(f.run.metrics.at("scan_99th_percentile_latency_time_s"), 4410e-6, 1e-12);
  EXPECT_NEAR(f.run.metrics.at("overall_run_time_s"), 61.54, 1e-9);
  bool throughput = false;
  for (const auto& [m, v] : f.run.metrics) {
    EXPECT_EQ(m.find("operations"), std::string::npos) << m;
    EXPECT_EQ(m.find("return"), std::string::npos) << m;
    EXPECT_EQ(m.find("count"), std::string::npos) << m;
    throughput = throughput || (m.rfind("overall_throughput", 0) == 0 && v == 1624.9);
  }
  EXPECT_TRUE(throughput);
}

TEST(ReaderToolRuns, YcsbReportsOneAfterAnotherAreARowEach) {
  const auto figs = Figures("```\n" + kYcsb + "\n" + kYcsb + "```\n");
  EXPECT_EQ(figs.size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook
