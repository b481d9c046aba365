// The reader's segment stage: which headings are entries, by structure (a
// date anywhere in the heading, an ordinal or numbered section, a heading
// under a log-like section, a section that holds a command or figures when
// the document has no log structure), and the IDs of undated entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook {
namespace {

const char* kRun = "```bash\npython bench.py --tokens 64 --topk 2\n```\n\n";
const char* kRunText() { return kRun; }

std::vector<std::string> Headings(const Logbook& lb) {
  std::vector<std::string> out;
  for (const auto& e : lb.entries) out.push_back(e.heading);
  return out;
}

TEST(SegmentParse, DateAnywhereWithAnySeparator) {
  const std::string text = std::string("# Kernel notes\n\n## 2026-06-24 \xC2\xB7 Tiled GEMM\n\n") + kRun +
                           "## Worklog 2026-06-25\n\n" + kRun + "## 2026-06-26 | fused epilogue\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[0].date, "2026-06-24");
  EXPECT_EQ(lb.entries[0].label, "Tiled GEMM");
  EXPECT_EQ(lb.entries[1].date, "2026-06-25");
  EXPECT_EQ(lb.entries[1].label, "Worklog");
  EXPECT_EQ(lb.entries[2].label, "fused epilogue");
  for (const auto& e : lb.entries) EXPECT_EQ(e.commands.size(), 1u) << e.heading;
}

// A part of a dated entry that dates itself anywhere ("### Dynamic eviction
// (2026-09-22)") is an entry of its own; the dated entry above it ends
// before it. A part naming the record ("### Results (2026-09-22)") stays a part.
TEST(SegmentParse, ADatedPartOfADatedEntryIsAnEntryOfItsOwn) {
  const std::string text = std::string("# Perf log\n\n## 2026-09-22 21:22 - eval\n\n") + kRun +
                           "### Results (2026-09-22)\n\n- 41.2 ms\n\n"           // 9, 11
                           "### Dynamic eviction (2026-09-22 Asia/Shanghai)\n\n" + kRun;  // 13
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u) << ::testing::PrintToString(Headings(lb));
  EXPECT_EQ(lb.entries[1].label, "Dynamic eviction Asia/Shanghai");
  EXPECT_TRUE(lb.entries[0].holds_entries);
  EXPECT_EQ(lb.entries[0].end_line, 11);
  EXPECT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_EQ(lb.entries[1].commands.size(), 1u);
}

TEST(SegmentParse, NumberedSectionsAreEntriesWithIdsFromTheirWords) {
  const std::string text = std::string("# Speedrun\n\n## 1. Initial setup\n\n") + kRun + "## 2. Optimizers\n\n" +
                           "### 2.1 Muon\n\n" + kRun + "### 2.2 AdamW\n\n" + kRun + "## Experiment 3: routing\n\n" +
                           kRun + "## Run 12\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_GE(h.size(), 5u);
  EXPECT_EQ(h[0], "1. Initial setup");
  EXPECT_NE(std::find(h.begin(), h.end(), "2.1 Muon"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "2.2 AdamW"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "Experiment 3: routing"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "Run 12"), h.end());
  for (const auto& e : lb.entries) {
    EXPECT_TRUE(e.date.empty()) << e.heading;
    EXPECT_EQ(e.id.rfind("SPEEDRUN-", 0), 0u) << e.id;
  }
  EXPECT_EQ(lb.entries[0].id, "SPEEDRUN-1-INITIAL-SETUP");
}

// A numbered section whose parts count its versions afresh, each heading
// stating the version's result ("### 2. Hash map (122.27s)"): each part is
// an entry; a numbered part that states nothing stays a sub-heading.
TEST(SegmentParse, NumberedPartsThatStateTheirResultAreEntries) {
  const std::string text = std::string("# Row counter\n\n## 1. Goal\n\nCount fast.\n\n## 2. Versions\n\n") +
                           "### 1. Plain scan (410.2s)\n\nOne line at a time.\n\n"
                           "### 2. Hash map (98.70s)\n\nOpen addressing.\n\n"
                           "## 3. Design\n\n### 1. Reading\n\nA text file, 4 threads.\n\n### 2. Parsing\n\nBy hand.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  EXPECT_NE(std::find(h.begin(), h.end(), "1. Plain scan (410.2s)"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "2. Hash map (98.70s)"), h.end());
  EXPECT_NE(std::find(h.begin(), h.end(), "3. Design"), h.end());
  EXPECT_EQ(std::find(h.begin(), h.end(), "1. Reading"), h.end());
  EXPECT_EQ(std::find(h.begin(), h.end(), "2. Parsing"), h.end());
}

TEST(SegmentParse, UndatedIdsComeFromWordsNotPosition) {
  const std::string a = std::string("# Log\n\n## Worklog\n\n### Muon\n\n") + kRun + "### AdamW\n\n" + kRun;
  const std::string b = std::string("# Log\n\n## Worklog\n\n### AdamW\n\n") + kRun + "### Muon\n\n" + kRun;
  const Logbook la = ParseLogbook(a, "a.md"), lb = ParseLogbook(b, "b.md");
  ASSERT_EQ(la.entries.size(), 2u);
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(la.entries[0].id, lb.entries[1].id);
  EXPECT_EQ(la.entries[1].id, lb.entries[0].id);
  EXPECT_EQ(la.entries[0].id, "LOG-MUON");
}

// Headings written in a script without ASCII letters (Chinese, Japanese,
// Russian) still give IDs from their own words, not their positions: two
// such entries swapped keep their IDs.
TEST(SegmentParse, UndatedIdsOfHeadingsInOtherScriptsComeFromTheirWords) {
  const std::string x = "### \xE6\x95\xB0\xE6\x8D\xAE\xE9\xA2\x84\xE5\x8F\x96\n\n";  // 数据预取
  const std::string y = "### \xE6\xB7\xB7\xE5\x90\x88\xE7\xB2\xBE\xE5\xBA\xA6\n\n";  // 混合精度
  const Logbook la = ParseLogbook("# Log\n\n## Worklog\n\n" + x + kRun + y + kRun, "a.md");
  const Logbook lb = ParseLogbook("# Log\n\n## Worklog\n\n" + y + kRun + x + kRun, "b.md");
  ASSERT_EQ(la.entries.size(), 2u);
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(la.entries[0].id, lb.entries[1].id);
  EXPECT_EQ(la.entries[1].id, lb.entries[0].id);
  EXPECT_NE(la.entries[0].id, la.entries[1].id);
  EXPECT_EQ(UndatedIdWords("GPU \xE5\x88\xA9\xE7\x94\xA8\xE7\x8E\x87"), "GPU");  // ASCII words kept as before
}

