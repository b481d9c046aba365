// The segment stage for entries written without a heading: a paragraph or
// a list item that opens with a date (`**2025-03-06.** Profiled ...`,
// `**Mar 6, 2025** — ...`, `**Day 3 (2025-03-06):**`, `- 2025-03-06:
// switched to bf16, 41.2 tok/s`, a bare `2025-03-06 First cut` line over
// its table). Which of them head entries is the document's structure
// (doc/outline.cc): two or more in one part whose heading neither dates
// itself nor has dated sub-headings.
#include <algorithm>
#include <string>

#include "logbook/reader/blocks.h"
#include "logbook/reader/segment.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// `s` without the marks that end a lead (`:`, `.`, a dash, blanks).
std::string_view TrimLeadEnd(std::string_view s) {
  while (!s.empty()) {
    if (s.back() == ':' || s.back() == '.' || s.back() == ' ' || s.back() == ',') s.remove_suffix(1);
    else if (s.size() >= 3 && (s.ends_with("\xE2\x80\x94") || s.ends_with("\xE2\x80\x93"))) s.remove_suffix(3);
    else if (s.back() == '-' && s.size() >= 2 && s[s.size() - 2] == ' ') s.remove_suffix(1);
    else break;
  }
  return s;
}

size_t WordCount(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != ' ' && (i == 0 || s[i - 1] == ' ')) ++n;
  return n;
}

// Where the words after a date-first lead's first clause start: the first
// ": ", ". ", " — ", " – " or " - " (or the end).
size_t ClauseEnd(std::string_view s) {
  size_t end = s.size();
  for (std::string_view sep : {": ", ". ", " \xE2\x80\x94 ", " \xE2\x80\x93 ", " - ", " | "})
    end = std::min(end, s.find(sep));
  return end;
}

}  // namespace

std::string DatedLead(std::string_view text, std::string_view bold_lead) {
  text = SkipHeadingMarks(text);
  if (!bold_lead.empty() && text.starts_with(bold_lead)) {
    // A bold lead that dates the paragraph ("Day 3 (2025-03-06):"), a few words at most.
    const std::string trimmed = Trim(bold_lead);
    const std::string_view lead = TrimLeadEnd(trimmed);
    if (lead.empty() || WordCount(lead) > 8 || !ReadHeading(lead).dated) return "";
    return std::string(lead);
  }
  const std::string_view clause = TrimLeadEnd(text.substr(0, ClauseEnd(text)));
  if (clause.empty() || !ReadHeading(clause).date_first) return "";
  if (WordCount(clause) <= 10 && !StatesFigure(clause)) return std::string(clause);
  // A long first clause, or one stating a figure: the date alone.
  const std::string_view first = clause.substr(0, clause.find(' '));
  return ReadHeading(first).dated ? std::string(first) : "";
}

}  // namespace moelog::logbook
