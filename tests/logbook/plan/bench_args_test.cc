#include "logbook/plan/bench_args.h"

#include <gtest/gtest.h>

#include "logbook/store/stored_run.h"

namespace moelog::logbook {
using engine::BenchConfig;
namespace {

Result<BenchConfig> Parse(std::vector<std::string> args) { return ParseBenchArgs(args); }

TEST(BenchConfigTest, DefaultsMatchHarness) {
  auto c = Parse({});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->tokens, 32768);
  EXPECT_EQ(c->hidden, 2048);
  EXPECT_EQ(c->mlp_dim, 4096);
  EXPECT_EQ(c->experts, 8);
  EXPECT_EQ(c->topk, 4);
  EXPECT_EQ(c->impl, "both");
  EXPECT_EQ(c->distribution, "both");
  EXPECT_EQ(c->iters, 5);
  EXPECT_EQ(c->warmup, 2);
  EXPECT_DOUBLE_EQ(c->run_alpha, 0.98);
  EXPECT_EQ(c->target, "cpu");
}

// A flag declared once in engine/bench_flags.cc is parsed, is a key a
// criterion may name, never separates two runs, and leaves the cache key alone.
TEST(BenchConfigTest, TraceStepsIsAcceptedAndChangesNoRun) {
  auto c = Parse({"--trace-steps", "5"});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->trace_steps, 5);
  EXPECT_TRUE(IsKnownRunKey(NormalizeKey("trace-steps")));
  EXPECT_TRUE(IsIgnoredForPairing("trace_steps"));
  EXPECT_EQ(engine::CanonicalConfigJson(*c), engine::CanonicalConfigJson(BenchConfig{}));
  EXPECT_NE(BenchHelp().find("--trace-steps"), std::string::npos);
}

TEST(BenchConfigTest, SweepExpansionFollowsHarnessOrder) {
  auto c = Parse({"--distribution", "both", "--topk-list", "1,2", "--impl", "fast", "--experts", "4",
                  "--queue-mode", "both"});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto runs = ExpandRuns(*c);
  ASSERT_EQ(runs.size(), 8u);
  EXPECT_EQ(runs[0].distribution, "random");
  EXPECT_EQ(runs[0].topk, 1);
  EXPECT_EQ(runs[0].queue_mode, "full");
  EXPECT_EQ(runs[1].queue_mode, "prequeue");
  EXPECT_EQ(runs[2].topk, 2);
  EXPECT_EQ(runs[4].distribution, "runs");
}

TEST(BenchConfigTest, ForwardBackwardForcesFullQueue) {
  auto c = Parse({"--bench-pass", "forward_backward", "--queue-mode", "both", "--impl", "fast", "--distribution", "random"});
  ASSERT_TRUE(c.ok());
  auto runs = ExpandRuns(*c);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].queue_mode, "full");
}

TEST(BenchConfigTest, NullSweepIsTenths) {
  auto c = Parse({"--null-route-sweep"});
  ASSERT_TRUE(c.ok());
  auto f = c->NullFracValues();
  ASSERT_EQ(f.size(), 9u);
  EXPECT_DOUBLE_EQ(f[0], 0.1);
  EXPECT_DOUBLE_EQ(f[8], 0.9);
}

struct BadCase {
  std::vector<std::string> args;
  std::string message;  // substring the error must contain
};

class BenchConfigBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BenchConfigBadInput, NamesTheFlag) {
  auto c = Parse(GetParam().args);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().ExitCode(), 2);
  EXPECT_NE(c.status().message().find(GetParam().message), std::string::npos) << c.status().message();
}

INSTANTIATE_TEST_SUITE_P(
    All, BenchConfigBadInput,
    ::testing::Values(
        BadCase{{"--no-such-flag"}, "--no-such-flag"},
        BadCase{{"--topk-lst", "2"}, "unknown flag --topk-lst (did you mean --topk-list?)"},
        BadCase{{"--target", "v5p", "--devices", "2"}, "--devices: 2: --target v5p models the 4 chips"},
        BadCase{{"--target", "cpu", "--stage-timing", "--bench-pass", "forward_backward"},
                "--stage-timing: on one cpu device only the forward pass"},
        BadCase{{"--impl", "bogus"}, "--impl"},
        BadCase{{"--dtype", "float16"}, "--dtype"},
        BadCase{{"--topk", "9"}, "--topk: topk 9 must satisfy 1 <= topk <= experts (8)"},
        BadCase{{"--topk-list", "2,x"}, "--topk-list: 'x' is not an integer"},
        BadCase{{"--topk-list", "2,9"}, "--topk-list: topk 9"},
        BadCase{{"--topk-list", [] {
                   std::string s = "2";
                   for (int i = 0; i < 256; ++i) s += ",2";
                   return s;
                 }()},
                "--topk-list: 257 values: moelog's limit is 256"},
        BadCase{{"--null-route-frac-list", [] {
                   std::string s = "0.1";
                   for (int i = 0; i < 300; ++i) s += ",0.1";
                   return s;
                 }()},
                "--null-route-frac-list: 301 values: moelog's limit is 256"},
        BadCase{{"--tokens", "0"}, "--tokens: must be positive, got 0"},
        BadCase{{"--hidden", "-4"}, "--hidden: must be positive"},
        BadCase{{"--null-route-frac", "1.0"}, "--null-route-frac: must lie in [0,1)"},
        BadCase{{"--null-route-frac-list", "0.1,1.5"}, "--null-route-frac-list: fraction 1.5 must lie in [0,1)"},
        BadCase{{"--null-route-frac", "0.2", "--capacity-policy", "drop", "--capacity-factor", "1"},
                "null routing requires --capacity-policy none"},
        BadCase{{"--capacity-policy", "pad", "--capacity-factor", "1", "--parallel-mode", "ep"},
                "pad is not allowed with --parallel-mode ep"},
        BadCase{{"--parallel-mode", "ep", "--experts", "6", "--topk", "2"}, "not divisible by the EP size 4"},
        BadCase{{"--parallel-mode", "ep", "--ep-comm-path", "ring_ag_rs", "--tokens", "10"},
                "ring_ag_rs requires tokens (10) divisible by the device count 4"},
        BadCase{{"--devices", "0"}, "--devices: must be positive"},
        BadCase{{"--mesh", "data=2,expert=3", "--parallel-mode", "ep"}, "not divisible by expert axis 3"},
        BadCase{{"--iters", "0"}, "--iters: must be positive"}));

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
using engine::BenchConfig;
namespace {

TEST(BenchConfigTest, ReusedParserStartsFromDefaults) {
  auto a = ParseBenchArgs({"--tokens", "128", "--shared-fused", "--topk-list", "1,2"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->tokens, 128);
  EXPECT_TRUE(a->shared_fused);
  auto bad = ParseBenchArgs({"--impl", "nope"});
  EXPECT_FALSE(bad.ok());
  auto b = ParseBenchArgs({});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->tokens, 32768);
  EXPECT_FALSE(b->shared_fused);
  EXPECT_TRUE(b->topk_list.empty());
  EXPECT_EQ(b->impl, "both");
}

}  // namespace
}  // namespace moelog::logbook
