#include "logbook/text.h"

#include <algorithm>
#include <cctype>

namespace moelog::logbook {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
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

}  // namespace moelog::logbook
