// The key stage: the configuration of a measurement from its command and the
// entry's hardware statements.
#include <gtest/gtest.h>

#include <set>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/recorded.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderKey, HardwareCountsMultiply) {
  EXPECT_EQ(AcceleratorIn("2x 8xH100"), "H100x16");
  EXPECT_EQ(AcceleratorIn("ran on 2x 8xH100 (two nodes)"), "H100x16");
  EXPECT_EQ(AcceleratorIn("2 nodes of 8xH100"), "H100x16");
  EXPECT_EQ(AcceleratorIn("8x B200"), "B200x8");
  EXPECT_EQ(AcceleratorIn("B200 x8"), "B200x8");
  EXPECT_EQ(AcceleratorIn("one H100"), "H100x1");
  EXPECT_EQ(AcceleratorIn("on H100"), "H100");
  EXPECT_EQ(AcceleratorIn("v5p-8 slice"), "v5p-8");
  EXPECT_EQ(AcceleratorIn("CC-002 B200 canary"), "B200");  // an ID's digits count nothing
}

// A vendor's name between count and device, a memory size before "per
// node", a node count written "3-node" or "3 hosts x": counts still multiply.
TEST(ReaderKey, HardwareCountsAcrossVendorsAndNodeWords) {
  EXPECT_EQ(AcceleratorIn("16\xC3\x97 NVIDIA A100 40GB"), "A100x16");
  EXPECT_EQ(AcceleratorIn("4x AMD MI300X"), "MI300Xx4");
  EXPECT_EQ(AcceleratorIn("4\xC3\x97 NVIDIA L40S 48GB per node, 3 nodes"), "L40Sx12");
  EXPECT_EQ(AcceleratorIn("a 3-node 4xA100 pool"), "A100x12");
  EXPECT_EQ(AcceleratorIn("3 hosts x 4 L4"), "L4x12");
  EXPECT_EQ(AcceleratorIn("12 GPUs (3 nodes x 4 A100)"), "A100x12");
  EXPECT_EQ(AcceleratorIn("NVIDIA H100"), "H100");
}

// "`arm-b` (the random-data arm, on 8x H100)": a device named only in a
// list item's parenthetical is that item's, not the document's; a
// labelled statement ("Hardware: 8x H100 (SXM5)") is the document's.
TEST(ReaderKey, AParentheticalsDeviceIsItsItemsOnly) {
  auto accelerators = [](const std::string& text) {
    const Logbook lb = ParseLogbook(text, "t.md");
    std::set<std::string> out;
    for (const auto& entry : LogbookFigures(lb, nullptr))
      for (const auto& f : entry) out.insert(f.run.config.count("accelerator") ? f.run.config.at("accelerator") : "");
    return out;
  };
  const std::string entries = "## 2026-02-18 arm-a eval\n\n- val bpb: 0.621\n";
  EXPECT_EQ(accelerators("# Runs\n\n## Scope\n\n1. `arm-a` (filtered data, 1x GH200)\n"
                         "2. `arm-b` (the random-data arm, on 8x H100)\n\n" + entries),
            (std::set<std::string>{""}));
  EXPECT_EQ(accelerators("# Runs\n\nHardware: 8x H100 (SXM5)\n\n" + entries),
            (std::set<std::string>{"H100x8"}));
}

TEST(ReaderKey, CommandFlagsAndLoops) {
  ParsedCommand pc;
  ParseCommand("for tk in 2 8; do python bench_moe.py --tokens 32768 --topk \"$tk\"; done", &pc);
  ASSERT_TRUE(pc.loops.count("tk"));
  EXPECT_EQ(pc.loops.at("tk"), (std::vector<std::string>{"2", "8"}));
  bool tokens = false;
  for (const auto& [k, v] : pc.flags) tokens = tokens || (k == "tokens" && v == "32768");
  EXPECT_TRUE(tokens);
}

// A launcher's flag is not the harness's: torchrun's --nproc_per_node names
// no column of the script it runs.
TEST(ReaderKey, ALauncherFlagIsNotAHarnessKey) {
  ParsedCommand pc;
  ParseCommand("torchrun --nproc_per_node=8 train_moe.py --batch 16", &pc);
  for (const auto& [k, v] : pc.flags) {
    EXPECT_EQ(k.find("nproc"), std::string::npos) << k;
  }
}


