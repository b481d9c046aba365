// The blocks and figures stages on programs' console printouts pasted into
// logbooks: progress bars (tqdm's), a trainer's `│`-split metric lines with
// asides, a sample program's progress messages around its timing lines, a
// ```bash fence of a command (wrapped inside its quotes) and what it printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "logbook/doc/command_line.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/figures_bracketcols.h"
#include "logbook/reader/figures_pipefields.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/figures_progressbar.h"
#include "logbook/reader/figures_shares.h"
#include "logbook/reader/figures_stackedheader.h"
#include "logbook/reader/figures_toollines.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - run\n\n";

std::vector<RecordedFigure> Read(const std::string& body) { return ReadEntry(kHead, body); }

TEST(FiguresConsole, ProgressBarLineForms) {
  std::string out;
  ASSERT_TRUE(ProgressBarForm("Warmup:  40%|\xE2\x96\x88\xE2\x96\x88\xE2\x96\x88\xE2\x96\x8C     | 40/100 [03:10<04:45, 4.75s/iter]", &out));
  EXPECT_EQ(out, "step 40 | Warmup: 4.75 s/iter");
  ASSERT_TRUE(ProgressBarForm("100%|##########| 64/64 [00:09<00:00,  6.61it/s, loss=2.07, acc=0.61]", &out));
  EXPECT_EQ(out, "step 64 | progress: 6.61 it/s | loss: 2.07 | acc: 0.61");
  ASSERT_TRUE(ProgressBarForm("Epoch 2:  50%|#####     | 5/10 [00:05<00:05,  1.02it/s]", &out));
  EXPECT_EQ(out, "Epoch 2 | step 5 | progress: 1.02 it/s");
  ASSERT_TRUE(ProgressBarForm("8192it [00:03, 2437.18it/s]", &out));
  EXPECT_EQ(out, "step 8192 | progress: 2437.18 it/s");
  EXPECT_FALSE(ProgressBarForm("Warmup:   0%|          | 0/100 [00:00<?, ?iter/s]", &out));  // no rate yet
  EXPECT_FALSE(ProgressBarForm("see the plot [fig. 3, left]", &out));
}

TEST(FiguresConsole, ProgressBarsInATrainingLog) {
  const auto figs = Read(
      "```\n$ python finetune.py --epochs 1\n"                                                        // line 8
      "Finetune:   0%|          | 0/100 [00:00<?, ?iter/s]\n"                                        // 9
      "Finetune:  40%|####      | 40/100 [03:10<04:45, 4.75s/iter]\n"                                // 10
      "Finetune:  42%|####2     | 42/100 [03:19<04:35, 4.71s/iter]\n"                                // 11
      "eval: 100%|##########| 64/64 [00:09<00:00,  6.61it/s, loss=2.07]\n"                           // 12
      "```\n");
  const RecordedFigure* a = OnLine(figs, 10);
  const RecordedFigure* b = OnLine(figs, 11);
  const RecordedFigure* e = OnLine(figs, 12);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(OnLine(figs, 9), nullptr);
  EXPECT_NE(a, b);  // two moments of the bar: two rows, told apart by their counts
  EXPECT_EQ(a->run.config.at("step"), "40");
  EXPECT_EQ(b->run.config.at("step"), "42");
  EXPECT_DOUBLE_EQ(e->run.metrics.at("loss"), 2.07);
}

TEST(FiguresConsole, PipeFieldsWithAsidesAndQualifiers) {
  EXPECT_EQ(PipeFieldForm("FLOPs/token: 4.1 GF (6N: N=350M)"), "FLOPs/token: 4.1 GF");
  EXPECT_EQ(PipeFieldForm("Memory: 7.25 GB alloc"), "alloc Memory: 7.25 GB");
  EXPECT_EQ(PipeFieldForm("Mode: eager"), "Mode: eager");
  EXPECT_EQ(PipeLineForm("Tok/s: 52011 | FLOPs/token: 4.1 GF (6N: N=350M)"), "Tok/s: 52011 | FLOPs/token: 4.1 GF");
  const auto figs = Read(
      "```\n$ python pretrain.py --gpus 4\n"                                                                 // line 8
      "\xE2\x96\xB6 Step 50 \xE2\x94\x82 Loss: 6.2210 \xE2\x94\x82 Time: 812ms \xE2\x94\x82 LR: 2.0e-05\n"   // 9
      "   Tok/s: 52011 \xE2\x94\x82 FLOPs/token: 4.1 GF (6N: N=350M)\n"                                     // 10
      "Memory: 7.25 GB alloc \xE2\x94\x82 30.5 GB peak \xE2\x94\x82 33.0 GB reserved\n"                     // 11
      "```\n");
  const RecordedFigure* tok = OnLine(figs, 10);
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->run.config.count("n"), 0u);  // the aside's N=350M is no setting
  const RecordedFigure* mem = OnLine(figs, 11);
  ASSERT_NE(mem, nullptr);
  bool alloc = false;  // the figure the word after its unit names
  for (const auto& [k, v] : mem->run.metrics) alloc = alloc || k.find("alloc") != std::string::npos;
  EXPECT_TRUE(alloc);
  EXPECT_EQ(mem->run.metrics.size(), 3u);
  EXPECT_EQ(mem->run.config.count("n"), 0u);
}

