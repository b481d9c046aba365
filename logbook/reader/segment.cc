#include "logbook/reader/segment.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "logbook/reader/blocks.h"
#include "logbook/reader/data_words.h"
#include "logbook/text.h"

namespace moelog::logbook {

namespace {

// The names of data/reader/sections.json, read once.
struct SectionWords {
  std::set<std::string> log, log_nouns, reserved, measured, ordinal, record_command, record_result, explanation, summary, recap, plan, own_text_plan, measured_part, change_columns, reserved_nouns,
      comparison, frame, estimate_title, record_part, procedure_ordinal, group_ordinal;
};

const SectionWords& Words() {
  static const SectionWords words = [] {
    SectionWords w;
    auto take = [](const char* key, std::set<std::string>* into) { *into = reader::DataWords("data/reader/sections.json", key); };
    take("log_sections", &w.log);
    take("log_nouns", &w.log_nouns);
    take("reserved_sections", &w.reserved);
    take("reserved_nouns", &w.reserved_nouns);
    take("measured_sections", &w.measured);
    take("ordinal_words", &w.ordinal);
    take("record_command_parts", &w.record_command);
    take("record_result_parts", &w.record_result);
    take("record_part_words", &w.record_part);
    take("explanation_words", &w.explanation);
    take("summary_sections", &w.summary);
    take("recap_words", &w.recap);
    take("plan_words", &w.plan);
    take("measured_part_words", &w.measured_part);
    take("own_text_plan_words", &w.own_text_plan);
    take("change_columns", &w.change_columns);
    take("comparison_words", &w.comparison);
    take("frame_sections", &w.frame);
    take("estimate_title_words", &w.estimate_title);
    take("procedure_ordinal_words", &w.procedure_ordinal);
    take("group_ordinal_words", &w.group_ordinal);
    return w;
  }();
  return words;
}

// A section name as compared: lower case, a parenthetical, markup and a
// leading number ("2. Results", "## 3) Log") dropped.
std::string SectionKey(std::string_view name) {
  name = SkipHeadingMarks(name);
  std::string_view s = name.substr(0, name.find('('));
  size_t p = 0;
  while (p < s.size() && (std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == '.' || s[p] == ')')) ++p;
  std::string out;
  for (char c : s.substr(p))
    if (c != '*' && c != '_' && c != '`' && c != ':') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Cyrillic capitals in lower case too ("Выводы" as "выводы"): U+0410..042F.
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    auto b = static_cast<unsigned char>(out[i + 1]);
    if (static_cast<unsigned char>(out[i]) != 0xD0 || b < 0x90 || b > 0xAF) continue;
    if (b < 0xA0) out[i + 1] = static_cast<char>(b + 0x20);
    else out[i] = static_cast<char>(0xD1), out[i + 1] = static_cast<char>(b - 0x20);
    ++i;
  }
  return Trim(out);
}

}  // namespace

bool IsLogSectionName(std::string_view name) {
  const std::string key = SectionKey(name);
  if (Words().log.count(key)) return true;
  // "Performance Optimization Log", "Experiments Log": a short name whose
  // last word is a log's noun.
  const size_t sp = key.rfind(' ');
  return sp != std::string::npos && std::count(key.begin(), key.end(), ' ') < 5 &&
         Words().log_nouns.count(key.substr(sp + 1)) > 0;
}
// A reserved name, or a short one (four words at most, no number: a
// numbered or dated heading is an entry) whose last word is a reserved noun
// ("GPU specs (H100 SXM)", "Related work").
bool IsReservedSectionName(std::string_view name) {
  const std::string key = SectionKey(name);
  if (Words().reserved.count(key)) return true;
  const std::string_view plain = SkipHeadingMarks(name);
  // A number among its words makes it a run's own ("Run 4 setup"); a name
  // with a digit in it does not ("Q4 checkpoints").
  bool number = false;
  for (size_t b = 0; b < key.size();) {
    const size_t e = std::min(key.find_first_of(" -", b), key.size());
    number = number || (e > b && key.find_first_not_of("0123456789.", b) >= e);
    b = e + 1;
  }
  if (key.empty() || number ||
      (!plain.empty() && std::isdigit(static_cast<unsigned char>(plain.front()))))
    return false;
  const size_t sp = key.find_last_of(" -");  // "Mess-Setup": its last word after a hyphen
  return std::count(key.begin(), key.end(), ' ') < 4 &&
         Words().reserved_nouns.count(sp == std::string::npos ? key : key.substr(sp + 1)) > 0;
}
bool IsReservedByName(std::string_view name) { return Words().reserved.count(SectionKey(name)) > 0; }
bool IsMeasuredSectionName(std::string_view name) { return Words().measured.count(SectionKey(name)) > 0; }
bool IsResultPartName(std::string_view name) { return Words().record_result.count(SectionKey(name)) > 0; }
bool IsOrdinalWord(std::string_view word) { return Words().ordinal.count(LowerAscii(word)) > 0; }

