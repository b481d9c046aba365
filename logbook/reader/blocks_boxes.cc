#include "logbook/reader/blocks_boxes.h"

#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// The length of the box-drawing character at `p` (3 bytes of UTF-8), 0 when
// there is none: U+2500..U+257F is E2 94 80 .. E2 95 BF.
size_t BoxAt(std::string_view s, size_t p) {
  if (p + 2 >= s.size() || static_cast<unsigned char>(s[p]) != 0xE2) return 0;
  const auto b1 = static_cast<unsigned char>(s[p + 1]), b2 = static_cast<unsigned char>(s[p + 2]);
  return (b1 == 0x94 || b1 == 0x95) && b2 >= 0x80 && b2 <= 0xBF ? 3 : 0;
}

// Whether the box character at `p` is a vertical bar: │ ┃ ┆ ┇ ┊ ┋ ║ ╎ ╏.
bool VerticalAt(std::string_view s, size_t p) {
  const auto b1 = static_cast<unsigned char>(s[p + 1]), b2 = static_cast<unsigned char>(s[p + 2]);
  if (b1 == 0x94) return b2 == 0x82 || b2 == 0x83 || b2 == 0x86 || b2 == 0x87 || b2 == 0x8A || b2 == 0x8B;
  return b2 == 0x91 || b2 == 0x8E || b2 == 0x8F;
}

}  // namespace

bool HasBoxDrawing(std::string_view line) {
  for (size_t p = 0; p + 2 < line.size(); ++p)
    if (BoxAt(line, p)) return true;
  return false;
}

std::string Unboxed(std::string_view line, bool* rule) {
  std::string out;
  bool text = false;
  for (size_t p = 0; p < line.size();) {
    if (const size_t n = BoxAt(line, p)) {
      out += VerticalAt(line, p) ? '|' : ' ';
      p += n;
      continue;
    }
    const char c = line[p++];
    text = text || !(c == ' ' || c == '\t' || c == '-' || c == '=' || c == '+' || c == '|' || c == ':' || c == '\r');
    out += c;
  }
  *rule = !text;
  if (*rule) return "";
  std::string t = Trim(out);
  if (t.size() >= 2 && t.front() == '|' && t.back() == '|') t = Trim(t.substr(1, t.size() - 2));
  return t;
}

namespace {

// The box character at `p` as its offset from U+2500.
int BoxCode(std::string_view s, size_t p) {
  return (static_cast<unsigned char>(s[p + 1]) - 0x94) * 64 + (static_cast<unsigned char>(s[p + 2]) - 0x80);
}

}  // namespace

FrameBorder FrameBorderOf(std::string_view line) {
  bool rule = false;
  Unboxed(line, &rule);
  const std::string t = Trim(line);
  if (!rule || !BoxAt(t, 0)) return FrameBorder::kNone;
  for (size_t p = 3; p + 2 < t.size(); ++p) {
    if (!BoxAt(t, p)) continue;
    const int c = BoxCode(t, p);
    if ((c >= 0x1C && c <= 0x4B) || (c >= 0x5E && c <= 0x6C)) return FrameBorder::kNone;  // a column's joint: a table
    p += 2;
  }
  // Corners: ┌ ┍ ┎ ┏ ╒ ╓ ╔ ╭ open a frame; └ ┕ ┖ ┗ ╘ ╙ ╚ ╰ close it.
  const int first = BoxCode(t, 0);
  if ((first >= 0x0C && first <= 0x0F) || (first >= 0x52 && first <= 0x54) || first == 0x6D) return FrameBorder::kTop;
  if ((first >= 0x14 && first <= 0x17) || (first >= 0x58 && first <= 0x5A) || first == 0x70) return FrameBorder::kBottom;
  return FrameBorder::kNone;
}

bool FramedLines(const std::vector<std::string_view>& lines) {
  size_t framed = 0, n = 0;
  for (std::string_view l : lines) {
    const std::string t = Trim(l);
    if (t.empty()) continue;
    ++n;
    framed += BoxAt(t, 0) ? 1 : 0;
  }
  return n >= 2 && 4 * framed >= 3 * n;
}

}  // namespace moelog::logbook
