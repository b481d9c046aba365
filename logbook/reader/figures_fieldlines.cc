#include "logbook/reader/figures_fieldlines.h"

#include <algorithm>
#include <cctype>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// A line without its emphasis and code marks ("**PPL:** `23.84`" -> "PPL: 23.84").
std::string Unmarked(const std::string& line) {
  std::string out;
  for (char c : line)
    if (c != '*' && c != '`') out += c;
  return parse_detail::Trim(out);
}

// Whether `line` is two `Name: value` fields or more split by `|`, every
// part such a field and one value a number at least.
bool FieldLine(const std::string& line) {
  int named = 0, numbers = 0, parts = 0;
  for (size_t b = 0;;) {
    const size_t e = line.find('|', b);
    const std::string part = parse_detail::Trim(line.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (!part.empty()) {
      ++parts;
      const size_t colon = part.find(": ");
      const std::string name = colon == std::string::npos ? "" : part.substr(0, colon);
      const std::string value = colon == std::string::npos ? "" : parse_detail::Trim(part.substr(colon + 2));
      if (!name.empty() && name.size() <= 40 && !value.empty() &&
          std::any_of(name.begin(), name.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || (c & 0x80); })) {
        ++named;
        numbers += std::isdigit(static_cast<unsigned char>(value[0])) || value[0] == '~' ? 1 : 0;
      }
    }
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return named >= 2 && named == parts && numbers >= 1;
}

// The lines of a paragraph, each as written on its source line.
std::vector<std::string> ParagraphLines(const Paragraph& p) {
  std::vector<std::string> lines;
  for (size_t i = 0; i <= p.line_starts.size(); ++i) {
    const size_t b = i == 0 ? 0 : p.line_starts[i - 1];
    const size_t end = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
    lines.push_back(parse_detail::Trim(p.text.substr(b, end - b)));
  }
  return lines;
}

// The cells of a pipe row ("| a | b |" -> a, b); empty for a line that is none.
std::vector<std::string> PipeRow(const std::string& line) {
  if (line.size() < 3 || line.front() != '|' || line.back() != '|') return {};
  std::vector<std::string> cells;
  for (size_t b = 1; b < line.size();) {
    const size_t e = line.find('|', b);
    if (e == std::string::npos) break;
    cells.push_back(parse_detail::Trim(line.substr(b, e - b)));
    b = e + 1;
  }
  return cells;
}

// Whether every cell of a row is a delimiter ("---", ":--:").
bool DelimiterRow(const std::vector<std::string>& cells) {
  return !cells.empty() && std::all_of(cells.begin(), cells.end(), [](const std::string& c) {
    return !c.empty() && c.find_first_not_of("-: ") == std::string::npos && c.find('-') != std::string::npos;
  });
}

}  // namespace

bool PipeTableParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                        std::vector<UnreadFigures>* unread) {
  if (p.end_line - p.line + 1 != static_cast<int>(p.line_starts.size()) + 1 || p.line_starts.size() < 2) return false;
  const std::vector<std::string> lines = ParagraphLines(p);
  TableBlock t;
  t.line = p.line, t.end_line = p.end_line;
  t.header = PipeRow(lines[0]);
  if (t.header.size() < 2 || !DelimiterRow(PipeRow(lines[1]))) return false;
  for (size_t i = 2; i < lines.size(); ++i) {
    std::vector<std::string> cells = PipeRow(lines[i]);
    if (cells.empty()) return false;
    t.rows.push_back(std::move(cells));
  }
  for (const auto& s : e.subheadings)
    if (s.line < t.line) t.subheading = s.text;
  TableFigures(t, Config{}, x, out, unread);
  return true;
}

bool FieldLinesParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                         std::vector<UnreadFigures>* unread) {
  if (p.text.find('|') == std::string::npos || p.end_line - p.line + 1 != static_cast<int>(p.line_starts.size()) + 1)
    return false;
  std::string text;
  for (const std::string& written : ParagraphLines(p)) {
    const std::string line = Unmarked(written);
    if (!FieldLine(line)) return false;
    text += (text.empty() ? "" : "\n") + line;
  }
  FencedBlock block;  // the lines as printed, each on its own source line
  block.line = p.line - 1;
  block.end_line = p.end_line + 1;
  block.text = text;
  block.output_cue = "fields";
  OutputFigures(e, block, Config{}, x, out, unread);
  return true;
}

}  // namespace moelog::logbook::reader