namespace {
// Whether a word of section name `name`, or two words in a row ("success
// metrics", "to track"), is one of `words`; with `unless_after`, not right
// after one of those ("faster than expected").
// The bytes of the letter at `p` of `s`: an ASCII letter or digit, or a
// UTF-8 letter of a script a heading may be written in (Greek, Cyrillic:
// two bytes; kana, CJK, Hangul: three); 0 for anything else (a dash, an
// emoji, a space).
size_t LetterAt(const std::string& s, size_t p) {
  const auto c = static_cast<unsigned char>(s[p]);
  if (std::isalnum(c)) return 1;
  const size_t n = c >= 0xCE && c <= 0xD4 ? 2 : c >= 0xE3 && c <= 0xED ? 3 : 0;
  return p + n <= s.size() ? n : 0;
}

// Whether `word` is one of `words`; a word of a script written without
// spaces between words (kana, CJK, Hangul: "预期性能" holds "预期") when
// one of `words` in such a script is inside it.
bool OneOf(const std::string& word, const std::set<std::string>& words) {
  if (words.count(word)) return true;
  if (static_cast<unsigned char>(word[0]) < 0xE3) return false;
  for (auto it = words.lower_bound("\xE3"); it != words.end(); ++it)
    if (word.find(*it) != std::string::npos) return true;
  return false;
}

bool NameHasWord(std::string_view name, const std::set<std::string>& words, const std::set<std::string>* unless_after = nullptr) {
  const std::string key = SectionKey(name);
  std::string last;
  for (size_t p = 0; p < key.size();) {
    while (p < key.size() && LetterAt(key, p) == 0) ++p;
    size_t e = p;
    while (e < key.size() && LetterAt(key, e) > 0) e += LetterAt(key, e);
    if (e == p) break;
    const std::string word = key.substr(p, e - p);
    if ((OneOf(word, words) || (!last.empty() && words.count(last + " " + word))) && !(unless_after && unless_after->count(last)))
      return true;
    last = word;
    p = e;
  }
  return false;
}
}  // namespace

bool IsExplanationHeading(std::string_view name) { return NameHasWord(name, Words().explanation); }
// A part that names what it reads as measured ("### Roofline position now",
// "### Measured roofline") reports, whatever else its name says.
// So does a name whose parenthetical opens with an estimate's word
// ("Performance Comparison (Estimated on the next chip)"; estimate_words of
// vocabulary.json), though a section's key leaves its parenthetical out.
bool IsPlanHeading(std::string_view name) {
  static const auto* estimate = new std::set<std::string>(reader::DataWords("data/reader/vocabulary.json", "estimate_words"));
  const size_t open = name.find('(');
  size_t e = open == std::string_view::npos ? open : open + 1;
  while (e != std::string_view::npos && e < name.size() && std::isalpha(static_cast<unsigned char>(name[e]))) ++e;
  const bool estimated = open != std::string_view::npos && estimate->count(LowerAscii(name.substr(open + 1, e - open - 1))) > 0;
  return (NameHasWord(name, Words().plan) || estimated) && !NameHasWord(name, Words().measured_part);
}
// A plan's heading that speaks of more than its own notes or method ("##
// 2026-03-03 Back-of-envelope", not "## 2026-03-03 Notes"), its plan's word
// not one a run is compared with ("## 2026-03-07 Faster than expected";
// comparison_words).
bool IsWorkedOutHeading(std::string_view name) {
  return IsPlanHeading(name) && !NameHasWord(name, Words().own_text_plan) &&
         NameHasWord(name, Words().plan, &Words().comparison);
}
bool NamesMeasuredPart(std::string_view name) { return NameHasWord(name, Words().measured_part); }
bool IsEstimateTitle(std::string_view title) {
  // The title's own name, before what it is about ("GPU-Hours Estimate: 8x H100 node").
  const std::string_view name = title.substr(0, std::min(title.find(':'), title.find(" \xE2\x80\x94 ")));
  return NameHasWord(name, Words().estimate_title) && !NameHasWord(title, Words().measured_part);
}
bool IsChangeColumn(std::string_view header) { return NameHasWord(header, Words().change_columns); }
// The recap word names the part only as its label's first or last word
// ("Final Performance Summary", "Comparison To Exp 2"; a date, an ID and
// numbers before it aside), not in passing ("a comparison in parentheses").
bool IsRecapHeading(std::string_view name) {
  const std::string key = SectionKey(name);  // lower case, Cyrillic too ("Сводная таблица")
  std::vector<std::string> words;
  for (size_t p = 0; p < key.size();) {
    if (LetterAt(key, p) == 0) {
      ++p;
      continue;
    }
    size_t e = p;
    for (size_t n; e < key.size() && (n = LetterAt(key, e)) > 0;) e += n;
    const std::string w = key.substr(p, e - p);
    // A date or a number is no word of the label; a word in capitals is one ("FINAL SUMMARY").
    const bool label = std::none_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (label) words.push_back(w);
    p = e;
  }
  // "Final Summary After 17 Iterations": a summary's name (summary_sections) opens it.
  // A word of a script written without spaces ("現在の速度向上状況") holds a recap word inside it (OneOf).
  return !words.empty() && (OneOf(words.front(), Words().recap) || OneOf(words.back(), Words().recap) ||
                            (words.size() > 2 && Words().summary.count(words[0] + " " + words[1])));
}

