// Reader stage table, cells of several readings: a result cell that writes
// more than one measurement of its row ("baseline `2.41 H/s`; candidates
// `2.37/2.52 H/s`; final rerun `2.55 H/s`", "`4.18` vs `4.02 H/s`",
// "`0.31/0.27/0.44 H/s`"), each reading a run of its own, named by the
// words before it (and its place in a slash list).
#include <algorithm>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

// The cell without its parenthesized asides ("(additional low-clock samples
// ...)", "(+3.44%)"): they comment on the readings, they are none.
std::string WithoutAsides(const std::string& cell) {
  std::string out;
  int depth = 0;
  for (char c : cell) {
    if (c == '(') ++depth;
    else if (c == ')' && depth > 0) --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

// The cell's segments: split at "; ", ", " and " vs " (" vs. ").
std::vector<std::string> Segments(const std::string& cell) {
  std::vector<std::string> out;
  size_t from = 0;
  for (size_t p = 0; p <= cell.size(); ++p) {
    size_t skip = 0;
    if (p == cell.size()) skip = 1;
    else if ((cell[p] == ';' || cell[p] == ',') && p + 1 < cell.size() && cell[p + 1] == ' ') skip = 2;
    else if (cell.compare(p, 5, " vs. ") == 0) skip = 5;
    else if (cell.compare(p, 4, " vs ") == 0) skip = 4;
    if (skip == 0) continue;
    out.push_back(parse_detail::Trim(cell.substr(from, p - from)));
    from = p + skip;
    p = from - 1;
  }
  return out;
}

// A label of a reading: up to four words of letters ("final rerun",
// "candidates", "fresh baseline: kernel" as "fresh baseline kernel"), its
// colons and a closing equals sign left out.
bool ReadingLabel(std::string label, std::string* out) {
  std::replace(label.begin(), label.end(), ':', ' ');  // "fresh baseline: kernel"
  while (!label.empty() && (label.back() == '=' || label.back() == ' ')) label.pop_back();
  const auto words = Words(label);
  if (words.size() > 4) return false;
  label.clear();
  for (const auto& w : words) label += (label.empty() ? "" : " ") + w;
  for (char c : label)
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != ' ' && c != '-' && c != '_') return false;
  *out = label;
  return true;
}

struct Reading {
  std::string label, number, unit;
};

// One segment's readings: "candidates 2.37/2.52 H/s" -> two readings of
// H/s labelled "candidates"; "1.007" -> one reading without a unit yet.
bool SegmentReadings(const std::string& seg, std::vector<Reading>* out) {
  size_t at = 0;
  while (at < seg.size() && !(std::isdigit(static_cast<unsigned char>(seg[at])) &&
                              (at == 0 || seg[at - 1] == ' ' || seg[at - 1] == '~')))
    ++at;
  std::string label;
  if (at == seg.size() || !ReadingLabel(seg.substr(0, at), &label)) return false;
  std::vector<std::string> numbers;
  size_t p = at;
  for (;;) {
    size_t n = p;
    while (n < seg.size() && (std::isdigit(static_cast<unsigned char>(seg[n])) || seg[n] == '.' || seg[n] == ','))
      ++n;
    if (n == p || !ParseNumber(seg.substr(p, n - p))) return false;
    numbers.push_back(seg.substr(p, n - p));
    if (n + 1 < seg.size() && seg[n] == '/' && std::isdigit(static_cast<unsigned char>(seg[n + 1]))) {
      p = n + 1;
      continue;
    }
    p = n;
    break;
  }
  const auto rest = Words(seg.substr(p));
  std::string unit;
  if (!rest.empty()) {
    if (std::string u; !NumberCell(numbers.back() + " " + rest[0], &u) || u.empty()) return false;
    unit = rest[0];
  }
  if (rest.size() > 2) return false;  // "1.2 H/s avg" at most: a figure, no sentence
  for (const auto& n : numbers) out->push_back({label, n, unit});
  if (numbers.size() > 1)  // "candidates 1", "candidates 2"
    for (size_t i = 0; i < numbers.size(); ++i) {
      Reading& r = (*out)[out->size() - numbers.size() + i];
      r.label = (label.empty() ? "" : label + " ") + std::to_string(i + 1);
    }
  return true;
}

}  // namespace

bool ReadingParts(const std::string& cell, std::vector<std::pair<std::string, std::string>>* parts) {
  parts->clear();
  std::vector<Reading> readings;
  for (const auto& seg : Segments(WithoutAsides(cell)))
    if (seg.empty() || !SegmentReadings(seg, &readings)) return false;
  if (readings.size() < 2 || readings.size() > 16) return false;
  // "4.18 vs 4.02 H/s": a reading without a unit has the next one's.
  for (size_t i = readings.size(); i-- > 0;)
    if (readings[i].unit.empty() && i + 1 < readings.size()) readings[i].unit = readings[i + 1].unit;
  for (const auto& r : readings)
    if (r.unit.empty() || r.unit != readings.back().unit) return false;
  const bool named = std::any_of(readings.begin(), readings.end(), [](const Reading& r) { return !r.label.empty(); });
  for (size_t i = 0; i < readings.size(); ++i) {
    std::string label = readings[i].label;
    if (label.empty()) label = named ? "" : std::to_string(i + 1);  // "4.18 vs 4.02 H/s": first, second
    if (label.empty()) return false;  // "baseline 1.1 H/s; 1.2 H/s": the second names nothing
    parts->emplace_back(readings[i].number + " " + readings[i].unit, label);
  }
  std::vector<std::string> labels;
  for (const auto& [figure, label] : *parts) labels.push_back(label);
  std::sort(labels.begin(), labels.end());
  return std::adjacent_find(labels.begin(), labels.end()) == labels.end();  // each reading named once
}

}  // namespace moelog::logbook::reader
