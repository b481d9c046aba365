// The figures stage on the printouts of common tools and programs: profiler
// tables whose header names hold single spaces, Go's `testing` benchmark
// lines, Python dict printouts, breakdowns in parentheses.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - kernels\n\n";

std::vector<RecordedFigure> Read(const std::string& body, std::vector<UnreadFigures>* unread = nullptr) {
  return ReadEntry(kHead, body, unread);
}

TEST(ReaderPrintouts, HeaderWordsGroupUnderTheColumnsOfTheRows) {
  const std::string head = "    Stage Name Wall Secs    Share";
  const PrintedColumns cols = RowColumns({"    Tokenize   0.412        10.5", "    MatMulFwd  3.150        80.1"});
  const auto names = HeaderNames(head, cols);
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "Stage Name");
  EXPECT_EQ(names[1], "Wall Secs");
  EXPECT_EQ(names[2], "Share");
  EXPECT_TRUE(HeaderNames("  Timing reads: 512 MB in 1.0 seconds", cols).empty());  // figures, no header
  EXPECT_TRUE(FitsColumns("    All        3.562", cols));
  EXPECT_FALSE(FitsColumns("    All                        3.562", cols));
}

TEST(ReaderPrintouts, ProfilerTableUnderEachSessionCommand) {
  const auto figs = Read(
      "```\n$ ./profile -layers 4 -width 512\n"     // line 8
      "Report: 4 layers\n"                          // 9
      "    Stage Name Wall Secs    Share\n"       // 10
      "    Tokenize   0.412        10.5\n"        // 11
      "    MatMulFwd  3.150        80.1\n"        // 12
      "    All        3.562\n"                   // 13
      "```\n\n"
      "```\n$ ./profile -layers 8 -width 512\n"     // 17
      "    Stage Name Wall Secs    Share\n"       // 18
      "    Tokenize   0.398        5.1\n"         // 19
      "```\n");
  const RecordedFigure* tok = OnLine(figs, 11);
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->run.config.at("stage_name"), "Tokenize");
  EXPECT_DOUBLE_EQ(tok->run.metrics.at("wall_time_s"), 0.412);
  const RecordedFigure* all = OnLine(figs, 13);  // a total row without a share
  ASSERT_NE(all, nullptr);
  EXPECT_DOUBLE_EQ(all->run.metrics.at("wall_time_s"), 3.562);
  const RecordedFigure* other = OnLine(figs, 19);
  ASSERT_NE(other, nullptr);
  // The two runs of one program are told apart by their commands as written.
  EXPECT_EQ(tok->run.config.at("command"), "./profile -layers 4 -width 512");
  EXPECT_EQ(other->run.config.at("command"), "./profile -layers 8 -width 512");
}

TEST(ReaderPrintouts, GoTestingBenchmarkLines) {
  const auto figs = Read(
      "```\n$ go test -bench=. -benchmem\n"                                              // line 8
      "goos: linux\n"                                                                     // 9
      "pkg: example.org/ring\n"                                                           // 10
      "BenchmarkPush-16          \t31228790\t        38.41 ns/op\t       0 B/op\t       0 allocs/op\n"  // 11
      "BenchmarkPop/cap=64-16    \t 2875411\t       417.9 ns/op\t      64 B/op\t       2 allocs/op\n"  // 12
      "BenchmarkCopy-16          \t  120000\t      9921 ns/op\t  412.88 MB/s\n"        // 13
      "PASS\n"
      "ok  \texample.org/ring\t4.210s\n"                                                 // 15: the package's run, no figure
      "```\n");
  const RecordedFigure* push = OnLine(figs, 11);
  ASSERT_NE(push, nullptr);
  EXPECT_EQ(push->run.config.at("benchmark"), "BenchmarkPush");  // GOMAXPROCS a key of its own
  EXPECT_EQ(push->run.config.at("procs"), "16");
  EXPECT_NEAR(push->run.metrics.at("time_s"), 38.41e-9, 1e-15);
  EXPECT_EQ(push->run.units.at("time_s"), "ns/op");
  EXPECT_EQ(push->run.decimals.at("time_s"), 2);
  EXPECT_DOUBLE_EQ(push->run.metrics.at("bytes_per_op"), 0);
  const RecordedFigure* pop = OnLine(figs, 12);
  ASSERT_NE(pop, nullptr);
  EXPECT_EQ(pop->run.config.at("benchmark"), "BenchmarkPop");
  EXPECT_EQ(pop->run.config.at("cap"), "64");
  EXPECT_DOUBLE_EQ(pop->run.metrics.at("allocs_per_op"), 2);
  const RecordedFigure* copy = OnLine(figs, 13);
  ASSERT_NE(copy, nullptr);
  EXPECT_NEAR(copy->run.metrics.at("gb_per_s"), 0.41288, 1e-12);
  EXPECT_EQ(OnLine(figs, 15), nullptr);
  EXPECT_EQ(figs.size(), 3u);
}

