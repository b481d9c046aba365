// The figures stage: numbers with their units, as written.
#include <gtest/gtest.h>

#include <cmath>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderFigures, UnitsAndWrittenDigits) {
  auto f = Figures("`fused` 0.406 s, `ref` 1.25 ms, 812,400 tok/s", true);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].unit, "s");
  EXPECT_DOUBLE_EQ(f[0].value, 0.406);
  EXPECT_EQ(f[0].decimals, 3);
  EXPECT_EQ(f[1].metric, "time_s");
  EXPECT_NEAR(f[1].value, 0.00125, 1e-12);
  EXPECT_EQ(f[2].metric, "tokens_per_s");
}

TEST(ReaderFigures, FractionsAreNoFigures) {
  EXPECT_TRUE(Figures("33/64 passed", true).empty());
}

TEST(ReaderFigures, ASpeedupIsDerived) {
  auto f = Figures("fused 0.84 ms (1.44x)", true);
  ASSERT_FALSE(f.empty());
  bool derived = false;
  for (const auto& x : f) derived = derived || (x.metric == "speedup" && x.derived);
  EXPECT_TRUE(derived);
}


// Units of simulators, kernel and serving logs: cycles, GFLOPS (as TF/s),
// ns and μs (Greek mu and micro sign), request and iteration rates.
TEST(ReaderFigures, CyclesGflopsNanosecondsAndRates) {
  auto f = Figures("packed 7,105 cycles, tiled 235.1 GFLOPS, gather 840 ns, scan 12.5 \xCE\xBCs, "
                   "serve 41.3 req/s, train 2.7 it/s, copy 910 MB/s", false);
  ASSERT_EQ(f.size(), 7u);
  EXPECT_EQ(f[0].metric, "cycles");
  EXPECT_DOUBLE_EQ(f[0].value, 7105);
  EXPECT_EQ(f[1].metric, "tflops");
  EXPECT_DOUBLE_EQ(f[1].value, 0.2351);
  EXPECT_EQ(f[1].unit, "GFLOPS");
  EXPECT_EQ(f[1].decimals, 1);
  EXPECT_EQ(f[2].metric, "time_s");
  EXPECT_NEAR(f[2].value, 840e-9, 1e-18);
  EXPECT_NEAR(f[3].value, 12.5e-6, 1e-15);
  EXPECT_EQ(f[4].metric, "requests_per_s");
  EXPECT_EQ(f[5].metric, "iters_per_s");
  EXPECT_EQ(f[6].metric, "gb_per_s");
  EXPECT_DOUBLE_EQ(f[6].value, 0.91);
}

// Unit words in other languages are units too.
TEST(ReaderFigures, UnitWordsInOtherLanguages) {
  auto f = Figures("avant 12,5 secondes; nachher 3.2 Sekunden; total 4.5 horas; \xE6\xAD\xA5\xE9\xAA\xA4 18.5\xE6\xAF\xAB\xE7\xA7\x92\xEF\xBC\x8C", false);
  ASSERT_GE(f.size(), 3u);
  EXPECT_EQ(f[0].metric, "time_s");
  bool hours = false, ms = false;
  for (const auto& x : f) {
    hours = hours || (x.metric == "wall_time_s" && x.value == 4.5 * 3600);
    ms = ms || (x.metric == "time_s" && std::abs(x.value - 0.0185) < 1e-12);
  }
  EXPECT_TRUE(hours);
  EXPECT_TRUE(ms);  // "18.5毫秒，": a full-width comma ends the unit
}

// "630K tok/s", "1.2M cycles": understood at scale, written digits kept
// with the magnitude in the unit; a magnitude before no unit is no figure.
TEST(ReaderFigures, MagnitudesAreUnderstoodAtScaleAndKeptAsWritten) {
  auto f = Figures("loader 630K tok/s, sim 1.2M cycles, a 7B model", false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[0].value, 630000);
  EXPECT_EQ(f[0].unit, "K tok/s");
  EXPECT_EQ(f[0].decimals, 0);
  EXPECT_EQ(f[1].metric, "cycles");
  EXPECT_DOUBLE_EQ(f[1].value, 1.2e6);
  EXPECT_EQ(f[1].decimals, 1);
}

