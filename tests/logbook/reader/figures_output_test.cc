// The figures stage on program output: each printed figure on its own line's
// row, keyed by the block's command, its titles and the line's name.
#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - serving\n\n";

std::vector<RecordedFigure> Read(const std::string& body, std::vector<UnreadFigures>* unread = nullptr) {
  static Logbook lb;
  lb = ParseLogbook(std::string(kHead) + body, "t.md");
  EXPECT_EQ(lb.entries.size(), 1u);
  if (lb.entries.empty()) return {};
  return RecordedFigures(lb.entries[0], "t.md", unread);
}

const RecordedFigure* OnLine(const std::vector<RecordedFigure>& figs, int line) {
  for (const auto& f : figs)
    if (f.line == line) return &f;
  return nullptr;
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
  const RecordedFigure* d = OnLine(figs, 11);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->run.config.at("metric"), "Benchmark duration");
  EXPECT_DOUBLE_EQ(d->run.metrics.at("time_s"), 46.96);
  const RecordedFigure* t = OnLine(figs, 12);
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->run.metrics.at("tokens_per_s"), 1875.4);
  const RecordedFigure* m = OnLine(figs, 14);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->run.units.at("time_s"), "ms");
  EXPECT_EQ(m->run.decimals.at("time_s"), 2);
  EXPECT_EQ(m->run.config.at("group"), "Time to First Token");
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

}  // namespace
}  // namespace moelog::logbook::reader