// Commands are read by the planner's shell parser: a loop inside a script
// given to ssh, a flag set inside an if-guard's assignment (for some runs
// only), quoted loop values, a pipeline's second command.
TEST(ReaderKey, CommandsAreReadByTheShellParser) {
  ParsedCommand pc;
  ParseCommand("ssh host 'cd ~/src; for m in none int8; do python bench.py --quant-mode \"$m\" --topk 8; done'", &pc);
  ASSERT_TRUE(pc.loops.count("m"));
  EXPECT_EQ(pc.loops.at("m"), (std::vector<std::string>{"none", "int8"}));
  EXPECT_EQ(pc.harnesses, (std::vector<std::string>{"bench.py"}));
  ParsedCommand guarded;
  ParseCommand("for pm in none ep; do extra=\"\"; if [ \"$pm\" = ep ]; then extra=\"--ep-comm-path ring\"; fi; "
               "python bench_moe_hillclimb.py --parallel-mode \"$pm\" $extra; done",
               &guarded);
  EXPECT_TRUE(guarded.conditional.count("ep_comm_path"));
  ParsedCommand piped;
  ParseCommand("BENCH_BATCH=8 python probe.py --steps 30 | tee out.log && python other.py --iters 5", &piped);
  EXPECT_EQ(piped.harnesses, (std::vector<std::string>{"probe.py", "other.py"}));
  bool batch = false, iters = false;
  for (const auto& [k, v] : piped.flags) batch = batch || (v == "8"), iters = iters || (k == "iters" && v == "5");
  EXPECT_TRUE(batch);
  EXPECT_TRUE(iters);
}

// Text the shell parser does not take (an unclosed quote in prose) is
// still read word by word.
TEST(ReaderKey, TextTheParserRejectsIsStillRead) {
  ParsedCommand pc;
  ParseCommand("python bench.py --tokens 4096 'unclosed", &pc);
  bool tokens = false;
  for (const auto& [k, v] : pc.flags) tokens = tokens || (k == "tokens" && v == "4096");
  EXPECT_TRUE(tokens);
}


// A label that names a unit gives it to a figure written without one
// ("tail50 tok/sec: `468,782.94`", a parent "Throughput (tok/s):").
TEST(ReaderKey, ALabelsUnitIsItsFiguresUnit) {
  const std::string text =
      "# Log\n\n## 2026-01-02 Throughput\n- Command: `python train.py --steps 50`\n- Result:\n"
      "  - tail50 tok/sec: `468,782.94`\n  - Headline step (ms):\n    - `1120.38`\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("tokens_per_s"), 468782.94);
  EXPECT_NEAR(figs[1].run.metrics.at("time_s"), 1.12038, 1e-12);
}


// A launcher's flag written in a label is no key of the figures under it.
TEST(ReaderKey, ALabelsLauncherFlagIsNoKey) {
  const Config c = LabelWords("8-GPU smoke (`torchrun --nproc_per_node=8`, random-input steps)", {}, {}, true);
  for (const auto& [k, v] : c) EXPECT_EQ(k.find("nproc"), std::string::npos) << k;
  EXPECT_EQ(LabelWords("`impl=fused` run", {}, {}, true).at("impl"), "fused");
}


// A flag of the entry's command spelled out in words, then a value ("Request
// rate 16:" over a printout after `--request-rate 4`): that flag's value for
// the figures under the label, never a case.
TEST(ReaderKey, AFlagSpelledOutInALabelSetsItsValue) {
  const Config fixed = {{"request_rate", "4"}, {"num_prompts", "500"}};
  const Config cfg = LabelConfig("Request rate 16", {}, fixed, true);
  EXPECT_EQ(cfg.at("request_rate"), "16");
  EXPECT_FALSE(cfg.count("case"));
  EXPECT_EQ(LabelConfig("Batch size 64", {}, fixed, true).count("batch_size"), 0u);  // no flag of the command
  EXPECT_EQ(LabelConfig("request rate higher", {}, fixed, true).count("request_rate"), 0u);  // no value
}

