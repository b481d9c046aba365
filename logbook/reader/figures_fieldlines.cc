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

}  // namespace

bool FieldLinesParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                         std::vector<UnreadFigures>* unread) {
  if (p.text.find('|') == std::string::npos || p.end_line - p.line + 1 != static_cast<int>(p.line_starts.size()) + 1)
    return false;
  std::string text;
  for (size_t i = 0; i <= p.line_starts.size(); ++i) {
    const size_t b = i == 0 ? 0 : p.line_starts[i - 1];
    const size_t end = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
    const std::string line = Unmarked(p.text.substr(b, end - b));
    if (!FieldLine(line)) return false;
    text += (i == 0 ? "" : "\n") + line;
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
