// Entries as researchers mark them: under `## Experiment Log`, `## Entries`
// or `## Entry Log`, at `###` or `##`, with or without a time (and a zone).
// Inline code spans that are not command lines are not commands.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <string>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

const char* kBody =
    "- Hypothesis: h\n- Command: `python bench_moe_hillclimb.py --tokens 64 --topk 2`\n- Result: pending\n\n";

TEST(EntryHeadings, LogHeadingsLevelsAndTimes) {
  for (const std::string& text : {
           "# T\n\n## Entries\n\n### 2026-07-17 - X-001 a\n" + std::string(kBody),
           "# T\n\n## Entry Log\n\n### 2026-07-17 10:05 UTC - X-001 a\n" + std::string(kBody),
           "# T\n\n## 2026-07-20 15:15 PDT - a\n\n" + std::string(kBody),
           "# T\n\n## 2026-05-05T23:36Z - a\n\n" + std::string(kBody),
           "# T\n\n## Entry log\n\n### 2026-05-05T23:36:00Z \xE2\x80\x94 a\n\n" + std::string(kBody),
           "# T\n\n## Entry log\n\n### 2026-05-05T23:36:41.250+02:00 - a\n\n" + std::string(kBody),
           "# T\n\n## Experiment Log\n\n### 2026-07-17 \xE2\x80\x94 a\n" + std::string(kBody)}) {
    const Logbook lb = ParseLogbook(text, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << text;
    EXPECT_EQ(lb.entries[0].date.substr(0, 4), "2026") << text;
    ASSERT_EQ(lb.entries[0].commands.size(), 1u) << text;
    EXPECT_FALSE(lb.entries[0].id.empty());
  }
}

// Dates as researchers also write them: after a colon, in brackets, with
// slashes, with the month's name; each read as YYYY-MM-DD.
TEST(EntryHeadings, DateFormsBesideIso) {
  const std::pair<const char*, const char*> cases[] = {
      {"### 2026-04-01: colon after the date", "2026-04-01"},
      {"### 2026-04-01 10:05: colon after the time", "2026-04-01"},
      {"### [2026-04-02] bracketed date", "2026-04-02"},
      {"### [2026-04-02 09:30 UTC] bracketed date and time", "2026-04-02"},
      {"### 2026/04/03 slash date", "2026-04-03"},
      {"### Apr 4, 2026 - month name first", "2026-04-04"},
      {"### 4 September 2026 \xE2\x80\x94 day first", "2026-09-04"},
      {"### Sept. 14 2026 14:05 - abbreviated with a time", "2026-09-14"},
      {"### 2026-04-01 (Tue) \xE2\x80\x94 weekday", "2026-04-01"},
      {"### 2026-04-01, 14:05 \xE2\x80\x94 comma before the time", "2026-04-01"},
      {"### 2026-04-01 @ 14:05 - at before the time", "2026-04-01"},
      {"### Run 12 \xE2\x80\x94 2026-04-01 \xE2\x80\x94 a run number first", "2026-04-01"},
      {"### Day 3 (2026-04-01): a day number first", "2026-04-01"},
      {"### ZZ-031 \xE2\x80\x94 2026-04-01 \xE2\x80\x94 an ID first", "2026-04-01"},
      {"### ZZ-030 (2026-04-01 14:05): an ID and a dated parenthesis", "2026-04-01"}};
  for (const auto& [heading, date] : cases) {
    const Logbook lb = ParseLogbook(std::string("# T\n\n## Entry Log\n\n") + heading + "\n" + kBody, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << heading;
    EXPECT_EQ(lb.entries[0].date, date) << heading;
    EXPECT_EQ(lb.entries[0].commands.size(), 1u) << heading;
  }
  EXPECT_EQ(ParseLogbook("# T\n\n## Entry Log\n\n### Sept. 14 2026 14:05 - abbreviated\n" + std::string(kBody), "t.md")
                .entries[0].time, "14:05");
  const Logbook ids = ParseLogbook(
      "# T\n\n## Entry Log\n\n### ZZ-031 \xE2\x80\x94 2026-04-01 \xE2\x80\x94 fused\n" + std::string(kBody) +
          "\n### Run 12 (2026-04-02 09:00): tiles\n" + std::string(kBody),
      "t.md");
  ASSERT_EQ(ids.entries.size(), 2u);
  EXPECT_EQ(ids.entries[0].explicit_id, "ZZ-031");
  EXPECT_EQ(ids.entries[0].label, "fused");
  EXPECT_EQ(ids.entries[1].label, "Run 12 tiles");
  EXPECT_EQ(ids.entries[1].time, "09:00");
  // Not dates: a month word in prose, a bracketed non-date, a 31st of nothing,
  // a step with no date. Under a log, with a command, each is an entry
  // (reader/segment.h), undated.
  for (const char* heading : {"### May the kernel be fast", "### [draft] notes", "### Apr 40, 2026 - x", "### 2026/4/3 x",
                              "### Step 2 - run it"}) {
    const Logbook lb = ParseLogbook(std::string("# T\n\n## Entry Log\n\n") + heading + "\n" + kBody, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << heading;
    EXPECT_TRUE(lb.entries[0].date.empty()) << heading;
  }
  // A date anywhere dates the heading, in parentheses too.
  const Logbook results = ParseLogbook("# T\n\n## Entry Log\n\n### Results (2026-04-01)\n" + std::string(kBody), "t.md");
  ASSERT_EQ(results.entries.size(), 1u);
  EXPECT_EQ(results.entries[0].date, "2026-04-01");
}

// A progress log repeats one experiment's ID in every entry: each later one
// is numbered on, and the repeat is said once, not once per entry.
TEST(EntryHeadings, RepeatedIdIsSaidOnce) {
  std::string text = "# T\n\n## Entry Log\n\n";
  for (int h = 10; h < 14; ++h) text += "### 2026-04-01 " + std::to_string(h) + ":00 - A-1 status\n" + kBody;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 4u);
  EXPECT_EQ(lb.entries[0].id, "A-1");
  EXPECT_EQ(lb.entries[3].id, "A-1-4");
  int said = 0;
  for (const auto& d : lb.diagnostics)
    if (d.message.find("duplicate entry ID A-1") != std::string::npos) {
      ++said;
      EXPECT_NE(d.message.find("this entry is A-1-2"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("2 later entries with this ID are numbered on, to A-1-4"), std::string::npos) << d.message;
    }
  EXPECT_EQ(said, 1);
}

// The Command field under other names: its code spans are the entry's commands.
TEST(EntryHeadings, CommandFieldSynonyms) {
  for (const char* name : {"Cmd", "Launch", "Invocation", "Command line", "Repro"}) {
    const Logbook lb = ParseLogbook(std::string("# T\n\n## Entry Log\n\n### 2026-04-01 10:00 - a\n- ") + name +
                                        ": `torchrun --nproc_per_node 8 bench_gemm.py --m 16`\n- Result: 0.05 ms\n",
                                    "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << name;
    EXPECT_EQ(lb.entries[0].commands.size(), 1u) << name;
    EXPECT_NE(lb.entries[0].FindField("Command"), nullptr) << name;
  }
  // "Run:" names a run (an ID), not a command.
  const Logbook run = ParseLogbook("# T\n\n## Entry Log\n\n### 2026-04-01 10:00 - a\n- Run: `ep64-ctl-0412`\n- Result: 0.05 ms\n", "t.md");
  EXPECT_TRUE(run.entries[0].commands.empty());
}

TEST(EntryHeadings, TimeIsKeptAndZoneSkipped) {
  const Logbook lb = ParseLogbook("# T\n\n## Entry Log\n\n### 2026-07-17 10:05 UTC - a\n" + std::string(kBody), "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].time, "10:05");
  EXPECT_EQ(lb.entries[0].label, "a");
  // ISO 8601 with seconds: the minute is the entry's time, the seconds and zone are skipped.
  const Logbook iso = ParseLogbook("# T\n\n## Entry log\n\n### 2026-07-17T10:05:59Z \xE2\x80\x94 a b\n" + std::string(kBody), "t.md");
  ASSERT_EQ(iso.entries.size(), 1u);
  EXPECT_EQ(iso.entries[0].time, "10:05");
  EXPECT_EQ(iso.entries[0].label, "a b");
  // A 12-hour clock: the time on 24 hours.
  for (const auto& [h, t] : {std::pair<const char*, const char*>{"2:05 PM", "14:05"}, {"11:30am", "11:30"},
                             {"12:10 AM", "00:10"}, {"12:10 pm", "12:10"}}) {
    const Logbook pm = ParseLogbook(std::string("# T\n\n## Entry log\n\n### 2026-07-17 ") + h + " - a\n" + kBody, "t.md");
    ASSERT_EQ(pm.entries.size(), 1u) << h;
    EXPECT_EQ(pm.entries[0].time, t) << h;
    EXPECT_EQ(pm.entries[0].label, "a") << h;
  }
  // "23:36:7" is no time of day: no date and time are read (under a log,
  // with a command, the heading is an undated entry).
  const Logbook bad = ParseLogbook("# T\n\n## Entry log\n\n### 2026-07-17T10:05:7Z x\n" + std::string(kBody), "t.md");
  ASSERT_EQ(bad.entries.size(), 1u);
  EXPECT_TRUE(bad.entries[0].time.empty());
}

// An entry written at ## keeps its ### sub-headings' blocks.
TEST(EntryHeadings, SubHeadingsOfAnEntryAtLevelTwo) {
  const Logbook lb = ParseLogbook(
      "# T\n\n## 2026-07-20 15:15 - a\n\n### Commands\n\n- Command: `python bench_moe_hillclimb.py --tokens 64`\n"
      "\n## Scope\n- Goal: g\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_LT(lb.entries[0].end_line, 9);
}

TEST(EntryHeadings, ProseSpansAreNotCommands) {
  const Logbook lb = ParseLogbook(
      "# T\n\n## Experiment Log\n\n### 2026-07-17 10:05 - a\n- Command: runs `q` then `tk`; see "
      "`bench_moe_hillclimb.py`\n- Result: pending\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_TRUE(lb.entries[0].commands.empty());
}

// "`q in {none,int8}`, `tk in {2,8}`" beside a command reading $q and $tk:
// the command is planned inside those loops; a variable the command does not
// read, or loops it sets itself, are left alone.
TEST(EntryHeadings, LoopSpansBesideTheCommand) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-01-01 10:00 - L-1: loops\n- Command:\n"
      "  - `ssh h 'cd ~/x && ... .venv/bin/python bench_moe_hillclimb.py --quant-mode \"$q\" --topk \"$tk\"'`\n"
      "  - `q in {none,int8}`, `tk in {2,8}`, `unused in {a,b}`, `bad in {a;b}`\n\n"
      "### 2026-01-01 11:00 - L-2: own loop\n- Command: `for tk in 2 4; do python bench_moe_hillclimb.py --topk $tk; "
      "done`, `tk in {2,8}`\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  ASSERT_EQ(lb.entries[0].commands.size(), 1u);
  const std::string& j = lb.entries[0].commands[0].joined;
  EXPECT_EQ(j.rfind("for q in none int8; do\nfor tk in 2 8; do\nssh h ", 0), 0u) << j;
  EXPECT_EQ(j.substr(j.size() - 10), "\ndone\ndone") << j;
  ASSERT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_EQ(lb.entries[1].commands[0].joined.rfind("for tk in 2 4;", 0), 0u) << lb.entries[1].commands[0].joined;
}

// IDs written as a range or a list in the heading: the first one.
TEST(EntryHeadings, RangeAndListOfIdsTakeTheFirst) {
  const Logbook lb = ParseLogbook(
      "# T\n\n## 2026-05-05T23:36Z - RX-PERF-004..012 Knee sweep\n- Result: x\n\n"
      "## 2026-05-05T22:05Z - RX-004/005/006 Smokes\n- Result: x\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(lb.entries[0].id, "RX-PERF-004");
  EXPECT_EQ(lb.entries[1].id, "RX-004");
}

// Date-only headings: the day's entries numbered 1, 2, ...; a title that
// starts with an issue number gives the words after it as the prefix.
TEST(EntryHeadings, DateOnlyEntriesAreNumberedPerDay) {
  const Logbook lb = ParseLogbook(
      "# #8108 Kitten merge notes\n\n### 2026-08-10 - Started\n- Result: x\n\n"
      "### 2026-08-10 - Moved on\n- Result: x\n\n### 2026-08-11 - Next day\n- Result: x\n\n"
      "### 2026-08-10 14:00 - Timed\n- Result: x\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 4u);
  EXPECT_EQ(lb.entries[0].id, "KITTEN-MERGE-NOTES-20260810-1");
  EXPECT_EQ(lb.entries[1].id, "KITTEN-MERGE-NOTES-20260810-2");
  EXPECT_EQ(lb.entries[2].id, "KITTEN-MERGE-NOTES-20260811-1");
  EXPECT_EQ(lb.entries[3].id, "KITTEN-MERGE-NOTES-20260810-1400");
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// IDs as researchers write them: "DATE — ID: title", "DATE TIME - ID: title",
// "ID — title (DATE)", "ID/ID2 ...", a variant letter, and an
// "- Experiment ID: `X-1`" bullet.
TEST(EntryHeadings, ExplicitIdsInTheirWrittenForms) {
  const std::string body = "- Command: N/A\n\n";
  const std::string text = "# T\n\n## Entries\n\n"
                           "### 2026-07-13 \xE2\x80\x94 BMFU-001: baseline repro\n" + body +
                           "### 2026-02-10 10:00 - HC-001: baseline\n" + body +
                           "### F8W-001/002 \xE2\x80\x94 single node (2026-07-03)\n" + body +
                           "### F8W-005a \xE2\x80\x94 cross node (2026-07-03 14:10)\n" + body +
                           "### 2026-05-21 10:10 - Kickoff\n- Experiment ID: `BEP-001`\n" + body;
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 5u);
  EXPECT_EQ(lb.entries[0].id, "BMFU-001");
  EXPECT_EQ(lb.entries[0].label, "baseline repro");
  EXPECT_EQ(lb.entries[1].id, "HC-001");
  EXPECT_EQ(lb.entries[1].time, "10:00");
  EXPECT_EQ(lb.entries[2].id, "F8W-001");
  EXPECT_EQ(lb.entries[2].date, "2026-07-03");
  EXPECT_EQ(lb.entries[3].id, "F8W-005a");
  EXPECT_EQ(lb.entries[3].time, "14:10");
  EXPECT_EQ(lb.entries[3].label, "cross node");
  EXPECT_EQ(lb.entries[4].id, "BEP-001");
}

// A date in parentheses dates the heading (reader/segment.h: a date
// anywhere); IDs stay unique (a clash is said, with the line, and the later
// entry gets a suffix).
TEST(EntryHeadings, DateAtEndNeedsAnIdAndIdsStayUnique) {
  const Logbook prose = ParseLogbook("# T\n\n## Entries\n\n### Notes from the call (2026-07-03)\n- x\n", "t.md");
  ASSERT_EQ(prose.entries.size(), 1u);
  EXPECT_EQ(prose.entries[0].date, "2026-07-03");
  EXPECT_EQ(prose.entries[0].label, "Notes from the call");
  const Logbook dup = ParseLogbook(
      "# T\n\n## Log\n\n### 2026-01-01 - A-1: x\n- Command: N/A\n\n### 2026-01-02 - Y\n- Experiment ID: `A-1`\n",
      "t.md");
  ASSERT_EQ(dup.entries.size(), 2u);
  EXPECT_EQ(dup.entries[0].id, "A-1");
  EXPECT_EQ(dup.entries[1].id, "A-1-2");
  bool said = false;
  for (const auto& d : dup.diagnostics) said = said || d.ToString().find("t.md:8: duplicate entry ID A-1") == 0;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// "- Command: same as X-1 with `--flag v`": X-1's one-line command with the
// flags appended; anything else stays no command.
TEST(EntryHeadings, SameAsAnEarlierEntryWithFlags) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-01-01 10:00 - X-1: base\n"
      "- Command: `python bench_moe_hillclimb.py --tokens 64 --topk 2`\n\n"
      "### 2026-01-01 11:00 - X-2: variant\n- Command: same as X-1 with `--topk 4`.\n\n"
      "### 2026-01-01 12:00 - X-3: piped base\n- Command: `python bench_moe_hillclimb.py --tokens 64 | tee log`\n\n"
      "### 2026-01-01 13:00 - X-4: from a piped base\n- Command: same as X-3 with `--topk 4`.\n\n"
      "### 2026-01-01 14:00 - X-5: not flags\n- Command: same as X-1 with `rm -rf /`.\n\n"
      "### 2026-01-01 15:00 - X-6: a later entry\n- Command: same as X-7 with `--topk 4`.\n\n"
      "### 2026-01-01 16:00 - X-7: later\n- Command: `python bench_moe_hillclimb.py --tokens 64`\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 7u);
  ASSERT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_EQ(lb.entries[1].commands[0].joined, "python bench_moe_hillclimb.py --tokens 64 --topk 2 --topk 4");
  EXPECT_EQ(lb.entries[1].commands[0].line, 9);
  EXPECT_TRUE(lb.entries[3].commands.empty());
  EXPECT_TRUE(lb.entries[4].commands.empty());
  EXPECT_TRUE(lb.entries[5].commands.empty());
}

// "same v5p matrix as X-1 on a fresh host (`codex-b`)" (no flags): every
// command of X-1; a multi-word span or a later entry's ID is no reference.
TEST(EntryHeadings, SameSweepAsAnEarlierEntry) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-01-01 10:00 - X-1: base\n"
      "- Command:\n  - `python bench_moe_hillclimb.py --tokens 64 --topk {2,8}`\n  - `python bench_moe_hillclimb.py --tokens 128`\n\n"
      "### 2026-01-01 11:00 - X-2: again\n- Command:\n  - same v5p matrix as X-1 on a fresh host (`codex-b`).\n\n"
      "### 2026-01-01 12:00 - X-3: not a reference\n- Command: same as X-1 but `rm -rf /` first.\n\n"
      "### 2026-01-01 13:00 - X-4: too many words\n- Command: same one two three four five six seven as X-1.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 4u);
  ASSERT_EQ(lb.entries[1].commands.size(), 2u);
  EXPECT_EQ(lb.entries[1].commands[0].joined, lb.entries[0].commands[0].joined);
  EXPECT_NE(lb.entries[1].commands[0].joined.find("for topk in 2 8; do"), std::string::npos);
  EXPECT_EQ(lb.entries[1].commands[1].line, 12);  // the sub-bullet that refers
  EXPECT_TRUE(lb.entries[2].commands.empty());
  EXPECT_TRUE(lb.entries[3].commands.empty());
}

// Many "same as ID" references: each is one lookup, so the logbook parses
// in time linear in its entries (each reference scanned every earlier entry:
// 120,000 entries naming a missing ID took 34 s, 6 s now, on a loaded machine). A reference names
// the first earlier entry of its ID, never itself or a later one.
TEST(EntryHeadings, SameAsReferencesAreLinear) {
  std::string text =
      "# T\n\n## Log\n\n### 2026-01-01 10:00 - X-1: base\n"
      "- Command: `python bench_moe_hillclimb.py --tokens 64 --topk 2`\n\n"
      "### 2026-01-01 10:01 - X-1: again\n- Command: `python bench_moe_hillclimb.py --tokens 128`\n\n"
      "### 2026-01-01 10:02 - X-2: first\n- Command: same as X-1\n\n"
      "### 2026-01-01 10:03 - X-3: itself\n- Command: same as X-3\n\n";
#if defined(__SANITIZE_ADDRESS__)
  // Under ASan everything is several times slower: the same forms, fewer,
  // untimed (the Release run of this test tells linear from quadratic).
  constexpr int kEntries = 12000;
  constexpr bool kTimed = false;
#else
  constexpr int kEntries = 120000;
  constexpr bool kTimed = true;
#endif
  for (int i = 0; i < kEntries; ++i)
    text += "### 2026-01-02 10:00 - SA-" + std::to_string(100000 + i) + " x\n- Command: same as ZZ-999999\n";
  // CPU time, not wall time: other work on the machine does not count.
  const std::clock_t t0 = std::clock();
  const Logbook lb = ParseLogbook(text, "t.md");
  const double seconds = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
  if (kTimed) {
    EXPECT_LT(seconds, 20.0);
  }  // tells linear (a few seconds) from quadratic (over 30); speed is benchmarked, not tested
  ASSERT_EQ(lb.entries.size(), 4u + kEntries);
  ASSERT_EQ(lb.entries[2].commands.size(), 1u);
  EXPECT_EQ(lb.entries[2].commands[0].joined, lb.entries[0].commands[0].joined);
  EXPECT_TRUE(lb.entries[3].commands.empty());
  EXPECT_TRUE(lb.entries[4].commands.empty());
}

// "--topk {2,8}" after a flag: the author's sweep, planned in a loop over
// the flag's key (inside a single-quoted payload too); a quoted "{2,8}" and a
// list not after a flag stay as written.
TEST(EntryHeadings, BraceListsAfterAFlagAreSweeps) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-01-01 10:00 - B-1: plain\n"
      "- Command: `python b.py --quant-mode {none,int8} --topk {2,8}`\n\n"
      "### 2026-01-01 11:00 - B-2: payload\n- Command: `ssh h 'cd r && python b.py --topk {2,8}'`\n\n"
      "### 2026-01-01 12:00 - B-3: quoted\n- Command: `python b.py --topk \"{2,8}\" x{1,2}`\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  ASSERT_EQ(lb.entries[0].commands.size(), 1u);
  EXPECT_EQ(lb.entries[0].commands[0].joined,
            "for quant_mode in none int8; do\nfor topk in 2 8; do\npython b.py --quant-mode \"$quant_mode\" --topk "
            "\"$topk\"\ndone\ndone");
  ASSERT_EQ(lb.entries[1].commands.size(), 1u);
  EXPECT_EQ(lb.entries[1].commands[0].joined, "for topk in 2 8; do\nssh h 'cd r && python b.py --topk '\"$topk\"''\ndone");
  ASSERT_EQ(lb.entries[2].commands.size(), 1u);
  EXPECT_EQ(lb.entries[2].commands[0].joined, "python b.py --topk \"{2,8}\" x{1,2}");
}

}  // namespace
}  // namespace moelog::logbook
