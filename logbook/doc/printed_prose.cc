#include "logbook/doc/printed_prose.h"

#include <cctype>
#include <string_view>

#include <algorithm>
#include <cstddef>
#include <utility>

#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_boxes.h"
#include "logbook/reader/blocks_html.h"
#include "logbook/reader/blocks_text.h"
#include "logbook/doc/command_line.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/text.h"

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

namespace {

// "--------  ---------------  ---------": two runs of dashes (or '=') or
// more, nothing else; no Markdown underline (that is one run).
bool DashRule(std::string_view l) {
  int runs = 0;
  for (size_t p = 0; p < l.size();) {
    if (l[p] == ' ' || l[p] == '\t' || l[p] == '\r') {
      ++p;
      continue;
    }
    const char c = l[p];
    if (c != '-' && c != '=') return false;
    const size_t a = p;
    while (p < l.size() && l[p] == c) ++p;
    if (p - a < 3) return false;
    ++runs;
  }
  return runs >= 2;
}

bool HasDigit(std::string_view l) {
  return std::any_of(l.begin(), l.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Its header over a rule, and a row with a number under it.
bool AlignedTable(const std::vector<std::string_view>& ls) {
  for (size_t i = 1; i + 1 < ls.size(); ++i)
    if (DashRule(ls[i]) && !Trim(ls[i - 1]).empty() && HasDigit(ls[i + 1])) return true;
  return false;
}

void AddSession(const std::string& text, int first, const std::string& sub, Entry* e) {
  for (PromptPart& part : SplitPrompted(text)) {
    if (part.command) {
      CommandText cmd;
      cmd.joined = JoinContinuations(part.text);
      cmd.text = std::move(part.text);
      cmd.line = first + part.first_line;
      cmd.end_line = first + part.last_line;
      cmd.prompted = true;
      if (!cmd.joined.empty()) e->commands.push_back(std::move(cmd));
      continue;
    }
    FencedBlock b;
    b.text = std::move(part.text);
    b.line = first + part.first_line;
    b.end_line = first + part.last_line;
    b.subheading = sub;
    b.output_cue = "prompt";
    e->outputs.push_back(std::move(b));
  }
}

}  // namespace

bool PastedConsole(const MdNode& n, const std::vector<std::string_view>& lines, const std::string& sub, Entry* e) {
  if (n.start_line < 1 || n.end_line > static_cast<int>(lines.size()) || n.end_line - n.start_line > 4096) return false;
  const std::vector<std::string_view> own(lines.begin() + n.start_line - 1, lines.begin() + n.end_line);
  std::string text;
  for (std::string_view l : own) text.append(l).push_back('\n');
  const std::string_view after = AfterPrompt(own.front());
  if (!after.empty() && !std::isdigit(static_cast<unsigned char>(Trim(after)[0]))) {  // "$ 5 an hour": no prompt
    AddSession(text, n.start_line, sub, e);
    return true;
  }
  // A rule of dash runs is a Markdown thematic break: it splits the header's
  // paragraph from the rows' one. The rows take their header back.
  int first = n.start_line;
  if (first >= 3 && DashRule(lines[first - 2]) && !Trim(lines[first - 3]).empty() && HasDigit(own.front())) {
    first -= 2;
    text = std::string(lines[first - 1]) + "\n" + std::string(lines[first]) + "\n" + text;
    if (!e->paragraphs.empty() && e->paragraphs.back().end_line == first) e->paragraphs.pop_back();
  } else if (!AlignedTable(own) && !FramedLines(own)) {  // a table, or a printout drawn in boxes
    return false;
  }
  FencedBlock b;
  b.text = std::move(text);
  b.line = first - 1;  // its first line is the block's first, as in a fence
  b.end_line = n.end_line;
  b.subheading = sub;
  b.output_cue = "looks like output";
  e->outputs.push_back(std::move(b));
  return true;
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