namespace {

// Whether the text of a heading, or of a heading and the headings below
// it, holds a command or figures: the caller's answer for each heading,
// asked once.
class Holds {
 public:
  Holds(const std::vector<OutlineHeading>& outline, const std::function<bool(size_t)>& own)
      : outline_(outline), own_(own), memo_(outline.size(), -1) {}
  bool Own(size_t i) {
    if (memo_[i] < 0) memo_[i] = own_(i) ? 1 : 0;
    return memo_[i] == 1;
  }
  // Heading `i` and its sub-headings (up to the next heading of its level or
  // less). Headings nest six deep at most, so asking this of every heading
  // costs six times the outline at most.
  bool Subtree(size_t i) {
    for (size_t k = i; k < outline_.size() && (k == i || outline_[k].level > outline_[i].level); ++k)
      if (Own(k)) return true;
    return false;
  }

 private:
  const std::vector<OutlineHeading>& outline_;
  const std::function<bool(size_t)>& own_;
  std::vector<signed char> memo_;
};

// Where the walk over the outline stands.
struct Walk {
  bool titled = false;
  int log_level = 0;    // level of the log-like section heading we are under, or 0
  int entry_level = 0;  // level of the open entry, or 0
  bool entry_dated = false;  // the open entry dates itself
  std::string entry_number, entry_word;
};

void MakeEntry(SegmentedHeading* s, const char* rule, int level, Walk* w) {
  s->role = HeadingRole::kEntry;
  s->rule = rule;
  w->entry_level = level;
  w->entry_dated = s->read.dated;
  w->entry_number = s->read.number;
  w->entry_word = s->read.ordinal_word;
}

bool IsRecordPartName(std::string_view name);

// A heading inside an open entry: a sub-heading, unless it dates itself
// first (a new entry, as always) or numbers itself below the entry's number
// (`### 2.1` under `## 2.`), with the entry's own word (`### Attempt 2b`
// under `## Attempt 2`), with another ordinal word (`#### Phase 1` under
// `### Week 1`), states its result (`### 3. Custom parsing (62.12s)`) or
// numbers a piece of a dated entry's work (`### Attempt 1` under `## 2025-11-25`).
void InsideEntry(const OutlineHeading& h, SegmentedHeading* s, Walk* w) {
  if (h.level <= 3 && s->read.dated && s->read.date_first) return MakeEntry(s, "dated", h.level, w);
  // "### Dynamic eviction + zipf (2026-09-22)": a part that dates itself
  // anywhere is a piece of work of its own, unless it names a part of the
  // entry's record ("### Results (2026-09-22)").
  if (h.level <= 3 && s->read.dated && !IsRecordPartName(s->read.label)) return MakeEntry(s, "dated", h.level, w);
  const std::string& n = w->entry_number;
  const std::string& m = s->read.number;
  const bool child = !n.empty() && m.size() > n.size() && m.compare(0, n.size(), n) == 0 && m[n.size()] == '.';
  const bool worded = !m.empty() && !w->entry_word.empty() && !s->read.ordinal_word.empty();
  // "### 3. Custom parsing (62.12s)" under "## 3. Versions": a numbered part stating its result.
  const bool result = !m.empty() && m.find('.') == std::string::npos && StatesFigure(s->read.label);
  // "### Attempt 1: ...", "### ❌ v2: ..." under "## 2025-11-25: ...": a
  // piece of the day's work numbered by its word, unless the word numbers
  // steps of a procedure (`### Step 2`, `### 01: Benchmark`;
  // procedure_ordinal_words) or the heading names a part of the record.
  const bool of_the_day = w->entry_dated && !m.empty() && !s->read.ordinal_word.empty() &&
                          !Words().procedure_ordinal.count(s->read.ordinal_word) && !IsRecordPartName(s->read.label);
  if (child || worded || result || of_the_day) return MakeEntry(s, "numbered", h.level, w);
  s->role = HeadingRole::kSubheading;
}

void StructuralRole(const OutlineHeading& h, size_t i, Holds* holds, SegmentedHeading* s, Walk* w) {
  const HeadingRole plain = h.level == 2 ? HeadingRole::kSection : HeadingRole::kOther;
  if (s->read.strict && h.level <= 3) return MakeEntry(s, "dated", h.level, w);
  if (h.lead_entry) return MakeEntry(s, "lead", h.level, w);
  if (w->entry_level > 0 && h.level > w->entry_level) return InsideEntry(h, s, w);
  w->entry_level = 0;
  if (s->read.dated) return MakeEntry(s, "dated", h.level, w);
  if (IsLogSectionName(h.text)) {
    s->role = plain;
    w->log_level = h.level;
    return;
  }
  // Under a log, a heading that holds a record is an entry whatever its
  // name ("### Baseline" of a worklog).
  if (s->under_log && holds->Subtree(i)) return MakeEntry(s, "log section", h.level, w);
  if (IsReservedSectionName(h.text)) {
    s->role = plain;
    return;
  }
  if (!s->read.number.empty()) return MakeEntry(s, "numbered", h.level, w);
  s->role = plain;
}

// Headings deeper than entry `i` up to the next heading of its level or
// less that are no entries are its sub-headings.
void ClaimSubheadings(const std::vector<OutlineHeading>& outline, size_t i, std::vector<SegmentedHeading>* out) {
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k)
    if ((*out)[k].role != HeadingRole::kEntry) (*out)[k].role = HeadingRole::kSubheading;
}