// A count of repeats in parentheses ("Before (3 runs)", "After (n=5)") or
// as a field's whole qualifier ("3 runs") is a note on the measurement,
// never the run's name; under such fields each side's items are apart.
TEST(ReaderKey, ARepeatCountNamesNoRun) {
  EXPECT_EQ(LabelConfig("Before (3 runs)", {}, {}, true).at("case"), "Before");
  EXPECT_EQ(LabelConfig("After (n=5)", {}, {}, true).at("case"), "After");
  EXPECT_EQ(LabelConfig("fused (median of 7 trials)", {}, {}, true).at("case"), "fused");
  EXPECT_FALSE(LabelConfig("3 runs", {}, {}, true).count("case"));
  EXPECT_EQ(LabelConfig("fused (tile 128)", {}, {}, true).at("case"), "fused tile 128");
  const auto figs = ReadEntry("# Journal\n\n## 2026-02-07 - E002 - pooled buffers\n\n",
                              "- Before (3 runs):\n  - `BenchmarkCompress`: ~4.99 ms/op\n"
                              "- After (3 runs):\n  - `BenchmarkCompress`: ~4.89 ms/op\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NE(figs[0].run.config, figs[1].run.config);
  for (const auto& f : figs)
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(v.find("runs"), std::string::npos) << k << "=" << v;
}

// A case is a name, never a sentence: a label's words after a dash or a
// word that starts a clause are prose.
TEST(ReaderKey, ACaseIsANameNeverASentence) {
  EXPECT_EQ(LabelConfig("cap1.0 static interrupted intentionally at step 300", {}, {}, true).at("case"),
            "cap1.0 static");
  EXPECT_EQ(LabelConfig("Fused kernel \xE2\x80\x94 tiny pointwise kernel", {}, {}, true).at("case"), "Fused kernel");
  EXPECT_EQ(LabelConfig("ring layer", {}, {}, true).at("case"), "ring layer");
  // A label ending in a metric's word names the metric, not a case.
  EXPECT_FALSE(LabelConfig("global mean step latency", {}, {}, true).count("case"));
  // A finding written as a label ("sin/256 is the worst:", "inv scales
  // excellently:"): its subject names the run, the verb and what follows it
  // are prose; a label of keys and prose only names no case at all.
  EXPECT_EQ(LabelConfig("sin/256 is the worst", {}, {}, true).at("case"), "sin/256");
  EXPECT_EQ(LabelConfig("inv scales excellently", {}, {}, true).at("case"), "inv");
  const Config keys_then_prose = LabelConfig("tokens=4096 is the slowest", {}, {}, true);
  EXPECT_FALSE(keys_then_prose.count("case"));
  for (const auto& [k, v] : keys_then_prose) EXPECT_EQ(v.find("slowest"), std::string::npos) << k;
}

// A short line right above a list names the setup of every item of that
// list: the same runs measured on two machines are two rows, never one.
TEST(ReaderKey, AListsLeadLineNamesItsItemsSetup) {
  const std::string text =
      "# Log\n\n## 2026-03-04 Parser timings\n\n"
      "On the desktop box\n"
      "  - baseline script: 4.10s\n"
      "  - my versions:\n"
      "    - v2: 7.25s\n"
      "    - v3: 3.50s\n\n"
      "On an old netbook:\n"
      "  - baseline script: 31s\n"
      "  - my versions:\n"
      "    - v2: 80s\n"
      "    - v3: 40s\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 6u);
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("setup")) << f.text;
    EXPECT_EQ(f.run.config.at("setup"), f.line < 12 ? "On the desktop box" : "On an old netbook") << f.text;
  }
}

// A one-word lead that is a value ("Fp16:", "Fp32:") names its list's setup
// as a phrase does; a one-word lead of no value ("Results:") does not.
TEST(ReaderKey, AOneWordValueLeadNamesItsList) {
  const std::string text =
      "# Log\n\n## 2026-03-04 Profile\n\n"
      "Fp16:\n"
      "- 34.5% of the time went in cudaHostAlloc\n"
      "- 22.8% of the time went in cudaStreamCreate\n\n"
      "Fp32:\n"
      "- 35.4% of the time went in cudaHostAlloc\n"
      "- 21.2% of the time went in cudaStreamCreate\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("setup")) << f.text;
    EXPECT_EQ(f.run.config.at("setup"), f.line < 9 ? "Fp16" : "Fp32") << f.text;
    EXPECT_EQ(f.run.config.at("variant").rfind("cuda", 0), 0u) << f.text;  // named by the call
  }
}

