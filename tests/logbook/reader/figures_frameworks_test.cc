// The figures stage on bench frameworks' result printouts pasted into a
// logbook (JMH's console table, Go's `testing` lines, Google Benchmark's
// console table, Rust libtest's `cargo bench` lines): one row per benchmark
// case, the case's parameters as keys, a score's error or spread a
// statistic of that score (never a run of its own), units as written.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook {
namespace {

std::vector<RecordedFigure> Figures(const std::string& body) {
  const Logbook lb = ParseLogbook("# Log\n\n## 2026-03-04 micro benchmarks\n\n" + body, "t.md");
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0]);
}

std::string Key(const RecordedFigure& f, const std::string& k) {
  return f.run.config.count(k) ? f.run.config.at(k) : "";
}

TEST(ReaderFrameworks, JmhTableWithParamsIsOneRowPerCase) {
  const auto figs = Figures(
      "```\n$ java -jar target/benchmarks.jar ParserBench\n```\n\n```\n"
      "Benchmark             (format)  (rows)   Mode  Cnt    Score    Error   Units\n"
      "ParserBench.parse          csv     100  thrpt    5  812.330 ±  9.120  ops/ms\n"
      "ParserBench.parse          csv   10000  thrpt    5    7.415 ±  0.082  ops/ms\n"
      "ParserBench.parse         json     100  thrpt    5  401.900 ±  4.770  ops/ms\n```\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "ParserBench.parse");
  EXPECT_EQ(Key(figs[0], "format"), "csv");
  EXPECT_EQ(Key(figs[1], "rows"), "10000");
  EXPECT_EQ(Key(figs[2], "format"), "json");
  EXPECT_EQ(Key(figs[0], "mode"), "");  // one mode: no key
  EXPECT_NEAR(figs[0].run.metrics.at("ops_per_s"), 812330, 1e-6);
  EXPECT_NEAR(figs[0].run.metrics.at("error_ops_per_s"), 9120, 1e-6);
  EXPECT_EQ(figs[0].run.units.at("ops_per_s"), "ops/ms");
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);  // the count is no figure
}

TEST(ReaderFrameworks, JmhAverageTimeErrorIsAStatisticNotARun) {
  const auto figs = Figures(
      "```\nBenchmark               Mode  Cnt   Score   Error  Units\n"
      "KeyBench.siphash        avgt   10  21.704 ± 0.313  ns/op\n"
      "KeyBench.fxhash         avgt   10   3.118 ± 0.041  ns/op\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "KeyBench.siphash");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 21.704e-9, 1e-15);
  EXPECT_NEAR(figs[0].run.metrics.at("error_time_s"), 0.313e-9, 1e-15);
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 3.118e-9, 1e-15);
}

// A single-shot row prints no error; a second mode is a key of its rows;
// a secondary statistic's row ("name:·gc.alloc.rate") joins its case's row.
TEST(ReaderFrameworks, JmhModesAndSecondaryRows) {
  const auto figs = Figures(
      "```\nBenchmark                          Mode  Cnt     Score    Error   Units\n"
      "Boot.start                         thrpt    5    41.200 ±  1.300  ops/s\n"
      "Boot.start:\xC2\xB7gc.alloc.rate         thrpt    5   912.400 ± 20.100  MB/sec\n"
      "Boot.start                           ss         183.500           ms/op\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Key(figs[0], "mode"), "thrpt");
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("ops_per_s"), 41.2);
  EXPECT_EQ(figs[0].run.metrics.count("gc_alloc_rate_gb_per_s"), 1u);
  EXPECT_EQ(Key(figs[1], "mode"), "ss");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 0.1835, 1e-12);
  EXPECT_EQ(figs[1].run.metrics.count("error_time_s"), 0u);
}