TEST(SegmentParse, HeadingsUnderLogLikeSections) {
  for (const char* section : {"Worklog", "Journal", "Runs", "Results", "Experiments", "Log"}) {
    const std::string text = std::string("# T\n\n## Setup\n\nSome words.\n\n## ") + section +
                             "\n\n### Fused kernel\n\n" + kRun + "### Split-K\n\n" + kRun;
    const Logbook lb = ParseLogbook(text, "t.md");
    ASSERT_EQ(lb.entries.size(), 2u) << section;
    EXPECT_EQ(lb.entries[0].label, "Fused kernel") << section;
    EXPECT_EQ(lb.entries[1].commands.size(), 1u) << section;
  }
}

TEST(SegmentParse, AnUndatedEntryInsideADatedJournal) {
  const std::string text = std::string("# Journal\n\n## 2026-06-24 \xC2\xB7 baseline\n\n") + kRun +
                           "## Follow-up on tile sizes\n\n" + kRun + "## 2026-06-25 \xC2\xB7 fused\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  EXPECT_EQ(lb.entries[1].heading, "Follow-up on tile sizes");
  EXPECT_TRUE(lb.entries[1].date.empty());
  EXPECT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_EQ(lb.entries[2].date, "2026-06-25");
}

TEST(SegmentParse, NoLogStructureStillYieldsSectionsWithCommandsOrFigures) {
  const std::string text = std::string("# Notes on the kernel\n\n## Background\n\nWhy we tile.\n\n## Benchmark\n\n") +
                           kRun + "## Numbers\n\n| size | time |\n|---|---|\n| 1024 | 0.31 ms |\n\n## Ideas\n\nMore later.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "Benchmark");
  EXPECT_EQ(h[1], "Numbers");
  EXPECT_EQ(lb.entries[1].tables.size(), 1u);
}

// Sections named by a number alone (`## 12`, `## #7`, a build or revision
// number) over a bench tool's printout under a machine's sub-heading: each
// section is an entry, its machines its sub-headings.
TEST(SegmentParse, NumberedRevisionsOverABenchToolsPrintoutAreEntries) {
  auto printout = [](const char* time) {
    return std::string("```\nRun on (4 X 3100 MHz CPU s)\nCPU Caches:\n  L1 Data 48 KiB (x4)\n  L2 Unified 1280 KiB (x4)\n") +
           "Load Average: 0.52, 0.61, 0.70\n----------------------------------------------\n" +
           "Benchmark          Time             CPU   Iterations\n----------------------------------------------\n" +
           "BM_Scatter     " + time + "         " + time + "       166000\n```\n\n";
  };
  const std::string text = "# Scatter timings\n\n## 12\n\n### Desk machine\n\n" + printout("4.21 us") +
                           "### Small laptop\n\n" + printout("6.80 us") + "## #7\n\n### Desk machine\n\n" +
                           printout("9.95 us");
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "12");
  EXPECT_EQ(h[1], "#7");
  EXPECT_EQ(lb.entries[0].outputs.size(), 2u);
  EXPECT_NE(lb.entries[0].id, lb.entries[1].id);
}

// A worklog's title over a list of results, one item per version, its
// figure at the item's end (micro sign or Greek mu), then sections: the
// title's own text is an entry; a list of hardware facts is none.
TEST(SegmentParse, ATitleOverAListOfResultsIsAnEntryOfItsOwnText) {
  const std::string text =
      "# Scatter kernel worklog\n\n- `scatter_ref.py`: 8120\xCE\xBCs\n"
      "- `scatter_v1.py`: one block per expert, then a prefix sum. 911\xCE\xBCs.\n"
      "- `scatter_v2.py`: sorted once, reused by gather. 640\xC2\xB5s\n\n## Version 2 notes\n\n"
      "| tokens | v2 |\n|---|---|\n| 512 | 640 us |\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "Scatter kernel worklog");
  const std::string hardware = "# Rig\n\n- GPU: 8x H100 80GB\n- Host: 2 TB RAM\n- Disk: 4 TB NVMe\n\n## Version 2 notes\n\n"
                               "| tokens | v2 |\n|---|---|\n| 512 | 640 us |\n";
  EXPECT_EQ(Headings(ParseLogbook(hardware, "t.md")).size(), 1u);
}

// A document that is its title and the record under it (a bench tool's
// table or printout, dated bold lines between runs): the title is the one
// entry of its own text; a sentence of hardware under a title holds no
// record.
TEST(SegmentParse, ATitleOverItsRecordIsTheEntry) {
  const std::string table = std::string("# Parser benchmarks #\n\n**3/14/2024**\n\n| bench name | result |\n|---|---|\n") +
                            "| parse_small | 1,210 ns/iter (+/- 15) |\n| parse_large | 8,402 ns/iter (+/- 96) |\n\n"
                            "## profile ##\n\n`perf record -g ./parse_bench`\n";
  Logbook lb = ParseLogbook(table, "t.md");
  ASSERT_GE(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].heading, "Parser benchmarks");
  EXPECT_EQ(lb.entries[0].segment_rule, "preamble");
  EXPECT_EQ(lb.entries[0].tables.size(), 1u);
  const std::string printout = "# Copy kernel timings\n\n```\n./copy_bench\nTEST: copy_naive   :  12.500 ms,  0.40 TB/s\n"
                               "TEST: copy_vec4    :   6.250 ms,  0.80 TB/s\n```\n";
  lb = ParseLogbook(printout, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].heading, "Copy kernel timings");
  lb = ParseLogbook("# Tiling notes\n\nAll runs on one H100 with 80 GB.\n", "t.md");
  EXPECT_TRUE(lb.entries.empty());
}

TEST(SegmentParse, ResearchGroupFormsReadAsBefore) {
  // Sub-headings of an entry stay sub-headings, even when numbered or dated
  // in passing; section names that are the logbook's own are no entries.
  const std::string text = std::string("# T\n\n## Scope\n\n- x\n\n## Experiment Log\n\n") +
                           "### 2026-02-10 10:43 - MOE-I8-001 smoke\n\n" + kRun + "#### Arm 1\n\ntext\n\n" +
                           "#### Results (2026-02-11)\n\ntext\n\n## Negative Results Index\n\n- none\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].id, "MOE-I8-001");
  EXPECT_EQ(lb.entries[0].subheadings.size(), 2u);
}

TEST(SegmentParse, SeveralTopLevelHeadingsAreSectionsNotTitles) {
  // `# 00: ...` numbered kernels, each with `### 01: ...` parts, after a
  // preamble of `###` notes: each `#` is an entry, its parts sub-headings.
  const std::string text = std::string("### Plan:\n\nTile first.\n\n# 00: Naive kernel\n\n### 01: Benchmarking:\n\n") +
                           kRun + "### 02: What next?\n\nCoalesce.\n\n# 01: Coalesced kernel\n\n### 01: Benchmarking:\n\n" +
                           kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(lb.entries[0].heading, "00: Naive kernel");
  EXPECT_EQ(lb.entries[0].subheadings.size(), 2u);
  EXPECT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_NE(lb.entries[0].id, lb.entries[1].id);
  EXPECT_TRUE(lb.title.empty());
}

