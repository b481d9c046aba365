// The classify stage on writing that records no run of its own: a block
// that works a calculation out (a capacity plan's memory budget, a sizing
// worked step by step), and the time a task of a pipeline or a plan took
// beside what it completed (bookkeeping of the work, not a benchmark).
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string Why(const std::map<int, std::string>& why) { return ::testing::PrintToString(why); }

// A fenced block no command printed whose lines work figures out ("80 - 66
// = 14 GB", "Replicas = 1,800 / 150 = 12") is a calculation: none of its
// figures is a run's, the budget lines beside the arithmetic neither. A
// block printed by a command, and a pasted block with no arithmetic, stay.
TEST(ReaderClassifyWorked, ABlockThatWorksFiguresOutIsNoRun) {
  const std::string doc =
      "# Serving capacity plan\n\n"
      "## 1. Memory per replica\n\n"        // 3
      "```text\n"                            // 5
      "Weights (fp8):        40 GB\n"        // 6
      "KV cache (32 seqs):   22 GB\n"        // 7
      "Runtime overhead:      4 GB\n"        // 8
      "-----------------------------\n"      // 9
      "Needed:               66 GB\n"        // 10
      "Headroom on 80 GB:    80 - 66 = 14 GB\n"  // 11
      "```\n\n"
      "## 2. Replicas for peak load\n\n"     // 14
      "```\n"                                // 16
      "Peak demand:     1,800 req/s\n"       // 17
      "Per replica:     150 req/s\n"         // 18
      "Replicas = 1,800 / 150 = 12\n"        // 19
      "With spare:      12 x 1.25 = 15 replicas, 2250 req/s\n"  // 20
      "```\n\n"
      "## 3. Smoke test\n\n"                 // 23
      "```bash\n./loadgen --rate 150\n```\n\n"  // 25-27
      "```\nachieved 148.2 req/s\np99 41.7 ms\n```\n\n"  // 29-32
      "## 4. Pasted soak numbers\n\n"        // 34
      "```\nsoak p50: 12.4 ms\nsoak p99: 38.9 ms\n```\n";  // 36-39
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {6, 7, 8, 10, 11, 17, 18, 20}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_NE(why[6].find("worked"), std::string::npos) << why[6];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[6]), "classify");
  for (int line : {30, 31, 37, 38}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
}

// The time a task of a pipeline or a plan took, labelled as such beside
// what it completed (a done mark in its part's heading, a tally "24/24
// passed", "Tasks completed: 12"), is the work's bookkeeping, no
// benchmark's figure, when its part runs no command. A duration of a part
// that runs its benchmark, an elapsed time with no tally beside it, and a
// time beside a done mark in a table's cell stay.
TEST(ReaderClassifyWorked, ATasksDurationBesideWhatItCompletedIsNoRun) {
  const std::string doc =
      "# Nightly pipeline report\n\n"
      "## 1. Model conversion \xE2\x9C\x85\n\n"                 // 3
      "| Model | int8 | fp8 |\n|---|---|---|\n"                   // 5-6
      "| tiny-1B | \xE2\x9C\x85 41.2s | \xE2\x9C\x85 39.8s |\n\n"  // 7
      "## 2. Tuning sweep\n\n"                                    // 9
      "- Shapes: `[128, 256, 512]`\n"                              // 11
      "- Duration: 412.6s\n"                                       // 12
      "- Kernels: 24/24 passed\n\n"                               // 13
      "## 3. Velocity\n\n"                                        // 15
      "- Tasks completed: 12\n"                                    // 17
      "- Average duration: 6m 10s\n"                               // 18
      "- Total execution time: 1.2 hours\n\n"                     // 19
      "## 4. Decode throughput\n\n"                               // 21
      "```bash\n./bench_decode --model tiny-1B\n```\n\n"        // 23-25
      "- Duration: 61.0 s\n"                                       // 27
      "- decode: 1,234 tok/s\n\n"                                 // 28
      "## 5. Cold start\n\n"                                      // 30
      "- Elapsed: 3.1 s\n"                                         // 32
      "- Peak RSS: 812 MB\n";                                      // 33
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {12, 18, 19}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_TRUE(kept.count(7)) << Why(why);  // a done mark beside a time in a cell: benchmark tables mark passing runs so
  EXPECT_NE(why[12].find("bookkeeping"), std::string::npos) << why[12];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[12]), "classify");
  for (int line : {27, 32}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
}

