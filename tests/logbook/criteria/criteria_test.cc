#include "logbook/criteria/criteria.h"
#include "logbook/doc/parse_logbook.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/file_util.h"

namespace moelog::logbook {
namespace {

StoredRun MakeRun(const std::string& id, std::map<std::string, std::string> cfg, double tflops = 0) {
  StoredRun r;
  r.id = id;
  // Controls shared by every run unless overridden.
  std::map<std::string, std::string> base = {{"tokens", "32768"}, {"hidden", "2048"}, {"mlp_dim", "2048"},
                                             {"experts", "64"}, {"topk", "2"}, {"backend", "gmm"},
                                             {"impl", "fused_w13"}, {"bench_pass", "forward_backward"},
                                             {"devices", "4"}, {"quant_mode", "none"}, {"parallel_mode", "ep"},
                                             {"iters", "3"}};
  for (auto& [k, v] : cfg) base[k] = v;
  r.config = base;
  r.target = "cpu";  // measured
  r.host = "h1";
  if (tflops > 0) r.metrics["tflops"] = tflops;
  return r;
}

Criterion Crit(const std::string& predicate) {
  auto p = ParsePredicate(predicate, "log.md", 7);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  Criterion c;
  c.text = "criterion";
  c.line = 7;
  if (p.ok()) c.predicate = p.value();
  return c;
}

CriterionResult Eval(const std::string& predicate, const std::vector<StoredRun>& runs,
                     std::map<std::string, EntryFacts> entries = {}) {
  EvalContext ctx;
  ctx.runs = runs;
  ctx.entries = std::move(entries);
  return Evaluate(Crit(predicate), ctx);
}

TEST(CriteriaParse, AllFormsParse) {
  for (const char* text : {
           "pairs quant_mode=none vs quant_mode=int8 same tokens,hidden,mlp_dim,experts,topk,backend,impl,bench_pass,devices at least 1",
           "sweep topk in {1,2,4,6,8} where quant_mode=int8",
           "table parallel_mode {none,ep} x topk {2,8}",
           "metric tflops >= 200 where parallel_mode=ep, topk in {2,8}",
           "metric all tokens_per_s > 1e5",
           "entry MOE-I8-003 has result",
           "entry MOE-I8-003 has runs at least 2",
           "pairs parallel-mode=none vs parallel-mode=ep where topk=2; table parallel_mode {none,ep} x topk {2,8};",
       }) {
    auto p = ParsePredicate(text, "f.md", 3);
    EXPECT_TRUE(p.ok()) << text << ": " << p.status().ToString();
  }
  auto p = ParsePredicate("pairs pass=forward vs pass=forward_backward at least 3", "f.md", 1);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->clauses[0].left[0].key, "bench_pass");
  EXPECT_EQ(p->clauses[0].at_least, 3);
}

TEST(CriteriaParse, ErrorsCarryFileAndLine) {
  struct Case { const char* text; const char* needle; };
  for (Case c : {Case{"", "empty predicate"},
                 Case{"frobnicate topk", "unknown predicate 'frobnicate'"},
                 Case{"sweep topk in {1,2", "expected ',' or '}'"},
                 Case{"sweep topkk in {1,2}", "unknown config key 'topkk'"},
                 Case{"pairs quant_mode=none quant_mode=int8", "expected 'vs'"},
                 Case{"metric tflops about 3", "expected a comparison"},
                 Case{"metric tflops >= lots", "expected a number"},
                 Case{"pairs a=1", "unknown config key 'a'"},
                 Case{"entry X-1 has nothing", "expected 'result' or 'runs'"},
                 Case{"pairs topk=1 vs topk=2 at least 0", "positive whole number"},
                 Case{"table topk {1} x topk {2}", "given twice"}}) {
    auto p = ParsePredicate(c.text, "logs/a.md", 42);
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.status().code(), Status::Code::kParseError);
    EXPECT_EQ(p.status().message().rfind("logs/a.md:42: ", 0), 0u) << p.status().message();
    EXPECT_NE(p.status().message().find(c.needle), std::string::npos) << p.status().message();
  }
}

