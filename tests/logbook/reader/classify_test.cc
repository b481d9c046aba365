// The classify stage: which figures are runs' measurements and which are
// derived, estimates, or restate an earlier entry.
#include <gtest/gtest.h>

#include <algorithm>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/prose.h"

namespace moelog::logbook::reader {
namespace {

bool AnyRunTime(const std::vector<Figure>& figs) {
  for (const auto& f : figs)
    if (f.metric == "time_s" && !f.derived && f.not_run == nullptr) return true;
  return false;
}

// "~9 us smaller" is a difference of two runs, never a 9 us run.
TEST(ReaderClassify, ADifferenceIsNoRun) {
  EXPECT_FALSE(AnyRunTime(Figures("the fused path is ~9 us smaller", true, false, true)));
  EXPECT_FALSE(AnyRunTime(Figures("dispatch got 0.3 ms faster", true, false, true)));
  EXPECT_TRUE(AnyRunTime(Figures("the fused path takes 0.84 ms", true, false, true)));
  EXPECT_FALSE(AnyRunTime(Figures("the ~25-35 us gap is launch overhead", true, false, true)));  // a gap
}

// Whether any figure of `figs` is a run's: neither derived nor marked no run.
bool AnyRun(const std::vector<Figure>& figs) {
  for (const auto& f : figs)
    if (!f.derived && f.not_run == nullptr) return true;
  return false;
}

// How long something went on or how long ago it happened in ops prose
// ("watched the queue for 5 min", "came back with 2 h 10 m uptime", "~4 s
// later", "a 6-second trace") is an event's duration, never a run's figure;
// what a run took stays one.
TEST(ReaderClassify, AnEventsDurationIsNoRun) {
  for (const char* text : {"Watched the queue for 5 min: nothing moved", "the node came back with 2 h 10 m uptime",
                           "both ports dropped, ~4 s later they were back", "the daemon restarted 20 min ago",
                           "the last 6-second trace put most samples in memcpy"})
    EXPECT_FALSE(AnyRun(Figures(text, true, false, true))) << text;
  EXPECT_TRUE(AnyRun(Figures("the fused step took 3.2 s", true, false, true)));
  EXPECT_TRUE(AnyRun(Figures("decode of 512 tokens: 41.5 s", true, false, true)));
  EXPECT_TRUE(AnyRun(Figures("an 8.4-second median duration", true, false, true)));
}

// How long a whole job, a test or the compiler took ("passed in 40 s",
// "compile `148.4s`", "compilation took 85 s", "wall time 41 s", "parent
// duration 195006ms") is no run's figure; the words are data
// (job_duration_leads, job_time_words of vocabulary.json).
TEST(ReaderClassify, AJobsOrACompilersDurationIsNoRun) {
  for (const char* text : {"33 passed in 10.41s", "compile `148.4s` on the first call", "compilation took 85 s",
                           "wall time 41 s", "parent duration `195006ms`", "the test times out at 60 seconds"})
    EXPECT_FALSE(AnyRun(Figures(text, true, false, true))) << text;
  EXPECT_TRUE(AnyRun(Figures("the fused step took 3.2 s", true, false, true)));
  EXPECT_TRUE(AnyRun(Figures("step time 41 ms", true, false, true)));
  EXPECT_TRUE(DataWords("data/reader/vocabulary.json", "job_time_words").count("wall"));
  EXPECT_TRUE(ReaderLexicon().job_duration_leads.count("compile"));
}

// What a change adds or saves ("the autotuner adds ~30 us per dispatch",
// "prefetch saves 0.4 ms per step") is a difference, not a run's figure.
TEST(ReaderClassify, WhatAChangeAddsOrSavesIsNoRun) {
  for (const char* text : {"the autotuner adds ~30us per kernel dispatch", "conversion in the browser adds ~1-2s on first load",
                           "prefetch saves 0.4 ms per step", "the pass shaves \xE2\x89\x88" "12 us off each call"})
    EXPECT_FALSE(AnyRun(Figures(text, true, false, true))) << text;
  EXPECT_TRUE(AnyRun(Figures("the fused kernel takes 30 us per call", true, false, true)));
  // The change goes on through "and" in its clause; a new sentence is a run again.
  EXPECT_FALSE(AnyRun(Figures("Both versions added ~3s to compress and ~2s to decompress", true, false, true)));
  EXPECT_TRUE(AnyRun(Figures("Prefetch saves 0.4 ms per step. The step takes 12.1 ms and 3.2 GB", true, false, true)));
  EXPECT_FALSE(AnyRun(Figures("a persistent kernel would save up to 250 us", true, false, true)));  // past the bound
}

// A hedged figure ("maybe 5-10 us", "probably ~2 ms") is a guess, in a
// sentence or a list item alike; a figure after "up to" alone stays a run.
TEST(ReaderClassify, AHedgedFigureIsAGuess) {
  for (bool prose : {true, false}) {
    EXPECT_FALSE(AnyRun(Figures("better vectorization: maybe 5\xE2\x80\x93" "10 us", true, false, prose))) << prose;
    EXPECT_FALSE(AnyRun(Figures("the copy is probably ~2 ms", true, false, prose))) << prose;
  }
  EXPECT_TRUE(AnyRun(Figures("the copy took 2 ms", true, false, true)));
}

// An aside right after a figure that names an earlier run ("~4,300
// tokens/sec (previous test)") restates that run's figure.
TEST(ReaderClassify, AnAsideNamingAnEarlierRunRestatesIt) {
  const auto before = Figures("- 2-GPU rate: ~4,300 tokens/sec (previous test)", true, false, true);
  ASSERT_FALSE(before.empty());
  EXPECT_TRUE(before[0].restated);
  const auto now = Figures("- 8-GPU rate: ~15,570 tokens/sec (this test)", true, false, true);
  ASSERT_FALSE(now.empty());
  EXPECT_FALSE(now[0].restated);
}

// A power figure is a reading only where its clause names power drawn or
// used ("average power draw 312 W"); a device's rating or limit ("the
// card's power envelope is ~75 W", "the riser only supplies 25 W") is none.
TEST(ReaderClassify, APowerRatingIsNoReading) {
  for (const char* text : {"the card's published power envelope is ~75 W under load", "the riser only supplies 25 W",
                           "a PCIe-power warning: the slot sources 25 W", "the 25 W warning persists"})
    EXPECT_FALSE(AnyRun(Figures(text, true, false, true))) << text;
  EXPECT_TRUE(AnyRun(Figures("average power draw 312 W", true, false, true)));
  EXPECT_TRUE(AnyRun(Figures("during the run the board power was 287.5 W", true, false, true)));
  EXPECT_TRUE(AnyRun(Figures("12:01:42 GPU: 58% | Power: 158W [OK]", true, false, true)));  // a telemetry reading
  EXPECT_FALSE(AnyRun(Figures("Power limit: 300 W", true, false, true)));
}

// A range ("between 60 and 81 ms", "12.1–12.9 ms", "12.1-12.9 ms", "[14.2,
// 15.0] ms", "119 to 123 seconds") is one measurement's spread: its two ends
// are that measurement's minimum and maximum, never a run each.
TEST(ReaderClassify, ARangesEndsAreOneMeasurementsMinAndMax) {
  for (const char* text : {"between 60 and 81 ms", "fused: 60\xE2\x80\x93" "81 ms over 5 runs", "fused: 60-81 ms",
                           "fused: [60, 81] ms", "the step took 60 ms to 81 ms"}) {
    auto f = Figures(text, true, false, true);
    ASSERT_EQ(f.size(), 2u) << text;
    EXPECT_EQ(f[0].not_run, nullptr) << text;
    EXPECT_EQ(f[1].not_run, nullptr) << text;
    EXPECT_NEAR(f[0].value, 0.060, 1e-12) << text;
    EXPECT_NEAR(f[1].value, 0.081, 1e-12) << text;
    EXPECT_EQ(f[0].named["statistic"], "min") << text;
    EXPECT_EQ(f[1].named["statistic"], "max") << text;
  }
}

// An approximate range is a guess ("~50-100 ms", "about 5-8 ms") unless
// its ends are written to their decimals and close together ("~4.24-4.28
// ms/op" over repeats): then it is the measured spread, min and max.
TEST(ReaderClassify, AnApproximateRangeIsAGuessUnlessItIsANarrowWrittenSpread) {
  for (const char* guess : {"should take ~50-100 ms", "about 5-8 ms", "about 1.5-3.5 ms"}) {
    const auto f = Figures(guess, false, false, true);
    for (const auto& x : f) EXPECT_NE(x.not_run, nullptr) << guess << ": " << x.value << " " << x.unit << " " << x.metric;
  }
  const auto f = Figures("`BenchmarkCompress`: ~4.24-4.28 ms/op", true, false, true);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].not_run, nullptr);
  EXPECT_EQ(f[0].named.at("statistic"), "min");
  EXPECT_NEAR(f[1].value, 4.28e-3, 1e-12);
}