TEST(FiguresConsole, ASampleProgramsPrintoutWithProgressMessages) {
  const std::string text = std::string(kHead) +
                           "```\n"
                           "[scanSample] - Starting...\n"                       // 8
                           "GPU Device 0: \"Hopper\" with compute capability 9.0\n"
                           "Initializing data...\n"
                           "...allocating host memory.\n"
                           "...copying input to the device\n"
                           "\n"
                           "Running 128-element scan for 33554432 elements (20 runs)...\n"
                           "\n"
                           "scan128() time (average) : 0.00041 sec, 81920.5 MB/sec\n"   // 16
                           "\n"
                           "Checking results...\n"
                           " ...results match\n"
                           "```\n";
  EXPECT_TRUE(LooksLikeOutput("Initializing data...\n...allocating host memory.\nscan128() time (average) : 0.00041 sec\n"));
  EXPECT_FALSE(LooksLikeOutput("cd build\nmake -j8\n"));
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", nullptr);
  const RecordedFigure* f = OnLine(figs, 16);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->run.metrics.size(), 2u);  // the time and the bandwidth
}

TEST(FiguresConsole, AShellFenceOfACommandWrappedInItsQuotesThenItsPrintout) {
  const std::string text = std::string(kHead) +
                           "```bash\n"
                           "hyperfine --warmup 2 'build/fast/target/release/solver_fast' 'build/slow/target/rele\n"  // 8
                           "ase/solver_slow'\n"                                                                       // 9
                           "Benchmark 1: build/fast/target/release/solver_fast\n"                                    // 10
                           "  Time (mean \xC2\xB1 \xCF\x83):       3.2 ms \xC2\xB1   0.9 ms    [User: 0.4 ms, System: 2.1 ms]\n"  // 11
                           "  Range (min \xE2\x80\xA6 max):     1.9 ms \xE2\x80\xA6   6.0 ms    301 runs\n"
                           "\n"
                           "Benchmark 2: build/slow/target/release/solver_slow\n"                                    // 14
                           "  Time (mean \xC2\xB1 \xCF\x83):       5.7 ms \xC2\xB1   1.1 ms    [User: 0.9 ms, System: 3.0 ms]\n"  // 15
                           "  Range (min \xE2\x80\xA6 max):     4.1 ms \xE2\x80\xA6   9.2 ms    188 runs\n"
                           "\n"
                           "Summary\n"
                           "  'build/fast/target/release/solver_fast' ran\n"
                           "    1.78 \xC2\xB1 0.61 times faster than 'build/slow/target/release/solver_slow'\n"
                           "```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_NE(lb.entries[0].commands[0].joined.find("solver_slow'"), std::string::npos);  // the wrapped quote joined
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", nullptr);
  const RecordedFigure* fast = OnLine(figs, 11);
  const RecordedFigure* slow = OnLine(figs, 15);
  ASSERT_NE(fast, nullptr);
  ASSERT_NE(slow, nullptr);
  EXPECT_NE(fast, slow);
}

