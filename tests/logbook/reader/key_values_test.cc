// Key values are values: never a figure the reader had no unit for
// ("Achieved: 939.7 TF"), never a sub-heading that only says "Results";
// and a printout's figures keep the lines they were read from, so tables
// show their digits as printed.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

bool AnyValueContains(const Config& c, const std::string& part) {
  for (const auto& [k, v] : c)
    if (v.find(part) != std::string::npos) return true;
  return false;
}

TEST(ReaderKeyValues, AFigureWithoutAKnownUnitIsNoKey) {
  std::vector<RecordedFigure> figs(1);
  figs[0].run.config = {{"achieved", "939.7TF"}, {"peak", "9000.0TF"}, {"n", "1.294B)"}, {"model", "1.5B"},
                        {"lr", "1.65e-06"},      {"scale", "1.5x"},    {"torch", "2.1.0+cu121"}};
  DropFigureKeys(&figs);
  EXPECT_EQ(figs[0].run.config,
            (Config{{"model", "1.5B"}, {"lr", "1.65e-06"}, {"scale", "1.5x"}, {"torch", "2.1.0+cu121"}}));
}

// "### Workload-A" over "#### Результат" ("Result"): the setup is the
// workload, not "Workload-A / Результат".
TEST(ReaderKeyValues, AResultsSubheadingNamesNoSetup) {
  const std::string head = "# Store bench\n\n## 2026-04-02 two workloads\n\n";
  const std::string body =
      "### Workload-A\n\n#### Результат\n\n- p99 latency: 2.20 ms\n\n"
      "### Workload-B\n\n#### Результат\n\n- p99 latency: 2.01 ms\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) EXPECT_FALSE(AnyValueContains(f.run.config, "Результат")) << f.text;
  EXPECT_TRUE(AnyValueContains(figs[0].run.config, "Workload-A"));
  EXPECT_TRUE(AnyValueContains(figs[1].run.config, "Workload-B"));
}

// perf stat's counts spread over the printout's lines: the figure keeps
// them as printed ("18,234,561"), not only its first line.
TEST(ReaderKeyValues, APrintoutKeepsTheLinesItsFiguresWereReadFrom) {
  const std::string head = "# Probe log\n\n## 2026-03-02 baseline probe\n\n";
  const std::string body =
      "```\n$ perf stat -e cycles,cache-misses ./probe\n```\n\nOutput:\n\n```\n"
      " Performance counter stats for './probe':\n\n"
      "     3,412,908,115      cycles\n"
      "        18,234,561      cache-misses\n\n"
      "       1.204518920 seconds time elapsed\n```\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_FALSE(figs.empty());
  const RecordedFigure* f = nullptr;
  for (const auto& g : figs)
    if (g.run.metrics.count("cache_misses")) f = &g;
  ASSERT_NE(f, nullptr);
  EXPECT_NE((f->text + f->written).find("18,234,561"), std::string::npos) << f->text << " | " << f->written;
}

// "the fused path's 4.10 ms": the word before the figure is the possessor,
// never the "s" after its apostrophe.
TEST(ReaderKeyValues, APossessiveNamesNoRunS) {
  const std::string head = "# Step log\n\n## 2026-04-11 fused step\n\n";
  const std::string body = "**Impact**: low\n- a 40M model will not fill the L4's 121 TFLOPS budget\n- the T4's 65 TFLOPS is plenty for it\n";
  const auto figs = ReadEntry(head, body);  // a card's budget: no figure of a run, and never keyed "s"
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_NE(v, "s") << k;
}

// Two columns of one metric headed in a script without ASCII letters
// (`変更前` / `変更後`, "before" / "after"): each run is named by its
// header as written, never an invented "column2".
TEST(ReaderKeyValues, ColumnsOfOneMetricKeepTheirHeadersInAnyScript) {
  const std::string head = "# \xE3\x83\x93\xE3\x83\xAB\xE3\x83\x89\n\n## 2026-06-02 link step\n\n";
  const std::string body =
      "| \xE5\xAF\xBE\xE8\xB1\xA1 | \xE5\xA4\x89\xE6\x9B\xB4\xE5\x89\x8D | \xE5\xA4\x89\xE6\x9B\xB4\xE5\xBE\x8C |\n|---|---|---|\n"
      "| full link | 38s | **19s** |\n| thin link | 17s | **12s** |\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(v.find("column"), std::string::npos) << k << "=" << v;
}