TEST(SegmentParse, PastedOutputUnderTopLevelHeadingsMakesEntries) {
  // A harness's report pasted without a fence, closed by a rule of '='
  // (which Markdown reads as a heading's underline): output, not a heading.
  const std::string report = "===== Serving Result =====\nthroughput 12.5 tok/s  3.4 ms\nlatency 3.1 ms 4.4 ms\n"
                             "=========================\n\n";
  const std::string text = "# request rate: 2\n\n" + report + "# request rate: 4\n\n" + report;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(lb.entries[0].label, "request rate: 2");
  EXPECT_EQ(lb.entries[1].heading_line, 8);
  EXPECT_NE(lb.entries[0].id, lb.entries[1].id);
}

TEST(SegmentParse, HeadingMarksAreSkipped) {
  const std::string text = std::string("# Serving\n\n## Procedure\n\n#### <a name=\"t3\"></a>\xE2\x9C\x8D\xEF\xB8\x8F Test 1: "
                                       "two pods\n\n") + kRun + "### <a name=\"t4\"></a>\xF0\x9F\x9A\x80 Test 2: one pod\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(lb.entries[0].label, "Test 1: two pods");
  EXPECT_EQ(lb.entries[0].id, "SERVING-TEST-1-TWO-PODS");
  EXPECT_EQ(lb.entries[1].label, "Test 2: one pod");
  EXPECT_EQ(SkipHeadingMarks("<a name=\"x\"></a> \xE2\x9C\x85 Done"), "Done");
  EXPECT_EQ(SkipHeadingMarks("Caf\xC3\xA9 notes"), "Caf\xC3\xA9 notes");
}

TEST(SegmentParse, LogSectionsByTheirLastWordAndTheirEveryRecord) {
  // "Performance Optimization Log": a log; its "### Baseline" holds a
  // figure and is an entry like its numbered siblings.
  const std::string text = std::string("## Performance Optimization Log\n\n### Baseline\n\n- **Time:** 14.2 ms\n\n") +
                           "### Optimization 1: packing\n\n- **Time:** 10.1 ms\n\n## Backlog\n\n- more\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "Baseline");
  EXPECT_EQ(lb.entries[0].segment_rule, "log section");
  EXPECT_TRUE(IsLogSectionName("Experiments Log"));
  EXPECT_FALSE(IsLogSectionName("How to read the log of a very long run"));
}

TEST(SegmentParse, ALogSectionWithoutEntriesThatHoldsARecordIsOne) {
  // The record sits in the section's own text; its part holds none.
  const std::string text = std::string("# Kernel\n\n## Goal\n\nBeat 2 ms.\n\n## Benchmarks\n\n") +
                           "| impl | time |\n|---|---|\n| naive | 3.1 s |\n| simd | 1.2 s |\n\n### How it was timed\n\n"
                           "Wall clock.\n\n## Conclusion\n\nFaster.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].heading, "Benchmarks");
  EXPECT_EQ(lb.entries[0].tables.size(), 1u);
  EXPECT_EQ(lb.entries[0].subheadings.size(), 1u);
  // A figure whose unit ends its key is a record: the part holding it is
  // the log's entry.
  const Logbook kv = ParseLogbook("# K\n\n## Evidence (to be filled)\n\n### Changes\n\n- fused\n\n### Key metrics\n\n"
                                  "- `avg_step_ms=20.4027`\n", "t.md");
  ASSERT_EQ(kv.entries.size(), 1u);
  EXPECT_EQ(kv.entries[0].heading, "Key metrics");
}

TEST(SegmentParse, ANumberedPartWithAnotherOrdinalWordIsAnEntry) {
  const std::string text = std::string("# Report\n\n## Journey\n\n### Week 1: exploration\n\n#### Phase 1: loads\n\n") + kRun +
                           "#### Phase 2: threads\n\n" + kRun + "### Week 2: tuning\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[1], "Phase 1: loads");
  EXPECT_EQ(h[2], "Phase 2: threads");
  EXPECT_EQ(lb.entries[2].commands.size(), 1u);
}

TEST(SegmentParse, AJournalEntryBeforeTheFirstNumberedOne) {
  // Sessions written above the numbered list they led to are entries too.
  const std::string text = std::string("# Agent notes\n\n## Status\n\n### Latest session: faster\n\n") + kRun +
                           "### Earlier session\n\n" + kRun + "## Optimizations\n\n### 1. Fusion\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], "Latest session: faster");
  EXPECT_EQ(lb.entries[0].segment_rule, "journal");
}

// What a document states before its first entry, or in an undated section
// between its entries, is read when it holds a record: the text right under
// the title (a timing table), a `## Baseline` at the entries' level, a
// `## Results` table above numbered entries. Each is an entry of its own text
// only, its ID from its heading's words; the entries below stay entries.
TEST(SegmentParse, MeasuredPartsBeforeAndBetweenEntriesAreEntriesOfTheirOwnText) {
  const std::string text = std::string("# Fused router notes\n\nThe prior record against mine:\n\n") +
                           "| run | time (s) |\n|---|---|\n| prior | 132.5 |\n| mine | 131.2 |\n\n"
                           "## Baseline (pre-optimization)\n\n| impl | time (ms) |\n|---|---|\n| naive | 3.10 |\n\n"
                           "## Results\n\n| step | time (ms) |\n|---|---|\n| 1 | 2.40 |\n\n"
                           "## 1. Tiling\n\n" + kRun + "## 2. Fusion\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 5u);
  EXPECT_EQ(lb.title, "Fused router notes");
  EXPECT_EQ(h[0], "Fused router notes");
  EXPECT_EQ(lb.entries[0].segment_rule, "preamble");
  EXPECT_EQ(lb.entries[0].tables.size(), 1u);
  EXPECT_LT(lb.entries[0].end_line, lb.entries[1].heading_line);  // its own text only
  EXPECT_EQ(h[1], "Baseline (pre-optimization)");
  EXPECT_EQ(lb.entries[1].segment_rule, "section");
  EXPECT_EQ(h[2], "Results");
  EXPECT_EQ(lb.entries[2].segment_rule, "summary");
  EXPECT_EQ(lb.entries[2].tables.size(), 1u);
  EXPECT_EQ(h[3], "1. Tiling");
  EXPECT_EQ(lb.entries[3].segment_rule, "numbered");
  // IDs from the heading's words, not the position.
  EXPECT_NE(lb.entries[1].id.find("BASELINE"), std::string::npos) << lb.entries[1].id;
  EXPECT_NE(lb.entries[2].id.find("RESULTS"), std::string::npos) << lb.entries[2].id;
}

