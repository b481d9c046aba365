// Test helpers of the reader's figure tests: one entry's recorded figures
// from a document of a heading and a body, the figure of a line, and the
// lines a whole document keeps.
#ifndef MOELOG_TESTS_LOGBOOK_READER_READ_ENTRY_H_
#define MOELOG_TESTS_LOGBOOK_READER_READ_ENTRY_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// The figures of the one entry of `head` + `body` (the document is kept
// alive for the figures' views of it until the next call).
inline std::vector<RecordedFigure> ReadEntry(const std::string& head, const std::string& body,
                                             std::vector<UnreadFigures>* unread = nullptr) {
  static Logbook lb;
  lb = ParseLogbook(head + body, "t.md");
  EXPECT_EQ(lb.entries.size(), 1u);
  if (lb.entries.empty()) return {};
  return RecordedFigures(lb.entries[0], "t.md", unread);
}

// The figure set of a line: its own, or the one the line joined.
inline const RecordedFigure* OnLine(const std::vector<RecordedFigure>& figs, int line) {
  for (const auto& f : figs)
    if (f.line == line) return &f;
  for (const auto& f : figs)
    if (std::find(f.joined_lines.begin(), f.joined_lines.end(), line) != f.joined_lines.end()) return &f;
  return nullptr;
}

// The lines of the figures LogbookFigures keeps over all entries of `text`
// (a figure set's own line and the lines it joined),
// and in `why` (when given) the reasons it lists for the others, by line.
inline std::set<int> KeptLines(const std::string& text, std::map<int, std::string>* why = nullptr) {
  const Logbook lb = ParseLogbook(text, "t.md");
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  std::set<int> lines;
  for (const auto& entry : figs)
    for (const auto& f : entry) {
      lines.insert(f.line);
      lines.insert(f.joined_lines.begin(), f.joined_lines.end());  // the lines a figure set joined
    }
  if (why)
    for (const auto& entry : unread)
      for (const auto& u : entry) (*why)[u.line] += u.why + "; ";
  return lines;
}

}  // namespace moelog::logbook::reader

#endif  // MOELOG_TESTS_LOGBOOK_READER_READ_ENTRY_H_
