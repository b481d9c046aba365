// The figures and key stages on tool printouts pasted into logbooks: a
// profiler's stats reports (each report a workload of its own, clean
// column names, long kernel names kept), a serving benchmark's result
// blocks (one row per block), and the render of their figures as written.
#include <gtest/gtest.h>

#include <string>

#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/internal.h"
#include "logbook/render/render_table.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## 2026-03-04 profile of the scan\n\n";

std::vector<RecordedFigure> Read(const std::string& body) { return ReadEntry(kHead, body); }

// Lines 5.. of the entry: a fenced command, then the printout with two reports.
const char* kTwoReports =
    "```bash\nnsys profile --stats=true -o scan_v2 ./scan --n 4096\n```\n\n"  // 5-7
    "```\n"                                                                      // 9
    "[5/8] Executing 'cuda_api_sum' stats report\n"                            // 10
    "\n"                                                                         // 11
    " Time (%)  Total Time (ns)  Num Calls    Avg (ns)   Med (ns)  Min (ns)   Max (ns)   StdDev (ns)       Name\n"  // 12
    " --------  ---------------  ---------  ----------  --------  --------  ---------  -----------  ----------------\n"  // 13
    "     93.2       77,104,230          3  25,701,410.0   5,120.0     4,310  77,094,800  44,508,100.3  cudaMalloc\n"  // 14
    "      6.8        5,622,017        400     14,055.0   4,801.5     3,902  1,901,224     95,013.0  cudaLaunchKernel\n"  // 15
    "\n"                                                                         // 16
    "[6/8] Executing 'cuda_gpu_kern_sum' stats report\n"                       // 17
    "\n"                                                                         // 18
    " Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)                    Name\n"  // 19
    " --------  ---------------  ---------  --------  --------  --------  --------  -----------  -----------------------------------------------\n"  // 20
    "    100.0       12,904,660        400  32,261.7  32,208.0    31,990    35,104        160.2  scan_block<float, 256>(const float *, float *, int)\n"  // 21
    "```\n";

TEST(ReaderToolReports, AReportLineNamesItsReport) {
  std::string name;
  EXPECT_TRUE(ReportLine("[6/8] Executing 'cuda_gpu_kern_sum' stats report", &name));
  EXPECT_EQ(name, "cuda_gpu_kern_sum");
  EXPECT_TRUE(ReportLine(" ** OS Runtime Summary (osrt_sum):", &name));
  EXPECT_EQ(name, "osrt_sum");
  EXPECT_TRUE(ReportLine("Processing [run.sqlite] with [/opt/nsys/reports/cuda_api_sum.py]... ", &name));
  EXPECT_EQ(name, "cuda_api_sum");
  EXPECT_FALSE(ReportLine("[3/8] [========================100%] run.nsys-rep", &name));
  EXPECT_FALSE(ReportLine("Executing the benchmark now", &name));
}

TEST(ReaderToolReports, EachReportIsAWorkloadOfItsOwn) {
  const auto figs = Read(kTwoReports);
  const RecordedFigure* api = OnLine(figs, 14);
  const RecordedFigure* kern = OnLine(figs, 21);
  ASSERT_NE(api, nullptr);
  ASSERT_NE(kern, nullptr);
  EXPECT_EQ(api->run.config.at(kWorkloadKey), "cuda_api_sum");
  EXPECT_EQ(kern->run.config.at(kWorkloadKey), "cuda_gpu_kern_sum");
  // "Total Time (ns)": the unit's word once, not total_time_time_s.
  EXPECT_TRUE(api->run.metrics.count("total_time_s")) << api->text;
  EXPECT_FALSE(api->run.metrics.count("total_time_time_s"));
  // A kernel's signature under "Name" is the row's label, however long.
  ASSERT_TRUE(kern->run.config.count("name"));
  EXPECT_EQ(kern->run.config.at("name"), "scan_block<float, 256>(const float *, float *, int)");
  // The profiler's subcommand is no run's argument.
  EXPECT_FALSE(api->run.config.count("args")) << api->run.config.at("args");
}

