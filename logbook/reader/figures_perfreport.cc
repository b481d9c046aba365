// Reader stage figures, triton's `perf_report` printed table (pandas'
// printout of the sweep): its plot's name and a colon on a line
// (`softmax-performance:`), a header of names (`N  Torch  Fused`), then rows
// whose first cell is the row's index (`0  1024.0  512.000  980.250`). The
// leading columns whose every cell is a whole number are the sweep's axes
// (keys), each other column one provider's figures: a figure per row and
// provider (provider=<column>, benchmark=<plot>). The unit is the one the
// entry's text names above it ("in GB/s"); with none, the figures are
// named after the plot (triton prints no unit). Keys are data:
// bench_printouts.json framework_tables.perf_report.
#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_docunit.h"
#include "logbook/reader/figures_frameworks.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

struct PerfReportKeys {
  std::string name = "benchmark", provider = "provider";
};

const PerfReportKeys& Keys() {
  static const PerfReportKeys w = [] {
    PerfReportKeys out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("framework_tables") || !j["framework_tables"].contains("perf_report")) return out;
    const nlohmann::json& t = j["framework_tables"]["perf_report"];
    out.name = t.value("name_key", out.name), out.provider = t.value("provider_key", out.provider);
    return out;
  }();
  return w;
}

// "softmax-performance:": one word (letters first) ending in a colon.
bool PlotName(const std::string& t, std::string* name) {
  if (t.size() < 3 || t.back() != ':' || t.find(' ') != std::string::npos || !std::isalpha(static_cast<unsigned char>(t[0]))) return false;
  *name = t.substr(0, t.size() - 1);
  return true;
}

bool WholeNumber(const std::string& c) {
  const size_t dot = c.find('.');
  return IsNumber(c) && c.find_first_not_of("0123456789.") == std::string::npos &&
         (dot == std::string::npos || c.find_first_not_of('0', dot + 1) == std::string::npos);
}

// The table's rows (cells after the index) from line j on, while each is
// the next index and as many numbers as the header names.
size_t Rows(const std::vector<PrintedLine>& lines, size_t j, size_t width, std::vector<std::vector<std::string>>* rows,
            std::vector<int>* at) {
  size_t k = j;
  for (; k < lines.size(); ++k) {
    auto cells = SpaceWords(lines[k].text);
    if (cells.size() != width + 1 || cells[0] != std::to_string(rows->size()) ||
        !std::all_of(cells.begin() + 1, cells.end(), [](const std::string& c) { return IsNumber(c); }))
      break;
    rows->emplace_back(cells.begin() + 1, cells.end());
    at->push_back(lines[k].line);
  }
  return k - j;
}

void KeepReport(const std::string& plot, const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                const std::vector<int>& at, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out) {
  size_t axes = 0;
  while (axes + 1 < head.size() && std::all_of(rows.begin(), rows.end(), [&](const auto& r) { return WholeNumber(r[axes]); })) ++axes;
  const std::string unit = EntryTableUnit(x, at.front());
  UnitInfo info{SnakeKey(plot), 1, false};
  if (axes == 0 || (!unit.empty() && (!UnitOf(unit, &info) || info.derived))) return;
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = axes; c < head.size() && out->size() <= kMaxFiguresPerEntry; ++c) {
      Config cfg = context;
      cfg[Keys().name] = plot, cfg[Keys().provider] = head[c];
      for (size_t a = 0; a < axes; ++a) cfg[Lower(head[a])] = rows[r][a];
      RecordedFigure f{NewRecorded(x, cfg, at[r]), at[r], ""};
      const auto v = ParseNumber(rows[r][c]);
      if (!v) continue;
      f.run.metrics[info.metric] = ToStored(*v, info.factor), f.run.decimals[info.metric] = WrittenDecimals(rows[r][c]);
      f.run.units[info.metric] = unit;
      out->push_back(std::move(f));
    }
}

}  // namespace

void PerfReportTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                      std::vector<RecordedFigure>* out, std::set<int>* read) {
  for (size_t i = 0; i + 2 < lines.size(); ++i) {
    std::string plot;
    if (read->count(lines[i].line) || !PlotName(lines[i].text, &plot)) continue;
    const auto head = SpaceWords(lines[i + 1].text);
    if (head.size() < 2 || !std::none_of(head.begin(), head.end(), [](const std::string& h) { return IsNumber(h); })) continue;
    std::vector<std::vector<std::string>> rows;
    std::vector<int> at;
    const size_t n = Rows(lines, i + 2, head.size(), &rows, &at);
    if (n == 0) continue;
    const size_t before = out->size();
    KeepReport(plot, head, rows, at, context, x, out);
    for (size_t k = before; k < out->size(); ++k)
      for (const auto& l : lines)
        if (l.line == (*out)[k].line) (*out)[k].text = l.text;
    for (size_t k = i; k < i + 2 + n; ++k) read->insert(lines[k].line);
    i += 1 + n;
  }
}

}  // namespace moelog::logbook::reader
