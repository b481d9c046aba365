// Reader stage classify: figures an entry cites from another source are no
// runs of its own (logbook/reader/classify_cited.cc).
#include <gtest/gtest.h>

#include "logbook/reader/classify_cited.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ClassifyCited, CitationsAndSourceLeads) {
  EXPECT_TRUE(AuthorYearCitation("SGLang reaches 75 tok/s (Medium, 2024)."));
  EXPECT_TRUE(AuthorYearCitation("as shown before (Dao et al. 2023)"));
  EXPECT_TRUE(AuthorYearCitation("[Smith, 2022] measured 12 ms"));
  EXPECT_FALSE(AuthorYearCitation("measured on the new node (March 2024)"));
  EXPECT_FALSE(AuthorYearCitation("(H100 x8, 2024)"));
  EXPECT_FALSE(AuthorYearCitation("ran 2,048 steps (seed 1, 2024 tokens)"));
  EXPECT_FALSE(AuthorYearCitation("(bs=8, 2048)"));
  EXPECT_TRUE(SourceLead("Source: vendor datasheet."));
  EXPECT_TRUE(SourceLead("It is the ceiling. Source and full comparison: MAMF table."));
  EXPECT_TRUE(SourceLead("According to the vLLM blog, decode reaches 3,000 tok/s."));
  EXPECT_FALSE(SourceLead("Source code: github.com/x/y."));
  EXPECT_FALSE(SourceLead("Sourced the env file and ran the bench: 12 ms."));
}

// A survey's section that quotes other reports: its paragraphs close with
// author-year citations and its table follows the cited paragraph. Nothing
// of it is the entry's run.
TEST(ClassifyCited, ASurveysCitedFiguresAreNoRuns) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry(
      "# Serving engines compared\n\n## End-to-end latency\n",
      "With Llama3-70B, engine A averages **45,938ms** while engine B averages **51,091ms**. Engine A "
      "handles bursts better ([GitHub, 2025](https://example.com/issue)).\n\n"
      "| Engine | Mean latency (ms) | P99 latency (ms) |\n|---|---|---|\n| A | 45,938 | 9,065 |\n| B | 51,091 | 7,798 |\n",
      &unread);
  EXPECT_TRUE(figs.empty());
  int cited = 0;
  for (const auto& u : unread) cited += u.why.find("another source") != std::string::npos;
  EXPECT_GE(cited, 2);
}

// A table under a "Source:" caption two lines up (a short label between)
// restates a datasheet, and so does the next table of its series (another
// short label between); a table of the entry's own beside them is kept.
TEST(ClassifyCited, ATableUnderASourcedCaptionIsCited) {
  const auto figs = ReadEntry(
      "# Upgrade notes\n\n## Ceilings and our runs\n",
      "MAMF is the best matmul throughput one can reach. Source and full comparison: the MAMF table.\n\n"
      "**BF16:**\n\n| Accelerator | MAMF (TFLOPS) |\n|---|---|\n| H100 | 794.5 |\n| B200 | 1745.0 |\n\n"
      "**FP8:**\n\n| Accelerator | MAMF (TFLOPS) |\n|---|---|\n| H200 | 1453.4 |\n| B200 | 3432.5 |\n\n"
      "We then ran our own training step:\n\n| Accelerator | Step time (ms) |\n|---|---|\n| H100 | 412 |\n| B200 | 255 |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_EQ(f.text.find("794.5"), std::string::npos) << f.text;
    EXPECT_EQ(f.text.find("1453.4"), std::string::npos) << f.text;
  }
}

// The entry's own measurement beside a sentence that names a paper for a
// method, not for its numbers, stays.
TEST(ClassifyCited, OwnFiguresBesideACitationElsewhereStay) {
  const auto figs = ReadEntry("# Attention kernels\n\n## Run 4\n",
                              "The tiling follows FlashAttention (Dao et al., 2022).\n\n"
                              "- fused kernel: 1.106 ms\n- reference path: 2.538 ms\n");
  EXPECT_EQ(figs.size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook::reader
