// Reader stage key, a report's settings lines set apart above it
// (key_reportsettings.h).
#include "logbook/reader/key_reportsettings.h"

#include <cctype>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

std::vector<std::string> AllLines(const std::string& text) {
  std::vector<std::string> out;
  for (size_t p = 0; p <= text.size();) {
    const size_t nl = std::min(text.find('\n', p), text.size());
    out.push_back(text.substr(p, nl - p));
    p = nl + 1;
  }
  return out;
}

bool Blank(const std::string& l) { return parse_detail::Trim(l).empty(); }

// Lines [from, to) as settings: each one, one to six; false otherwise.
bool Settings(const std::vector<std::string>& lines, size_t from, size_t to, std::map<std::string, std::string>* keys) {
  if (to <= from || to - from > 6) return false;
  std::map<std::string, std::string> found;
  for (size_t k = from; k < to; ++k) {
    std::string key, value;
    if (!ReportSettingLine(parse_detail::Trim(lines[k]), &key, &value) || !found.emplace(key, value).second) return false;
  }
  for (auto& [k, v] : found) (*keys)[k] = v;
  return true;
}

}  // namespace

bool ReportSettingLine(const std::string& l, std::string* key, std::string* value) {
  const size_t colon = l.find(": ");
  if (colon == std::string::npos || colon == 0) return false;
  const std::string name = parse_detail::Trim(l.substr(0, colon));
  const std::string v = parse_detail::Trim(l.substr(colon + 2));
  const auto words = Words(name);
  if (words.empty() || words.size() > 2 || !std::isalpha(static_cast<unsigned char>(name[0])) ||
      name.find_first_of("0123456789") != std::string::npos)
    return false;
  if (v.empty() || v.size() > 16 || !std::isdigit(static_cast<unsigned char>(v[0])) || v.find(' ') != std::string::npos) return false;
  // "PPL: 10.22", "Max memory(MiB): 3352.28": a name that names a metric or its unit prints a measurement.
  if (!PrintedKeyUnit(name).empty() || UnitlessMetricName(SnakeKey(name))) return false;
  for (const auto& w : words)
    if (MetricWord(Lower(w))) return false;
  *key = SnakeKey(name);
  *value = v;
  return !key->empty();
}

FencedBlock WithoutReportSettings(const FencedBlock& b, bool next, std::map<std::string, std::string>* leading,
                                  std::map<std::string, std::string>* trailing) {
  std::vector<std::string> lines = AllLines(b.text);
  size_t first = 0, last = lines.size();
  while (first < last && Blank(lines[first])) ++first;
  while (last > first && Blank(lines[last - 1])) --last;
  if (first == last) return b;
  size_t lead_end = first;  // the first paragraph: [first, lead_end)
  while (lead_end < last && !Blank(lines[lead_end])) ++lead_end;
  size_t trail_from = last;  // the last paragraph: [trail_from, last)
  while (trail_from > first && !Blank(lines[trail_from - 1])) --trail_from;
  FencedBlock out = b;
  bool changed = false;
  if (trail_from > first || next) {  // a block of settings alone is the next block's
    if (next && Settings(lines, trail_from, last, trailing)) {
      for (size_t k = trail_from; k < last; ++k) lines[k].clear();
      changed = true;
    }
  }
  if (lead_end < last && !(changed && trail_from == first) && Settings(lines, first, lead_end, leading)) {
    for (size_t k = first; k < lead_end; ++k) lines[k].clear();
    changed = true;
  }
  if (!changed) return b;
  out.text.clear();
  for (size_t k = 0; k < lines.size(); ++k) out.text += (k ? "\n" : "") + lines[k];
  return out;
}

}  // namespace moelog::logbook::reader
