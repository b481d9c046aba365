// Reader stage blocks, HTML tables: a `<table>` written as raw HTML in a
// Markdown logbook (`<tr><td>split-k</td><td>0.231</td></tr>`, one row a
// line, or one tag a line) is a table like a pipe table: its header is the
// first row of `<th>` cells (or the `<thead>`'s), its rows the others, each
// cell's text without its tags (`<code>`, `<span>`, `<b>`), entities
// decoded, blanks collapsed. Each row keeps the line of the first of its
// cells that starts with a number (where its figures are written), else of its
// `<tr>`.
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_HTML_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_HTML_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

struct HtmlTable {
  int line = 0, end_line = 0;  // of `<table>` and `</table>` (or the text's last line)
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> row_lines;  // one per row
};

// Whether `html` (an HTML block's text) holds a `<table>` tag (any case).
bool HoldsHtmlTable(std::string_view html);

// The tables of `html`, whose first line is line `first_line` of the file;
// a table with no header row, or no row under it, is none.
std::vector<HtmlTable> HtmlTables(std::string_view html, int first_line);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_HTML_H_
