// A recorded comparison's two sides on one chart (chart.h, SplitChangeSides):
// a table that writes each row's "before" beside its "after" ("| input |
// before time (s) | single literal copy time (s) |") is a comparison; a
// chart of one of the two columns would show half of it.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/segment.h"
#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

constexpr char kSideKey[] = "side";

bool IsDerivedName(const std::string& m) {
  return m == "speedup" || m.find("delta") != std::string::npos || m.find("speedup") != std::string::npos;
}

// The metric named by a change word ("before_time_s": "before", base
// "time_s"), or false.
bool ChangeSide(const std::string& metric, std::string* word, std::string* base) {
  const size_t us = metric.find('_');
  if (us == std::string::npos || us == 0 || us + 1 >= metric.size()) return false;
  if (!IsChangeColumn(metric.substr(0, us))) return false;
  *word = metric.substr(0, us), *base = metric.substr(us + 1);
  return true;
}

// The other side of `before` in `p`: the one metric of base `base`
// ("single_literal_copy_time_s", "after_time_s", "time_s") beside it.
std::string OtherSide(const ChartPoint& p, const std::string& before, const std::string& base) {
  std::string other;
  for (const auto& [m, v] : p.metrics) {
    if (m == before || IsDerivedName(m)) continue;
    const bool of_base = m == base || (m.size() > base.size() + 1 &&
                                       m.compare(m.size() - base.size() - 1, base.size() + 1, "_" + base) == 0);
    if (!of_base) continue;
    if (!other.empty()) return "";  // two candidates: which is the other side is not said
    other = m;
  }
  return other;
}

std::string Words(std::string s) {
  for (char& c : s)
    if (c == '_') c = ' ';
  return s;
}

}  // namespace

bool SplitChangeSides(const std::vector<ChartPoint>& points, const std::string& metric,
                      std::vector<ChartPoint>* out) {
  std::string before, base, after;
  for (const auto& p : points) {
    if (p.source != "recorded" || p.config.count(kSideKey)) return false;
    std::string b, w, bs;
    for (const auto& [m, v] : p.metrics)
      if (ChangeSide(m, &w, &bs)) {
        if (!b.empty()) return false;  // two "before" figures: not one comparison
        b = m;
      }
    if (b.empty()) return false;
    ChangeSide(b, &w, &bs);
    const std::string a = OtherSide(p, b, bs);
    if (a.empty() || (!before.empty() && (b != before || a != after))) return false;
    before = b, base = bs, after = a;
  }
  if (before.empty() || (metric != before && metric != after)) return false;
  std::string word, b2;
  ChangeSide(before, &word, &b2);
  std::string after_words = after == base ? "after" : after.substr(0, after.size() - base.size() - 1);
  if (std::string w, bs; ChangeSide(after, &w, &bs) && bs == base) after_words = w;  // "after_time_s"
  std::vector<ChartPoint> split;
  for (const auto& p : points)
    for (const auto& [m, side] : {std::pair<std::string, std::string>{before, word}, {after, Words(after_words)}}) {
      ChartPoint q = p;
      q.metrics = {{base, p.metrics.at(m)}};
      q.config[kSideKey] = side;
      split.push_back(std::move(q));
    }
  *out = std::move(split);
  return true;
}

}  // namespace moelog::logbook