// "GB" is memory where the clause or label names memory; else no figure.
TEST(ReaderFigures, GigabytesAreMemoryOnlyWhereMemoryIsNamed) {
  auto f = Figures("peak VRAM was 41.2 GB", false);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].metric, "memory_mib");
  EXPECT_NEAR(f[0].value, 41.2e9 / 1048576, 1e-6);
  EXPECT_TRUE(Figures("downloaded a 13.5 GB checkpoint", false).empty());
  EXPECT_EQ(Figures("38.0 GB without it", false, false, false, "", "Peak VRAM").size(), 1u);
}

// A percentage naming a measured share is one; a change is derived; a bare
// one is none.
TEST(ReaderFigures, PercentagesNamingAMeasuredShare) {
  auto f = Figures("phase-based: 91.8% load utilization", false);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].metric, "utilization_pct");
  EXPECT_DOUBLE_EQ(f[0].value, 91.8);
  auto h = Figures("prefix cache hit rate 48%", false);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].metric, "hit_rate_pct");
  auto p = Figures("tiled reaches 3.8% of theoretical peak", false);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].metric, "peak_pct");
  auto d = Figures("utilization 12% faster", false);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].derived);
  EXPECT_TRUE(Figures("about 40% of the rows", false).empty());
}

// A profiler's share of time ("48% of the CPU time is spent in ...",
// "22.0% percent of the time went in ...") is a measured share.
TEST(ReaderFigures, AProfilersShareOfTimeIsAFigure) {
  for (const char* text : {"48% of the CPU time is spent in cudaStreamSynchronize",
                           "22.0% percent of the time went in cudaHostAlloc", "9.1% of time in the epilogue"}) {
    auto f = Figures(text, false);
    ASSERT_EQ(f.size(), 1u) << text;
    EXPECT_EQ(f[0].metric, "time_share_pct") << text;
    EXPECT_FALSE(f[0].derived) << text;
  }
}

// A figure in parentheses after another of another metric is the same
// run's, also named by a word ("(peak 38.2 GiB"); one nothing takes ("2.1 s
// warmup" beside a time) is still returned, as no run's figure, so that it
// gets a fate; a comparison's sides ("A vs B") are runs' figures.
TEST(ReaderFigures, AnAsideInParenthesesIsACompanionOrListed) {
  auto f = Figures("step 412 ms (peak 38.2 GiB, 2.1 s warmup)", false);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].metric, "time_s");
  EXPECT_EQ(f[0].not_run, nullptr);
  EXPECT_EQ(f[1].metric, "memory_mib");
  EXPECT_EQ(f[1].not_run, nullptr);
  EXPECT_EQ(f[2].metric, "time_s");
  EXPECT_NE(f[2].not_run, nullptr);
  // Two runs compared in parentheses are no aside: each is its run's figure.
  auto g = Figures("NCU shows (~3.8 us Triton vs ~4.5 us CuTe-DSL)", false);
  ASSERT_EQ(g.size(), 2u);
  for (const auto& x : g) EXPECT_EQ(x.not_run, nullptr);
  EXPECT_NE(g[0].word, g[1].word);
}

// "from A to B" pairs a change's figures as before and after, in a bullet
// as in prose.
TEST(ReaderFigures, FromToIsBeforeAndAfter) {
  for (bool prose : {false, true}) {
    auto f = Figures("the combine went from 560 us to 545 us", true, false, prose);
    ASSERT_EQ(f.size(), 2u) << prose;
    EXPECT_EQ(f[0].named["arrow"], "before");
    EXPECT_EQ(f[1].named["arrow"], "after");
  }
}

// A name written after a figure's unit names it in a bullet too, in one
// or two words ("~3.8 us launch overhead vs 51 us kernel").
TEST(ReaderFigures, ANameAfterTheUnitNamesABulletFigure) {
  auto f = Figures("~3.8 us launch overhead vs 51 us kernel", false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].word, "launch overhead");
  EXPECT_EQ(f[1].word, "kernel");
  EXPECT_EQ(f[0].not_run, nullptr);
  EXPECT_EQ(f[1].not_run, nullptr);
}

