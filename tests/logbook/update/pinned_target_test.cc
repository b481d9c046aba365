// The hardware a logbook pins (front matter or a labelled line), which
// `update` and `next` take as their target when no --target is given.
#include <gtest/gtest.h>

#include "logbook/update/pinned_target.h"

namespace moelog::logbook {
namespace {

TEST(PinnedTarget, FrontMatterHardwareKeyPinsItsGpu) {
  const PinnedHardware p = FindPinnedHardware("---\ntopic: ep\nhardware: 2 nodes of 8x H100 SXM\n---\n# Log\n");
  EXPECT_EQ(p.name, "h100");
  EXPECT_EQ(p.where, "front matter, hardware:");
}

TEST(PinnedTarget, ALabelledLineWithACountPrefixPins) {
  const PinnedHardware p = FindPinnedHardware("# Log\n\n## Scope\n- Goal: x\n- **Hardware**: 8xB200, one node\n");
  EXPECT_EQ(p.name, "b200");
  EXPECT_EQ(p.where, "line 5, hardware:");
  EXPECT_EQ(FindPinnedHardware("- Config: GB200 NVL72, EP36\n").name, "gb200");  // GB200 is not B200
}

TEST(PinnedTarget, SeveralGpusOrOnlyProsePinNothing) {
  const PinnedHardware two = FindPinnedHardware("- hardware: 8x H100\n\n- hardware: GB200 x4\n");
  EXPECT_EQ(two.name, "");
  EXPECT_EQ(two.named.size(), 2u);
  // A GPU named in prose, a description or a title is no pin.
  EXPECT_EQ(FindPinnedHardware("---\ndescription: runs on H100\n---\n# EP on H100\nWe used H100s.\n").name, "");
  EXPECT_EQ(FindPinnedHardware("- Hardware: v5p-8\n").name, "");  // a TPU file is not a GPU target
}

TEST(PinnedTarget, FrontMatterWinsOverLines) {
  EXPECT_EQ(FindPinnedHardware("---\ngpu: H200\n---\n- Config: 2x8 H100\n").name, "h200");
}

}  // namespace
}  // namespace moelog::logbook