// What a sentence says a figure should be is a goal or an expectation,
// never a run, in a bullet as in prose; a figure before the word is not.
TEST(ReaderClassify, AGoalOrExpectationIsNoRun) {
  EXPECT_FALSE(AnyRunTime(Figures("After step 2 the log should end with train_time 80000ms", true, false, false)));
  EXPECT_FALSE(AnyRunTime(Figures("the fused path must stay under 1.5 ms", true, false, true)));
  EXPECT_TRUE(AnyRunTime(Figures("the fused path took 1.41 ms and should improve", true, false, true)));
  EXPECT_TRUE(prose::GoalWord("Should"));
  EXPECT_FALSE(prose::GoalWord("measured"));
}

// A summary table above the entries states what they measure: its figures
// an entry below measures again are restated (never a run of the summary,
// and they make the entry's own figures no restatement); a figure only the
// summary records stays its run.
TEST(ReaderClassify, ASummaryAboveTheEntriesRestatesWhatTheyMeasure) {
  const std::string text = std::string("# Speedrun\n\n## Results\n\n| # | run | time | tokens |\n|---|---|---|---|\n") +
                           "| 1 | baseline | 9.42 hours | 5.91B |\n| 2 | muon | 5.06 hours | 2.95B |\n\n"
                           "## 1. Baseline run\n\nThe run took **9.42 hours**.\n\n## 2. Muon\n\nThe run took **5.06 hours**.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  ASSERT_EQ(figs.size(), 3u);
  ASSERT_EQ(figs[1].size(), 1u);  // the entries keep their own figures
  ASSERT_EQ(figs[2].size(), 1u);
  EXPECT_NEAR(figs[1][0].run.metrics.begin()->second, 9.42 * 3600, 1);
  for (const auto& f : figs[0]) {
    for (const auto& [metric, value] : f.run.metrics) EXPECT_FALSE(std::fabs(value - 9.42 * 3600) < 1) << metric;
  }
}

