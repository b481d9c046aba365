// What the document parser asks of a paragraph or a list beyond the
// reader's text functions (reader/blocks.h, reader/blocks_text.h): printed
// lines pasted amid prose, a list of results, and tables written as HTML.
#ifndef MOELOG_LOGBOOK_DOC_PRINTED_PROSE_H_
#define MOELOG_LOGBOOK_DOC_PRINTED_PROSE_H_

#include <string>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/doc/markdown.h"

namespace moelog::logbook {

// Runs of printed lines amid paragraph `p`'s prose (`lines`: its text, one
// source line per line; PrintedRuns): each appended to `outputs` as an
// output under sub-heading `sub`, and blanked out of `p` (its offsets and
// lines stay). Returns how many; `*prose_left` says whether more than blanks
// is left of the paragraph.
int PrintedOutOfProse(const std::string& lines, const std::string& sub, Paragraph* p,
                      std::vector<FencedBlock>* outputs, bool* prose_left);

// A console pasted as text, no fence (paragraph `n`, read from the source
// `lines`: its inline text loses the columns' alignment): a paragraph whose
// first line is a prompt ("user@host:~/dir$ nsys profile ...") gives its
// commands and printed lines as a `$ ` session does; a paragraph holding a
// tool's aligned table (a header over a rule of dash runs, "--------
// ---------", then rows) is an output. Returns whether `n` was either.
bool PastedConsole(const MdNode& n, const std::vector<std::string_view>& lines, const std::string& sub, Entry* e);

// A list of results: three items or more that each state a figure ("- v1:
// 1361 us", "- `v2.py`: sorted once ... 1311us.").
bool ResultList(const MdDocument& doc, const MdNode& list);
// How many items of `list` state a figure (up to 3: enough for a list of
// results, alone or with the lists beside it).
int ItemsStatingFigures(const MdDocument& doc, const MdNode& list);

// An HTML block that holds a table of a header and rows (reader/blocks_html.h).
bool HtmlTableNode(const MdNode& n);

// The tables of HTML block `idx` (none when it holds none; the HTML blocks
// right after it that a blank line inside the table split from it read with
// it), under sub-heading `sub`, each row on its own line: rows on lines one
// after another are one TableBlock, a row apart (written a tag a line) a
// TableBlock of its own.
std::vector<TableBlock> HtmlTableBlocks(const MdDocument& doc, int idx, const std::string& sub);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOC_PRINTED_PROSE_H_