// "1211 min cycles": "min" between a number and what it counts is a
// statistic, never minutes.
TEST(ReaderFigures, MinBeforeACountIsAStatistic) {
  for (const auto& x : Figures("VALU: 7267 ops / 6 per cycle = 1211 min cycles", false))
    EXPECT_NE(x.metric, "wall_time_s");
  auto f = Figures("the run took 25 min to finish", false);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].metric, "wall_time_s");
}

// The items of a list that give one unit ("v3: 6.96s", "v6: 20.8s") lend
// it to an item written as a bare number ("v4: 75.67").
TEST(ReaderFigures, AListItemWithoutUnitTakesItsSiblingsUnit) {
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-01-01 Solutions\n- my solutions:\n  - v3: 6.96s\n  - v4: 75.67\n  - v6: 20.8s\n"
      "  - v7: **19.94**\n- hashing function: 53.5s\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  std::vector<double> times;
  for (const auto& f : RecordedFigures(lb.entries[0])) times.push_back(f.run.metrics.count("time_s") ? f.run.metrics.at("time_s") : -1);
  EXPECT_EQ(times, (std::vector<double>{6.96, 75.67, 20.8, 19.94, 53.5}));
  EXPECT_TRUE(SiblingUnit({}).empty());
  EXPECT_TRUE(BareNumber(" **19.94**"));
  EXPECT_FALSE(BareNumber(" 19.94 runs"));
}

// A label that is a unit on its own ("**Cycles:** 147,734") names the unit
// of the plain number after it, thousands separators and a derived
// parenthetical aside; a number with a word after it keeps its own.
TEST(ReaderFigures, AFieldNamedByAUnitGivesItsBareNumberThatUnit) {
  const Logbook lb = ParseLogbook(
      "# Notes\n\n## Log\n\n### Opt 1: packing\n- **Cycles:** 102,678 (1.44x speedup)\n- packed loads\n\n"
      "### Opt 2: vectors\n- Cycles: 17485\n- wider loads\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const auto figs = RecordedFigures(lb.entries[i]);
    ASSERT_EQ(figs.size(), 1u) << i;
    ASSERT_TRUE(figs[0].run.metrics.count("cycles")) << i;
    EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("cycles"), i == 0 ? 102678 : 17485);
  }
  EXPECT_EQ(LabelUnitOf("**Cycles**"), "cycles");
  EXPECT_EQ(LabelUnitOf("Throughput (tok/s)"), "tok/s");
  EXPECT_EQ(LabelUnitOf("Speedup"), "");
  EXPECT_EQ(LabelUnitOf("x"), "");
  EXPECT_EQ(UnitAfterLeadNumber(" 147,734", "cycles"), " 147,734 cycles");
  EXPECT_EQ(UnitAfterLeadNumber(" 4 cycles", "cycles"), " 4 cycles");
  EXPECT_EQ(UnitAfterLeadNumber(" 12.3k", "tok/s"), " 12.3k");
}

