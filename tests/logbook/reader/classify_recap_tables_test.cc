// Reader stage classify: a table that recaps earlier entries restates them
// whole, its figures written with fewer digits too; a table that measures
// again stays.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kRuns =
    "# MLX report\n\n## 1. Basic fine-tuning\n\n- **Training Time:** 7.67 seconds\n- **Performance:** 11.2 iterations/sec, 838 tokens/sec\n\n"
    "## 2. Enhanced fine-tuning\n\n- **Training Time:** 5.7 seconds\n- **Performance:** 5.3 iterations/sec, 421 tokens/sec\n\n";

TEST(ReaderClassifyRecapTables, ATableOfEarlierEntriesFiguresRestatesThemAll) {
  const std::string doc = std::string(kRuns) +
                          "## Performance analysis\n\n| Metric | Basic MLX | Enhanced MLX | Improvement |\n|---|---|---|---|\n"
                          "| Training Time | 7.67s | 5.7s | 26% faster |\n| Iterations/sec | 11.2 | 5.3 | other configs |\n"
                          "| Tokens/sec | 838 | 421 | other configs |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {17, 18, 19}) {
    EXPECT_FALSE(kept.count(line)) << line;
    EXPECT_NE(why[line].find("restates"), std::string::npos) << line << ": " << why[line];
  }
}

TEST(ReaderClassifyRecapTables, ATableWithNewFiguresIsMeasuredAgain) {
  const std::string doc = std::string(kRuns) +
                          "## Rerun\n\n| Metric | Basic MLX | Enhanced MLX | Improvement |\n|---|---|---|---|\n"
                          "| Training Time | 7.71s | 5.9s | 23% faster |\n| Iterations/sec | 11.0 | 5.3 | other configs |\n"
                          "| Tokens/sec | 829 | 418 | other configs |\n";
  const std::set<int> kept = KeptLines(doc);
  for (int line : {17, 18, 19}) EXPECT_TRUE(kept.count(line)) << line;
}

TEST(ReaderClassifyRecapTables, MemoryAvailableIsTheMachinesCapacity) {
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines("# Notes\n\n## Hardware utilization\n\n- **Memory:** 128GB available\n"
                                       "- **Peak memory:** 2.9 GB\n", &why);
  EXPECT_FALSE(kept.count(5)) << why[5];
  EXPECT_TRUE(kept.count(6)) << why[6];
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "## Summary: Where We Are" over "### Current Performance": the entries
// under a recap section restate what the document writes elsewhere.
TEST(ReaderClassifyRecapTables, EntriesUnderARecapSectionRestate) {
  const std::string doc =
      "# Kernel guide\n\n## Benchmark results\n\n| Version | Time (us/iter) |\n|---|---|\n"
      "| v0 baseline | 17,308 |\n| v3 no nulls | 16,403 |\n\n"                    // 7-8
      "So 1.06x faster (17.3ms to 16.4ms).\n\n"                                 // 10
      "## Summary: Where We Are\n\n### Current Performance\n\n"                  // 12, 14
      "- **Baseline fused:** 17.3 ms\n- **Optimized (no-nulls):** 16.4 ms\n\n"    // 16-17
      "### New today\n\n- **Fused v4:** 15.1 ms\n";                             // 19, 21
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 21}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {16, 17}) {
    EXPECT_FALSE(kept.count(line)) << line;
    EXPECT_NE(why[line].find("Summary: Where We Are"), std::string::npos) << why[line];
  }
}

}  // namespace
}  // namespace moelog::logbook::reader