TEST(FiguresConsole, ALoadToolsPrintoutPastedAsAParagraph) {
  const std::string text = std::string(kHead) +
                           "Two workers behind the proxy.\n\n"
                           "Running 20s test @ http://10.0.0.5:9000/api\n"   // line 9
                           "  2 threads and 32 connections\n"
                           "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                           "    Latency     2.45ms  611.20us  19.02ms   91.40%\n"
                           "    Req/Sec     6.62k   402.11     7.41k    68.25%\n"
                           "  263001 requests in 20.02s, 41.87MB read\n"
                           "Requests/sec:  13136.86\n"                          // 15
                           "Transfer/sec:      2.09MB\n";
  EXPECT_TRUE(PastedToolPrintout("Running 20s test @ http://10.0.0.5:9000/api\n  2 threads and 32 connections\n"
                                 "Requests/sec:  13136.86\n"));
  EXPECT_FALSE(PastedToolPrintout("Running 20s test @ http://10.0.0.5:9000/api\n"));  // one line of prose
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", nullptr);
  const RecordedFigure* rps = OnLine(figs, 15);
  ASSERT_NE(rps, nullptr);
  EXPECT_DOUBLE_EQ(rps->run.metrics.at("requests_per_s"), 13136.86);
}

TEST(FiguresConsole, AProfilersShareBeforeItsAmounts) {
  std::string out;
  ASSERT_TRUE(ProfileShares("Router.Dispatch - 38.20% (8.31s / 21.75s)", &out));
  EXPECT_EQ(out, "Router.Dispatch - 8.31s cumulative (38.20%), 21.75s sampled");
  ASSERT_TRUE(ProfileShares("writeFrame: 12.05% (2.62s)", &out));
  EXPECT_EQ(out, "writeFrame: 2.62s (12.05%)");
  EXPECT_FALSE(ProfileShares("hit rate 48% (of 1,024 lookups)", &out));  // no amount in the parentheses
  EXPECT_FALSE(ProfileShares("a +12% (3.1 ms) change", &out));           // a signed change
  const auto figs = Read(
      "Profiled the gateway under load with `go tool pprof`.\n\n"
      "- Router.Dispatch - 38.20% (8.31s / 21.75s)\n"   // line 9
      "- writeFrame: 12.05% (2.62s)\n"                   // 10
      "- CPU: 64.5% (two cores busy)\n"                  // 11
      "- Heap: 41.2 MB in use\n");                       // 12
  const RecordedFigure* dispatch = OnLine(figs, 9);
  ASSERT_NE(dispatch, nullptr);
  int on_9 = 0;
  for (const auto& f : figs) on_9 += f.line == 9 ? 1 : 0;
  EXPECT_EQ(on_9, 2);  // the function's time and the profile's whole: two rows
  EXPECT_NE(OnLine(figs, 10), nullptr);
  const RecordedFigure* cpu = OnLine(figs, 11);
  ASSERT_NE(cpu, nullptr);
  EXPECT_DOUBLE_EQ(cpu->run.metrics.at("cpu_utilization_pct"), 64.5);  // its field names the share
  const RecordedFigure* heap = OnLine(figs, 12);
  ASSERT_NE(heap, nullptr);
  EXPECT_EQ(heap->run.metrics.count("memory_mib"), 1u);  // a heap's MB is memory
}

TEST(FiguresConsole, AHeapProfilesAmountWithItsShare) {
  std::string out;
  ASSERT_TRUE(ProfileShares("runtime.mallocgc 12.40 MB (14.02%)", &out));
  EXPECT_EQ(out, "runtime.mallocgc inuse 12.40 MB (14.02%)");
  EXPECT_FALSE(ProfileShares("took 12.40 ms (14.02%)", &out));  // a time: no memory
  const auto figs = Read(
      "Pulled the heap profile after the soak test.\n\n"
      "- the top allocator, runtime.mallocgc 12.40 MB (14.02%)\n");  // line 9
  ASSERT_NE(OnLine(figs, 9), nullptr);
}

TEST(FiguresConsole, ACpuShareInProseIsNoFieldsFigure) {
  std::map<int, std::string> why;
  const auto kept = KeptLines(std::string(kHead) + "```\n$ ./loadgen --rps 300\n```\n\n"
                              "- Summary: the handler is not CPU-bound\n"
                              "- Consumes 9.5% flat CPU time\n", &why);  // line 12: a share in prose, no field's
  EXPECT_EQ(kept.count(12), 0u);
}