// Every figure of an entry that is tabled, with the reasons the others are
// listed ("time_s" figures only, as written: value in seconds).
struct Fates {
  std::vector<double> tabled;
  std::vector<std::string> why;
};
Fates EntryFates(const std::string& text, size_t entry) {
  const Logbook lb = ParseLogbook(text, "t.md");
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  Fates out;
  if (entry >= figs.size()) return out;
  for (const auto& f : figs[entry])
    if (auto it = f.run.metrics.find("time_s"); it != f.run.metrics.end()) out.tabled.push_back(it->second);
  for (const auto& u : unread[entry]) out.why.push_back(u.why);
  return out;
}

bool Has(const std::vector<double>& v, double x) {
  for (double y : v)
    if (std::fabs(y - x) <= 1e-9 * std::max(1.0, std::fabs(x))) return true;
  return false;
}

// A baseline measured in the same entry ("Reference path: 2.538 ms" beside
// the new path's 1.106 ms) is the entry's measurement, not earlier work; a
// reference's figure that equals an earlier entry's restates it.
TEST(ReaderClassify, AReferenceMeasuredInTheEntryIsItsMeasurement) {
  const std::string text =
      "# Log\n\n## 2026-01-01 Old path\n- Result: 2.538 ms\n\n"
      "## 2026-01-02 Routing fastpath\n- Microbenchmark:\n  - Reference path: `2.538 ms`\n  - New path: `1.106 ms`\n\n"
      "## 2026-01-03 Another shape\n- Microbenchmark:\n  - Reference path: `3.904 ms`\n  - New path: `1.302 ms`\n\n"
      "## 2026-01-04 Rust port\n- reference solution: 0.307 s\n  - 1 thread: 3.90 s\n- ours: 0.52 s\n\n"
      "## 2026-01-05 Ideas\n- mmap instead of read: the reference C solution reports 0.31 s on such hardware.\n";
  const Fates restating = EntryFates(text, 1);  // 2.538 ms is the first entry's figure
  EXPECT_TRUE(Has(restating.tabled, 0.001106));
  EXPECT_FALSE(Has(restating.tabled, 0.002538));
  const Fates own = EntryFates(text, 2);
  EXPECT_TRUE(Has(own.tabled, 0.003904)) << (own.why.empty() ? "" : own.why[0]);
  EXPECT_TRUE(Has(own.tabled, 0.001302));
  const Fates rust = EntryFates(text, 3);
  EXPECT_TRUE(Has(rust.tabled, 0.307)) << (rust.why.empty() ? "" : rust.why[0]);
  EXPECT_TRUE(Has(rust.tabled, 3.90));
  EXPECT_TRUE(Has(rust.tabled, 0.52));
  // A reference's figure with no measurement of the entry beside it is someone else's.
  const Fates ideas = EntryFates(text, 4);
  EXPECT_TRUE(ideas.tabled.empty());
  EXPECT_FALSE(ideas.why.empty());
}

