#include "logbook/text.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace moelog::logbook {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> SpaceWords(std::string_view s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t e = i;
    while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e]))) ++e;
    if (e > i) out.emplace_back(s.substr(i, e - i));
    i = e;
  }
  return out;
}

std::vector<std::string> SplitList(std::string_view s, char sep) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const size_t end = std::min(s.find(sep), s.size());
    if (end > 0) out.emplace_back(s.substr(0, end));
    s.remove_prefix(std::min(end + 1, s.size()));
  }
  return out;
}

std::string SplitJoinedPairs(std::string_view s) {
  std::string out(s);
  auto key_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; };
  bool pair_before = false;  // an '=' earlier in the current word
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (std::isspace(static_cast<unsigned char>(c))) pair_before = false;
    if (c == '=') pair_before = true;
    if (c != '/' || !pair_before) continue;
    size_t k = i + 1;  // each slash looks at the key after it only: linear
    while (k < out.size() && key_char(out[k])) ++k;
    if (k > i + 1 && k < out.size() && out[k] == '=') out[i] = ' ';
  }
  return out;
}

std::string Utf8Prefix(const std::string& s, size_t n) {
  if (n >= s.size()) return s;
  // Back to the start of the character holding byte n (continuation bytes are 10xxxxxx).
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

namespace {

bool Pictograph(uint32_t c) {
  return (c >= 0x2190 && c <= 0x21FF) || (c >= 0x2300 && c <= 0x23FF) || (c >= 0x2600 && c <= 0x27BF) ||
         (c >= 0x2B00 && c <= 0x2BFF) || (c >= 0x1F000 && c <= 0x1FAFF) || c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F);
}

}  // namespace

std::string WithoutPictographs(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    const size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (len == 1 || i + len > s.size()) {
      out += s[i++];
      continue;
    }
    uint32_t c = b & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (Pictograph(c)) out += ' ';
    else out.append(s.substr(i, len));
    i += len;
  }
  return out;
}

namespace {

// The continuation bytes a UTF-8 lead byte needs, and the range its first
// continuation must fall in (no overlong forms, surrogates or code points
// past U+10FFFF); need 0 for a byte that cannot lead.
struct Lead {
  size_t need;
  unsigned char lo, hi;
};
Lead LeadOf(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF) return {1, 0x80, 0xBF};
  if (b == 0xE0) return {2, 0xA0, 0xBF};
  if (b == 0xED) return {2, 0x80, 0x9F};
  if (b >= 0xE1 && b <= 0xEF) return {2, 0x80, 0xBF};
  if (b == 0xF0) return {3, 0x90, 0xBF};
  if (b >= 0xF1 && b <= 0xF3) return {3, 0x80, 0xBF};
  if (b == 0xF4) return {3, 0x80, 0x8F};
  return {0, 0, 0};
}

// A byte outside any valid character: 0x80-0x9F are C1 controls on an 8-bit terminal.
char ShownAlone(unsigned char b) {
  if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F || (b >= 0x80 && b <= 0x9F)) return '?';
  return static_cast<char>(b);
}

}  // namespace

void TerminalFilter::Invalid(std::string* out) {
  for (char c : held_) *out += ShownAlone(static_cast<unsigned char>(c));
  held_.clear();
  need_ = 0;
}

void TerminalFilter::Feed(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (need_ > 0) {
      const Lead lead = LeadOf(static_cast<unsigned char>(held_[0]));
      const bool first = held_.size() == 1;
      const bool ok = first ? (b >= lead.lo && b <= lead.hi) : (b >= 0x80 && b <= 0xBF);
      if (ok) {
        held_ += c;
        if (--need_ > 0) continue;
        // U+0080-U+009F are the C1 controls.
        const bool c1 = held_.size() == 2 && static_cast<unsigned char>(held_[0]) == 0xC2 &&
                        static_cast<unsigned char>(held_[1]) <= 0x9F;
        *out += c1 ? std::string("?") : held_;
        held_.clear();
        continue;
      }
      Invalid(out);  // then `c` starts afresh
    }
    const Lead lead = LeadOf(b);
    if (lead.need > 0) {
      held_.assign(1, c);
      need_ = lead.need;
    } else {
      *out += ShownAlone(b);
    }
  }
}

void TerminalFilter::Finish(std::string* out) { Invalid(out); }

std::string TerminalSafe(std::string_view text) {
  TerminalFilter f;
  std::string out;
  out.reserve(text.size());
  f.Feed(text, &out);
  f.Finish(&out);
  return out;
}

std::string NoteLine(const std::string& s, size_t max) {
  std::string one = s;
  for (char& c : one)
    if (c == '\n' || c == '\r') c = ' ';
  if (one.size() <= max) return one;
  const size_t room = max > 3 ? max - 3 : 0;
  size_t cut = one.rfind(' ', room);
  if (cut == std::string::npos || cut < room / 2) cut = room;
  std::string out = Utf8Prefix(one, cut);
  while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ';' || out.back() == '(')) out.pop_back();
  // A cut after an escaping backslash would escape the dots.
  size_t slashes = 0;
  for (size_t i = out.size(); i > 0 && out[i - 1] == '\\'; --i) ++slashes;
  if (slashes % 2 == 1) out.pop_back();
  return out + "...";
}

}  // namespace moelog::logbook
