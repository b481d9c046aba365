// Reader stage figures, a header stacked over lines (figures_stackedheader.h).
#include "logbook/reader/figures_stackedheader.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace moelog::logbook::reader {

namespace {

struct Token {
  std::string text;
  size_t begin = 0, end = 0;  // [begin, end) columns
};

// A line's words with their columns, a leading comment mark blanked.
std::vector<Token> Tokens(std::string line) {
  const size_t first = line.find_first_not_of(' ');
  if (first != std::string::npos && line[first] == '#') line[first] = ' ';
  std::vector<Token> out;
  for (size_t p = 0; p < line.size();) {
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    const size_t b = p;
    while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
    if (p > b) out.push_back({line.substr(b, p - b), b, p});
  }
  return out;
}

bool Unit(const Token& t) { return t.text.size() >= 3 && t.text.front() == '(' && t.text.back() == ')'; }

bool Name(const Token& t) {
  return std::any_of(t.text.begin(), t.text.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }) &&
         !Unit(t);
}

bool Commented(const std::string& l) {
  const size_t first = l.find_first_not_of(' ');
  return first != std::string::npos && l[first] == '#';
}

// The header cells of names `names`, units `units` (each under the name it
// ends with), groups `groups` (the k-th printing of a name under the k-th).
std::string Merged(const std::vector<Token>& names, const std::vector<Token>& units, const std::vector<Token>& groups) {
  std::map<std::string, size_t> seen;
  std::string out;
  for (const Token& n : names) {
    std::string cell;
    const size_t k = seen[n.text]++;
    const bool twice = std::count_if(names.begin(), names.end(), [&](const Token& m) { return m.text == n.text; }) ==
                       static_cast<std::ptrdiff_t>(groups.size());
    if (twice && groups.size() >= 2 && k < groups.size()) cell = groups[k].text + " ";
    cell += n.text;
    for (const Token& u : units)
      if (u.end + 1 >= n.end && u.end <= n.end + 1) cell += " " + u.text;
    out.append(out.empty() ? "" : "  ").append(cell);
  }
  return out;
}

}  // namespace

std::string StackedHeaders(const std::string& text) {
  if (text.find('(') == std::string::npos || text.size() > 200000) return text;
  std::vector<std::string> lines;
  for (size_t p = 0; p <= text.size();) {
    const size_t nl = text.find('\n', p);
    lines.push_back(text.substr(p, nl == std::string::npos ? std::string::npos : nl - p));
    if (nl == std::string::npos) break;
    p = nl + 1;
  }
  bool any = false;
  for (size_t i = 1; i + 1 < lines.size(); ++i) {
    const std::vector<Token> names = Tokens(lines[i]), units = Tokens(lines[i + 1]);
    if (names.size() < 4 || units.size() < 2 || !std::all_of(names.begin(), names.end(), Name) ||
        !std::all_of(units.begin(), units.end(), Unit) || !Commented(lines[i]) || !Commented(lines[i + 1]))
      continue;
    std::vector<Token> groups;
    if (const std::vector<Token> above = Tokens(lines[i - 1]);
        Commented(lines[i - 1]) && above.size() >= 2 && above.size() <= 4 && std::all_of(above.begin(), above.end(), Name))
      groups = above, lines[i - 1].clear();
    lines[i + 1] = Merged(names, units, groups);
    lines[i].clear();
    any = true;
  }
  if (!any) return text;
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) out.append(k ? "\n" : "").append(lines[k]);
  return out;
}

}  // namespace moelog::logbook::reader