// A measured section at the entries' level whose record sits in its parts
// (`### Decode (tok/s)` over a table) and whose parts are no entries: the
// section is one entry over them, its parts its sub-headings.
TEST(SegmentParse, AMeasuredSectionWhosePartsHoldTheRecordIsOneEntryOverThem) {
  const std::string text = std::string("# Tuning log\n\n## Baseline (before tuning)\n\nv0.3 build, one GPU\n\n") +
                           "### Decode (tok/s)\n\n| model | short | long |\n|---|---|---|\n| small-4B | 240 | 220 |\n\n"
                           "### Other runner\n\n| model | short tok/s |\n|---|---|\n| small-4B | 250 |\n\n"
                           "## Fix 1: faster gemv\n\n- Date: 2026-03-08\n- After: one kernel\n\n"
                           "## Fix 2: fused norm\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], "Baseline (before tuning)");
  EXPECT_EQ(lb.entries[0].segment_rule, "section");
  EXPECT_EQ(lb.entries[0].tables.size(), 2u);
  EXPECT_EQ(lb.entries[0].subheadings.size(), 2u);
  EXPECT_EQ(h[1], "Fix 1: faster gemv");
}

TEST(SegmentParse, AFirstTopLevelHeadingOverATranscriptIsAnEntryOfItsOwnText) {
  // `#` headings are this document's sections; the first holds the runs.
  const std::string text = std::string("# Timing runs\n\nraw data\n\n```text\n$ ./bench 10 4\n") +
                           "Total time: 412 microseconds\n$ ./bench 100 4\nTotal time: 3301 microseconds\n```\n\n"
                           "## Sheet 1: totals\n\n| size | time (ms) |\n|---|---|\n| 10 | 0.412 |\n\n"
                           "# Second report\n\n## Sheet 2\n\n| size | time (ms) |\n|---|---|\n| 10 | 0.5 |\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_GE(h.size(), 2u);
  EXPECT_EQ(h[0], "Timing runs");
  EXPECT_EQ(lb.entries[0].segment_rule, "preamble");
  EXPECT_EQ(lb.entries[0].outputs.size() + lb.entries[0].commands.size() > 0, true);
  EXPECT_EQ(h[1], "Sheet 1: totals");
}

// A tuning journal's sections hold figures in rate units the lexicon knows
// (hash rates, operations a second): a `## Baseline` of summaries beside the
// dated sweeps is an entry of its own as a table or a time would make it.
TEST(SegmentParse, ASectionStatingARateInAnyKnownUnitHoldsARecord) {
  const std::string text = std::string("# Miner tuning\n\n## Baseline\n\n- Kernel: 1.188 H/s\n- Store: 41,200 ops/s\n\n") +
                           "## 2026-02-14 rework sweep\n\n- Result: 1.3 MH/s\n\n## 2026-02-15 second sweep\n\n- Result: 1.4 MH/s\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], "Baseline");
}

// A title that calls the whole document a log (`# Viewer performance log`)
// keeps no log beside its sections: its `## Baseline` that runs a tool's
// command (`npm run bench`) is an entry like the undated runs beside it.
TEST(SegmentParse, ALogTitleLeavesItsMeasuredBaselineAnEntry) {
  const std::string text = std::string("# Viewer performance log\n\n## Baseline\n\nScenario:\n`npm run bench -- --scenario eager`\n\n") +
                           "- `loadMs`: `2210.4`\n\n## Lazy mounting\n\nScenario:\n`npm run bench -- --scenario lazy`\n\n"
                           "- `loadMs`: `2188.1`\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "Baseline");
  EXPECT_EQ(h[1], "Lazy mounting");
}

TEST(SegmentParse, PlansGoalsAndTheSeedsBaselineStaySections) {
  // A Goal with a target figure is the logbook's own; the seed form's
  // `## Baseline` above `### date` entries (a document with the logbook's
  // frame: `## Scope`) is no entry; a section of prose holds no record.
  const std::string text = std::string("# Log\n\nRuns on 2x 4xA100, 80 GB each.\n\n## Scope\n\n- Goal: reach 300 TF/s.\n\n") +
                           "## Goal\n\nReach 300 TF/s.\n\n## Baseline\n\n" +
                           "- bf16 dense: 210 TF/s\n\n## Hardware\n\nOne H100 with 80 GB.\n\n## Experiment Log\n\n"
                           "### 2026-02-10 10:40 - K-001 Kickoff\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 1u) << h[0];
  EXPECT_EQ(h[0], "2026-02-10 10:40 - K-001 Kickoff");
}

// A log without the logbook's frame measures its baseline in a `##
// Baseline` above its `### date` entries (the discarded first run, the
// samples kept, their median): an entry of its own text.
TEST(SegmentParse, ABaselineAboveDatedEntriesOfALogWithoutTheFrameIsAnEntry) {
  const std::string text = std::string("# Performance Log\n\n## Baseline\n\n- Workload: eight requests.\n") +
                           "- Discarded first-use run: `6.8 TPS` (`37.2 s`).\n- Median: `32.9 TPS`; median wall time `7.7 s`.\n\n"
                           "## Deltas\n\n### 2026-08-16 20:23 - PERF-001\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u) << h[0];
  EXPECT_EQ(h[0], "Baseline");
  EXPECT_EQ(lb.entries[0].segment_rule, "section");
  EXPECT_EQ(h[1], "2026-08-16 20:23 - PERF-001");
}

// A section of reference material beside the entries ("## Hardware
// Reference" with the card's peak bandwidth) states specifications, no run.
TEST(SegmentParse, AReferenceSectionIsNoEntry) {
  const std::string text = std::string("# Kernel log\n\n## Hardware Reference\n\n- **GPU:** one card, 96 SMs\n") +
                           "- **Memory BW:** 1,200 GB/s peak\n\n## Fix 1: wider tiles\n\n" + kRun +
                           "## Fix 2: fused epilogue\n\n" + kRun;
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u) << h[0];
  EXPECT_EQ(h[0], "Fix 1: wider tiles");
}

// The stage itself: a heading's words, and roles over an outline.
TEST(Segment, ReadHeading) {
  HeadingRead r = ReadHeading("2026-06-24 \xC2\xB7 Router rewrite");
  EXPECT_TRUE(r.dated && r.date_first && !r.strict);
  EXPECT_EQ(r.label, "Router rewrite");
  r = ReadHeading("Standard Benchmarks \xE2\x80\x94 2026-06-24 (1 GPU)");
  EXPECT_EQ(r.date, "2026-06-24");
  EXPECT_FALSE(r.date_first);
  r = ReadHeading("2026-02-10 10:43 - MOE-I8-001 smoke");
  EXPECT_TRUE(r.strict);
  EXPECT_EQ(r.explicit_id, "MOE-I8-001");
  EXPECT_EQ(r.time, "10:43");
  EXPECT_EQ(ReadHeading("2.1 Muon").number, "2.1");
  EXPECT_EQ(ReadHeading("1. Initial setup").number, "1");
  EXPECT_EQ(ReadHeading("Attempt 3b: fused").number, "3b");
  EXPECT_EQ(ReadHeading("Attempt 3b: fused").ordinal_word, "attempt");
  // A figure first (a number and its unit) is a result, no section's number.
  EXPECT_TRUE(ReadHeading("1.82 ms (fused)").number.empty());
  EXPECT_TRUE(ReadHeading("0.87 ms").number.empty());
  for (const char* plain : {"8 GPUs", "Top results", "Run12x", "2026 roadmap", "H100 notes"})
    EXPECT_TRUE(ReadHeading(plain).number.empty() && !ReadHeading(plain).dated) << plain;
  EXPECT_EQ(UndatedIdWords("2.1 Muon (lr 0.02)"), "2-1-MUON-LR-0-02");
  EXPECT_TRUE(IsLogSectionName("Work log"));
  EXPECT_TRUE(IsLogSectionName("3. Experiment Log (cont.)"));
  EXPECT_TRUE(IsReservedSectionName("Stop Criteria"));
}

