#include "logbook/reader/blocks_html.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "logbook/text.h"

namespace moelog::logbook {

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// A cell that starts with a number ("0.231", "-4.1%", "~12 ms"): a figure's.
bool StartsNumber(const std::string& c) {
  return !c.empty() && (IsDigit(c[0]) || ((c[0] == '-' || c[0] == '~') && c.size() > 1 && IsDigit(c[1])));
}

// A tag at `s[i]` ('<'): its name in lower case, whether it closes, and
// where it ends (after its '>'). False for a '<' that opens no tag ("a < b").
struct Tag {
  std::string name;
  bool closing = false;
  size_t end = 0;
  int colspan = 1, rowspan = 1;  // a cell's spans ("<th colspan=2>")
};

// The whole number an attribute of a tag's text gives (`colspan="2"`,
// `rowspan=3`), 1 when the tag has none.
int SpanAttribute(std::string_view attrs, std::string_view name) {
  const size_t at = LowerAscii(attrs).find(name);
  if (at == std::string_view::npos) return 1;
  size_t p = at + name.size();
  while (p < attrs.size() && (attrs[p] == ' ' || attrs[p] == '=' || attrs[p] == '"' || attrs[p] == '\''))
    ++p;
  const int n = std::atoi(std::string(attrs.substr(p, 4)).c_str());
  return n >= 1 && n <= 64 ? n : 1;
}

bool ReadTag(std::string_view s, size_t i, Tag* t) {
  size_t p = i + 1;
  t->closing = p < s.size() && s[p] == '/';
  if (t->closing) ++p;
  const size_t b = p;
  while (p < s.size() && std::isalnum(static_cast<unsigned char>(s[p]))) ++p;
  if (p == b || !std::isalpha(static_cast<unsigned char>(s[b]))) return false;
  const size_t gt = s.find('>', p);
  if (gt == std::string_view::npos) return false;
  t->name = LowerAscii(s.substr(b, p - b));
  t->end = gt + 1;
  if (t->name == "th" || t->name == "td") {
    t->colspan = SpanAttribute(s.substr(p, gt - p), "colspan");
    t->rowspan = SpanAttribute(s.substr(p, gt - p), "rowspan");
  }
  return true;
}

// An entity's text ("&amp;" -> "&", "&#181;" -> the micro sign), or the
// text as written when it is none this reader knows.
std::string Entity(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> kNamed[] = {
      {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "},
      {"micro", "\xC2\xB5"}, {"plusmn", "\xC2\xB1"}, {"times", "\xC3\x97"}, {"asymp", "\xE2\x89\x88"}};
  for (const auto& [n, t] : kNamed)
    if (name == n) return std::string(t);
  if (name.size() >= 2 && name[0] == '#') {
    const bool hex = name[1] == 'x' || name[1] == 'X';
    const long code = std::strtol(std::string(name.substr(hex ? 2 : 1)).c_str(), nullptr, hex ? 16 : 10);
    if (code > 0 && code < 0x80) return std::string(1, static_cast<char>(code));
    if (code >= 0x80 && code < 0x800)
      return {static_cast<char>(0xC0 | (code >> 6)), static_cast<char>(0x80 | (code & 0x3F))};
    if (code >= 0x800 && code < 0x10000)
      return {static_cast<char>(0xE0 | (code >> 12)), static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
              static_cast<char>(0x80 | (code & 0x3F))};
  }
  std::string written(1, '&');  // as written
  written.append(name);
  written.push_back(';');
  return written;
}

// Builds the tables as the walk over the tags meets them.
struct TableWalk {
  std::vector<HtmlTable> out;
  HtmlTable table;
  int depth = 0;             // tables open (an inner table's cells are its outer cell's text)
  bool in_row = false, in_cell = false, in_head = false;
  std::vector<std::string> row;
  std::vector<std::pair<int, int>> spans, header_spans;  // each cell's (colspan, rowspan)
  bool row_all_th = true;
  int row_line = 0, digit_line = 0, cell_line = 0;
  std::string cell;

  void EndCell() {
    if (!in_cell) return;
    std::string c;
    for (char ch : cell) {  // blanks collapsed, trimmed
      const bool blank = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
      if (blank && (c.empty() || c.back() == ' ')) continue;
      c.push_back(blank ? ' ' : ch);
    }
    while (!c.empty() && c.back() == ' ') c.pop_back();
    if (digit_line == 0 && StartsNumber(c)) digit_line = cell_line;
    row.push_back(std::move(c));
    cell.clear();
    in_cell = false;
  }
  void EndRow() {
    EndCell();
    if (!in_row) return;
    in_row = false;
    if (row.empty()) return;
    const bool starts_number = std::any_of(row.begin(), row.end(), StartsNumber);
    if (table.header.empty() && table.rows.empty() && (row_all_th || in_head || !starts_number)) {
      table.header = std::move(row);
      header_spans = std::move(spans);
    } else if (row_all_th && table.rows.empty()) {
      SubHeader();
    } else if (!table.header.empty() && !(row_all_th && table.rows.empty())) {
      table.rows.push_back(std::move(row));
      table.row_lines.push_back(digit_line > 0 ? digit_line : row_line);
    }
    row.clear();
    spans.clear();
  }
  void SubHeader();
  void StartRow(int line) {
    EndRow();
    in_row = true, row_all_th = true;
    row_line = line, digit_line = 0;
  }
  void EndTable(int line) {
    EndRow();
    table.end_line = line;
    if (!table.header.empty() && !table.rows.empty()) out.push_back(std::move(table));
    table = HtmlTable{};
  }
  void OnTag(const Tag& t, int line);
  void OnText(char c, int line) {
    if (!in_cell || depth != 1) return;
    if (cell.find_first_not_of(" \t\r\n") == std::string::npos) cell_line = line;  // its text's first line
    cell.push_back(c);
  }
};

// A second header row under a first whose cells span columns (a group
// "Prefill" over "ms" and "tok/s"): each column is named by its group and
// its own header ("Prefill / ms"); a first-row cell that spans both rows
// ("Batch") names its column alone. A second header row under a first of no
// groups, or whose cells do not fill the groups' columns, adds nothing.
void TableWalk::SubHeader() {
  bool grouped = false;
  size_t wanted = 0;
  for (size_t i = 0; i < table.header.size() && i < header_spans.size(); ++i) {
    grouped = grouped || header_spans[i].first > 1;
    if (header_spans[i].second < 2) wanted += static_cast<size_t>(header_spans[i].first);
  }
  if (!grouped || header_spans.size() != table.header.size() || wanted != row.size()) return;
  std::vector<std::string> names;
  size_t k = 0;
  for (size_t i = 0; i < table.header.size(); ++i) {
    const std::string& group = table.header[i];
    if (header_spans[i].second >= 2) {
      for (int c = 0; c < header_spans[i].first; ++c) names.push_back(group);
      continue;
    }
    for (int c = 0; c < header_spans[i].first; ++c, ++k) {
      const std::string& own = row[k];
      names.push_back(group.empty() ? own : own.empty() || own == group ? group : group + " / " + own);
    }
  }
  table.header = std::move(names);
}

void TableWalk::OnTag(const Tag& t, int line) {
  if (t.name == "table") {
    if (!t.closing && depth++ == 0) table = HtmlTable{}, table.line = line;
    else if (t.closing && depth > 0 && --depth == 0) EndTable(line);
    return;
  }
  if (depth != 1) {
    if (t.name == "br" && in_cell) cell.push_back(' ');
    return;
  }
  if (t.name == "thead") in_head = !t.closing;
  else if (t.name == "tr" && !t.closing) StartRow(line);
  else if (t.name == "tr") EndRow();
  else if ((t.name == "td" || t.name == "th") && !t.closing) {
    if (!in_row) StartRow(line);
    EndCell();
    in_cell = true;
    spans.emplace_back(t.colspan, t.rowspan);
    row_all_th = row_all_th && t.name == "th";
  } else if (t.name == "td" || t.name == "th") {
    EndCell();
  } else if (in_cell && (t.name == "br" || t.name == "p" || t.name == "div" || t.name == "li")) {
    cell.push_back(' ');
  }
}

}  // namespace

bool HoldsHtmlTable(std::string_view html) {
  for (size_t p = html.find('<'); p != std::string_view::npos; p = html.find('<', p + 1)) {
    Tag t;
    if (ReadTag(html, p, &t) && !t.closing && t.name == "table") return true;
  }
  return false;
}

std::vector<HtmlTable> HtmlTables(std::string_view html, int first_line) {
  TableWalk w;
  int line = first_line;
  for (size_t i = 0; i < html.size();) {
    const char c = html[i];
    Tag t;
    if (c == '<' && html.compare(i, 4, "<!--") == 0) {  // a comment states nothing
      const size_t end = html.find("-->", i + 4);
      const size_t stop = end == std::string_view::npos ? html.size() : end + 3;
      line += static_cast<int>(std::count(html.begin() + static_cast<std::ptrdiff_t>(i),
                                          html.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
      i = stop;
    } else if (c == '<' && ReadTag(html, i, &t)) {
      w.OnTag(t, line);
      line += static_cast<int>(std::count(html.begin() + static_cast<std::ptrdiff_t>(i),
                                          html.begin() + static_cast<std::ptrdiff_t>(t.end), '\n'));
      i = t.end;
    } else if (c == '&') {
      const size_t semi = html.find(';', i);
      const bool entity = semi != std::string_view::npos && semi - i <= 8 && semi > i + 1;
      const std::string text = entity ? Entity(html.substr(i + 1, semi - i - 1)) : "&";
      for (char e : text) w.OnText(e, line);
      i = entity ? semi + 1 : i + 1;
    } else {
      w.OnText(c, line);
      if (c == '\n') ++line;
      ++i;
    }
  }
  if (w.depth > 0) w.EndTable(line);  // a table its block does not close
  return std::move(w.out);
}

}  // namespace moelog::logbook
