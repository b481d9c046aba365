// Stage doc/: which inline code spans of a Command bullet are command lines.
// A fenced shell block is always a command; an inline span is one only when
// it starts like a command line -- optional NAME=value prefixes, then a known
// launcher, interpreter or shell word, or a path or script (`x/y`, `*.py`,
// `*.sh`) -- and has at least one argument after that program. A leading
// `...` (setup the author elided) is skipped. Prose and
// single words (`q`, `runs tk`, `bench_moe_hillclimb.py`) are not commands:
// they are neither planned nor reported. `N/A ...` stays a command (it says
// the entry ran nothing on purpose).
#ifndef MOELOG_LOGBOOK_DOC_COMMAND_LINE_H_
#define MOELOG_LOGBOOK_DOC_COMMAND_LINE_H_

#include <string_view>

namespace moelog::logbook {

// Linear in `span`.
bool LooksLikeCommandLine(std::string_view span);

// Whether a block's first non-blank line looks like a command line.
bool FirstLineIsCommand(std::string_view text);

// LooksLikeCommandLine, as a function pointer for line scans.
bool IsCommandLine(std::string_view l);

// A command line of a pasted terminal: one with arguments, or a program run
// by its path alone (`./gemm`, `../build/bench`) above what it printed.
bool IsTranscriptCommand(std::string_view l);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOC_COMMAND_LINE_H_
