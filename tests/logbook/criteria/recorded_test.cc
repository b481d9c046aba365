#include "logbook/criteria/recorded.h"

#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

Logbook Seed(const std::string& name) {
  auto lb = LoadLogbook(std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/" + name);
  EXPECT_TRUE(lb.ok());
  return lb.ok() ? *lb : Logbook{};
}

const Entry* ByLabel(const Logbook& lb, const std::string& needle) {
  for (const auto& e : lb.entries)
    if (e.heading.find(needle) != std::string::npos) return &e;
  return nullptr;
}

std::string Cfg(const StoredRun& r, const std::string& k) {
  auto it = r.config.find(k);
  return it == r.config.end() ? "<none>" : it->second;
}

TEST(Recorded, DumpForDebugging) {
  if (!std::getenv("MOELOG_DUMP_RECORDED")) GTEST_SKIP();
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  for (const auto& r : RecordedRuns(lb)) {
    std::string s = r.id + ":";
    for (const auto& [k, v] : r.config)
      if (k != "tokens" && k != "iters" && k != "warmup") s += " " + k + "=" + v;
    for (const auto& [k, v] : r.metrics) s += " | " + k + "=" + std::to_string(v);
    std::printf("%s\n", s.c_str());
  }
}

TEST(Recorded, EpVsNonEpTableFromLoopVariables) {
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  const Entry* e = ByLabel(lb, "EP vs Non-EP");
  ASSERT_NE(e, nullptr);
  auto runs = RecordedRuns(*e);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(Cfg(runs[0], "parallel_mode"), "none");
  EXPECT_EQ(Cfg(runs[0], "topk"), "2");
  EXPECT_EQ(Cfg(runs[0], "experts"), "60");
  EXPECT_EQ(runs[0].metrics.at("tflops"), 192.868);
  EXPECT_EQ(runs[0].metrics.at("tokens_per_s"), 619304);
  EXPECT_EQ(Cfg(runs[3], "parallel_mode"), "ep");
  EXPECT_EQ(Cfg(runs[3], "topk"), "8");
  EXPECT_EQ(runs[3].source, "recorded");
  EXPECT_EQ(runs[3].entry_id, e->id);
}

TEST(Recorded, CategoryWordsAndDeltasInParentheses) {
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  const Entry* e = ByLabel(lb, "Remat Leverage Sweep");
  ASSERT_NE(e, nullptr);
  auto runs = RecordedRuns(*e);
  ASSERT_EQ(runs.size(), 6u);  // 3 remat modes x topk {2, 8}; the % deltas are not figures
  EXPECT_EQ(Cfg(runs[1], "remat_mode"), "expert_mlp");
  EXPECT_EQ(Cfg(runs[1], "topk"), "2");
  EXPECT_DOUBLE_EQ(runs[1].metrics.at("tflops"), 138.346);
  EXPECT_EQ(Cfg(runs[5], "remat_mode"), "combine");
  EXPECT_EQ(Cfg(runs[5], "topk"), "8");
}

TEST(Recorded, NestedParentsAndTokensPerSecond) {
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  const Entry* e = ByLabel(lb, "Top-k Scaling Curve (Compact EP)");
  ASSERT_NE(e, nullptr);
  auto runs = RecordedRuns(*e);
  ASSERT_EQ(runs.size(), 10u);
  EXPECT_EQ(Cfg(runs[0], "shared_expert_dim"), "0");
  EXPECT_EQ(Cfg(runs[9], "shared_expert_dim"), "5632");
  EXPECT_EQ(Cfg(runs[9], "topk"), "8");
  EXPECT_DOUBLE_EQ(runs[0].metrics.at("tokens_per_s"), 1578564);
}

TEST(Recorded, Int8LogbookHasNoFigures) {
  // Its Result fields are prose or pending: no numbers become runs.
  EXPECT_TRUE(RecordedRuns(Seed("moe_ep_int8_logbook.md")).empty());
}


// A sign glued to a word ("1e+00", "EP+2", "topk+1", "k=2+8") once stopped the
// figure scan from stepping on: update looped forever. Each form must return,
// and none of them is a figure.
TEST(Recorded, SignGluedToAWordEndsTheScan) {
  for (const char* line : {"loss 1e+00 after warmup", "EP+2 chips idle", "topk+1 adds a slot", "k=2+8 mix",
                           "a+1+2+3+4+5", "+", "x+", "1e+00: 12.5 TF/s", "e+9e+9e+9"}) {
    const std::string doc = std::string(
                                "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n"
                                "- Command: `python bench_moe_hillclimb.py --topk 2`\n"
                                "- Result:\n  - ") +
                            line + "\n";
    Logbook lb = ParseLogbook(doc, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << line;
    auto figures = RecordedFigures(lb.entries[0]);
    for (const auto& f : figures)
      for (const auto& [m, v] : f.run.metrics) EXPECT_NE(v, 0.0) << line;
  }
}

TEST(Recorded, LongRunOfGluedSignsIsLinear) {
  std::string line;
  for (int i = 0; i < 200000; ++i) line += "e+1";
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n- Result:\n  - " + line + "\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_TRUE(RecordedFigures(lb.entries[0]).empty());
}

}  // namespace
}  // namespace moelog::logbook