// Whether heading `i` names a part of a record (`#### Results`:
// record_result_parts) below a heading of its own that is neither the
// title nor one of the logbook's sections (`### Raw_r32_Plain` over `####
// Setup` and `#### Results`): that heading is the record, the part no log.
bool PartOfAnExperiment(const std::vector<OutlineHeading>& outline, size_t i, const std::vector<SegmentedHeading>& out) {
  if (!IsResultPartName(outline[i].text)) return false;
  for (size_t k = i; k-- > 0;) {
    if (outline[k].level >= outline[i].level) continue;
    return out[k].role != HeadingRole::kTitle && outline[k].level >= 2 && !IsLogSectionName(outline[k].text) &&
           !IsReservedSectionName(outline[k].text) && !IsRecapHeading(outline[k].text);
  }
  return false;
}

// A log-like section no heading below which is an entry, that holds a
// record itself ("## Benchmarks" with its table, "## Evidence" whose parts
// hold the figures): the section is the entry, its parts its sub-headings.
void LogSectionEntries(const std::vector<OutlineHeading>& outline, Holds* holds, std::vector<SegmentedHeading>* out) {
  for (size_t i = 0; i < outline.size(); ++i) {
    SegmentedHeading& s = (*out)[i];
    if (s.role == HeadingRole::kEntry || s.role == HeadingRole::kSubheading || s.role == HeadingRole::kTitle ||
        !IsLogSectionName(outline[i].text) || PartOfAnExperiment(outline, i, *out))
      continue;
    size_t k = i + 1;
    bool entries = false;
    for (; k < outline.size() && outline[k].level > outline[i].level; ++k)
      entries = entries || (*out)[k].role == HeadingRole::kEntry;
    if (!entries && holds->Subtree(i)) {
      s.role = HeadingRole::kEntry;
      s.rule = "log section";
      ClaimSubheadings(outline, i, out);
    }
    if (!entries) i = k - 1;  // its sub-headings were looked at
  }
}

// Whether each heading sits inside (below) a section that summarizes or
// explains (`### Key findings` under `## Executive Summary`):
// such a part is its section's, never an entry for what it holds.
std::vector<bool> InsideOwnSections(const std::vector<OutlineHeading>& outline) {
  std::vector<bool> inside(outline.size(), false);
  std::vector<std::pair<int, bool>> open;  // enclosing headings: level, own or explaining
  for (size_t i = 0; i < outline.size(); ++i) {
    const OutlineHeading& h = outline[i];
    while (!open.empty() && open.back().first >= h.level) open.pop_back();
    for (const auto& [level, own] : open) inside[i] = inside[i] || own;
    open.emplace_back(h.level, h.level >= 2 && (Words().summary.count(SectionKey(h.text)) || IsExplanationHeading(h.text)));
  }
  return inside;
}

