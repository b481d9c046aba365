// Reader stage figures, program output: rows of a name, a unit and a
// number between rules of three dash runs, with no header printed (ncu's
// `--metrics` section: `gpu__time_duration.sum   msecond   1.42`): the
// rule above them is read as the header it stands for (output.json
// ruled_unit_header), so each row is a figure in its unit column's unit, as
// under a printed `Metric Name  Metric Unit  Metric Value`.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The [start, end) of each dash run of a rule line ("---- ---- ----").
std::vector<std::pair<size_t, size_t>> DashRuns(const std::string& raw) {
  std::vector<std::pair<size_t, size_t>> runs;
  for (size_t p = 0; p < raw.size();) {
    if (raw[p] == ' ') {
      ++p;
      continue;
    }
    if (raw[p] != '-') return {};
    const size_t end = std::min(raw.find(' ', p), raw.size());
    runs.emplace_back(p, end);
    p = end;
  }
  return runs;
}

// "gpu__time_duration.sum   msecond   1.42": a name, a unit, a number.
bool NameUnitValue(const std::string& text) {
  const auto cells = SpaceWords(text);
  std::string num, glued;
  bool approx = false;
  UnitInfo info{};
  return cells.size() == 3 && !IsNumber(cells[0]) && OutputUnit(cells[1], "", &info) &&
         NumberToken(cells[2], &num, &glued, &approx) && glued.empty();
}

}  // namespace

void RuledUnitHeaders(std::vector<PrintedLine>* lines) {
  static const std::vector<std::string> head = [] {
    std::vector<std::string> out;
    const nlohmann::json& j = ReaderDataJson("data/reader/output.json");
    if (j.is_object() && j.contains("ruled_unit_header") && j["ruled_unit_header"].is_array())
      for (const auto& w : j["ruled_unit_header"])
        if (w.is_string()) out.push_back(w.get<std::string>());
    return out.size() == 3 ? out : std::vector<std::string>{};
  }();
  for (size_t i = 0; i + 1 < lines->size() && !head.empty(); ++i) {
    PrintedLine& l = (*lines)[i];
    const auto runs = DashRuns(l.raw);
    if (runs.size() != 3 || !NameUnitValue((*lines)[i + 1].text) || (i > 0 && NameUnitValue((*lines)[i - 1].text))) continue;
    bool fits = true;
    for (size_t k = 0; k < 3; ++k) fits = fits && runs[k].second - runs[k].first > head[k].size();  // two blanks at least between words
    if (!fits) continue;
    std::string header(runs.back().second, ' ');
    header.replace(runs[0].first, head[0].size(), head[0]);  // the name left, the others right-aligned as ncu prints them
    for (size_t k = 1; k < 3; ++k)
      if (runs[k].second >= head[k].size()) header.replace(runs[k].second - head[k].size(), head[k].size(), head[k]);
    l.raw = header, l.text = parse_detail::Trim(header);
  }
}

}  // namespace moelog::logbook::reader
