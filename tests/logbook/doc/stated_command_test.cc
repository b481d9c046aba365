// Commands composed from an entry's stated flags (stated_command.h): only
// when the shape and the settings the harness would sweep by default are
// stated, no flag of another harness appears, and an earlier entry ran a
// harness script with flags.
#include "logbook/doc/stated_command.h"

#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"
#include "tests/time_bound.h"

namespace moelog::logbook {
namespace {

const char* kBase =
    "# T\n\n## Log\n\n### 2026-01-01 10:00 - S-1: base\n"
    "- Command: `python lib/b/bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2`\n\n";

Logbook Parse(const std::string& entry) { return ParseLogbook(std::string(kBase) + entry, "t.md"); }

TEST(StatedCommand, FixedArgsAlternativesAndLoopsCompose) {
  const Logbook lb = Parse(
      "### 2026-01-01 11:00 - S-2: stated\n- Command(s):\n"
      "  - `parallel_mode=none` on `a` and `parallel_mode=ep --ep-comm-path ring_ag_rs` on `b`:\n"
      "    - `use_custom_sort_vjp in {off, on}`\n"
      "  - Fixed args: `--distribution random --impl fused_w13 --tokens 64 --hidden 64 --mlp-dim 64 --experts 4`\n");
  ASSERT_EQ(lb.entries.size(), 2u);
  const auto& c = lb.entries[1].commands;
  ASSERT_EQ(c.size(), 4u);
  const std::string fixed =
      "python lib/b/bench_moe_hillclimb.py --distribution random --impl fused_w13 --tokens 64 --hidden 64 --mlp-dim 64 "
      "--experts 4";
  EXPECT_EQ(c[0].joined, fixed + " --parallel-mode none");
  EXPECT_EQ(c[1].joined, fixed + " --parallel-mode none --use-custom-sort-vjp");
  EXPECT_EQ(c[3].joined, fixed + " --parallel-mode ep --ep-comm-path ring_ag_rs --use-custom-sort-vjp");
  EXPECT_FALSE(c[0].composed.empty());
}

TEST(StatedCommand, NothingComposedWhenTheStatementIsIncomplete) {
  // The implementation and distribution left out: the harness would run every one.
  EXPECT_TRUE(Parse("### 2026-01-01 11:00 - S-2: open\n- Command:\n"
                    "  - `... --bench-pass forward --parallel-mode none`\n"
                    "  - Fixed shape: `tokens=64 hidden=64 mlp_dim=64 experts=4`\n")
                  .entries[1]
                  .commands.empty());
  // A flag this harness does not have: another harness.
  EXPECT_TRUE(Parse("### 2026-01-01 11:00 - S-2: other\n- Command:\n"
                    "  - Fixed args: `--kernel fused --distribution random --impl fused_w13 --tokens 64 --hidden 64 "
                    "--mlp-dim 64 --experts 4`\n")
                  .entries[1]
                  .commands.empty());
  // No Command field: a plan written elsewhere is not composed.
  EXPECT_TRUE(Parse("### 2026-01-01 11:00 - S-2: plan\n- Ready to run:\n"
                    "  - `--distribution random --impl fused_w13 --tokens 64 --hidden 64 --mlp-dim 64 --experts 4`\n")
                  .entries[1]
                  .commands.empty());
}

TEST(StatedCommand, ElidedCallsOverAFixedConfig) {
  const Logbook lb = Parse(
      "### 2026-01-01 11:00 - S-2: elided\n- Command:\n"
      "  - `ssh h '... --quant-mode none ... && ... --quant-mode int8 ...'`\n"
      "  - fixed config: `tokens=64 hidden=64 mlp_dim=64 experts=4`, `distribution=random`, `impl=fused_w13`\n");
  const auto& c = lb.entries[1].commands;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_NE(c[0].joined.find("--quant-mode none"), std::string::npos) << c[0].joined;
  EXPECT_NE(c[1].joined.find("--quant-mode int8"), std::string::npos) << c[1].joined;
  EXPECT_EQ(c[0].joined.find("ssh"), std::string::npos);
}

// An elided call of many parts that state one key alike: one pass tells
// fixed flags from alternatives (each part's flags were compared with every
// other part's: 150,000 parts took about 45 s); they compose one command.
TEST(StatedCommand, ManyElidedPartsAreLinear) {
  std::string call = "ssh h '...";
  constexpr int kParts = 150000;
  for (int i = 0; i < kParts; ++i) call += " --quant-mode none &&";
  call += " ...'";
  const std::string entry = "### 2026-01-01 11:00 - S-2: elided\n- Command:\n  - `" + call +
                            "`\n  - fixed config: `tokens=64 hidden=64 mlp_dim=64 experts=4`, `distribution=random`, "
                            "`impl=fused_w13`\n";
  const double t0 = test::ProcessCpuSeconds();
  const Logbook lb = Parse(entry);
  const double seconds = test::ProcessCpuSeconds() - t0;
  EXPECT_LT(seconds, test::TimeBound(5.0));  // tells linear (well under a second) from quadratic (45 s); speed is benchmarked, not tested
  ASSERT_EQ(lb.entries.size(), 2u);
  ASSERT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_FALSE(lb.entries[1].commands[0].composed.empty());
  EXPECT_NE(lb.entries[1].commands[0].joined.find("--quant-mode none"), std::string::npos);
}

}  // namespace
}  // namespace moelog::logbook