// A heading that no rule of structure took, that is neither a log nor one of
// the logbook's own sections, that holds a command or figures (itself or
// below it): an entry of `rule` when `level_ok` says its level fits. In a
// document without log structure (`measured_ok`), a section that names a
// measurement (`### Baseline` over the machine's figures) is one too.
void ContentEntries(const std::vector<OutlineHeading>& outline, const std::vector<bool>& level_ok, const char* rule,
                    bool measured_ok, Holds* holds, std::vector<SegmentedHeading>* out) {
  const std::vector<bool> inside = InsideOwnSections(outline);
  for (size_t i = 0; i < outline.size(); ++i) {
    SegmentedHeading& s = (*out)[i];
    const OutlineHeading& h = outline[i];
    const bool reserved = IsReservedSectionName(h.text) && !(measured_ok && IsMeasuredSectionName(h.text));
    if (s.role == HeadingRole::kEntry || s.role == HeadingRole::kSubheading || s.role == HeadingRole::kTitle ||
        !level_ok[static_cast<size_t>(std::clamp(h.level, 0, 7))] || IsLogSectionName(h.text) || reserved ||
        IsExplanationHeading(h.text) || inside[i] || !holds->Subtree(i))
      continue;
    s.role = HeadingRole::kEntry;
    s.rule = rule;
    ClaimSubheadings(outline, i, out);
  }
}

// Whether a heading below heading `i` (up to the next of its level or less) is an entry.
bool EntryBelow(const std::vector<OutlineHeading>& outline, size_t i, const std::vector<SegmentedHeading>& out) {
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k)
    if (out[k].role == HeadingRole::kEntry) return true;
  return false;
}

// Whether every entry below heading `i` is one only for what it holds
// (rule "journal": no date, number or log made it one).
bool OnlyJournalBelow(const std::vector<OutlineHeading>& outline, size_t i, const std::vector<SegmentedHeading>& out) {
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k)
    if (out[k].role == HeadingRole::kEntry && out[k].rule != "journal") return false;
  return true;
}

// Heading `i`'s parts, the entries among them for what they hold too, are
// its sub-headings.
void ClaimParts(const std::vector<OutlineHeading>& outline, size_t i, std::vector<SegmentedHeading>* out) {
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k) {
    (*out)[k].role = HeadingRole::kSubheading;
    (*out)[k].rule.clear();
  }
}

// What a document with entries states outside them, in a part whose own
// text (up to the next heading of any level) holds a record: the text under
// the title ("preamble": a timing table above the sections), a log-like
// section's own table above its entries (`## Results`), a section at an
// entry's level that names a measurement (`## Baseline` beside `## Attempt
// 1`), any other section at an entry's level that is none of the logbook's
// own, or such a section above the entries' level whose own text holds a
// table or a fenced record (`## First timings` over its table beside `##
// Experiments` and its `### Experiment 1`). Each is an entry of its own
// text only; the headings below keep their roles (rules "preamble",
// "summary" for a log-like section's, "section"), except below a section at
// an entry's level none of whose parts is an entry: the section is the
// entry over its parts (`## Baseline` over `### Decode (tok/s)` and its
// table), and a `## Baseline` above `### date` entries, unless the
// document has the logbook's frame (frame_sections of sections.json: `##
// Scope`, `## Stop Criteria`), whose `## Baseline` is one of its own
// sections and stays the logbook's.
struct OwnTextRule {
  const char* rule = nullptr;
  bool needs_block = false;  // its text must hold a table or a fenced record, not only prose
};

OwnTextRule RuleOfOwnText(const OutlineHeading& h, size_t i, const SegmentedHeading& s, bool at_entry_level,
                          bool above_entries, bool inside, bool framed) {
  const bool own_section = !IsReservedSectionName(h.text) && !IsExplanationHeading(h.text) && !inside;
  // The title, or the first `#` of a document whose `#` headings are its
  // sections, that the walk took for none because its text holds a record.
  if (s.role == HeadingRole::kTitle || (i == 0 && h.level <= 1)) return {"preamble", true};
  if (IsLogSectionName(h.text)) return {"summary", true};
  if (at_entry_level && (IsMeasuredSectionName(h.text) || own_section)) return {"section", false};
  // `## Baseline` over `### date` entries in a log without the logbook's
  // frame (no `## Scope`, no `## Stop Criteria`): the baseline measured.
  if (above_entries && !framed && !inside && h.level >= 2 && IsMeasuredSectionName(h.text)) return {"section", false};
  // A `#` section of a document whose `#` headings are its sections (not its title) too.
  if (above_entries && (h.level >= 2 || s.role == HeadingRole::kOther) && own_section) return {"section", true};
  return {};
}

