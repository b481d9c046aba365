// The classify stage's section rule: a part that sits in a section naming a
// device's specifications states its ratings, no run.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

// "### Memory Hierarchy" under "## Card Specifications" lists the card's
// capacities, bandwidths and latencies: no run; a part of another section
// that measures stays, and so does a part of the specifications section
// that runs its command.
TEST(ReaderClassifySections, APartOfASpecificationsSectionIsNoRun) {
  const std::string doc =
      "# Kernel notes for a 24 GB card\n\n"
      "## Card Specifications\n\n"                                           // 3
      "### Memory Hierarchy\n\n"                                             // 5
      "| Level | Capacity | Bandwidth | Latency |\n|---|---|---|---|\n"         // 7-8
      "| L2 Cache | 6 MB | ~1.5 TB/s | ~150 cycles |\n"                        // 9
      "| DRAM | 24 GB | 320 GB/s | ~450 cycles |\n\n"                         // 10
      "### Measured copy bandwidth\n\n"                                      // 12
      "```bash\n./copy_bench --size 1G\n```\n\n"                            // 14-16
      "```\ncopy: 291.4 GB/s\n```\n\n"                                       // 18-20
      "## Measured Today\n\n"                                                // 22
      "### ln_v1\n\n"                                                        // 24
      "| kernel | time |\n|---|---|\n| ln_v1 | 0.911 ms |\n";                // 26-28
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {9, 10}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  EXPECT_NE(why[9].find("specifications"), std::string::npos) << why[9];
  for (int line : {19, 28}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// "## Combined decode status": a status part's table that gives the runs of
// the entries above again restates them; a `## ... workflow` part says how
// runs are made and measures none.
TEST(ReaderClassifySections, AStatusRecapsAndAWorkflowPlans) {
  const std::string doc =
      "# Decode log\n\n"
      "## 2026-05-01 baseline\n\n| run | Decode ms |\n|---|---:|\n| base | 14919 |\n\n"     // 7
      "## 2026-05-02 prefetch\n\n| run | Decode ms |\n|---|---:|\n| prefetch | 14526 |\n\n"  // 13
      "## Combined decode status\n\n| | Decode ms |\n|---|---:|\n| Baseline | 14919 |\n| + prefetch | 14526 |\n\n"  // 19, 20
      "## Profiling workflow (for the next A/B)\n\n- Roadmap verdict: ceiling = 13.11 s (gain 3.13 s).\n";  // 24
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7));
  EXPECT_TRUE(kept.count(13));
  for (int line : {19, 20, 24}) EXPECT_FALSE(kept.count(line)) << line;
}

}  // namespace
}  // namespace moelog::logbook::reader
