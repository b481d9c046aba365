// Test helpers of the reader's figure tests: one entry's recorded figures
// from a document of a heading and a body, and the figure of a line.
#ifndef MOELOG_TESTS_LOGBOOK_READER_READ_ENTRY_H_
#define MOELOG_TESTS_LOGBOOK_READER_READ_ENTRY_H_

#include <gtest/gtest.h>

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

inline const RecordedFigure* OnLine(const std::vector<RecordedFigure>& figs, int line) {
  for (const auto& f : figs)
    if (f.line == line) return &f;
  return nullptr;
}

}  // namespace moelog::logbook::reader

#endif  // MOELOG_TESTS_LOGBOOK_READER_READ_ENTRY_H_