// A table's row labelled as a product of named quantities ("MFU × Peak")
// works its figures out from the other rows; a row labelled as the
// hardware's peak states its rating. Neither is a run; the measured rows of
// the run before stay.
TEST(ReaderClassifyWorked, AProductRowAndAHardwarePeakRowAreNoRuns) {
  const std::string doc =
      "# Scaling check\n\n"
      "## 1. One node\n\n"                                        // 3
      "```bash\n./train --nodes 1\n```\n\n"                      // 5-7
      "| Metric | Value |\n|---|---|\n"                            // 9-10
      "| Achieved | 407.5 TFLOPS |\n\n"                            // 11
      "## 2. Ratios\n\n"                                          // 13
      "| Metric | 1 node | 2 nodes |\n|---|---|---|\n"             // 15-16
      "| Hardware peak | 989 TFLOPS | 1978 TFLOPS |\n"             // 17
      "| MFU \xC3\x97 Peak | 407.1 TFLOPS | 405.9 TFLOPS |\n";   // 18
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(11)) << Why(why);
  for (int line : {17, 18}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_EQ(FateStage("listed, not tabled: " + why[18]), "classify") << why[18];
}

// A calculation whose result goes on the next line ("9,500 tok/s / $12,500
// =" over "0.76 tok/s per $") works figures out all the same.
TEST(ReaderClassifyWorked, AResultOnTheLineAfterItsEqualsSignIsWorkedOut) {
  const std::string doc =
      "# Cost per card\n\n"
      "## 1. Throughput per dollar\n\n"          // 3
      "```\n"                                      // 5
      "Card A:   4,100 tok/s / $3,000 =\n"         // 6
      "          1.37 tok/s per $\n"               // 7
      "Card B:   2,600 tok/s / $2,500 =\n"         // 8
      "          1.04 tok/s per $\n"               // 9
      "```\n\n"
      "## 2. Boxed\n\n"                          // 12
      "```\n"                                      // 14
      "\xE2\x94\x82 Card C:  3,300 tok/s / $2,900 =   \xE2\x94\x82\n"  // 15
      "\xE2\x94\x82          1.14 tok/s per $          \xE2\x94\x82\n"  // 16
      "```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {6, 7, 8, 9, 15, 16}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
}

// A block that tallies what a plan needs ("Total needed: 85 GB" under its
// parts, "Shortfall: 53 GB") is a budget worked out, no run's output, even
// with no arithmetic written.
TEST(ReaderClassifyWorked, ABudgetTallyBlockIsNoRun) {
  const std::string doc =
      "# Fitting the model\n\n"
      "## 1. One card\n\n"                    // 3
      "```\n"                                   // 5
      "Weights (bf16):      48 GB\n"            // 6
      "KV cache (16k ctx):  11 GB\n"            // 7
      "----------------------------\n"          // 8
      "Total needed:        59 GB\n"            // 9
      "Card memory:         24 GB\n"            // 10
      "Shortfall:           35 GB\n"            // 11
      "```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {6, 7, 9, 10, 11}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
}