// A figure in the entry's own heading is its record ("### 3. Custom
// parsing (62.12s)", "## Step 4: 1338 -> 1307 cycles").
TEST(ReaderFigures, AFigureInTheEntrysHeadingIsItsRecord) {
  const Logbook lb = ParseLogbook(
      "# Notes\n\n## 1. Plain parsing (75.40s)\n\nRead the file line by line.\n\n"
      "## 2. Step 4: 1338 \xE2\x86\x92 1307 cycles\n\nDropped the index stores.\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  const auto first = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].line, 3);
  EXPECT_DOUBLE_EQ(first[0].run.metrics.at("time_s"), 75.40);
  bool after = false;
  for (const auto& f : RecordedFigures(lb.entries[1]))
    after = after || (f.line == 7 && f.run.metrics.count("cycles") && f.run.metrics.at("cycles") == 1307);
  EXPECT_TRUE(after);
}

// A bullet beside the entry's Result that states a figure of its own is the
// entry's record too.
TEST(ReaderFigures, ABulletBesideTheResultIsReadToo) {
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-03-02 - cast outside the kernel\n\n- Result: 3.2832 val loss in 655.0s\n"
      "- the cast alone costs 1.5 ms per step\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  bool beside = false;
  for (const auto& f : RecordedFigures(lb.entries[0]))
    beside = beside || (f.line == 6 && f.run.metrics.count("time_s") && std::fabs(f.run.metrics.at("time_s") - 0.0015) < 1e-12);
  EXPECT_TRUE(beside);
}

// A table with an error column beside a rate column is a benchmark's table,
// read without its check; one whose only measure is the check's time is not.
TEST(ReaderFigures, AnErrorColumnBesideARateIsTheBenchmarksCheck) {
  const Logbook lb = ParseLogbook(
      "# Notes\n\n## Test 1: sizes\n\n| Size | Performance | Time (ms) | Error |\n|---|---|---|---|\n"
      "| 128 | 73.7 GFLOPS | 0.06 | 1.7e-05 |\n| 256 | 161.6 GFLOPS | 0.21 | 5.3e-05 |\n\n"
      "## Test 2: check\n\n| Repeat | Time (ms) | max abs diff |\n|---|---|---|\n| 0 | 512.3 | 0.03 |\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[1].run.metrics.at("tflops"), 0.1616, 1e-9);
  for (const auto& [k, v] : figs[1].run.config) EXPECT_EQ(v.find("e-05"), std::string::npos) << k;
  EXPECT_TRUE(RecordedFigures(lb.entries[1]).empty());
}

// A check's word in a header over cells written in seconds ("CPU hash
// search" | "Metal hash search": the hash-chain search timed on each) names
// what was timed; a "Hash" column of digests stays a check.
TEST(ReaderFigures, AHeaderWithACheckWordOverTimedCellsIsAMetric) {
  const Logbook lb = ParseLogbook(
      "# Notes\n\n## Kept: search on the GPU\n\n| Input | CPU hash search | Metal hash search |\n|---|---|---|\n"
      "| a.png | 0.4068 s | 0.3967 s |\n| b.png | 0.6092 s | 0.4312 s |\n\n"
      "## Check\n\n| Input | Time (ms) | Hash |\n|---|---|---|\n| a.png | 12.5 | 9f3a1c |\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 4u);  // the CPU's and the Metal backend's search: a run each
  EXPECT_EQ(figs[0].run.config.at("variant"), "CPU hash search");
  EXPECT_EQ(figs[1].run.config.at("variant"), "Metal hash search");
  EXPECT_EQ(figs[0].run.metrics.size(), 1u);
  EXPECT_TRUE(RecordedFigures(lb.entries[1]).empty());
}

// Words naming parts of one run before its figures ("decode 41.2 tok/s,
// TTFT 182 ms") qualify the metrics of one row; words naming runs ("cpu 12
// ms, gpu 3 ms") stay two rows, and one word before two figures of a metric
// ("87.894 s CPU and 87.414 s Metal") never pools them.
TEST(ReaderFigures, PartWordsBeforeFiguresQualifyOneRunsMetrics) {
  auto figures = [](const std::string& result) {
    return RecordedFigures(ParseLogbook("# N\n\n## 2026-03-01 baseline\n\n" + result + "\n", "t.md").entries.at(0));
  };
  auto one = figures("Decode 41.2 tok/s, TTFT 182 ms.");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].run.metrics.size(), 2u);
  EXPECT_NEAR(one[0].run.metrics.at("ttft_time_s"), 0.182, 1e-12);
  auto phases = figures("Prefill 9120 tok/s, decode 310 tok/s.");
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0].run.metrics.size(), 2u);
  EXPECT_EQ(figures("cpu 12 ms, gpu 3 ms.").size(), 2u);
  auto sides = figures("Trials averaged 87.894 s CPU and 87.414 s Metal.");
  for (const auto& f : sides)
    for (const auto& [metric, value] : f.run.metrics) EXPECT_NE(value, (87.894 + 87.414) / 2) << metric;
}