// Words that say a figure was measured before still restate it.
TEST(ReaderClassify, EarlierWorkStillRestates) {
  const std::string text =
      "# Log\n\n## 2026-01-01 Pooling\n- Plain result:\n  - plain: `0.011020 s`\n"
      "- Pooled result (from previous section):\n  - pooled: `0.009874 s`\n";
  const Fates f = EntryFates(text, 0);
  EXPECT_TRUE(Has(f.tabled, 0.011020));
  EXPECT_FALSE(Has(f.tabled, 0.009874));
}

// A figure computed by arithmetic written before it ("730us -> 560us =
// ~170us", "7267 ops / 6 per cycle = 1211 ...") is no measurement; a
// conversion of one figure ("12.30 ms = 412.5 TF/s") is the run's.
TEST(ReaderClassify, ArithmeticResultIsComputed) {
  auto f = Figures("Attn: 730us -> 560us = ~170us", false);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].not_run, nullptr);
  EXPECT_EQ(f[1].not_run, nullptr);
  EXPECT_NE(f[2].not_run, nullptr);
  EXPECT_TRUE(ComputedFigure("Need: 1363 - 1317 = 46 ms", 20));
  auto conv = Figures("fused kernel: 12.30 ms = 412.5 TF/s", false);
  ASSERT_EQ(conv.size(), 2u);
  EXPECT_EQ(conv[1].not_run, nullptr);
  EXPECT_EQ(conv[1].metric, "tflops");
}

// "~" writes a measurement roughly: in prose and bullets it is the run's
// figure; a "~" figure says it is an estimate only with an estimate word.
TEST(ReaderClassify, AnApproximateResultIsAMeasurement) {
  EXPECT_TRUE(AnyRunTime(Figures("Throughput dropped slightly; the step now takes ~2.2 ms", true, false, true)));
  EXPECT_TRUE(AnyRunTime(Figures("each epoch took approximately 89 seconds", true, false, true)));
  EXPECT_FALSE(AnyRunTime(Figures("the full run takes ~35 minutes by my estimate", true, false, true)));
  EXPECT_FALSE(AnyRunTime(Figures("a full sweep would take ~3 s", true, false, true)));
  // Time a run spent on one part is a share of it, not a run.
  EXPECT_FALSE(AnyRunTime(Figures("We were spending ~10.5s moving data and ~0.5s computing.", true, false, true)));
  EXPECT_FALSE(AnyRunTime(Figures("~35 ms came from the wire legs.", true, false, true)));
  // One "~" figure does not make the others of its line estimates.
  auto f = Figures("~3.8 us launch overhead vs 51 us kernel", true, false, true);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].not_run, nullptr);
  EXPECT_EQ(f[1].not_run, nullptr);
}