// Dates written with numbers only, or with the day's ordinal suffix, date
// a heading like an ISO date: dots put the day first, slashes the month
// (unless the first number cannot be a month), eight digits are a date when
// they make one. A date in a file's or a folder's name does not date the
// heading.
TEST(Segment, ReadHeadingDatesWrittenOtherWays) {
  const std::pair<const char*, const char*> dated[] = {
      {"03.05.2026 fused kernel", "2026-05-03"}, {"2026.03.05 - fused kernel", "2026-03-05"},
      {"5/3/2026: fused kernel", "2026-05-03"},  {"24/3/2026: fused kernel", "2026-03-24"},
      {"20260305 fused", "2026-03-05"},          {"March 5th, 2026: fused kernel", "2026-03-05"},
      {"22nd March 2026 - tiles", "2026-03-22"}, {"Worklog 2026-02-24/25", "2026-02-24"}};
  for (const auto& [text, date] : dated) {
    const HeadingRead r = ReadHeading(text);
    EXPECT_TRUE(r.dated) << text;
    EXPECT_EQ(r.date, date) << text;
    EXPECT_TRUE(r.number.empty()) << text;
  }
  EXPECT_EQ(ReadHeading("03.05.2026 fused kernel").label, "fused kernel");
  const HeadingRead basic = ReadHeading("20260223T195116Z - Profiling run smoke");  // ISO's basic form
  EXPECT_EQ(basic.date, "2026-02-23");
  EXPECT_EQ(basic.time, "19:51");
  EXPECT_EQ(basic.label, "Profiling run smoke");
  for (const char* plain : {"Raw files (`runs/2026-04-20_bench/`)", "Log of 2026-04-20.log", "192.168.1.1 host",
                            "Python 3.11/10", "202603051 tokens", "20261305 build", "1/2/3 split", "17/1/29 runs"})
    EXPECT_FALSE(ReadHeading(plain).dated) << plain;
  // A two-digit year only in a time stamp: the year first when the first
  // number cannot be a month, else the month first.
  const HeadingRead stamp = ReadHeading("[17/1/29 15:38 at tag 0.1.1]");
  EXPECT_EQ(stamp.date, "2017-01-29");
  EXPECT_EQ(stamp.time, "15:38");
  EXPECT_EQ(stamp.label, "at tag 0.1.1");
  EXPECT_EQ(ReadHeading("1/29/17 15:38 rebuild").date, "2017-01-29");
  // A date that filled a code span takes the span with it.
  EXPECT_EQ(ReadHeading("Build report at `2017/03/26 16:28:56` at `657c858`").label, "Build report at at `657c858`");
}

// Numbers a heading gives itself in other marks: a version glued to its v
// (`v17 - routing fold`), a number in brackets or after `#`, a variant
// letter in either case, also at the heading's end.
TEST(Segment, ReadHeadingNumbersWrittenOtherWays) {
  const std::pair<const char*, const char*> numbered[] = {
      {"v17 \xE2\x80\x94 routing-weight fold", "17"}, {"V2: shared-memory tiling", "2"}, {"#14 fused norm", "14"},
      {"[12] bigger batch", "12"}, {"(3) tiled", "3"}, {"Trial 3a", "3a"}, {"Phase 1A: persistent gate+up", "1A"}};
  for (const auto& [text, number] : numbered) EXPECT_EQ(ReadHeading(text).number, number) << text;
  EXPECT_EQ(ReadHeading("v17 - fold").ordinal_word, "version");
  for (const char* plain : {"v2", "vLLM serving", "Run 12x4", "#hashtags everywhere", "(see below) notes"})
    EXPECT_TRUE(ReadHeading(plain).number.empty()) << plain;
}

TEST(Segment, OutlineRoles) {
  const std::vector<OutlineHeading> outline = {{1, 1, "Notes"},       {3, 2, "Setup"},   {5, 2, "Runs"},
                                               {7, 3, "Fused"},       {9, 4, "Output"},  {11, 3, "Idle thoughts"},
                                               {13, 2, "Appendix"}};
  // Only "Fused" (7) holds a command; "Idle thoughts" holds none.
  const auto roles = SegmentOutline(outline, [](size_t i) { return i == 3; });
  ASSERT_EQ(roles.size(), outline.size());
  EXPECT_EQ(roles[0].role, HeadingRole::kTitle);
  EXPECT_EQ(roles[1].role, HeadingRole::kSection);
  EXPECT_EQ(roles[2].role, HeadingRole::kSection);
  EXPECT_EQ(roles[3].role, HeadingRole::kEntry);
  EXPECT_EQ(roles[3].rule, "log section");
  EXPECT_EQ(roles[4].role, HeadingRole::kSubheading);
  EXPECT_NE(roles[5].role, HeadingRole::kEntry);
  EXPECT_EQ(roles[6].role, HeadingRole::kSection);
  // No structure: the sections that hold something.
  const auto plain = SegmentOutline({{1, 1, "Doc"}, {2, 2, "Why"}, {4, 2, "How"}}, [](size_t i) { return i == 2; });
  EXPECT_EQ(plain[1].role, HeadingRole::kSection);
  EXPECT_EQ(plain[2].role, HeadingRole::kEntry);
  EXPECT_EQ(plain[2].rule, "content");
}

// The parts of a section that is the logbook's own ("## Executive
// Summary" over "### Key findings" with the figures the tests below
// measure) are its parts, never entries for the figures they hold.
TEST(Segment, PartsOfAReservedSectionAreNoEntries) {
  const std::vector<OutlineHeading> outline = {{1, 1, "Bench results"}, {3, 2, "Executive Summary"},
                                               {5, 3, "Key findings"},  {9, 2, "Test 1: sizes"},
                                               {20, 3, "Phase 1: fix"}};
  const auto roles = SegmentOutline(outline, [](size_t i) { return i == 2 || i == 3 || i == 4; });
  EXPECT_NE(roles[2].role, HeadingRole::kEntry) << roles[2].rule;
  EXPECT_EQ(roles[3].role, HeadingRole::kEntry);
  EXPECT_EQ(roles[4].role, HeadingRole::kEntry);  // numbered: an entry by structure
  // "## Summary Statistics" over "### Successful Optimizations" and its speedups: a summary's part too.
  const std::vector<OutlineHeading> stats = {{1, 1, "SIMD history"}, {3, 2, "Summary Statistics"},
                                             {5, 3, "Successful Optimizations"}, {9, 2, "1. AVX2 parser"}};
  const auto stat_roles = SegmentOutline(stats, [](size_t i) { return i == 2 || i == 3; });
  EXPECT_NE(stat_roles[2].role, HeadingRole::kEntry) << stat_roles[2].rule;
  EXPECT_EQ(stat_roles[3].role, HeadingRole::kEntry);
}