void OwnTextEntries(const std::vector<OutlineHeading>& outline, const std::vector<bool>& level_ok, Holds* holds,
                    const std::function<bool(size_t)>& holds_block, std::vector<SegmentedHeading>* out) {
  const std::vector<bool> inside = InsideOwnSections(outline);
  const int top = static_cast<int>(std::find(level_ok.begin(), level_ok.end(), true) - level_ok.begin());
  const bool framed = std::any_of(outline.begin(), outline.end(),
                                  [](const OutlineHeading& h) { return Words().frame.count(SectionKey(h.text)) > 0; });
  for (size_t i = 0; i < outline.size(); ++i) {
    SegmentedHeading& s = (*out)[i];
    const OutlineHeading& h = outline[i];
    const bool at_entry_level = level_ok[static_cast<size_t>(std::clamp(h.level, 0, 7))];
    // A section at an entry's level whose parts are no entries holds its record in them too.
    const bool whole = at_entry_level && s.role != HeadingRole::kTitle && i > 0 && !EntryBelow(outline, i, *out);
    if (s.role == HeadingRole::kEntry || s.role == HeadingRole::kSubheading || !(whole ? holds->Subtree(i) : holds->Own(i)))
      continue;
    const OwnTextRule r = RuleOfOwnText(h, i, s, at_entry_level, h.level < top, inside[i], framed);
    if (r.rule == nullptr || (r.needs_block && holds_block && !holds_block(i))) continue;
    // A section above the entries whose parts are entries only for what
    // they hold (`### What stands out` restating its table) is one entry over them.
    const bool parts = h.level < top && s.role != HeadingRole::kTitle && OnlyJournalBelow(outline, i, *out);
    s.role = HeadingRole::kEntry;
    s.rule = r.rule;
    s.own_text = !whole && !parts;
    if (whole) ClaimSubheadings(outline, i, out);
    if (parts) ClaimParts(outline, i, out);
    if (s.read.label.empty()) s.read = ReadHeading(h.text);
  }
}

// A document with no log structure whose title's own text holds the
// record (a bench tool's table or printout under `# Benchmark results`,
// dated bold lines between the runs): that text is an entry of its own
// ("preamble"), as under a journal's title. It must hold a table or a
// fenced block: a sentence of hardware under a title is no record.
void TitleTextEntry(const std::vector<OutlineHeading>& outline, Holds* holds,
                    const std::function<bool(size_t)>& holds_block, std::vector<SegmentedHeading>* out) {
  for (size_t i = 0; i < outline.size(); ++i) {
    SegmentedHeading& s = (*out)[i];
    if (s.role != HeadingRole::kTitle) continue;
    if (!holds->Own(i) || (holds_block && !holds_block(i))) return;
    s.role = HeadingRole::kEntry;
    s.rule = "preamble";
    s.own_text = true;
    s.read = ReadHeading(outline[i].text);
    return;
  }
}

// A document that is one run record: no entry by structure, a title, and
// level-2 parts that name its command and its results (`## Command`,
// `## Results`): the title is the entry, the parts its sub-headings.
bool OneRecord(const std::vector<OutlineHeading>& outline, std::vector<SegmentedHeading>* out) {
  size_t title = outline.size();
  bool command = false, results = false;
  for (size_t i = 0; i < outline.size(); ++i) {
    if ((*out)[i].role == HeadingRole::kTitle) title = i;
    if (outline[i].level != 2) continue;
    const std::string key = SectionKey(outline[i].text);
    command = command || Words().record_command.count(key) > 0;
    results = results || Words().record_result.count(key) > 0;
  }
  if (title == outline.size() || !command || !results) return false;
  SegmentedHeading& t = (*out)[title];
  t.role = HeadingRole::kEntry;
  t.rule = "record";
  t.read = ReadHeading(outline[title].text);
  for (size_t i = title + 1; i < outline.size() && outline[i].level > 1; ++i) (*out)[i].role = HeadingRole::kSubheading;
  return true;
}

// Whether the document's `#` headings are its sections rather than its
// title: there are several of them.
bool TopLevelSections(const std::vector<OutlineHeading>& outline) {
  int tops = 0;
  for (const auto& h : outline) tops += h.level <= 1 ? 1 : 0;
  return tops >= 2;
}

// The walk over the outline by structure: the title, dated and numbered
// entries, log sections and their entries. In a document whose `#`
// headings are its sections, the first is its title only when it is the
// document's first heading and neither dates, numbers nor holds a record.
void WalkOutline(const std::vector<OutlineHeading>& outline, bool flat, Holds* holds,
                 std::vector<SegmentedHeading>* out) {
  Walk w;
  for (size_t i = 0; i < outline.size(); ++i) {
    const OutlineHeading& h = outline[i];
    SegmentedHeading& s = (*out)[i];
    s.read = ReadHeading(h.text);
    const bool title = !flat || (i == 0 && s.read.number.empty() && !s.read.dated && !holds->Own(i));
    if (h.level <= 1 && title) {
      s.role = w.titled ? HeadingRole::kOther : HeadingRole::kTitle;
      s.read = HeadingRead{};
      w = Walk{};
      w.titled = true;
      continue;
    }
    if (w.log_level > 0 && h.level <= w.log_level) w.log_level = 0;
    s.under_log = w.log_level > 0;
    StructuralRole(h, i, holds, &s, &w);
  }
}

