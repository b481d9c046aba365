// The classify stage on entries and parts that say they have not run
// ("Status: PENDING", "## Exp 4: tiling sweep [TODO]", "(not yet run)") or
// whose only figures are estimates ("## v0 (theoretical)", "napkin"): their
// planned configuration and projected figures are no measurement. Words:
// data/reader/status.json.
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

// An entry whose status field says it has not run ("Status: PENDING",
// "**Status:** queued") records nothing: its planned sizes, its expected
// latency and its table of targets are its plan. A finished entry beside it
// keeps its figures, and so does one whose status was left "planned" above
// a Result part that reports a run.
TEST(ReaderClassifyStatus, AnEntryWhoseStatusSaysPendingRecordsNothing) {
  const std::string doc =
      "# Attention log\n\n"                                        // 1-2
      "## 2025-04-01 Split-K variant\n\n"                          // 3-4
      "Status: PENDING\n\n"                                        // 5-6
      "- seq 8192, batch 16 on 8 GPUs\n"                           // 7
      "- latency at seq 8192: 5.5 ms\n\n"                          // 8-9
      "## 2025-04-02 FP8 path\n\n"                                 // 10-11
      "**Status:** queued\n\n"                                     // 12-13
      "| seq | batch | latency |\n|---|---|---|\n"                // 14-15
      "| 4096 | 8 | 2.0 ms |\n| 8192 | 8 | 4.0 ms |\n\n"          // 16-17
      "## 2025-04-03 Baseline\n\n"                                 // 19-20
      "Status: COMPLETE\n\n"                                       // 21-22
      "- latency at seq 4096: 3.21 ms\n\n"                        // 23-24
      "## 2025-04-04 Paged KV\n\n"                                 // 25-26
      "Status: planned\n\n"                                        // 27-28
      "### Result\n\n"                                             // 29-30
      "| seq | latency |\n|---|---|\n| 4096 | 2.87 ms |\n";        // 31-33
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 16, 17}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[8].find("has not run"), std::string::npos) << why[8];
  EXPECT_NE(why[16].find("queued"), std::string::npos) << why[16];
  EXPECT_TRUE(kept.count(23)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(33)) << ::testing::PrintToString(why);  // a stale status beside a reported Result
}

// A heading tagged as not run ("[TODO]", "(not yet run)", "— blocked",
// "(pending 80 GB cards)") or as an estimate ("(theoretical)",
// "(projected)"), or naming a roadmap, heads an entry that records nothing; the same words
// untagged ("Blocked GEMM", "(draft model 1B)") name what was run.
TEST(ReaderClassifyStatus, AHeadingTaggedNotRunOrEstimatedRecordsNothing) {
  const std::string doc =
      "# Decode log\n\n"                                                 // 1-2
      "## 2025-06-01 v0 (theoretical)\n\n"                               // 3-4
      "Decode at batch 1: 4.1 ms per token.\n\n"                         // 5-6
      "## 2025-06-02 Tiling sweep [TODO]\n\n"                            // 7-8
      "- BLOCK_M=128: 0.92 ms\n\n"                                       // 9-10
      "## 2025-06-03 Split KV (not yet run)\n\n"                         // 11-12
      "| config | tokens/s |\n|---|---|\n| bs=8 | 1400 |\n\n"            // 13-16
      "## 2025-06-04 Blocked GEMM\n\n"                                   // 17-18
      "- decode: 6.3 ms per token\n\n"                                  // 19-20
      "## 2025-06-05 Long context (pending 80 GB cards)\n\n"            // 21-22
      "| ctx | needed memory |\n|---|---|\n| 128k | ~140 GB |\n\n"     // 23-26
      "## 2025-06-06 Spec decode (draft model 1B)\n\n"                   // 27-28
      "- decode: 4.9 ms per token\n\n"                                  // 29-30
      "## 2025-06-07 Projected\n\n"                                      // 31-32
      "- decode at batch 64: 2.2 ms per token\n\n"                      // 33-34
      "## 2025-06-08 Roadmap for Q3\n\n"                                 // 35-36
      "| Phase | decode |\n|---|---|\n| Phase 1 | 3.5 ms per token |\n"; // 37-39
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 9, 15, 25, 33, 39}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[5].find("theoretical"), std::string::npos) << why[5];
  EXPECT_TRUE(kept.count(19)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(29)) << ::testing::PrintToString(why);  // a draft model names what ran
}