// A projection is an estimate, whatever else its sentence says.
TEST(ReaderClassify, AProjectionIsAnEstimate) {
  EXPECT_FALSE(AnyRunTime(Figures("estimated 0.25 ms/step savings over 1500 steps", true, false, false)));
  EXPECT_FALSE(AnyRunTime(Figures("the projected step is 41 ms", true, false, true)));
  EXPECT_TRUE(prose::EstimateWord("est."));
  EXPECT_FALSE(prose::EstimateWord("measured"));
}

// A range under a metric's name is the entry's one measurement (its min and
// max, one row as written); under a label that names no key, nothing tells
// whose it is: listed.
TEST(ReaderClassify, ARangeIsTabledOnlyWhereItsMeasurementIsNamedOrAlone) {
  const std::string text =
      "# Log\n\n## 2026-01-01 Spread\n- Latency: 12.1-12.9 ms\n\n"
      "## 2026-01-02 Vendor\n- Tried the vendor library scan as a baseline: between 5.1 and 5.8 us\n";
  const auto figs = LogbookFigures(ParseLogbook(text, "t.md"), nullptr);
  ASSERT_EQ(figs[0].size(), 1u);
  EXPECT_NEAR(figs[0][0].run.metrics.at("min_time_s"), 0.0121, 1e-12);
  EXPECT_NEAR(figs[0][0].run.metrics.at("max_time_s"), 0.0129, 1e-12);
  const Fates vendor = EntryFates(text, 1);
  EXPECT_TRUE(vendor.tabled.empty());
  EXPECT_FALSE(vendor.why.empty());
}