// One lead line alone tells no figures apart, and a sentence above a list
// is no setup.
TEST(ReaderKey, OneListLeadOrASentenceIsNoSetup) {
  const std::string text =
      "# Log\n\n## 2026-03-04 Parser timings\n\n"
      "On the desktop box\n"
      "  - v2: 7.25s\n"
      "  - v3: 3.50s\n\n"
      "Then I tried the two flags that the profiler pointed at first.\n"
      "  - flag a: 3.10s\n"
      "  - flag b: 2.90s\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_EQ(figs.size(), 4u);
  for (const auto& f : figs) EXPECT_FALSE(f.run.config.count("setup")) << f.text;
}

// Accelerator names are data: consumer and other vendors' devices are read
// with their counts as the data-centre ones are.
TEST(ReaderKey, AcceleratorNamesAreData) {
  EXPECT_EQ(AcceleratorIn("2xRTX 4090 GPUs"), "RTX 4090x2");
  EXPECT_EQ(AcceleratorIn("4x H100 80GB"), "H100x4");
  EXPECT_EQ(AcceleratorIn("a T4"), "T4");
  EXPECT_EQ(AcceleratorIn("8x MI300X"), "MI300Xx8");
  EXPECT_EQ(AcceleratorIn("on 8xA100"), "A100x8");
  EXPECT_EQ(AcceleratorCount("H100x16"), 16);
  EXPECT_EQ(AcceleratorCount("RTX 4090x2"), 2);
  EXPECT_EQ(AcceleratorCount("v5p-8"), 0);
}

// A hardware statement is a label's value or a device right after a cue
// ("on", "my", "access to"); a device only mentioned states nothing.
TEST(ReaderKey, HardwareStatementsAreLabelsOrCues) {
  EXPECT_EQ(HardwareStated("Hardware: 2x RTX 4090"), (std::vector<std::string>{"RTX 4090x2"}));
  EXPECT_EQ(HardwareStated("**Setup:** 4x H100 80GB"), (std::vector<std::string>{"H100x4"}));
  EXPECT_EQ(HardwareStated("Benchmarks run on 2x 8xH100."), (std::vector<std::string>{"H100x16"}));
  EXPECT_EQ(HardwareStated("The run time on my 2xRTX 4090 setup was 8 hours."),
            (std::vector<std::string>{"RTX 4090x2"}));
  EXPECT_EQ(HardwareStated("~0.14 ms, ~9.5x speedup (RTX 3090)."), (std::vector<std::string>{"RTX 3090"}));
  EXPECT_TRUE(HardwareStated("Ideas taken from the 8xH100 leaderboard.").empty());
  EXPECT_TRUE(HardwareStated("H100 has more memory bandwidth than this card.").empty());
}

// A flag whose value is a quoted script (`ssh vm --command "cd x; python
// bench.py --impl ref"`) gives the script's flags, not a key holding its text.
TEST(ReaderKey, AFlagsQuotedScriptIsReadAsACommand) {
  ParsedCommand pc;
  ParseCommand("echo y | gcloud compute tpus tpu-vm ssh vm --zone z --command \"set -e; cd /r; python -u "
               "scripts/bench.py --impl ref --batch 4\"",
               &pc);
  std::map<std::string, std::string> flags(pc.flags.begin(), pc.flags.end());
  EXPECT_EQ(flags["impl"], "ref");
  EXPECT_EQ(flags["batch"], "4");
  EXPECT_FALSE(flags.count("command"));
}

std::vector<std::vector<RecordedFigure>> Figures(const std::string& text) {
  const Logbook lb = ParseLogbook(text, "t.md");
  return LogbookFigures(lb, nullptr);
}