TEST(ReaderPrintouts, NamesGluedToTheirValuesByAColon) {
  // A speed-run's training log pasted bare: no command, each field a name
  // glued to its value; the step counter keys the row, its total after '/'
  // is the schedule.
  std::vector<UnreadFigures> unread;
  const auto figs = Read(
      "```\n"
      "step:250/4000 train_loss:4.1207 train_time:61200ms step_avg:244.80ms\n"  // line 8
      "step:500/4000 train_loss:3.7719 train_time:122350ms step_avg:244.70ms\n"  // 9
      "```\n",
      &unread);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 8);
  EXPECT_EQ(figs[0].run.config.at("step"), "250");
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("train_loss"), 4.1207);
  EXPECT_EQ(figs[1].run.config.at("step"), "500");
  bool step_avg = false;
  for (const auto& [m, v] : figs[1].run.metrics) step_avg = step_avg || (m.rfind("step_avg", 0) == 0 && std::fabs(v - 0.2447) < 1e-9);
  EXPECT_TRUE(step_avg);
  EXPECT_TRUE(unread.empty());
}

TEST(ReaderPrintouts, ASessionsLinesNoReaderTookAreToldOnTheirOwnLine) {
  std::vector<UnreadFigures> unread;
  Read("```\n$ ./probe\n"                 // line 8
       "warm: 12 ms\n"                     // 9
       "Peak GPU bandwidth (GB/s): 3350\n"  // 10: a datasheet's, not read
       "```\n",
       &unread);
  bool told = false;
  for (const auto& u : unread)
    if (u.text.find("3350") != std::string::npos) {
      EXPECT_EQ(u.line, 10);
      told = true;
    }
  EXPECT_TRUE(told);
}

TEST(ReaderPrintouts, HyperfinePastedAsProse) {
  // No fence: each benchmark's three lines a paragraph of their own.
  const auto figs = Read(
      "Benchmark 1: ./scan_v1 data.bin\n"                                                    // line 7
      "  Time (mean ± σ):      31.2 ms ±   0.8 ms    [User: 29.0 ms, System: 2.1 ms]\n"  // 8
      "  Range (min … max):    30.1 ms …  33.9 ms    88 runs\n"                             // 9
      "\n"
      "Benchmark 2: ./scan_v2 data.bin\n"                                                    // 11
      "  Time (mean ± σ):      12.7 ms ±   0.3 ms    [User: 10.9 ms, System: 1.7 ms]\n"  // 12
      "  Range (min … max):    12.2 ms …  13.8 ms    201 runs\n");                          // 13
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 8);
  EXPECT_EQ(figs[0].run.config.at("command"), "./scan_v1 data.bin");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.0312, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("max_time_s"), 0.0339, 1e-12);
  EXPECT_EQ(figs[1].run.config.at("command"), "./scan_v2 data.bin");
  EXPECT_NEAR(figs[1].run.metrics.at("min_time_s"), 0.0122, 1e-12);
}