TEST(FiguresConsole, ColumnsNamedInBracketsBeforeTheirValues) {
  std::string out;
  ASSERT_TRUE(BracketColumnsForm("Latencies     [min, mean, 50, 99, max]  12.1ms, 30.4ms, 28.0ms, 88.9ms, 310ms", &out));
  EXPECT_EQ(out, "Latencies: min=12.1ms, mean=30.4ms, p50=28.0ms, p99=88.9ms, max=310ms");
  EXPECT_FALSE(BracketColumnsForm("Status Codes  [code:count]  200:900", &out));
  EXPECT_FALSE(BracketColumnsForm("Latencies [min, max]  12.1ms", &out));  // a value missing
  // Two reports of a load tool pasted as paragraphs, each under the rate it ran at: one row each.
  const auto figs = Read(
      "Rate: 30\n\n"                                                                        // line 7
      "Requests      [total, rate, throughput]         900, 30.03, 29.91\n"                   // 9
      "Duration      [total, attack, wait]             30.1s, 29.97s, 130.2ms\n"
      "Latencies     [min, mean, 50, 99, max]          12.1ms, 30.4ms, 28.0ms, 88.9ms, 310ms\n"   // 11
      "Success       [ratio]                           100.00%\n"
      "Status Codes  [code:count]                      200:900\n\n"
      "Rate: 60\n\n"                                                                        // 15
      "Requests      [total, rate, throughput]         1800, 60.02, 52.40\n"                  // 17
      "Duration      [total, attack, wait]             34.4s, 29.99s, 4.4s\n"
      "Latencies     [min, mean, 50, 99, max]          13.0ms, 1.9s, 41.7ms, 9.8s, 12.2s\n"       // 19
      "Success       [ratio]                           97.30%\n"
      "Status Codes  [code:count]                      0:49  200:1751\n");
  const RecordedFigure* a = OnLine(figs, 11);
  const RecordedFigure* b = OnLine(figs, 19);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_NEAR(a->run.metrics.at("latencies_p99_time_s"), 0.0889, 1e-12);
  EXPECT_NEAR(b->run.metrics.at("latencies_p99_time_s"), 9.8, 1e-12);
}

TEST(FiguresConsole, AHeaderStackedOverCommentedLines) {
  const std::string head =
      "#                                          fwd                       bwd\n"
      "#      size      type       lat       bw    #bad       lat       bw    #bad\n"
      "#       (B)                (us)   (GB/s)               (us)   (GB/s)\n";
  const std::string block = head + "      4096     float      31.5     0.13       0      30.9     0.13       0\n";
  const std::string merged = StackedHeaders(block);
  EXPECT_NE(merged.find("size (B)  type  fwd lat (us)  fwd bw (GB/s)  fwd #bad  bwd lat (us)"), std::string::npos);
  EXPECT_EQ(std::count(merged.begin(), merged.end(), '\n'), std::count(block.begin(), block.end(), '\n'));  // every line keeps its number
  EXPECT_EQ(StackedHeaders("# a plain comment (with words)\n1 2 3\n"), "# a plain comment (with words)\n1 2 3\n");
  const auto figs = Read("```\n$ mpirun -np 8 ./ring_perf -b 4K -e 64M -f 16\n" + head +   // lines 8-11
                         "      4096     float      31.5     0.13       0      30.9     0.13       0\n"    // 12
                         "   1048576     float     102.7    10.21       0     101.9    10.29       0\n"    // 13
                         "  67108864     float    1290.4    52.01       0    1288.0    52.10       0\n"    // 14
                         "```\n");
  const RecordedFigure* small = OnLine(figs, 12);
  const RecordedFigure* big = OnLine(figs, 14);
  ASSERT_NE(small, nullptr);
  ASSERT_NE(big, nullptr);
  EXPECT_NE(small, big);
  ASSERT_EQ(big->run.metrics.count("bwd_lat_time_s"), 1u);  // one row: the size's, both groups' columns
  EXPECT_NEAR(big->run.metrics.at("bwd_lat_time_s") * 1e6, 1288.0, 1e-6);
  EXPECT_NEAR(big->run.metrics.at("fwd_lat_time_s") * 1e6, 1290.4, 1e-6);
}

TEST(FiguresConsole, AQueryCsvWithUnitsInBracketsAndBlanksAfterCommas) {
  std::string out;
  ASSERT_TRUE(BracketUnitHeader("gpu, clocks.sm [MHz], temperature.gpu [C], power.draw [W]", &out));
  EXPECT_EQ(out, "gpu, clocks sm (MHz), temperature gpu (C), power draw (W)");
  EXPECT_FALSE(BracketUnitHeader("see [1], [2]", &out));
  EXPECT_EQ(LineCells("3, 88 %, 40112 MiB, 455.02 W").size(), 4u);
  EXPECT_EQ(LineCells("loss 3.1, lr 2e-4").size(), 4u);  // one comma: words, as before
  const auto figs = Read(
      "```\n$ nvidia-smi --query-gpu=index,utilization.gpu,memory.used,power.draw --format=csv\n"   // line 8
      "index, utilization.gpu [%], memory.used [MiB], power.draw [W]\n"
      "0, 88 %, 40112 MiB, 455.02 W\n"                                                             // 10
      "1, 91 %, 40098 MiB, 461.77 W\n"                                                             // 11
      "```\n");
  const RecordedFigure* g0 = OnLine(figs, 10);
  const RecordedFigure* g1 = OnLine(figs, 11);
  ASSERT_NE(g0, nullptr);
  ASSERT_NE(g1, nullptr);
  EXPECT_NE(g0, g1);
  EXPECT_EQ(g0->run.metrics.size(), 3u);  // the share, the memory and the power of each GPU
}