TEST(ReaderToolReports, AProfilersReportAfterACommandIsOutput) {
  // A bare block whose first line is a report line is printed output, not a command.
  const auto figs = Read(kTwoReports);
  EXPECT_NE(OnLine(figs, 15), nullptr);
}

TEST(ReaderToolReports, AServingResultBlockIsOneRow) {
  const auto figs = Read(
      "```bash\npython bench_serving.py --request-rate 4 --num-prompts 200\n```\n\n"  // 5-7
      "```\n"                                                    // 9
      "============ Serving Benchmark Result ============\n"   // 10
      "Successful requests:                     200\n"          // 11
      "Benchmark duration (s):                  51.20\n"        // 12
      "Request throughput (req/s):              3.91\n"         // 13
      "---------------Time to First Token----------------\n"   // 14
      "Mean TTFT (ms):                          44.18\n"        // 15
      "P99 TTFT (ms):                           97.30\n"        // 16
      "==================================================\n"   // 17
      "============ Serving Benchmark Result ============\n"   // 18
      "Benchmark duration (s):                  20.02\n"        // 19
      "Request throughput (req/s):              9.99\n"         // 20
      "Mean TTFT (ms):                          71.65\n"        // 21
      "==================================================\n"   // 22
      "```\n");
  ASSERT_EQ(figs.size(), 2u);
  const RecordedFigure& first = figs[0];
  EXPECT_EQ(first.line, 12);
  EXPECT_EQ(first.run.metrics.size(), 4u);
  EXPECT_DOUBLE_EQ(first.run.metrics.at("mean_ttft_time_s"), 0.04418);
  EXPECT_DOUBLE_EQ(first.run.metrics.at("p99_ttft_time_s"), 0.0973);
  EXPECT_FALSE(first.run.config.count("metric"));
  EXPECT_EQ(first.run.config.at("group"), "Serving Benchmark Result");
  EXPECT_EQ(figs[1].line, 19);
  EXPECT_EQ(figs[1].run.metrics.size(), 3u);
}

TEST(ReaderToolReports, ADatabaseBenchmarksPrintout) {
  const auto figs = Read(
      "```\n$ pgbench -c 16 -j 4 -T 60 -P 30 shop\n"                                  // 5-6
      "starting vacuum...end.\n"                                                       // 7
      "progress: 30.0 s, 5120.4 tps, lat 3.120 ms stddev 0.880, 0 failed\n"           // 8
      "transaction type: <builtin: TPC-B (sort of)>\n"                                 // 9
      "number of clients: 16\n"                                                        // 10
      "latency average = 3.118 ms\n"                                                   // 11
      "initial connection time = 12.301 ms\n"                                          // 12
      "tps = 5130.992210 (without initial connection time)\n"                          // 13
      "```\n");
  const RecordedFigure* progress = OnLine(figs, 8);
  ASSERT_NE(progress, nullptr);
  EXPECT_EQ(progress->run.config.at("at"), "30.0 s");  // the time it was printed at keys the row
  EXPECT_EQ(progress->run.metrics.size(), 2u);         // tps and lat on one row
  EXPECT_NEAR(progress->run.metrics.at("lat_time_s"), 0.00312, 1e-12);
  EXPECT_FALSE(progress->run.config.count("group"));   // "starting vacuum...end." titles nothing
  const RecordedFigure* tps = OnLine(figs, 13);
  ASSERT_NE(tps, nullptr);
  EXPECT_EQ(tps->run.config.at("clients"), "16");
  EXPECT_EQ(tps->run.config.at("qualifier"), "without initial connection time");
  EXPECT_FALSE(tps->run.config.count("group"));  // a field line is no title
  const RecordedFigure* avg = OnLine(figs, 11);
  const RecordedFigure* conn = OnLine(figs, 12);
  ASSERT_NE(avg, nullptr);
  ASSERT_NE(conn, nullptr);
  EXPECT_NE(avg->run.config, conn->run.config);  // told apart by their names
}