TEST(ReaderPrintouts, AJuliaTrialIsOneRow) {
  // Its Range first, then the median (the figure) and the mean; the
  // histogram's axis is no figure.
  std::vector<UnreadFigures> unread;
  const auto figs = Read(
      "```\njulia> @benchmark step!(s)\n"                                                   // line 8
      "BenchmarkTools.Trial: 812 samples with 1 evaluation.\n"                             // 9
      " Range (min … max):  5.801 ms …  7.912 ms  ┊ GC (min … max): 0.00% … 9.10%\n"     // 10
      " Time  (median):     6.030 ms              ┊ GC (median):    0.00%\n"               // 11
      " Time  (mean ± σ):   6.144 ms ± 310.5 μs  ┊ GC (mean ± σ):  1.20% ± 2.41%\n"     // 12
      "\n"
      "  5.8 ms         Histogram: log(frequency) by time       7.1 ms <\n"               // 14
      "```\n",
      &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 11);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.00603, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("mean_time_s"), 0.006144, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("min_time_s"), 0.005801, 1e-12);
  EXPECT_NEAR(figs[0].run.metrics.at("max_time_s"), 0.007912, 1e-12);
  for (const auto& u : unread) EXPECT_NE(u.line, 10) << u.why;  // the Range is read into the row
}

TEST(ReaderPrintouts, EventsStampedWithTheTimeElapsed) {
  // A loader's console, fenced with no command, then pasted as prose.
  const auto figs = Read(
      "```\n"
      "[0.03s] Opening archive\n"      // line 8
      "[2.75s] Decode 512 frames\n"    // 9
      "[6.10 s] Write 512 thumbnails\n"  // 10
      "```\n\n"
      "[0.02s] Opening archive\n"      // 13
      "[1.64s] Decode 512 frames\n"    // 14
      "[3.30s] Write 512 thumbnails\n"  // 15
      "\nThe second run reuses the decoder.\n");
  ASSERT_EQ(figs.size(), 6u);
  EXPECT_EQ(figs[1].line, 9);
  EXPECT_EQ(figs[1].run.config.at("event"), "Decode 512 frames");
  EXPECT_NEAR(figs[1].run.metrics.at("elapsed_time_s"), 2.75, 1e-12);
  EXPECT_NEAR(figs[2].run.metrics.at("elapsed_time_s"), 6.10, 1e-12);
  EXPECT_EQ(figs[5].line, 15);
  EXPECT_EQ(figs[5].run.config.at("event"), "Write 512 thumbnails");
}

TEST(ReaderPrintouts, PrintedDicts) {
  std::vector<DictItem> items;
  ASSERT_TRUE(PrintedDict("{'impl': 'lru', 'hit_rate': 0.7350, 'ok': True, 'sizes': [1, 2], \"t\": 1e-05}", &items));
  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(items[0].value, "lru");
  EXPECT_EQ(items[1].value, "0.7350");  // as written
  EXPECT_EQ(items[1].kind, DictItem::Kind::kNumber);
  EXPECT_EQ(items[2].kind, DictItem::Kind::kBool);
  EXPECT_EQ(items[3].kind, DictItem::Kind::kOther);
  EXPECT_EQ(items[4].key, "t");
  EXPECT_FALSE(PrintedDict("{'a': 1", &items));
  EXPECT_FALSE(PrintedDict("{a: 1}", &items));
  const auto figs = Read(
      "```\n$ python evict_bench.py --policy lru\n"                                        // line 8
      "{'policy': 'lru', 'hit_rate': 0.7350, 'wall_s': 4.020, 'peak_rss_mb': 31.5, 'valid': True}\n"  // 9
      "```\n");
  const RecordedFigure* f = OnLine(figs, 9);
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->run.metrics.at("hit_rate"), 0.735);
  EXPECT_EQ(f->run.decimals.at("hit_rate"), 4);
  EXPECT_DOUBLE_EQ(f->run.metrics.at("wall_time_s"), 4.02);
  EXPECT_EQ(f->run.config.at("valid"), "true");
  EXPECT_EQ(f->run.config.at("policy"), "lru");
}

