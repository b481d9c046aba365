#include "logbook/render/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include "logbook/numbers.h"
#include "logbook/reader/vocabulary.h"

namespace moelog::logbook {
namespace {

std::string LowerCase(std::string w) {
  for (char& ch : w) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return w;
}

// Whether a metric's last word spells another unit of what `unit`
// measures ("mib" beside GB, "ms" beside us): the name's unit, not the
// figures'.
bool NamesUnitOf(const std::string& word, const std::string& unit) {
  reader::UnitInfo u{}, w{};
  if (!reader::UnitIn(reader::ReaderLexicon(), unit, &u)) return false;
  std::string upper = word;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::vector<std::string> spellings = {word, upper};
  if (word.size() == 3 && word[1] == 'i') spellings.push_back(std::string(1, upper[0]) + "i" + upper[2]);  // "MiB"
  for (const auto& s : spellings)
    if (reader::UnitIn(reader::ReaderLexicon(), s, &w)) return w.metric == u.metric && !w.derived;
  return false;
}

}  // namespace

double WrittenUnitFactor(const std::string& unit) {
  reader::UnitInfo info{};
  return reader::UnitIn(reader::ReaderLexicon(), unit, &info) ? info.factor : 0;
}

bool SameWrittenUnit(const std::string& a, const std::string& b) {
  reader::UnitInfo x{}, y{};
  return a == b || (reader::UnitIn(reader::ReaderLexicon(), a, &x) && reader::UnitIn(reader::ReaderLexicon(), b, &y) &&
                    x.metric == y.metric && x.factor == y.factor);
}

std::string UnitColumnHeader(const std::string& metric, const std::string& unit) {
  if (unit == "%") {  // "utilization_pct", "load_utilization" in %: "utilization %"
    const bool pct = metric.size() > 4 && metric.compare(metric.size() - 4, 4, "_pct") == 0;
    std::string words = pct ? metric.substr(0, metric.size() - 4) : metric;
    std::replace(words.begin(), words.end(), '_', ' ');
    return words + " %";
  }
  // A rate of one thing its unit names whole ("tps" of transactions_per_s,
  // "QPS" of queries_per_s): headed by the unit alone, not "transactions per s (tps)".
  if (reader::UnitInfo info{}; metric.size() > 6 && metric.compare(metric.size() - 6, 6, "_per_s") == 0 &&
                               metric.find('_') == metric.size() - 6 &&
                               reader::UnitIn(reader::ReaderLexicon(), unit, &info) && info.metric.size() > 6 &&
                               info.metric.compare(info.metric.size() - 6, 6, "_per_s") == 0)
    return unit;
  std::string words = metric.rfind("memory_", 0) == 0 ? std::string("memory") : metric;
  std::replace(words.begin(), words.end(), '_', ' ');
  if (const size_t sp = words.rfind(' '); sp != std::string::npos &&
                                          (LowerCase(words.substr(sp + 1)) == LowerCase(unit) || NamesUnitOf(words.substr(sp + 1), unit)))
    words.erase(sp);  // "power w" in W: "power"; "peak memory mib" in GB: "peak memory"
  return unit.find('/') != std::string::npos || LowerCase(words) == LowerCase(unit) ? unit : words + " (" + unit + ")";
}

std::string MetricWithoutUnit(const std::string& metric, const std::string& unit) {
  std::string plain;
  reader::MagnitudeOf(reader::ReaderLexicon(), unit, &plain);  // "k nsec": nsec
  // The unit's name form ("KiB/s", "ops/sec": kib_per_s, ops_per_s), the
  // vocabulary's metric of it (gb_per_s, time_s) and a time's.
  std::string named = LowerCase(plain);
  for (const char* per : {"/sec", "/s"})
    if (const size_t at = named.rfind(per); at != std::string::npos && at + std::string(per).size() == named.size()) {
      named = named.substr(0, at) + "_per_s";
      break;
    }
  reader::UnitInfo info{};
  std::vector<std::string> names = {named, "time_s"};
  if (reader::UnitIn(reader::ReaderLexicon(), plain, &info) && !info.metric.empty()) names.insert(names.begin(), info.metric);
  for (const std::string& n : names) {
    if (n.empty() || n.find_first_of(" /") != std::string::npos || metric.size() <= n.size() + 1) continue;
    if (metric.compare(metric.size() - n.size() - 1, n.size() + 1, "_" + n) == 0) return metric.substr(0, metric.size() - n.size() - 1);
    if (metric.compare(0, n.size() + 1, n + "_") == 0) return metric.substr(n.size() + 1);
  }
  return metric;
}

std::string MetricWords(std::string metric) {
  std::replace(metric.begin(), metric.end(), '_', ' ');
  return metric;
}

std::string WrittenNumber(const StoredRun& run, const std::string& metric, double v, const std::string& shown) {
  const auto d = run.decimals.find(metric);
  const auto u = run.units.find(metric);
  if (d == run.decimals.end() || d->second < 0 || d->second > 16 || run.derived.count(metric) ||
      run.repeats.count(metric) || u == run.units.end())
    return shown;
  // A unit the vocabulary does not hold was converted on reading when it spells a time ("usecond").
  const double factor = WrittenUnitFactor(u->second);
  if (factor > 0 ? factor != 1 : metric.find("time_s") != std::string::npos) return shown;
  // Grouped by thousands from 100,000 on, as every figure is shown ("1,513,900").
  return std::fabs(v) >= 1e5 ? GroupThousands(Fixed(v, d->second)) : Fixed(v, d->second);
}

std::string OtherUnitText(const StoredRun& run, const std::string& metric) {
  const auto v = run.metrics.find(metric);
  const auto d = run.decimals.find(metric);
  const auto u = run.units.find(metric);
  if (v == run.metrics.end() || d == run.decimals.end() || d->second < 0 || d->second > 16 ||
      u == run.units.end() || run.repeats.count(metric) || run.derived.count(metric) ||
      metric.find("time_s") != std::string::npos)
    return "";
  const double factor = WrittenUnitFactor(u->second);
  if (factor <= 0) return "";
  return Fixed(v->second / factor, d->second) + " " + u->second;
}

}  // namespace moelog::logbook
