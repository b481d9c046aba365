// A bench tool's printout pasted without a fence whose blank lines split it
// into paragraphs (ApacheBench's banner, settings, results and connection
// times; redis-benchmark's sections): the paragraphs after its first are
// the same printout, not prose (pasted_printout.cc).
#ifndef MOELOG_LOGBOOK_DOC_PASTED_PRINTOUT_H_
#define MOELOG_LOGBOOK_DOC_PASTED_PRINTOUT_H_

#include <string_view>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/doc/markdown.h"

namespace moelog::logbook {

// Whether paragraph `n` continues the printout pasted right above it: the
// entry's last output, unfenced, a bench tool's (BenchToolPrintout: it
// opens with the tool's banner), only blank lines between, and `n` no prose
// (no prompt, no sentence) and no command. Then `n`'s lines (read from the
// source `lines`) are appended to that output, its blank lines kept.
bool ContinuesPastedPrintout(const MdNode& n, const std::vector<std::string_view>& lines, Entry* e);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOC_PASTED_PRINTOUT_H_
