// Reader stage classify: a table that recaps earlier entries restates them
// whole, its figures written with fewer digits too; a table that measures
// again stays.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kRuns =
    "# Adapter report\n\n## 1. Plain adapters\n\n- **Training Time:** 9.14 seconds\n- **Performance:** 13.6 iterations/sec, 912 tokens/sec\n\n"
    "## 2. Fused adapters\n\n- **Training Time:** 6.3 seconds\n- **Performance:** 4.8 iterations/sec, 377 tokens/sec\n\n";

TEST(ReaderClassifyRecapTables, ATableOfEarlierEntriesFiguresRestatesThemAll) {
  const std::string doc = std::string(kRuns) +
                          "## Performance analysis\n\n| Metric | Plain LoRA | Fused LoRA | Improvement |\n|---|---|---|---|\n"
                          "| Training Time | 9.14s | 6.3s | 31% faster |\n| Iterations/sec | 13.6 | 4.8 | other configs |\n"
                          "| Tokens/sec | 912 | 377 | other configs |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {17, 18, 19}) {
    EXPECT_FALSE(kept.count(line)) << line;
    EXPECT_NE(why[line].find("restates"), std::string::npos) << line << ": " << why[line];
  }
}

TEST(ReaderClassifyRecapTables, ATableWithNewFiguresIsMeasuredAgain) {
  const std::string doc = std::string(kRuns) +
                          "## Rerun\n\n| Metric | Plain LoRA | Fused LoRA | Improvement |\n|---|---|---|---|\n"
                          "| Training Time | 9.02s | 6.6s | 27% faster |\n| Iterations/sec | 13.9 | 4.8 | other configs |\n"
                          "| Tokens/sec | 931 | 369 | other configs |\n";
  const std::set<int> kept = KeptLines(doc);
  for (int line : {17, 18, 19}) EXPECT_TRUE(kept.count(line)) << line;
}

TEST(ReaderClassifyRecapTables, MemoryAvailableIsTheMachinesCapacity) {
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines("# Notes\n\n## Hardware utilization\n\n- **Memory:** 96GB available\n"
                                       "- **Peak memory:** 3.4 GB\n", &why);
  EXPECT_FALSE(kept.count(5)) << why[5];
  EXPECT_TRUE(kept.count(6)) << why[6];
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "## Summary of the week" over "### Standing numbers": an entry headed as
// a recap restates, in every part, what the document writes elsewhere.
TEST(ReaderClassifyRecapTables, EntriesUnderARecapSectionRestate) {
  const std::string doc =
      "# Kernel guide\n\n## Benchmark results\n\n| Version | Time (us/iter) |\n|---|---|\n"
      "| v0 baseline | 23,517 |\n| v3 no nulls | 21,846 |\n\n"                    // 7-8
      "So 1.08x faster (23.5ms to 21.8ms).\n\n"                                 // 10
      "## Summary of the week\n\n### Standing numbers\n\n"                  // 12, 14
      "- **Baseline loop:** 23.5 ms\n- **Without null checks:** 21.8 ms\n\n"    // 16-17
      "### New today\n\n- **Unrolled v4:** 19.2 ms\n";                             // 19, 21
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 21}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {16, 17}) {
    EXPECT_FALSE(kept.count(line)) << line;
    EXPECT_NE(why[line].find("Summary of the week"), std::string::npos) << why[line];
  }
}

// An arrow in a recap one side of which quotes the log ("30 \u2192 68.8
// TFLOPS" where 68.8 TFLOPS is an entry's) quotes its other side too.
TEST(ReaderClassifyRecapTables, AnArrowThatQuotesOneSideQuotesBoth) {
  const std::string doc =
      "# Kernel log\n\n**Progress:** 30 \u2192 61.5 \u2192 68.8 TFLOPS\n\n## 1. Tiled\n\n- peak memory: 2.1 GB\n\n"
      "## Validated Achievements\n\n- **2.24x improvement** (30 \u2192 68.8 TFLOPS)\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7));
  EXPECT_FALSE(kept.count(11)) << ::testing::PrintToString(why);
}

// An entry that is a recap by its own heading ("## Summary After 2
// Iterations") over a ledger of the changes its runs made: the changes of
// runs recorded elsewhere, no run of its own; the entries keep theirs.
TEST(ReaderClassifyRecapTables, ASummarysLedgerOfChangesIsNoRun) {
  const std::string doc =
      "# Iterations\n\n## Iteration 1: acks\n\n- Throughput: 142,201 ops\n\n"         // 5
      "## Iteration 2: batching\n\n- Throughput: 153,246 ops\n\n"                     // 9
      "## Summary After 2 Iterations\n\n| Iteration | Change | Impact |\n|---|---|---|\n"
      "| 1 | acks=0 | +14.3% |\n| 2 | batching | +7.8% |\n";                            // 15-16
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5) && kept.count(9));
  EXPECT_FALSE(kept.count(15) || kept.count(16)) << ::testing::PrintToString(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
