#include "logbook/reader/table_points.h"

#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The point word every metric of `run` opens with ("initial" of
// `initial_train_loss`), or "" when they open with none or with several.
std::string PointOf(const StoredRun& run) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/table.json", "point_prefixes"));
  std::string point;
  for (const auto& [metric, value] : run.metrics) {
    const size_t us = metric.find('_');
    const std::string first = us == std::string::npos ? "" : metric.substr(0, us);
    if (!words->count(first) || us + 1 >= metric.size() || (!point.empty() && point != first)) return "";
    point = first;
  }
  return point;
}

// A metric's name with its first word in the vocabulary's short spelling
// (`validation_loss` -> `val_loss`; metric_word_aliases of table.json), so
// the points' figures of one metric share a column.
std::string Unaliased(const std::string& metric) {
  static const auto* aliases = new std::map<std::string, std::string>(DataWordMap("data/reader/table.json", "metric_word_aliases"));
  const size_t us = metric.find('_');
  const auto it = aliases->find(metric.substr(0, us));
  return it == aliases->end() || us == std::string::npos ? metric : it->second + metric.substr(us);
}

// `run` with every metric named without its point's word `point`.
void Unprefix(StoredRun* run, const std::string& point) {
  StoredRun out = *run;
  out.metrics.clear(), out.units.clear(), out.derived.clear(), out.decimals.clear(), out.approximate.clear();
  out.repeats.clear();
  for (const auto& [metric, value] : run->metrics) {
    const std::string bare = Unaliased(metric.substr(point.size() + 1));
    out.metrics[bare] = value;
    if (auto u = run->units.find(metric); u != run->units.end()) out.units[bare] = u->second;
    if (auto d = run->decimals.find(metric); d != run->decimals.end()) out.decimals[bare] = d->second;
    if (auto r = run->repeats.find(metric); r != run->repeats.end()) out.repeats[bare] = r->second;
    if (run->derived.count(metric)) out.derived.insert(bare);
    if (run->approximate.count(metric)) out.approximate.insert(bare);
  }
  out.config["point"] = point;
  *run = std::move(out);
}

// The point the list item at `line` of `e` opens with ("- Final observed
// tokens/sec: 478,610" -> "final") among `points`, else "".
std::string LeadPoint(const Entry& e, int line, const std::set<std::string>& points) {
  const std::string text = ItemTextAt(e, line);
  std::string first;
  for (char c : text) {
    if (std::isalpha(static_cast<unsigned char>(c))) first += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!first.empty() || (c != '*' && c != ' ' && c != '`')) break;
  }
  return points.count(first) ? first : "";
}

}  // namespace

std::string ItemTextAt(const Entry& e, int line) {
  std::string text;
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    if (b.line == line && text.empty()) text = b.text;
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& f : e.fields) walk(f.bullet);
  for (const auto& b : e.notes) walk(b);
  return text;
}

void SplitPoints(const Entry& e, std::vector<RecordedFigure>* figs) {
  std::set<std::string> points;
  std::vector<std::string> of(figs->size());
  for (size_t i = 0; i < figs->size(); ++i)
    if (!(*figs)[i].run.config.count("point") && !(of[i] = PointOf((*figs)[i].run)).empty()) points.insert(of[i]);
  if (points.size() < 2) return;  // "Final loss" alone: a metric's name
  for (size_t i = 0; i < figs->size(); ++i) {
    if (of[i].empty()) of[i] = LeadPoint(e, (*figs)[i].line, points);  // "Final observed tokens/sec: 478,610"
    if (!of[i].empty()) Unprefix(&(*figs)[i].run, of[i]);
  }
  // One row per point: a point's later lines join its first (metrics apart).
  std::vector<RecordedFigure> kept;
  std::map<std::string, size_t> row_of;  // point -> its row in kept
  for (auto& f : *figs) {
    const auto p = f.run.config.find("point");
    if (p != f.run.config.end() && !f.table) {
      const auto it = row_of.find(p->second);
      if (it != row_of.end() && kept[it->second].run.config == f.run.config && JoinRun(&kept[it->second], f)) continue;
      if (it == row_of.end()) row_of[p->second] = kept.size();
    }
    kept.push_back(std::move(f));
  }
  *figs = std::move(kept);
}

}  // namespace moelog::logbook::reader
