#include "logbook/reader/figures_namedlist.h"

#include <cctype>

#include <set>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {
namespace {

// `s` split at its commas outside parentheses, each part trimmed.
std::vector<std::string> TopCommaParts(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(Trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(Trim(cur));
  return parts;
}

bool HasDigit(const std::string& s) {
  for (char c : s)
    if (std::isdigit(static_cast<unsigned char>(c))) return true;
  return false;
}

bool HasLetter(const std::string& s) {
  for (char c : s)
    if (std::isalpha(static_cast<unsigned char>(c))) return true;
  return false;
}

}  // namespace

std::vector<std::string> ListNames(const std::string& label) {
  std::string l = Trim(label);
  while (!l.empty() && (l.back() == ':' || l.back() == ' ' || l.back() == '*')) l.pop_back();
  if (l.empty() || l.back() != ')') return {};
  const size_t open = l.rfind('(');
  if (open == std::string::npos || open == 0) return {};
  std::vector<std::string> names = TopCommaParts(l.substr(open + 1, l.size() - open - 2));
  if (names.size() < 2 || names.size() > 8) return {};
  for (const auto& n : names)
    if (n.empty() || !HasLetter(n) || n.find('=') != std::string::npos || Words(n).size() > 5) return {};
  return names;
}

std::string NamedListText(const std::string& rest, const std::vector<std::string>& names) {
  const std::vector<std::string> values = TopCommaParts(rest);
  if (values.size() != names.size()) return rest;
  for (const auto& v : values)
    if (!HasDigit(v) || Words(v).size() > 3) return rest;
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    static const auto* change_words = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "change_name_words"));
    bool change = false;
    for (const auto& w : Words(Lower(names[i]))) change = change || change_words->count(w) > 0;
    if (change) continue;  // "performance delta": a difference of two runs
    std::string key = SnakeKey(names[i]);
    std::string value = values[i];
    while (!value.empty() && (value[0] == '~' || value[0] == '*')) value.erase(0, 1);
    if (!out.empty()) out += ", ";
    out += key + "=" + value;
  }
  return out.empty() ? rest : " " + out;
}

}  // namespace moelog::logbook::reader
