// The reader's blocks stage: what each part of an entry is -- a command
// (fenced, `$ `-prompted, a Command field), an output (after a command,
// under an Output/Log label or sub-heading, or one that reads as a program's
// printed lines), a table with the sub-heading it sits under.
#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_text.h"
#include "logbook/reader/blocks_tsv.h"

namespace moelog::logbook {
namespace {

// The line a fence of one command starts its printed lines at, or -1.
int PrintedAfterCommand(std::string_view text, bool (*is_command)(std::string_view)) {
  const std::vector<TranscriptPart> parts = CommandTranscript(text, is_command);
  return parts.size() == 1 ? parts[0].printed : -1;
}

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-06-24 10:00 - fused\n\n";

TEST(BlocksParse, OutputLabelAfterACommand) {
  const std::string text = std::string(kHead) +
                           "```\npython bench.py --m 512 --n 512\n```\n\nOutput:\n\n```\n"
                           "gemm_512  0.003 ms  0.02 TFLOP/s  0.0% of 191 TFLOP/s\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const Entry& e = lb.entries[0];
  ASSERT_EQ(e.commands.size(), 1u);
  EXPECT_EQ(e.commands[0].joined, "python bench.py --m 512 --n 512");
  ASSERT_EQ(e.outputs.size(), 1u);
  EXPECT_EQ(e.outputs[0].line, 13);
}

TEST(BlocksParse, AnUnlabelledFenceAfterACommandThatReadsAsOutput) {
  for (const char* out : {"size   time_ms  tflops\n1024   0.311    6.9\n2048   2.410    7.1\n",
                          "step=100 loss=3.281 tok_per_s=412000\nstep=200 loss=3.102 tok_per_s=415500\n",
                          "{\"name\": \"gemm\", \"ms\": 0.31}\n{\"name\": \"gemm2\", \"ms\": 0.62}\n",
                          "RESULT gemm_1024 0.311 ms\n", "m,n,k,ms\n512,512,512,0.02\n1024,1024,1024,0.31\n"}) {
    const std::string text = std::string(kHead) + "```\npython bench.py --m 512\n```\n\n```\n" + out + "```\n";
    const Logbook lb = ParseLogbook(text, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u);
    EXPECT_EQ(lb.entries[0].commands.size(), 1u) << out;
    EXPECT_EQ(lb.entries[0].outputs.size(), 1u) << out;
  }
}

TEST(BlocksParse, APromptedBlockSplitsIntoCommandsAndOutput) {
  const std::string text = std::string(kHead) +
                           "```console\n$ python bench.py --m 512 \\\n    --n 512\ngemm_512  0.003 ms\n"
                           "$ python bench.py --m 1024\ngemm_1024  0.021 ms\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const Entry& e = lb.entries[0];
  ASSERT_EQ(e.commands.size(), 2u);
  EXPECT_EQ(e.commands[0].joined, "python bench.py --m 512 --n 512");
  EXPECT_EQ(e.commands[1].joined, "python bench.py --m 1024");
  EXPECT_EQ(e.commands[1].line, 11);
  ASSERT_EQ(e.outputs.size(), 2u);
  EXPECT_EQ(e.outputs[0].text, "gemm_512  0.003 ms\n");
  EXPECT_EQ(e.outputs[0].line, 10);
  EXPECT_EQ(e.outputs[1].line, 12);
  EXPECT_EQ(e.outputs[1].end_line, 13);  // the closing fence: nothing is written inside the block
}

TEST(BlocksParse, PromptsOfAServerAndOfAnEnvironment) {
  const std::string text = std::string(kHead) +
                           "```\nroot@node3:~/bench# ./spmv_timing 4096 8\nTotal: 812 us\n"
                           "(venv) $ python bench.py --m 64\ngemm_64  0.001 ms\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].commands.size(), 2u);
  EXPECT_EQ(lb.entries[0].commands[0].joined, "./spmv_timing 4096 8");
  EXPECT_EQ(lb.entries[0].commands[1].joined, "python bench.py --m 64");
  EXPECT_EQ(lb.entries[0].outputs.size(), 2u);
}

TEST(BlocksParse, InlinePromptInAParagraph) {
  const std::string text = std::string(kHead) + "Ran `$ python bench.py --m 512 --n 512` on the node.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands[0].joined, "python bench.py --m 512 --n 512");
}

TEST(BlocksParse, TablesKnowTheirSubHeading) {
  const std::string text =
      "# T\n\n## 2026-06-24 - sweep\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n### Muon\n\n| size | ms |\n|---|---|\n"
      "| 1 | 2.5 |\n\n#### Larger batch\n\n| size | ms |\n|---|---|\n| 2 | 4.5 |\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const Entry& e = lb.entries[0];
  ASSERT_EQ(e.tables.size(), 3u);
  EXPECT_EQ(e.tables[0].subheading, "");
  EXPECT_EQ(e.tables[1].subheading, "Muon");
  EXPECT_EQ(e.tables[2].subheading, "Larger batch");
}

TEST(BlocksParse, OutputUnderAnOutputSubHeading) {
  const std::string text = std::string(kHead) + "```bash\npython bench.py --m 512 --n 512\n```\n\n#### Output\n\n```\n" +
                           "all done\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_EQ(lb.entries[0].outputs.size(), 1u);
}

TEST(BlocksParse, TwoCommandFencesStayCommands) {
  const std::string text = std::string(kHead) + "```\npython bench.py --m 512\n```\n\n```\npython bench.py --m 1024\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 2u);
  EXPECT_TRUE(lb.entries[0].outputs.empty());
}

TEST(BlocksParse, AShellNamedFenceOfAProgramAndItsNumericFlagsIsACommand) {
  // Two numbers on the line ("2", "50") read like printed output; the flags say command.
  const std::string text = std::string(kHead) +
                           "```bash\nvllm bench serve --model m --request-rate 2 --num-prompts 50\n```\n\n"
                           "```\nRequest throughput (req/s):   1.94\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_EQ(lb.entries[0].outputs.size(), 1u);
}

// The stage itself.
TEST(Blocks, ClassifyFence) {
  std::string cue;
  EXPECT_EQ(ClassifyFence({"python", "import x\n", false, false, false, false}, &cue), FenceRole::kOutput);
  EXPECT_EQ(cue, "info");
  EXPECT_EQ(ClassifyFence({"bash", "make all\n", true, true, false, false}, &cue), FenceRole::kCommand);
  EXPECT_EQ(ClassifyFence({"", "all done\n", false, true, false, false}, &cue), FenceRole::kOutput);
  EXPECT_EQ(cue, "label");
  EXPECT_EQ(ClassifyFence({"", "python b.py --x 1\n", true, true, false, true}, &cue), FenceRole::kCommand);
  EXPECT_EQ(ClassifyFence({"", "done in 4 steps\n", true, false, false, false}, &cue), FenceRole::kOutput);
  EXPECT_EQ(cue, "after command");
  EXPECT_EQ(ClassifyFence({"", "a=1.5 b=2\n", false, false, false, false}, &cue), FenceRole::kOutput);
  EXPECT_EQ(cue, "looks like output");
  EXPECT_EQ(ClassifyFence({"console", "$ ls -l\nx\n", false, false, false, false}, &cue), FenceRole::kPrompted);
}

// A bare block of pseudo-code or a directory tree is neither run nor read;
// a shell loop, a program and its flags, or one program word still run.
TEST(Blocks, BareBlockWithNoCommandIsText) {
  std::string cue;
  const char* pseudo = "For each (tile, head):\n  s = exp(-a) * b  -- decay\n  h += outer(v, k)\n";
  EXPECT_EQ(ClassifyFence({"", pseudo, false, false, false, false}, &cue), FenceRole::kText);
  const char* tree = "kernels/\n\xE2\x94\x9C\xE2\x94\x80\xE2\x94\x80 decode.py\n";
  EXPECT_EQ(ClassifyFence({"", tree, false, false, false, false}, &cue), FenceRole::kText);
  EXPECT_EQ(ClassifyFence({"", "for t in 1 2 4\ndo\n  ./bench -t $t\ndone\n", false, false, false, false}, &cue),
            FenceRole::kCommand);
  EXPECT_EQ(ClassifyFence({"", "if [ -f out ]\nthen\n  cat out\nfi\n", false, false, false, false}, &cue),
            FenceRole::kCommand);
  EXPECT_EQ(ClassifyFence({"", "vllm bench serve --request-rate 2\n", false, false, false, false}, &cue),
            FenceRole::kCommand);
  EXPECT_EQ(ClassifyFence({"", "nvidia-smi\n", false, false, false, false}, &cue), FenceRole::kCommand);
  EXPECT_EQ(ClassifyFence({"bash", "For each head: x = y\n", false, false, false, false}, &cue),
            FenceRole::kCommand);  // a block named a shell is the author's command
}

TEST(Blocks, BareBlockWithNoCommandRunsNothing) {
  const Logbook lb = ParseLogbook("# Log\n\n## 2026-01-02 decode kernel\n\n```\nFor each (batch, head):\n"
                           "  g = exp(-exp(A) * softplus(a))  -- decay\n  h *= g\n```\n\n"
                           "Result: 1.85 us per call.\n", "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_TRUE(lb.entries[0].commands.empty());
  EXPECT_TRUE(lb.entries[0].outputs.empty());
}

TEST(Blocks, OutputShapesAndLabels) {
  EXPECT_TRUE(LooksLikeOutput("n   ms\n1   0.5\n2   0.9\n"));
  EXPECT_TRUE(LooksLikeOutput("{\"ms\": 0.5}\n"));
  EXPECT_TRUE(LooksLikeOutput("a,b,c\n1,2,3\n"));
  // A table printed in Markdown under a tool's chatter (llama-bench).
  EXPECT_TRUE(LooksLikeOutput("init: found 1 device:\n  Device 0: GPU, VMM: yes\n| test | t/s |\n| --- | --: |\n| pp512 | 801.05 ± 2.47 |\n"));
  EXPECT_TRUE(LooksLikeOutput("RESULT 3.2\n"));
  EXPECT_FALSE(LooksLikeOutput("cd build\nmake -j8\n"));
  // A script's comments read like "Name: value" lines; its statements say script.
  EXPECT_FALSE(LooksLikeOutput("# --wait=60: wait 60 sec after the first task\nexport NCCL_ASYNC_ERROR_HANDLING=1\n"));
  EXPECT_TRUE(LooksLikeOutput("# run 1\nlatency: 3.2 ms\nthroughput: 812 req/s\n"));
  EXPECT_TRUE(IsOutputLabel("**Output:**"));
  EXPECT_TRUE(IsOutputLabel("Raw log (8xH100):"));
  EXPECT_FALSE(IsOutputLabel("The output was surprising."));
  EXPECT_TRUE(IsOutputHeading("Raw output"));
  EXPECT_TRUE(StatesFigure("took 0.31 ms per call"));
  EXPECT_TRUE(StatesFigure("2.7x faster"));
  EXPECT_TRUE(StatesFigure("Version 1: Naive Flash Attention V1 - 30.6 seconds"));  // a unit spelled out
  EXPECT_FALSE(StatesFigure("topk=8 on v5p"));
  EXPECT_EQ(AfterPrompt("$ python b.py"), "python b.py");
  EXPECT_EQ(AfterPrompt("python b.py"), "");
  const auto parts = SplitPrompted("$ a \\\n  --x 1\nout 1\n\n$ b\nout 2\n");
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_TRUE(parts[0].command);
  EXPECT_EQ(parts[0].last_line, 1);
  EXPECT_EQ(parts[1].text, "out 1\n");
  EXPECT_EQ(parts[2].first_line, 4);
}

TEST(BlocksParse, AShellNamedFenceOfPrintedLinesIsOutput) {
  const std::string text = std::string(kHead) +
                           "```bash\n./bench --size 4096\n```\n\nFP16:\n```bash\nDevice: card\n"
                           "Latency: 0.672 ms\nEffective TFLOPS: 204.2 TFLOPS\n```\n\n```bash\nNUM=4\nmake\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 2u);  // the bench, and the script of an assignment
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  EXPECT_EQ(lb.entries[0].outputs[0].output_cue, "looks like output");
}

TEST(BlocksParse, ACommandAndItsPrintedLinesInOneFence) {
  const std::string text = std::string(kHead) +
                           "```\npython serve_bench.py --rate 8 \\\n  --prompts 100\n\n"
                           "==== Serving Benchmark Result ====\nMean TTFT (ms):   152.3\n"
                           "Output token throughput (tok/s):  1875.4\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const Entry& e = lb.entries[0];
  ASSERT_EQ(e.commands.size(), 1u);
  EXPECT_EQ(e.commands[0].joined, "python serve_bench.py --rate 8 --prompts 100");
  ASSERT_EQ(e.outputs.size(), 1u);
  EXPECT_EQ(e.outputs[0].text.substr(0, 4), "====");
  EXPECT_EQ(e.outputs[0].line + 1, 11);  // its first printed line
}

TEST(BlocksParse, AConsolePastedAsTextIsASessionAndItsTables) {
  // No fence: a prompt line, its printed lines, then a profiler's aligned
  // table whose rule of dash runs Markdown reads as a thematic break (the
  // rows, five spaces in, as an indented code block).
  const std::string text = std::string(kHead) +
                           "me@box:~/src$ prof run ./app --n 8\n"    // line 7
                           "Warming up\n"                            // 8
                           "\n"
                           " Share (%)  Total (ns)  Calls  Name\n"   // 10
                           " ---------  ----------  -----  ------\n"  // 11
                           "      71.0      91,200     40  gemm\n"   // 12
                           "      29.0      37,250     40  norm\n"   // 13
                           "\n"
                           "The gemm dominates. $ 5 an hour is the price.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const Entry& e = lb.entries[0];
  ASSERT_EQ(e.commands.size(), 1u);
  EXPECT_EQ(e.commands[0].joined, "prof run ./app --n 8");
  EXPECT_EQ(e.commands[0].line, 7);
  ASSERT_EQ(e.outputs.size(), 2u);
  EXPECT_EQ(e.outputs[0].output_cue, "prompt");
  EXPECT_EQ(e.outputs[0].line, 8);
  EXPECT_EQ(e.outputs[1].line + 1, 10);  // the header is the table's first line again
  EXPECT_EQ(e.outputs[1].text.substr(0, 10), " Share (%)");
  EXPECT_NE(e.outputs[1].text.find("      29.0      37,250"), std::string::npos);  // its columns as aligned
  ASSERT_EQ(e.paragraphs.size(), 1u);  // the prose after it, no header left behind
  EXPECT_EQ(e.paragraphs[0].line, 15);
}

TEST(BlocksParse, PrintedLinesPastedAsTextAreOutput) {
  const std::string text = std::string(kHead) +
                           "==== Result ====\nBackend:  engine\nRequest throughput (req/s):   3.77\n"
                           "Mean TTFT (ms):   2074.09\n\nThe fused path is faster: 0.84 ms against 1.1 ms.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  EXPECT_EQ(lb.entries[0].outputs[0].line + 1, 7);
  EXPECT_EQ(lb.entries[0].paragraphs.size(), 1u);  // the prose stays prose
}

TEST(BlocksText, PrintedAfterCommandNeedsPrintedLinesOnly) {
  auto is_command = [](std::string_view l) { return l.rfind("python", 0) == 0; };
  EXPECT_EQ(PrintedAfterCommand("python a.py --x 1\n\nLatency: 0.5 ms\nMean TTFT (ms):  2.0\n", is_command), 2);
  EXPECT_EQ(PrintedAfterCommand("python a.py --x 1\npython b.py --y 2\n", is_command), -1);
  EXPECT_EQ(PrintedAfterCommand("python a.py --x 1\nexport X=1\n", is_command), -1);
  EXPECT_EQ(PrintedAfterCommand("Latency: 0.5 ms\n", is_command), -1);
}

// One fence of several commands, each followed by what it printed (a
// terminal pasted without prompts, the commands set off by blank lines):
// each command and its printed lines; a script of commands stays a script.
TEST(BlocksText, ATranscriptWithoutPromptsSplitsIntoCommandsAndTheirOutput) {
  auto is_command = [](std::string_view l) { return l.rfind("./", 0) == 0 || l.rfind("cd ", 0) == 0; };
  const std::string two = "./copy_bench\nRunning copy with N=1024\nTEST: copy_naive :  12.500 ms,  0.40 TB/s\n"
                          "TEST: copy_vec4  :   6.250 ms,  0.80 TB/s\n\n./copy_bench_async\n"
                          "Running copy with N=1024\nTEST: copy_async :   5.100 ms,  0.98 TB/s\n";
  const auto parts = CommandTranscript(two, is_command);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].command, 0);
  EXPECT_EQ(parts[0].printed, 1);
  EXPECT_EQ(parts[0].end, 4);
  EXPECT_EQ(parts[1].command, 5);
  EXPECT_EQ(parts[1].printed, 6);
  EXPECT_EQ(PrintedAfterCommand(two, is_command), -1);  // one command's printout is one part
  EXPECT_TRUE(CommandTranscript("cd build\n./copy_bench\n", is_command).empty());
  EXPECT_TRUE(CommandTranscript("./a\nTEST: x : 1.0 ms\n\n./b\n", is_command).empty());  // the last printed nothing
  const Logbook lb = ParseLogbook("# Copy timings\n\n## 2025-01-02 copy\n\n```bash\n" + two + "```\n", "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 2u);
  ASSERT_EQ(lb.entries[0].outputs.size(), 2u);
  EXPECT_EQ(lb.entries[0].outputs[1].line, 11);
}

// A bench tool's console printout pasted without its command, the machine
// lines it prints first (`Run on (...)`, `CPU Caches:`, `Load Average:`)
// included: a program's output, though few of its lines hold a figure.
TEST(BlocksText, ABenchToolsPrintoutWithItsMachineLinesLooksLikeOutput) {
  const std::string printout =
      "Run on (4 X 3100 MHz CPU s)\nCPU Caches:\n  L1 Data 48 KiB (x4)\n  L1 Instruction 32 KiB (x4)\n"
      "  L2 Unified 1280 KiB (x4)\n  L3 Unified 12288 KiB (x1)\nLoad Average: 0.52, 0.61, 0.70\n"
      "-------------------------------------------------------\nBenchmark             Time             CPU   Iterations\n"
      "-------------------------------------------------------\nBM_Scatter/256     4.21 us         4.20 us       166000\n";
  EXPECT_TRUE(LooksLikeOutput(printout));
  EXPECT_FALSE(LooksLikeOutput("CPU Caches:\n  L1 Data 48 KiB (x4)\nLoad Average: 0.52, 0.61, 0.70\n"));
}

// A progress log whose headings state each step's result: a heading that
// writes its number without the unit the other headings write (as many
// decimals) is in that unit; section numbers, versions, model names and
// ratios are no such numbers.
TEST(BlocksText, AHeadingsBareNumberTakesTheUnitTheOtherHeadingsWrite) {
  const std::vector<std::string> headings = {"Step 1: naive loop: 81.204 ms", "Step 2: tiled: 20.517 ms (3.96x)",
                                             "Step 3: swizzled smem: 19.880 (no gain)", "Step 4: H100 run 7.402 (2.7x)"};
  const HeadingUnit u = HeadingsUnit(headings);
  EXPECT_EQ(u.unit, "ms");
  EXPECT_EQ(u.decimals, 3);
  EXPECT_EQ(WithHeadingUnit(headings[2], u), "Step 3: swizzled smem: 19.880 ms (no gain)");
  EXPECT_EQ(WithHeadingUnit(headings[3], u), "Step 4: H100 run 7.402 ms (2.7x)");
  EXPECT_EQ(WithHeadingUnit(headings[1], u), headings[1]);
  EXPECT_EQ(WithHeadingUnit("1.250 Upgrade to toolkit 12.4.1", u), "1.250 Upgrade to toolkit 12.4.1");
  // One heading with a unit, two units, or numbers of different decimals: none.
  EXPECT_TRUE(HeadingsUnit({"Step 1: 81.204 ms", "Step 2: tiled"}).unit.empty());
  EXPECT_TRUE(HeadingsUnit({"Step 1: 81.204 ms", "Step 2: 2.100 s"}).unit.empty());
  EXPECT_TRUE(HeadingsUnit({"Step 1: 81.2 ms", "Step 2: 20.517 ms"}).unit.empty());
  EXPECT_TRUE(HeadingsUnit({"Run on 2x H100 80GB", "Run on 4x H100 80GB"}).unit.empty());
}

// A training loop's printed lines pasted amid prose (no fence, the
// author's words above and below them, in any language): the lines are an
// output of the entry, the words stay prose; two lines of `Name: value`
// prose are no such run.
TEST(BlocksText, PrintedRunsAmidProse) {
  const std::string text =
      "ohne autocast sehr langsam:\nstep 12 | loss: 9.104 | lr 1.2e-05 | dt: 5120.44ms | tok/sec: 102398.10\n"
      "......\nstep 13 | loss: 9.051 | lr 1.3e-05 | dt: 5098.02ms | tok/sec: 102848.77\nmit GradScaler stabil.\n";
  const auto runs = PrintedRuns(text);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].first, 1);
  EXPECT_EQ(runs[0].second, 3);
  EXPECT_TRUE(PrintedRuns("Before: 3.2 ms\nAfter: 2.9 ms\n").empty());
  EXPECT_TRUE(PrintedRuns("step 12 | loss: 9.104 | lr 1.2e-05 | dt: 5120.44ms\nthen it crashed.\n").empty());
  const Logbook lb = ParseLogbook(std::string(kHead) + "Langsam:\n" + text.substr(text.find('\n') + 1), "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  EXPECT_EQ(lb.entries[0].outputs[0].line + 1, 8);  // its first printed line
  EXPECT_EQ(lb.entries[0].outputs[0].end_line, 10);
  ASSERT_EQ(lb.entries[0].paragraphs.size(), 1u);
  EXPECT_EQ(lb.entries[0].paragraphs[0].text.find("step"), std::string::npos);
}

TEST(BlocksText, PrintedLinesAreStrict) {
  EXPECT_TRUE(PrintedLines("==== R ====\nMean TTFT (ms):  2.0\nP99 TTFT (ms):  9.1\n"));
  EXPECT_FALSE(PrintedLines("We ran it twice: 0.5 ms and 0.6 ms.\nThe second run was warm.\nNext: fuse.\n"));
  EXPECT_FALSE(PrintedLines("Latency: 0.5 ms\n"));  // one line is no block
}

// A label that names a unit, then a number: a figure written unit first
// ("**Cycles:** 147,734"); a heading over only such a bullet holds a record.
TEST(BlocksText, ALabelNamingAUnitStatesTheNumberAfterIt) {
  EXPECT_TRUE(StatesFigure("**Cycles:** 147,734"));
  EXPECT_TRUE(StatesFigure("Throughput (tok/s): 1,080,430"));
  EXPECT_FALSE(StatesFigure("Steps: 147"));
  EXPECT_FALSE(StatesFigure("Cycles: many"));
  const Logbook lb = ParseLogbook("# Notes\n\n## Log\n\n### Baseline\n- **Cycles:** 147,734\n- one op per cycle\n", "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].heading, "Baseline");
}

// A device monitor's status screen pasted after a run (nvidia-smi's box)
// shows the machine's state: neither a command nor an output, so none of
// its numbers (memory in use, power) becomes a run's figure; the training
// printout above it stays an output.
TEST(BlocksParse, ADeviceMonitorsScreenIsNoOutput) {
  const std::string text = std::string(kHead) +
                           "```\ntorchrun --nproc_per_node 8 train.py\n```\n\n"
                           "```\nstep 100 | loss 3.412 | tok/s 412,331\n```\n\n"
                           "```\n+------------------------------------------+\n"
                           "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"
                           "| N/A   45C    P0   312W / 700W |  62811MiB / 81559MiB |  98%  Default |\n```\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].outputs.size(), 1u);
  EXPECT_NE(lb.entries[0].outputs[0].text.find("step 100"), std::string::npos);
}

// A table pasted as tab-separated lines: a header and two rows at least,
// each line split by tabs (a run of them one separator) into as many cells.
TEST(ReaderBlocks, TabSeparatedLinesAreATable) {
  const auto rows = TabSeparatedRows({"BLOCK_N\twarps\tmedian (ms)", "512\t2\t0.115", "1024\t\t2\t0.187"});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][2], "median (ms)");
  EXPECT_EQ(rows[2], (std::vector<std::string>{"1024", "2", "0.187"}));
  EXPECT_TRUE(TabSeparatedRows({"a\tb", "1\t2"}).empty());                  // a header and one row
  EXPECT_TRUE(TabSeparatedRows({"a\tb", "1\t2", "1\t2\t3"}).empty());      // ragged
  EXPECT_TRUE(TabSeparatedRows({"a\tb", "1 2", "3\t4"}).empty());           // a line without tabs
  const Logbook lb = ParseLogbook("# Log\n\n## 2026-01-02 sweep\n\nWe sweep:\nBLOCK\tms\n256\t0.41\n512\t0.38\n", "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].tables.size(), 1u);
  EXPECT_EQ(lb.entries[0].tables[0].rows.size(), 2u);
  EXPECT_EQ(lb.entries[0].tables[0].line + 2, 7);  // its first row's line, as a pipe table's
}

}  // namespace
}  // namespace moelog::logbook