// A part of an entry (a sub-heading) whose status says it has not run holds
// no run; the part above it that ran keeps its figures.
TEST(ReaderClassifyStatus, APartWhoseStatusSaysPlannedHoldsNoRun) {
  const std::string doc =
      "# Kernel log\n\n"                                // 1-2
      "## 2025-05-01 Tile sweep\n\n"                    // 3-4
      "### Run A: BLOCK_M=64\n\n"                       // 5-6
      "- time: 1.04 ms\n\n"                             // 7-8
      "### Run B: BLOCK_M=128\n\n"                      // 9-10
      "- Status: planned\n"                             // 11
      "- time: ~0.80 ms target, 8 warps\n\n"            // 12-13
      "### Run C: BLOCK_M=256\n\n"                      // 14-15
      "- time: 0.97 ms\n";                              // 16
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(12)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(16)) << ::testing::PrintToString(why);
}

// A sentence of what the entry will run ("Will rerun ... to confirm 41.7 tok/s")
// or an idea's arithmetic ("Idea: ..., napkin math says 0.65 ms") is a plan;
// the measured line beside it stays.
TEST(ReaderClassifyStatus, WhatWillRunAndAnIdeasNapkinMathAreNoRuns) {
  const std::string doc =
      "# GEMM journal\n\n"                                                           // 1-2
      "## 2025-05-04 Iteration 4\n\n"                                                // 3-4
      "Idea: cp.async double-buffer, napkin math says 0.65 ms.\n\n"                  // 5-6
      "Measured: 0.88 ms.\n\n"                                                       // 7-8
      "## 2025-05-05 Iteration 5\n\n"                                                // 9-10
      "Will rerun at bs=64 on 8 GPUs to confirm 41.7 tok/s.\n";                     // 11
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(5)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(11)) << ::testing::PrintToString(why);
}

// A tracker's table with a status column: rows still queued or planned hold
// the configuration and target of a run to come, no figure; finished rows
// are runs.
TEST(ReaderClassifyStatus, ATrackersQueuedRowsHoldNoFigure) {
  const std::string doc =
      "# Sweep tracker\n\n"                                                 // 1-2
      "## 2025-07-01 Batch sweep\n\n"                                       // 3-4
      "| batch | status | latency |\n|---|---|---|\n"                       // 5-6
      "| 8 | done | 2.31 ms |\n"                                            // 7
      "| 16 | done | 3.90 ms |\n"                                           // 8
      "| 32 | queued | 6.0 ms |\n"                                          // 9
      "| 64 | planned | 11 ms |\n";                                         // 10
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(9)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(10)) << ::testing::PrintToString(why);
}

// An iteration whose Result says nothing was measured ("**Result:** n/a
// (not run ...)", "TBD") recorded nothing, though its list has numbers; a
// Result that reports keeps them. A run headed "— [pending]" and one whose
// bold lead says "**Status: NOT YET RUN.**" hold no run either.
TEST(ReaderClassifyStatus, AnEmptyResultMakesTheIterationsFiguresItsPlan) {
  const std::string doc =
      "# Swizzle journal\n\n"                                                  // 1-2
      "## 2025-05-02 Iteration 2\n\n"                                          // 3-4
      "Swizzled tile order, 8 warps.\n\n"                                      // 5-6
      "- M=4096: 0.85 ms\n- M=8192: 3.1 ms\n\n"                                // 7-9
      "**Result:** n/a (not run, the node went down)\n\n"                      // 10-11
      "## 2025-05-03 Iteration 3\n\n"                                          // 12-13
      "- M=4096: 0.91 ms\n\n"                                                  // 14-15
      "**Result:** measured on one H100.\n\n"                                  // 16-17
      "### Run 1 \xE2\x80\x94 [pending]\n\n"                                    // 18-19
      "- M=8192: 3.4 ms\n\n"                                                   // 20-21
      "### Run 2\n\n"                                                          // 22-23
      "**Status: NOT YET RUN.** The sweep needs 2 nodes.\n\n"                  // 24-25
      "- M=16384: 12.5 ms\n\n"                                                // 26-27
      "## 2025-05-04 Iteration 4\n\n"                                          // 28-29
      "**Result:** \xE2\x80\x94 see the table below.\n\n"                       // 30-31
      "| M | time |\n|---|---|\n| 4096 | 0.88 ms |\n";                         // 32-34
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 20, 26}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[7].find("Result is empty"), std::string::npos) << why[7];
  EXPECT_TRUE(kept.count(14)) << why[14] << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(34)) << ::testing::PrintToString(why);  // the Result points at its table
}

