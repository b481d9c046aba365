#include "logbook/update/recorded_failures.h"

#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

Entry OneEntry(const std::string& result) {
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-03-01 09:00 - Smoke\n"
                          "- Command: `python bench.py --dtype float32`\n- Result:\n" + result;
  Logbook lb = ParseLogbook(doc, "t.md");
  EXPECT_EQ(lb.entries.size(), 1u);
  return lb.entries.empty() ? Entry{} : lb.entries[0];
}

TEST(RecordedFailures, ALabelledFailureNamesItsRunAndKeepsTheAuthorsReason) {
  const Entry e = OneEntry("  - `ragged/fp8`: ran fine.\n"
                           "  - `dense/fp8/bfloat16`: failed in the kernel launch:\n"
                           "    - `ValueError: block shape must divide 96`\n"
                           "  - topk=8: timed out after 20 min\n");
  const auto f = RecordedFailures(e);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].outcome, "failed");
  EXPECT_EQ(f[0].reason, "ValueError: block shape must divide 96");
  EXPECT_TRUE(FailureNames(f[0], {{"backend", "dense"}, {"quant_mode", "fp8"}, {"dtype", "bfloat16"}}));
  EXPECT_FALSE(FailureNames(f[0], {{"backend", "dense"}, {"quant_mode", "fp8"}, {"dtype", "float32"}}));
  EXPECT_EQ(f[1].outcome, "timed out");
  EXPECT_TRUE(FailureNames(f[1], {{"topk", "8"}}));
  EXPECT_EQ(f[1].reason, "timed out after 20 min");
}

TEST(RecordedFailures, DenialsAndUnlabelledTextSayNothing) {
  const Entry e = OneEntry("  - no run failed: all three finished.\n"
                           "  - The launcher failed twice before the third try worked, a retry loop in the wrapper "
                           "script: fixed.\n"
                           "  - `dense`: 41.2 TF/s\n");
  EXPECT_TRUE(RecordedFailures(e).empty());
}

}  // namespace
}  // namespace moelog::logbook
