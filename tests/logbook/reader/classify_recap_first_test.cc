// Reader stage classify: a recap written before the sections it recaps
// (a consolidated table first, then one section per run giving its
// details) restates them; the sections' own figures are the runs
// (logbook/reader/classify.cc, StatesEntriesBelow).
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string AllWhy(const std::map<int, std::string>& why) {
  std::string out;
  for (const auto& [line, w] : why) out += std::to_string(line) + ": " + w + "\n";
  return out;
}

// "## Consolidated results" tables every server's figures first; each
// server's own section then lists its measured figures: those are the
// runs, the consolidated rows quote them.
TEST(ReaderClassifyRecapFirst, AConsolidatedTableBeforeTheDetailsQuotesThem) {
  const std::string doc =
      "# Load test report\n\n"
      "## Consolidated results\n\n"                                  // 3
      "| server | mean latency (ms) | throughput (req/s) |\n|---|---|---|\n"  // 5, 6
      "| alpha | 12.41 | 251.66 |\n"                                   // 7
      "| beta | 18.95 | 242.79 |\n\n"                                  // 8
      "## Details per server\n\n"                                     // 10
      "### alpha\n\n"                                                 // 12
      "- Mean latency: 12.41 ms\n"                                    // 14
      "- Throughput: 251.66 req/s\n\n"                               // 15
      "### beta\n\n"                                                  // 17
      "- Mean latency: 18.95 ms\n"                                    // 19
      "- Throughput: 242.79 req/s\n";                                 // 20
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {14, 19}) EXPECT_TRUE(kept.count(line)) << line << "\n" << AllWhy(why);
  for (int line : {7, 8}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
}

// Near miss: a comparison the entry measures, which no later section gives
// again, is the entry's run; a later discussion quoting it restates it.
TEST(ReaderClassifyRecapFirst, AMeasuredComparisonNoLaterSectionGivesStaysARun) {
  const std::string doc =
      "# Allocator benchmark\n\n"
      "## Comparison\n\n"                                             // 3
      "| allocator | mean latency (ms) |\n|---|---|\n"                // 5, 6
      "| jemalloc | 12.41 |\n"                                        // 7
      "| mimalloc | 11.37 |\n\n"                                      // 8
      "## Notes on the tail\n\n"                                      // 10
      "The p99 of jemalloc was 40.12 ms in the same run.\n";          // 12
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8}) EXPECT_TRUE(kept.count(line)) << line << "\n" << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// Near miss: a recap word other than recap_first_words that names a run's
// subject ("## BM-004: Long-Horizon Wear Evolution", its profile printed
// there) makes no recap of the entries below: a later entry giving the
// same number does not take the figure from it.
TEST(ReaderClassifyRecapFirst, ARunNamedByARecapWordIsNoRecapOfTheEntriesBelow) {
  const std::string doc =
      "# Benchmark rationale\n\n## BM-004: Long-Horizon Wear Evolution\n\n**Typical solve profile:**\n"
      "```\nTotal time:       7200 seconds\n\u251c\u2500 ALE remeshing:  1200 seconds (17%)\n```\n\n"  // 7, 8
      "## BM-005: Tire Section\n\n**Typical solve profile:**\n"
      "```\nTotal time:       5400 seconds\n\u251c\u2500 ALE remeshing:  1200 seconds (22%)\n```\n";
  std::map<int, std::string> why;
  KeptLines(doc, &why);
  EXPECT_EQ(why[8].find("an entry below"), std::string::npos) << AllWhy(why);
}

