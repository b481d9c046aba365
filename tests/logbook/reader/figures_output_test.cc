// The figures stage on program output: each printed figure on its own line's
// row, keyed by the block's command, its titles and the line's name.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - serving\n\n";

std::vector<RecordedFigure> Read(const std::string& body, std::vector<UnreadFigures>* unread = nullptr) {
  return ReadEntry(kHead, body, unread);
}

TEST(ReaderOutputFigures, NamedLinesOfAServingBlock) {
  const auto figs = Read(
      "```\n$ python serve_bench.py --rate 8\n"                    // line 8
      "============ Serving Benchmark Result ============\n"       // 9
      "Successful requests:              400\n"                     // 10: a count
      "Benchmark duration (s):           46.96\n"                   // 11
      "Output token throughput (tok/s):  1875.4\n"                  // 12
      "---------------Time to First Token----------------\n"        // 13
      "Mean TTFT (ms):                   152.30\n"                  // 14
      "```\n");
  EXPECT_EQ(OnLine(figs, 10), nullptr);
  // The block is one run's record: one row, each line's figure under its own name.
  ASSERT_EQ(figs.size(), 1u);
  const RecordedFigure* d = OnLine(figs, 11);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->run.config.count("metric"));
  EXPECT_EQ(d->run.config.at("group"), "Serving Benchmark Result");
  EXPECT_DOUBLE_EQ(d->run.metrics.at("benchmark_duration_time_s"), 46.96);
  EXPECT_DOUBLE_EQ(d->run.metrics.at("output_token_throughput_tokens_per_s"), 1875.4);
  EXPECT_EQ(d->run.units.at("mean_ttft_time_s"), "ms");
  EXPECT_EQ(d->run.decimals.at("mean_ttft_time_s"), 2);
  EXPECT_NEAR(d->run.metrics.at("mean_ttft_time_s"), 0.15230, 1e-12);
}

// A printed pipe table with blank rows between its groups (BenchmarkDotNet):
// every row after a blank one keeps its names and columns.
TEST(ReaderOutputFigures, ABlankRowBetweenGroupsEndsNoPrintedTable) {
  const auto figs = Read(
      "```\n| Type | Method | Mean | Allocated |\n|----- |------- |-----:|----------:|\n"
      "| Dup | GinFast | 113.7162 ms | 70059.50 KB |\n|     |         |      |           |\n"
      "| Query | GinFast | 0.8674 ms | 667.75 KB |\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.config.at("type"), "Query");
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);
}