// The document's title states the hardware of every entry below it; an
// entry's own statement overrides it for the figures after it.
TEST(ReaderKey, DocumentAndEntryHardwareKeyTheRuns) {
  const auto figs = Figures(
      "# Speed log, run on 4x H100 GPUs\n\n"
      "## 2026-03-01 Baseline\n\n- Result: 172.1 ms/step\n\n"
      "## 2026-03-02 Bigger box\n\nMoved to a new machine.\n\n"
      "Setup: 2x 8xH100\n\n- Result: 98.4 ms/step\n");
  ASSERT_EQ(figs.size(), 2u);
  ASSERT_EQ(figs[0].size(), 1u);
  ASSERT_EQ(figs[1].size(), 1u);
  EXPECT_EQ(figs[0][0].run.config.at("accelerator"), "H100x4");
  EXPECT_EQ(figs[0][0].run.config.at("gpus"), "4");
  EXPECT_EQ(figs[1][0].run.config.at("accelerator"), "H100x16");
  EXPECT_EQ(figs[1][0].run.config.at("gpus"), "16");
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "- Software pipelining: 5,454 cycles": a list item written as a field
// whose name is no field moelog knows names its figures like any label;
// items of one list are never one configuration for lack of a name.
TEST(ReaderKey, AnItemsNameBeforeItsColonKeysItsFigures) {
  const Logbook lb = ParseLogbook(
      "# Perf notes\n\n## Log\n\n### Session 2\n\n"
      "- Software pipelining: 5,454 cycles (27.1x)\n"
      "- Bitwise AND: 5,262 cycles (28.1x)\n"
      "- Peak memory: 41.2 GB\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 3u);
  EXPECT_EQ(figs[0][0].run.config.at("case"), "Software pipelining");
  EXPECT_EQ(figs[0][1].run.config.at("case"), "Bitwise AND");
  EXPECT_FALSE(figs[0][2].run.config.count("case"));  // a metric's name is no case
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "Full training (d26):" above a table in an entry that runs `--depth=24`:
// a letter or two and a number name the one key the entry sets that starts
// so (depth=26), as "EP8" names ep; a word that starts no key, or several,
// names none.
TEST(ReaderKey, AnAbbreviatedKeyAndItsNumberNameTheKey) {
  Config fixed = {{"depth", "24"}, {"harness", "train"}};
  std::string key, value;
  EXPECT_TRUE(KeyDigits("d26", {}, &key, &value, &fixed));
  EXPECT_EQ(key, "depth");
  EXPECT_EQ(value, "26");
  EXPECT_FALSE(KeyDigits("x26", {}, &key, &value, &fixed));
  fixed["dim"] = "1024";
  EXPECT_FALSE(KeyDigits("d26", {}, &key, &value, &fixed));  // depth or dim: nothing says which
  const Logbook lb = ParseLogbook(
      "# Log\n\n## 2026-02-02: FP8 training\n\n"
      "```bash\ntorchrun --nproc_per_node=8 -m scripts.base_train --depth=24 --fp8\n```\n\n"
      "**Microbenchmark (d26 MLP):**\n\n| Method | Forward |\n|---|---|\n| BF16 | 2.00ms |\n\n"
      "**Full training (d26):**\n\n| Config | tok/sec |\n|---|---|\n| BF16 baseline | 630K |\n| FP8 | 740K |\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 3u);
  for (const auto& f : figs[0]) {
    std::string all;
    for (const auto& [k, v] : f.run.config) all += k + "=" + v + ";";
    EXPECT_EQ(f.run.config.count("depth") ? f.run.config.at("depth") : "", "26") << all;
  }
}

}  // namespace
}  // namespace moelog::logbook::reader


namespace moelog::logbook::reader {
namespace {

// "- Reference (batch=4, time=1024):" over the items that hold its figures
// names them, as a note's label does; a remark ("- Notes:") names nothing.
TEST(ReaderKey, AFieldOverItemsOfFiguresNamesThem) {
  const Logbook lb = ParseLogbook(
      "# Kernel bench\n\n## 2026-01-26 Speed\n\n"
      "- Reference (batch=4, time=1024):\n  - `avg_step_ms=8.6500`, `peak_bytes_reserved=2484649984`\n"
      "- Notes:\n  - `avg_step_ms=9.1000`\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_GE(figs[0].size(), 1u);
  EXPECT_EQ(figs[0][0].run.config.count("case") ? figs[0][0].run.config.at("case") : "", "Reference");
  EXPECT_EQ(figs[0][0].run.config.at("batch"), "4");
  for (const auto& f : figs[0])
    if (f.run.config.count("case")) {
      EXPECT_NE(f.run.config.at("case"), "Notes");
    }
}

// "- Results so far:" over the runs' items is the record's own heading: it
// names none of them (no case=so far).
TEST(ReaderKey, AFieldNamedForTheRecordNamesNothing) {
  const Logbook lb = ParseLogbook(
      "# Tuning\n\n### 2026-02-09 19:40 - Block probe\n"
      "- Results so far:\n  - `bt=64,bf=1024`:\n    - `92.729 TF/s`\n  - `bt=64,bf=2048`:\n    - `100.938 TF/s`\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 2u);
  for (const auto& f : figs[0])
    for (const auto& [k, v] : f.run.config) EXPECT_EQ(v.find("so far"), std::string::npos) << k << "=" << v;
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "even though the bench says 50us": a verb before a figure names no run;
// no key rather than a junk one (variant=says).
TEST(ReaderKey, AVerbBeforeAFigureIsNoName) {
  const Logbook lb = ParseLogbook(
      "# Worklog\n\n## Worklog 2026-02-20\n\n"
      "- Added NCU profiling. The kernel runtime is measured as ~4us, even though the bench says 50us.\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  for (const auto& f : figs[0])
    for (const auto& [k, v] : f.run.config) EXPECT_NE(v, "says") << k;
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "Benchmarks run on 4x H100 GPUs." under the title, before any entry: the
// document's own text states the hardware of every entry below it that
// states none, as its title would.
TEST(ReaderKey, TheTextUnderTheTitleStatesTheDocumentsHardware) {
  const Logbook lb = ParseLogbook(
      "# Optimizer benchmark results\n\n"
      "Benchmarks run on 4x H100 GPUs, 1500 steps of the training script.\n\n"
      "## Baseline: A vs B\n\n"
      "| Branch | Optimizer | Step Avg |\n|---|---|---|\n| main | A | 172.13ms |\n| fix-prealloc | B | 172.03ms |\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 2u);
  for (const auto& f : figs[0]) {
    ASSERT_TRUE(f.run.config.count("gpus")) << f.text;
    EXPECT_EQ(f.run.config.at("gpus"), "4");
    EXPECT_EQ(f.run.config.at("accelerator"), "H100x4");
  }
}

// The same bench printed twice in one entry, each printout after a sentence
// that says where it ran: figures with one configuration are told apart by
// the words of the sentences that differ (never the whole sentence).
TEST(ReaderKey, TwoPrintoutsOfOneBenchAreKeyedByTheirLeadIns) {
  const std::string block1 = "```\nencode   time:   [41.20 ns 41.31 ns 41.45 ns]\n"
                             "decode   time:   [12.10 ns 12.14 ns 12.19 ns]\n```\n";
  const std::string block2 = "```\nencode   time:   [55.02 ns 55.40 ns 55.81 ns]\n"
                             "decode   time:   [16.33 ns 16.41 ns 16.52 ns]\n```\n";
  const std::string text = "# Codec timings\n\n## 2025-03-01 Codec\n\nSample output on my desktop (Ryzen 9 7950X, turbo off)\n\n\n" +
                           block1 + "\nSample result on an old ThinkPad T480 (i5-8250U)\n\n" + block2;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_GE(figs.size(), 4u);
  std::set<std::string> setups;
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("setup")) << f.text;
    const std::string& v = f.run.config.at("setup");
    EXPECT_EQ(v.find('('), std::string::npos) << v;
    EXPECT_LE(v.size(), 40u) << v;
    setups.insert(v);
  }
  ASSERT_EQ(setups.size(), 2u);
  const std::string both = *setups.begin() + "|" + *setups.rbegin();
  EXPECT_NE(both.find("desktop"), std::string::npos) << both;
  EXPECT_NE(both.find("ThinkPad"), std::string::npos) << both;
  EXPECT_EQ(both.find("Sample"), std::string::npos) << both;  // the words both sentences share name neither
  // Bullets that label two printouts of one client: their own words.
  const std::string printed = "```\nTotal Time:  41.20\nAvg Latency:  12.10\n```\n";
  const Logbook lb2 = ParseLogbook("# Clients\n\n## 2025-03-02 Offline\n\n- `engine-a` output:\n\n" + printed +
                                       "\n- `engine-b` output:\n\n" + printed, "t.md");
  ASSERT_EQ(lb2.entries.size(), 1u);
  std::set<std::string> engines;
  for (const auto& f : RecordedFigures(lb2.entries[0]))
    if (f.run.config.count("setup")) engines.insert(f.run.config.at("setup"));
  EXPECT_EQ(engines, (std::set<std::string>{"engine-a", "engine-b"}));
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

std::string ValueOf(const RecordedFigure& f, const std::string& k) {
  auto it = f.run.config.find(k);
  return it == f.run.config.end() ? "" : it->second;
}

// A command written as a plain bullet ("* srv-bench run --request-rate 2")
// keys the printed block below it by its flags, as a command in a code span
// does. A sub-heading part that states its own settings as bullets
// ("* max-batch-size 8") is its own run: those key its block, and the
// command above the sub-heading does not.
TEST(ReaderKey, ABulletCommandAndASubheadingsSettingsKeyTheirBlocks) {
  const Logbook lb = ParseLogbook(
      "# Serving notes\n\n## Model A\n"
      "* srv-bench run --host localhost --prompts 200 --request-rate 2\n\n"
      "```\n==== Result ====\nRequests completed:      200\nRun time (s):            99.10\n"
      "Throughput (req/s):      2.01\nMean latency (ms):       41.55\n```\n\n"
      "### Earlier run\n* max-batch-size 8\n* prompts 200\n\n"
      "```\n==== Result ====\nRequests completed:      200\nRun time (s):            87.40\n"
      "Throughput (req/s):      2.29\nMean latency (ms):       63.20\n```\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  size_t first = 0, earlier = 0;  // each block is one record: one row of its figures
  for (const auto& f : figs[0]) {
    if (f.line < 12) {
      first += f.run.metrics.size();
      EXPECT_EQ(ValueOf(f, "request_rate"), "2") << f.text;
    } else {
      earlier += f.run.metrics.size();
      EXPECT_EQ(ValueOf(f, "max_batch_size"), "8") << f.text;
      EXPECT_EQ(ValueOf(f, "request_rate"), "") << f.text;
    }
  }
  EXPECT_GE(first, 3u);
  EXPECT_GE(earlier, 3u);
}

// A flag's placeholder ("--request-rate x.x", "--model <name>") names no
// run: the label over each block does.
TEST(ReaderKey, AFlagsPlaceholderNamesNoRun) {
  const Logbook lb = ParseLogbook(
      "# Serving notes\n\n## Model B\n"
      "* srv-bench run --prompts 200 --request-rate x.x --model <name>\n\n"
      "* 3 req/s\n```\n==== Result ====\nRun time (s):            66.10\nMean latency (ms):       41.55\n```\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_GE(figs[0].size(), 1u);
  for (const auto& f : figs[0]) {
    EXPECT_EQ(ValueOf(f, "request_rate"), "") << f.text;
    EXPECT_EQ(ValueOf(f, "model"), "") << f.text;
    EXPECT_EQ(ValueOf(f, "prompts"), "200") << f.text;
  }
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "**Kernel:** `conv_tiled` (8x8 tile)" and "**Threads:** 256" over an
// entry's table: field lines that state the entry's settings key every
// figure below them. A table that names its own values of the same form
// ("v1.4.0 | v1.4.2" under "**Version:** v1.4.2") is not keyed by it;
// a figure's own field ("**Cycles:** 5120") and a sentence are no settings.
TEST(ReaderKey, FieldLinesStateTheEntrysSettings) {
  const Logbook lb = ParseLogbook(
      "# Conv kernels\n\n## Run 3: block sweep\n"
      "**Kernel:** `conv_tiled` (8x8 tile, shared memory)  \n**Threads:** 256  \n**Iterations:** 20 runs per size\n\n"
      "| Block | Throughput | Time (ms) |\n|---|---|---|\n| 64 | 12.5 GFLOPS | 0.40 |\n| 128 | 20.1 GFLOPS | 0.25 |\n\n"
      "## Run 4: versions\n**Version:** v1.4.2\n\n"
      "| Input | v1.4.0 | v1.4.2 |\n|---|---|---|\n| a | 2.1s | 1.9s |\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 2u);
  ASSERT_EQ(figs[0].size(), 2u);
  for (const auto& f : figs[0]) {
    EXPECT_EQ(ValueOf(f, "kernel"), "conv_tiled") << f.text;
    EXPECT_EQ(ValueOf(f, "threads"), "256") << f.text;
    EXPECT_EQ(ValueOf(f, "iterations"), "") << f.text;
  }
  ASSERT_GE(figs[1].size(), 1u);
  for (const auto& f : figs[1]) EXPECT_EQ(ValueOf(f, "version"), "") << f.text;
}

// "`s=128`" in prose names a parameter by one letter: no figure, whatever
// unit the letter spells ("avg_step_ms=20.4" is a time).
TEST(ReaderKey, AOneLetterKeyIsAParameterNotAUnit) {
  const Logbook lb = ParseLogbook(
      "# Solver log\n\n## Block sizes\n\n"
      "Predictions are unchanged at `s=16`; `s=64` changes by one sample. Step: `avg_step_ms=20.4`.\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0][0].run.metrics.begin()->second, 0.0204);
}

// A row's label in another script ("| 平均 | 0.095 ms |" under headers the
// reader has no words for) names its row, as a Latin one does: letters of
// any script are letters, not joiners.
TEST(ReaderKey, ALabelInAnotherScriptNamesItsRow) {
  EXPECT_EQ(LabelConfig("\xE5\xB9\xB3\xE5\x9D\x87", {}, {}, true).count("case"), 1u);
  const Logbook lb = ParseLogbook(
      "# Kernel log\n\n## Timing\n\n| \xE6\x8C\x87\xE6\xA0\x87 | \xE5\x80\xBC |\n|---|---|\n"
      "| \xE5\xB9\xB3\xE5\x9D\x87 | 0.0955 ms |\n| \xE6\x9C\x80\xE5\xB0\x8F | 0.0671 ms |\n",
      "t.md");
  const auto figs = LogbookFigures(lb, nullptr);
  ASSERT_EQ(figs.size(), 1u);
  ASSERT_EQ(figs[0].size(), 2u);
  EXPECT_NE(figs[0][0].run.config, figs[0][1].run.config);
}

// A list's lead-in sentence that sets a key ("For seq_len=2048 on the test
// card:") keys every figure of the list under it, its sub-items too.
TEST(ReaderKey, ALeadInsSettingKeysItsList) {
  const std::string text =
      "# Log\n\n## 2026-03-04 Scan timings\n\n"
      "For seq_len=2048 on the test card:\n"
      "- plain scan: 900us\n"
      "- **chunked (C=64): 170us**, all in one kernel:\n"
      "  - cumsum part: ~45us\n"
      "  - solve part: ~52us\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0]);
  ASSERT_GE(figs.size(), 3u);
  for (const auto& f : figs) {
    ASSERT_TRUE(f.run.config.count("seq_len")) << f.text;
    EXPECT_EQ(f.run.config.at("seq_len"), "2048") << f.text;
  }
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A parent sub-heading's value ("### 8 epochs" over "#### lr 1e-3") keys
// the figures under its children: the count before a noun is its value, not
// a section number ("### 2.1 Setup", "### 03: Kernel" drop theirs).
TEST(ReaderKey, AParentSubheadingsValueKeysTheFiguresUnderIt) {
  const auto figs = ReadEntry("# Training log\n\n## 2026-02-03 Learning-rate sweep\n\n",  // heading: line 3
                              "### 8 epochs\n\n#### lr 1e-3\n\nStep time 412 ms.\n\n"      // 5, 7, 9
                              "#### lr 3e-3\n\nStep time 409 ms.\n\n"                       // 11, 13
                              "### 16 epochs\n\n#### lr 1e-3\n\nStep time 415 ms.\n");      // 15, 17, 19
  const RecordedFigure* a = OnLine(figs, 9);
  const RecordedFigure* c = OnLine(figs, 19);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(a->run.config, c->run.config);
  std::string all_a, all_c;
  for (const auto& [k, v] : a->run.config) all_a += k + "=" + v + ";";
  for (const auto& [k, v] : c->run.config) all_c += k + "=" + v + ";";
  EXPECT_NE(all_a.find("8 epochs"), std::string::npos) << all_a;
  EXPECT_NE(all_c.find("16 epochs"), std::string::npos) << all_c;
}

}  // namespace
}  // namespace moelog::logbook::reader
