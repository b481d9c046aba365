// Reader stage table, cells of named statistics (table_statcells.h).
#include "logbook/reader/table_statcells.h"

#include "logbook/reader/data_words.h"

namespace moelog::logbook::reader {

std::vector<std::pair<std::string, std::string>> NamedStatistics(const std::string& cell) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string metric;
  for (std::string part : SplitList(Unticked(cell), ',')) {
    part = parse_detail::Trim(part);
    size_t n = 0;
    while (n < part.size() && (std::isalnum(static_cast<unsigned char>(part[n])) || part[n] == '_')) ++n;
    const std::string name = Lower(part.substr(0, n));
    size_t v = n;
    while (v < part.size() && (part[v] == ':' || part[v] == '=' || part[v] == ' ')) ++v;
    const std::string figure = parse_detail::Trim(part.substr(v));
    std::string unit;
    UnitInfo info{};
    if (name.empty() || v == n || !(StatisticWord(name) || SpreadStatistic(name)) || !NumberCell(figure, &unit) ||
        unit.empty() || !UnitOf(unit, &info) || info.derived || (!metric.empty() && info.metric != metric))
      return {};
    metric = info.metric;
    out.emplace_back(name, figure);
  }
  return out.size() >= 2 ? out : decltype(out){};
}

void StatisticCellColumns(const TableBlock& t, std::vector<ColumnInfo>* cols) {
  for (size_t c = 0; c < cols->size(); ++c) {
    ColumnInfo& col = (*cols)[c];
    if (!col.metric.empty() || col.derived) continue;
    std::string unit;
    bool all = true, any = false;
    for (const auto& row : t.rows) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      const auto stats = NamedStatistics(row[c]);
      all = all && !stats.empty();
      if (stats.empty()) break;
      std::string u;
      if (unit.empty() && NumberCell(stats[0].second, &u)) unit = u;
      any = true;
    }
    UnitInfo info{};
    if (!all || !any || !UnitOf(unit, &info)) continue;
    col.metric = info.metric, col.unit = unit, col.factor = info.factor;
  }
}

bool StatisticsCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at) {
  const auto stats = NamedStatistics(cell);
  if (stats.empty()) return false;
  for (const auto& [name, figure] : stats) {
    ColumnInfo part = col;
    part.metric = name + "_" + col.metric;
    MetricCell(figure, part, by_at);
  }
  return true;
}

std::string WithoutCount(const std::string& cell) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/table.json", "count_after_figure"));
  const size_t comma = cell.rfind(", ");
  if (comma == std::string::npos || comma == 0) return cell;
  const auto w = Words(cell.substr(comma + 2));
  if (w.size() != 2 || !words->count(Lower(w[1])) ||
      !std::all_of(w[0].begin(), w[0].end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == ','; }))
    return cell;
  return parse_detail::Trim(cell.substr(0, comma));
}

bool CountPerSecond(const std::string& unit, UnitInfo* info) {
  const size_t slash = unit.find('/');
  if (slash == std::string::npos || slash < 2 || slash > 12) return false;
  const std::string per = Lower(unit.substr(slash + 1)), word = Lower(unit.substr(0, slash));
  const bool minute = per == "min" || per == "minute";  // "Chunks/min": a count per minute, kept as written
  if ((per != "s" && per != "sec" && !minute) ||
      !std::all_of(word.begin(), word.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
    return false;
  info->metric = word + (minute ? "_per_min" : "_per_s"), info->factor = 1, info->derived = false;
  return true;
}

}  // namespace moelog::logbook::reader
