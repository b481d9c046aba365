#include "logbook/update/criteria_status.h"

#include <gtest/gtest.h>

#include <string>

#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

TEST(CriteriaStatus, StatusRegionAndEntryFacts) {
  const std::string text =
      "# T\n\n## Stop Criteria\n- Sweep done <!-- moelog: sweep topk in {2,8} -->\n"
      "- First entry has a result <!-- moelog: entry T-000 has result -->\n- Manual one.\n\n"
      "## Experiment ID Prefix\n- `T`\n\n## Experiment Log\n"
      "### 2026-03-01 10:00 - T-000 first\n- Command: N/A\n- Result:\n  - done it.\n";
  Logbook lb = ParseLogbook(text, "t.md");
  auto facts = EntryFactsOf(lb);
  ASSERT_TRUE(facts.count("T-000"));
  EXPECT_TRUE(facts["T-000"].has_result);
  std::vector<StoredRun> runs(2);
  // std::string(): GCC 12 warns falsely (-Wrestrict) on a literal assigned here.
  runs[0].id = std::string("a");
  runs[0].config = {{"topk", "2"}};
  runs[1].id = std::string("b");
  runs[1].config = {{"topk", "8"}};
  auto region = CriteriaStatusRegion(text, lb, runs);
  ASSERT_TRUE(region.ok()) << region.status().ToString();
  EXPECT_EQ(region->rfind("Stop criteria status: 2 met, 0 unmet, 1 manual.", 0), 0u) << *region;
  EXPECT_EQ(*CriteriaStatusRegion(text, lb, runs), *region);  // deterministic
  const std::string bad_text = "## Stop Criteria\n- x <!-- moelog: sweep -->\n";
  auto bad = CriteriaStatusRegion(bad_text, ParseLogbook(bad_text, "t.md"), runs);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("t.md:2: ", 0), 0u) << bad.status().message();
}

}  // namespace
}  // namespace moelog::logbook