// A test's printed lines named by their settings and ending in a verdict
// ("hdim=512:  0.60 TFLOPS - ✓ PASSED"): each a figure keyed by the setting,
// not a setting of the lines below.
TEST(ReaderOutputFigures, ASettingsNamedLineWithAVerdictIsAFigure) {
  const auto figs = Read("**Test Results:**\n```\nhdim=512:  0.60 TFLOPS - \xE2\x9C\x93 PASSED\n"
                         "hdim=2048: 0.65 TFLOPS - \xE2\x9C\x93 PASSED\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.config.at("hdim"), "2048");
  EXPECT_FALSE(figs[1].run.config.count("metric"));
}

TEST(ReaderOutputFigures, EachCommandKeysTheBlockBelowIt) {
  const auto figs = Read(
      "```bash\npython bench.py --rate 8\n```\n\n```\nLatency: 0.512 ms\n```\n\n"
      "```bash\npython bench.py --rate 16\n```\n\n```\nLatency: 0.734 ms\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("rate"), "8");
  EXPECT_EQ(figs[1].run.config.at("rate"), "16");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 0.000734, 1e-12);
}

TEST(ReaderOutputFigures, KeyValueAndJsonLines) {
  const auto figs = Read(
      "Output:\n\n```\nimpl=fused avg_step_ms=20.4027 speedup=28.52 tokens=4096\n"
      "{\"impl\": \"ref\", \"avg_step_ms\": 23.1, \"peak_bytes\": 2100}\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("impl"), "fused");
  EXPECT_EQ(figs[0].run.config.at("tokens"), "4096");  // a setting, no figure
  EXPECT_NEAR(figs[0].run.metrics.at("avg_step_time_s"), 0.0204027, 1e-12);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("speedup"), 28.52);
  EXPECT_FALSE(figs[0].run.derived.count("speedup"));  // a harness's score against its fixed reference
  EXPECT_EQ(figs[1].run.config.at("impl"), "ref");
  EXPECT_NEAR(figs[1].run.metrics.at("avg_step_time_s"), 0.0231, 1e-12);
}

TEST(ReaderOutputFigures, AlignedColumnsAndCsv) {
  const auto figs = Read(
      "```\nkernel   size   time (ms)   TFLOP/s\nwmma     2048   0.274       62.70\nwmma     4096   2.049       67.08\n```\n\n"
      "```\ncapacity,step_ms,val_bpb\n1.00,321.7,0.9371\n1.25,327.9,0.9355\n```\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].run.config.at("kernel"), "wmma");
  EXPECT_EQ(figs[0].run.config.at("size"), "2048");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.000274, 1e-12);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tflops"), 67.08);
  EXPECT_EQ(figs[2].run.config.at("capacity"), "1.00");
  EXPECT_NEAR(figs[2].run.metrics.at("step_time_s"), 0.3217, 1e-12);
  EXPECT_DOUBLE_EQ(figs[3].run.metrics.at("val_bpb"), 0.9355);
}

// A CSV printout padded to line its columns up is CSV all the same.
TEST(ReaderOutputFigures, PaddedCsvRows) {
  const auto figs = Read("```csv\ngpu,concurrency,p50_ttft_ms,throughput_tok_s\nL4,1,  812.40, 51.7\n"
                         "L4,16, 1207.95,603.12\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.config.at("concurrency"), "16");
  EXPECT_NEAR(figs[1].run.metrics.at("p50_ttft_time_s"), 1.20795, 1e-9);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tokens_per_s"), 603.12);
}

// A training log's evaluation lines: a counter, then comma-separated fields
// of unitless scores; a sentence's aside restating one is no printed name.
TEST(ReaderOutputFigures, CounterThenCommaFieldsOfScores) {
  const auto figs = Read("```\niter 100: loss 6.8812, time 98012.30ms, 101,377 tok/s\n\n"
                         "Step 500: train loss 3.4071, val loss 3.4456\nKept the checkpoint (val loss: 3.4456)\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.config.at("step"), "500");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("train_loss"), 3.4071);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("val_loss"), 3.4456);
}

// "peak_bytes_reserved=3.15GB": the value's own unit, of the memory the key
// names, is the figure's (never 3.15 bytes); "≈" pairs a key with a value
// about as written.
TEST(ReaderOutputFigures, AValuesOwnMemoryUnitAndApproximatePairs) {
  const auto figs = Read("```\nrun=a avg_step_ms=14.06 peak_bytes_reserved=3.15GB\n"
                         "run=b avg_step_ms\xE2\x89\x88" "9.37 peak_bytes_reserved\xE2\x89\x88" "4.02GB\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.units.at("peak_bytes_reserved_memory_mib"), "GB");
  EXPECT_NEAR(figs[0].run.metrics.at("peak_bytes_reserved_memory_mib"), 3.15 * 953.67431640625, 1e-6);
  EXPECT_NEAR(figs[1].run.metrics.at("avg_step_time_s"), 0.00937, 1e-12);
  EXPECT_TRUE(figs[1].run.approximate.count("avg_step_time_s"));
}

TEST(ReaderOutputFigures, TitlesNameTheLinesBelowAndTheirUnit) {
  const auto figs = Read(
      "```\n$ ./timing 100 4\nTotal Execution Time: 3252 microseconds\n\nDetailed Timing (microseconds):\n"
      "1. Thread Creation Overhead: 14.000\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("args"), "100 4");
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.003252, 1e-12);
  EXPECT_EQ(figs[1].run.config.at("metric"), "Thread Creation Overhead");
  EXPECT_EQ(figs[1].run.config.at("group"), "Detailed Timing");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 14e-6, 1e-15);
}

TEST(ReaderOutputFigures, PeaksAndShapesAreNoRunsFigures) {
  std::vector<UnreadFigures> unread;
  const auto figs = Read("```\nPeak Bandwidth: 736.064 GB/s\nMatrix A: 4096 x 4096\nLatency: 0.5 ms\n```\n", &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].run.config.at("metric"), "Latency");
  // A line no stage reads is told too ("not read"), shown only.
  std::erase_if(unread, [](const UnreadFigures& u) { return u.shown_only; });
  ASSERT_EQ(unread.size(), 1u);
  EXPECT_NE(unread[0].why.find("peak"), std::string::npos);
}

// A program's summary lines: a name whose last word is the unit ("Output
// tokens/s: 1240.7"), a peak of memory (the run's own, unlike a peak
// bandwidth), a magnitude glued to a field's number ("15.2k tok/s").
TEST(ReaderOutputFigures, SummaryLinesWithTheUnitInTheNameOrAMagnitude) {
  std::vector<UnreadFigures> unread;
  const auto figs = Read(
      "```\nTotal Time: 12.3 s\n"                             // line 8
      "Output tokens/s: 1240.7\n"                              // 9
      "Peak memory: 1.2 GB\n"                                  // 10
      "step 100 | loss 3.21 | 412.3 ms/step | 15.2k tok/s\n"   // 11
      "```\n", &unread);
  const RecordedFigure* t = OnLine(figs, 9);
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->run.metrics.at("tokens_per_s"), 1240.7);
  const RecordedFigure* m = OnLine(figs, 10);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->run.metrics.count("memory_mib"));
  const RecordedFigure* l = OnLine(figs, 11);
  ASSERT_NE(l, nullptr);
  ASSERT_TRUE(l->run.metrics.count("tokens_per_s"));
  EXPECT_DOUBLE_EQ(l->run.metrics.at("tokens_per_s"), 15200);
  EXPECT_EQ(l->run.units.at("tokens_per_s"), "k tok/s");
}