// What a change is said to eliminate ("eliminates 10-20 us of scheduler
// wake-up") is what it would save, a change: no run. (A heading's
// "projection" is no plan word: "Optimize attention projections" runs.)
TEST(ReaderClassifyWorked, WhatAChangeEliminatesIsNoRun) {
  const std::string doc =
      "# Queue latency work\n\n"
      "## 1. Measured now\n\n"                        // 3
      "```bash\n./bench_queue\n```\n\n"              // 5-7
      "- p99: 612 us\n\n"                              // 9
      "## 2. Drop the yield\n\n"                       // 11
      "Removing the yield eliminates 10-20 us of scheduler wake-up per message.\n";  // 13
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(9)) << Why(why);
  EXPECT_FALSE(kept.count(13)) << Why(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A figure that is an operand of arithmetic in prose ("5 extra steps at
// 635ms/step = 3.2s", "700W per GPU x $0.12/kWh = ~$60/month") is worked
// out, no run; figures compared into a ratio ("12.4 ms vs 8.1 ms before =
// 1.53x faster") and a plain reading stay.
TEST(ReaderClassifyWorked, AnOperandOfProseArithmeticIsNoRun) {
  const std::string doc =
      "# Notes\n\n## 2026-05-01 follow-up\n\n"
      "Skipping the scale adds 5 extra steps at 635ms/step = 3.2s, not worth it.\n\n"  // 5
      "- Power: 700W per GPU x $0.12/kWh = ~$60/month\n\n"                             // 7
      "## 2026-05-02 measured\n\n"
      "The fused kernel ran 12.4 ms vs 8.1 ms before = 1.53x faster.\n\n"               // 11
      "Each step took 412.5 ms at batch 64.\n";                                          // 13
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 7}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {11, 13}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A program's printout that names its settings with an equals sign beside a
// shape ("Input X: 2048 x 1024 Row Stride = 1024") works nothing out: the
// product is another clause's, the sign names a setting. Its measurements
// stay a run's; a line whose equals sign closes the product ("Buffer: 2048 x
// 1024 x 2 B = 4 MB") still works figures out.
TEST(ReaderClassifyWorked, APrintoutsSettingBesideAShapeIsNoCalculation) {
  const std::string doc =
      "# Reduce kernel log\n\n"
      "## Attempt 3\n\n"                                   // 3
      "```\n"                                               // 5
      "Problem: R = 2048 C = 1024\n"                        // 6
      "Input X: 2048 x 1024 Row Stride = 1024\n"            // 7
      "Output Y: 2048 x 1 Row Stride = 1\n"                 // 8
      "Reference Reduce\n"                                  // 9
      "Time: 0.0412 ms\n"                                   // 10
      "Achieved Bandwidth: 203.6 GB/s\n"                    // 11
      "Tuned Reduce\n"                                      // 12
      "Time: 0.0297 ms\n"                                   // 13
      "Achieved Bandwidth: 282.4 GB/s\n"                    // 14
      "```\n\n"
      "## Sizing\n\n"                                       // 17
      "```\n"                                               // 19
      "Buffer: 2048 x 1024 x 2 B = 4 MB\n"                  // 20
      "Copy at 280 GB/s: 0.015 ms\n"                        // 21
      "```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {10, 11, 13, 14}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
  EXPECT_FALSE(kept.count(21)) << Why(why);
  EXPECT_NE(why[21].find("worked"), std::string::npos) << why[21];
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A block that sizes a layout by formulas of named quantities ("Q tile:
// 2 * TILE_M * (D+1) * 2   24,960") works its figures out; a printed
// line that names a product of words ("CPU * GPU" is no formula) and a
// printout of measured times stay.
TEST(ReaderClassifyWorked, AFormulaOfNamedQuantitiesIsWorkedOut) {
  const std::string doc =
      "# Tile notes\n\n"
      "## Derivation\n\n"
      "### Step 1: Pick the tile\n\n"                                                   // 5
      "**Goal**: Fill shared memory\n\n"
      "**SMEM Layout**:\n"
      "```\n"                                                                           // 10
      "Component               Formula                     Bytes (TILE=64)\n"          // 11
      "A tiles (2x buffered):  2 * TILE_M * (K+1) * 2      16,640\n"                  // 12
      "B tiles (2x buffered):  2 * TILE_N * (K+1) * 2      16,640\n"                  // 13
      "--------------------------------------------------------------\n"
      "TOTAL:                                              33,280 bytes\n"             // 15
      "```\n\n"
      "## Run\n\n"                                                                      // 18
      "```\n"                                                                           // 20
      "tile 128 x 64: 0.412 ms\n"                                                       // 21
      "Copy * Compute overlap: 0.097 ms\n"                                              // 22
      "```\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {12, 13, 15}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_NE(why[12].find("worked"), std::string::npos) << why[12];
  for (int line : {21, 22}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