// Whether a name ends in a unit in parentheses: one word holding a slash
// or a percent sign (`(tok/s)`, `(%)`), or a short lower-case one (`(ms)`).
bool NamesUnit(std::string_view name) {
  const size_t close = name.find_last_of(')'), open = name.find_last_of('(');
  if (close == std::string_view::npos || open == std::string_view::npos || open > close) return false;
  const std::string_view u = name.substr(open + 1, close - open - 1);
  if (u.empty() || u.find(' ') != std::string_view::npos) return false;
  if (u.find('/') != std::string_view::npos || u.find('%') != std::string_view::npos) return true;
  return u.size() <= 4 && std::all_of(u.begin(), u.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// Whether a sub-heading names a part of its entry's record rather than a
// run of its own: one of the logbook's own section names, a metric's unit
// (`### Decode (tok/s)`), or a short name (three words at most) holding a
// part's word (`#### Training results`, `### Setup`; record_part_words of
// sections.json) or naming an explanation or a recap.
bool IsRecordPartName(std::string_view name) {
  const std::string key = SectionKey(name);
  const SectionWords& w = Words();
  for (const auto* set : {&w.record_command, &w.record_result, &w.log, &w.reserved, &w.measured, &w.summary})
    if (set->count(key) > 0) return true;
  if (NamesUnit(name)) return true;  // `### Decode (tok/s)`: a metric of the entry's record
  const auto words = std::count(key.begin(), key.end(), ' ') + 1;
  if (words > 3) return false;  // a change's description
  // A plan's word names no part here: `Vendor template` is a run; a part
  // that plans holds no record of its own (its figures are the plan's).
  return IsExplanationHeading(name) || IsRecapHeading(name) || NameHasWord(name, w.record_part);
}

// The headings right below heading `i` (its parts at the first level
// deeper). An author whose first part is deeper than a later one (`# GEMM`
// over `### CuteDSL`, then `## Triton`, `### CuteDSL`) does not nest by
// level: every part down to the first one's level is one of them.
std::vector<size_t> ChildHeadings(const std::vector<OutlineHeading>& outline, size_t i) {
  int level = 7;
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k) level = std::min(level, outline[k].level);
  if (i + 1 < outline.size() && outline[i + 1].level > level) level = outline[i + 1].level;
  std::vector<size_t> children;
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k)
    if (outline[k].level <= level) children.push_back(k);
  return children;
}

// Whether a part's name is that of a record's command or results
// (`### Command`, `#### Results`: record_command_parts, record_result_parts).
bool NamesCommandOrResult(std::string_view name) {
  const std::string key = SectionKey(name);
  return Words().record_command.count(key) > 0 || Words().record_result.count(key) > 0;
}

