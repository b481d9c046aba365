#include "logbook/reader/blocks_tsv.h"

#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// `line` split at its tabs (a run of them one separator), each cell trimmed.
std::vector<std::string> TabCells(std::string_view line) {
  std::vector<std::string> cells;
  size_t start = 0;
  while (start <= line.size()) {
    size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) tab = line.size();
    cells.push_back(Trim(line.substr(start, tab - start)));
    while (tab < line.size() && line[tab] == '\t') ++tab;
    if (tab >= line.size()) break;
    start = tab;
  }
  return cells;
}

}  // namespace

std::vector<std::vector<std::string>> TabSeparatedRows(const std::vector<std::string_view>& lines) {
  if (lines.size() < 3 || lines.size() > 2000) return {};
  std::vector<std::vector<std::string>> rows;
  for (std::string_view line : lines) {
    if (line.find('\t') == std::string_view::npos) return {};
    rows.push_back(TabCells(line));
    if (rows.back().size() < 2 || rows.back().size() != rows.front().size()) return {};
  }
  // A header names its columns: no cell of it empty or a number ("64<TAB>2.83"
  // over more such lines is a dump of values, no table).
  for (const auto& h : rows.front())
    if (h.empty() || h.find_first_not_of("0123456789.,+-eE% ") == std::string::npos) return {};
  return rows;
}

}  // namespace moelog::logbook
