#include "logbook/reader/config_words.h"

#include <sstream>

#include "logbook/text.h"

namespace moelog::logbook {

std::map<std::string, std::string> ConfigWords(const std::string& text, const RunKeys& keys) {
  std::map<std::string, std::string> out;
  std::string t;
  for (char ch : SplitJoinedPairs(text)) t += (ch == '`' || ch == '(' || ch == ')' || ch == ',' || ch == ';') ? ' ' : ch;
  std::istringstream words(t);
  std::string w;
  while (words >> w) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size()) continue;
    std::string key = NormalizeKey(w.substr(0, eq));
    std::string value = w.substr(eq + 1);
    while (!value.empty() && (value.back() == '.' || value.back() == ':')) value.pop_back();
    if (keys.Has(key) && !value.empty()) out[key] = value;
  }
  return out;
}

}  // namespace moelog::logbook
