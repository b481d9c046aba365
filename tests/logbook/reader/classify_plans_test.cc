// The classify stage on parts that record no measurement of their own but
// carry figures: comparisons that quote earlier results beside another
// source's, plans and expectations, checklists of goals.
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The lines of the figures LogbookFigures keeps, over all entries, and the
// reasons it lists for the others by line.
std::set<int> Kept(const std::string& text, std::map<int, std::string>* why) {
  const Logbook lb = ParseLogbook(text, "t.md");
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  std::set<int> lines;
  for (const auto& entry : figs)
    for (const auto& f : entry) lines.insert(f.line);
  for (const auto& entry : unread)
    for (const auto& u : entry) (*why)[u.line] += u.why + "; ";
  return lines;
}

// A comparison's table row whose one column quotes this log's figure and
// whose other column quotes another source's ("| fp16 | 9.41 req/s upstream
// | 61.3 req/s here |") restates with all its cells: the other source's
// figure is no run of this log. A row written nowhere else stays a run.
TEST(ReaderClassifyPlans, AComparisonRowQuotingTheLogQuotesTheOtherColumnsToo) {
  const std::string doc =
      "# Serving check\n\n## 1. Sweep\n\n| config | throughput (req/s) |\n|---|--:|\n"
      "| fp16 | 61.3 |\n| int8 | 48.72 |\n\n"
      "## 2. Comparison with the upstream report\n\nThe upstream report used another GPU.\n\n"
      "| config | upstream | here |\n|---|---|---|\n"
      "| fp16 | 9.41 req/s | 61.3 req/s |\n| int8 | 12.06 req/s | 48.72 req/s |\n"
      "| bf16 | 10.77 req/s | 57.19 req/s |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = Kept(doc, &why);
  EXPECT_TRUE(kept.count(7)) << ::testing::PrintToString(why);
  EXPECT_TRUE(kept.count(8)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(16)) << ::testing::PrintToString(why);
  EXPECT_FALSE(kept.count(17)) << ::testing::PrintToString(why);
  EXPECT_NE(why[16].find("recap or comparison"), std::string::npos) << why[16];
  EXPECT_TRUE(kept.count(18)) << ::testing::PrintToString(why);  // written only here: measured here
}

}  // namespace
}  // namespace moelog::logbook::reader
