// Reader stage figures: the unit a document's own text, or an entry's text
// above a table, says its tables are written in ("e2e p50 latency in
// microseconds per variant; ..." under the title, "All times in ms." over
// the entry's tables of bare numbers), for a table that names none.
#include "logbook/reader/figures_docunit.h"

#include <string>
#include <vector>

#include "logbook/reader/internal.h"
#include "logbook/reader/prose.h"

namespace moelog::logbook::reader {
namespace {

// The unit a sentence names after "in" ("latency in microseconds", "times in
// ms") or alone in parentheses ("(µs)"), written as no figure's; its metric
// in `metric`. "" when none.
std::string NamedUnit(const std::string& sentence, std::string* metric) {
  const auto words = Words(sentence);
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    bool paren = false;
    if (w.size() > 2 && w.front() == '(' && w.back() == ')') w = w.substr(1, w.size() - 2), paren = true;
    const bool after_in = i > 0 && Lower(words[i - 1]) == "in";
    if (!paren && !after_in) continue;
    while (!w.empty() && std::string(",;.:*`").find(w.back()) != std::string::npos) w.pop_back();
    while (!w.empty() && std::string("*`").find(w.front()) != std::string::npos) w.erase(0, 1);
    UnitInfo info{};
    if (w.empty() || !UnitOf(w, &info) || info.derived) continue;
    *metric = info.metric;
    return w;
  }
  return "";
}

// The one unit `texts` name for tables (NamedUnit, by sentences that state
// no figure), or "" when none does or two name different metrics.
std::string StatedUnit(const std::vector<const std::string*>& texts) {
  std::string unit, metric;
  for (const std::string* text : texts)
    for (const auto& [s, e] : prose::Sentences(*text)) {
      const std::string sentence = text->substr(s, e - s);
      bool figure = false;
      for (const auto& f : Figures(sentence, false, false)) figure = figure || !f.unit.empty();
      std::string m;
      const std::string u = figure ? "" : NamedUnit(sentence, &m);
      if (u.empty()) continue;
      if (!metric.empty() && m != metric) return "";
      unit = u, metric = m;
    }
  return unit;
}

}  // namespace

std::string DocumentTableUnit(const Logbook& logbook) {
  std::vector<const std::string*> texts;
  for (const auto& sec : logbook.sections)
    if (sec.heading_line == 0)  // the text under the title, in no section
      for (const auto& b : sec.bullets) texts.push_back(&b.text);
  return StatedUnit(texts);
}

std::string EntryTableUnit(const EntryCtx& x, int table_line) {
  std::vector<const std::string*> texts;
  for (const auto& p : x.prose)
    if (p.end_line < table_line) texts.push_back(&p.text);
  return StatedUnit(texts);
}

}  // namespace moelog::logbook::reader
