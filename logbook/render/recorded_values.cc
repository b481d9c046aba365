// A figure's values as text, in the units and digits its author wrote them
// ("4204 MB", "4.10 ms", "221k tokens/s"): the lines of --show-recorded
// and the list of figures placed on no row.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <string>

#include "logbook/numbers.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/render/render_table.h"
#include "logbook/render/table_parts.h"
#include "logbook/render/units.h"

namespace moelog::logbook {
namespace {

using table_parts::MetricOfUnit;

// A figure in a unit the vocabulary does not hold, as its tool printed it:
// "18.0k read_iops" (a count with a magnitude), "5921.40 KiB/s (bw_avg)",
// never "18000.0"; "" for a time (converted on reading), a percentage and
// a figure written in no unit (shown as stored).
std::string ToolUnitText(const StoredRun& run, const std::string& metric, double v, double magnitude,
                         const std::string& plain) {
  const int d = std::min(run.decimals.at(metric), 16);
  if (metric.find("time_s") != std::string::npos || plain == "%" || (plain.empty() && magnitude == 1) ||
      plain.find_first_of("0123456789") != std::string::npos)
    return "";
  std::string text = Fixed(v / magnitude, d);
  if (magnitude != 1) text += run.units.at(metric).substr(0, run.units.at(metric).find(' '));
  text += plain.empty() ? " " + metric : " " + plain + " (" + MetricWithoutUnit(metric, plain) + ")";
  return run.approximate.count(metric) ? "~" + text : text;
}

// A recorded figure in the unit and digits its author wrote, when that unit
// is not the stored one ("4204 MB", not 4009.25 MiB; "4.10 ms", not
// 0.0041 s; "221k tokens/s"); "" when the figure is best shown as stored.
std::string WrittenText(const StoredRun& run, const std::string& metric, double v) {
  const auto u = run.units.find(metric);
  const auto d = run.decimals.find(metric);
  if (u == run.units.end() || d == run.decimals.end() || run.repeats.count(metric) || run.derived.count(metric))
    return "";
  reader::UnitInfo info{};
  std::string plain;
  const double magnitude = reader::MagnitudeOf(reader::ReaderLexicon(), u->second, &plain);
  if (!reader::UnitIn(reader::ReaderLexicon(), u->second, &info))
    return ToolUnitText(run, metric, v, magnitude, plain);
  if (info.derived || info.factor <= 0 || info.factor == 1) return "";
  // "Before: 219MB" read as before_mb was stored as written, not in the unit's metric (memory_mib).
  const bool stored_as_written = info.metric != metric && !MetricOfUnit(metric, info.metric);
  std::string text = Fixed(stored_as_written ? v : v / info.factor, std::min(d->second, 16));
  if (magnitude != 1) text = GroupThousands(text) + u->second.substr(0, u->second.find(' '));
  text += " " + plain;
  if (info.metric != metric) text += " (" + MetricWithoutUnit(metric, u->second) + ")";  // "3032 usec (clat_p99)"
  return run.approximate.count(metric) ? "~" + text : text;
}

// A value text whose leading number is grouped as the lines it was read
// from write it ("57,234,971.1 ns (avg)", not "57234971.1 ns (avg)").
std::string WithWrittenGrouping(const std::string& text, const std::string& written) {
  if (written.empty()) return text;
  const size_t start = text.size() > 0 && text[0] == '~' ? 1 : 0;
  const size_t end = text.find_first_not_of("0123456789.-", start);
  const std::string number = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (number.empty()) return text;
  return text.substr(0, start) + table_parts::AsWrittenGrouping(written, number) +
         (end == std::string::npos ? "" : text.substr(end));
}

std::string ValuesText(const std::map<std::string, double>& metrics, const StoredRun* run, const std::string& written = "") {
  // Throughput first, then times and other measures; derived figures
  // (deltas, speedups) are the author's arithmetic, not listed.
  std::string values;
  auto add = [&](const std::string& metric, double v) {
    if (const std::string w = run == nullptr ? "" : WrittenText(*run, metric, v); !w.empty()) {
      values += (values.empty() ? "" : ", ") + WithWrittenGrouping(w, written);
      return;
    }
    std::string unit = metric == "tflops" ? " TF/s" : metric == "tokens_per_s" ? " tokens/s"
                       : metric == "time_s" ? " s" : metric == "gb_per_s" ? " GB/s" : metric == "mfu" ? "% MFU"
                       : " " + metric;
    // Times are stored in seconds from what was written in ms or us: nine
    // significant digits drop the division's float noise (4.10 ms is
    // "0.0041 s", not "0.0040999999999999995 s").
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    const std::string shown = metric.find("time_s") != std::string::npos ? std::string(buf) : Readable(v);
    // Its digits grouped as the lines it was read from write them ("103602.71", "18,234,561").
    const std::string number = run == nullptr ? shown : WrittenNumber(*run, metric, v, shown);
    values += (values.empty() ? "" : ", ") + (written.empty() ? number : table_parts::AsWrittenGrouping(written, number)) + unit;
  };
  for (const char* m : {"tflops", "tokens_per_s"})
    if (auto it = metrics.find(m); it != metrics.end()) add(it->first, it->second);
  for (const auto& [metric, v] : metrics) {
    if (metric == "tflops" || metric == "tokens_per_s" || metric.ends_with("speedup")) continue;  // "vs_chunk_speedup" too
    if (metric.size() >= 9 && metric.compare(metric.size() - 9, 9, "delta_pct") == 0) continue;
    if (run != nullptr && run->derived.count(metric)) continue;  // "speedup_vs_baseline", a ledger's changes
    add(metric, v);
  }
  if (values.empty())  // a figure that is derived only ("speedup=6.41") is still named
    for (const auto& [metric, v] : metrics) add(metric, v);
  return values;
}

// Whether `text` holds `number` as a number of its own: no digit, point or
// comma right before it, no digit right after ("88.38" in "50%   88.38ms",
// not in "188.38").
bool HoldsNumber(const std::string& text, const std::string& number) {
  if (number.empty()) return false;
  for (size_t p = text.find(number); p != std::string::npos; p = text.find(number, p + 1)) {
    const size_t e = p + number.size();
    const bool before = p > 0 && (std::isdigit(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '.' ||
                                  text[p - 1] == ',');
    // "13" is not held by "13.0" nor by "13,402": a mark between digits goes on with the number.
    const bool after = e < text.size() && (std::isdigit(static_cast<unsigned char>(text[e])) ||
                                           ((text[e] == '.' || text[e] == ',') && e + 1 < text.size() &&
                                            std::isdigit(static_cast<unsigned char>(text[e + 1]))));
    if (!before && !after) return true;
  }
  return false;
}

// A value's shown number: its text up to the first space, without an
// approximation mark ("~4.1", "18.0k": "18.0").
std::string ShownNumber(const std::string& value) {
  std::string n = value.substr(0, value.find(' '));
  if (!n.empty() && n[0] == '~') n.erase(0, 1);
  while (!n.empty() && !std::isdigit(static_cast<unsigned char>(n.back()))) n.pop_back();
  return n;
}

}  // namespace

std::string JoinedLineValues(const RecordedFigure& f, const std::string& line_text) {
  std::string out;
  const std::string written = f.text + "\n" + f.written;
  for (const auto& [metric, v] : f.run.metrics) {  // measured first, then the derived ones written there ("| +200% |")
    if (f.run.derived.count(metric) || metric == "speedup") continue;
    const std::string value = ValuesText({{metric, v}}, &f.run, written);
    if (HoldsNumber(line_text, ShownNumber(value))) out += (out.empty() ? "" : ", ") + value;
  }
  for (const auto& [metric, v] : f.run.metrics) {
    if (!f.run.derived.count(metric) && metric != "speedup") continue;
    const std::string value = ValuesText({{metric, v}}, &f.run, written);
    if (HoldsNumber(line_text, ShownNumber(value))) out += (out.empty() ? "" : ", ") + value + " (derived)";
  }
  return out;
}

std::string FigureValuesText(const std::map<std::string, double>& metrics) { return ValuesText(metrics, nullptr); }

std::string RecordedValuesAsWritten(const StoredRun& run) { return ValuesText(run.metrics, &run); }

std::string RecordedValuesAsWritten(const RecordedFigure& f) {
  return ValuesText(f.run.metrics, &f.run, f.text + "\n" + f.written);
}

}  // namespace moelog::logbook
