#include "logbook/update/work.h"

#include <algorithm>

#include "logbook/text.h"

namespace moelog::logbook {

std::string Shorten(const std::string& s, size_t n) {
  std::string one = s;
  std::replace(one.begin(), one.end(), '\n', ' ');
  return one.size() <= n ? one : Utf8Prefix(one, n > 3 ? n - 3 : 0) + "...";  // never half a UTF-8 character
}

std::string NoteText(const std::string& s) {
  // Markdown reads these as structure (an HTML comment's end, a table, code):
  // escaped, they show as written; control characters are blanks.
  std::string out;
  for (char c : s) {
    if (c == '<' || c == '>' || c == '`' || c == '|' || c == '\\') out += '\\';
    out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return NoteLine(out, kNoteChars);
}

RegionEdit EditOf(const Unit& u, std::string content) {
  RegionEdit e;
  e.id = u.id;
  e.content = std::move(content);
  e.indent = u.indent;
  e.insert_after_line = u.insert_after;
  e.blank_before = u.blank_before;
  return e;
}

std::vector<const RunRecord*> RecordsOf(const PlannedCommand& pc, size_t i) {
  std::vector<const RunRecord*> recs;
  for (const auto& r : pc.fresh)
    if (static_cast<size_t>(r.invocation_index) == i) recs.push_back(&r);
  if (recs.empty() && i < pc.cached.size())
    for (const auto& r : pc.cached[i]) recs.push_back(&r);
  return recs;
}

}  // namespace moelog::logbook