// "- `encode()`: **2.1x faster** (410 -> 862 ops/ms)": "faster" says how
// the figures compare; it names no run.
TEST(ReaderKeyValues, AComparisonWordNamesNoRun) {
  const std::string head = "# Codec notes\n\n## 2026-07-03 buffered writer\n\n";
  const std::string body =
      "- **Measured**:\n"
      "  - `encode()`: **2.1x faster** (410 \xE2\x86\x92 862 ops/ms)\n"
      "  - `decode(4 KB)`: **1.4x faster** (120 \xE2\x86\x92 171 ops/ms)\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_NE(v, "faster") << k;
}

// "- **Performance impact**:" over the measured items: a field's name, no
// run's (no case=Performance impact); each item's own label is.
TEST(ReaderKeyValues, AnImpactLabelNamesNoRun) {
  const std::string head = "# Codec notes\n\n## 2026-07-04 pooled buffers\n\n";
  const std::string body =
      "1. **Pooled buffers**: fewer allocations\n"
      "   - **Performance impact**:\n"
      "     - `encode()`: 410 \xE2\x86\x92 862 ops/ms\n"
      "     - `decode(4 KB)`: 120 \xE2\x86\x92 171 ops/ms\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(Lower(v).find("impact"), std::string::npos) << k << "=" << v;
}

// A printout of repeats ("Pass 1: 41.20ms", "Pass 2: ..."): the counter is
// a key of its own (pass=1), not a metric named "Pass 1".
TEST(ReaderKeyValues, APrintedRepeatCounterIsAKeyNotAMetric) {
  const std::string head = "# Build log\n\n## 2026-01-05 link times\n\n";
  const std::string body = "```\n$ ./link_bench\nPass 1: 41.20ms\nPass 2: 40.90ms\nRun 3: 40.70ms\n```\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[0].run.config.count("metric"), 0u);
  ASSERT_TRUE(figs[0].run.config.count("pass"));
  EXPECT_EQ(figs[0].run.config.at("pass"), "1");
  ASSERT_TRUE(figs[2].run.config.count("run"));
  EXPECT_EQ(figs[2].run.config.at("run"), "3");
}

// Columns of the author's judgement of each row ("Stability", "Issue",
// "Classificação") say how a run went, not how it was configured: no key.
TEST(ReaderKeyValues, AJudgementColumnIsNoKey) {
  const std::string head = "# Serving notes\n\n## 2026-03-09 draft tokens\n\n";
  const std::string body =
      "| draft tokens | decode (tok/s) | Stability | Issue | Classifica\xC3\xA7\xC3\xA3o |\n|---|---|---|---|---|\n"
      "| 1 | 41.2 | steady | none seen | Bom |\n| 3 | 47.9 | flaky | OOM after 2h | Ruim |\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_EQ(f.run.config.count("stability"), 0u);
    EXPECT_EQ(f.run.config.count("issue"), 0u);
    EXPECT_EQ(f.run.config.count("classifica\xC3\xA7\xC3\xA3o"), 0u);
    EXPECT_TRUE(f.run.config.count("draft_tokens"));
  }
}

// "| shape | before (us) | after (us) |": each row's runs in the author's
// column order (before, then after), not by name (after first).
TEST(ReaderTableOrder, ColumnsOfRunsKeepTheAuthorsOrder) {
  const std::string head = "# Kernel log\n\n## 2026-05-02 fused layernorm\n\n";
  const std::string body =
      "```\npython bench_ln.py\n```\n\n| shape | before (us) | after (us) |\n|---|---|---|\n"
      "| 4096x1024 | 41.2 | 30.5 |\n| 8192x1024 | 80.9 | 58.1 |\n";
  const auto figs = ReadEntry(head, body);
  ASSERT_EQ(figs.size(), 4u);
  ASSERT_TRUE(figs[0].run.config.count("variant"));
  EXPECT_EQ(figs[0].run.config.at("variant"), "before");
  EXPECT_EQ(figs[1].run.config.at("variant"), "after");
  EXPECT_EQ(figs[2].run.config.at("variant"), "before");
}

}  // namespace
}  // namespace moelog::logbook::reader
