#include "logbook/reader/figures_printed.h"

#include <algorithm>

namespace moelog::logbook::reader {
namespace {

std::string Trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

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
    out.push_back(Trimmed(line.substr(p, bar == std::string::npos ? std::string::npos : bar - p)));
    if (bar == std::string::npos) break;
    p = bar + 1;
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  if (!out.empty() && out.front().empty()) out.erase(out.begin());
  return out;
}

}  // namespace moelog::logbook::reader