// A recap's name in any script and case ("Сводная таблица", "SUMMARY of
// phases", "FINAL SUMMARY") is a recap's; a number is no word of it; a methodology section, in English or Russian, is reserved.
TEST(Segment, RecapAndReservedNamesInAnyScript) {
  EXPECT_TRUE(IsRecapHeading("## Сводная таблица"));
  EXPECT_TRUE(IsRecapHeading("現在の速度向上状況"));
  EXPECT_TRUE(IsRecapHeading("Summary of phases"));
  EXPECT_TRUE(IsRecapHeading("Phase comparison (Llama)"));
  EXPECT_FALSE(IsRecapHeading("Load test 3"));
  EXPECT_TRUE(IsRecapHeading("FINAL SUMMARY"));
  EXPECT_TRUE(IsRecapHeading("Summary RTB-004"));
  EXPECT_TRUE(IsRecapHeading("Final Summary After 17 Iterations"));
  EXPECT_TRUE(IsRecapHeading("Benchmark History"));  // a table of every version's figures
  EXPECT_FALSE(IsRecapHeading("FP32 Performance Comparison on Other GPUs"));
  EXPECT_TRUE(IsReservedSectionName("Стенд и методика"));
  EXPECT_TRUE(IsReservedSectionName("Test methodology"));
  // Named by a reserved noun (German, English, after a hyphen); a numbered section stays an entry.
  EXPECT_TRUE(IsReservedSectionName("Mess-Setup"));
  EXPECT_TRUE(IsReservedSectionName("Protocol"));
  EXPECT_TRUE(IsReservedSectionName("Einordnung & Einschränkungen"));
  EXPECT_FALSE(IsReservedSectionName("1. Initial setup"));
  EXPECT_FALSE(IsReservedSectionName("Run 4 setup"));
  EXPECT_TRUE(IsReservedSectionName("My machine"));  // the machine the log ran on: its specifications
  EXPECT_FALSE(IsReservedSectionName("Machine-code cache"));
  EXPECT_TRUE(IsReservedSectionName("Q4 Checkpoints"));  // the artifacts a log keeps, a digit in a name
  EXPECT_FALSE(IsReservedSectionName("Step 4000 checkpoints"));
}