// A table whose rows are the records of the entries below it, one entry
// per row giving the row's figures again, sums them up whatever its heading
// says: the entries' own field lines are the runs (TabulatesEntriesBelow).
TEST(ReaderClassifyRecapFirst, ATableWhoseRowsTheEntriesBelowEachRecordSumsThemUp) {
  const std::string doc =
      "# Fine-tune log\n\n"
      "## Loss curve\n\n"                                                   // 3
      "| Step | eval loss | eval acc | ppl |\n|---|---|---|---|\n"           // 5, 6
      "| 0 | 2.91734 | 0.41186 | 18.493 |\n"                                  // 7
      "| 40 | 2.30518 | 0.52293 | 10.025 |\n\n"                               // 8
      "## Step 0 - before tuning\n\n"                                       // 10
      "**Eval loss**: 2.91734 | **Eval acc**: 0.41186 | **PPL**: 18.493\n\n"  // 12
      "## Step 40 - mid-run eval\n\n"                                       // 14
      "**Eval loss**: 2.30518 | **Eval acc**: 0.52293 | **PPL**: 10.025\n";   // 16
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {12, 16}) EXPECT_TRUE(kept.count(line)) << line << "\n" << AllWhy(why);
  for (int line : {7, 8}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
}

// An entry's own table beside one that sums up the entries below it (a
// comparison with the GPUs each later entry measures): only the summing
// table restates them; the entry's own rows stay its record.
TEST(ReaderClassifyRecapFirst, AnEntrysOwnTableBesideASummingOneStaysItsRecord) {
  const std::string doc =
      "# Speedrun log\n\n"
      "### SR-006 - RTX 5090\n\n"                                       // 3
      "| Batch | Step (s) | t/s |\n|---|---|---|\n"                        // 5, 6
      "| 152 | 43.123 | 226 |\n"                                          // 7
      "| 200 | 34.856 | 367 |\n\n"                                        // 8
      "Comparison with other GPUs:\n\n"                                  // 10
      "| GPU | VRAM | Max Batch | Best t/s |\n|---|---|---|---|\n"         // 12, 13
      "| H100 | 80GB | 504 | 1182 |\n"                                    // 14
      "| B200 | 180GB | 512 | 1582 |\n\n"                                 // 15
      "### SR-007 - H100 80GB\n\n"                                       // 17
      "| Batch | Step (s) | t/s |\n|---|---|---|\n| 504 | 51.201 | 1182 |\n\n"  // 19-21
      "### SR-008 - B200 180GB\n\n"                                      // 23
      "| Batch | Step (s) | t/s |\n|---|---|---|\n| 512 | 40.118 | 1582 |\n";   // 25-27
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 21, 27}) EXPECT_TRUE(kept.count(line)) << line << "\n" << AllWhy(why);
  for (int line : {14, 15}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
}

// The same by columns: `| Metric | iter-0 | iter-1 |` above one section per
// iteration, each giving its column again (the next also quoting the one
// before, as a before/after does).
TEST(ReaderClassifyRecapFirst, ATableWhoseColumnsTheEntriesBelowEachRecordSumsThemUp) {
  const std::string doc =
      "# Load-test iterations\n\n"
      "## Summary of iterations\n\n"                               // 3
      "| Metric | iter-0 | iter-1 |\n|---|---:|---:|\n"               // 5, 6
      "| Read p99 | 470 ms | 180 ms |\n"                              // 7
      "| Read max RPS | 180 | 540 |\n"                                // 8
      "| Write p99 | 720 ms | 380 ms |\n\n"                           // 9
      "## Iteration 0 - baseline\n\n"                                // 11
      "- Read p99: 470 ms\n- Read max: 180 req/s\n- Write p99: 720 ms\n\n"  // 13-15
      "## Iteration 1 - indexes\n\n"                                 // 17
      "| Metric | before | after |\n|---|---|---|\n"                   // 19, 20
      "| Read p99 | 470 ms | 180 ms |\n| Read max RPS | 180 | 540 |\n| Write p99 | 720 ms | 380 ms |\n";  // 21-23
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 9}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
  EXPECT_TRUE(kept.count(13)) << AllWhy(why);
}

