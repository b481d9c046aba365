// Reader stage classify: a table headed as a datasheet, its columns devices
// and their ratio, states the devices' ratings, whatever the unit of a row
// (logbook/reader/classify_specs.cc).
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string AllWhy(const std::map<int, std::string>& why) {
  std::string out;
  for (const auto& [line, w] : why) out += std::to_string(line) + ": " + w + "\n";
  return out;
}

// "| spec | B200 SXM | B300 SXM | ratio |" over memory, bandwidth and power
// rows, in a part that runs nothing: a datasheet; a table of the same
// devices' measured step times (headed by a workload) is a run.
TEST(ReaderClassifySpecTables, ASpecTableWithARatioColumnIsADatasheet) {
  const std::string doc =
      "# Upgrade notes\n\n## Same-generation upgrades\n\n"
      "| spec | B200 SXM | B300 SXM | ratio |\n|---|---:|---:|---:|\n"
      "| HBM (usable) | ~180GiB | ~288GiB | 1.6x |\n| HBM bandwidth | 8.0 TB/s | 8.0 TB/s | 1.0x |\n"
      "| TDP | 1000W | 1300W | 1.3x |\n\n"
      "## Our training step\n\n| model | B200 SXM | B300 SXM | ratio |\n|---|---:|---:|---:|\n"
      "| llama-8b | 412 ms | 398 ms | 1.04x |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 9}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
  EXPECT_NE(why[7].find("datasheet"), std::string::npos) << why[7];
  EXPECT_TRUE(kept.count(15)) << AllWhy(why);
}

// "a compute capacity of 312 TFLOPS": a device's capacity is its rating,
// not a reading; the run's own rate beside it stays.
TEST(ReaderClassifySpecTables, ADevicesCapacityIsItsRating) {
  const std::string doc =
      "# Notes\n\n## Small model\n\n- 95M parameters may not fully saturate the A100 312 TFLOPS capacity\n"
      "- The run reached 35.0 TFLOPS\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(5)) << AllWhy(why);
  EXPECT_TRUE(kept.count(6)) << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A rating word right after a figure's unit ("- Power: 350W TDP", "3.35
// TB/s nominal") makes it the device's rating, not a reading; a power read
// under load ("312 W average") stays a run's figure.
TEST(ReaderClassifySpecTables, ARatingWordAfterTheUnitIsARating) {
  const std::string doc =
      "# Card notes\n\n## PCIe card\n\n- **Power**: 350W TDP\n- **Bandwidth**: 2.0 TB/s nominal\n\n"  // 5, 6
      "## Under load\n\n- **Power**: 312 W average under load\n";                                    // 10
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 6}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
  EXPECT_TRUE(kept.count(10)) << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// Prose under a datasheet that repeats its cells ("288 vs 180 GiB is a big
// jump") restates the datasheet, no run; a measured figure in prose beside
// it ("we measured 171 GiB in use") stays.
TEST(ReaderClassifySpecTables, ProseRepeatingTheDatasheetRestatesIt) {
  const std::string doc =
      "# Upgrade notes\n\n## Same-generation upgrades\n\n"
      "| spec | B200 SXM | B300 SXM | ratio |\n|---|---:|---:|---:|\n"
      "| HBM (usable) | ~180GiB | ~288GiB | 1.6x |\n| TDP | 1000W | 1300W | 1.3x |\n\n"  // 7, 8
      "- Memory: 288 vs 180GiB (1.6x) is a big jump for long context.\n"                 // 10
      "- Our step peaked at 171.5 GiB of HBM on the B200.\n";                              // 11
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(10)) << AllWhy(why);
  EXPECT_TRUE(kept.count(11)) << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A section headed by a device's name alone whose list gives only its
// ratings (memory, bandwidth, cache), as a tool prints a device's
// properties, states the device; a device's section that records a run's
// rate beside its memory keeps both.
TEST(ReaderClassifySpecTables, ADevicesPropertyListIsItsDatasheet) {
  const std::string doc =
      "# Devices\n\n## [0] `NVIDIA GeForce RTX 3090`\n\n* Number of SMs: 82\n"
      "* Global Memory: 23810 MiB Free / 24268 MiB Total\n"                          // 6
      "* Memory Bus Peak: 936 GB/sec (384-bit)\n* L2 Cache Size: 6144 KiB\n"          // 7, 8
      "* ECC Enabled: No\n\n"
      "## RTX 4090\n\n- decode: 61.2 tokens/s\n- peak memory: 21.7 GiB\n";          // 13, 14
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {6, 7, 8}) EXPECT_FALSE(kept.count(line)) << line << "\n" << AllWhy(why);
  EXPECT_TRUE(kept.count(13)) << AllWhy(why);  // its memory joins the row of line 13
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// "the RTX 5090's 32GB leaves room": a device's possessive states its own rating,
// as a verb of having does; a run's memory in use stays a figure.
TEST(ReaderClassifySpecTables, ADevicesPossessiveIsItsRating) {
  const std::string doc =
      "# Notes\n\n## Bottlenecks\n\n- **VRAM:** the RTX 5090's 32GB leaves room for an 8B adapter run\n\n"
      "## 2025-04-01 run\n\n- Peak memory: 23.1 GB on the RTX 5090\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(5)) << AllWhy(why);
  EXPECT_NE(why[5].find("RTX 5090's"), std::string::npos) << AllWhy(why);
  EXPECT_TRUE(kept.count(9)) << AllWhy(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
