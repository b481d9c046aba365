// Reader stage figures, program output: a section title of a printout that
// names a metric, its unit and the series of the numbers under it, then the
// labelled lines it applies to (a storage benchmark's summary):
//
//   Bandwidth in KiB/sec (Read/Write)
//           Random:        438,403 / 315,218
//       Sequential:        459,349 / 349,123
//
// Each number of a line is the title's metric, in its unit, of the run the
// line's label and the number's series name (case=Random, series=Read): the
// lines under "IOPS (Read/Write)" and "Latency in ns (Read/Write)" fill the
// same rows. The title applies up to a blank line or the next title.
#include "logbook/reader/figures_output_read.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_serieslines.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader::output_read {
namespace {

bool AlphaWord(const std::string& w) {
  return !w.empty() && w.size() <= 24 &&
         std::all_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '-' || c == '_'; });
}

// "(Read/Write)" at the end of `t`: its two to four names; `head` gets the text before it.
bool SeriesList(const std::string& t, std::vector<std::string>* series, std::string* head) {
  if (t.empty() || t.back() != ')') return false;
  const size_t open = t.rfind('(');
  if (open == std::string::npos || open == 0) return false;
  const std::string inner = t.substr(open + 1, t.size() - open - 2);
  UnitInfo info;
  if (OutputUnit(inner, "", &info)) return false;  // "(KiB/sec)": a unit, no series
  std::vector<std::string> parts;
  for (size_t p = 0; p <= inner.size();) {
    const size_t slash = std::min(inner.find('/', p), inner.size());
    parts.push_back(parse_detail::Trim(inner.substr(p, slash - p)));
    p = slash + 1;
  }
  if (parts.size() < 2 || parts.size() > 4 || !std::all_of(parts.begin(), parts.end(), AlphaWord)) return false;
  *series = std::move(parts);
  *head = parse_detail::Trim(t.substr(0, open));
  return !head->empty();
}

// "Bandwidth in KiB/sec", "Latency (ns)", "IOPS": the metric's name and unit.
bool NameAndUnit(const std::string& head, std::string* name, std::string* unit) {
  UnitInfo info;
  if (const size_t in = head.rfind(" in "); in != std::string::npos && in > 0) {
    *name = parse_detail::Trim(head.substr(0, in));
    *unit = parse_detail::Trim(head.substr(in + 4));
    return !name->empty() && OutputUnit(*unit, *name, &info) && !info.derived;
  }
  if (OutputUnit(head, "", &info) && !info.derived) {  // "IOPS": the name is its unit
    *name = *unit = head;
    return true;
  }
  *unit = PrintedNameUnit(head, name);
  return !unit->empty() && !name->empty() && OutputUnit(*unit, *name, &info) && !info.derived;
}

// The figure just kept joins the row an earlier title's line made for the
// same label and series ("Random", "Read" under IOPS, then under Bandwidth):
// one run, its metrics side by side.
void JoinSeriesRow(OutputRead& r) {
  const RecordedFigure& last = r.out->back();
  for (size_t row : r.series_rows) {
    if (row + 1 >= r.out->size() || (*r.out)[row].run.config != last.run.config) continue;
    if (JoinRun(&(*r.out)[row], last)) {
      r.out->pop_back();
      return;
    }
  }
  r.series_rows.push_back(r.out->size() - 1);
}

}  // namespace
}  // namespace moelog::logbook::reader::output_read

namespace moelog::logbook::reader {

bool PrintedSeriesTitle(const std::string& t, std::string* name, std::string* unit, std::vector<std::string>* series) {
  if (t.size() > 80 || std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  std::vector<std::string> own_series;
  std::string head, own_name, own_unit;
  if (!output_read::SeriesList(t, &own_series, &head) || !output_read::NameAndUnit(head, &own_name, &own_unit)) return false;
  if (name) *name = own_name;
  if (unit) *unit = own_unit;
  if (series) *series = std::move(own_series);
  return true;
}

}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader::output_read {

bool SeriesTitleLine(OutputRead& r, const std::string& t) {
  std::vector<std::string> series;
  std::string name, unit;
  if (!PrintedSeriesTitle(t, &name, &unit, &series)) return false;
  UnitInfo info;
  OutputUnit(unit, name, &info);
  std::string metric = info.metric;
  const std::string key = SnakeKey(name);
  if (!key.empty() && Lower(name) != Lower(unit) && !MetricWord(Lower(name)) && key != metric && metric.rfind(key + "_", 0) != 0)
    metric = QualifiedMetricName(key, metric);  // "Bandwidth": bandwidth_kb_per_s beside another rate
  r.group = name, r.group_unit = unit;
  r.series = std::move(series), r.series_metric = metric;
  return true;
}

bool SeriesValuesLine(OutputRead& r, const std::string& t, int line) {
  if (r.series.empty()) return false;
  const size_t colon = t.find(':');
  if (colon == std::string::npos || colon == 0 || colon > 40) return false;
  const std::string label = parse_detail::Trim(t.substr(0, colon));
  if (label.empty() || !std::isalpha(static_cast<unsigned char>(label[0]))) return false;
  std::vector<std::string> nums;
  std::string rest = t.substr(colon + 1);
  for (size_t p = 0; p <= rest.size();) {
    const size_t slash = std::min(rest.find('/', p), rest.size());
    const std::string part = parse_detail::Trim(rest.substr(p, slash - p));
    std::string num, glued;
    bool approx = false;
    if (!NumberToken(part, &num, &glued, &approx) || !glued.empty()) return false;
    nums.push_back(num);
    p = slash + 1;
  }
  if (nums.size() != r.series.size()) return false;
  UnitInfo info;
  if (!OutputUnit(r.group_unit, r.group, &info)) return false;
  for (size_t k = 0; k < nums.size(); ++k) {
    Config cfg = r.context;
    cfg["case"] = label;
    cfg["series"] = r.series[k];
    const size_t before = r.out->size();
    KeepFigure(r, line, t, cfg, {Fig{r.series_metric, info, r.group_unit, nums[k], false}});
    if (r.out->size() > before) JoinSeriesRow(r);
  }
  return true;
}

}  // namespace moelog::logbook::reader::output_read
