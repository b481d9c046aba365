// The classify stage on a report's later sections that restate its results
// table: a figure written with fewer digits than the table's cell ("14,389
// tokens/sec" of "14,389.80") restates it, cut or rounded.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderClassifyRestated, AFigureCutFromAnEarlierTablesCellRestatesIt) {
  const std::string doc =
      "# Decode throughput report\n\n"
      "## Sweep results\n\n"                                                  // 3
      "| Rank | Batch | Throughput (tokens/s) | Requests/s |\n|---|---|---:|---:|\n"  // 5-6
      "| 1 | 64 | 21,406.52 | 41.81 |\n"                                       // 7
      "| 2 | 256 | 15,112.07 | 118.06 |\n\n"                                   // 8
      "## Batch size effects\n\n"                                             // 10
      "- Larger batches trade throughput for requests\n"                      // 12
      "- The 256 batch configuration achieved 15,112 tokens/sec\n\n"          // 13
      "## Peaks\n\n"                                                          // 15
      "- **Peak Token Rate**: 21,407 tokens/sec\n";                           // 17
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {13, 17}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[13].find("restates"), std::string::npos) << why[13];
}

}  // namespace
}  // namespace moelog::logbook::reader
