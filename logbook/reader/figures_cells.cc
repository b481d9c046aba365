#include "logbook/reader/figures_cells.h"

#include <cstdint>

namespace moelog::logbook::reader {
namespace {

// The code point of the UTF-8 sequence at s[i] and its length (0 for a
// byte that starts none).
uint32_t CodePointAt(const std::string& s, size_t i, size_t* len) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return *len = 0, 0;
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) >> 6) != 0x2) return *len = 0, 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  *len = n;
  return cp;
}

// Pictographs and what joins them: miscellaneous technical symbols (⏱),
// symbols and dingbats (✅ ❌ ✔ ⚠ ★), arrows and stars of the
// supplemental block (⭐ ⬆), emoji, variation selectors, the zero-width
// joiner. Not letters, units, math or plain arrows (→ keeps its meaning).
bool Pictograph(uint32_t cp) {
  return (cp >= 0x2300 && cp <= 0x23FF) || (cp >= 0x2600 && cp <= 0x27BF) || (cp >= 0x2B00 && cp <= 0x2BFF) ||
         (cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0x200D || cp == 0x20E3;
}

bool Space(char c) { return c == ' ' || c == '\t'; }

}  // namespace

std::string Undecorated(const std::string& s) {
  size_t b = 0, e = s.size();
  for (;;) {  // from the start
    while (b < e && Space(s[b])) ++b;
    size_t len = 0;
    const uint32_t cp = b < e ? CodePointAt(s, b, &len) : 0;
    if (len == 0 || !Pictograph(cp) || b + len > e) break;
    b += len;
  }
  for (;;) {  // from the end: step back to the last sequence's first byte
    while (e > b && Space(s[e - 1])) --e;
    if (e == b) break;
    size_t start = e - 1;
    while (start > b && (static_cast<unsigned char>(s[start]) >> 6) == 0x2) --start;
    size_t len = 0;
    const uint32_t cp = CodePointAt(s, start, &len);
    if (len == 0 || start + len != e || !Pictograph(cp)) break;
    e = start;
  }
  return s.substr(b, e - b);
}

}  // namespace moelog::logbook::reader
