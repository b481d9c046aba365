// How a table cell prints: escaping, moelog's metric cells, and a recorded
// figure's digits (its author's, the repeats a median stands for).
#include <algorithm>
#include <cmath>
#include <string>

#include "logbook/numbers.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/render/table_parts.h"

namespace moelog::logbook::table_parts {

// Appends " TEXT |" (one table cell). Built by appends: GCC 12 at -O3 warns
// (-Wrestrict, a false positive, GCC bug 105651) on `" " + std::string`.
void Cell(std::string* out, const std::string& text) {
  out->append(" ").append(text).append(" |");
}

std::string EscapeCell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

// The metric cells of a row as the table prints them.
std::string MetricCells(const TableRow& r, bool per_device) {
  std::string out;
  // moelog's figures in 4 significant digits (a model's or one machine's
  // figure has no more), tokens/s with its thousands grouped.
  auto metric = [&](const char* k, double scale, bool group) {
    auto it = r.metrics.find(k);
    Cell(&out, it == r.metrics.end() || !std::isfinite(it->second) ? "-" : Significant(it->second * scale, 4, group));
  };
  metric("time_s", 1000.0, false);
  metric("tflops", 1.0, false);
  if (per_device) metric("tflops_per_device", 1.0, false);
  metric("tokens_per_s", 1.0, true);
  return out;
}

// The repeats a recorded figure is the median of: " (median of 3,
// 191.837-191.897)"; "" for a single figure.
std::string RepeatsText(const StoredRun& run, const std::string& metric, double scale, int decimals) {
  auto r = run.repeats.find(metric);
  if (r == run.repeats.end() || r->second.size() < 2) return "";
  const auto [lo, hi] = std::minmax_element(r->second.begin(), r->second.end());
  std::string out = " (median of ";
  out += std::to_string(r->second.size()) + ", " + Fixed(*lo * scale, decimals) + "\xE2\x80\x93" +
         Fixed(*hi * scale, decimals) + ")";
  return out;
}

// A recorded figure's value at `decimals` (its written ones); the median of
// an even count of repeats (a mean of two) gets one more digit when needed.
std::string MedianText(const StoredRun& run, const std::string& metric, double value, int decimals) {
  auto r = run.repeats.find(metric);
  if (r != run.repeats.end() && r->second.size() % 2 == 0 && Fixed(value, decimals + 1).back() != '0')
    return Fixed(value, decimals + 1);
  return Fixed(value, decimals);
}

// Seconds per unit of a time as written ("ms": 1e-3); 0 for no time unit.
double TimeUnitSeconds(const std::string& u) {
  if (u == "s" || u == "sec" || u == "secs" || u == "second" || u == "seconds" || u == "s/step") return 1;
  if (u == "ms" || u == "ms/step" || u == "ms/iter") return 1e-3;
  if (u == "us" || u == "\xC2\xB5s") return 1e-6;
  // "ns", "usec", "μs", "msec": any time unit of the reader's vocabulary.
  reader::UnitInfo info{};
  if (reader::UnitIn(reader::ReaderLexicon(), u, &info) && info.metric == "time_s") return info.factor;
  return 0;
}

// The decimals a recorded figure keeps when shown at `scale` (stored value
// times scale): its author's, moved by the unit change, so `0.406 s` shows
// as `406` ms, never `406.000`; `fallback` when its digits are unknown.
int ShownDecimals(const StoredRun& run, const std::string& metric, double scale, int fallback) {
  auto d = run.decimals.find(metric);
  if (d == run.decimals.end()) return fallback;
  auto u = run.units.find(metric);
  const double written = u == run.units.end() ? 0 : TimeUnitSeconds(u->second);
  if (written == 0) return std::min(d->second, 16);
  // shown = written figure * (scale * seconds per written unit).
  const int shift = static_cast<int>(std::lround(std::log10(scale * written)));
  return std::clamp(d->second - shift, 0, 16);
}

bool MetricOfUnit(const std::string& metric, const std::string& base) {
  if (metric.size() <= base.size() + 1) return false;
  // "cpu_time_s" (a qualifier before) or "time_s_p50" (a statistic after).
  return (metric.compare(metric.size() - base.size(), base.size(), base) == 0 &&
          metric[metric.size() - base.size() - 1] == '_') ||
         metric.compare(0, base.size() + 1, base + "_") == 0;
}

}  // namespace moelog::logbook::table_parts