TEST(ReaderOutputFigures, PrintedKeyValueBulletsUnderTheirCommand) {
  const auto figs = Read(
      "- Bench:\n  - `python bench.py --impl ref --batch 1`\n    - `avg_step_ms=20.4`, `peak_bytes_reserved=24850`\n"
      "  - `python bench.py --impl kernel --batch 1`\n    - `avg_step_ms=23.1`, `peak_bytes_reserved=12583`\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("impl"), "ref");
  EXPECT_EQ(figs[1].run.config.at("impl"), "kernel");
  EXPECT_NEAR(figs[1].run.metrics.at("avg_step_time_s"), 0.0231, 1e-12);
}

TEST(ReaderOutputFigures, ABulletOfAUnitAndItsVariants) {
  const auto figs = Read("- ms/iter: sdpa=4.41  flex=10.49\n- tokens/s: sdpa=928,928  flex=390,619\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].run.config.at("variant"), "sdpa");
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 0.01049, 1e-12);
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("tokens_per_s"), 928928);  // thousands separators are no list
  EXPECT_EQ(figs[3].run.config.at("variant"), "flex");
}

TEST(ReaderOutputFigures, KernelBenchmarkLinesOfSeveralFigures) {
  std::vector<UnreadFigures> unread;
  const auto figs = Read(
      "```bash\npython bench_experts.py --dtype bf16\n```\n\nOutput:\n\n```\n"
      "expert_mm  M=64 N=2048   0.004 ms   0.05 TFLOP/s   0.1% of 180 TFLOP/s\n"   // line 14
      "expert_mm  M=512 N=2048  0.021 ms   0.66 TFLOP/s   0.4% of 180 TFLOP/s\n"   // 15
      "fused_mm   M=64 N=2048   0.003 ms   0.07 TFLOP/s   0.0% of 180 TFLOP/s\n```\n",
      &unread);
  ASSERT_EQ(figs.size(), 3u);
  const StoredRun& a = figs[0].run;
  EXPECT_EQ(a.config.at("m"), "64");
  EXPECT_EQ(a.config.at("n"), "2048");
  EXPECT_EQ(a.config.at("case"), "expert_mm");
  EXPECT_NEAR(a.metrics.at("time_s"), 4e-6, 1e-15);
  EXPECT_DOUBLE_EQ(a.metrics.at("tflops"), 0.05);
  EXPECT_TRUE(a.derived.count("pct"));  // a share of the peak
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_NE(v, 180) << m;  // the peak is no run's figure
  EXPECT_EQ(figs[1].run.config.at("m"), "512");
  EXPECT_EQ(figs[2].run.config.at("case"), "fused_mm");
}

// A timing harness that prints, after each row's figures, how it measured them
// ("total= 40.2 ms  iters=9800  warmup= ..."): the row's figures are read, the
// loop's bookkeeping is neither a figure nor a key.
TEST(ReaderOutputFigures, KernelLinesWithTheLoopsBookkeepingAfterTheFigures) {
  const auto figs = Read(
      "```bash\n./bench_tiles.sh big\n```\n\nOutput:\n\n```\n"
      "gate_tile_plain      0.012 ms    1.40 TFLOP/s   0.7% of 200 TFLOP/s  total= 50.110 ms  iters=4170  warmup= 50.020 ms  warmup_iters=4100\n"  // 14
      "gate_tile_swizzled   0.009 ms    1.87 TFLOP/s   0.9% of 200 TFLOP/s  total= 50.031 ms  iters=5510  warmup= 50.002 ms  warmup_iters=5498\n"  // 15
      "```\n");
  ASSERT_EQ(figs.size(), 2u);
  const StoredRun& a = figs[0].run;
  EXPECT_EQ(figs[0].line, 14);
  EXPECT_EQ(a.config.at("case"), "gate_tile_plain");
  EXPECT_NEAR(a.metrics.at("time_s"), 12e-6, 1e-15);
  EXPECT_DOUBLE_EQ(a.metrics.at("tflops"), 1.40);
  EXPECT_TRUE(a.derived.count("pct"));
  EXPECT_EQ(a.config.count("iters"), 0u);
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_LT(v, 10) << m;  // no total, no warmup time, no peak
  EXPECT_EQ(figs[1].run.config.at("case"), "gate_tile_swizzled");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tflops"), 1.87);
}

// A table a script prints: a header, a rule under it, then rows, its columns
// split by `|` or by runs of spaces; a header's "(us/call)" names its unit.
bool HasValue(const Config& cfg, const std::string& value) {
  for (const auto& [k, v] : cfg)
    if (v == value) return true;
  return false;
}