// The Stop Criteria bullets of a Markdown text, as `check` reads them.
std::vector<BulletSource> Bullets(const std::string& text) {
  return StopCriteriaBullets(ParseLogbook(text, "t.md"), text);
}

TEST(CriteriaParse, BulletsFromDocumentWithLines) {
  const std::string doc =
      "# T\n\n## Stop Criteria\n"
      "- Direct A/B exists.\n"
      "  <!-- moelog: pairs quant_mode=none vs quant_mode=int8 -->\n"
      "- Sweep done `moelog: sweep topk in {1,2}`\n"
      "- We can state whether int8 helps.\n"
      "\n```\n## Not a heading\n```\n"
      "## Experiment Log\n- not a criterion\n";
  auto bullets = Bullets(doc);
  ASSERT_EQ(bullets.size(), 3u);
  EXPECT_EQ(bullets[0].line, 4);
  EXPECT_EQ(bullets[1].line, 6);
  auto crit = ParseCriteria(bullets, "d.md");
  ASSERT_TRUE(crit.ok()) << crit.status().ToString();
  EXPECT_TRUE((*crit)[0].predicate.has_value());
  EXPECT_EQ((*crit)[0].text, "Direct A/B exists.");
  EXPECT_TRUE((*crit)[1].predicate.has_value());
  EXPECT_EQ((*crit)[1].text, "Sweep done");
  EXPECT_FALSE((*crit)[2].predicate.has_value());

  // moelog's status region under the section is not read as criteria.
  const std::string with_region =
      "## Stop Criteria\n- A <!-- moelog: metric tflops > 1 -->\n"
      "<!-- moelog:begin id=STOP-CRITERIA hash=0 -->\n- **met**: A\n<!-- moelog:end -->\n";
  auto rb = Bullets(with_region);
  ASSERT_EQ(rb.size(), 1u);
  EXPECT_EQ(rb[0].text, "A <!-- moelog: metric tflops > 1 -->");
  EXPECT_FALSE(FindPredicateText("x <!-- moelog:begin id=A hash=1 -->").has_value());

  // A bad predicate on the continuation line is reported at that line.
  const std::string bad = "## Stop Criteria\n- A\n- B\n  <!-- moelog: sweep topk {1} -->\n";
  auto e = ParseCriteria(Bullets(bad), "b.md");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("b.md:4: ", 0), 0u) << e.status().message();
}

// The section is found as the parse sees it: a heading in any case, and
// nothing inside a fence of any length is a heading or a bullet.
TEST(CriteriaParse, HeadingInAnyCaseAndLongFences) {
  const std::string lower = "# T\n\n## Stop criteria\n- A `moelog: sweep topk in {1,2}`\n";
  ASSERT_EQ(Bullets(lower).size(), 1u);
  const std::string fenced =
      "# T\n\n## Stop Criteria\n- A `moelog: sweep topk in {1,2}`\n\n"
      "````md\n```\n## Experiment Log\n- not a criterion\n```\n````\n- B\n";
  auto b = Bullets(fenced);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].text, "B");
  EXPECT_EQ(b[1].line, 12);
  const std::string in_fence = "# T\n\n````\n## Stop Criteria\n```\n- fenced\n````\n";
  EXPECT_TRUE(Bullets(in_fence).empty());
}