// A quality of the model written as a bare number ("val loss 3.2791",
// "Val loss: 3.2791", "ppl 12.4, loss 2.51") is a figure named by it; a
// goal's ("Target: val loss 3.28") is none, nor an arrow's sides without a
// unit; a subject names the run whose loss it is.
TEST(ReaderFigures, BareQualitiesOfTheModelAreFigures) {
  auto figures = [](const std::string& result) {
    return RecordedFigures(ParseLogbook("# N\n\n## 2026-03-01 run\n\n" + result + "\n", "t.md").entries.at(0));
  };
  for (const std::string text : {"- val loss 3.2791 at step 3200", "- val_loss: 3.2791", "- Val loss: 3.2791 (step 3200)",
                                 "Final val loss was 3.2791."}) {
    const auto figs = figures(text);
    ASSERT_EQ(figs.size(), 1u) << text;
    EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("val_loss"), 3.2791) << text;
  }
  const auto two = figures("- ppl 12.4, loss 2.51");
  ASSERT_EQ(two.size(), 1u);
  EXPECT_DOUBLE_EQ(two[0].run.metrics.at("ppl"), 12.4);
  EXPECT_DOUBLE_EQ(two[0].run.metrics.at("loss"), 2.51);
  EXPECT_TRUE(figures("- Target: val loss 3.28 or lower").empty());
  EXPECT_TRUE(figures("- loss went from 3.41 to 3.29").empty());
  const auto arms = figures("- Result: P1 finished at loss 5.17 and 182,311 tok/s; P2 finished at loss 5.16 and 180,955 tok/s.");
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_DOUBLE_EQ(arms[0].run.metrics.at("loss"), 5.17);
  EXPECT_DOUBLE_EQ(arms[1].run.metrics.at("loss"), 5.16);
  EXPECT_NE(arms[0].run.config, arms[1].run.config);
}

// A table of values by column under a sub-heading that names the unit
// ("### Decode (tok/s)"): its cells are in that unit, a metric named by the
// sub-heading's other words (decode and prefill rates are two columns); a
// cell that records a failed run ("error", "error (OOM)") holds no figure
// and keeps no column from being read.
TEST(ReaderFigures, ASubHeadingNamesTheUnitOfTheTableBelowIt) {
  const Logbook lb = ParseLogbook(
      "# Notes\n\n## 1. Baseline runs\n\n### Decode (tok/s)\n\n"
      "| Model | pp64/tg64 | pp1024/tg128 | pp8192/tg64 |\n|---|---|---|---|\n"
      "| small-3B | 310 | 288 | \xE2\x80\x94 |\n| mid-9B | 142 | error (OOM) | error |\n\n"
      "### Prefill (tok/s)\n\n| Model | pp64 | pp1024 |\n|---|---|---|\n| small-3B | 9,120 | 15,400 |\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 5u);
  EXPECT_EQ(figs[0].line, 9);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("decode_tokens_per_s"), 310);
  EXPECT_EQ(figs[0].run.units.at("decode_tokens_per_s"), "tok/s");
  EXPECT_EQ(figs[1].run.config.at("variant"), "pp1024/tg128");
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("decode_tokens_per_s"), 142);
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(Lower(v).find("error"), std::string::npos) << k;
  EXPECT_EQ(figs[3].line, 16);
  EXPECT_DOUBLE_EQ(figs[4].run.metrics.at("prefill_tokens_per_s"), 15400);
}

