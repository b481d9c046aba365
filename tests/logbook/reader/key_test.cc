// The key stage: the configuration of a measurement from its command and the
// entry's hardware statements.
#include <gtest/gtest.h>

#include "logbook/reader/internal.h"

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

}  // namespace
}  // namespace moelog::logbook::reader
