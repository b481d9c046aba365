// The classify stage on figures that no run measured: a device's datasheet
// figures labelled by its name only, what a theory or a back-of-envelope
// part works out, and settings written as figures (an interval, a buffer,
// a timeout, a flag's value in prose).
#include <gtest/gtest.h>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/classify_settings.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string Why(const std::map<int, std::string>& why) { return ::testing::PrintToString(why); }

// List items and a table whose only label is a device's name and whose
// figures are its bandwidth, compute or memory, in a part that runs
// nothing, are its datasheet: no run. The reason names the device.
TEST(ReaderClassifySpecs, ADeviceNamedLineOrRowOfRatingsIsNoRun) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-02 Which card\n\n"
      "- V100: 900 GB/s\n"
      "- MI250X — 383 TFLOP/s fp16, 3.2 TB/s\n"
      "- RTX 4090: 1008 GB/s, 82.6 TFLOP/s\n\n"
      "| GPU | HBM BW | Peak fp16 |\n|---|---|---|\n"
      "| V100 32GB | 900 GB/s | 125 TFLOP/s |\n"
      "| MI250X | 3.2 TB/s | 383 TFLOP/s |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {5, 6, 7, 11, 12}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_NE(why[7].find("datasheet"), std::string::npos) << why[7];
  EXPECT_NE(why[11].find("datasheet"), std::string::npos) << why[11];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[7]), "classify");
}

// The same label with a command in its part, or a verb of measuring on the
// line, is a run on that device: kept.
TEST(ReaderClassifySpecs, ADeviceNamedLineThatWasMeasuredStays) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-03 Stream on two cards\n\n"
      "```bash\n./stream --all-devices\n```\n\n"
      "- V100: 812 GB/s\n- MI250X: 1.41 TB/s\n\n"
      "## 2026-04-04 Copy kernel\n\n"
      "- V100: achieved 790 GB/s\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {9, 10, 14}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
}

// A dated entry or a part headed as a theory, a derivation, a
// back-of-envelope or a performance model works out what could be: its
// figures are no runs when it runs nothing. A measured entry beside it
// stays.
TEST(ReaderClassifySpecs, ATheoryOrBackOfEnvelopePartWorksOutNoRun) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-05 Back-of-the-envelope\n\n"
      "Each sweep streams 6 GiB; at 900 GB/s a sweep is 7.2 ms.\n\n"
      "## 2026-04-06 Derivation of the bound\n\n"
      "- bytes per cell: 16 B\n- bound: 56 Gcell/s, 17.8 ms per sweep\n\n"
      "## 2026-04-07 First sweep\n\n```bash\n./stencil --n 4096\n```\n\n"
      "- sweep: 9.6 ms\n\n"
      "### Theory\n\n- ideal sweep: 7.2 ms\n\n"
      "### Performance model\n\n| n | model time |\n|---|---|\n| 4096 | 7.2 ms |\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(18)) << Why(why);
  for (int line : {5, 10, 22, 28}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
}

// Settings written as figures: an interval, a buffer, a timeout, a warmup,
// a chunk's size and a flag's value in prose configure the runs, they
// measure nothing; the measured time beside them stays.
TEST(ReaderClassifySpecs, SettingsWrittenAsFiguresAreNoRuns) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-08 Power sampling\n\n```bash\n./stencil --n 4096 --power\n```\n\n"
      "Power was read every cycle at 100 ms intervals with a 128 KiB ring buffer.\n\n"
      "Every run gets a timeout of 45 s and warmup 5 s; staging chunk size 8 MiB.\n\n"
      "The wrapper passes --duration 30s to the tool.\n\n"
      "- sweep: 9.4 ms\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(15)) << Why(why);
  for (int line : {9, 11, 13}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_NE(why[9].find("setting"), std::string::npos) << why[9];
  EXPECT_NE(why[13].find("setting"), std::string::npos) << why[13];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[9]), "classify");
}

// A plan's fields that set a test up (`**Duration**: 10 minutes` under an
// `**Objective**:` line) are settings, never figures: the section gets no
// recorded table. A field that reports a time keeps it ("Total Duration:
// 0.2 minutes", a duration with decimals).
TEST(ReaderClassifySettings, AFieldNamingATestsSettingIsNoFigure) {
  const std::string plan =
      "# Soak plan\n\n## Strategy\n\n### 1. Baseline run\n**Objective**: find the baseline\n"
      "- **Load**: 10 concurrent users\n- **Duration**: 10 minutes\n- **Ramp-up**: 5 s\n";
  std::map<int, std::string> why;
  EXPECT_TRUE(KeptLines(plan, &why).empty()) << Why(why);
  EXPECT_NE(why[8].find("a setting (of the test"), std::string::npos) << Why(why);
  EXPECT_EQ(FateStage("listed, not tabled: " + why[8]), "classify");
  const std::string run =
      "# Soak log\n\n## 2026-05-02 Soak\n\n```bash\n./soak --users 10\n```\n\n"
      "- **Total Duration**: 0.2 minutes\n- **Duration**: 12.5 s\n";
  const std::set<int> kept = KeptLines(run, &why);
  EXPECT_TRUE(kept.count(9) || kept.count(10)) << Why(why);
  EXPECT_TRUE(SettingFieldValue("**Duration**", "10 minutes"));
  EXPECT_TRUE(SettingFieldValue("Ramp-up:", "10 users/second"));
  EXPECT_FALSE(SettingFieldValue("Duration", "12.5 s"));
  EXPECT_FALSE(SettingFieldValue("Total Duration", "10 minutes"));
  EXPECT_FALSE(SettingFieldValue("Runtime (ms)", "4080"));
}