// llama.cpp's timings: each line one row named by the line, its rates in
// parentheses beside its time; the token counts are no figures.
TEST(ReaderToolReports, ATimingLineWithItsRates) {
  const auto figs = Read(
      "```\n$ ./llama-cli -m small.gguf -p hello\n"                                                       // 5-6
      "prompt eval time =      88.10 ms /    32 tokens (    2.75 ms per token,   363.22 tokens per second)\n"  // 7
      "       eval time =    1204.50 ms /   128 tokens (    9.41 ms per token,   106.27 tokens per second)\n"  // 8
      "```\n");
  const RecordedFigure* eval = OnLine(figs, 8);
  ASSERT_NE(eval, nullptr);
  EXPECT_EQ(eval->run.config.at("metric"), "eval time");
  EXPECT_NEAR(eval->run.metrics.at("time_s"), 1.2045, 1e-12);
  EXPECT_NEAR(eval->run.metrics.at("tokens_per_s"), 106.27, 1e-9);
  EXPECT_NEAR(eval->run.metrics.at("token_time_s"), 0.00941, 1e-12);
  ASSERT_NE(OnLine(figs, 7), nullptr);
  EXPECT_EQ(OnLine(figs, 7)->run.config.at("metric"), "prompt eval time");
}

TEST(ReaderToolReports, ARangeIsOneRow) {
  const auto figs = Read("The fused decode kernel took 416\xE2\x80\x93" "455 \xC2\xB5s across 20 launches.\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_TRUE(figs[0].run.metrics.count("min_time_s"));
  EXPECT_TRUE(figs[0].run.metrics.count("max_time_s"));
}

// A change column written in its own unit is derived, never a key; a
// column of sizes ("Size" over "64 MiB") sets the rows up, it is no figure;
// a row that ran out of memory voids only itself.
TEST(ReaderToolReports, ChangeAndSettingColumnsOfATable) {
  const auto figs = Read(
      "| Variant | Latency (us) | \xCE\x94 vs base |\n| --- | ---: | ---: |\n"  // 5-6
      "| base | 41.2 | - |\n| tiled | 35.9 | -5.3 us |\n| fused | OOM | OOM |\n\n"  // 7-9
      "| Size | Copy (MB/s) |\n| --- | ---: |\n"                                      // 11-12
      "| 64 MiB | 11,020 |\n| 256 MiB | 10,904 |\n| 1 GiB | n/a |\n");             // 13-15
  const RecordedFigure* tiled = OnLine(figs, 8);
  ASSERT_NE(tiled, nullptr);
  EXPECT_FALSE(tiled->run.config.count("vs_base"));
  EXPECT_NEAR(tiled->run.metrics.at("time_s"), 35.9e-6, 1e-15);
  EXPECT_NE(OnLine(figs, 7), nullptr);
  const RecordedFigure* small = OnLine(figs, 13);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->run.config.at("size"), "64 MiB");
  EXPECT_FALSE(small->run.metrics.count("memory_mib"));
  EXPECT_EQ(OnLine(figs, 15), nullptr);
  EXPECT_NE(RenderRecordedTable(figs).find("| 11,020 |"), std::string::npos) << RenderRecordedTable(figs);
}

TEST(ReaderToolReports, RenderedTablesKeepThousandsSeparatorsAndSplitReports) {
  const auto figs = Read(kTwoReports);
  const std::string out = RenderRecordedTable(figs);
  EXPECT_NE(out.find("77,104,230"), std::string::npos) << out;
  EXPECT_NE(out.find("12,904,660"), std::string::npos) << out;
  EXPECT_EQ(out.find("total time time"), std::string::npos) << out;
  EXPECT_NE(out.find("Report `cuda_api_sum`"), std::string::npos) << out;
  EXPECT_NE(out.find("Report `cuda_gpu_kern_sum`"), std::string::npos) << out;
}

TEST(ReaderToolReports, ACountIsNoChartAxis) {
  EXPECT_TRUE(ProfilerCountKey("num_calls"));
  EXPECT_TRUE(ProfilerCountKey("instances"));
  EXPECT_FALSE(ProfilerCountKey("name"));
}

}  // namespace
}  // namespace moelog::logbook::reader