TEST(ReaderOutputFigures, APrintedTableWithARuleUnderItsHeader) {
  const auto figs = Read(
      "Bench: `bench_scan.py`, bf16\n\n```\n"
      "   size (M,N) |  fused (us/call) |  eager (us/call) |   ratio\n"  // line 10
      "------------------------------------------------------------\n"
      "    (64, 512) |             4.12 |             5.20 |   0.79x\n"  // 12
      "   (256, 512) |             6.70 |             7.13 |   0.94x\n"  // 13
      "```\n\nAnd the second table:\n\n```\n"
      "kernel      time (ms)   TFLOP/s\n"  // 19
      "----------  ----------  -------\n"
      "naive            0.412     0.65\n"  // 21
      "tiled            0.098     2.71\n"  // 22
      "```\n");
  ASSERT_EQ(figs.size(), 6u);  // the fused and the eager run of a row: a figure set each (SplitRunMetrics)
  std::map<std::string, double> row12;
  for (const auto& f : figs) {
    if (f.line != 12) continue;
    EXPECT_TRUE(HasValue(f.run.config, "(64, 512)"));
    ASSERT_TRUE(f.run.config.count("variant") && f.run.metrics.count("time_s")) << f.text;
    row12[f.run.config.at("variant")] = f.run.metrics.at("time_s");
  }
  EXPECT_NEAR(row12["fused"], 4.12e-6, 1e-15);
  EXPECT_NEAR(row12["eager"], 5.20e-6, 1e-15);
  EXPECT_TRUE(HasValue(figs[2].run.config, "(256, 512)"));
  EXPECT_EQ(figs[4].line, 21);
  EXPECT_EQ(figs[4].run.config.at("kernel"), "naive");
  EXPECT_NEAR(figs[4].run.metrics.at("time_s"), 0.412e-3, 1e-12);
  EXPECT_DOUBLE_EQ(figs[5].run.metrics.at("tflops"), 2.71);
}

