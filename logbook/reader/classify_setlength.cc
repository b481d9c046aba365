// The classify stage's set-length rule: a part of a test plan ("### 2. Load
// Testing" with "- **Load**: 100-500 concurrent users", "- **Duration**: 30
// minutes") whose only figures are how long its tests are set to run, a
// whole number of minutes or hours in a field named as a length, runs no
// command and records no run: the length is a setting, as a load tool's
// `-d 30s` is. A measured time written with decimals ("Duration: 61.0 s"),
// in seconds, or beside another figure stays.
#include "logbook/reader/classify_setlength.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The text of the entry's list item on `line`, or "".
std::string ItemAt(const Entry& entry, int line) {
  std::string text;
  std::function<void(const Bullet&)> visit = [&](const Bullet& b) {
    if (b.line == line) text = b.text;
    for (const auto& c : b.children) visit(c);
  };
  for (const auto& f : entry.fields) visit(f.bullet);
  for (const auto& b : entry.notes) visit(b);
  return text;
}

// Whether figure `f` is a set length: one time in minutes or more, written
// whole, in a list item labelled by a word of set_length_labels.
bool SetLength(const Entry& entry, const RecordedFigure& f) {
  static const auto* labels = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "set_length_labels"));
  if (f.table || f.run.metrics.size() != 1) return false;
  const std::string& metric = f.run.metrics.begin()->first;
  const auto unit = f.run.units.find(metric);
  const auto decimals = f.run.decimals.find(metric);
  UnitInfo info{};
  if (unit == f.run.units.end() || !UnitOf(unit->second, &info) || info.metric.find("time_s") == std::string::npos ||
      info.factor < 60 || (decimals != f.run.decimals.end() && decimals->second != 0))
    return false;
  const std::string item = ItemAt(entry, f.line);
  const size_t colon = LabelEnd(item);
  if (colon == std::string::npos) return false;
  std::string label;
  for (char c : item.substr(0, colon))
    if (c != '*' && c != '_' && c != '`') label += c;
  return labels->count(Lower(Trim(label))) > 0;
}

}  // namespace

void DropSetLengths(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  if (out->empty() || !entry.commands.empty() || !std::all_of(out->begin(), out->end(), [&entry](const RecordedFigure& f) { return SetLength(entry, f); })) return;
  for (const auto& f : *out)
    if (unread && !(!unread->empty() && unread->back().line == f.line))
      unread->push_back({f.line, f.text, "how long a test is set to run (a whole number of minutes or hours, nothing measured beside it), not a run"});
  out->clear();
}

}  // namespace moelog::logbook::reader