// A paragraph led by `Hardware:` or `Specs:` describes the machine: its
// bandwidth and memory are specifications, no run's figures.
TEST(ReaderFigures, AHardwareLeadStatesSpecificationsNotRuns) {
  const Logbook lb = ParseLogbook(
      "# Notes\n\n## 1. Decode kernel\n\n**Hardware:** one accelerator, 96 GB HBM, ~4 TB/s bandwidth, 132 SMs\n\n"
      "**Specs:** 1,200 GB/s peak\n\nThe fused kernel took 41.5 us.\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].line, 9);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 41.5e-6, 1e-12);
}

// Durations written in parts ("3m 04s", "2m09s", "1h 12m", cargo's and
// build posts' way): one figure, their sum, never the last part alone.
TEST(ReaderFigures, DurationsWrittenInParts) {
  auto f = Figures("baseline 3m 04s, cranelift 2m09s, suite 1h 12m, link 1m 34.5s, cold 50s, fast 3ms", false);
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(f[0].metric, "time_s");
  EXPECT_DOUBLE_EQ(f[0].value, 184);
  EXPECT_EQ(f[0].decimals, 0);
  EXPECT_DOUBLE_EQ(f[1].value, 129);
  EXPECT_EQ(f[2].metric, "wall_time_s");
  EXPECT_DOUBLE_EQ(f[2].value, 4320);
  EXPECT_DOUBLE_EQ(f[3].value, 94.5);
  EXPECT_EQ(f[3].decimals, 1);
  EXPECT_DOUBLE_EQ(f[4].value, 50);
  EXPECT_NEAR(f[5].value, 0.003, 1e-12);
}

// A job's number before a time in parts ("Job 2583679, 2h53m") shares no
// unit with it: one figure, the time.
TEST(ReaderFigures, ANumberBeforeATimeInPartsTakesNoUnitFromIt) {
  auto f = Figures("RUNNING - Job 2583679, 2h53m elapsed", false);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_DOUBLE_EQ(f[0].value, 2 * 3600 + 53 * 60);
}

// A score's key=value with a sign ("reward=-16.53") is the score, negative;
// a unit's key given a sign (a change) is no figure.
TEST(ReaderFigures, ANegativeScoreIsReadFromItsKey) {
  auto f = Figures("loss=2.5, reward=-3.1, time_ms=-3", false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1].metric, "reward");
  EXPECT_DOUBLE_EQ(f[1].value, -3.1);
}

// A size unit named as memory by the word right after it ("59GB mem", "41
// GB peak") is a memory figure; after a device's name it is its size.
TEST(ReaderFigures, MemoryNamedAfterItsUnit) {
  auto f = Figures("done, 2h26m, 59GB mem", false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1].metric, "memory_mib");
  EXPECT_TRUE(Figures("on an H100 80GB memory", false).empty());
  EXPECT_TRUE(Figures("wrote 59 GB to disk", false).empty());
}

// Digits grouped by '_' or '\'' ("40_977", "26'661MiB") are one number,
// never the last group alone; an identifier's underscore groups nothing.
TEST(ReaderFigures, DigitsGroupedByUnderscoreOrApostrophe) {
  std::string t = "peak 40_977 MiB, 26'661MiB, step_1000 and v1_000";
  EXPECT_TRUE(CommaGrouped(&t));
  EXPECT_EQ(t, "peak 40,977 MiB, 26,661MiB, step_1000 and v1_000");
  auto f = Figures("compile: 26'661MiB, 974ms", false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[0].value, 26661);
  std::string odd = "12_34 ms";
  EXPECT_FALSE(CommaGrouped(&odd));
}

// A paragraph whose every line is led by a run's label, parentheses and all
// ("compile(fwd + bwd): 26661MiB, 974ms"), is read line by line, each line
// named by its label; so is one such line alone.
TEST(ReaderFigures, LinesLedByLabelsAreRowsOfTheirOwn) {
  const auto figs = ReadEntry("# L\n\n## 2026-01-01 Compile\n\n",
                              "compile(fwd + bwd): 26661MiB, 974ms\ncompile(model): 28709MiB, 993ms\n\n"
                              "ckpt(mlp) + compile(model): 19493MiB, 1075ms\n");
  ASSERT_EQ(figs.size(), 3u);
  for (const auto& f : figs) EXPECT_TRUE(f.run.config.count("case")) << f.text;
  EXPECT_NE(figs[0].run.config.at("case"), figs[1].run.config.at("case"));
}

