#include "logbook/doc/printed_prose.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_html.h"
#include "logbook/reader/blocks_text.h"

namespace moelog::logbook {

int PrintedOutOfProse(const std::string& lines, const std::string& sub, Paragraph* p,
                      std::vector<FencedBlock>* outputs, bool* prose_left) {
  *prose_left = true;
  const auto runs = PrintedRuns(lines);
  if (runs.empty()) return 0;
  std::vector<size_t> starts = {0};
  for (size_t k = 0; k < lines.size(); ++k)
    if (lines[k] == '\n') starts.push_back(k + 1);
  starts.push_back(lines.size() + 1);
  for (const auto& [first, last] : runs) {
    const size_t b = starts[static_cast<size_t>(first)];
    const size_t end = std::min(starts[static_cast<size_t>(last) + 1] - 1, lines.size());
    FencedBlock out;
    out.text = lines.substr(b, end - b) + "\n";
    out.line = p->LineAt(b) - 1;  // its first line is the block's first, as in a fence
    out.end_line = p->LineAt(end > b ? end - 1 : b);
    out.subheading = sub;
    out.output_cue = "looks like output";
    outputs->push_back(std::move(out));
    std::fill(p->text.begin() + static_cast<std::ptrdiff_t>(b), p->text.begin() + static_cast<std::ptrdiff_t>(end), ' ');
  }
  *prose_left = p->text.find_first_not_of(" \n") != std::string::npos;
  return static_cast<int>(runs.size());
}

int ItemsStatingFigures(const MdDocument& doc, const MdNode& list) {
  int stating = 0;
  for (int item : list.children) {
    if (doc.nodes[static_cast<size_t>(item)].kind != MdKind::kItem) continue;
    for (int c : doc.nodes[static_cast<size_t>(item)].children)
      if (doc.nodes[static_cast<size_t>(c)].kind == MdKind::kParagraph && StatesFigure(InlineText(doc, c))) {
        ++stating;
        break;
      }
    if (stating >= 3) break;
  }
  return stating;
}

bool ResultList(const MdDocument& doc, const MdNode& list) { return ItemsStatingFigures(doc, list) >= 3; }

bool HtmlTableNode(const MdNode& n) {
  return n.kind == MdKind::kHtmlBlock && HoldsHtmlTable(n.literal) && !HtmlTables(n.literal, 1).empty();
}

namespace {

// An HTML table's text from block `idx` on: a blank line inside it (within
// a cell, between rows) ends an HTML block for Markdown, so the HTML blocks
// right after it are read on until one closes the table.
std::string HtmlTableText(const MdDocument& doc, int idx) {
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  std::string text(n.literal);
  const auto& kids = doc.root().children;
  auto at = std::find(kids.begin(), kids.end(), idx);
  int end = n.end_line;
  for (size_t k = 0; at != kids.end() && ++at != kids.end() && k < 256 && text.find("</table") == std::string::npos; ++k) {
    const MdNode& next = doc.nodes[static_cast<size_t>(*at)];
    if (next.kind != MdKind::kHtmlBlock || HoldsHtmlTable(next.literal) || next.start_line <= end) break;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text.append(static_cast<size_t>(next.start_line - end - 1), '\n');  // the blank lines between
    text.append(next.literal);
    end = next.end_line;
  }
  return text;
}

}  // namespace

std::vector<TableBlock> HtmlTableBlocks(const MdDocument& doc, int idx, const std::string& sub) {
  std::vector<TableBlock> out;
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  if (n.kind != MdKind::kHtmlBlock || !HoldsHtmlTable(n.literal)) return out;
  for (const HtmlTable& h : HtmlTables(HtmlTableText(doc, idx), n.start_line)) {
    // A table's rows are read one a line under its header: rows written on
    // lines one after another are one table, rows apart (a tag a line) each
    // a table of their own under the same header.
    for (size_t r = 0; r < h.rows.size(); ++r) {
      if (r == 0 || h.row_lines[r] != h.row_lines[r - 1] + 1) {
        TableBlock t;
        t.line = h.row_lines[r] - 2;  // where a pipe table's header would be
        t.header = h.header;
        t.subheading = sub;
        out.push_back(std::move(t));
      }
      out.back().rows.push_back(h.rows[r]);
      out.back().end_line = h.row_lines[r];
    }
  }
  return out;
}

}  // namespace moelog::logbook
