#include "logbook/research/next.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <variant>
#include <string>

#include "engine/bench_flags.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"
#include "logbook/research/next_internal.h"

namespace moelog::logbook {
namespace {

const engine::v5p::Hardware& Hw() {
  static const engine::v5p::Hardware hw = *engine::v5p::LoadHardwareByName("v5p");
  return hw;
}
const engine::v5p::ModelParams& Params() {
  static const engine::v5p::ModelParams p = *engine::v5p::LoadParamsByName("");
  return p;
}

std::map<std::string, std::string> StartConfig() {
  return {{"tokens", "32768"}, {"hidden", "2048"}, {"mlp_dim", "1408"}, {"experts", "60"}, {"topk", "8"},
          {"shared_expert_dim", "5632"}, {"backend", "gmm"}, {"impl", "fused_w13"}, {"distribution", "random"},
          {"routing_pack_strategy", "argsort"}, {"queue_mode", "full"}, {"remat_mode", "expert_mlp"},
          {"bench_pass", "forward_backward"}, {"parallel_mode", "none"}, {"iters", "3"}, {"warmup", "1"}};
}

// Every combination that can differ is predicted once, from one routing, and
// agrees with predicting the configuration on its own.
TEST(NextSearch, SharedRoutingCoversTheSpaceAndAgrees) {
  StoredRun r;
  r.config = StartConfig();
  auto anchor = ConfigOfRun(r);
  ASSERT_TRUE(anchor.ok()) << anchor.status().ToString();
  int tried = 0;
  auto cands = SearchConfigs(*anchor, DefaultSearchAxes(), Hw(), Params(), &tried);
  ASSERT_TRUE(cands.ok()) << cands.status().ToString();
  EXPECT_EQ(tried, static_cast<int>(cands->size()));
  EXPECT_GT(tried, 10000);
  int unchanged = 0;
  for (const auto& c : *cands) {
    unchanged += c.changes.empty();
    // EP keys change only with EP.
    if (c.changes.count("ep_comm_path")) {
      auto pm = c.changes.find("parallel_mode");
      EXPECT_TRUE(pm != c.changes.end() && pm->second == "ep");
    }
  }
  EXPECT_EQ(unchanged, 1);
  auto self = PredictConfig(*anchor, Hw(), Params());
  ASSERT_TRUE(self.ok());
  for (const auto& c : *cands) {
    if (!c.changes.empty()) continue;
    EXPECT_DOUBLE_EQ(c.time_s, self->time_s);
    EXPECT_GT(c.tflops, 100.0);
    EXPECT_FALSE(c.dominant.empty());
  }
  engine::BenchConfig ep = *anchor;
  ep.parallel_mode = "ep";
  auto ep_alone = PredictConfig(ep, Hw(), Params());
  ASSERT_TRUE(ep_alone.ok());
  bool found = false;
  for (const auto& c : *cands)
    if (c.changes == std::map<std::string, std::string>{{"parallel_mode", "ep"}}) {
      found = true;
      EXPECT_DOUBLE_EQ(c.time_s, ep_alone->time_s);
    }
  EXPECT_TRUE(found);
}

std::string ClimbText() {
  auto t = ReadFile(std::string(MOELOG_TEST_DATA_DIR) + "/cli/next/climb_logbook.md");
  EXPECT_TRUE(t.ok());
  return t.ok() ? *t : "";
}

// From a slow modeled start: validated proposals that beat it, ranked by
// expected improvement, each with an interval, a dominant term and the
// criterion it serves; unvalidated paths apart; the entry appended in the
// logbook's style after the last entry, nothing else changed.
TEST(NextPropose, BeatsTheStartAndAppendsAnEntry) {
  const std::string text = ClimbText();
  const Logbook lb = ParseLogbook(text, "climb.md");
  StoredRun start;
  start.id = "r1";
  start.config = StartConfig();
  start.entry_id = "CLIMB-001";
  start.target = "v5p";
  start.source = "modeled";
  auto self = PredictConfig(*ConfigOfRun(start), Hw(), Params());
  ASSERT_TRUE(self.ok());
  start.metrics["tflops"] = self->tflops;
  auto crit = ParseCriteria(StopCriteriaBullets(lb, text), "climb.md");
  ASSERT_TRUE(crit.ok());
  NextOptions opt;
  opt.count = 3;
  auto rep = ProposeNext(lb, {start}, *crit, opt);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  EXPECT_EQ(rep->best_kind, "modeled");
  EXPECT_NEAR(rep->best_modeled, self->tflops, 1e-9 * self->tflops);
  ASSERT_FALSE(rep->validated.empty()) << FormatNextReport(*rep);
  EXPECT_LE(rep->validated.size(), 3u);
  for (size_t i = 0; i < rep->validated.size(); ++i) {
    const auto& p = rep->validated[i];
    EXPECT_GT(p.gain_pct, 0);
    EXPECT_TRUE(p.candidate.unvalidated.empty());
    EXPECT_EQ(p.candidate.changes.at("parallel_mode"), "ep");
    if (p.band > 0) {
      EXPECT_LT(p.lo, p.predicted);
      EXPECT_GT(p.hi, p.predicted);
    }
    if (i > 0) {
      EXPECT_GE(rep->validated[i - 1].expected_improvement, p.expected_improvement);
    }
    EXPECT_FALSE(p.candidate.dominant.empty());
  }
  EXPECT_EQ(rep->validated[0].serves, "The model predicts at least 320 TF/s at this shape.");
  for (const auto& p : rep->unvalidated) EXPECT_FALSE(p.candidate.unvalidated.empty());
  std::string id;
  auto out = AppendProposalEntry(lb, text, *rep, "2026-03-02 08:00", &id);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(id, "CLIMB-002");
  EXPECT_EQ(out->rfind(text, 0), 0u) << "the existing text must stay a prefix";
  const Logbook again = ParseLogbook(*out, "climb.md");
  ASSERT_EQ(again.entries.size(), 2u);
  EXPECT_EQ(again.entries[1].id, "CLIMB-002");
  EXPECT_EQ(again.entries[1].confidence, "exploratory");
  const std::string added = out->substr(text.size());
  EXPECT_NE(added.find("- Result: pending\n"), std::string::npos) << added;
  EXPECT_NE(added.find("- Hypothesis: the v5p model predicts "), std::string::npos) << added;
  EXPECT_NE(added.find("--parallel-mode ep"), std::string::npos) << added;
  EXPECT_EQ(added.find("for rm in"), std::string::npos) << "the loop is dropped: " << added;
  EXPECT_EQ(added.find("\"$rm\""), std::string::npos) << "loop variables are resolved: " << added;
}

// The searched keys take their values from the flag registry: every choice
// but the sweep marker "both", false/true for a switch: 11 keys, 77,760
// combinations before those whose keys cannot matter are pruned.
TEST(NextSearch, AxesComeFromTheFlagRegistry) {
  const auto axes = DefaultSearchAxes();
  ASSERT_EQ(axes.size(), 11u);
  size_t combos = 1;
  for (const auto& a : axes) {
    const engine::FlagSpec* f = engine::FindRunKey(a.key);
    ASSERT_NE(f, nullptr) << a.key;
    std::vector<std::string> want;
    if (std::holds_alternative<bool engine::BenchConfig::*>(f->field)) want = {"false", "true"};
    for (const auto& v : f->choices)
      if (v != "both") want.push_back(v);
    EXPECT_EQ(a.values, want) << a.key;
    EXPECT_EQ(std::find(a.values.begin(), a.values.end(), "both"), a.values.end()) << a.key;
    combos *= a.values.size();
  }
  EXPECT_EQ(combos, 3u * 3 * 3 * 2 * 3 * 2 * 6 * 5 * 2 * 2 * 2);
}

// The Scope frees shape keys only when it says they may vary, with the
// values it lists; what it holds ("except", "may not vary") stays held.
TEST(NextScope, FreesWhatTheScopeSaysMayVary) {
  auto freed = [](const std::string& bullets) {
    return ScopeFreedShapeKeys(ParseLogbook("# L\n\n## Scope\n" + bullets + "\n## Experiment Log\n", "l.md"));
  };
  using Freed = std::map<std::string, std::vector<std::string>>;
  EXPECT_EQ(freed("- What may vary: top-k (`2, 4, 8`) and the number of experts.\n"),
            (Freed{{"topk", {"2", "4", "8"}}, {"experts", {}}}));
  EXPECT_EQ(freed("- Free to vary: `topk` in {4,8}; `--mlp-dim` = 2048\n"),
            (Freed{{"topk", {"4", "8"}}, {"mlp_dim", {"2048"}}}));
  EXPECT_TRUE(freed("- Constraints: same shape, backend, impl, pass mode and device count.\n").empty());
  EXPECT_TRUE(freed("- The shape may not vary; top-k is fixed at 8.\n").empty());
  EXPECT_TRUE(freed("- What may vary: anything in the harness except the shape.\n").empty());
  const Freed all_but_tokens = freed("- The shape may vary, except tokens.\n");
  EXPECT_EQ(all_but_tokens.size(), 8u);
  EXPECT_FALSE(all_but_tokens.count("tokens"));
  EXPECT_TRUE(all_but_tokens.count("topk"));
  // Tokens/s is a metric, not the token count.
  EXPECT_TRUE(freed("- What may vary: anything that raises tokens/s.\n").empty());
}

// With the Scope holding the shape, no proposal changes a shape key; when it
// frees top-k, every listed top-k is a shape searched (with its own routing)
// and proposals may change it.
TEST(NextPropose, HoldsTheShapeUnlessTheScopeFreesIt) {
  StoredRun start;
  start.id = "r1";
  start.config = StartConfig();
  start.entry_id = "CLIMB-001";
  start.target = "v5p";
  start.source = "modeled";
  start.metrics["tflops"] = PredictConfig(*ConfigOfRun(start), Hw(), Params())->tflops;
  NextOptions opt;
  opt.count = 50;
  const std::string held_text = ClimbText();
  auto held = ProposeNext(ParseLogbook(held_text, "climb.md"), {start}, {}, opt);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  EXPECT_TRUE(held->freed.empty());
  EXPECT_EQ(held->shapes, 1);
  const std::set<std::string> shape_keys = {"tokens", "hidden", "mlp_dim", "experts", "topk",
                                            "shared_expert_dim", "bench_pass", "distribution", "dtype"};
  for (const auto* list : {&held->validated, &held->unvalidated})
    for (const auto& p : *list)
      for (const auto& [k, v] : p.candidate.changes) EXPECT_FALSE(shape_keys.count(k)) << k << "=" << v;
  EXPECT_NE(FormatNextReport(*held).find("held (the Scope frees no shape key)"), std::string::npos);

  std::string free_text = held_text;
  const std::string constraints = "- Constraints: same shape, backend, pass mode and device count.\n";
  ASSERT_NE(free_text.find(constraints), std::string::npos);
  free_text.replace(free_text.find(constraints), constraints.size(),
                    "- Constraints: same backend, pass mode and device count.\n- What may vary: top-k in {4, 16}.\n");
  auto freed = ProposeNext(ParseLogbook(free_text, "climb.md"), {start}, {}, opt);
  ASSERT_TRUE(freed.ok()) << freed.status().ToString();
  EXPECT_EQ(freed->freed, (std::map<std::string, std::vector<std::string>>{{"topk", {"8", "4", "16"}}}));
  EXPECT_EQ(freed->shapes, 3);
  EXPECT_GT(freed->searched, 2 * held->searched);
  int topk_changed = 0;
  for (const auto* list : {&freed->validated, &freed->unvalidated})
    for (const auto& p : *list) {
      auto it = p.candidate.changes.find("topk");
      if (it == p.candidate.changes.end()) continue;
      ++topk_changed;
      EXPECT_EQ(std::to_string(p.config.topk), it->second);
    }
  EXPECT_GT(topk_changed, 0) << FormatNextReport(*freed);
  EXPECT_NE(FormatNextReport(*freed).find("the Scope frees topk {8,4,16}: 3 shapes searched"), std::string::npos)
      << FormatNextReport(*freed);
}

// Without a figure to start from it is no error: a report with no
// candidate and the reason (exit 0), and nothing to append.
TEST(NextPropose, NothingToStartFrom) {
  const std::string text = ClimbText();
  const Logbook lb = ParseLogbook(text, "climb.md");
  auto rep = ProposeNext(lb, {}, {}, NextOptions{});
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  EXPECT_EQ(FirstProposal(*rep), nullptr);
  EXPECT_NE(FormatNextReport(*rep).find("no candidate: no run of the hillclimb harness"), std::string::npos)
      << FormatNextReport(*rep);
  NextReport empty;
  empty.none_why = "nothing beats it";
  auto out = AppendProposalEntry(lb, text, empty, "2026-03-02 08:00", nullptr);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("nothing beats it"), std::string::npos);
}

// An unvalidated path is exploration with an interval (the wide prior),
// never a point; no two proposals share a figure.
TEST(NextPropose, ExplorationHasAnIntervalAndNoFigureRepeats) {
  const std::string text = ClimbText();
  const Logbook lb = ParseLogbook(text, "climb.md");
  StoredRun start;
  start.id = "r1";
  start.config = StartConfig();
  start.entry_id = "CLIMB-001";
  start.target = "v5p";
  start.source = "modeled";
  start.metrics["tflops"] = PredictConfig(*ConfigOfRun(start), Hw(), Params())->tflops;
  NextOptions opt;
  opt.count = 10;
  auto rep = ProposeNext(lb, {start}, {}, opt);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  ASSERT_FALSE(rep->unvalidated.empty()) << FormatNextReport(*rep);
  for (const auto& p : rep->unvalidated) {
    EXPECT_TRUE(p.exploration);
    EXPECT_LT(p.lo, p.predicted * 0.96) << "a wide interval, not a point";
    EXPECT_GT(p.hi, p.predicted * 1.04);
  }
  for (const auto* list : {&rep->validated, &rep->unvalidated})
    for (size_t i = 0; i < list->size(); ++i)
      for (size_t j = i + 1; j < list->size(); ++j)
        EXPECT_NE((*list)[i].uncalibrated, (*list)[j].uncalibrated)
            << ChangesText((*list)[i].candidate.changes) << " vs " << ChangesText((*list)[j].candidate.changes);
  const std::string report = FormatNextReport(*rep);
  EXPECT_NE(report.find("exploration: unvalidated paths"), std::string::npos) << report;
}

Proposal Explored(std::map<std::string, std::string> changes, double lo, double hi, double fig) {
  Proposal p;
  p.candidate.changes = std::move(changes);
  p.lo = lo;
  p.hi = hi;
  p.uncalibrated = p.predicted = fig;
  p.exploration = true;
  return p;
}

// A combination is proposed after its single-key parts however high its
// interval; an interval wholly below the best is left out; equal figures fold.
TEST(NextExplore, CombinationsNeverRankAboveTheirParts) {
  std::vector<Proposal> in;
  in.push_back(Explored({{"a", "1"}, {"b", "1"}, {"c", "1"}, {"d", "1"}}, 500, 900, 700));
  in.push_back(Explored({{"a", "1"}}, 250, 350, 300));
  in.push_back(Explored({{"b", "1"}}, 260, 340, 310));
  in.push_back(Explored({{"c", "1"}}, 100, 200, 150));  // cannot beat 290
  in.push_back(Explored({{"d", "1"}, {"e", "1"}}, 400, 600, 500));
  in.push_back(Explored({{"e", "1"}, {"f", "1"}}, 390, 610, 500));  // same figure as d+e
  const auto out = next_internal::RankExploration(in, 290, 10);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(ChangesText(out[0].candidate.changes), "b=1");  // the higher lower end first
  EXPECT_EQ(ChangesText(out[1].candidate.changes), "a=1");
  EXPECT_EQ(out[2].candidate.changes.size(), 2u);
  EXPECT_EQ(out[3].candidate.changes.size(), 4u);
}

// The prior is the wider of the leave-one-path-out band and the logbook's
// first measurements of a path, and widens per unvalidated key.
TEST(NextExplore, PriorIsTheWidestLearnedErrorCompoundedPerKey) {
  const auto lopo = next_internal::ExplorationPrior(0.85, 1.2, {});
  EXPECT_DOUBLE_EQ(lopo.lo, 0.85);
  EXPECT_DOUBLE_EQ(lopo.hi, 1.2);
  const auto hist = next_internal::ExplorationPrior(0.85, 1.2, {0.7, 1.1, 1.05});
  EXPECT_DOUBLE_EQ(hist.lo, 0.7);  // the logbook's history was further off
  EXPECT_DOUBLE_EQ(hist.hi, 1.2);
  EXPECT_EQ(hist.history, 3);
  const auto point = next_internal::ExplorationPrior(1.0, 1.0, {});
  EXPECT_LE(point.lo, 0.95);  // never a point
  EXPECT_GE(point.hi, 1.05);
  const auto one = next_internal::CompoundPrior(hist, 1), two = next_internal::CompoundPrior(hist, 2);
  EXPECT_DOUBLE_EQ(one.first, hist.lo);
  EXPECT_LT(two.first, one.first);
  EXPECT_GT(two.second, one.second);
}

// On a logbook: every exploration interval is at least as wide as the prior
// learned, and the key counts never decrease down the list.
TEST(NextPropose, ExplorationIsAtLeastThePriorAndFewestKeysFirst) {
  const std::string text = ClimbText();
  const Logbook lb = ParseLogbook(text, "climb.md");
  StoredRun start;
  start.id = "r1";
  start.config = StartConfig();
  start.entry_id = "CLIMB-001";
  start.target = "v5p";
  start.source = "modeled";
  start.metrics["tflops"] = PredictConfig(*ConfigOfRun(start), Hw(), Params())->tflops;
  NextOptions opt;
  opt.count = 10;
  auto rep = ProposeNext(lb, {start}, {}, opt);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  ASSERT_FALSE(rep->unvalidated.empty()) << FormatNextReport(*rep);
  EXPECT_LE(rep->prior.lo, 0.95);
  EXPECT_GE(rep->prior.hi, 1.05);
  for (size_t i = 0; i < rep->unvalidated.size(); ++i) {
    const Proposal& p = rep->unvalidated[i];
    EXPECT_LE(p.lo, p.predicted * rep->prior.lo * (1 + 1e-12)) << ChangesText(p.candidate.changes);
    EXPECT_GE(p.hi, p.predicted * rep->prior.hi * (1 - 1e-12)) << ChangesText(p.candidate.changes);
    if (i > 0) {
      EXPECT_GE(p.candidate.changes.size(), rep->unvalidated[i - 1].candidate.changes.size());
    }
  }
}

}  // namespace
}  // namespace moelog::logbook