// Near miss: a table of runs one later entry discusses (its figures quoted
// in one section) is the table's entry's measurement; the quote restates it.
TEST(ReaderClassifyRecapFirst, ATableOneLaterEntryQuotesStaysTheRecord) {
  const std::string doc =
      "# Fine-tune log\n\n"
      "## Sweep\n\n"                                                    // 3
      "| lr | eval loss | eval acc | ppl |\n|---|---|---|---|\n"       // 5, 6
      "| 1e-4 | 2.91734 | 0.41186 | 18.493 |\n"                         // 7
      "| 3e-4 | 2.30518 | 0.52293 | 10.025 |\n\n"                       // 8
      "## Discussion\n\n"                                               // 10
      "**Eval loss**: 2.91734 | **Eval acc**: 0.41186 | **PPL**: 18.493\n\n"  // 12
      "**Eval loss**: 2.30518 | **Eval acc**: 0.52293 | **PPL**: 10.025\n";   // 14
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8}) EXPECT_TRUE(kept.count(line)) << line << "\n" << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A change written as an arrow whose two sides are numbers an earlier
// entry's table writes ("605.5 ms -> 611.8 ms" under an ablation table)
// restates them; one side alone, or a new number, is this entry's run.
TEST(ReaderClassifyRecapFirst, AnArrowBetweenTwoNumbersOfAnEarlierTableRestatesThem) {
  const std::string doc =
      "# Perf notes\n\n"
      "## Ablation\n\n"                                                      // 3
      "| variant | median (ms) |\n|---|---|\n"                                // 5, 6
      "| baseline | 605.5 |\n| revert strings | 611.8 |\n\n"                  // 7, 8
      "## String serialization\n\n"                                          // 10
      "- Impact: reverting regresses +1.03% median (605.5 ms -> 611.8 ms).\n"  // 12
      "\n## Value serialization\n\n"                                         // 14
      "- Impact: regresses +1.66% median (605.5 ms -> 615.6 ms).\n";        // 16
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << AllWhy(why);
  EXPECT_FALSE(kept.count(12)) << AllWhy(why);
  EXPECT_NE(why[12].find("restates"), std::string::npos) << why[12];
  EXPECT_TRUE(kept.count(16)) << AllWhy(why);  // 615.6 is written nowhere before
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "## Results Summary" written above the last experiments' sections: its
// rows of those experiments quote them; each experiment's "**Result:**"
// line is its own measurement, never a quote of the summary.
TEST(ReaderClassifyRecapFirst, AResultsSummaryAboveTheLastExperimentsQuotesThem) {
  const std::string doc =
      "# Optimization log\n\n"
      "## Experiment 1: loops\n\n**Result:** 9,322 cycles\n\n"            // 3, 5
      "## Results Summary\n\n| Experiment | Cycles |\n|---|---|\n"        // 7, 9
      "| Exp 1 | 9,322 |\n| Exp 2 | 4,892 |\n\n"                          // 11, 12
      "## Experiment 2: SIMD\n\n**Result:** 4,892 cycles (1.9x speedup)\n";  // 14, 16
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << AllWhy(why);
  EXPECT_TRUE(kept.count(16)) << AllWhy(why);
  EXPECT_FALSE(kept.count(11)) << AllWhy(why);  // the summary's row of an entry above restates it
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "## Current Performance" at the top of a log states where the work
// stands: its figures are the ones an entry below measured, restated there;
// the entry's own figures are the run.
TEST(ReaderClassifyRecapFirst, ACurrentStateSectionAboveTheLogQuotesIt) {
  const std::string doc =
      "# Kernel log\n\n"
      "## Current Performance\n\n"                                      // 3
      "| regime | avg latency |\n|---|---|\n"                            // 5, 6
      "| small | 0.324 ms |\n| large | 4.524 ms |\n\n"                   // 7, 8
      "## Log\n\n"                                                       // 10
      "### CUDA graph the whole pipeline\n\n"                            // 12
      "| regime | before | after |\n|---|---|---|\n"                     // 14, 15
      "| small | 0.419 ms | 0.324 ms |\n| large | 4.499 ms | 4.524 ms |\n";  // 16, 17
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {16, 17}) EXPECT_TRUE(kept.count(line)) << line << "\n" << AllWhy(why);
  for (int line : {7, 8}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