// A hand-kept history whose first rows are worked out, not measured ("|
// roofline bound |", "| model predicts |"), and a sweep's skipped point:
// those rows hold no figure; the measured rows stay, and a "pending" in a
// metric's column leaves the row's other figure.
TEST(ReaderClassifyStatus, AHistorysEstimatedRowsHoldNoFigure) {
  const std::string doc =
      "# Decode history\n\n"                                           // 1-2
      "## 2025-03-05 Latency history\n\n"                              // 3-4
      "| date | commit | p50 latency | source |\n|---|---|---|---|\n"    // 5-6
      "| 2025-03-01 | a1b2c3 | 4.1 ms | roofline bound |\n"              // 7
      "| 2025-03-02 | d4e5f6 | 5.0 ms | model predicts |\n"              // 8
      "| 2025-03-04 | 0a9b8c | 6.3 ms | bench, 20 runs |\n"              // 9
      "| 2025-03-05 | 77aa01 | 6.1 ms | bench, 20 runs |\n\n"            // 10-11
      "| block | latency | note |\n|---|---|---|\n"                      // 12-13
      "| 32 | 7.05 ms | |\n| 64 | 6.9 ms | skipped |\n\n"              // 14-16
      "| metric | eager | fused |\n|---|---|---|\n"                      // 17-18
      "| decode | 19.2 ms | pending |\n";                               // 19
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(9)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(10)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(14)) << why[14] << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(15)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(19)) << ::testing::PrintToString(why);  // the fused column's value is missing, not the row's
}

// An iteration laid out in parts: the figures under "#### Plan" or
// "#### Hypothesis" are the plan's, those under "#### Result" or
// "#### Measured" are measured; an iteration whose "#### Outcome" says it
// did not run, or whose table's Result row is "n/a", recorded nothing.
TEST(ReaderClassifyStatus, AnIterationsPlanPartHoldsNoRunAndAnEmptyOutcomeRecordsNothing) {
  const std::string doc =
      "# Autotune agent log\n\n"                                                        // 1-2
      "## Iteration 7 \xE2\x80\x94 2025-08-01\n\n"                                     // 3-4
      "#### Plan\nRaise num_stages to 4 at BLOCK_M=128; the cost model gives 0.81 ms.\n\n"  // 5-7
      "#### Result\n0.86 ms on H100.\n\n"                                               // 8-10
      "## Iteration 8 \xE2\x80\x94 2025-08-02\n\n"                                     // 11-12
      "#### Hypothesis\nSplit-K=2 halves the tail: 0.74 ms.\n\n"                        // 13-15
      "#### Outcome\nNot run: the compile failed.\n\n"                                  // 16-18
      "## Iteration 10 \xE2\x80\x94 2025-08-04\n\n"                                    // 19-20
      "| Part | Text |\n|---|---|\n"                                                      // 21-22
      "| Plan | warp-specialized epilogue |\n"                                             // 23
      "| Latency | 0.72 ms |\n"                                                            // 24
      "| Result | n/a |\n";                                                                // 25
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(6)) << ::testing::PrintToString(why);
  EXPECT_NE(why[6].find("plan"), std::string::npos) << why[6];
  EXPECT_TRUE(kept.count(9)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(14)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(24)) << ::testing::PrintToString(why);
}

// A tool-appended history whose first entries are worked out: a remark on
// where the figures come from ("- source: roofline bound", "Kind:
// projection") marks the entry; a remark naming a bench keeps it.
TEST(ReaderClassifyStatus, ARemarkThatTheFiguresAreWorkedOutMarksTheEntry) {
  const std::string doc =
      "# Decode history\n\n"                                   // 1-2
      "## 2025-03-01 10:00 run-001\n\n"                        // 3-4
      "- source: roofline bound\n"                             // 5
      "- decode: 4.1 ms per token\n\n"                         // 6-7
      "## 2025-03-02 10:00 run-002\n\n"                        // 8-9
      "Kind: projection\n\n"                                   // 10-11
      "- decode: 5.0 ms per token\n\n"                         // 12-13
      "## 2025-03-04 10:00 run-004\n\n"                        // 14-15
      "- source: bench, 20 reps\n"                             // 16
      "- decode: 6.3 ms per token\n";                          // 17
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(6)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(12)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(17)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
