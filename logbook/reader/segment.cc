#include "logbook/reader/segment.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <nlohmann/json.hpp>

#include "logbook/text.h"

namespace moelog::logbook {

namespace {

// The built-in reader data (data/reader/*.json, compiled in).
struct BuiltinFile {
  const char* name;
  const char* text;
};
const BuiltinFile kReaderFiles[] = {
#include "builtin_reader.inc"
};

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The names of data/reader/sections.json, read once.
struct SectionWords {
  std::set<std::string> log, reserved, ordinal, record_command, record_result;
};

const SectionWords& Words() {
  static const SectionWords words = [] {
    SectionWords w;
    for (const BuiltinFile& f : kReaderFiles) {
      if (std::string_view(f.name) != "data/reader/sections.json") continue;
      const auto j = nlohmann::json::parse(f.text, nullptr, /*allow_exceptions=*/false);
      if (!j.is_object()) break;
      auto take = [&](const char* key, std::set<std::string>* into) {
        if (!j.contains(key) || !j[key].is_array()) return;
        for (const auto& v : j[key])
          if (v.is_string()) into->insert(LowerAscii(v.get<std::string>()));
      };
      take("log_sections", &w.log);
      take("reserved_sections", &w.reserved);
      take("ordinal_words", &w.ordinal);
      take("record_command_parts", &w.record_command);
      take("record_result_parts", &w.record_result);
    }
    return w;
  }();
  return words;
}

// A section name as compared: lower case, a parenthetical, markup and a
// leading number ("2. Results", "## 3) Log") dropped.
std::string SectionKey(std::string_view name) {
  std::string_view s = name.substr(0, name.find('('));
  size_t p = 0;
  while (p < s.size() && (std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == '.' || s[p] == ')')) ++p;
  std::string out;
  for (char c : s.substr(p))
    if (c != '*' && c != '_' && c != '`' && c != ':') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return Trim(out);
}

}  // namespace

bool IsLogSectionName(std::string_view name) { return Words().log.count(SectionKey(name)) > 0; }
bool IsReservedSectionName(std::string_view name) { return Words().reserved.count(SectionKey(name)) > 0; }
bool IsOrdinalWord(std::string_view word) { return Words().ordinal.count(LowerAscii(word)) > 0; }

namespace {

// Where the walk over the outline stands.
struct Walk {
  bool titled = false;
  int log_level = 0;    // level of the log-like section heading we are under, or 0
  int entry_level = 0;  // level of the open entry, or 0
  std::string entry_number, entry_word;
};

void MakeEntry(SegmentedHeading* s, const char* rule, int level, Walk* w) {
  s->role = HeadingRole::kEntry;
  s->rule = rule;
  w->entry_level = level;
  w->entry_number = s->read.number;
  w->entry_word = s->read.ordinal_word;
}

// A heading inside an open entry: a sub-heading, unless it dates itself
// first (a new entry, as always) or numbers itself below the entry's number
// (`### 2.1` under `## 2.`) or with the entry's own word (`### Attempt 2b`
// under `## Attempt 2`).
void InsideEntry(const OutlineHeading& h, SegmentedHeading* s, Walk* w) {
  if (h.level <= 3 && s->read.dated && s->read.date_first) return MakeEntry(s, "dated", h.level, w);
  const std::string& n = w->entry_number;
  const std::string& m = s->read.number;
  const bool child = !n.empty() && m.size() > n.size() && m.compare(0, n.size(), n) == 0 && m[n.size()] == '.';
  const bool same_word = !m.empty() && !w->entry_word.empty() && s->read.ordinal_word == w->entry_word;
  if (child || same_word) return MakeEntry(s, "numbered", h.level, w);
  s->role = HeadingRole::kSubheading;
}

void StructuralRole(const OutlineHeading& h, size_t i, const std::function<bool(size_t)>& holds_record,
                    SegmentedHeading* s, Walk* w) {
  const HeadingRole plain = h.level == 2 ? HeadingRole::kSection : HeadingRole::kOther;
  if (s->read.strict && h.level <= 3) return MakeEntry(s, "dated", h.level, w);
  if (w->entry_level > 0 && h.level > w->entry_level) return InsideEntry(h, s, w);
  w->entry_level = 0;
  if (s->read.dated) return MakeEntry(s, "dated", h.level, w);
  if (IsLogSectionName(h.text)) {
    s->role = plain;
    w->log_level = h.level;
    return;
  }
  if (IsReservedSectionName(h.text)) {
    s->role = plain;
    return;
  }
  if (!s->read.number.empty()) return MakeEntry(s, "numbered", h.level, w);
  if (s->under_log && holds_record(i)) return MakeEntry(s, "log section", h.level, w);
  s->role = plain;
}

// Headings deeper than entry `i` up to the next heading of its level or
// less that are no entries are its sub-headings.
void ClaimSubheadings(const std::vector<OutlineHeading>& outline, size_t i, std::vector<SegmentedHeading>* out) {
  for (size_t k = i + 1; k < outline.size() && outline[k].level > outline[i].level; ++k)
    if ((*out)[k].role != HeadingRole::kEntry) (*out)[k].role = HeadingRole::kSubheading;
}

// A heading that no rule of structure took, that is neither a log nor one of
// the logbook's own sections, that holds a command or figures: an entry of
// `rule` when `level_ok` says its level fits.
void ContentEntries(const std::vector<OutlineHeading>& outline, size_t from, const std::vector<bool>& level_ok,
                    const char* rule, const std::function<bool(size_t)>& holds_record,
                    std::vector<SegmentedHeading>* out) {
  for (size_t i = from; i < outline.size(); ++i) {
    SegmentedHeading& s = (*out)[i];
    const OutlineHeading& h = outline[i];
    if (s.role == HeadingRole::kEntry || s.role == HeadingRole::kSubheading || s.role == HeadingRole::kTitle ||
        h.level < 2 || !level_ok[static_cast<size_t>(h.level)] || IsLogSectionName(h.text) ||
        IsReservedSectionName(h.text) || !holds_record(i))
      continue;
    s.role = HeadingRole::kEntry;
    s.rule = rule;
    ClaimSubheadings(outline, i, out);
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

}  // namespace

std::vector<SegmentedHeading> SegmentOutline(const std::vector<OutlineHeading>& outline,
                                             const std::function<bool(size_t)>& holds_record) {
  std::vector<SegmentedHeading> out(outline.size());
  Walk w;
  for (size_t i = 0; i < outline.size(); ++i) {
    const OutlineHeading& h = outline[i];
    SegmentedHeading& s = out[i];
    if (h.level <= 1) {
      s.role = w.titled ? HeadingRole::kOther : HeadingRole::kTitle;
      w = Walk{};
      w.titled = true;
      continue;
    }
    if (w.log_level > 0 && h.level <= w.log_level) w.log_level = 0;
    s.under_log = w.log_level > 0;
    s.read = ReadHeading(h.text);
    StructuralRole(h, i, holds_record, &s, &w);
  }
  // An undated entry of a dated journal: a heading at an entry's level after
  // the first entry. A document with no log structure: any heading.
  std::vector<bool> level_ok(8, false);
  size_t first = outline.size();
  for (size_t i = 0; i < outline.size(); ++i)
    if (out[i].role == HeadingRole::kEntry) {
      level_ok[static_cast<size_t>(std::min(outline[i].level, 7))] = true;
      first = std::min(first, i);
    }
  if (first < outline.size()) {
    ContentEntries(outline, first + 1, level_ok, "journal", holds_record, &out);
  } else if (!OneRecord(outline, &out)) {
    std::fill(level_ok.begin(), level_ok.end(), true);
    ContentEntries(outline, 0, level_ok, "content", holds_record, &out);
  }
  return out;
}

}  // namespace moelog::logbook
