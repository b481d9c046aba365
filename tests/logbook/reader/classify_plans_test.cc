// The classify stage on parts that record no measurement of their own but
// carry figures: comparisons that quote earlier results beside another
// source's, plans and expectations, checklists of goals.
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {


// A comparison's table row whose one column quotes this log's figure and
// whose other column quotes another source's ("| fp16 | 9.41 req/s upstream
// | 61.3 req/s here |") restates with all its cells: the other source's
// figure is no run of this log. A row written nowhere else stays a run.
TEST(ReaderClassifyPlans, AComparisonRowQuotingTheLogQuotesTheOtherColumnsToo) {
  const std::string doc =
      "# Serving check\n\n## 1. Sweep\n\n| config | throughput (req/s) |\n|---|--:|\n"
      "| fp16 | 61.3 |\n| int8 | 48.72 |\n\n"
      "## 2. Comparison with the upstream report\n\nThe upstream report used another GPU.\n\n"
      "| config | upstream | here |\n|---|---|---|\n"
      "| fp16 | 9.41 req/s | 61.3 req/s |\n| int8 | 12.06 req/s | 48.72 req/s |\n"
      "| bf16 | 10.77 req/s | 57.19 req/s |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(16)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(17)) << ::testing::PrintToString(why);
  EXPECT_NE(why[16].find("recap or comparison"), std::string::npos) << why[16];
  EXPECT_TRUE(kept.count(18)) << ::testing::PrintToString(why);  // written only here: measured here
}


// A part headed as what is expected, projected or aimed for ("### Expected
// performance after fusion", "### Performance roadmap", "### Targets")
// records no run, its table neither; the measured part above it stays.
TEST(ReaderClassifyPlans, AnExpectationOrRoadmapPartHoldsNoRun) {
  const std::string doc =
      "# Decode work\n\n## 1. Baseline decode\n\n- decode: 41.7 tok/s\n\n"
      "### Expected performance after fusion\n\n- decode: ~55 tok/s\n- prefill: 1.9 s\n\n"
      "### Performance roadmap\n\n| step | throughput |\n|---|---|\n| fuse | 60 tok/s |\n| batch | 240 tok/s |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  for (int line : {9, 10, 16, 17}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[9].find("Expected performance after fusion"), std::string::npos) << why[9];
}

// A line that leads a list or a printed block as what is expected or aimed
// for ("**Expected results after phase 2:**", "**Expected validator
// output:**") makes its items and lines no runs; a lead that names results
// ("**Results:**") keeps them.
TEST(ReaderClassifyPlans, ALeadOfExpectationsMakesItsListNoRun) {
  const std::string doc =
      "# Kernel log\n\n## 2. Fused kernel\n\n**Results:**\n- fused: 48.3 tok/s\n- eager: 31.2 tok/s\n\n"
      "**Expected results after the next phase:**\n- single stream: 60-70 tok/s\n- batch of 8: 210 tok/s\n\n"
      "**Expected validator output:**\n```\nvalidator: 0.91 ms per call\n```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(6)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  for (int line : {10, 11, 15}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[11].find("expected or aimed for"), std::string::npos) << why[11];
  EXPECT_NE(why[15].find("expected or aimed for"), std::string::npos) << why[15];
}

// An open task of a checklist ("- [ ] decode: 60 tok/s") states what is
// still to reach, not a run; the measured item beside it stays. (A figure
// after a bound mark, "- [ ] decode: >60 tok/s", is a bound before that.)
TEST(ReaderClassifyPlans, AnOpenTaskStatesAGoal) {
  const std::string doc =
      "# Work log\n\n## 3. Decode pass\n\n- decode measured: 48.3 tok/s\n"
      "- [ ] decode: 60 tok/s\n- [ ] prefill under 1.5 s\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(6)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_NE(why[6].find("open task"), std::string::npos) << why[6];
}

// A part that works out a bound ("### Roofline": "at 989 TFLOP/s the floor
// is 2.2 ms") records no run. A part that collects results by version
// ("### Optimization history") is often the only record of its runs: its
// rows of runs written nowhere else stay.
TEST(ReaderClassifyPlans, ARooflinePartRecordsNoRunAHistoryTableDoes) {
  const std::string doc =
      "# Kernel log\n\n## 2026-03-01 Eager\n\nOutput:\n\n```\neager seq=8192: 217 TFLOP/s, 5.07 ms\n```\n\n"
      "## 2026-03-02 Fused\n\nOutput:\n\n```\nfused seq=8192: 412 TFLOP/s, 2.67 ms\n```\n\n"
      "### Roofline\n\nAt seq 8192 one call does 2.2 TFLOP, so at 989 TFLOP/s the floor is 2.2 ms.\n\n"
      "### Performance history\n\n| version | TFLOP/s | time |\n|---|---|---|\n| eager | 217 | 5.07 ms |\n| fused | 412 | 2.67 ms |\n| fused+tma | 431 | 2.55 ms |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(16)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(21)) << ::testing::PrintToString(why);
  EXPECT_NE(why[21].find("Roofline"), std::string::npos) << why[21];
  EXPECT_TRUE(kept.count(29)) << ::testing::PrintToString(why);
}

// A scaling efficiency ("90% scaling efficiency", "parallel efficiency: 87%")
// is worked out from two runs' throughputs: derived, no run's own figure.
// An efficiency measured as such ("bandwidth efficiency 71%") stays one.
TEST(ReaderClassifyPlans, AScalingEfficiencyIsDerived) {
  auto derived = [](const std::string& text) {
    for (const auto& f : Figures(text, false, false, true))
      if (f.unit == "%" && f.not_run == nullptr) return f.derived;
    return true;  // no run figure at all
  };
  EXPECT_TRUE(derived("Efficiency: 90% scaling efficiency (excellent)"));
  EXPECT_TRUE(derived("parallel efficiency: 87%"));
  EXPECT_FALSE(derived("bandwidth efficiency 71%"));
}

// A field that states what a run should reach ("- **Target**: >15 tok/s",
// "- target: 2 ms per token") is a goal, beside the measured field.
TEST(ReaderClassifyPlans, ATargetFieldStatesAGoal) {
  const std::string doc =
      "# Status\n\n## 2026-01-02 Decode\n\n- **Measured**: 0.13 tokens/sec\n- **Target**: >15 tokens/sec\n"
      "- decode: 3.1 ms per token\n- target: 2 ms per token\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(6)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(8)) << ::testing::PrintToString(why);
}

// Figures that are only ratios to another run ("256x4096: 1.05x (5% faster
// than the library)") are derived: no measurement of the entry's own, no
// recorded row. A factor table scored against a fixed reference (a
// harness's speedup column) is another matter (figures_table.cc).
TEST(ReaderClassifyPlans, DerivedFiguresAloneRecordNoRun) {
  const std::string doc =
      "# Softmax log\n\n### Phase 2 results\n\n**V3 detailed results:**\n```\n"
      "256x4096:  1.05x (5% faster than the library)\n512x4096:  0.99x (about equal)\n```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.empty()) << ::testing::PrintToString(why);
  EXPECT_NE(why[7].find("only derived figures"), std::string::npos) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