TEST(ReaderPrintouts, PytestBenchmarkTable) {
  const auto figs = Read(
      "```\n$ pytest bench_lookup.py --benchmark-only\n"  // line 8
      "------------------------------------- benchmark: 2 tests -------------------------------------\n"
      "Name (time in us)          Min                 Max                Mean             Median            OPS (Kops/s)            Rounds  Iterations\n"  // 10
      "----------------------------------------------------------------------------------------------\n"
      "test_lookup_hot         3.2100 (1.0)       21.4400 (1.0)       3.4512 (1.0)     3.4000 (1.0)       289.7522 (1.0)          41233           1\n"  // 12
      "test_lookup_cold       88.0100 (27.42)    140.9000 (6.57)     91.2207 (26.43)  90.1000 (26.50)     10.9623 (0.04)           5310           1\n"  // 13
      "----------------------------------------------------------------------------------------------\n"
      "```\n");
  const RecordedFigure* hot = OnLine(figs, 12);
  ASSERT_NE(hot, nullptr);
  EXPECT_EQ(hot->run.config.at("name"), "test_lookup_hot");
  EXPECT_NEAR(hot->run.metrics.at("min_time_s"), 3.21e-6, 1e-15);  // "Min" is the minimum, never minutes
  EXPECT_NEAR(hot->run.metrics.at("mean_time_s"), 3.4512e-6, 1e-15);
  EXPECT_EQ(hot->run.units.at("mean_time_s"), "us");
  EXPECT_EQ(hot->run.decimals.at("mean_time_s"), 4);
  EXPECT_NEAR(hot->run.metrics.at("ops_per_s"), 289752.2, 1e-6);
  const RecordedFigure* cold = OnLine(figs, 13);
  ASSERT_NE(cold, nullptr);
  EXPECT_NEAR(cold->run.metrics.at("median_time_s"), 90.1e-6, 1e-15);
}

TEST(ReaderPrintouts, ATotalAndItsPartsInParentheses) {
  Breakdown bd;
  ASSERT_TRUE(PrintedBreakdown("Step time: 1.21 s (forward: 0.40 s, backward: 0.81 s)", &bd));
  EXPECT_EQ(bd.name, "Step time");
  EXPECT_EQ(bd.total.digits, "1.21");
  ASSERT_EQ(bd.parts.size(), 2u);
  EXPECT_EQ(bd.parts[1].first, "backward");
  EXPECT_EQ(bd.parts[1].second.unit, "s");
  EXPECT_FALSE(PrintedBreakdown("Step time: 1.21 s (2.5x faster)", &bd));
  EXPECT_FALSE(PrintedBreakdown("Speedup: 2.1x (fwd: 1.9x, bwd: 2.3x)", &bd));  // ratios, no measured parts
  const auto figs = Read(
      "```\n"
      "Epoch 1:  830ms (Load: 120ms, Train:  710ms) <- cold cache\n"  // line 8
      "Epoch 2:  640ms (Load:  15ms, Train:  625ms)\n"                // 9
      "```\n");
  ASSERT_EQ(figs.size(), 6u);
  EXPECT_EQ(figs[0].line, 8);
  EXPECT_EQ(figs[0].run.config.at("epoch"), "1");
  EXPECT_FALSE(figs[0].run.config.count("component"));
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.830, 1e-12);
  EXPECT_EQ(figs[2].run.config.at("component"), "Train");
  EXPECT_NEAR(figs[2].run.metrics.at("time_s"), 0.710, 1e-12);
  EXPECT_EQ(figs[4].run.config.at("epoch"), "2");
  EXPECT_EQ(figs[4].run.config.at("component"), "Load");
  EXPECT_NEAR(figs[4].run.metrics.at("time_s"), 0.015, 1e-12);
}

TEST(ReaderPrintouts, AServingRunsPeakThroughputAndAValidationField) {
  std::vector<UnreadFigures> unread;
  const auto figs = Read(
      "```\n$ python bench_serve.py --rate 4\n"         // line 8
      "Output token throughput (tok/s):     141.20\n"   // 9
      "Peak output token throughput (tok/s): 190.00\n"  // 10: the run's own peak, measured
      "Peak GPU bandwidth (GB/s):           3350\n"      // 11: a datasheet's
      "```\n\n"
      "```\nstep 200 | elapsed 1.52m | loss: 3.18 | val: 2.94\n```\n",  // 15
      &unread);
  const RecordedFigure* peak = OnLine(figs, 10);
  ASSERT_NE(peak, nullptr);
  EXPECT_DOUBLE_EQ(peak->run.metrics.at("tokens_per_s"), 190.0);
  EXPECT_EQ(OnLine(figs, 11), nullptr);
  const RecordedFigure* step = OnLine(figs, 15);
  ASSERT_NE(step, nullptr);
  EXPECT_DOUBLE_EQ(step->run.metrics.at("val"), 2.94);
  EXPECT_DOUBLE_EQ(step->run.metrics.at("loss"), 3.18);
}