// A short flag's value in a command (`oha -z 10s`, `wrk -d 30s`) sets the
// run up: a fence holding only the command records nothing; the printout
// under a command still reads, and prose that says how long a run went does.
TEST(ReaderClassifySpecs, AShortFlagsValueInACommandIsNoRun) {
  const std::string none = "# Load log\n\n## 2026-03-01 smoke\n\n```bash\nhey -z 10s http://localhost:8080/\nwrk -d 30s -c 64 http://localhost:8080/\n```\n\nNotes only.\n";
  EXPECT_TRUE(KeptLines(none).empty());
  const std::string printed =
      "# Load log\n\n## 2026-03-02 wrk\n\n```\n$ wrk -d 30s -c 64 http://localhost:8080/\n"
      "  Latency     2.31ms    1.02ms  20.11ms   88.20%\nRequests/sec:  27611.43\n```\n";
  const std::set<int> kept = KeptLines(printed);
  EXPECT_FALSE(kept.count(6));
  EXPECT_TRUE(kept.count(7) || kept.count(8));
}

// A list led as a device's specifications ("Chip specs:"), a part headed as
// estimated, and a part that states the method of the runs hold no run;
// the measured entry above them stays.
TEST(ReaderClassifySpecs, ASpecsLeadAnEstimatedPartAndAMethodologyHoldNoRun) {
  const std::string doc =
      "# Chip notes\n\n## 1. Decode run\n\n```bash\n./decode --bs 1\n```\n\n- decode: 812 tok/s\n\n"
      "Chip specs:\n- Memory bandwidth: ~120 GB/s per chip\n- Compute: 400 TFLOP/s int8\n\n"
      "## 2. Comparison (estimated on the next chip)\n\n| Metric | now | next |\n|---|---|---|\n"
      "| Throughput | 790 tok/s | 1300 tok/s |\n\n"
      "## 3. Benchmark methodology\n\n- Clip lengths: 2 s, 8 s and 20 s of audio\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(9)) << Why(why);
  for (int line : {12, 13, 19, 23}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_NE(why[12].find("specifications"), std::string::npos) << why[12];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[12]), "classify");
}

// The parts of a section of observations or lessons ("## Key Observations"
// over "### Scale matters") are the section's own: its figures restate or
// explain runs, no part of it is an entry for what it holds. A part named
// for a piece of a model ("### Experiment 3: Fuse attention projections")
// or of a codec ("### Kept: NEON intra prediction") is no plan.
TEST(ReaderClassifySpecs, APartOfKeyObservationsIsNoEntryAndAProjectionIsNoPlan) {
  const std::string doc =
      "# Codec log\n\n## Experiments\n\n### Experiment 3: Fuse attention projections\n\n- step: 41.2 ms\n\n"
      "### Kept: NEON intra prediction\n\n| image | time |\n|---|---|\n| a.png | 0.1298 s |\n\n"
      "## Key Observations\n\n### Scale matters\n\nAt 16 GiB inputs the frame cost hides; ~13-15s is the floor.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(7)) << Why(why);
  EXPECT_TRUE(kept.count(13)) << Why(why);
  EXPECT_FALSE(kept.count(19)) << Why(why);
}

// A whole number assigned in a code span (`min_gap_since_best = 600ms`, in
// a list of a rule's settings) is a setting; what a change saved, written
// with a word of approximation ("saved about 212ms"), is a saving: no run
// of either. The measured entry after them stays.
TEST(ReaderClassifySpecs, AnAssignmentInCodeAndASavingAboutAreNoRuns) {
  const std::string doc =
      "# Search log\n\n## 2026-05-02 Cutoff replay\n\nReplay rule:\n\n- `min_depth = 8`\n"
      "- `min_gap_since_best = 600ms`\n\nFindings:\n\n- a width of 24 saved about 212ms on average.\n\n"
      "## 2026-05-03 Search baseline\n\n```bash\n./search --bench\n```\n\n- move time: 1218 ms\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(20)) << Why(why);
  EXPECT_FALSE(kept.count(8)) << Why(why);
  EXPECT_FALSE(kept.count(12)) << Why(why);
  EXPECT_NE(why[8].find("setting"), std::string::npos) << why[8];
  EXPECT_NE(why[12].find("saves"), std::string::npos) << why[12];
}

// A dated entry whose heading compares a run with what was expected ("##
// 2026-04-09 Faster than expected") records that run, command or not.
TEST(ReaderClassifySpecs, ADatedEntryFasterThanExpectedStays) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-09 Fused sweep faster than expected\n\n- sweep: 8.1 ms\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_TRUE(kept.count(5)) << Why(why);
}