TEST(ReaderOutputFigures, PipeSeparatedTrainingLog) {
  const auto figs = Read(
      "```bash\ntorchrun train_moe.py --lr 6e-4\n```\n\n```\n"
      "step 250 | elapsed 3.50m | loss: 4.12 | lr 6e-4 | tok/s 48,210\n"
      "step 500 | elapsed 7.05m | loss: 3.66 | lr 6e-4 | tok/s 47,980\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  const StoredRun& a = figs[0].run;
  EXPECT_EQ(a.config.at("step"), "250");
  EXPECT_EQ(a.config.at("lr"), "6e-4");  // a setting, no figure
  EXPECT_DOUBLE_EQ(a.metrics.at("loss"), 4.12);
  EXPECT_DOUBLE_EQ(a.metrics.at("tokens_per_s"), 48210);
  EXPECT_EQ(a.units.at("elapsed_wall_time_s"), "min");  // "3.50m" of a duration is minutes
  EXPECT_DOUBLE_EQ(a.metrics.at("elapsed_wall_time_s"), 210);
  for (const auto& [k, v] : a.config) EXPECT_EQ(k.find('|'), std::string::npos) << k;
  EXPECT_EQ(figs[1].run.config.at("step"), "500");
}

TEST(ReaderOutputFigures, TrainerLogOfManyColonFields) {
  const auto figs = Read(
      "```\n$ torchrun train.py --model tiny\n"
      "step: 20  loss: 6.1043  memory: 41.20GiB(52.10%)  tps: 1,204  tflops: 31.07  mfu: 3.14%\n"
      "step: 40  loss: 5.2210  memory: 41.20GiB(52.10%)  tps: 1,311  tflops: 33.80  mfu: 3.42%\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  const StoredRun& a = figs[0].run;
  EXPECT_EQ(a.config.at("step"), "20");
  EXPECT_DOUBLE_EQ(a.metrics.at("loss"), 6.1043);
  EXPECT_DOUBLE_EQ(a.metrics.at("tflops"), 31.07);
  EXPECT_DOUBLE_EQ(a.metrics.at("mfu"), 3.14);
  EXPECT_EQ(a.units.at("memory_mib"), "GiB");
  EXPECT_EQ(a.units.at("tps_tokens_per_s"), "tok/s");
  EXPECT_DOUBLE_EQ(a.metrics.at("tps_tokens_per_s"), 1204);
  EXPECT_EQ(figs[1].run.config.at("step"), "40");
}

const char* kServing =
    "============ Serving Benchmark Result ============\n"
    "Successful requests:                     50\n"
    "Request throughput (req/s):              %s\n"
    "---------------Time to First Token----------------\n"
    "Mean TTFT (ms):                          %s\n"
    "==================================================\n";

std::string Serving(const char* rps, const char* ttft) {
  char buf[512];
  std::snprintf(buf, sizeof buf, kServing, rps, ttft);
  return buf;
}

TEST(ReaderOutputFigures, ServingBlocksKeyedByTheFlagsTheirCommandsVary) {
  const auto figs = Read("```bash\nvllm bench serve --model m --request-rate 2 --num-prompts 50\n```\n\n```\n" + Serving("1.94", "210.5") +
                         "```\n\n```bash\nvllm bench serve --model m --request-rate 8 --num-prompts 50\n```\n\n```\n" +
                         Serving("7.41", "388.2") + "```\n");
  ASSERT_EQ(figs.size(), 2u);  // a row per block
  EXPECT_EQ(figs[0].run.config.at("request_rate"), "2");
  EXPECT_EQ(figs[1].run.config.at("request_rate"), "8");
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);
  EXPECT_FALSE(figs[0].run.config.count("model"));  // the same in both: tells nothing apart
  EXPECT_FALSE(figs[0].run.config.count("args"));
}

TEST(ReaderOutputFigures, ServingBlocksKeyedByTheLabelAboveThem) {
  const auto figs = Read("* 2 req/s\n\n```\n" + Serving("1.94", "210.5") + "```\n\n* 8 req/s\n\n```\n" +
                         Serving("7.41", "388.2") + "```\n\nvLLM v0.9.1\n\n```\n" + Serving("7.60", "350.0") + "```\n");
  ASSERT_EQ(figs.size(), 3u);  // a row per block
  EXPECT_EQ(figs[0].run.config.at("setup"), "2 req/s");
  EXPECT_EQ(figs[1].run.config.at("setup"), "8 req/s");
  EXPECT_EQ(figs[2].run.config.at("setup"), "vLLM v0.9.1");
}

// Bullets of words alone over two or more blocks, each different ("*
// Default build", "* With native CPU optimizations"), label them as well;
// one such bullet alone labels nothing.
TEST(ReaderOutputFigures, BlocksKeyedByBulletsOfWords) {
  const auto figs = Read("* Default build\n\n```\n" + Serving("1.94", "210.5") + "```\n\n* With native flags\n\n```\n" +
                         Serving("7.41", "388.2") + "```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("setup"), "Default build");
  EXPECT_EQ(figs[1].run.config.at("setup"), "With native flags");
  const auto one = Read("* Default build\n\n```\n" + Serving("1.94", "210.5") + "```\n");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_FALSE(one[0].run.config.count("setup"));
}

// A pasted shell session: a listing's aligned names (`ls`) are no column
// header over the next command's printout; each command's plain arguments
// key the lines it printed.
TEST(ReaderOutputFigures, ASessionsListingIsNoHeaderOverTheNextCommand) {
  const std::string at = "root@lab:~/Perf-Compare-OpenMP-and-Rayon/Scan/cpp# ";
  const auto figs = Read("```jsx\n\n" + at + "cd cpp\n" + at + "ls\nscan_par.cpp  scan_rt.cpp  scan_seq.cpp  scan_timing\n" +
                         at + "./scan_timing 10 4\nTotal Execution Time: 387 microseconds\n" + at +
                         "./scan_timing 100 4\nTotal Execution Time: 3252 microseconds\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("args"), "10 4");
  EXPECT_EQ(figs[1].run.config.at("args"), "100 4");
  EXPECT_EQ(PositionalArgs("cargo run --release --bin scan -- 10 4"), "10 4");
  EXPECT_EQ(PositionalArgs("./scan 10 4 | tee log"), "10 4");
}

TEST(ReaderOutputFigures, HyperfineBenchmarksKeyTheirTimeAndRange) {
  const auto figs = Read(
      "```\n$ hyperfine './scan --threads 4' './scan --threads 8'\n"
      "Benchmark 1: ./scan --threads 4\n"
      "  Time (mean \xC2\xB1 \xCF\x83):      2.345 s \xC2\xB1  0.021 s    [User: 9.012 s, System: 0.120 s]\n"
      "  Range (min \xE2\x80\xA6 max):    2.310 s \xE2\x80\xA6  2.391 s    10 runs\n\n"
      "Benchmark 2: ./scan --threads 8\n"
      "  Time (mean \xC2\xB1 \xCF\x83):     1.402 s \xC2\xB1  0.015 s    [User: 10.411 s, System: 0.201 s]\n"
      "  Range (min \xE2\x80\xA6 max):    1.380 s \xE2\x80\xA6  1.431 s    10 runs\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  const StoredRun& a = figs[0].run;
  EXPECT_EQ(a.config.at("threads"), "4");
  EXPECT_DOUBLE_EQ(a.metrics.at("time_s"), 2.345);
  EXPECT_DOUBLE_EQ(a.metrics.at("std_time_s"), 0.021);
  EXPECT_DOUBLE_EQ(a.metrics.at("min_time_s"), 2.31);
  EXPECT_DOUBLE_EQ(a.metrics.at("max_time_s"), 2.391);
  EXPECT_DOUBLE_EQ(a.metrics.at("user_time_s"), 9.012);
  EXPECT_FALSE(a.config.count("metric"));
  EXPECT_EQ(figs[1].run.config.at("threads"), "8");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("max_time_s"), 1.431);
}

// hyperfine before 1.12 printed "Benchmark #1: CMD"; each run printed its
// own #1, so the command is what tells them apart.
TEST(ReaderOutputFigures, OlderHyperfineBenchmarkLinesKeyTheirCommand) {
  const auto figs = Read(
      "```\n"
      "Benchmark #1: ./scan --config small.json\n"
      "  Time (mean \xC2\xB1 \xCF\x83):      5.937 s \xC2\xB1  3.181 s    [User: 5.889 s, System: 0.030 s]\n"
      "  Range (min \xE2\x80\xA6 max):    0.811 s \xE2\x80\xA6  9.002 s    10 runs\n\n"
      "Benchmark #1: ./scan --config large.json\n"
      "  Time (mean \xC2\xB1 \xCF\x83):     47.488 s \xC2\xB1 21.299 s    [User: 47.279 s, System: 0.065 s]\n"
      "  Range (min \xE2\x80\xA6 max):    4.967 s \xE2\x80\xA6 62.427 s    10 runs\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("config"), "small.json");
  EXPECT_EQ(figs[1].run.config.at("config"), "large.json");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("time_s"), 47.488);
}

// A compared command prefixed by a quoted assignment is read by the shell
// parser, quotes respected: the assignment's value whole, a short flag's
// file, never words of the quoted value as keys of their own.
TEST(ReaderOutputFigures, HyperfineCommandsWithAQuotedEnvironmentKeepTheirSettings) {
  const std::string cmd = "RUSTFLAGS='-C target-cpu=native -C opt-level=3' cargo run --release -- -c config/";
  const auto figs = Read(
      "```\n"
      "Benchmark 1: " + cmd + "small.json\n"
      "  Time (mean \xC2\xB1 \xCF\x83):      2.101 s \xC2\xB1  0.022 s    [User: 1.998 s, System: 0.099 s]\n"
      "  Range (min \xE2\x80\xA6 max):    2.070 s \xE2\x80\xA6  2.139 s    10 runs\n\n"
      "Benchmark 1: " + cmd + "large.json\n"
      "  Time (mean \xC2\xB1 \xCF\x83):     21.870 s \xC2\xB1  0.140 s    [User: 21.61 s, System: 0.21 s]\n"
      "  Range (min \xE2\x80\xA6 max):   21.660 s \xE2\x80\xA6 22.080 s    10 runs\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("rustflags"), "-C target-cpu=native -C opt-level=3");
  EXPECT_EQ(figs[0].run.config.at("c"), "config/small.json");
  EXPECT_EQ(figs[1].run.config.at("c"), "config/large.json");
  EXPECT_FALSE(figs[0].run.config.count("target_cpu"));
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("time_s"), 21.87);
}

TEST(ReaderOutputFigures, AShellLoopKeysItsFiguresByItsValues) {
  const auto figs = Read(
      "```\n$ for n in 2 4 8; do OMP_NUM_THREADS=$n ./solver | grep elapsed; done\n"
      "elapsed: 4.10 s\nelapsed: 2.22 s\nelapsed: 1.31 s\n```\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[0].run.config.at("omp_num_threads"), "2");
  EXPECT_EQ(figs[2].run.config.at("omp_num_threads"), "8");
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("time_s"), 1.31);
}

TEST(ReaderOutputFigures, AKeysBytesWordIsItsUnit) {
  const auto figs = Read("- `python bench.py --impl fused`\n  - `avg_step_ms=9.5`, `peak_bytes_allocated=1073741824`\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("peak_bytes_allocated"), 1073741824);
  EXPECT_EQ(figs[0].run.units.at("peak_bytes_allocated"), "bytes");
}

TEST(ReaderOutputFigures, AStatisticAfterAKeysUnit) {
  const auto figs = Read("Output:\n\n```\nimpl=ref step_s_mean=0.0090 latency_ms_p99=4.5 peak_bytes_in_use_max=6226795008\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  const StoredRun& a = figs[0].run;
  EXPECT_DOUBLE_EQ(a.metrics.at("step_mean_time_s"), 0.009);
  EXPECT_EQ(a.units.at("step_mean_time_s"), "s");
  EXPECT_DOUBLE_EQ(a.metrics.at("latency_p99_time_s"), 0.0045);
  EXPECT_EQ(a.units.at("peak_bytes_in_use_max"), "bytes");
  EXPECT_EQ(a.config.at("impl"), "ref");
}

TEST(ReaderOutputFigures, ARemoteCommandsQuotedScriptKeysItsPrintout) {
  const auto figs = Read(
      "- Sweep (batch=2):\n"
      "  - `ssh node1 --command \"cd /w; python bench.py --impl ref --batch 2\"`\n    - `avg_step_ms=20.4`\n"
      "  - `ssh node1 --command \"cd /w; python bench.py --impl fused --batch 2\"`\n    - `avg_step_ms=12.1`\n"
      "- Sweep (batch=8):\n  - `avg_step_ms=61.0`\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[0].run.config.at("impl"), "ref");
  EXPECT_EQ(figs[1].run.config.at("impl"), "fused");
  // A command nested under another item keys that item's printout only.
  EXPECT_FALSE(figs[2].run.config.count("impl"));
  EXPECT_EQ(figs[2].run.config.at("batch"), "8");
}

TEST(ReaderOutputFigures, ProgramSourceIsNoPrintout) {
  const auto figs = Read("```python\n# flops: 2 x n x 4n = 16n^2 per token\nhidden = (8 * n) // 3\nx = w3(x)\n```\n");
  EXPECT_TRUE(figs.empty());
}

TEST(ReaderOutputFigures, AHugeBlockIsReadToTheCapOnly) {
  std::string block = "```\n";
  for (int i = 0; i < 50000; ++i) block += "step=" + std::to_string(i) + " loss=3.2 step_ms=41.0\n";
  const auto figs = Read(block + "```\n");
  EXPECT_EQ(figs.size(), kMaxFiguresPerEntry);
}

// A printed line of settings and no figure ("Running copy with N=1024,
// stride=4") keys the printed figures below it, up to the next such line.
TEST(ReaderOutputFigures, ASettingsLineKeysTheLinesBelowIt) {
  const auto figs = Read(
      "```\n"
      "Running copy with N=1024, stride=4\n"   // line 8
      "copy_naive  :  12.500 ms,  0.40 TB/s\n"  // 9
      "copy_vec4   :   6.250 ms,  0.80 TB/s\n"  // 10
      "Running copy with N=4096, stride=4\n"   // 11
      "copy_naive  :  48.100 ms,  0.42 TB/s\n"  // 12
      "```\n");
  const RecordedFigure* a = OnLine(figs, 9);
  const RecordedFigure* b = OnLine(figs, 12);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(a->run.config.count("n"));
  EXPECT_EQ(a->run.config.at("n"), "1024");
  EXPECT_EQ(b->run.config.at("n"), "4096");
  EXPECT_EQ(OnLine(figs, 10)->run.config.at("n"), "1024");
  EXPECT_NE(a->run.config, b->run.config);
}

// A client's printout in a shell-named fence: "Name:  value" lines whose
// name says what was measured (a time, a latency) but no unit are its
// figures, without a unit; "Prompts/Request:" is a printed name, no program.
TEST(ReaderOutputFigures, NamedLinesWithoutAUnitNamingAMeasurement) {
  const auto figs = Read(
      "```bash\n"
      "Total Requests:  100\n"    // line 8: a count
      "Prompts/Request:  250\n"   // 9: a count
      "Total Time:  41.20\n"      // 10
      "Avg Latency:  12.10\n"     // 11
      "```\n");
  EXPECT_EQ(OnLine(figs, 8), nullptr);
  EXPECT_EQ(OnLine(figs, 9), nullptr);
  ASSERT_NE(OnLine(figs, 10), nullptr);
  ASSERT_NE(OnLine(figs, 11), nullptr);
  EXPECT_EQ(OnLine(figs, 11)->run.metrics.begin()->second, 12.10);
}

// The shell's `time` printed under a command: bash's `real 0m1.234s`,
// `time -p`'s bare seconds, fish's `Executed in 184.93 secs` with its
// `usr time` and `sys time` columns. The wall time is the run's time, the
// user and system times beside it on its row; fish's other columns none.
TEST(ReaderOutputFigures, TheShellsTimePrintout) {
  const auto figs = Read(
      "```console\n$ time make -j8\n"                                   // line 8
      "real\t1m2.500s\nuser\t3m40.120s\nsys\t0m9.004s\n```\n\n"  // 9-11
      "```console\n$ time -p ./bench\nreal 25.45\nuser 23.97\nsys 1.51\n```\n\n"  // 16-18
      "```console\n\u276f time cargo build\n"                          // 22
      "    Finished `dev` profile [unoptimized] target(s) in 50.06s\n\n"  // 23
      "________________________________________________________\n"
      "Executed in   50.16 secs    fish           external\n"             // 26
      "   usr time  242.99 secs    0.00 micros  242.99 secs\n"            // 27
      "   sys time   32.51 secs  996.00 micros   32.51 secs\n```\n");     // 28
  const RecordedFigure* bash = OnLine(figs, 9);
  ASSERT_NE(bash, nullptr);
  EXPECT_DOUBLE_EQ(bash->run.metrics.at("time_s"), 62.5);
  EXPECT_DOUBLE_EQ(bash->run.metrics.at("user_time_s"), 220.12);
  EXPECT_DOUBLE_EQ(bash->run.metrics.at("system_time_s"), 9.004);
  const RecordedFigure* p = OnLine(figs, 16);
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->run.metrics.at("time_s"), 25.45);
  EXPECT_DOUBLE_EQ(p->run.metrics.at("user_time_s"), 23.97);
  const RecordedFigure* fish = OnLine(figs, 26);
  ASSERT_NE(fish, nullptr);
  EXPECT_DOUBLE_EQ(fish->run.metrics.at("time_s"), 50.16);
  EXPECT_DOUBLE_EQ(fish->run.metrics.at("user_time_s"), 242.99);
  EXPECT_DOUBLE_EQ(fish->run.metrics.at("system_time_s"), 32.51);
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.metrics) EXPECT_NE(v, 996.0) << k;  // fish's own column is no figure
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// bash's `time` under a locale whose decimal mark is a comma ("real
// 1m34,617s"): the same run, its seconds as written, never the digits
// after the comma alone.
TEST(ReaderOutputFigures, TheShellsTimeWithADecimalComma) {
  const auto figs = Read("```\n$ time zig build run\n\nreal    1m34,617s\nuser    1m20,432s\nsys     0m13,822s\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("time_s"), 94.617);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("user_time_s"), 80.432);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("system_time_s"), 13.822);
}

// A timer's printout that leads each line with its figure in brackets
// ("[10.63s] Insert 2048 authors"), pasted as prose or in a fence: a figure
// a line, named by the label after it.
TEST(ReaderOutputFigures, BracketLedTimerLinesAreFiguresByTheirLabel) {
  const auto figs = ReadEntry("# Store log\n\n## 2026-04-01 Key-value store\n\n",  // heading: line 3
                              "Ran the store benchmark.\n\n"                         // 5
                              "--- EMPTY STORE ---\n"                                // 7
                              "[4.21s] Insert 5000 rows\n"                           // 8
                              "[312.90ms] Scan rows\n"                               // 9
                              "[18.04ms] Point lookups\n");                          // 10
  const RecordedFigure* insert = OnLine(figs, 8);
  const RecordedFigure* scan = OnLine(figs, 9);
  ASSERT_NE(insert, nullptr);
  ASSERT_NE(scan, nullptr);
  EXPECT_NEAR(insert->run.metrics.at("elapsed_time_s"), 4.21, 1e-12);
  EXPECT_NEAR(scan->run.metrics.at("elapsed_time_s"), 0.3129, 1e-12);
  EXPECT_NE(insert->run.config, scan->run.config);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A value written as a range ("~30-60 ms", "2-4 ms") in a block of
// "name: value" lines is a person's guess at what a run takes, not a
// program's printed figure: no run's figure. A single value beside it is.
TEST(ReaderOutputFigures, ARangeInAPrintedBlockIsNoFigure) {
  const auto figs = ReadEntry("# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - cache warmup\n\n",
                              "```\nCold start time (5 calls): ~30-60 ms\nWarm call time: 2-4 ms\nHit ratio: 97.5%\n```\n");
  for (const auto& f : figs) EXPECT_TRUE(f.line == 10) << f.line << " " << f.text;
  EXPECT_EQ(OnLine(figs, 8), nullptr);
  EXPECT_EQ(OnLine(figs, 9), nullptr);
}

// A printed line of fields split by "; ", in a fence or pasted as a list
// item's one code span under the item naming its case: one row per line,
// its unitless field a setting, its named figures the row's.
TEST(ReaderOutputFigures, FieldsSplitBySemicolonsAreOneRowPerLine) {
  for (const std::string& body : {
           std::string("```\nSIZE: 2048; average elapsed time: 0.0565s; performance: 303.9 GFLOPS\n"
                       "SIZE: 4096; average elapsed time: 0.4492s; performance: 305.9 GFLOPS\n```\n"),
           std::string("1. Naive\n\n    `SIZE: 2048; average elapsed time: 0.0565s; performance: 303.9 GFLOPS`\n\n"
                       "    `SIZE: 4096; average elapsed time: 0.4492s; performance: 305.9 GFLOPS`\n")}) {
    const auto figs = Read(body);
    ASSERT_EQ(figs.size(), 2u) << body;
    EXPECT_EQ(figs[0].run.config.at("size"), "2048");
    EXPECT_EQ(figs[1].run.config.at("size"), "4096");
    EXPECT_EQ(figs[0].run.metrics.size(), 2u);
    if (body[0] == '1') {
      EXPECT_EQ(figs[0].run.config.at("case"), "Naive");
    }
  }
}

// The same fields written as prose in a bullet stay two runs, each named.
TEST(ReaderOutputFigures, SemicolonsInABulletsProseSplitNoFields) {
  const auto figs = Read("- baseline: 12 ms; fused: 8 ms\n");
  ASSERT_EQ(figs.size(), 2u);
}

// A serving tool's lines pasted as plain paragraphs, each under a one-word
// title ("CONC4:", "CONC8:"): printed output, each figure keyed by its
// title; a label of prose words is no such title.
TEST(ReaderOutputFigures, PastedLinesUnderOneWordTitlesAreOutput) {
  const auto figs = Read("CONC4:\nMean TPOT (ms):     28.75\nMedian TPOT (ms):   28.76\n\n"
                         "CONC8\xEF\xBC\x9A\nMean TPOT (ms):     37.05\nMedian TPOT (ms):   37.19\n");  // a full-width colon
  ASSERT_EQ(figs.size(), 4u);
  std::set<std::string> groups;
  for (const auto& f : figs) groups.insert(f.run.config.count("group") ? f.run.config.at("group") : "");
  EXPECT_EQ(groups, (std::set<std::string>{"CONC4", "CONC8"}));
  EXPECT_FALSE(moelog::logbook::PrintedLines("Some notes here:\nMean TPOT (ms):  28.75\nMedian TPOT (ms):  28.76\n"));
}

// "torch.compile took 102.48 s": what a short subject took, named by it;
// a long sentence with "took" names nothing.
TEST(ReaderOutputFigures, AShortSubjectTookAFigure) {
  const auto figs = ReadEntry("# vLLM log\n\n", "## 2026-05-02 profile\n\n```text\n"
                                                 "init engine (profile, create kv cache) took 292.22 seconds\n"
                                                 "torch.compile took 102.48 s\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_TRUE(figs[0].run.metrics.count("init_engine_time_s"));
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.begin()->second, 102.48);
}

// "loss_main=3.2175 sub_loss=9.8336": a key whose first word is a quality
// (loss, ppl, acc ...) is a unitless figure as "sub_loss" is.
TEST(ReaderOutputFigures, AKeyOpeningWithAQualityIsAFigure) {
  const auto figs = ReadEntry("# TTS log\n\n", "## 2026-05-02 gradient check\n\n```\nloss_main=3.2175 sub_loss=9.8336\n```\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_TRUE(figs[0].run.metrics.count("loss_main"));
  EXPECT_TRUE(figs[0].run.metrics.count("sub_loss"));
}

}  // namespace
}  // namespace moelog::logbook::reader