TEST(ReaderPrintouts, ATimeUnitPerWhatItTimes) {
  const auto figs = Read(
      "After the scratch buffer:\n\n"
      "- `us_per_call=12.75`\n"                       // line 9
      "\n```\nsamples=40 ns_per_eval=3664.19\n```\n");  // 12
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("call_time_s"), 12.75e-6, 1e-15);
  EXPECT_EQ(figs[0].run.units.at("call_time_s"), "us");
  EXPECT_NEAR(figs[1].run.metrics.at("eval_time_s"), 3664.19e-9, 1e-18);
  EXPECT_EQ(figs[1].run.config.at("samples"), "40");
}

// The value of any metric of `f` that equals `v` (a profiler's columns name
// their metrics after their headers).
bool HoldsValue(const RecordedFigure* f, double v) {
  if (f == nullptr) return false;
  for (const auto& [m, x] : f->run.metrics)
    if (std::fabs(x - v) <= 1e-9 * std::fabs(v)) return true;
  return false;
}

// nvprof's summary: its first column names a group of rows once ("GPU
// activities:", "API calls:") and is blank below it; each row is a
// kernel's figures, keyed by the group and the kernel's name.
TEST(ReaderPrintouts, NvprofRowsUnderTheirGroup) {
  const auto figs = Read(
      "```\n$ nvprof ./scan_tiled 1048576\n"  // line 8
      "==5512== Profiling result:\n"         // 9
      "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"  // 10
      " GPU activities:   61.20%  412.35us         1  412.35us  412.35us  412.35us  scan_tiled(float*, float*, int)\n"  // 11
      "                   20.11%  135.50us         1  135.50us  135.50us  135.50us  [CUDA memcpy HtoD]\n"  // 12
      "      API calls:   97.02%  151.22ms         2  75.610ms  6.2100us  151.21ms  cudaMalloc\n"  // 13
      "```\n");
  const RecordedFigure* kernel = OnLine(figs, 11);
  const RecordedFigure* copy = OnLine(figs, 12);
  const RecordedFigure* api = OnLine(figs, 13);
  ASSERT_NE(kernel, nullptr);
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(api, nullptr);
  EXPECT_TRUE(HoldsValue(kernel, 412.35e-6));
  EXPECT_TRUE(HoldsValue(copy, 135.50e-6));
  EXPECT_EQ(copy->run.config.at("type"), "GPU activities");
  EXPECT_EQ(api->run.config.at("type"), "API calls");
  EXPECT_EQ(copy->run.config.at("name"), "[CUDA memcpy HtoD]");
  EXPECT_NE(kernel->run.config, copy->run.config);
}

// A training log's line of key:value pairs pasted as a sentence, bare or as
// one code span after a label: one row, each key naming its figure.
TEST(ReaderPrintouts, GluedColonPairsPastedAsProse) {
  for (const std::string line : {"step:5100/5100 val_loss:3.2794 train_time:1338402ms step_avg:262.43ms",
                                 "Final: `step:5100/5100 val_loss:3.2794 train_time:1338402ms step_avg:262.43ms`"}) {
    const auto figs = Read(line + "\n");
    ASSERT_EQ(figs.size(), 1u) << line;
    EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("val_loss"), 3.2794) << line;
    EXPECT_EQ(figs[0].run.metrics.size(), 3u) << line;  // step times and the loss; the step is no figure
  }
  // Prose that mentions pairs is no printed line: its loss is read as prose.
  for (const auto& f : Read("We ran it at step:100 and saw loss:3.1 there.\n")) EXPECT_FALSE(f.run.config.count("step"));
}