// Whether an entry's heading may be a group of runs: it neither dates nor
// numbers itself nor is a number alone (a dated or numbered entry is one
// run, `## 12` over its machines' printouts; a period's or group's number,
// `## Phase 2`, `## Wave 3`, numbers a group: group_ordinal_words), nor names a recap, a plan, an explanation or a
// measured section (`## Baseline` over `### Decode (tok/s)`). A date alone
// (`## 2026-02-22` over the day's `### Packet receive loop: ...`) is a day
// of runs.
bool Container(const std::string& name, const SegmentedHeading& s) {
  if (s.read.dated && s.read.label.empty() && s.read.explicit_id.empty()) return true;
  const bool letters = std::any_of(name.begin(), name.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
  const bool numbered = !s.read.number.empty() && !Words().group_ordinal.count(s.read.ordinal_word);
  return !s.read.dated && letters && !numbered && s.rule != "record" && !IsRecapHeading(name) &&
         !IsPlanHeading(name) && !IsExplanationHeading(name) && !IsMeasuredSectionName(name);
}

// An undated entry whose parts are runs of their own (`## Phase I` over
// `### V00`, `### v01`; `# GEMV` over `### PyTorch`, `### Triton`): two or
// more of its parts hold a record without naming a part of one (setup,
// analysis, why: IsRecordPartName), and none names its command or results.
// Those parts are the entries; the
// heading keeps only its own text, an entry of it when that holds a record
// (as an entry of its own text already is: `## Completed optimizations`
// over its `### H1 (partial)`, `### H2`).
// Entries taken so are looked at in turn (`### v02` over `#### v02.1`).
void SplitGroups(const std::vector<OutlineHeading>& outline, Holds* holds, std::vector<SegmentedHeading>* out) {
  for (size_t i = 0; i < outline.size(); ++i) {
    SegmentedHeading& s = (*out)[i];
    if (s.role != HeadingRole::kEntry || !Container(outline[i].text, s)) continue;
    const std::vector<size_t> children = ChildHeadings(outline, i);
    size_t holding = 0;
    bool parts = false;
    for (const size_t k : children) {
      const bool part = IsRecordPartName(outline[k].text);
      holding += holds->Subtree(k) && !part ? 1 : 0;
      // "### Command" and "### Results" make the heading one record; an
      // explanation beside two runs (`### Why Q4`) is a part of neither.
      parts = parts || NamesCommandOrResult(outline[k].text) || (*out)[k].role == HeadingRole::kEntry;
    }
    if (holding < 2 || parts) continue;
    for (size_t c = 0; c < children.size(); ++c) {
      const size_t k = children[c];
      if (!holds->Subtree(k) || IsRecordPartName(outline[k].text)) continue;
      (*out)[k].role = HeadingRole::kEntry;
      (*out)[k].rule = "group";
      // A part over the next part (`## Triton` over `### CuteDSL` of an
      // author who does not nest by level) is an entry of its own text.
      (*out)[k].own_text = c + 1 < children.size() && outline[children[c + 1]].level > outline[k].level;
      if ((*out)[k].read.label.empty()) (*out)[k].read = ReadHeading(outline[k].text);
    }
    if (holds->Own(i)) {
      s.own_text = true;
    } else {
      s.role = outline[i].level == 2 ? HeadingRole::kSection : HeadingRole::kOther;
      s.rule.clear();
    }
  }
}

// Each entry below a section that plans (`## Expected Results` over `###
// Phase 1`; below the title): that section's heading. A section named by
// a word that speaks of its own text only (`## Session notes` over `###
// Performance`; own_text_plan_words) passes nothing down.
void PlanParents(const std::vector<OutlineHeading>& outline, std::vector<SegmentedHeading>* out) {
  std::vector<size_t> open;  // enclosing headings
  for (size_t i = 0; i < outline.size(); ++i) {
    while (!open.empty() && outline[open.back()].level >= outline[i].level) open.pop_back();
    for (const size_t k : open)
      if (outline[k].level >= 2 && (*out)[k].role != HeadingRole::kTitle && IsPlanHeading(outline[k].text) &&
          !NameHasWord(outline[k].text, Words().own_text_plan) &&
          (*out)[i].role == HeadingRole::kEntry && (*out)[i].plan_parent.empty())
        (*out)[i].plan_parent = outline[k].text;
    open.push_back(i);
  }
}

}  // namespace

std::vector<SegmentedHeading> SegmentOutline(const std::vector<OutlineHeading>& outline,
                                             const std::function<bool(size_t)>& holds_record,
                                             const std::function<bool(size_t)>& holds_block) {
  std::vector<SegmentedHeading> out(outline.size());
  Holds holds(outline, holds_record);
  const bool flat = TopLevelSections(outline);
  WalkOutline(outline, flat, &holds, &out);
  auto entries = [&out] {
    return std::any_of(out.begin(), out.end(), [](const SegmentedHeading& s) { return s.role == HeadingRole::kEntry; });
  };
  if (!entries() && OneRecord(outline, &out)) return out;
  // A log section is the entry itself only in a document where nothing else
  // is; above numbered entries its own text may be one (OwnTextEntries).
  if (!entries()) LogSectionEntries(outline, &holds, &out);
  // An undated entry of a journal: a heading at an entry's level that holds
  // a record. A document with no log structure: any heading below the title
  // (or any, when its `#` headings are its sections).
  std::vector<bool> level_ok(8, false);
  for (size_t i = 0; i < outline.size(); ++i)
    if (out[i].role == HeadingRole::kEntry) level_ok[static_cast<size_t>(std::clamp(outline[i].level, 0, 7))] = true;
  if (entries()) {
    ContentEntries(outline, level_ok, "journal", /*measured_ok=*/false, &holds, &out);
    OwnTextEntries(outline, level_ok, &holds, holds_block, &out);
  } else {
    std::fill(level_ok.begin() + (flat ? 1 : 2), level_ok.end(), true);
    // A measured section is an entry only where no log is kept beside it
    // (the seed form's `## Baseline` over an empty `## Experiment Log` stays the logbook's); a
    // title that calls the whole document a log (`# Viewer performance log`) keeps no log beside it.
    bool no_log = true;
    for (size_t i = 0; i < outline.size(); ++i)
      no_log = no_log && (out[i].role == HeadingRole::kTitle || !IsLogSectionName(outline[i].text));
    ContentEntries(outline, level_ok, "content", /*measured_ok=*/no_log, &holds, &out);
    TitleTextEntry(outline, &holds, holds_block, &out);
  }
  SplitGroups(outline, &holds, &out);
  PlanParents(outline, &out);
  return out;
}

}  // namespace moelog::logbook
