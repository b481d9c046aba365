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

}  // namespace moelog::logbook