// A program's printed keys pasted as bullets: "`key`: `value`" (the key's
// suffix its unit: a time, a rate of what it counts, memory), and a line of
// key=value pairs whose statistic keys ("avg_cpu") are its figures.
TEST(ReaderPrintouts, PrintedKeysPastedAsBullets) {
  const auto figs = Read(
      "- `results/summary.json`\n"                       // line 7
      "  - `rows_per_second`: `412.75`\n"                // 8
      "  - `train/step_time_avg_s`: `3.2041`\n"          // 9
      "  - `postgres`: `143.20% CPU` (busy)\n"           // 10
      "- pid=4411 cmd=indexer samples=12 avg_cpu=55.10 avg_wait=0.40\n"  // 11
      "- pid=4420 cmd=vacuum samples=12 avg_cpu=7.25 avg_wait=0.00\n"    // 12
      "- sda samples=12 avg_util=22.50 avg_kb_s=1200.25\n"             // 13
      "- nvme0n1 samples=2 avg_util=14.01 avg_wkB_s=68117.21 avg_rkB_s=88.73\n");  // 14
  const RecordedFigure* rows = OnLine(figs, 8);
  ASSERT_NE(rows, nullptr);
  EXPECT_DOUBLE_EQ(rows->run.metrics.at("rows_per_s"), 412.75);
  EXPECT_EQ(rows->run.units.at("rows_per_s"), "rows/s");
  const RecordedFigure* step = OnLine(figs, 9);
  ASSERT_NE(step, nullptr);
  EXPECT_TRUE(HoldsValue(step, 3.2041));
  EXPECT_TRUE(HoldsValue(OnLine(figs, 10), 143.20));
  const RecordedFigure* indexer = OnLine(figs, 11);
  const RecordedFigure* vacuum = OnLine(figs, 12);
  ASSERT_NE(indexer, nullptr);
  ASSERT_NE(vacuum, nullptr);
  EXPECT_DOUBLE_EQ(indexer->run.metrics.at("avg_cpu"), 55.10);
  EXPECT_EQ(indexer->run.decimals.at("avg_cpu"), 2);
  EXPECT_EQ(indexer->run.config.at("cmd"), "indexer");
  EXPECT_FALSE(indexer->run.metrics.count("samples"));  // a count, no figure
  EXPECT_DOUBLE_EQ(vacuum->run.metrics.at("avg_wait"), 0.0);
  EXPECT_NE(indexer->run.config, vacuum->run.config);
  const RecordedFigure* disk = OnLine(figs, 13);
  ASSERT_NE(disk, nullptr);
  EXPECT_DOUBLE_EQ(disk->run.metrics.at("avg_util"), 22.50);
  bool rate = false;  // "_kb_s": kilobytes a second, no time
  for (const auto& [m, u] : disk->run.units) rate = rate || u == "kB/s";
  EXPECT_TRUE(rate);
  // iostat's read and write rates (rkB/s, wkB/s printed as "_rkB_s"): kilobytes a second, no time.
  const RecordedFigure* nvme = OnLine(figs, 14);
  ASSERT_NE(nvme, nullptr);
  int rates = 0;
  for (const auto& [m, u] : nvme->run.units) {
    EXPECT_EQ(m.find("time"), std::string::npos) << m << " (" << u << ")";
    rates += u == "kB/s";
  }
  EXPECT_EQ(rates, 2);
}

// Nsight Compute's section table: a column of units beside the values
// ("Duration  usecond  128.35"): each row's value in its row's unit, named by
// the row's first cell.
TEST(ReaderPrintouts, AColumnOfUnitsBesideTheValues) {
  const auto figs = Read(
      "```\n$ ncu --section SpeedOfLight ./reduce 16777216\n"  // line 8
      "    Section: GPU Speed Of Light Throughput\n"           // 9
      "    ----------------------- ------------- ------------\n"  // 10
      "    Metric Name               Metric Unit Metric Value\n"  // 11
      "    ----------------------- ------------- ------------\n"  // 12
      "    Elapsed Cycles                  cycle       98,213\n"  // 13
      "    Duration                      usecond       128.35\n"  // 14
      "    Memory Throughput                   %        88.73\n"  // 15
      "    ----------------------- ------------- ------------\n"
      "```\n");
  const RecordedFigure* duration = OnLine(figs, 14);
  ASSERT_NE(duration, nullptr);
  EXPECT_TRUE(HoldsValue(duration, 128.35e-6));
  bool us = false;  // "usecond" in the vocabulary's spelling: shown "128.35 us"
  for (const auto& [m, u] : duration->run.units) us = us || u == "us";
  EXPECT_TRUE(us);
  const RecordedFigure* memory = OnLine(figs, 15);
  ASSERT_NE(memory, nullptr);
  EXPECT_TRUE(HoldsValue(memory, 88.73));
  EXPECT_NE(duration->run.config, memory->run.config);
}

}  // namespace
}  // namespace moelog::logbook::reader
