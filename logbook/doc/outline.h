// The document's outline as the walk over it takes it: its headings, and
// the paragraphs and list items that head entries of their own (a worklog
// of bold-dated paragraphs, a dated bullet log: reader/segment.h
// DatedLead), each at its place among the blocks the walk reads; and the
// role the reader's segment stage gives each.
#ifndef MOELOG_LOGBOOK_DOC_OUTLINE_H_
#define MOELOG_LOGBOOK_DOC_OUTLINE_H_

#include <string>
#include <string_view>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/doc/markdown.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook::parse_detail {

struct DocOutline {
  // The blocks the walk reads, in document order: the root's children, a
  // list some of whose items head entries split into its items.
  std::vector<int> units;
  std::vector<OutlineHeading> heads;
  std::vector<size_t> head_unit;  // each heading's position in `units`
  // heads[k] is a paragraph or list item, not a heading: its own text is
  // the entry's first block.
  std::vector<bool> lead;
  std::vector<SegmentedHeading> roles;
};

// Fills `o` for `doc` (headings in front matter are none); `file` names a
// document without headings that is one entry.
void SegmentDocument(const MdDocument& doc, const std::vector<std::string_view>& lines, DocOutline* o,
                     const std::string& file = "");

// A paragraph's text with where its source lines start, and the text of a
// bold or emphasized node that opens it (its lead).
Paragraph BuildParagraph(const MdDocument& doc, int idx);
// A paragraph's text, one source line per line (soft breaks back).
std::string ParagraphLines(const Paragraph& p);

}  // namespace moelog::logbook::parse_detail

#endif  // MOELOG_LOGBOOK_DOC_OUTLINE_H_
