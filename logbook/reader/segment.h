// Reader stage segment: which headings of a document are entries, by
// structure rather than by one group's idioms. A heading is an entry when
// its own words date it (a date anywhere, any separator), number it (`1.`,
// `2.1`, `Experiment 3`, `Run 12`), or when it sits under a log-like section
// (data/reader/sections.json) and holds a command or figures; a heading of
// an entry's level after the entries that holds a command or figures is one
// too (an undated entry of a dated journal); and a document with no such
// structure still yields its sections that hold a command or figures.
//
// Pure functions over heading texts: the document parser (doc/) hands the
// outline in and fills the document model from the roles it gets back.
#ifndef MOELOG_LOGBOOK_READER_SEGMENT_H_
#define MOELOG_LOGBOOK_READER_SEGMENT_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

// What a heading's own words say about it.
struct HeadingRead {
  // The logbook form moelog always read: `YYYY-MM-DD[ HH:MM] - [ID ]label`
  // (dates written other ways too), `ID - label (DATE)`, `ID - DATE - label`.
  bool strict = false;
  bool dated = false;       // a date anywhere in the heading
  bool date_first = false;  // ... at its start
  std::string number;       // "1", "2.1", "3" of `Experiment 3`, "2b" of `Attempt 2b`, or ""
  std::string ordinal_word; // "attempt" of `Attempt 2b`, or "" 
  std::string date, time;   // "2026-06-24", "13:40" or ""
  std::string label;        // the heading's words without its date, ID and confidence
  std::string explicit_id;  // "MOE-I8-004" or ""
  std::string confidence;   // "(confidence: X)" at the end, or ""
  size_t rest_offset = 0;   // strict date-first headings: where the words after the date start
};

// Reads one heading's text (inline text, code spans with backticks), its
// leading marks skipped (SkipHeadingMarks).
HeadingRead ReadHeading(std::string_view text);

// A heading's text past what decorates its start and says nothing of it:
// inline HTML tags (`<a name="toc_3"></a>`), emoji and pictographs
// (`\u270D\uFE0F Test 1: ...`), blanks.
std::string_view SkipHeadingMarks(std::string_view text);

// True for an explicit-ID token: uppercase/digit groups joined by '-', the
// first starting with a letter, the last all digits ("MOE-I8-004").
bool IsExplicitId(std::string_view token);

// The explicit ID a heading's first word gives, as researchers write it:
// "BMFU-001", "BMFU-001:", "F8W-001/002" (the first), "**HC-001**"; "" when
// the word is no ID.
std::string IdOfWord(std::string_view w);

// For "YYYY-MM-DD HH:MM - rest" (a strict date-first heading): true, and the
// byte offset of `rest` in `s`.
bool StrictHeadingRest(std::string_view s, size_t* rest_offset);

// Section names (any case, a parenthetical and a leading number ignored):
// a log whose headings are entries ("Worklog", "Experiment Log"), or one of
// the logbook's own sections that is never an entry ("Scope", "Baseline").
bool IsLogSectionName(std::string_view name);
bool IsReservedSectionName(std::string_view name);
// Reserved by its whole name ("Hardware"), not only by its last word ("Legacy info").
bool IsReservedByName(std::string_view name);
// A heading that names a part explaining runs recorded elsewhere by one of
// its words ("The Root Cause: ...", "Previous Conclusion: ...", "Key Design
// Decisions", "Why 4a failed"; explanation_words of sections.json): no
// entry for what it holds, and its text under an entry records no run.
bool IsExplanationHeading(std::string_view name);
// A heading that names a part planning, recommending or working out what
// could be by one of its words ("Next opportunities", "Recommendation",
// "Theoretical GPU Performance"; plan_words of sections.json): its own text
// records no run; the headings below it keep their roles.
bool IsPlanHeading(std::string_view name);
// A plan's heading whose words are not only those of notes or a method
// (own_text_plan_words): a dated entry so headed that runs nothing works out
// what could be ("## 2026-03-03 Back-of-envelope").
bool IsWorkedOutHeading(std::string_view name);
// A document title whose name (before a colon or a dash) calls the whole
// document an estimate ("GPU-Hours Estimate: ...", "Build Time Forecast";
// estimate_title_words of sections.json) and not what was measured beside
// it ("Estimated vs measured ..."; measured_part_words).
bool IsEstimateTitle(std::string_view title);
// A part's name that says it reports what was measured ("Measured
// calibration", "Roofline position now"; measured_part_words).
bool NamesMeasuredPart(std::string_view name);
// A heading that names a part recapping or comparing runs by one of its
// words ("Key observations", "Final Performance Summary", "Comparison To Exp
// 2", "Algorithm Evolution"; recap_words of sections.json): its figures that
// the document writes elsewhere restate them (reader/classify_recap.cc).
bool IsRecapHeading(std::string_view name);
// Whether a table's column header names one side of a change ("before",
// "after", "old", "new"; change_columns of sections.json): a recap's
// before/after table measures its new side.
bool IsChangeColumn(std::string_view header);
// A section name that states a measurement ("Baseline", "Baseline
// (pre-optimization)"): at an entry's level, holding a record, an entry.
bool IsMeasuredSectionName(std::string_view name);
// A part's name that only says it holds results ("Results", "Output",
// "Результат", "结果"; record_result_parts of sections.json): it names no
// run, so it is no key's value.
bool IsResultPartName(std::string_view name);