TEST(ReaderFrameworks, GoProcsSuffixIsAKeyAndVerdictIsNoFigure) {
  const auto figs = Figures(
      "```\n$ go test -bench=. -benchmem ./lru\ngoos: linux\ngoarch: arm64\npkg: example.org/lru\n"
      "BenchmarkPut-4          3000000     412.5 ns/op    64 B/op    1 allocs/op\n"
      "BenchmarkPut-32         9000000     150.2 ns/op    64 B/op    1 allocs/op\n"
      "BenchmarkGet/size=4096-4  20000000  55.1 ns/op    0 B/op    0 allocs/op\n"
      "PASS\nok      example.org/lru   6.201s\n```\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "BenchmarkPut");
  EXPECT_EQ(Key(figs[0], "procs"), "4");
  EXPECT_EQ(Key(figs[1], "procs"), "32");
  EXPECT_EQ(Key(figs[2], "benchmark"), "BenchmarkGet");
  EXPECT_EQ(Key(figs[2], "size"), "4096");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 150.2e-9, 1e-15);
}

TEST(ReaderFrameworks, GoogleBenchmarkArgumentsAreKeys) {
  const auto figs = Figures(
      "```\n------------------------------------------------------\n"
      "Benchmark               Time             CPU   Iterations\n"
      "------------------------------------------------------\n"
      "BM_Fill/16           3.10 ns         3.09 ns    226001233\n"
      "BM_Fill/1024          140 ns          139 ns      5032110\n"
      "BM_Scan/rows:64/8    2.41 us         2.40 us       290112\n```\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "BM_Fill");
  EXPECT_EQ(Key(figs[0], "arg"), "16");
  EXPECT_EQ(Key(figs[1], "arg"), "1024");
  EXPECT_EQ(Key(figs[2], "benchmark"), "BM_Scan");
  EXPECT_EQ(Key(figs[2], "rows"), "64");
  EXPECT_EQ(Key(figs[2], "arg"), "8");
}

TEST(ReaderFrameworks, LibtestBenchLinesKeepTheirSpreadOnTheRow) {
  const auto figs = Figures(
      "```\nrunning 2 tests\n"
      "test tokenize_short ... bench:         812 ns/iter (+/- 23)\n"
      "test tokenize_long  ... bench:      48,310 ns/iter (+/- 1,207)\n\n"
      "test result: ok. 0 passed; 0 failed; 0 ignored; 2 measured; 0 filtered out\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "tokenize_short");
  EXPECT_EQ(Key(figs[1], "benchmark"), "tokenize_long");
  ASSERT_EQ(figs[1].run.metrics.size(), 2u);
  for (const auto& [m, v] : figs[1].run.metrics) {
    if (m.rfind("deviation_", 0) == 0) EXPECT_NEAR(v, 1207e-9, 1e-15);
    else EXPECT_NEAR(v, 48310e-9, 1e-15);
  }
}

// nvbench's table, printed into an output block: the axes' names without
// their type tags, each Noise a statistic of the time before it (both kept),
// `Elem/s` cells with their magnitude letter as the unit they make.
TEST(ReaderFrameworks, NvbenchPrintedTableNoiseAndMagnitudes) {
  const auto figs = Figures(
      "```\n| T{ct} | Items{io} | Samples | CPU Time  | Noise  | GPU Time  | Noise | Elem/s  |\n"
      "|-------|-----------|---------|-----------|--------|-----------|-------|---------|\n"
      "|   U8  |    2^18   |  9120x  | 31.500 us | 10.40% | 24.100 us | 2.75% | 10.877G |\n"
      "|   U8  |    2^26   |   410x  |  1.402 ms |  0.91% |  1.391 ms | 0.33% | 48.245G |\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Key(figs[0], "t"), "U8");
  EXPECT_EQ(Key(figs[1], "items"), "2^26");
  EXPECT_EQ(Key(figs[0], "samples"), "");  // a count of samples, no key
  EXPECT_NEAR(figs[0].run.metrics.at("gpu_time_s"), 24.1e-6, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("cpu_time_s"), 31.5e-6, 1e-12);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("gpu_time_noise_pct"), 2.75);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("cpu_time_noise_pct"), 10.40);
  EXPECT_NEAR(figs[1].run.metrics.at("elements_per_s"), 48.245e9, 1e-3);
  EXPECT_EQ(figs[1].run.units.at("elements_per_s"), "Gelem/s");
}

// The same table pasted as Markdown under a sub-heading.
TEST(ReaderFrameworks, NvbenchMarkdownTableNoiseAndMagnitudes) {
  const auto figs = Figures(
      "### histogram\n\n| Bins | Samples | CPU Time | Noise | GPU Time | Noise | Elem/s |\n"
      "|------|---------|----------|-------|----------|-------|--------|\n"
      "| 64 | 5120x | 90.210 us | 4.02% | 81.300 us | 1.10% | 12.899G |\n"
      "| 256 | 4480x | 101.70 us | 3.33% | 93.020 us | 0.97% | 11.274G |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Key(figs[0], "bins"), "64");
  EXPECT_NEAR(figs[1].run.metrics.at("gpu_time_s"), 93.02e-6, 1e-12);
  EXPECT_EQ(figs[1].run.metrics.count("cpu_time_s"), 1u);
  size_t noises = 0;
  for (const auto& [m, v] : figs[0].run.metrics) noises += m.find("noise") != std::string::npos ? 1 : 0;
  EXPECT_EQ(noises, 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("elements_per_s"), 12.899e9, 1e-3);
  EXPECT_EQ(Key(figs[0], "elem_s"), "");
}

// torch.utils.benchmark's Measurement: the median and its IQR are one
// figure (not a row each), keyed by the statement timed.
TEST(ReaderFrameworks, TorchMeasurementIsOneFigure) {
  const auto figs = Figures(
      "```\n<torch.utils.benchmark.utils.common.Measurement object at 0x7f0a1b2c3d40>\n"
      "torch.bmm(q, k)\nsetup: from __main__ import q, k\n"
      "  Median: 88.40 us\n  IQR:    1.92 us (87.61 to 89.53)\n"
      "  500 measurements, 10 runs per measurement, 4 threads\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "torch.bmm(q, k)");
  EXPECT_NEAR(figs[0].run.metrics.at("median_time_s"), 88.40e-6, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("iqr_time_s"), 1.92e-6, 1e-12);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

// k6's summary: every statistic of a trend on the run's one row (min and
// max too: no minutes), a counter's rate, no count and no gauge.
TEST(ReaderFrameworks, K6SummaryIsOneRun) {
  const auto figs = Figures(
      "```\n     checks.........................: 100.00% \xE2\x9C\x93 9120  \xE2\x9C\x97 0\n"
      "     http_req_duration..............: avg=8.02ms  min=1.40ms  med=6.91ms  max=120.3ms  p(90)=14.2ms  p(95)=19.75ms\n"
      "     http_reqs......................: 9120    151.9/s\n"
      "     vus............................: 20      min=20  max=20\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto& m = figs[0].run.metrics;
  EXPECT_NEAR(m.at("http_req_duration_min_time_s"), 0.0014, 1e-12);
  EXPECT_NEAR(m.at("http_req_duration_max_time_s"), 0.1203, 1e-12);
  EXPECT_NEAR(m.at("http_req_duration_p95_time_s"), 0.01975, 1e-12);
  EXPECT_DOUBLE_EQ(m.at("http_reqs_per_s"), 151.9);
  EXPECT_EQ(m.size(), 7u);
}

// benchstat's comparison: each case a row per compared run (variant=old,
// variant=new), its alloc/op from the table below on the same row, the
// delta no figure.
TEST(ReaderFrameworks, BenchstatRunsAreRowsOfTheirCase) {
  const auto figs = Figures(
      "```\n$ benchstat before.txt after.txt\n"
      "name        old time/op    new time/op    delta\n"
      "Decode-16     41.2\xC2\xB5s \xC2\xB1 1%    30.9\xC2\xB5s \xC2\xB1 2%  -25.00%  (p=0.000 n=10+10)\n\n"
      "name        old alloc/op   new alloc/op   delta\n"
      "Decode-16     12.3kB \xC2\xB1 0%    4.10kB \xC2\xB1 0%  -66.67%  (p=0.000 n=10+10)\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "Decode");
  EXPECT_EQ(Key(figs[0], "procs"), "16");
  EXPECT_EQ(Key(figs[0], "variant"), "old");
  EXPECT_EQ(Key(figs[1], "variant"), "new");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 41.2e-6, 1e-12);
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 30.9e-6, 1e-12);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("bytes_per_op"), 12300);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("bytes_per_op"), 4100);
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
}

// benchstat's newer, ruled header: the labels, then each run's statistic;
// a value's prefix is its unit's ("41.20\u00b5" of sec/op: 41.20 \u00b5s); the
// geomean no case.
TEST(ReaderFrameworks, BenchstatRuledHeader) {
  const auto figs = Figures(
      "```\n$ benchstat a.txt b.txt\n"
      "          \xE2\x94\x82    a.txt    \xE2\x94\x82             b.txt              \xE2\x94\x82\n"
      "          \xE2\x94\x82   sec/op    \xE2\x94\x82   sec/op     vs base           \xE2\x94\x82\n"
      "Decode-16   41.20\xC2\xB5 \xC2\xB1 1%   30.90\xC2\xB5 \xC2\xB1 2%  -25.00% (p=0.000 n=10)\n"
      "Encode-16   812.0n \xC2\xB1 3%   790.0n \xC2\xB1 1%        ~ (p=0.123 n=10)\n"
      "geomean     5.784\xC2\xB5        4.941\xC2\xB5        -14.58%\n```\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "Decode");
  EXPECT_EQ(Key(figs[0], "variant"), "a.txt");
  EXPECT_EQ(Key(figs[1], "variant"), "b.txt");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 30.9e-6, 1e-12);
  EXPECT_EQ(figs[1].run.units.at("time_s"), "\xC2\xB5s");
  EXPECT_NEAR(figs[3].run.metrics.at("time_s"), 790e-9, 1e-15);
}

// JMH's verbose result: the score is the figure and its ±(99.9%) error a
// statistic of it (the error alone was taken for the score).
TEST(ReaderFrameworks, JmhVerboseResultKeepsTheScore) {
  const auto figs = Figures(
      "```\nResult \"bench.Lexer.scan\":\n"
      "  51234.500 \xC2\xB1(99.9%) 812.250 ops/s [Average]\n"
      "  (min, avg, max) = (50001.100, 51234.500, 52010.700), stdev = 210.400\n"
      "  CI (99.9%): [50422.250, 52046.750] (assumes normal distribution)\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(Key(figs[0], "benchmark"), "bench.Lexer.scan");
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("ops_per_s"), 51234.5);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("error_ops_per_s"), 812.25);
}

// vegeta's report: each bracketed name's value one figure of the run's one
// row (a bare percentile p50), counts and the test's duration no figure.
TEST(ReaderFrameworks, VegetaBracketReportIsOneRun) {
  const auto figs = Figures(
      "```\nRequests      [total, rate, throughput]         6000, 100.02, 99.97\n"
      "Duration      [total, attack, wait]             1m0s, 59.99s, 4.1ms\n"
      "Latencies     [min, mean, 50, 90, 95, 99, max]  1.9ms, 5.44ms, 4.80ms, 8.1ms, 9.9ms, 17.2ms, 88.0ms\n"
      "Success       [ratio]                           99.95%\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  const auto& m = figs[0].run.metrics;
  EXPECT_NEAR(m.at("latencies_p99_time_s"), 0.0172, 1e-12);
  EXPECT_NEAR(m.at("latencies_min_time_s"), 0.0019, 1e-12);
  EXPECT_DOUBLE_EQ(m.at("success_ratio_pct"), 99.95);
  EXPECT_EQ(m.size(), 8u);
}

// A verbose run in a locale that writes a decimal comma, its parameters
// printed above the result: the keys, the digits as written.
TEST(ReaderFrameworks, JmhVerboseResultCommaDecimalsAndParameters) {
  const auto figs = Figures(
      "```\n# Benchmark: bench.Lexer.scan\n# Parameters: (size = 64, mode = utf8)\n\n"
      "Iteration   1: 1022,100 ops/ms\n\n"
      "Result \"bench.Lexer.scan\":\n"
      "  1021,750 \xC2\xB1(99.9%) 12,500 ops/ms [Average]\n```\n");
  ASSERT_GE(figs.size(), 1u);
  const RecordedFigure& f = figs.back();
  EXPECT_EQ(Key(f, "size"), "64");
  EXPECT_EQ(Key(f, "mode"), "utf8");
  EXPECT_DOUBLE_EQ(f.run.metrics.at("ops_per_s"), 1021750);
  EXPECT_EQ(f.run.decimals.at("ops_per_s"), 3);
}

}  // namespace
}  // namespace moelog::logbook
