#include "logbook/research/next_steps.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>

#include "logbook/criteria/criteria.h"
#include "logbook/criteria/recorded.h"
#include "logbook/doc/parse_logbook.h"
#include "tests/time_bound.h"

namespace moelog::logbook {
namespace {

StoredRun MakeRun(const std::string& id, const std::string& pm, const std::string& topk, double tflops,
              const std::string& source = "recorded") {
  StoredRun r;
  r.id = id;
  r.entry_id = "E-001";
  r.source = source;
  r.config = {{"tokens", "32768"}, {"experts", "60"}, {"parallel_mode", pm}, {"topk", topk}};
  r.metrics["tflops"] = tflops;
  return r;
}

std::string Book(const std::string& criteria) {
  return "# T: Research Logbook\n\n## Scope\n- Goal: x.\n\n## Stop Criteria\n" + criteria +
         "\n## Experiment Log\n### 2026-03-01 09:00 - E-001 Start\n- Hypothesis: h.\n- Result: pending\n";
}

std::vector<Step> StepsOf(const std::string& text, const std::vector<StoredRun>& runs, size_t limit = 10) {
  const Logbook lb = ParseLogbook(text, "t.md");
  auto crit = ParseCriteria(StopCriteriaBullets(lb, text), "t.md", RecordedKeys(lb));
  EXPECT_TRUE(crit.ok()) << crit.status().ToString();
  return CriteriaSteps(lb, text, runs, crit.ok() ? *crit : std::vector<Criterion>{}, limit);
}

// A table missing one cell: the step is that cell, from the run of the
// group nearest it, naming the criterion.
TEST(NextSteps, TheMissingCellOfATable) {
  const std::string text =
      Book("- EP vs baseline table. <!-- moelog: table parallel_mode {none,ep} x topk {2,8} -->\n");
  const auto steps = StepsOf(text, {MakeRun("r1", "none", "2", 190), MakeRun("r2", "ep", "2", 140), MakeRun("r3", "ep", "8", 116)});
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].what, "the missing cell parallel_mode=none, topk=8");
  EXPECT_EQ(ChangesText(steps[0].changes), "topk=8");
  EXPECT_EQ(steps[0].base_run, "r1");
  EXPECT_EQ(steps[0].criterion, "EP vs baseline table.");
  EXPECT_FALSE(steps[0].suggested);
  // Complete: no step.
  EXPECT_TRUE(StepsOf(text, {MakeRun("r1", "none", "2", 190), MakeRun("r2", "ep", "2", 140), MakeRun("r3", "ep", "8", 116),
                             MakeRun("r4", "none", "8", 160)})
                  .empty());
}

// A bullet without a predicate gets the one `check --suggest` reads from
// its prose, marked suggested.
TEST(NextSteps, ProseCriteriaAreReadAsSuggested) {
  const std::string text =
      Book("- We have apples-to-apples EP vs baseline tables for key shapes (`topk=2` and `topk=8` at minimum).\n");
  const auto steps = StepsOf(text, {MakeRun("r1", "none", "2", 190), MakeRun("r2", "ep", "2", 140), MakeRun("r3", "ep", "8", 116)});
  ASSERT_FALSE(steps.empty());
  EXPECT_TRUE(steps[0].suggested) << steps[0].predicate;
  ASSERT_TRUE(steps[0].changes.count("topk")) << steps[0].predicate << ": " << ChangesText(steps[0].changes);
  EXPECT_EQ(steps[0].changes.at("topk"), "8");
  EXPECT_EQ(steps[0].changes.count("parallel_mode"), 0u);
}

// The missing arm of an A/B, and a repeat.
TEST(NextSteps, TheMissingArmAndARepeat) {
  const std::string text = Book(
      "- EP vs none. <!-- moelog: pairs parallel_mode=ep vs parallel_mode=none -->\n"
      "- Reproducible. <!-- moelog: repeats at least 2 where parallel_mode=ep -->\n");
  const auto steps = StepsOf(text, {MakeRun("r2", "ep", "2", 140), MakeRun("r3", "ep", "8", 116)});
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(ChangesText(steps[0].changes), "parallel_mode=none");
  EXPECT_EQ(steps[0].base_run, "r3");
  EXPECT_TRUE(steps[1].changes.empty());
  EXPECT_EQ(steps[1].base_run, "r2") << "the best run is repeated";
}

// A table of 5 axes x 30 values with no run: the steps are bounded.
TEST(NextSteps, AHugeTableIsBounded) {
  std::ostringstream axes;
  bool first_axis = true;
  // 16^4 = 65,536 cells: the largest grid the predicate-cells budget admits.
  for (const char* k : {"topk", "experts", "tokens", "hidden"}) {
    axes << (first_axis ? "" : " x ") << k << " {";
    first_axis = false;
    for (int v = 1; v <= 16; ++v) axes << (v > 1 ? "," : "") << v;
    axes << "}";
  }
  const std::string text = Book("- Big. <!-- moelog: table " + axes.str() + " -->\n");
  const auto t0 = std::chrono::steady_clock::now();
  const auto steps = StepsOf(text, {MakeRun("r1", "none", "2", 190)}, 5);
  EXPECT_EQ(steps.size(), 5u);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), test::TimeBound(1.0));
}

// Another harness, no model: the untried neighbour of the best recorded
// figure, with the interval its recorded pairs show.
TEST(NextSteps, TheRecordsUntriedNeighbour) {
  std::vector<StoredRun> runs = {MakeRun("a", "none", "2", 100), MakeRun("b", "ep", "2", 110), MakeRun("c", "none", "8", 150)};
  const auto steps = RecordSteps(runs, 5);
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps[0].base_run, "c");
  EXPECT_EQ(ChangesText(steps[0].changes), "parallel_mode=ep");
  EXPECT_EQ(steps[0].pairs, 1);
  EXPECT_NEAR(steps[0].estimate, 165, 1e-9);
  bool lower = true;
  EXPECT_EQ(RecordMetric(runs, &lower), "tflops");
  EXPECT_FALSE(lower);
}

}  // namespace
}  // namespace moelog::logbook