TEST(FiguresConsole, APrintoutAGuideSaysToExpectIsNoRun) {
  std::map<int, std::string> why;
  const auto kept = KeptLines(
      "# Guide\n\n## Step 2 - load test\n\n"
      "You should see something like:\n\n"
      "```\n"
      "Running 20s test @ http://10.0.0.5:9000/api\n"
      "  2 threads and 32 connections\n"
      "Requests/sec:  13136.86\n"                       // line 10
      "```\n\n"
      "## Step 3 - training\n\n"
      "The bar should look like:\n\n"
      "```\n"
      "Finetune:  40%|####      | 40/100 [03:10<04:45, 4.75s/iter]\n"   // line 18
      "```\n", &why);
  EXPECT_EQ(kept.count(10), 0u);
  EXPECT_EQ(kept.count(18), 0u);
  EXPECT_NE(why[10].find("expected"), std::string::npos);
}

TEST(FiguresConsole, AnOperationsRateInWordsAndADottedSummary) {
  EXPECT_EQ(ToolLineForm("LPUSH: 81234.50 requests per second, p50=0.303 msec"), "op=LPUSH requests/sec=81234.50 p50=0.303msec");
  EXPECT_EQ(ToolLineForm("Note: 3 requests per second at most"), "Note: 3 requests per second at most");
  EXPECT_EQ(ToolLineForm("checkout_latency.......: avg=40.2ms  p(99)=120.9ms"), "checkout_latency: avg=40.2ms, p99=120.9ms");
  const auto figs = Read(
      "```\n$ ./loadtool -q -t lpush,lpop\n"                              // line 8
      "LPUSH: 81234.50 requests per second, p50=0.303 msec\n"            // 9
      "LPOP: 84910.22 requests per second, p50=0.295 msec\n"             // 10
      "```\n\n"
      "```\n$ k6 run checkout.js\n"                                       // 14
      "     checkout_latency.......: avg=40.2ms  min=8.1ms  med=33.0ms  max=410.5ms  p(90)=77.4ms  p(99)=120.9ms\n"   // 15
      "     http_req_duration......: avg=38.9ms  min=7.7ms  med=31.8ms  max=402.0ms  p(90)=75.1ms  p(99)=118.3ms\n"   // 16
      "```\n");
  const RecordedFigure* push = OnLine(figs, 9);
  const RecordedFigure* pop = OnLine(figs, 10);
  ASSERT_NE(push, nullptr);
  ASSERT_NE(pop, nullptr);
  EXPECT_NE(push, pop);
  EXPECT_DOUBLE_EQ(push->run.metrics.at("requests_per_s"), 81234.50);
  EXPECT_EQ(push->run.config.at("op"), "LPUSH");
  const RecordedFigure* k6 = OnLine(figs, 15);
  ASSERT_NE(k6, nullptr);
  EXPECT_EQ(k6->run.metrics.count("checkout_latency_max_time_s"), 1u);  // a statistic, not a setting
  EXPECT_EQ(k6->run.metrics.count("checkout_latency_p99_time_s"), 1u);
}