// A word that numbers a heading when a number follows it ("Experiment 3",
// "Run 12"; data/reader/sections.json), any case.
bool IsOrdinalWord(std::string_view word);

// The words an undated entry's ID is made of: its label's words (at most
// eight), upper case, joined by '-' ("2.1 Muon" -> "2-1-MUON"); "" for none.
std::string UndatedIdWords(std::string_view label);

// A paragraph's first line (or a list item's) that opens with a date, its
// bold lead (the text of a bold span that opens it, or ""): the words that
// head it as an entry when the document's structure makes it one
// (doc/outline.h) -- the bold lead when it dates the paragraph ("Day 3
// (2025-03-06)", "Mar 6, 2025"), else the first clause when it starts with
// a date ("2025-03-07 Vectorized the gather"; the date alone when that
// clause is long or states a figure) -- or "" when it opens with no date.
std::string DatedLead(std::string_view text, std::string_view bold_lead);

// A line that numbers a plain-text section ("1 - Use BTreeMap:", "12)
// Closure fix", a list item's "3. Upgraded to flashattention2, ..."): its
// number and its words as a numbered heading would give them ("1. Use
// BTreeMap"; a sentence's first clause, 60 characters at most), or one led
// by an ordinal word and its number ("day 1", "Day3: Tuning the kernel" ->
// "Day 3: Tuning the kernel"); number 0 for any other line.
struct NumberedLine {
  int number = 0;
  std::string heading;
};
NumberedLine ReadNumberedLine(std::string_view line);

// The one-word label that leads a line ("коммит: faster filter" ->
// "коммит", "Run: ..." -> "Run"), or "".
std::string LeadLabel(std::string_view line);

// One heading of the document's outline, in document order.
struct OutlineHeading {
  int line = 0;
  int level = 0;  // 1..6
  std::string text;
  // A paragraph or list item the document's structure makes an entry's
  // head (a plain-text section numbered 1, 2, 3 ..., or one of three or
  // more led by one label over its table or printout).
  bool lead_entry = false;
};

enum class HeadingRole { kTitle, kSection, kEntry, kSubheading, kOther };

// The role of one heading and, for entries, why (`rule`: "dated",
// "numbered", "log section", "journal", "record" (a document that is one
// run record: its title, with `## Command` and `## Results` parts),
// "content", "preamble", "summary", "section").
struct SegmentedHeading {
  HeadingRole role = HeadingRole::kOther;
  HeadingRead read;
  std::string rule;
  bool under_log = false;  // below a log-like section's heading
  // An entry of its own text only (rules "preamble": the text under the
  // title; "summary": a log-like section's own text above its entries;
  // "section": an undated section between entries): it ends at the
  // next heading of any level, and the headings below it keep their roles.
  bool own_text = false;
  // The heading of a section above it that plans (IsPlanHeading: "Expected
  // Results" over "### Phase 1"), else "": what it holds without a record
  // of its own is the plan's.
  std::string plan_parent;
};

// The roles of `outline`'s headings. `holds_record(i)` tells whether the
// text between heading i and the next heading holds a command or figures;
// it is asked only for headings no structural rule made an entry.
// `holds_block(i)` (optional; else `holds_record`) tells whether that text
// holds a table or a fenced command or output block, not only prose: what
// the title's own text and a summary section must hold to be entries (a
// sentence of hardware under the title is no record).
std::vector<SegmentedHeading> SegmentOutline(const std::vector<OutlineHeading>& outline,
                                             const std::function<bool(size_t)>& holds_record,
                                             const std::function<bool(size_t)>& holds_block = nullptr);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_SEGMENT_H_