TEST(CriteriaEval, PairsMetAndUnmet) {
  const std::string pred = "pairs quant_mode=none vs quant_mode=int8 same tokens,hidden,mlp_dim,experts,topk,backend,impl,bench_pass,devices at least 1";
  std::vector<StoredRun> runs = {MakeRun("r1", {{"quant_mode", "none"}}), MakeRun("r2", {{"quant_mode", "int8"}, {"topk", "8"}})};
  auto r = Eval(pred, runs);
  EXPECT_EQ(r.state, CriterionState::kUnmet);
  EXPECT_NE(r.detail.find("topk 2 vs 8"), std::string::npos) << r.detail;
  runs.push_back(MakeRun("r3", {{"quant_mode", "int8"}, {"iters", "5"}}));  // iters is not a control
  r = Eval(pred, runs);
  EXPECT_EQ(r.state, CriterionState::kMet) << r.detail;
  EXPECT_EQ(r.evidence, (std::vector<std::string>{"r1", "r3"}));
  // Without `same`, every other config key must agree; a different target breaks the pair.
  runs[2].target = "gpu";
  EXPECT_EQ(Eval("pairs quant_mode=none vs quant_mode=int8", runs).state, CriterionState::kUnmet);
  EXPECT_EQ(Eval("pairs quant_mode=none vs quant_mode=int8 at least 2", {MakeRun("a", {}), MakeRun("b", {{"quant_mode", "int8"}})}).state,
            CriterionState::kUnmet);
}

TEST(CriteriaEval, SweepNeedsOneGroupCoveringAllValues) {
  std::vector<StoredRun> runs;
  for (const char* k : {"1", "2", "4", "6"}) runs.push_back(MakeRun(std::string("i") + k, {{"quant_mode", "int8"}, {"topk", k}}));
  runs.push_back(MakeRun("other8", {{"quant_mode", "int8"}, {"topk", "8"}, {"hidden", "3072"}}));  // different shape
  const std::string pred = "sweep topk in {1,2,4,6,8} where quant_mode=int8";
  auto r = Eval(pred, runs);
  EXPECT_EQ(r.state, CriterionState::kUnmet);
  EXPECT_NE(r.detail.find("missing topk=8"), std::string::npos) << r.detail;
  runs.push_back(MakeRun("i8", {{"quant_mode", "int8"}, {"topk", "8.0"}}));
  r = Eval(pred, runs);
  EXPECT_EQ(r.state, CriterionState::kMet) << r.detail;
  EXPECT_EQ(r.evidence.size(), 5u);
  // The where clause filters: no none-mode sweep exists.
  EXPECT_EQ(Eval("sweep topk in {1,2,4,6,8} where quant_mode=none", runs).state, CriterionState::kUnmet);
}

