// Each budget of logbook/budgets.h: work at the limit is done, work just over
// it stops with a message naming the budget.
#include "logbook/budgets.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "logbook/criteria/criteria.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/run/output_parse.h"

namespace moelog::logbook {
namespace {

size_t Limit(BudgetId id) { return static_cast<size_t>(BudgetLimit(id)); }

TEST(Budgets, OneRowPerBudgetEachNamed) {
  std::set<int> ids;
  std::set<std::string> names;
  for (const Budget& b : kBudgets) {
    EXPECT_TRUE(ids.insert(static_cast<int>(b.id)).second) << b.name;
    EXPECT_TRUE(names.insert(b.name).second) << b.name;
    EXPECT_GT(b.limit, 0) << b.name;
    EXPECT_EQ(&BudgetOf(b.id), &b) << b.name;
    const std::string said = OverBudget(b.id);
    EXPECT_NE(said.find(std::string("(budget ") + b.name + ")"), std::string::npos) << said;
    EXPECT_NE(said.find("more than " + std::to_string(b.limit)), std::string::npos) << said;
  }
}

// A traced call's output of `n` RESULT lines (a script may write its trace).
std::string ResultLines(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += "RESULT distribution=random mode=full impl=fused_w13 topk=2 time_ms=" + std::to_string(i + 1) + "\n";
  return out;
}

TEST(Budgets, ResultRowsPerTracedCall) {
  const size_t limit = Limit(BudgetId::kResultRowsPerCall);
  const ParsedOutput at = ParseHarnessOutput(ResultLines(limit), limit);
  EXPECT_FALSE(at.over_budget);
  EXPECT_EQ(at.runs.size(), limit);
  const ParsedOutput over = ParseHarnessOutput(ResultLines(limit + 1), limit);
  EXPECT_TRUE(over.over_budget);
  EXPECT_EQ(over.runs.size(), limit);  // the rest is not even read
}

// "table topk {..} x tokens {..} ...": axes of `sizes` values each.
std::string TablePredicate(const std::vector<size_t>& sizes) {
  static const char* kKeys[] = {"topk", "tokens", "hidden", "mlp_dim", "experts"};
  std::string p = "table";
  for (size_t a = 0; a < sizes.size(); ++a) {
    p += std::string(a ? " x " : " ") + kKeys[a] + " {";
    for (size_t v = 0; v < sizes[a]; ++v) p += (v ? "," : "") + std::to_string(v + 1);
    p += "}";
  }
  return p;
}

TEST(Budgets, PredicateCells) {
  ASSERT_EQ(Limit(BudgetId::kPredicateCells), size_t{16 * 16 * 16 * 16});
  auto at = ParsePredicate(TablePredicate({16, 16, 16, 16}), "log.md", 4);
  EXPECT_TRUE(at.ok()) << at.status().ToString();
  // The shape: 5 axes x 30 values (24 M cells) is refused when read.
  for (const auto& sizes : {std::vector<size_t>{16, 16, 16, 16, 2}, std::vector<size_t>{30, 30, 30, 30, 30}}) {
    auto over = ParsePredicate(TablePredicate(sizes), "log.md", 4);
    ASSERT_FALSE(over.ok());
    EXPECT_NE(over.status().message().find("log.md:4"), std::string::npos) << over.status().message();
    EXPECT_NE(over.status().message().find("(budget predicate-cells)"), std::string::npos) << over.status().message();
  }
}

// A logbook whose second entry is "same as" the first with one flag, the
// first's command padded so the resolved command is `chars` long.
Logbook SameAsLogbook(size_t chars) {
  const std::string head = "python bench_moe_hillclimb.py --tokens 64 --label ";
  const std::string flags = " --topk 2";
  const std::string base = head + std::string(chars - head.size() - flags.size(), 'a');
  const std::string text = "# Same as\n\n## Experiment Log\n### 2026-11-24 10:00 - A-001 base\n- Command: `" + base +
                           "`\n\n### 2026-11-24 10:10 - A-002 again\n- Command: same as A-001 with `--topk 2`\n";
  return ParseLogbook(text, "same.md");
}

TEST(Budgets, SameAsCommandChars) {
  const size_t limit = Limit(BudgetId::kSameAsCommandChars);
  const Logbook at = SameAsLogbook(limit);
  ASSERT_EQ(at.entries.size(), 2u);
  ASSERT_EQ(at.entries[1].commands.size(), 1u);
  EXPECT_EQ(at.entries[1].commands[0].joined.size(), limit);
  const Logbook over = SameAsLogbook(limit + 1);
  ASSERT_EQ(over.entries.size(), 2u);
  EXPECT_TRUE(over.entries[1].commands.empty());
  bool said = false;
  for (const auto& d : over.diagnostics)
    said = said || (d.line == 8 && d.message.find("(budget same-as-command-chars)") != std::string::npos);
  EXPECT_TRUE(said) << "no diagnostic names the budget";
}

TEST(Budgets, ChainedSameAsStaysLinear) {
  // 1,000 entries, each the one before with a flag more: each command grows
  // by the flag until the budget stops the chain, so the whole costs little.
  std::string text = "# Chain\n\n## Experiment Log\n### 2026-11-24 10:00 - C-0000 base\n"
                     "- Command: `python bench_moe_hillclimb.py --tokens 64 --topk 2`\n";
  for (int i = 1; i < 1000; ++i) {
    char id[16], prev[16];
    std::snprintf(id, sizeof id, "C-%04d", i);
    std::snprintf(prev, sizeof prev, "C-%04d", i - 1);
    text += std::string("\n### 2026-11-24 10:00 - ") + id + " step\n- Command: same as " + prev + " with `--label " +
            std::string(100, 'x') + "`\n";
  }
  const Logbook lb = ParseLogbook(text, "chain.md");
  size_t total = 0;
  for (const auto& e : lb.entries)
    for (const auto& c : e.commands) total += c.joined.size();
  EXPECT_LT(total, size_t{1000} * Limit(BudgetId::kSameAsCommandChars));
  EXPECT_FALSE(lb.diagnostics.empty());
}

StoredRun PairRun(const std::string& id, const std::string& mode) {
  StoredRun r;
  r.id = id;
  r.target = "cpu";
  r.config = {{"quant_mode", mode}, {"tokens", "64"}, {"topk", "2"}};
  r.metrics["tflops"] = 1;
  return r;
}

TEST(Budgets, CriterionPairs) {
  // 1,001 x 1,000 candidate pairs: one over the budget, refused before any pair is compared.
  ASSERT_EQ(Limit(BudgetId::kCriterionPairs), size_t{1000} * 1000);
  EvalContext ctx;
  for (int i = 0; i < 1001; ++i) ctx.runs.push_back(PairRun("a" + std::to_string(i), "none"));
  for (int i = 0; i < 1000; ++i) ctx.runs.push_back(PairRun("b" + std::to_string(i), "int8"));
  auto p = ParsePredicate("pairs quant_mode=none vs quant_mode=int8", "log.md", 3);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Criterion c;
  c.text = "pairs";
  c.line = 3;
  c.predicate = *p;
  const CriterionResult over = Evaluate(c, ctx);
  EXPECT_NE(over.state, CriterionState::kMet);
  EXPECT_NE(over.detail.find("(budget criterion-pairs)"), std::string::npos) << over.detail;
  // A few runs under it pair as before.
  ctx.runs.resize(3);
  ctx.runs.push_back(PairRun("b0", "int8"));
  const CriterionResult under = Evaluate(c, ctx);
  EXPECT_EQ(under.state, CriterionState::kMet) << under.detail;
}

}  // namespace
}  // namespace moelog::logbook
