// Reader stage figures, a paragraph of field lines: "**PPL:** 23.84 |
// **NLL:** 3.171 | **Distinct-2:** 0.688", "**Build time:** 4.4s |
// **Status:** SUCCESS | **Peak RSS:** 790 MB". Each line holds one run's
// figures, read as a printed line of `Name: value` fields is (the output
// reader's field lines), on its own row; a field of words ("SUCCESS") is no
// figure.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_FIELDLINES_H_
#define MOELOG_LOGBOOK_READER_FIGURES_FIELDLINES_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

struct EntryCtx;

// The figures of `p` when each of its lines is such a line (two `Name:
// value` fields or more split by `|`, one a number at least); false,
// nothing read, for any other paragraph.
bool FieldLinesParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                         std::vector<UnreadFigures>* unread);

// A paragraph that is a pipe table Markdown did not take for one (its
// delimiter row holds another number of cells than its header: "| a | b |
// c |" over "|---|---|"): read as the table it was meant to be, its rows on
// their lines. False, nothing read, for any other paragraph.
bool PipeTableParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                        std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_FIELDLINES_H_