// A heading that names an explanation, a cause or a conclusion by one of
// its words ("The Root Cause: ...", "Previous Conclusion: REVERTED", "Why
// 4a failed") explains runs recorded elsewhere: no entry for the figures
// it cites, beside entries of the same level.
TEST(Segment, HeadingsThatExplainAreNoEntries) {
  EXPECT_TRUE(IsExplanationHeading("The Root Cause: Expert DMA Dominates"));
  EXPECT_TRUE(IsExplanationHeading("Previous Conclusion: REVERTED (approaches using `_mm`)"));
  EXPECT_TRUE(IsExplanationHeading("Key Design Decisions"));
  EXPECT_TRUE(IsExplanationHeading("Why attempt 4a failed"));
  for (const char* run : {"Attempt 3: FP8 in the kernel", "Analysis of 1433 cycles", "Notes", "The Fix: buffers"})
    EXPECT_FALSE(IsExplanationHeading(run)) << run;
  const std::vector<OutlineHeading> outline = {{1, 1, "Log"}, {3, 2, "Attempt 1: a"}, {9, 2, "Previous Conclusion: no"},
                                               {12, 2, "The Fix: buffers"}};
  const auto roles = SegmentOutline(outline, [](size_t i) { return i >= 1; });
  EXPECT_EQ(roles[1].role, HeadingRole::kEntry);
  EXPECT_NE(roles[2].role, HeadingRole::kEntry) << roles[2].rule;
  EXPECT_EQ(roles[3].role, HeadingRole::kEntry);
  const auto flat = SegmentOutline({{1, 1, "Doc"}, {2, 2, "The Root Cause: DMA"}, {4, 2, "The Fix"}},
                                   [](size_t i) { return i >= 1; });
  EXPECT_NE(flat[1].role, HeadingRole::kEntry) << flat[1].rule;
  EXPECT_EQ(flat[2].role, HeadingRole::kEntry);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// moelog's own regions are its output: a table it wrote under a heading does
// not make that heading a section that holds a record, so writing the
// tables never changes which headings are entries.
TEST(SegmentParse, MoelogsOwnRegionTablesHoldNoRecord) {
  const std::string plain = "# Notes\n\n## Packing notes\n\nThe packed schedule is best.\n\n## Setup\n\n" +
                            std::string(kRunText()) + "\n";
  const std::string written = "# Notes\n\n## Packing notes\n\nThe packed schedule is best.\n\n"
                              "<!-- moelog:begin id=X hash=0 -->\n| # | cycles |\n| --- | ---: |\n| 1 | 7,105 |\n"
                              "<!-- moelog:end -->\n\n## Setup\n\n" + std::string(kRunText()) + "\n";
  EXPECT_EQ(Headings(ParseLogbook(plain, "a.md")), Headings(ParseLogbook(written, "b.md")));
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// A research log whose entries sit one level down (`### Experiment 4`
// under `## Experiments`) and whose other `##` sections hold measurements of
// their own: a first table of timings by commit, a closing table of the
// last round. Each such section is an entry, over its parts when they are
// entries only for what they hold (`### What stands out` restating its
// table); a `##` section of prose about the code states no run.
TEST(SegmentParse, ASectionAboveTheEntriesLevelThatHoldsItsOwnTableIsAnEntry) {
  const std::string text =
      std::string("# Parser speed journal\n\n## About the code\n\nAbout 12 KB of hot loop code, in 3 files.\n\n") +
      "## First timings (rev 4f1c2aa, go1.22)\n\n| bench | small | large |\n|---|---|---|\n"
      "| BenchmarkLex | 410 ns/op | 3.9 us/op |\n| BenchmarkParse | 1.2 us/op | 17 us/op |\n\n"
      "### What stands out\n\n- Parse is slow on large input.\n\n"
      "## Experiments\n\n### Experiment 1: pooled buffers\n\n" + kRun +
      "### Experiment 2: table-driven lexer\n\n" + kRun +
      "## Last timings (go test -bench)\n\nAgainst the first timings:\n\n| bench | large |\n|---|---|\n"
      "| BenchmarkLex | 2.1 us/op |\n| BenchmarkParse | 9.8 us/op |\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0], "First timings (rev 4f1c2aa, go1.22)");
  EXPECT_EQ(lb.entries[0].segment_rule, "section");
  EXPECT_EQ(lb.entries[0].tables.size(), 1u);
  ASSERT_EQ(lb.entries[0].subheadings.size(), 1u);  // `### What stands out`
  EXPECT_EQ(lb.entries[0].subheadings[0].text, "What stands out");
  EXPECT_EQ(h[1], "Experiment 1: pooled buffers");
  EXPECT_EQ(h[3], "Last timings (go test -bench)");
  EXPECT_EQ(lb.entries[3].tables.size(), 1u);
}

// A report with no log structure whose first part is `### Baseline`
// (measurements of the machine before the work) and whose next parts hold
// the work's figures: the baseline is an entry like the others.
TEST(SegmentParse, AMeasuredSectionOfADocumentWithoutLogStructureIsAnEntry) {
  const std::string text = std::string("### Baseline\n\nOn my card the copy test reaches 1,350 GB/s at 2**28 floats, ") +
                           "the tutorial's 900 GB/s.\n\n### Fused bias + ReLU\n\n#### Forward\n\n"
                           "The fused forward runs in 0.42 ms against 0.61 ms unfused.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], "Baseline");
  EXPECT_EQ(h[1], "Fused bias + ReLU");
  // A log kept beside it (the seed form's empty `## Experiment Log`): the
  // baseline stays the logbook's own section.
  const std::string seed = "# T\n\n## Baseline\n\n- topk=2: 192.4 TF/s\n- topk=8: 167.8 TF/s\n\n## Experiment Log\n";
  EXPECT_TRUE(ParseLogbook(seed, "t.md").entries.empty());
}

// Headings that interpret results recorded elsewhere explain them.
TEST(Segment, HeadingsThatInterpretExplain) {
  for (const char* h : {"Implications", "Recommendation", "Key takeaways", "Learnings", "Interpretation of the runs"})
    EXPECT_TRUE(IsExplanationHeading(h)) << h;
  for (const char* h : {"Results", "Fused kernel", "Comparison with the reference"}) EXPECT_FALSE(IsExplanationHeading(h)) << h;
}

// Sections that describe the machine (`## Hardware`, `## Test Environment`)
// state its specifications, not a run: no entry for their table, in a
// document with log structure or without.
TEST(SegmentParse, SectionsThatDescribeTheMachineAreNoEntries) {
  const std::string machine = "| Spec | Value |\n|---|---|\n| GPU | one card, 24 GB, 936 GB/s |\n| TDP | 350 W |\n\n";
  const std::string plain = "# Decode throughput\n\n## Decode (tg128)\n\n| model | tok/s |\n|---|---|\n| 7B q4 | 161 |\n\n"
                            "## Hardware\n\n" + machine + "## \xF0\x9F\x96\xA5\xEF\xB8\x8F Test Environment\n\n" + machine;
  EXPECT_EQ(Headings(ParseLogbook(plain, "t.md")), std::vector<std::string>{"Decode (tg128)"});
  const std::string logged = std::string("# Log\n\n## Hardware\n\n") + machine + "## 1. Tiling\n\n" + kRun;
  EXPECT_EQ(Headings(ParseLogbook(logged, "t.md")), std::vector<std::string>{"1. Tiling"});
}


// A short section name that ends in a reserved noun names the same kind of
// section ("## GPU specs (H100 SXM)", "## Test machine hardware"; "## Related
// work" quotes others' numbers): no entry for its figures. A numbered or
// dated heading is an entry whatever its last word.
TEST(SegmentParse, SectionsNamedForTheMachineOrOthersWorkAreNoEntries) {
  const std::string machine = "- Memory bandwidth: 3.35 TB/s\n- Peak BF16: 989 TFLOP/s\n\n";
  const std::string plain = "# Decode throughput\n\n## Decode (tg128)\n\n| model | tok/s |\n|---|---|\n| 7B q4 | 161 |\n\n"
                            "## GPU specs (H100 SXM)\n\n" + machine + "## Test machine hardware\n\n" + machine +
                            "## Related work\n\nThe paper reports 740 TFLOP/s on the same card.\n";
  EXPECT_EQ(Headings(ParseLogbook(plain, "t.md")), std::vector<std::string>{"Decode (tg128)"});
  EXPECT_TRUE(IsReservedSectionName("GPU specs (H100 SXM)"));
  EXPECT_FALSE(IsReservedSectionName("3. New hardware"));
  EXPECT_FALSE(IsReservedSectionName("Fused kernel"));
}

// A section that lists the host's and the model's facts ("## Host & model
// info": cores, memory, file size) states the machine, it records no run.
TEST(SegmentParse, AnInfoSectionOfTheHostIsNoEntry) {
  const std::string doc = "# Engine perf\n\n## Host & model info\n\n- Cores: **16**\n- Memory: **31.2 GB**\n\n"
                          "## Decode runs\n\n| run | tok/s |\n|---|---|\n| a | 41.5 |\n";
  EXPECT_EQ(Headings(ParseLogbook(doc, "t.md")), std::vector<std::string>{"Decode runs"});
  EXPECT_TRUE(IsReservedSectionName("Host & model info"));
  EXPECT_FALSE(IsReservedSectionName("2. Run info"));
}

// An ordinal word of another script numbers its heading as `Experiment 3` does.
TEST(ReaderSegment, OrdinalWordsOfOtherScriptsNumberAHeading) {
  EXPECT_EQ(ReadHeading("실험 3").number, "3");
  EXPECT_EQ(ReadHeading("Эксперимент 2: сжатие").number, "2");
  EXPECT_EQ(ReadHeading("实验 4").number, "4");
  EXPECT_EQ(ReadHeading("주의 3").number, "");  // a word that numbers nothing
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// An undated entry whose parts are runs of their own (versions, backends)
// is split into them; a part that names a part of one record (results,
// setup, a unit) keeps its entry whole, and so does a numbered entry.
TEST(SegmentParse, AGroupOfRunsIsSplitIntoItsParts) {
  const std::string versions = std::string("# GEMM log\n\n# Log\n\n## Phase I\n\n### v00\n\n") + kRunText() +
                               "### v01\n\n" + kRunText() + "### v02\n\n#### v02.1\n\n" + kRunText() + "#### v02.2\n\n" +
                               kRunText();
  const Logbook lb = ParseLogbook(versions, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 4u) << ::testing::PrintToString(h);
  EXPECT_EQ(h[0], "v00");
  EXPECT_EQ(h[1], "v01");
  EXPECT_EQ(h[2], "v02.1");
  EXPECT_EQ(h[3], "v02.2");
  EXPECT_EQ(lb.entries[0].segment_rule, "group");
  // Backends under a problem's name, the name's own text an entry of its own.
  const Logbook backends = ParseLogbook(std::string("# Challenge\n\n# GEMV\n\n") + kRunText() + "### PyTorch\n\n" + kRunText() +
                                            "### Triton\n\n" + kRunText(),
                                        "t.md");
  const auto hb = Headings(backends);
  ASSERT_EQ(hb.size(), 3u) << ::testing::PrintToString(hb);
  EXPECT_EQ(hb[1], "PyTorch");
  EXPECT_EQ(hb[2], "Triton");
  // An author who does not nest by level (`### CuteDSL`, then `## Triton`,
  // `### CuteDSL` under `# GEMM`): each is a part, the `##` one of its own text.
  const Logbook mixed = ParseLogbook(std::string("# Challenge\n\n# GEMM\n\n### CuteDSL\n\n") + kRunText() + "## Triton\n\n" +
                                         kRunText() + "### CuteDSL\n\n" + kRunText(),
                                     "t.md");
  const auto hm = Headings(mixed);
  ASSERT_EQ(hm.size(), 3u) << ::testing::PrintToString(hm);
  EXPECT_EQ(hm[1], "Triton");
  EXPECT_FALSE(mixed.entries[1].holds_entries);
  EXPECT_LT(mixed.entries[1].end_line, mixed.entries[2].heading_line);
  // A period's number (`## Phase 2`, `## Wave 3`) numbers a group of runs;
  // an experiment's number (`## Experiment 2`) one run, its parts its own.
  const Logbook phase = ParseLogbook(std::string("# Softmax log\n\n## Phase 2\n\n### Online softmax\n\n") + kRunText() +
                                         "### Fused single block\n\n" + kRunText(),
                                     "t.md");
  const auto hp = Headings(phase);
  ASSERT_EQ(hp.size(), 2u) << ::testing::PrintToString(hp);
  EXPECT_EQ(hp[0], "Online softmax");
  const Logbook experiment = ParseLogbook(std::string("# Softmax log\n\n## Experiment 2\n\n### Online softmax\n\n") +
                                              kRunText() + "### Fused single block\n\n" + kRunText(),
                                          "t.md");
  EXPECT_EQ(Headings(experiment).size(), 1u) << ::testing::PrintToString(Headings(experiment));
  // Parts of one record keep it whole.
  const Logbook parts = ParseLogbook(std::string("# Log\n\n# Log\n\n## Fused router\n\n#### Training results\n\n") +
                                         kRunText() + "#### Detailed analysis\n\n" + kRunText(),
                                     "t.md");
  ASSERT_EQ(Headings(parts).size(), 1u);
  EXPECT_EQ(Headings(parts)[0], "Fused router");
  const Logbook units = ParseLogbook(std::string("# Log\n\n# Log\n\n## Serving\n\n### Decode (tok/s)\n\n") + kRunText() +
                                         "### Prefill (tok/s)\n\n" + kRunText(),
                                     "t.md");
  ASSERT_EQ(Headings(units).size(), 1u);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// `#### Results` is a log's name too, but under an experiment's own
// heading (`### Raw_r16` over `#### Setup` and `#### Results`) it is a part
// of that record: the experiments are the entries, named by their words.
TEST(SegmentParse, AResultsPartUnderAnExperimentIsNoLogOfItsOwn) {
  const std::string text = std::string("# GRPO report\n\n## Ablations\n\n### Raw_r16\n\n#### Setup\n\n- `rank`: `16`\n\n") +
                           "#### Results\n\n- accuracy: 71.2 ms\n\n### Raw_r8\n\n#### Setup\n\n- `rank`: `8`\n\n" +
                           "#### Results\n\n- accuracy: 70.4 ms\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 2u) << ::testing::PrintToString(h);
  EXPECT_EQ(h[0], "Raw_r16");
  EXPECT_EQ(h[1], "Raw_r8");
  EXPECT_NE(lb.entries[1].id.find("RAW-R8"), std::string::npos) << lb.entries[1].id;
}


// Two runs under an undated section beside a part that explains them
// (`### Why Q4`): the runs are the entries, the explanation a part of
// neither; a `### Results` beside them keeps the section one record.
TEST(SegmentParse, AnExplanationBesideTwoRunsLeavesThemSplit) {
  const Logbook lb = ParseLogbook(std::string("# Tuning\n\n## Results: big model\n\n") + kRunText() +
                                      "### Why Q4 (quality vs speed)\n\n" + kRunText() + "### Drafting options\n\n" +
                                      kRunText() + "### Measured and rejected\n\n" + kRunText(),
                                  "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 3u) << ::testing::PrintToString(h);
  EXPECT_EQ(h[1], "Drafting options");
  EXPECT_EQ(h[2], "Measured and rejected");
  const Logbook whole = ParseLogbook(std::string("# Tuning\n\n## Results: big model\n\n### Command\n\n") +
                                         kRunText() + "### Drafting options\n\n" + kRunText() + "### Measured and rejected\n\n" +
                                         kRunText(),
                                     "t.md");
  ASSERT_EQ(Headings(whole).size(), 1u) << ::testing::PrintToString(Headings(whole));
}

// Under a dated entry, a part numbered by a word of its own work
// (`### Attempt 1`, `### v2:`) is an entry; one numbering the steps of a
// procedure (`### Step 2`, `### 01: Benchmark`) stays a part. A qualifier
// after the date ("(Afternoon)") goes after the entry's words.
TEST(SegmentParse, ADatedEntrysNumberedAttemptsAreEntries) {
  const std::string text = std::string("# Kernel log\n\n## 2025-11-25 (Afternoon): Debugging\n\n") + kRunText() +
                           "### Attempt 4: register tiling\n\n" + kRunText() + "### v5: more tiles\n\n" + kRunText() +
                           "## 2025-11-26: Procedure\n\n### Step 1: build\n\n" + kRunText() + "### 02: Benchmark\n\n" +
                           kRunText();
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 4u) << ::testing::PrintToString(h);
  EXPECT_EQ(lb.entries[0].label, "Debugging (Afternoon)");
  EXPECT_EQ(h[1], "Attempt 4: register tiling");
  EXPECT_EQ(h[2], "v5: more tiles");
  EXPECT_TRUE(lb.entries[0].holds_entries);
  EXPECT_EQ(lb.entries[3].commands.size(), 2u);
}

// A heading that is a date alone (`## 2026-02-22`) over the day's parts,
// each holding a record: the parts are the entries, IDs from their words.
TEST(SegmentParse, ADateAloneIsADayOfRuns) {
  const std::string text = std::string("# Optimization Log\n\n## 2026-02-22\n\n### Packet receive loop: fast path\n\n") +
                           kRunText() + "### Socket parsing: direct scan\n\n" + kRunText() +
                           "## 2026-02-23 Kernel retune\n\n### Variant A\n\n" + kRunText() + "### Variant B\n\n" + kRunText();
  const Logbook lb = ParseLogbook(text, "t.md");
  const auto h = Headings(lb);
  ASSERT_EQ(h.size(), 3u) << ::testing::PrintToString(h);
  EXPECT_EQ(h[0], "Packet receive loop: fast path");
  EXPECT_EQ(h[1], "Socket parsing: direct scan");
  EXPECT_EQ(h[2], "2026-02-23 Kernel retune");  // a dated entry with words keeps its parts
}

}  // namespace
}  // namespace moelog::logbook
