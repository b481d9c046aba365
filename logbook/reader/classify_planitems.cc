// The classify stage's plan items: a list item labelled as what a step of a
// plan is thought to take or win (`- Effort: 5 minutes`, `- ETA: 2 days`;
// plan_labels of fields.json) or as expected or aimed for (`- Expected:
// 1.7x speedup, MFU 19%`, `- Target MFU: 40%`; the label's first word one of
// plan_leads of vocabulary.json) records no run, nor do its sub-items; nor
// does a printed line so labelled in a block no command of the entry printed
// ("Expected Performance: 0.034-0.056 ms").
#include "logbook/reader/classify_planitems.h"

#include <algorithm>
#include <functional>
#include <set>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The plan word a list item's label is led by, else "".
std::string PlanLabel(const std::string& text) {
  const size_t colon = LabelEnd(text);
  if (colon == std::string::npos) return "";
  std::string label;
  for (char c : PlainLabel(text.substr(0, colon)))
    if (c != '*' && c != '_') label += c;
  label = Trim(label);
  static const auto* labels = new std::set<std::string>(DataWords("data/reader/fields.json", "plan_labels"));
  if (labels->count(label)) return label;
  // "Expected:", "Target MFU:"; never a run named by its settings ("Target EP=8/T=16384:", "target 2x8:").
  const auto words = Words(label);
  const bool settings = label.find_first_of("0123456789=/") != std::string::npos;
  if (!words.empty() && words.size() <= 3 && !settings && ReaderLexicon().plan_leads.count(words.front())) return label;
  return "";
}

// The lines of the entry's printed blocks labelled the same way, no command
// of the entry before the block ("Expected Performance: 0.034-0.056 ms",
// "Estimated Bandwidth: 85%" in a design's summary block).
void PrintedPlanLines(const Entry& entry, std::vector<std::pair<std::pair<int, int>, std::string>>* spans) {
  for (const auto& o : entry.outputs) {
    if (std::any_of(entry.commands.begin(), entry.commands.end(), [&o](const CommandText& c) { return c.line < o.line; }))
      continue;
    int line = o.line + 1;
    for (size_t p = 0; p < o.text.size(); ++line) {
      size_t nl = o.text.find('\n', p);
      if (nl == std::string::npos) nl = o.text.size();
      if (const std::string label = PlanLabel(Trim(o.text.substr(p, nl - p))); !label.empty()) spans->push_back({{line, line}, label});
      p = nl + 1;
    }
  }
}

}  // namespace

void DropPlannedItems(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  std::vector<std::pair<std::pair<int, int>, std::string>> spans;  // an item's lines, its label
  std::function<void(const Bullet&)> visit = [&](const Bullet& b) {
    if (const std::string label = PlanLabel(b.text); !label.empty()) {
      spans.push_back({{b.line, std::max(b.line, b.end_line)}, label});
      return;
    }
    for (const auto& c : b.children) visit(c);
  };
  for (const auto& b : entry.notes) visit(b);
  for (const auto& f : entry.fields)
    for (const auto& c : f.bullet.children) visit(c);
  PrintedPlanLines(entry, &spans);
  if (spans.empty()) return;
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const auto it = std::find_if(spans.begin(), spans.end(),
                                 [&f](const auto& s) { return !f.table && s.first.first <= f.line && f.line <= s.first.second; });
    if (it == spans.end()) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text, "an estimate or a goal of a plan (an item labelled \"" + it->second + "\"), not a run"});
    }
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
