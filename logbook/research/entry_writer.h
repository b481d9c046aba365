// Writing a new logbook entry so that it reads back as meant. A writer says
// what the entry is (EntryIntent: heading, ID, fields, commands, config
// lines); AppendEntry composes the Markdown in the logbook's style, parses
// the whole new text again and compares what the parse sees with the
// intent: the new entry's ID, heading, commands (each as the planner will
// read it), pins and sub-headings, and that every earlier entry, pin,
// section and stop criterion is unchanged. Any difference refuses the write
// (ParseError naming it), so text a command carries (a here-document's
// "## heading", a `<!-- moelog: ... -->` comment, backticks) can never turn
// into structure.
//
// A command that fits on one line without a backtick is written as inline
// code (under "- Command:" or as a sub-bullet, as the logbook does); any
// other (here-documents, several lines) is written as a fenced block with a
// fence longer than any backtick run in it, in the info string the
// logbook's own fenced commands use (else "bash").
#ifndef MOELOG_LOGBOOK_RESEARCH_ENTRY_WRITER_H_
#define MOELOG_LOGBOOK_RESEARCH_ENTRY_WRITER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"

namespace moelog::logbook {

struct EntryIntent {
  std::string heading;  // without the "### "
  std::string id;       // the ID the entry must parse to ("" any)
  std::vector<std::pair<std::string, std::string>> before;  // fields before Command: {"Hypothesis", "..."}
  std::vector<std::string> commands;                        // one or more (empty: "- Command: N/A")
  bool command_sub_bullets = false;                         // "- Command:\n  - `...`"
  std::vector<std::string> config;                          // "- Config:" sub-bullets
  std::vector<std::pair<std::string, std::string>> after;   // fields after Config: {"Result", "pending"}
};

// Whether `command` can be written as inline code on one line.
bool FitsInline(std::string_view command);

// The fence info string of the logbook's fenced commands ("bash" when none).
std::string CommandFenceInfo(const Logbook& logbook, std::string_view text);

// The entry's Markdown (ends with a newline).
std::string ComposeEntry(const EntryIntent& intent, const std::string& fence_info);

// The differences between what `after` (the parse of the new text) holds
// and `before` plus the intended entry; empty when it parses back as meant.
std::vector<std::string> ParseBackDifferences(const Logbook& before, std::string_view before_text,
                                              const Logbook& after, std::string_view after_text,
                                              const EntryIntent& intent);

// `text` (parsed as `logbook`) with the entry appended after the last entry
// (or at the end), one blank line before it; ParseError naming the first
// differences when the result would not parse back as meant.
Result<std::string> AppendEntry(const Logbook& logbook, std::string_view text, const EntryIntent& intent);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RESEARCH_ENTRY_WRITER_H_
