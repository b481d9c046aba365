// The reader's blocks stage: what each part of an entry is -- a command
// (fenced, `$ `-prompted, a Command field), an output (after a command,
// under an Output/Log label or sub-heading, or one that reads as a program's
// printed lines), a table with the sub-heading it sits under.
#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

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

}  // namespace
}  // namespace moelog::logbook
