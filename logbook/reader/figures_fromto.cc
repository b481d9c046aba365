#include "logbook/reader/figures_fromto.h"

#include <algorithm>
#include <cctype>

#include "logbook/reader/internal.h"
#include "logbook/reader/prose.h"

namespace moelog::logbook::reader {

std::string FromToUnit(const std::string& s, size_t start, size_t at) {
  size_t b = 0;
  if (Lower(WordBefore(s, start, &b)) != "from" || prose::SpanVerb(Lower(WordBefore(s, b)))) return "";
  size_t e = at;
  if (Lower(WordAt(s, at, &e)) != "to") return "";
  size_t q = e;
  while (q < s.size() && (s[q] == ' ' || s[q] == '~' || s[q] == '*' || s[q] == '`')) ++q;
  return UnitOfNumberAt(s, q);
}

std::string UnitOfNumberAt(const std::string& s, size_t q) {
  const size_t d = q;
  while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == '.' || s[q] == ',')) ++q;
  if (q == d) return "";
  while (q < s.size() && s[q] == ' ') ++q;
  UnitInfo info{};
  const std::string unit = UnitToken(s, q);
  return UnitOf(unit, &info) && !info.derived ? unit : "";
}

// "tr 2.7x → 7.3x": speedups on both sides of an arrow are a score against
// a fixed reference, before and after this entry's change (measured, the
// harness's own figure), not a ratio of two of its runs.
void SpeedupScores(FigureScan& st, size_t start, bool before_arrow, Figure* f) {
  if (!f->derived || f->metric != "speedup") {
    st.speedup_left = -1;
    return;
  }
  const int left = st.speedup_left;
  st.speedup_left = before_arrow ? static_cast<int>(st.out.size()) : -1;
  if (before_arrow) {
    const std::string w = WordBefore(st.s, start);
    st.speedup_word = NoName(w) || MetricWord(w) ? "" : w;
  }
  if (before_arrow || left < 0 || static_cast<size_t>(left) >= st.out.size() || !AfterArrow(st.s, start)) return;
  Figure& l = st.out[static_cast<size_t>(left)];
  if (l.metric != "speedup" || !l.derived) return;
  l.derived = f->derived = false;
  if (l.word.empty()) l.word = st.speedup_word;
  if (f->word.empty()) f->word = l.word;
  l.named["arrow"] = "before", f->named["arrow"] = "after";
}

// Whether figure `f`, starting at `start`, follows the figure read before it
// with only a comma between and the same unit, neither named apart nor derived.
bool CommaRepeat(const FigureScan& st, size_t start, const Figure& f) {
  if (st.out.empty() || f.derived || !f.word.empty() || !f.named.empty() || f.unit.empty() || st.last_end >= start) return false;
  const Figure& prev = st.out.back();
  if (prev.derived || prev.unit != f.unit || prev.metric != f.metric || !prev.named.empty()) return false;
  const std::string gap = st.s.substr(st.last_end, start - st.last_end);
  return gap.find(',') != std::string::npos && gap.find_first_not_of(", `") == std::string::npos &&
         std::count(gap.begin(), gap.end(), ',') == 1;
}

// "25.63s, 21.51s, 24.24s > 23.79s": a figure of the list's unit right after
// a comma list of repeats and a '>': their mean, as the author worked it out.
bool ListSummary(const FigureScan& st, size_t start, const Figure& f) {
  if (st.out.empty() || !st.out.back().comma_repeat || f.derived || f.unit != st.out.back().unit || st.last_end >= start)
    return false;
  return Trim(st.s.substr(st.last_end, start - st.last_end)) == ">";
}

}  // namespace moelog::logbook::reader
