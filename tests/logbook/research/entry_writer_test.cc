#include "logbook/research/entry_writer.h"

#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/research/next.h"

namespace moelog::logbook {
namespace {

// A logbook whose latest harness command is a script written by a
// here-document that holds a Markdown heading and a moelog pin comment.
const char* const kHeredocLogbook =
    "# Heredoc: Research Logbook\n"
    "\n"
    "## Scope\n"
    "- Goal: throughput.\n"
    "\n"
    "## Stop Criteria\n"
    "- The model predicts at least 900 TF/s. <!-- moelog: metric tflops >= 900 accept modeled -->\n"
    "\n"
    "## Experiment ID Prefix\n"
    "- `HD`\n"
    "\n"
    "## Experiment Log\n"
    "### 2026-03-01 09:00 - HD-001 Start\n"
    "- Hypothesis: a start.\n"
    "- Command:\n"
    "  ```bash\n"
    "  cat > /tmp/notes.md <<'EOF'\n"
    "  ## not a heading\n"
    "  <!-- moelog: quant_mode=int8 -->\n"
    "  EOF\n"
    "  .venv/bin/python lib/levanter/scripts/bench/bench_moe_hillclimb.py --distribution random --tokens 32768 "
    "--hidden 2048 --mlp-dim 1408 --experts 60 --topk 8 --shared-expert-dim 5632 --backend gmm --impl fused_w13 "
    "--routing-pack-strategy argsort --queue-mode full --remat-mode expert_mlp --bench-pass forward_backward "
    "--parallel-mode none --iters 3 --warmup 1\n"
    "  ```\n"
    "- Result: pending\n";

EntryIntent HeredocIntent() {
  EntryIntent in;
  in.heading = "2026-03-02 10:00 - HD-002 Next: a script";
  in.id = "HD-002";
  in.before = {{"Hypothesis", "a here-document stays a here-document."}};
  in.commands = {"cat > /tmp/n.md <<'EOF'\n## Stop Criteria\n<!-- moelog: quant_mode=int8 -->\n```\nEOF\nbash run.sh"};
  in.after = {{"Result", "pending"}};
  return in;
}

// What a writer that splices a multi-line command into inline code wrote:
// the parse-back check names the heading and the pin it would create.
TEST(EntryWriter, ASplicedHereDocumentIsCaught) {
  const std::string text = kHeredocLogbook;
  const Logbook lb = ParseLogbook(text, "hd.md");
  const EntryIntent in = HeredocIntent();
  const std::string spliced = text + "\n### " + in.heading + "\n- Hypothesis: x\n- Command: `" + in.commands[0] +
                              "`\n- Result: pending\n";
  const Logbook after = ParseLogbook(spliced, "hd.md");
  const auto diffs = ParseBackDifferences(lb, text, after, spliced, in);
  ASSERT_FALSE(diffs.empty());
  std::string all;
  for (const auto& d : diffs) all += d + "\n";
  EXPECT_NE(all.find("section"), std::string::npos) << all;
}

// A multi-line command is written as a fenced block, in the logbook's
// fence info, with a fence longer than any backtick run; it parses back
// as the same command, with no heading, pin or criterion added.
TEST(EntryWriter, AHereDocumentIsWrittenFencedAndReadsBack) {
  const std::string text = kHeredocLogbook;
  const Logbook lb = ParseLogbook(text, "hd.md");
  const EntryIntent in = HeredocIntent();
  EXPECT_FALSE(FitsInline(in.commands[0]));
  auto out = AppendEntry(lb, text, in);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->rfind(text, 0), 0u);
  EXPECT_NE(out->find("  ````bash\n  cat > /tmp/n.md"), std::string::npos) << *out;
  const Logbook again = ParseLogbook(*out, "hd.md");
  ASSERT_EQ(again.entries.size(), 2u);
  EXPECT_EQ(again.entries[1].id, "HD-002");
  ASSERT_EQ(again.entries[1].commands.size(), 1u);
  EXPECT_TRUE(again.entries[1].commands[0].fenced);
  EXPECT_TRUE(again.pins.empty());
  EXPECT_TRUE(again.entries[1].pins.empty());
  EXPECT_EQ(again.sections.size(), lb.sections.size());
}

// One-line commands stay inline code; a backtick forces a block.
TEST(EntryWriter, OneLineCommandsStayInline) {
  EXPECT_TRUE(FitsInline("python bench.py --topk 8"));
  EXPECT_FALSE(FitsInline("echo `date`"));
  EXPECT_FALSE(FitsInline("a\nb"));
  EXPECT_FALSE(FitsInline(""));
  EntryIntent in;
  in.heading = "2026-03-02 10:00 - X";
  in.commands = {"python bench.py --topk 8"};
  EXPECT_NE(ComposeEntry(in, "bash").find("- Command: `python bench.py --topk 8`\n"), std::string::npos);
}

// `next --write` from a logbook whose harness command is such a script:
// the new entry's command is the script with the proposal's flags, fenced;
// the here-document's heading and pin stay inside it.
TEST(EntryWriter, NextWritesTheScriptFenced) {
  const std::string text = kHeredocLogbook;
  const Logbook lb = ParseLogbook(text, "hd.md");
  StoredRun start;
  start.id = "r1";
  start.entry_id = "HD-001";
  start.target = "v5p";
  start.source = "modeled";
  start.config = {{"tokens", "32768"}, {"hidden", "2048"}, {"mlp_dim", "1408"}, {"experts", "60"}, {"topk", "8"},
                  {"shared_expert_dim", "5632"}, {"backend", "gmm"}, {"impl", "fused_w13"},
                  {"distribution", "random"}, {"routing_pack_strategy", "argsort"}, {"queue_mode", "full"},
                  {"remat_mode", "expert_mlp"}, {"bench_pass", "forward_backward"}, {"parallel_mode", "none"}};
  start.metrics["tflops"] = 100;
  NextOptions opt;
  opt.text = text;
  auto rep = ProposeNext(lb, {start}, {}, opt);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  ASSERT_NE(FirstProposal(*rep), nullptr) << FormatNextReport(*rep);
  auto out = AppendProposalEntry(lb, text, *rep, "2026-03-02 10:00", nullptr);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const Logbook again = ParseLogbook(*out, "hd.md");
  ASSERT_EQ(again.entries.size(), 2u);
  ASSERT_EQ(again.entries[1].commands.size(), 1u);
  const CommandText& c = again.entries[1].commands[0];
  EXPECT_TRUE(c.fenced);
  EXPECT_NE(c.text.find("<<'EOF'\n## not a heading\n<!-- moelog: quant_mode=int8 -->\nEOF\n"), std::string::npos)
      << c.text;
  EXPECT_NE(c.text.find("bench_moe_hillclimb.py"), std::string::npos);
  EXPECT_TRUE(again.pins.empty());
  EXPECT_TRUE(again.entries[1].pins.empty());
}

}  // namespace
}  // namespace moelog::logbook
