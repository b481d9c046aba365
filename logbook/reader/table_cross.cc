// Reader stage table: headers that cross runs with statistics (table_cross.h).
#include "logbook/reader/table_cross.h"

#include <map>
#include <set>

#include "logbook/reader/figures_output_words.h"

namespace moelog::logbook::reader {
namespace {

// Whether a word of a name names a metric or a unit ("TTFT", "latency",
// "tok/s"): such a name is what is measured, not the run measured.
bool MetricNameWord(const std::string& w) {
  const Lexicon& lex = ReaderLexicon();
  const std::string l = Lower(w);
  UnitInfo info{};
  return lex.metric_words.count(w) || lex.metric_words.count(l) || lex.time_words.count(l) || OutputVocabulary().metric_line_words.count(l) ||
         UnitOf(w, &info) || StatisticWord(w) || SpreadStatistic(w);
}

// "Llama P50 (ms)": name "Llama", statistic "P50", rest "(ms)"; false when
// the header is not a name of words followed by a statistic.
bool SplitCross(const std::string& header, CrossHeader* out) {
  std::string h = parse_detail::Trim(header);
  if (const size_t open = h.find('('); open != std::string::npos) out->rest = parse_detail::Trim(h.substr(open)), h = h.substr(0, open);
  const std::vector<std::string> words = Words(h);
  if (words.size() < 2 || !(StatisticWord(words.back()) || SpreadStatistic(words.back()))) return false;
  for (size_t k = 0; k + 1 < words.size(); ++k) {
    if (MetricNameWord(words[k])) return false;
    out->name += (k ? " " : "") + words[k];
  }
  out->statistic = words.back();
  return !out->name.empty();
}

}  // namespace

std::vector<CrossHeader> CrossHeaders(const std::vector<std::string>& headers) {
  std::vector<CrossHeader> out;
  std::map<std::string, std::set<std::string>> stats;  // name -> its statistics
  for (size_t c = 1; c < headers.size(); ++c) {
    CrossHeader h;
    h.column = c;
    if (!SplitCross(Unticked(headers[c]), &h)) continue;
    stats[h.name].insert(Lower(h.statistic));
    out.push_back(std::move(h));
  }
  if (stats.size() < 2 || stats.begin()->second.size() < 2) return {};
  for (const auto& [name, s] : stats)
    if (s != stats.begin()->second) return {};
  return out;
}

bool CrossUnitTable(const TableBlock& t, const EntryCtx& x, TableBlock* with_unit) {
  const std::vector<CrossHeader> cross = CrossHeaders(t.header);
  if (cross.empty()) return false;
  std::vector<size_t> columns;
  for (const auto& h : cross) {
    if (!h.rest.empty()) return false;  // "Llama P50 (ms)": the header's own unit
    columns.push_back(h.column);
  }
  const ColumnInfo unit = ValueMetric(t, columns, std::vector<ColumnInfo>(t.header.size()), x);
  if (unit.unit.empty()) return false;
  *with_unit = t;
  for (const auto& h : cross) with_unit->header[h.column] += " (" + unit.unit + ")";
  return true;
}

void CrossColumns(std::vector<std::string>* headers, std::vector<ColumnInfo>* cols) {
  for (const auto& h : CrossHeaders(*headers)) {
    const std::string own = h.statistic + (h.rest.empty() ? "" : " " + h.rest);
    ColumnInfo col = ColumnMetric(own);
    if (col.metric.empty()) col = ColumnInfo{}, col.metric = SnakeKey(h.statistic);  // a unitless statistic ("P50")
    col.scale["variant"] = h.name;
    (*cols)[h.column] = std::move(col);
    (*headers)[h.column] = own;
  }
}

}  // namespace moelog::logbook::reader