TEST(FiguresConsole, AStreamsIntervalLinesAndItsSummary) {
  EXPECT_EQ(ToolLineForm("[  4]   0.00-5.00   sec  2.71 GBytes  4.66 Gbits/sec    3   640 KBytes"),
            "interval=0.00-5.00s bitrate=4.66Gbits/sec");
  EXPECT_EQ(ToolLineForm("[  4]   0.00-5.00   sec  2.71 GBytes  4.66 Gbits/sec    3             sender"),
            "interval=0.00-5.00s role=sender bitrate=4.66Gbits/sec");
  EXPECT_EQ(ToolLineForm("[ ID] Interval           Transfer     Bitrate         Retr"), "");
  const auto figs = Read(
      "```\n$ iperf3 -c 192.168.7.4 -t 5\n"                                                   // line 8
      "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n"
      "[  4]   0.00-1.00   sec   551 MBytes  4.62 Gbits/sec    0    612 KBytes\n"               // 10
      "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
      "[ ID] Interval           Transfer     Bitrate         Retr\n"
      "[  4]   0.00-5.00   sec  2.71 GBytes  4.66 Gbits/sec    3             sender\n"         // 13
      "[  4]   0.00-5.02   sec  2.70 GBytes  4.63 Gbits/sec                  receiver\n"       // 14
      "```\n");
  const RecordedFigure* sender = OnLine(figs, 13);
  const RecordedFigure* receiver = OnLine(figs, 14);
  ASSERT_NE(sender, nullptr);
  ASSERT_NE(receiver, nullptr);
  EXPECT_NE(sender, receiver);
  EXPECT_EQ(sender->run.config.at("role"), "sender");
  EXPECT_EQ(sender->run.config.count("group"), 0u);  // the header line names no group
  EXPECT_NE(OnLine(figs, 10), nullptr);
}

TEST(FiguresConsole, ModeScoreRowsAndPercentilesInWords) {
  EXPECT_EQ(ToolLineForm("QueueBench.put   thrpt   5  51200.117 \xC2\xB1 301.442  ops/ms"),
            "benchmark=QueueBench.put mode=thrpt score=51200.117ops/ms");
  EXPECT_EQ(ToolLineForm("QueueBench.take  avgt   5     20.873 \xC2\xB1   0.419   ns/op"), "benchmark=QueueBench.take mode=avgt score=20.873ns/op");
  EXPECT_EQ(ToolLineForm("Benchmark  Mode  Cnt  Score  Error  Units"), "");
  EXPECT_EQ(ToolLineForm("95% in 0.0412 secs"), "p95: 0.0412 secs");
  EXPECT_EQ(ToolLineForm("95% in the cache"), "95% in the cache");
  const auto figs = Read(
      "```\n$ java -jar bench.jar QueueBench\n"                                    // line 8
      "Benchmark          Mode  Cnt      Score     Error   Units\n"
      "QueueBench.put    thrpt    5  51200.117 \xC2\xB1 301.442  ops/ms\n"        // 10
      "QueueBench.take    avgt    5     20.873 \xC2\xB1   0.419   ns/op\n"        // 11
      "```\n\n"
      "```\n$ hey -n 5000 -c 50 http://127.0.0.1:9090/\n"                          // 15
      "Latency distribution:\n"
      "  50% in 0.0102 secs\n"                                                    // 17
      "  95% in 0.0412 secs\n"                                                    // 18
      "```\n");
  const RecordedFigure* put = OnLine(figs, 10);
  const RecordedFigure* take = OnLine(figs, 11);
  ASSERT_NE(put, nullptr);
  ASSERT_NE(take, nullptr);
  EXPECT_EQ(put->run.config.at("benchmark"), "QueueBench.put");
  EXPECT_EQ(take->run.metrics.size(), 2u);  // the score, and its error as a statistic of it (figures_frameworks.cc)
  EXPECT_EQ(take->run.metrics.count("error_time_s"), 1u);
  ASSERT_NE(OnLine(figs, 17), nullptr);
  ASSERT_NE(OnLine(figs, 18), nullptr);
}

TEST(FiguresConsole, ATrainersFinalDictOfRatesPerSecond) {
  const auto figs = Read(
      "```\n$ python finetune_lm.py --model tiny\n"                                                         // line 8
      "{'eval_loss': 2.871, 'eval_runtime': 14.2, 'eval_samples_per_second': 70.42, 'eval_steps_per_second': 8.8}\n"  // 9
      "```\n");
  const RecordedFigure* f = OnLine(figs, 9);
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->run.metrics.at("eval_loss"), 2.871);
  bool samples = false;  // "<name>_samples_per_second": samples a second, whatever the name before
  for (const auto& [k, v] : f->run.metrics) samples = samples || (k.find("samples") != std::string::npos && v == 70.42);
  EXPECT_TRUE(samples);
}

TEST(FiguresConsole, AQuotedCommandInAPrintoutIsNoCommandLine) {
  EXPECT_FALSE(LooksLikeCommandLine("'build/fast/target/release/solver_fast' ran"));
  EXPECT_TRUE(LooksLikeCommandLine("./build/solver --n 4"));
}

}  // namespace
}  // namespace moelog::logbook::reader
