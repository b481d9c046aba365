// Logbook parsing: Markdown -> Logbook (document.h). Never fails on content:
// anything moelog cannot understand becomes a Diagnostic and is left alone.
#ifndef MOELOG_LOGBOOK_PARSE_LOGBOOK_H_
#define MOELOG_LOGBOOK_PARSE_LOGBOOK_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"
#include "logbook/doc/markdown.h"
#include "logbook/file_util.h"
#include "logbook/text.h"

namespace moelog::logbook {

// Parses logbook text. `file` is used only in diagnostics. Entry IDs are
// assigned (entry_ids.h).
Logbook ParseLogbook(std::string_view text, const std::string& file);

// Reads and parses a logbook file. IOError when it cannot be read.
Result<Logbook> LoadLogbook(const std::string& path);

// Numbers stated in prose with their unit (see StatedNumber). Numbers glued
// to a word or an `=` ("topk=2", "topk8", "v5p") are config, not figures,
// and are skipped.
std::vector<StatedNumber> ExtractNumbers(std::string_view text);

// Joins backslash-newline continuations and trims; newlines that remain
// separate commands and are kept.
std::string JoinContinuations(std::string_view text);

// The text before the first ':' outside backticks, trimmed, or "" when the
// text has no such colon. "`none, topk=2`: 192.9 TF/s" -> "`none, topk=2`".
std::string BulletLabel(std::string_view text);

// The kind of a section from its heading text, in any case, a parenthetical
// ignored: "Stop criteria", "Experiment Matrix (Initial)".
SectionKind SectionKindFromName(std::string_view name);

// Shared by the logbook and recipe parsers.
namespace parse_detail {
// The bullet of list item `item` and its sub-items. Stated numbers are
// extracted only `with_numbers` (command bullets never need them).
Bullet BuildBullet(const MdDocument& doc, int item, bool with_numbers = true);
// Extracts the stated numbers of `b` and its sub-bullets.
void AddStatedNumbers(Bullet* b);
FencedBlock BuildFenced(const MdDocument& doc, int node, const std::vector<std::string_view>& lines);
TableBlock BuildTable(const MdDocument& doc, int node);
// A fenced shell block as a command: its text, continuations joined.
CommandText FencedCommand(const MdDocument& doc, int node);
// What parsing any document starts with: its lines (count in *line_count),
// its Markdown tree, and the diagnostics every document gets.
struct DocumentText {
  std::vector<std::string_view> lines;
  MdDocument doc;
};
DocumentText ReadDocument(std::string_view text, const std::string& file, int* line_count,
                          std::vector<Diagnostic>* diagnostics);
// Diagnostics every document gets: NUL bytes, unterminated fences, depth.
void CommonDiagnostics(std::string_view text, const MdDocument& doc,
                       const std::vector<std::string_view>& lines, const std::string& file,
                       std::vector<Diagnostic>* out);
using logbook::Trim;  // logbook/text.h
// For "YYYY-MM-DD HH:MM - rest": true, and the byte offset of `rest` in `s`.
bool EntryHeadingRest(std::string_view s, size_t* rest_offset);
bool IsShellInfo(std::string_view info);
// Reads the file at `path` and parses its text with `parse` (which names the
// file in its diagnostics); the read's error when it cannot be read.
template <typename Doc>
Result<Doc> ParseFile(const std::string& path, Doc (*parse)(std::string_view, const std::string&)) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return parse(*text, path);
}
}  // namespace parse_detail

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_PARSE_LOGBOOK_H_
