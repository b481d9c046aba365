#include "logbook/criteria/suggest.h"

#include <gtest/gtest.h>

#include <string>

#include "logbook/criteria/criteria.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

const char* kScope =
    "# T\n\n## Scope\n- Goal: g.\n- Constraints: keep comparisons apples-to-apples (same shape, backend, impl, pass "
    "mode, and device count).\n\n## Baseline\n- shared shape forward_backward:\n  - topk=2: 192.449 TF/s\n  - topk=8: "
    "167.868 TF/s\n\n";

std::vector<Suggestion> Suggest(const std::string& criteria, const std::string& log = "") {
  const std::string text = std::string(kScope) + "## Stop Criteria\n" + criteria + "\n## Experiment Log\n" + log;
  return SuggestPredicates(ParseLogbook(text, "t.md"), text);
}

std::string One(const std::string& sentence, const std::string& log = "") {
  auto s = Suggest("- " + sentence + "\n", log);
  EXPECT_EQ(s.size(), 1u);
  return s.empty() ? "" : (s[0].predicate.empty() ? "manual: " + s[0].reason : s[0].predicate);
}

TEST(Suggest, EachFormOfProse) {
  EXPECT_EQ(One("We have direct `quant_mode=none` vs `quant_mode=int8` comparisons for at least 2 fixed cases."),
            "pairs quant_mode=none vs quant_mode=int8 same tokens,hidden,mlp_dim,experts,topk,shared_expert_dim,"
            "backend,impl,bench_pass,devices at least 2");
  EXPECT_EQ(One("A top-k sweep (`1, 2, 4`) in int8 mode on v5p."), "sweep topk in {1,2,4} where quant_mode=int8, target!=cpu");
  EXPECT_EQ(One("EP vs baseline tables at `topk=2` and `topk=8`."), "table parallel_mode {none,ep} x topk {2,8}");
  EXPECT_EQ(One("EP reaches at least 300 TF/s at `topk=8`."), "metric tflops >= 300 where parallel_mode=ep, topk=8");
  EXPECT_EQ(One("Compact EP reaches the prior best non-EP throughput at `topk=8`."),
            "metric tflops >= 167.868 where ep_dispatch=compact, parallel_mode=ep, topk=8");
  EXPECT_EQ(One("int8 beats none by 5% on tokens/s."),
            "beats quant_mode=int8 vs quant_mode=none by 5% on tokens_per_s");
  EXPECT_EQ(One("The EP path is reproducible (3 repeats)."), "repeats at least 3 where parallel_mode=ep");
  EXPECT_EQ(One("The planned first v5p matrix has been run and recorded.",
                "### 2026-02-10 10:55 - MOE-I8-003 Planned first v5p matrix\n- Result: pending\n"),
            "entry MOE-I8-003 has result");
  EXPECT_EQ(One("MOE-I8-003 has a result.", "### 2026-02-10 10:55 - MOE-I8-003 Planned\n- Result: pending\n"),
            "entry MOE-I8-003 has result");
}

TEST(Suggest, UnreadableStaysManualWithReason) {
  EXPECT_EQ(One("We can state whether int8 is beneficial.").rfind("manual: asks for a judgement", 0), 0u);
  EXPECT_EQ(One("We can answer whether EP helps.").rfind("manual: asks for a judgement", 0), 0u);
  EXPECT_EQ(One("The team agrees on the write-up.").rfind("manual: names no config value", 0), 0u);
  EXPECT_EQ(One("int8 mode is interesting.").rfind("manual: names config values but", 0), 0u);
}

// Every proposal parses; a bullet with a predicate is left as it is.
TEST(Suggest, ProposalsParseAndExistingPredicatesStay) {
  auto s = Suggest("- EP vs baseline tables at `topk=2` and `topk=8`.\n- A <!-- moelog: metric tflops > 1 -->\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(ParsePredicate(s[0].predicate, "t.md", 1).ok());
  EXPECT_EQ(s[1].existing, "metric tflops > 1");
  EXPECT_TRUE(s[1].predicate.empty());
}

// --write inserts one comment line after the bullet (indented to its
// content, after its continuation lines); every other byte stays.
TEST(Suggest, InsertLeavesProseByteForByte) {
  const std::string crit =
      "- EP vs baseline tables at `topk=2`\n  and `topk=8`.\n- We can state whether EP helps.\n"
      "- EP reaches at least 300 TF/s.";  // no final newline
  const std::string text = std::string(kScope) + "## Stop Criteria\n" + crit;
  const Logbook lb = ParseLogbook(text, "t.md");
  auto s = SuggestPredicates(lb, text);
  ASSERT_EQ(s.size(), 3u);
  int written = 0;
  std::string out = InsertSuggestions(text, s, {}, &written);
  EXPECT_EQ(written, 2);
  EXPECT_NE(out.find("  and `topk=8`.\n  <!-- moelog: table parallel_mode {none,ep} x topk {2,8} -->\n- We can"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("300 TF/s.\n  <!-- moelog: metric tflops >= 300 where parallel_mode=ep -->\n"), std::string::npos)
      << out;
  std::string back;
  for (size_t p = 0; p < out.size();) {
    size_t e = out.find('\n', p);
    e = e == std::string::npos ? out.size() : e + 1;
    if (out.compare(p, 14, "  <!-- moelog:") != 0) back += out.substr(p, e - p);
    p = e;
  }
  EXPECT_EQ(back, text + "\n");
  out = InsertSuggestions(text, s, {3}, &written);
  EXPECT_EQ(written, 1);
  EXPECT_EQ(out.find("table parallel_mode"), std::string::npos);
  // The written predicates are read back as the criteria's predicates.
  const Logbook again = ParseLogbook(InsertSuggestions(text, s, {}, &written), "t.md");
  auto crits = ParseCriteria(StopCriteriaBullets(again, InsertSuggestions(text, s, {}, &written)), "t.md");
  ASSERT_TRUE(crits.ok());
  EXPECT_TRUE((*crits)[0].predicate.has_value());
  EXPECT_FALSE((*crits)[1].predicate.has_value());
}

// Long or odd prose is read in one bounded pass.
TEST(Suggest, LongProseIsBounded) {
  std::string big(200000, 'x');
  for (size_t i = 0; i < big.size(); i += 7) big[i] = ' ';
  EXPECT_EQ(One(big + " vs vs vs ,,, 1,2,3").rfind("manual:", 0), 0u);
}

}  // namespace
}  // namespace moelog::logbook