// A table whose columns are devices only ("| | V100 | MI250X |") over rows
// of ratings, and a field naming a device before its ratings ("- GPU: RTX
// 4090, 1008 GB/s"), in a part that runs nothing, are datasheets; the
// number of a device's name ("RTX 4090") is no value of a list.
TEST(ReaderClassifySpecs, DeviceColumnsAndAFieldNamingTheDeviceAreDatasheets) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-10 Cards compared\n\n| | V100 | MI250X |\n|---|---|---|\n"
      "| HBM bandwidth | 900 GB/s | 3.2 TB/s |\n| Peak fp16 | 125 TFLOP/s | 383 TFLOP/s |\n\n"
      "- GPU: RTX 4090, 1008 GB/s memory bandwidth\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {7, 8, 10}) EXPECT_FALSE(kept.count(line)) << line << Why(why);
  EXPECT_NE(why[7].find("datasheet"), std::string::npos) << why[7];
  EXPECT_NE(why[10].find("datasheet"), std::string::npos) << why[10];
  EXPECT_EQ(why[10].find("4090 GB/s"), std::string::npos) << why[10];
}

// A line of prose that gives a device's ratings with a verb of having ("The
// V100 has 900 GB/s of HBM2 bandwidth", "the MI250X offers 3.2 TB/s") is its
// datasheet; a line that says the run reached a figure on it is a run.
TEST(ReaderClassifySpecs, ADeviceThatHasItsRatingsInProseIsNoRun) {
  const std::string doc =
      "# Stencil notes\n\n## 2026-04-11 Cards\n\nThe V100 has 900 GB/s of HBM2 bandwidth and 125 TFLOP/s of fp16.\n\n"
      "By the sheet the MI250X offers 3.2 TB/s.\n\n## 2026-04-12 Stream\n\nThe stream kernel reached 812 GB/s on the V100.\n";
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  EXPECT_FALSE(kept.count(5)) << Why(why);
  EXPECT_FALSE(kept.count(7)) << Why(why);
  EXPECT_TRUE(kept.count(11)) << Why(why);
  EXPECT_NE(why[5].find("a device's ratings"), std::string::npos) << why[5];
  EXPECT_EQ(FateStage("listed, not tabled: " + why[5]), "classify");
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A block tagged with a style sheet's or a configuration file's language
// (```css, ```yaml, ```toml, ```ini) holds settings, no printed run: its
// durations and sizes are what the file sets. A ```text block and a ```json
// block of a tool's printout stay its output.
TEST(ReaderClassifySettings, AConfigLanguageBlockHoldsSettings) {
  const std::string doc =
      "# Dashboard notes\n\n## Animations\n\n"
      "```css\n--transition-fast: 150ms ease;\n--transition-slow: 600ms ease;\n```\n\n"  // 6, 7
      "## Server\n\n```yaml\nserver:\n  read_timeout: 30s\n  cache_size: 512MB\n```\n\n"  // 14, 15
      "## Bench run\n\n```text\np50 latency: 12.3 ms\n```\n\n"                           // 21
      "```json\n{\"p99_latency_ms\": 48.1, \"throughput_rps\": 2210.5}\n```\n";         // 25
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {6, 7, 14, 15}) EXPECT_FALSE(kept.count(line)) << line << ::testing::PrintToString(why);
  for (int line : {21, 25}) EXPECT_TRUE(kept.count(line)) << line << ::testing::PrintToString(why);
}

// A test plan's parts: "- **Duration**: 12 hours" beside a load and an
// objective sets the test up, as does a length beside a measured p99 or
// under the part's own command; a length written with decimals reports one.
TEST(ReaderClassifySettings, APlannedTestsLengthIsASettingNotARun) {
  const std::string doc =
      "# Load test plan\n\n"
      "## Strategy\n\n"
      "### 1. Soak\n"                                          // 5
      "**Objective**: Find slow leaks\n"
      "- **Load**: 200 concurrent users\n"
      "- **Duration**: 12 hours\n\n"                           // 8
      "### 2. Smoke run\n"                                     // 10
      "- **Duration**: 61.5 minutes\n\n"                       // 11
      "### 3. Spike\n"                                         // 13
      "- **Duration**: 10 minutes\n"                           // 14
      "- **p99**: 412 ms\n\n"                                  // 15
      "### 4. Endurance\n\n"                                   // 17
      "```bash\nk6 run --duration 30m soak.js\n```\n\n"        // 19-21
      "- **Duration**: 30 minutes\n";                          // 23
  std::map<int, std::string> why;
  const std::set<int> kept = KeptLines(doc, &why);
  for (int line : {8, 14, 23}) {
    EXPECT_FALSE(kept.count(line)) << line << Why(why);
    EXPECT_NE(why[line].find("a setting"), std::string::npos) << line << ": " << why[line];
  }
  for (int line : {11, 15}) EXPECT_TRUE(kept.count(line)) << line << Why(why);
}

}  // namespace
}  // namespace moelog::logbook::reader
