// The planner's limits: command text is someone else's, so no text makes the
// planner take unbounded memory or time. Each form that once did is here.
#include <gtest/gtest.h>

#include "tests/time_bound.h"

#include <chrono>
#include <string>

#include "logbook/plan/shell_plan.h"

namespace moelog::logbook {
namespace {

// Unbounded planning of these texts takes hours (exponential words, loops);
// bounded it takes milliseconds. The bound only tells the two apart, with room
// for sanitizers and a loaded machine; speed itself is benchmarked, not tested.
constexpr double kHangSeconds = test::TimeBound(30.0);

double SecondsToPlan(const std::string& text, Plan* plan) {
  const auto t0 = std::chrono::steady_clock::now();
  *plan = PlanCommand(text);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// 41 doublings of one variable would need 2^41 characters (it aborted with
// bad_alloc); the planner stops at the first word past its limit.
TEST(ShellLimits, DoublingVariableIsCannotPlan) {
  std::string text = "X=ab\n";
  for (int i = 0; i < 41; ++i) text += "X=$X$X\n";
  text += "uv run lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 64\n";
  Plan p;
  EXPECT_LT(SecondsToPlan(text, &p), kHangSeconds);
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(p.Summary().find("cannot plan"), std::string::npos) << p.Summary();
  EXPECT_NE(p.Summary().find("expands to more than 65536 characters"), std::string::npos) << p.Summary();
  EXPECT_TRUE(p.invocations.empty());
}

// Many words each below the word limit: the total is capped too.
TEST(ShellLimits, TotalExpandedTextIsCapped) {
  std::string text = "X=";
  text += std::string(60000, 'a') + "\nfor i in";
  for (int i = 0; i < 400; ++i) text += " $X";
  text += "; do :; done\n";
  Plan p;
  EXPECT_LT(SecondsToPlan(text, &p), kHangSeconds);
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(p.reason.find("characters of expanded text"), std::string::npos) << p.Summary();
}

// Five nested loops over 100 literals are 10^10 iterations (it ran for
// minutes); the walk stops at its step limit whatever the loops hold.
TEST(ShellLimits, NestedLoopsStopAtTheStepLimit) {
  std::string list;
  for (int i = 0; i < 100; ++i) list.append(" ").append(std::to_string(i));
  std::string text;
  for (char v = 'a'; v < 'f'; ++v) text.append("for ").append(1, v).append(" in").append(list).append("; do\n");
  text += "echo $a $b $c $d $e\n";
  for (int i = 0; i < 5; ++i) text += "done\n";
  Plan p;
  EXPECT_LT(SecondsToPlan(text, &p), kHangSeconds);
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(p.Summary().find("cannot plan (more than 20000 commands and loop iterations"), std::string::npos)
      << p.Summary();
}

// Each launcher's payload is planned again as a script of its own: 2,000
// nested wrappers ("timeout 10 nice -n 1 " x 2,000, 44 KB) took 5 s and 2.3 GB
// (5,000: 42 s, 9 GB). Launchers nest a few deep; past 32 the plan stops.
TEST(ShellLimits, NestedLaunchersStopAtTheDepthLimit) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "timeout 10 nice -n 1 docker run img ";
  text += "python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2";
  Plan p;
  EXPECT_LT(SecondsToPlan(text, &p), test::TimeBound(5.0));
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid) << p.Summary();
  EXPECT_NE(p.Summary().find("launchers nested more than 32 deep"), std::string::npos) << p.Summary();
  std::string few;
  for (int i = 0; i < 10; ++i) few += "timeout 10 nice -n 1 ";
  EXPECT_EQ(PlanCommand(few + "python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2")
                .verdict,
            PlanVerdict::kRunnable);
}

// The step limit wins over consent: a plan that cannot be walked is not
// offered to bash either.
TEST(ShellLimits, OverBudgetIsNotConsent) {
  std::string list;
  for (int i = 0; i < 400; ++i) list.append(" ").append(std::to_string(i));
  std::string text = "for a in";
  text.append(list).append("; do for b in").append(list).append("; do curl x; done; done");
  const Plan p = PlanCommand(text);
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid) << p.Summary();
}

// A real sweep stays well inside the limits.
TEST(ShellLimits, RealSweepsPlan) {
  const Plan p = PlanCommand(
      "for shape in \"32768 2048 1408 60\" \"32768 2048 2048 64\"; do\n"
      "  read -r TOK H MLP E <<<\"$shape\"\n"
      "  for TK in 2 4 8; do\n"
      "    uv run lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens \"$TOK\" --hidden \"$H\" "
      "--mlp-dim \"$MLP\" --experts \"$E\" --topk \"$TK\"\n"
      "  done\ndone\n");
  EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(p.invocations.size(), 6u);
}

}  // namespace
}  // namespace moelog::logbook