TEST(CriteriaEval, TableCoversCrossProduct) {
  std::vector<StoredRun> runs = {MakeRun("a", {{"parallel_mode", "none"}, {"topk", "2"}}),
                                 MakeRun("b", {{"parallel_mode", "none"}, {"topk", "8"}}),
                                 MakeRun("c", {{"parallel_mode", "ep"}, {"topk", "2"}})};
  const std::string pred = "table parallel_mode {none,ep} x topk {2,8}";
  auto r = Eval(pred, runs);
  EXPECT_EQ(r.state, CriterionState::kUnmet);
  EXPECT_NE(r.detail.find("missing parallel_mode=ep,topk=8"), std::string::npos) << r.detail;
  runs.push_back(MakeRun("d", {{"parallel_mode", "ep"}, {"topk", "8"}}));
  r = Eval(pred, runs);
  EXPECT_EQ(r.state, CriterionState::kMet);
  EXPECT_EQ(r.evidence, (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(CriteriaEval, MetricAnyAndAll) {
  std::vector<StoredRun> runs = {MakeRun("a", {}, 190.0), MakeRun("b", {{"topk", "8"}}, 210.0)};
  EXPECT_EQ(Eval("metric tflops >= 200", runs).state, CriterionState::kMet);
  EXPECT_EQ(Eval("metric tflops >= 200", runs).evidence, std::vector<std::string>{"b"});
  auto r = Eval("metric tflops >= 200 where topk=2", runs);
  EXPECT_EQ(r.state, CriterionState::kUnmet);
  EXPECT_NE(r.detail.find("190"), std::string::npos) << r.detail;
  EXPECT_EQ(Eval("metric all tflops >= 200", runs).state, CriterionState::kUnmet);
  EXPECT_EQ(Eval("metric all tflops > 100", runs).state, CriterionState::kMet);
  EXPECT_EQ(Eval("metric tokens_per_s > 1", runs).state, CriterionState::kUnmet);
}

TEST(CriteriaEval, EntryResultAndRuns) {
  std::map<std::string, EntryFacts> entries = {{"MOE-I8-003", EntryFacts{false}}, {"MOE-I8-001", EntryFacts{true}}};
  EXPECT_EQ(Eval("entry MOE-I8-001 has result", {}, entries).state, CriterionState::kMet);
  EXPECT_EQ(Eval("entry MOE-I8-003 has result", {}, entries).state, CriterionState::kUnmet);
  EXPECT_EQ(Eval("entry MOE-I8-009 has result", {}, entries).state, CriterionState::kUnmet);
  StoredRun r = MakeRun("r1", {});
  r.entry_id = "MOE-I8-003";
  EXPECT_EQ(Eval("entry MOE-I8-003 has runs", {r}, entries).state, CriterionState::kMet);
  EXPECT_EQ(Eval("entry MOE-I8-003 has runs at least 2", {r}, entries).state, CriterionState::kUnmet);
}

TEST(CriteriaEval, AllClausesMustHoldAndManualDoesNotFail) {
  std::vector<StoredRun> runs = {MakeRun("a", {}, 250.0)};
  EXPECT_EQ(Eval("metric tflops > 1; metric tflops > 300", runs).state, CriterionState::kUnmet);
  Criterion manual;
  manual.text = "We can state whether int8 helps.";
  auto results = EvaluateAll({manual, Crit("metric tflops > 1")}, EvalContext{runs, {}});
  EXPECT_EQ(results[0].state, CriterionState::kManual);
  EXPECT_EQ(CheckExitCode(results), kExitOk);
  results.push_back(Evaluate(Crit("metric tflops > 1000"), EvalContext{runs, {}}));
  EXPECT_EQ(CheckExitCode(results), kExitCriteriaUnmet);
  std::string status = RenderCriteriaStatus(results);
  EXPECT_NE(status.find("1 met, 1 unmet, 1 manual"), std::string::npos) << status;
  EXPECT_EQ(FormatCheckLine("x.md", results[1]).rfind("x.md:7: met: criterion [", 0), 0u);
}

TEST(CriteriaEval, RepeatsOfOneConfig) {
  std::vector<StoredRun> runs = {MakeRun("a", {}), MakeRun("b", {{"topk", "8"}})};
  for (auto& r : runs) r.target = "cpu";
  EXPECT_EQ(Eval("repeats", runs).state, CriterionState::kUnmet);
  runs.push_back(MakeRun("c", {{"iters", "9"}}));  // same config, other iteration count
  runs.back().target = "cpu";
  auto r = Eval("repeats where parallel_mode=ep", runs);
  EXPECT_EQ(r.state, CriterionState::kMet) << r.detail;
  EXPECT_EQ(r.evidence, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(Eval("repeats at least 3", runs).state, CriterionState::kUnmet);
  // The v5p model predicts one value per config: two modeled runs of it are
  // one sample, not a reproduction.
  for (auto& run : runs) run.target = "v5p";
  EXPECT_EQ(Eval("repeats where parallel_mode=ep", runs).state, CriterionState::kUnmet);
}

// A prediction is not a measurement: a criterion that modeled runs alone
// would meet is `predicted` (exit 7) unless its predicate accepts modeled
// evidence; unmet wins over predicted.
TEST(CriteriaEval, ModeledEvidenceIsPredictedUnlessAccepted) {
  std::vector<StoredRun> runs = {MakeRun("a", {}, 250.0)};
  runs[0].target = "v5p";
  auto r = Eval("metric tflops > 1", runs);
  EXPECT_EQ(r.state, CriterionState::kPredicted) << r.detail;
  EXPECT_NE(r.detail.find("modeled runs only"), std::string::npos) << r.detail;
  EXPECT_EQ(CheckExitCode({r}), kExitCriteriaPredicted);
  EXPECT_NE(FormatCheckLine("x.md", r).find("x.md:7: predicted: criterion ["), std::string::npos);
  // Unmet wins: one clause predicted, one unmet.
  EXPECT_EQ(Eval("metric tflops > 1; metric tflops > 300", runs).state, CriterionState::kUnmet);
  EXPECT_EQ(CheckExitCode({r, Eval("metric tflops > 300", runs)}), kExitCriteriaUnmet);
  // A predicate may accept predictions; it then says so.
  auto a = Eval("metric tflops > 1 accept modeled", runs);
  EXPECT_EQ(a.state, CriterionState::kMet) << a.detail;
  EXPECT_NE(a.detail.find("met by modeled (v5p) runs only"), std::string::npos) << a.detail;
  EXPECT_EQ(Eval("metric tflops > 1 accept any", runs).state, CriterionState::kMet);
  EXPECT_EQ(Eval("metric tflops > 1 accept measured, modeled where topk=2", runs).state, CriterionState::kMet);
  // A source="modeled" run is modeled on any target; recorded is its own kind.
  runs[0].target = "cpu";
  runs[0].source = "modeled";
  EXPECT_EQ(Eval("metric tflops > 1", runs).state, CriterionState::kPredicted);
  runs[0].source = "recorded";
  EXPECT_EQ(Eval("metric tflops > 1", runs).state, CriterionState::kMet);
  EXPECT_EQ(Eval("metric tflops > 1 accept measured", runs).state, CriterionState::kUnmet);
  runs[0].source = "measured";
  auto m = Eval("metric tflops > 1", runs);
  EXPECT_EQ(m.state, CriterionState::kMet);
  EXPECT_EQ(m.detail.find("modeled"), std::string::npos);
  EXPECT_EQ(CheckExitCode({m}), kExitOk);
}

// Each evidence kind from a run, and the parse of `accept`.
TEST(CriteriaEval, EvidenceKinds) {
  StoredRun r;
  EXPECT_EQ(EvidenceKindOf(r), EvidenceKind::kMeasured);
  r.target = "v5p";
  EXPECT_EQ(EvidenceKindOf(r), EvidenceKind::kModeled);
  r.source = "recorded";
  EXPECT_EQ(EvidenceKindOf(r), EvidenceKind::kRecorded);
  EXPECT_EQ(EvidenceKindsText(kDefaultEvidence), "measured,recorded");
  auto p = ParsePredicate("pairs topk=1 vs topk=2 accept modeled at least 2", "f.md", 1);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->clauses[0].accept, KindBit(EvidenceKind::kModeled));
  EXPECT_EQ(p->clauses[0].at_least, 2);
  auto bad = ParsePredicate("metric tflops > 1 accept guesses", "f.md", 4);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("f.md:4: unknown evidence kind 'guesses'"), std::string::npos)
      << bad.status().message();
  // The same run set with a planned entry's modeled runs: `entry has runs`
  // is predicted, never met, by predictions alone.
  StoredRun planned = MakeRun("p1", {}, 100.0);
  planned.target = "v5p";
  planned.entry_id = "MOE-I8-003";
  EXPECT_EQ(Eval("entry MOE-I8-003 has runs", {planned}).state, CriterionState::kPredicted);
}

// The shipped example logbooks parse: every predicate in recipes/ is valid.
TEST(CriteriaExamples, ShippedPredicatesParse) {
  for (const char* name : {"recipes/moe_ep_int8_criteria.md", "recipes/moe_ep_benchmark_criteria.md"}) {
    auto text = ReadFile(std::string(MOELOG_TEST_DATA_DIR) + "/../" + name);
    ASSERT_TRUE(text.ok()) << name;
    auto crit = ParseCriteria(Bullets(*text), name);
    ASSERT_TRUE(crit.ok()) << crit.status().ToString();
    int with_predicate = 0;
    for (const auto& c : *crit) with_predicate += c.predicate.has_value();
    EXPECT_GE(with_predicate, 2) << name;
  }
}

}  // namespace
}  // namespace moelog::logbook
