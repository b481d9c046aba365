#include "logbook/reader/figures_printed.h"

#include <algorithm>
#include <sstream>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

bool PrintedRule(const std::string& line) {
  const auto rules = std::count_if(line.begin(), line.end(), [](char c) { return c == '-' || c == '='; });
  return rules >= 3 && std::all_of(line.begin(), line.end(), [](char c) {
           return c == '-' || c == '=' || c == '+' || c == '|' || c == ':' || c == ' ' || c == '\t';
         });
}

std::vector<std::string> PipeCells(const std::string& line) {
  std::vector<std::string> out;
  size_t p = 0;
  for (;;) {
    const size_t bar = line.find('|', p);
    out.push_back(parse_detail::Trim(line.substr(p, bar == std::string::npos ? std::string::npos : bar - p)));
    if (bar == std::string::npos) break;
    p = bar + 1;
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  if (!out.empty() && out.front().empty()) out.erase(out.begin());
  return out;
}

// A line's cells: CSV fields, or runs of text between two spaces or more
// (or a tab), or words when the line has no such gap.
std::vector<std::string> LineCells(const std::string& t) {
  std::vector<std::string> out;
  if (t.find(',') != std::string::npos && t.find(' ') == std::string::npos) {
    std::stringstream ss(t);
    for (std::string c; std::getline(ss, c, ',');) out.push_back(parse_detail::Trim(c));
    return out;
  }
  if (t.find("  ") == std::string::npos && t.find('\t') == std::string::npos) {
    std::istringstream words(t);
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  size_t p = 0;
  while (p < t.size()) {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
    size_t e = p;
    while (e < t.size() && t[e] != '\t' && !(t[e] == ' ' && e + 1 < t.size() && (t[e + 1] == ' ' || t[e + 1] == '\t'))) ++e;
    if (e > p) out.push_back(parse_detail::Trim(t.substr(p, e - p)));
    p = e;
  }
  return out;
}

}  // namespace moelog::logbook::reader
