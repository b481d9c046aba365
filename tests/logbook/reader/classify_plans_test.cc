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

// The parts of a section of expectations ("## Expected Results" over "###
// Phase 1", "### Phase 2") are expectations too: a plan's nature carries
// down to the headings below it that record no run of their own. A part
// under a theory that runs a command and prints its output, or holds a
// table ("### Native GPU"), is a record all the same.
TEST(ReaderClassifyPlans, ThePartsOfAPlanSectionArePlansToo) {
  const std::string doc =
      "# Decode plan\n\n## 1. Baseline decode\n\n- decode: 41.7 tok/s\n\n"
      "## Expected Results\n\n### Phase 1\n\n- decode: 55 tok/s\n- p99 latency: 70 ms\n\n"
      "### Phase 2\n\n- decode: 70 tok/s\n\n"
      "## Theoretical analysis\n\n### Native GPU\n\n```bash\n./bench --gpu\n```\n\n```\ndecode: 63.2 tok/s\n```\n\n"
      "### PyTorch GPU\n\n| batch | throughput |\n|---|---|\n| 1 | 40.5 tok/s |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(27)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(34)) << ::testing::PrintToString(why);
  for (int line : {11, 12, 16}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[11].find("Expected Results"), std::string::npos) << why[11];
}

// A section of notes passes nothing down: a part below it that records a
// run of its own ("## Session notes" over "### Performance" with measured
// figures written nowhere else) is a record.
TEST(ReaderClassifyPlans, APartUnderNotesIsNoPlan) {
  const std::string doc =
      "# Decode work\n\n## Runs\n\n### Baseline decode\n\n- decode: 41.7 tok/s\n\n"
      "### Fused decode\n\n- decode: 48.9 tok/s\n\n"
      "## Session notes\n\n### Performance\n\n- fused decode with graphs: 52.3 tok/s\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 11, 17}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A part that names what will be watched, required or feared ("### Key
// metrics to track", "### Success metrics", "### Acceptance criteria",
// "### Risks", "### Contingency plans") records no run: its figures are
// thresholds and fears. The measured part above it stays.
TEST(ReaderClassifyPlans, APartOfMetricsToTrackOrRisksHoldsNoRun) {
  const std::string doc =
      "# Decode work\n\n## 1. Baseline decode\n\n- decode: 41.7 tok/s\n\n"
      "### Key metrics to track\n\n- decode: 55 tok/s\n\n"
      "### Success metrics\n\n- p99 latency 40 ms\n\n"
      "### Acceptance criteria\n\n- memory 12 GB\n\n"
      "### Risks\n\n- the router could take 5 ms\n\n"
      "### Contingency plans\n\n- prefill 1.9 s with 4-bit weights\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  for (int line : {9, 13, 17, 21, 25}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A target written in a heading with a comparison sign ("## 2. Next steps
// for >15 tokens/sec") is no figure of a run; the figures measured under
// it stay.
TEST(ReaderClassifyPlans, ATargetInAHeadingIsNoRun) {
  const std::string doc =
      "# Decode log\n\n## 1. Fused router\n\n- decode: 12.4 tok/s\n\n### Router\n\n- router p99: 2.6 ms\n\n"
      "## 2. Next steps for >15 tokens/sec\n\n- batched decode: 13.1 tok/s\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 9, 13}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {11}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A figure after a comparison sign ("p99 < 500ms", "decode >= 60 tok/s",
// "prefill \u2264 40 ms") is a limit, not a measurement, unless a verb of
// measuring stands before it ("p50 measured < 0.9 ms"); a measurement beside
// its bound ("latency 1.2 ms (< 2 ms budget)") stays.
TEST(ReaderClassifyPlans, AFigureAfterAComparisonSignIsALimit) {
  const std::string doc =
      "# Serving log\n\n## 1. Serving limits\n\n- p99 < 500ms\n- decode >= 60 tok/s\n- prefill \u2264 40 ms\n"
      "- latency 1.2 ms (< 2 ms budget)\n- p50 measured < 0.9 ms\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 6, 7}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {8, 9}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
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
// still to reach, not a run; the measured item beside it stays. (With a
// comparison sign, "- [ ] decode: >60 tok/s", the figure is a limit
// before it is a task: AFigureAfterAComparisonSignIsALimit.)
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

// An entry whose figures are only ratios to a fixed reference ("256x4096:
// 1.05x (5% faster than the library)", an agent's fitness against the
// library) records them: its rows are those speedups. Beside a run's own
// figures a ratio is that run's comparison, no row (AnEfficiencyIsDerived).
TEST(ReaderClassifyPlans, DerivedFiguresAloneAreTheEntrysRecord) {
  const std::string doc =
      "# Softmax log\n\n### Phase 2 results\n\n**V3 detailed results:**\n```\n"
      "256x4096:  1.05x (5% faster than the library)\n512x4096:  0.99x (about equal)\n```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_EQ(kept, (std::set<int>{7, 8})) << ::testing::PrintToString(why);
  // A list of ratios nothing tells apart stays listed.
  why.clear();
  EXPECT_TRUE(KeptLines("# Softmax log\n\n### Phase 3 results\n\n- fused: 2.31x, 2.13x, 1.71x for topk=1,2,4.\n", &why).empty());
  EXPECT_NE(why[5].find("derived"), std::string::npos) << why[5];
}

// A speedup alone is the record only where its text names the comparison
// and cites no other source: "8x H100" counts devices, "the paper reports"
// and "previously" restate.
TEST(ReaderClassifyPlans, ASpeedupAloneNeedsItsComparisonNamed) {
  auto kept = [](const std::string& line) {
    return !KeptLines("# Kernel log\n\n## 2026-04-10 tiled\n\n- " + line + "\n").empty();
  };
  EXPECT_TRUE(kept("2.3x faster than the original kernel"));
  EXPECT_TRUE(kept("v4 got ~5% speedup on NCU."));
  EXPECT_FALSE(kept("Ran on 8x H100 nodes."));
  EXPECT_FALSE(kept("The paper reports 3.5x over cuBLAS."));
  EXPECT_FALSE(kept("Previously (entry 3) we got 1.8x faster."));
  EXPECT_FALSE(kept("`b` is 1 x K x L in K-major order, 2x faster"));
}

// A plan's effort and the time a step is thought to take ("**Effort:** 5
// minutes", an `ETA` or `Effort` column) are budgets, not runs: in a field
// of its own line even when a line of another field leads the paragraph
// ("**Action:** ..." over "**Effort:** ..."). The measured part stays.
TEST(ReaderClassifyPlans, AnEffortOrAnEtaIsABudget) {
  const std::string doc =
      "# Sort notes\n\n## 1. Radix sort\n\n- sort: 4.75 ms for 8M keys\n\n"
      "## 2. Ideas\n\n### Idea A: wider digits\n**Action:** widen the digits\n**Effort:** 25 minutes\n\n"
      "### Idea B: onesweep\n**Effort:** 4 hours\n\n"
      "| idea | ETA | effort | gain |\n|---|---|---|---|\n| wider digits | 1 day | 20 min | 1.2x |\n"
      "| onesweep | 3 days | 4 hours | 1.6x |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  for (int line : {10, 11, 14, 18, 19}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A heading led by a goal or an expectation ("### Goal: 2 ms p99",
// "### Target: 900 GB/s") states what is aimed for; a heading that writes a
// device's specifications beside its name ("## 2026-05-02 H100 SXM (3.35
// TB/s, 989 TFLOP/s)") states the machine. Neither records a run; a
// heading that states a result ("### 2. Fused (1.84 ms)") still does.
TEST(ReaderClassifyPlans, AGoalOrADeviceSpecInAHeadingIsNoRun) {
  const std::string doc =
      "# Softmax log\n\n## 2026-05-01 Eager softmax\n\n```bash\n./softmax --rows 4096\n```\n\n"
      "```\nsoftmax: 2.31 ms\n```\n\n### Goal: 1.5 ms p99\n\nNot there yet.\n\n"
      "## 2026-05-02 H100 SXM (3.35 TB/s, 989 TFLOP/s)\n\nThe machine for the next runs.\n\n"
      "### Target: 900 GB/s\n\n## 2026-05-03 Fused softmax\n\n### 2. Fused (1.84 ms)\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(10)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(25)) << ::testing::PrintToString(why);
  for (int line : {13, 17, 21}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[13].find("goals or expectations"), std::string::npos) << why[13];
  EXPECT_NE(why[17].find("a device's rating"), std::string::npos) << why[17];
}

// What a task is thought to take, written as a range of whole hours or
// days ("Rebuilding the toolchain takes 2-3 hours"), and a size worked out
// by multiplying ("128*64*2 B = 16 KiB", the middle factor no emphasis) are
// no runs, nor is a card's capability ("the peak compute capability of the
// card is 62 TFLOPS"; rating words of the unit); a measured spread
// ("0.81-0.86 ms over 20 runs") and a measured peak stay.
TEST(ReaderClassifyPlans, AnHourRangeIsABudgetAndAProductIsComputed) {
  const std::string doc =
      "# Build log\n\n"
      "## 2026-06-01 Ragged gemm\n\n"
      "```bash\n./gemm --ragged\n```\n\n"
      "```\ngemm: 0.81-0.86 ms over 20 runs\n```\n\n"
      "## 2026-06-02 Next kernel\n\n"
      "Rebuilding the toolchain takes 2-3 hours, the port 1-2 days.\n\n"
      "One tile holds 128*64*2 B = 16 KiB.\n\n"
      "- peak memory: 41.2 GiB\n\n"
      "The peak compute capability of the card is 62 TFLOPS.\n\n"
      "MFU uses a denominator of 459 TFLOPS per chip; FP8 峰值算力分母为 `918 TFLOPS/chip`.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {10, 19}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {15, 17, 21, 23}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A device's peak ("The A10G peak is 31.2 TFLOPS", "H100 peak bandwidth:
// 3.35 TB/s") is its rating, unless a verb of measuring says a run reached
// it ("the fused kernel hit peak 24.1 TFLOPS"). A part whose name says it
// reports the measured state ("### Roofline position now") records runs
// though its name is a plan's word; "### Roofline" alone works out a bound.
TEST(ReaderClassifyPlans, ADevicePeakIsARatingAMeasuredRooflineIsNot) {
  const std::string doc =
      "# GEMM log\n\n"
      "## 2026-06-03 Tensor-core gemm\n\n"
      "```bash\n./gemm --tc\n```\n\n"
      "```\ngemm: 1.02 ms\n```\n\n"
      "The A10G peak is 31.2 TFLOPS. H100 peak bandwidth: 3.35 TB/s.\nOn the A10G the fused kernel hit peak 24.1 TFLOPS.\n\n"
      "### Roofline position now\n\n"
      "ncu reports 412 GB/s of DRAM traffic on this path.\n\n"
      "### Roofline\n\n"
      "At 31.2 TFLOPS the floor would be 0.7 ms.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {10, 14, 18}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {13, 22}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A row of a device's datasheet figures (`| Datasheet bandwidth (GB/s) |
// 300 | 320 |`) beside the measured rows is its rating; a product worked out
// with "x" ("16 kernels x 3 sizes x 20 s = 16 min") is computed, its
// factors too. The measured rows stay.
TEST(ReaderClassifyPlans, ADatasheetRowAndAWorkedOutSumAreNoRuns) {
  const std::string doc =
      "# Card survey\n\n"
      "## 2026-08-01 L4 and T4 roofline numbers\n\n"
      "```bash\n./membw --all\n```\n\n"
      "| Quantity | L4 | T4 |\n|---|---:|---:|\n| Theoretical FP32 (TFLOPS) | 30.3 | 8.1 |\n| Measured FP32 (TFLOPS) | 28.7 | 7.9 |\n| Datasheet bandwidth (GB/s) | 300 | 320 |\n| Measured bandwidth (GB/s) | 241.5 | 244.8 |\n\n"
      "## 2026-08-02 Budget for the next sweep\n\n"
      "| Item | Est. time |\n|---|---|\n| L4 sweep | 40 min |\n| T4 sweep | 55 min |\n\n"
      "Roughly 16 kernels x 3 sizes x 20 s = 16 min of GPU time.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {12, 14}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {13, 23}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A document whose title names it an estimate ("# Compute Estimate: ...",
// "# Build Time Forecast") works out what runs would take: its parts'
// fields, worked sums, tables and blocks are estimates, none a run. A part
// that names what it measured ("## Measured calibration") or runs a
// command is a record all the same.
TEST(ReaderClassifyPlans, AnEstimateDocumentRecordsNoRun) {
  const std::string doc =
      "# Compute Estimate: nightly index rebuild on 4 workers\n\n"
      "## Step A: shard the corpus\n\n**Workers:** 4\n**Time:** 25 min\n\n"
      "## Step B: encode\n\n```\nper shard: 40 s\nshards: 120\ntotal: 120 x 40 s = 80 min\n```\n\n"
      "## Totals\n\n| step | time |\n|---|---|\n| A | 25 min |\n| B | 80 min |\n\n"
      "## Measured calibration\n\n- encode, one shard: 38.6 s\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {6, 11, 13, 20, 21}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[6].find("estimate"), std::string::npos) << why[6];
  EXPECT_TRUE(kept.count(25)) << ::testing::PrintToString(why);
}

// An entry whose own heading calls it an estimate or a ceiling ("## 2.
// Decode tokens/s ceiling from communication alone") works one out from the
// runs before it: no run of its own. Its neighbours' runs stay.
TEST(ReaderClassifyPlans, AnEntryHeadedAsACeilingRecordsNoRun) {
  const std::string doc =
      "# All-reduce latency report\n\n## 1. Latency sweep\n\n| msg | eager us |\n|---|---|\n| 8 KB | 36.6 |\n\n"
      "## 2. Decode tokens/s ceiling from communication alone\n\n"
      "| model | layers | eager us | eager tok/s |\n|---|---|---|---|\n| Llama-3-8B | 32 | 36.6 | 426 |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(13)) << ::testing::PrintToString(why);
  EXPECT_NE(why[13].find("ceiling"), std::string::npos) << why[13];
}

// A title that names the estimate beside what was measured ("Estimated vs
// measured ...") is no estimate of the whole document.
TEST(ReaderClassifyPlans, AnEstimateBesideMeasuredInTheTitleKeepsTheRuns) {
  const std::string doc =
      "# Estimated vs measured encode time\n\n## Run 1\n\n- encode, one shard: 38.6 s\n";
  EXPECT_TRUE(KeptLines(doc).count(5));
}

// A title that names the document an analysis of theoretical limits works
// out what a kernel could reach: its spec tables, sized layouts and the
// figures its design is expected to give are no runs.
TEST(ReaderClassifyPlans, ATheoreticalLimitsDocumentRecordsNoRun) {
  const std::string doc =
      "# Theoretical Limits Analysis: softmax on one GPU\n\n"
      "## Device\n\n### Memory\n\n| Level | Bandwidth | Latency |\n|---|---|---|\n| L2 | ~2 TB/s | ~90 cycles |\n\n"
      "## New design\n\n```\nExpected Time:   0.041 ms\nTarget Bandwidth: 88%\n```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.empty()) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// Headings in other scripts name plans and explanations too: "### 预期性能"
// (expected performance), "### Выводы" (conclusions), "### 결론"
// (conclusion). A word of a script written without spaces is found inside
// the heading's run of letters; the measured parts beside them stay runs.
TEST(ReaderClassifyPlans, PlanAndExplanationHeadingsInOtherScripts) {
  const std::string doc =
      "# 解码测试\n\n## 2026-05-02 第一轮\n\n- 吞吐: 118.4 tokens/s\n\n### 预期性能\n\n- 吞吐: 150 tokens/s\n\n"
      "## 2026-05-03 Прогон 2\n\n- latency: 2.84 ms\n\n### Выводы\n\nВ среднем запрос шёл 3.1 ms.\n\n"
      "## 2026-05-04 실행 3\n\n- latency: 4.27 ms\n\n### 결론\n\n평균 지연은 5.5 ms 이다.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 13, 21}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {9, 17, 25}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A word after a figure that makes it a bound ("4 ms or less", "2 ms 以下",
// "5ms 이하": at most; "以上", "이상": at least) states a claim or a goal,
// not a reading; the plain figure beside it is the run's.
TEST(ReaderClassifyPlans, ABoundWordAfterAFigureIsNoReading) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - lock keys\n\n",
                              "- p95 latency: 4 ms or less\n- 平均延迟: 2 ms 以下\n- p99 지연: 5ms 이하\n"
                              "- p50 latency: 1.37 ms\n", &unread);
  EXPECT_NE(OnLine(figs, 10), nullptr);
  for (int line : {7, 8, 9}) EXPECT_EQ(OnLine(figs, line), nullptr) << line;
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A section that describes the test machine in another language ("##
// 测试环境", test environment; "## Характеристики стенда", the bench's
// characteristics) states its specifications, not a run, like "## Test
// Environment"; the dated run below stays.
TEST(ReaderClassifyPlans, ATestMachineSectionInAnotherLanguageRecordsNoRun) {
  const std::string doc =
      "# 检索服务压测\n\n## 测试环境\n\n```\nCPU    : 16 cores\nRAM    : 64 GB\nDisk   : 3200 MB/s\n```\n\n"
      "## Характеристики стенда\n\n- RAM: 32 GB\n\n## 2026-05-02 第一轮\n\n- p50 latency: 1.37 ms\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(17)) << ::testing::PrintToString(why);
  for (int line : {7, 8, 13}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A ledger of a pipeline's tasks ("| task | status | duration |", "| 任务 |
// 状态 | 耗时 |") tells how long each job took beside whether it passed:
// job durations, no run's figures. The throughput table of the run stays.
TEST(ReaderClassifyPlans, ATaskLedgersDurationsAreNoRuns) {
  const std::string doc =
      "# Nightly pipeline\n\n## 2026-05-06 run\n\n| task | status | duration |\n|---|---|---|\n"
      "| fetch weights | ✅ done | 41.2s |\n| quantize | ✅ done | 129.7s |\n\n"
      "| 任务 | 状态 | 耗时 |\n|---|---|---|\n| 调优 | ✅ 成功 | 610.4s |\n\n"
      "| batch | throughput |\n|---|---|\n| 8 | 5120.5 tokens/s |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(16)) << ::testing::PrintToString(why);
  for (int line : {7, 8, 12}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A figure labelled as what a change gained or saved ("- Measured gain:
// 0.63 s", "- Direct savings: ~0.52 s", "- Total gain from caching: 0.11
// s") is a difference of two runs, not a run's own figure; the measured
// time beside it stays.
TEST(ReaderClassifyPlans, AFigureLabelledAsAGainOrSavingIsNoRun) {
  const std::string doc =
      "# Parser tuning\n\n## 2026-04-02 prefix check\n\n- parse time: 8.44 s\n- Measured gain: 0.63 s (-7%)\n"
      "- Direct savings: ~0.52 s\n- Total gain from caching: 0.11 s\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  for (int line : {6, 7, 8}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A part named as a budget, an SLO or requirements ("## Request latency
// budgets", "## SLOs", "## Hardware requirements") states what runs may
// take or need, not what one took; a part naming the budget as measured
// ("## Memory budget, measured") records its run.
TEST(ReaderClassifyPlans, ABudgetOrRequirementsPartRecordsNoRun) {
  const std::string doc =
      "# Checkout service\n\n## Request latency budgets\n\n"                       // 1, 3
      "| route | p50 | p99 |\n|---|---|---|\n| cart | 40ms | 220ms |\n"           // 5-7
      "| pay | 90ms | 480ms |\n\n## SLOs\n\n- p99 of pay: 450 ms\n\n"               // 8, 10, 12
      "## Host requirements\n\n| part | size |\n|---|---|\n| RAM | 64 GB |\n\n"    // 14, 16-18
      "## Memory budget, measured\n\n| part | peak memory |\n|---|---|\n"          // 20, 22, 23
      "| cache | 12.5 GiB |\n";                                                      // 24
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 12, 18}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(24)) << ::testing::PrintToString(why);
}

// A part that shows what a tool prints or what a record will look like
// ("## Example output", "### Results template") and a part that explains
// what each figure means ("## Summary: three metrics explained") record no
// run; a measured part beside them stays a record.
TEST(ReaderClassifyPlans, AnExampleOrAnExplainedPartHoldsNoRun) {
  const std::string doc =
      "# Profiler notes\n\n## 1. Measured decode\n\n- decode: 41.7 tok/s\n\n"
      "## Example output\n\n- kernel time: 4,603 ms\n\n"
      "## Summary: three metrics explained\n\n- GPU time: 4,666 ms\n\n"
      "### Results template\n\n| case | latency |\n|---|---|\n| A | 12 ms |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  for (int line : {9, 13, 19}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A list led by the changes against another run ("Delta vs baseline:")
// holds derived figures, not runs; the record above it stays.
TEST(ReaderClassifyPlans, AListLedByADeltaHoldsNoRun) {
  const std::string doc =
      "# Render log\n\n## 2026-03-26 Lazy pages\n\n```\nnode bench.mjs lazy\n```\n\n"
      "Result:\n- render: 62.4 ms\n\nDelta vs baseline:\n- `renderMs`: `-96.5%`\n- `totalMs`: `-50.0%`\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(10)) << ::testing::PrintToString(why);
  for (int line : {13, 14}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[13].find("Delta vs baseline"), std::string::npos) << why[13];
}

}  // namespace
}  // namespace moelog::logbook::reader