// A program's report pasted as a paragraph, its figures on lines led by
// their names among lines of words ("Beginning render"): one figure a line,
// not one sentence of two clashing times.
TEST(ReaderFigures, AReportPastedAsAParagraphIsReadLineByLine) {
  const auto figs = ReadEntry("# Renders\n\n## 03-1.png\n",
                              "800 x 600 image, 512 samples per px\nBeginning render\n"
                              "Render complete. Writing to output.png\nTook: 1252.54 s\nSec/Sample: 0.00510 ms\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].line, 7);
  EXPECT_EQ(figs[1].line, 8);
}

// Speedups on both sides of an arrow ("tr 2.7x → 7.3x") are a harness's
// score against a fixed reference, measured before and after and named by
// the word before them; a lone "1.8x faster" stays derived.
TEST(ReaderFigures, SpeedupsAcrossAnArrowAreScores) {
  auto f = Figures("tr 2.7x \xE2\x86\x92 7.3x (+170%), base64 7.2x \xE2\x86\x92 7.6x", false);
  int scores = 0;
  for (const auto& x : f)
    if (x.metric == "speedup" && !x.derived) {
      ++scores;
      EXPECT_FALSE(x.word.empty());
    }
  EXPECT_EQ(scores, 4);
  auto lone = Figures("the new path is 1.8x faster", false);
  ASSERT_EQ(lone.size(), 1u);
  EXPECT_TRUE(lone[0].derived);
}

// A time in parts is read by one function (DurationInParts, its units from
// duration_parts of vocabulary.json) for prose, printed lines and table
// cells alike: "1m 44s 79ms" is 104.079 s wherever it is written.
TEST(ReaderFigures, ATimeInPartsIsOneRuleForProseAndCells) {
  PartsDuration d;
  ASSERT_TRUE(DurationInParts("1m 44s 79ms", 0, &d));
  EXPECT_NEAR(d.seconds, 104.079, 1e-9);
  EXPECT_EQ(d.decimals, 3);
  EXPECT_EQ(d.end, 11u);
  std::string cell;
  ASSERT_TRUE(DurationCell("1m 44s 79ms", &cell));
  EXPECT_EQ(cell, "104.079 s");
  ASSERT_TRUE(DurationCell("2h 51m 31s", &cell));
  EXPECT_EQ(cell, "10291 s");
  EXPECT_FALSE(DurationCell("44s", &cell));          // one part: a figure of its own
  EXPECT_FALSE(DurationCell("3m 4s on H100", &cell));  // more than a time
  const auto f = Figures("the cold build took 1m 44s 79ms", false);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NEAR(f[0].value, 104.079, 1e-9);
  EXPECT_EQ(f[0].decimals, 3);
  ASSERT_TRUE(DurationInParts("1d 2h", 0, &d));  // any unit of the data file
  EXPECT_DOUBLE_EQ(d.seconds, 93600);
  EXPECT_TRUE(d.hours);
  EXPECT_FALSE(DurationInParts("2m 3m", 0, &d));    // largest unit first
  EXPECT_FALSE(DurationInParts("1.5m 3s", 0, &d));  // only the last part has a fraction
  EXPECT_FALSE(DurationInParts("3ms", 0, &d));
}

// A change named by a noun or verb with "of" or "by" before its figure
// ("a difference of ~5 seconds", "reduced by 2 ms") is no run's figure.
TEST(ReaderFigures, AChangeOfOrByIsNoRunsFigure) {
  auto f = Figures("I saw a difference of ~5 seconds; the copy was reduced by 2 ms; cold run 340 s", true);
  // "a 5 minute test suite run": how long the suite is, an adjective, no figure.
  EXPECT_TRUE(Figures("on a 5 minute test suite run", true).empty());
  ASSERT_EQ(f.size(), 3u);
  EXPECT_NE(f[0].not_run, nullptr);
  EXPECT_NE(f[1].not_run, nullptr);
  EXPECT_EQ(f[2].not_run, nullptr);
  EXPECT_DOUBLE_EQ(f[2].value, 340);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "- **Validation Loss:** 3.104 -> 0.917": the label names both sides of the
// arrow, each on its side's row (arrow=before/after), as a table's arrow cell.
TEST(ReaderFiguresQualityArrow, ALabelNamesBothSidesOfItsArrow) {
  const auto figs = ReadEntry("# Report\n\n", "## 1. Fine-tuning\n\n- **Training Time:** 8.05 seconds\n"
                                              "- **Validation Loss:** 3.104 \xE2\x86\x92 0.917\n- **Perplexity:** 14.6\n");
  std::vector<double> losses;
  for (const auto& f : figs)
    if (f.run.metrics.count("validation_loss")) losses.push_back(f.run.metrics.at("validation_loss"));
  EXPECT_EQ(losses, (std::vector<double>{3.104, 0.917}));
  // The lines around the arrow are one run's: the perplexity joins the time's row.
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("perplexity"), 14.6);
  EXPECT_TRUE(figs[0].run.metrics.count("time_s"));
}

}  // namespace
}  // namespace moelog::logbook::reader