// A range in a Result field is its run's one measurement too, beside a
// derived change ("~+2.9% throughput") or not: the field's name is no run's.
TEST(ReaderClassify, ARangeInAResultFieldIsItsRunsMinAndMax) {
  for (const std::string result : {"276.2-277.8 MiB/s", "285.0-286.6 MiB/s, ~+2.9% throughput."}) {
    const std::string text = "# Log\n\n## 2026-02-05\n\n- Change: a NEON scan.\n- Command: `cargo bench --bench cmp`\n- Result: " +
                             result + "\n- Decision: Reverted.\n";
    const auto figs = LogbookFigures(ParseLogbook(text, "t.md"), nullptr);
    ASSERT_EQ(figs.size(), 1u);
    ASSERT_EQ(figs[0].size(), 1u) << result;
    bool min = false, max = false;
    for (const auto& [m, v] : figs[0][0].run.metrics) min = min || m.rfind("min_", 0) == 0, max = max || m.rfind("max_", 0) == 0;
    EXPECT_TRUE(min && max) << ::testing::PrintToString(figs[0][0].run.metrics);
  }
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// The figures LogbookFigures keeps for entry `heading`, and the reasons it
// lists for the others.
struct Kept {
  size_t runs = 0;
  std::vector<std::string> why;
};
Kept KeptFor(const std::string& text, const std::string& heading) {
  const Logbook lb = ParseLogbook(text, "t.md");
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  Kept k;
  for (size_t i = 0; i < lb.entries.size(); ++i) {
    if (lb.entries[i].heading != heading) continue;
    k.runs = figs[i].size();
    for (const auto& u : unread[i]) k.why.push_back(u.why);
    return k;
  }
  ADD_FAILURE() << "no entry " << heading;
  return k;
}

bool Says(const Kept& k, const char* part) {
  return std::any_of(k.why.begin(), k.why.end(), [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// A sub-heading that explains ("### Key design decisions") or a list item
// whose lead explains ("- Notes (from the runbook):") holds no run: the
// figures there are listed as explanation; the entry's others stay runs.
TEST(ReaderClassify, FiguresThatExplainAreNoRuns) {
  const std::string doc = "# Log\n\n## 1. Fused path\n\n- fused: 3.41 ms\n\n"
                          "### Key design decisions\n\n- unfused: 9.12 ms\n\n"
                          "## 2. Pods\n\n- Evidence:\n  - Notes (from the runbook):\n    - a pod ~13 s vs ~102 s\n"
                          "- Measured: the pod took 41.5 s.\n";
  const Kept one = KeptFor(doc, "1. Fused path");
  EXPECT_EQ(one.runs, 1u);
  EXPECT_TRUE(Says(one, "an explanation")) << ::testing::PrintToString(one.why);
  const Kept two = KeptFor(doc, "2. Pods");
  EXPECT_EQ(two.runs, 1u) << ::testing::PrintToString(two.why);
  EXPECT_TRUE(Says(two, "an explanation")) << ::testing::PrintToString(two.why);
}

// A table or a program's output under a sub-heading that explains
// ("### Root cause: three passes" over the timings that show it) records
// runs all the same; prose there, and under a heading that interprets
// ("### Implications"), explains.
TEST(ReaderClassify, ATableUnderAnExplainingHeadingIsARecord) {
  const std::string doc = "# Softmax log\n\n## Phase 2: Profiling\n\n### Root cause: three passes\n\n"
                          "| kernel | time |\n|---|---|\n| eager | 7.5 us |\n| triton | 31.1 us |\n\n"
                          "### Implications\n\n- a fused pass took 9.0 us on the small case.\n";
  const Kept k = KeptFor(doc, "Phase 2: Profiling");
  EXPECT_EQ(k.runs, 2u) << ::testing::PrintToString(k.why);
  EXPECT_TRUE(Says(k, "an explanation")) << ::testing::PrintToString(k.why);
}

// A numbered section over numbered parts (`## 2.` over `### 2.1`) that
// holds no table, command or output introduces them: "Waiting 8 hours for
// a result was too slow" is no run of it.
TEST(ReaderClassify, AnIntroductionToTheEntriesBelowIsNoRun) {
  const std::string doc = "# Speedrun\n\n## 1. Initial setup\n\nThe baseline took **8.13 hours**.\n\n"
                          "## 2. Faster\n\nWaiting 8 hours for a result was too slow, so I changed things.\n\n"
                          "### 2.1 Muon\n\nThe run took **4.53 hours**.\n";
  EXPECT_EQ(KeptFor(doc, "1. Initial setup").runs, 1u);
  const Kept two = KeptFor(doc, "2. Faster");
  EXPECT_EQ(two.runs, 0u);
  EXPECT_TRUE(Says(two, "an introduction")) << ::testing::PrintToString(two.why);
  EXPECT_EQ(KeptFor(doc, "2.1 Muon").runs, 1u);
}

// A recap in a later entry that runs nothing ("- packing: 147,734 ->
// 102,678 cycles") restates numbers the entries above wrote, whether or
// not those were read as figures; a new number in it stays a run.
TEST(ReaderClassify, ARecapOfNumbersEarlierEntriesWroteRestatesThem) {
  const std::string doc = "# Log\n\n## Optimization log\n\n### Optimization 1: packing\n- **Cycles:** 102,678 (1.44x)\n\n"
                          "### Optimization 2: simd\n- **Cycles:** 17,485 (8.45x)\n\n"
                          "## Experiments log\n\n### Session 1 (recap)\n- packing: 147,734 → 102,678 cycles\n"
                          "- simd: → 17,485 cycles\n\n### Session 2 (new)\n- pipelining: → 7,822 cycles\n";
  const Kept recap = KeptFor(doc, "Session 1 (recap)");
  EXPECT_EQ(recap.runs, 0u) << ::testing::PrintToString(recap.why);
  EXPECT_TRUE(Says(recap, "restates a number an earlier entry writes"));
  EXPECT_EQ(KeptFor(doc, "Session 2 (new)").runs, 1u);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A part headed as a recap ("### Observations", "### Summary") quotes the
// table it reads: a figure the document writes outside that part (rounded:
// "3.9ms" of "3.91ms") restates it, with the rest of its row; a figure
// written nowhere else (a new variant's 0.97ms) stays a run.
TEST(ReaderClassify, ARecapPartRestatesFiguresWrittenElsewhere) {
  const std::string doc =
      "# Kernel log\n\n## 1. Baseline timings\n\n| case | small | large |\n|---|---|---|\n"
      "| gather | 41.7us | 2.48ms |\n| scatter | 55.2us | 3.91ms |\n\n"
      "### Key observations\n\n- **scatter/large is the slowest**: 3.9ms per call.\n- **gather/small is the fastest**: 41.7us.\n\n"
      "## 2. Fused gather\n\n| case | large |\n|---|---|\n| fused | 1.12ms |\n\n"
      "### Summary\n\n| variant | large | vs base |\n|---|---|---|\n| base | 2.48ms | 1.0x |\n"
      "| fused | 1.12ms | 2.2x |\n| fused+prefetch | 0.97ms | 2.6x |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);   // the baseline table
  EXPECT_TRUE(kept.count(19)) << ::testing::PrintToString(why);  // the fused table
  EXPECT_FALSE(kept.count(12)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(13)) << ::testing::PrintToString(why);
  // Listed as restating the table above (the observations are part of its entry) or as a recap.
  for (int line : {12, 13})
    EXPECT_TRUE(why[line].find("a recap or comparison") != std::string::npos ||
                why[line].find("restates a figure of this entry's table") != std::string::npos)
        << why[line];
  EXPECT_FALSE(kept.count(25)) << ::testing::PrintToString(why);  // base, restated
  EXPECT_FALSE(kept.count(26)) << ::testing::PrintToString(why);  // fused, restated
  EXPECT_TRUE(kept.count(27)) << ::testing::PrintToString(why);   // fused+prefetch, written only here
}

// Trailing zeros make a figure precise, not distinctive: a recap's new
// "1.000 ms" restates no "1" written elsewhere ("T=1").
TEST(ReaderClassify, ARecapFigureOfTrailingZerosIsNoOtherOne) {
  const std::string doc =
      "# Kernel log\n\n## 1. Decode\n\nDecode runs one token at a time: T=1, batch 1.\n\n"
      "| case | time |\n|---|---|\n| decode | 1.21 ms |\n\n"
      "## Post-Submission Summary\n\n| metric | before | after |\n|---|---|---|\n"
      "| mean latency | 1.21 ms | 1.000 ms |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(15)) << ::testing::PrintToString(why);
}

// A comparison with another run quotes that run's figure, rounded, even
// when the log runs newest first and the run's own entry is below.
TEST(ReaderClassify, AComparisonQuotesTheOtherRunsFigure) {
  const std::string doc =
      "# Training log\n\n## 2026-03-02 10:00 — Run 2 wider MLP\n\n### Result\n- Final throughput: `398,120` tokens/sec\n\n"
      "### Comparison to Run 1\n- Run 1 ran at about `412k` tokens/sec; Run 2 at about `398k` tokens/sec.\n\n"
      "## 2026-03-01 09:00 — Run 1 baseline\n\n### Result\n- Final throughput: `412,377.2` tokens/sec\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(9)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A part that plans, recommends or works out what the hardware could do
// ("### Next opportunities", "### Recommendation", "### Theoretical peak")
// records no run: its figures are listed as explanation.
TEST(ReaderClassify, APlanOrTheoryPartHoldsNoRun) {
  const std::string doc = "# Log\n\n## 1. Fused path\n\n- fused: 3.41 ms\n\n"
                          "### Theoretical peak\n\n- FP16: ~48.2 TFLOPS at the boost clock\n\n"
                          "### Next opportunities\n\n- prefetching could reach ~2.9 ms per call\n\n"
                          "### Recommendation\n\n- keep the 3.41 ms path; drop the 5.12 ms one\n\n"
                          "### Method\n\n- one buffer of ~5.6 GiB is gathered per step\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(9)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(13)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(17)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(21)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A dated entry below a "## Baseline" section that is no entry of its own
// restates the section's number ("median `41.207 TPS` from the samples
// above"): the section wrote it first.
TEST(ReaderClassify, AnEntryQuotingTheBaselineSectionAboveRestatesIt) {
  const std::string doc = "# Perf log\n\n## Baseline\n\n- Samples: `41.188`, `41.207`, `41.230` TPS.\n"
                          "- Median: `41.207 TPS`.\n\n## Deltas\n\n### 2026-04-02 10:00 - BASELINE\n\n"
                          "- Change: none, measurement only.\n- Evidence: median `41.207 TPS` from the samples above.\n\n"
                          "### 2026-04-02 11:00 - PERF-1\n\n- Evidence: median `43.518 TPS` over five samples.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(13)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(17)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A summary table that is the record (prose below repeats it, "parsing
// takes ~25.12 ms") keeps its rows: a recap part quotes what is written
// above it, or a table below it, never the prose that quotes it.
TEST(ReaderClassify, ASummaryTableRepeatedByProseBelowStaysTheRecord) {
  const std::string doc = "# Parser report\n\n## 1. Benchmark summary\n\n| case | time (ms) |\n|---|---|\n"
                          "| parse | 25.12 |\n| emit | 10.64 |\n\n## 2. Analysis\n\n"
                          "- parsing takes ~25.12 ms per file, emitting 10.64 ms.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(12)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "| Shape | Before (ms) | After (ms) |": the after figures are the entry's
// own; a before figure equal to an earlier entry's restates it, though its
// row holds a fresh after figure; a before figure no entry wrote stays.
TEST(ReaderClassify, ABeforeColumnRestatesAnEarlierEntrysFigure) {
  const Logbook lb = ParseLogbook(
      "# GEMM log\n\n## 2026-03-01 Baseline\n\n```bash\npython gemm.py\n```\n\n"  // 1-7
      "| Shape | Time (ms) |\n|---|---|\n| 4096 | 3.184 |\n\n"                  // 9-11
      "## 2026-03-04 Swizzled tiles\n\n```bash\npython gemm.py --swizzle\n```\n\n"  // 13-17
      "| Shape | Before (ms) | After (ms) |\n|---|---|---|\n"                      // 19, 20
      "| 4096 | 3.184 | 2.907 |\n| 8192 | 25.61 | 22.48 |\n",                     // 21, 22
      "t.md");
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  ASSERT_EQ(figs.size(), 2u);
  std::set<double> kept;
  for (const auto& f : figs[1])
    for (const auto& [m, v] : f.run.metrics) kept.insert(std::round(v * 1e6));
  EXPECT_TRUE(kept.count(2907));   // after, measured here
  EXPECT_TRUE(kept.count(22480));  // after
  EXPECT_TRUE(kept.count(25610));  // before, no earlier entry wrote it
  EXPECT_FALSE(kept.count(3184));  // before, restates the baseline entry
  bool listed = false;
  for (const auto& u : unread[1]) listed = listed || (u.line == 21 && u.why.find("restates") != std::string::npos);
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// An efficiency is a ratio of runs by its nature ("90% scaling efficiency"):
// derived, no run's figure; --show-recorded says so with its stage. A
// utilization read off a tool stays a measurement.
TEST(ReaderClassify, AnEfficiencyIsDerived) {
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(
      "# Scaling log\n\n## 2026-03-01 Eight GPUs\n\n```bash\ntorchrun train.py\n```\n\n"  // 1-7
      "Going from 1 to 8 GPUs gives 90% scaling efficiency.\n\n"                       // 9
      "The fused path is 2.36x faster than eager.\n\n"                                  // 11
      "GPU utilization 71% during the run; step time 412 ms.\n",                        // 13
      &why);
  EXPECT_FALSE(kept.count(9));
  EXPECT_FALSE(kept.count(11));
  EXPECT_TRUE(kept.count(13));
  EXPECT_NE(why[9].find("derived"), std::string::npos) << why[9];
  EXPECT_NE(why[11].find("derived"), std::string::npos) << why[11];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[9]), "classify");
}

// A benchmark history's table per day: a row whose digits repeat an
// earlier day's, in a table whose other rows are new, was measured again.
TEST(ClassifyRestated, ARowOfAFreshTableIsMeasuredAgain) {
  const std::string text =
      "# Bench history\n\n"                                                          // 1-2
      "## 2025-03-06 first cut\n\n"                                                   // 3-4
      "| case | time |\n|---|---|\n| small | 4.125 ms |\n| mid | 8.250 ms |\n| big | 16.50 ms |\n\n"  // 5-10
      "## 2025-03-08 tiled loops\n\n"                                                 // 11-12
      "| case | time |\n|---|---|\n| small | 3.875 ms |\n| mid | 8.250 ms |\n| big | 14.75 ms |\n";  // 13-17
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(text, &why);
  EXPECT_TRUE(kept.count(15));
  EXPECT_TRUE(kept.count(16)) << why[16];
  EXPECT_TRUE(kept.count(17));
}

}  // namespace
}  // namespace moelog::logbook::reader
