#include <algorithm>
#include <cctype>
#include <iterator>

#include "logbook/reader/classify_changelines.h"
#include "logbook/reader/classify_sections.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook {
using namespace reader;

namespace reader {

// Whether the word after a figure's unit (at `at`) makes the figure a
// difference of two runs ("9 us smaller", "0.3 ms faster"): a delta word of
// the vocabulary.
bool DifferenceAfter(const std::string& s, size_t at) {
  size_t e = at;
  return ReaderLexicon().delta_words.count(Lower(WordAt(s, at, &e))) > 0;
}

// A word naming the run figures are compared with ("Reference path:",
// "comparison"): reference_words of the vocabulary. Unlike RestatingWord it
// says nothing of when the figure was measured.
bool ReferenceWord(const std::string& w) {
  std::string l = Lower(w);
  while (!l.empty() && (l.back() == ',' || l.back() == ':' || l.back() == ')')) l.pop_back();
  return ReaderLexicon().reference_words.count(l) > 0;
}

WrittenValue WrittenOf(const StoredRun& later, const std::string& metric) {
  WrittenValue w;
  w.value = later.metrics.at(metric);
  auto d = later.decimals.find(metric);
  if (d == later.decimals.end() || d->second < 0) return w;
  w.decimals = d->second;
  UnitInfo info{};
  const auto u = later.units.find(metric);
  w.factor = u != later.units.end() && UnitOf(u->second, &info) && info.metric == metric ? info.factor : 1;
  return w;
}

// Whether the written figure `w` is `earlier` (a value in stored units): at
// its written decimals in its written unit ("96 ms" restates 96.2 ms, "27 ms"
// 26.96 ms), exactly when its decimals are unknown.
bool Restates(const WrittenValue& w, double earlier) {
  if (w.decimals < 0) return w.value == earlier;
  // Two significant digits at least: "8 ms" restates nothing.
  const double written = w.value / w.factor;
  if (w.decimals == 0 && std::fabs(written) < 10) return false;
  return prose::SameAsWritten(earlier / w.factor, written, w.decimals);
}

// Whether `later`'s `metric` is `earlier` as `later` writes it (Restates).
bool RestatesValue(const StoredRun& later, const std::string& metric, double earlier) {
  return Restates(WrittenOf(later, metric), earlier);
}

// Whether a table's figure is written with three significant digits at
// least ("33.80", "412"): fewer could match an earlier figure by chance.
bool ThreeDigits(const StoredRun& run) {
  for (const auto& [metric, value] : run.metrics) {
    if (run.derived.count(metric)) continue;
    auto d = run.decimals.find(metric);
    if (d == run.decimals.end() || d->second < 0) return false;
    UnitInfo info{};
    const auto u = run.units.find(metric);
    const double factor = u != run.units.end() && UnitOf(u->second, &info) && info.metric == metric ? info.factor : 1;
    const double written = std::fabs(value / factor);
    int digits = d->second;
    for (double v = written; v >= 1; v /= 10) ++digits;
    if (written < 1) digits = d->second + static_cast<int>(std::floor(std::log10(std::max(written, 1e-12))) + 1);
    if (digits < 3) return false;
  }
  return true;
}

// Whether every figure of `later` of its own (not derived) restates one of
// `earlier`'s figures: of its metric, or of one named more closely ("167
// ms" of a printout's total_gc_time_time_s).
bool RestatesRun(const StoredRun& later, const std::vector<const StoredRun*>& earlier) {
  bool any = false;
  for (const auto& [metric, value] : later.metrics) {
    if (later.derived.count(metric)) continue;
    bool found = false;
    for (const StoredRun* e : earlier)
      for (const auto& [m, v] : e->metrics)
        if ((m == metric || (m.size() > metric.size() + 1 && m.compare(m.size() - metric.size() - 1, std::string::npos,
                                                                       "_" + metric) == 0)) && !e->derived.count(m))
          found = found || RestatesValue(later, metric, v);
    if (!found) return false;
    any = true;
  }
  return any;
}

// Prose that repeats a figure of the entry's own tables ("fp8wire = 8.35
// ms, 1.48x the baseline" under a table holding 8.35 ms), or a figure the
// entry's prose wrote before it ("measures 7.077 ms at head", then "7.077
// -> 6.803 ms"), restates it: the run is the first one, and the repeat (with
// the speedup derived from it) is listed, not tabled a second time.
// `out[0, from_tables)` are the tables' figures. Bounded by the entry's
// figure cap (kMaxFiguresPerEntry).
void DropRestatedTableFigures(size_t from_tables, std::vector<RecordedFigure>* out,
                              std::vector<UnreadFigures>* unread) {
  std::stable_sort(out->begin() + static_cast<std::ptrdiff_t>(from_tables), out->end(),
                   [](const RecordedFigure& a, const RecordedFigure& b) { return a.line < b.line; });
  std::vector<RecordedFigure> kept(out->begin(), out->begin() + static_cast<std::ptrdiff_t>(from_tables));
  const size_t n = std::min(out->size(), kMaxFiguresPerEntry);
  for (size_t i = from_tables; i < n; ++i) {
    RecordedFigure& f = (*out)[i];
    std::vector<const StoredRun*> before;
    for (const auto& k : kept)
      if (&k - kept.data() < static_cast<std::ptrdiff_t>(from_tables) || k.line < f.line) before.push_back(&k.run);
    const bool table = RestatesRun(f.run, std::vector<const StoredRun*>(before.begin(), before.begin() +
        static_cast<std::ptrdiff_t>(std::min(before.size(), from_tables))));
    if (!RestatesRun(f.run, before)) {
      kept.push_back(std::move(f));
    } else if (unread) {
      unread->push_back({f.line, f.text, table ? "restates a figure of this entry's table, not another run"
                                               : "restates a figure written earlier in this entry, not another run"});
    }
  }
  for (size_t i = n; i < out->size(); ++i) kept.push_back(std::move((*out)[i]));
  *out = std::move(kept);
}

// The entry's own tables name values of their key columns ("mode": bf16,
// fp8gemm): a word of its prose that is one of them names that key ("96.2
// ms/step bf16" is mode=bf16), as the values its commands vary do.
EntryCtx WithTableValues(const EntryCtx& x, const std::vector<RecordedFigure>& out, size_t from_tables) {
  EntryCtx px = x;
  std::map<std::string, std::set<std::string>> values;
  for (size_t i = 0; i < from_tables && i < out.size(); ++i)
    for (const auto& [k, v] : out[i].run.config)
      if (!x.fixed.count(k) && !x.vars.count(k) && k != "case" && k != "variant" && !v.empty()) values[k].insert(v);
  for (const auto& [k, vs] : values)
    if (vs.size() >= 2) px.vars[k].assign(vs.begin(), vs.end());
  return px;
}

// Whether two runs name different configurations: a key both set to other
// values ("case=EP8" against "case=EP4"), where/how a figure was written aside.
bool OtherConfig(const StoredRun& a, const StoredRun& b) {
  for (const auto& [k, v] : a.config) {
    if (k == "arrow" || k == "statistic" || k == "harness" || k == "accelerator") continue;
    if (auto it = b.config.find(k); it != b.config.end() && Lower(it->second) != Lower(v)) return true;
  }
  return false;
}

// A metric's qualifier the reader has no words for: a column it numbered
// itself ("column2") or a header in a script without ASCII letters ("当前").
// A qualifier in words ("decode", "p99") names a metric of its own.
static bool UnreadQualifier(const std::string& q) {
  if (q.rfind("column", 0) == 0 && q.size() > 6 &&
      std::all_of(q.begin() + 6, q.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return true;
  return !q.empty() && std::none_of(q.begin(), q.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// `named`: the figure is prose whose words name its configuration; an
// earlier figure of another configuration (other arm names) is no source of it.
// A table's row restating an earlier row keeps its own column names: no check.
std::string EarlierEntryOf(const StoredRun& run, const EarlierFigures& earlier, bool named) {
  std::string from;
  for (const auto& [metric, value] : run.metrics) {
    if (run.derived.count(metric)) continue;
    auto it = earlier.find(metric);
    // "100 ms/pos" restates a time column's "100 ms" ("Per-position"): a
    // time per item is the plain time of its metric's base.
    if (it == earlier.end() && metric.rfind("time_per_", 0) == 0 && metric.size() > 11 &&
        metric.compare(metric.size() - 2, 2, "_s") == 0)
      it = earlier.find("time_s");
    // "167 ms" restates a printout's total_gc_time_time_s: a metric named more closely.
    std::vector<EarlierFigures::const_iterator> sources;
    if (it != earlier.end()) sources.push_back(it);
    for (auto q = earlier.begin(); it == earlier.end() && q != earlier.end(); ++q)
      if (q->first.size() > metric.size() + 1 &&
          q->first.compare(q->first.size() - metric.size() - 1, std::string::npos, "_" + metric) == 0)
        sources.push_back(q);
    // "682" under "当前 QPS" restates an earlier queries_per_s: a metric
    // qualified only by words the reader cannot read is its base's.
    for (size_t p = metric.find('_'); sources.empty() && p != std::string::npos && p + 1 < metric.size(); p = metric.find('_', p + 1))
      if (auto q = earlier.find(metric.substr(p + 1)); q != earlier.end() && UnreadQualifier(metric.substr(0, p)))
        sources.push_back(q);
    if (sources.empty()) return "";
    // The values that round to this one as written: within half a unit of
    // its last written decimal (in its written unit), a little wider.
    auto d = run.decimals.find(metric);
    UnitInfo info{};
    const auto u = run.units.find(metric);
    const double factor = u != run.units.end() && UnitOf(u->second, &info) && info.metric == metric ? info.factor : 1;
    const double half = d == run.decimals.end() || d->second < 0 || d->second > 9
                            ? 0 : 0.5 * std::pow(10.0, -d->second) * factor;
    const double slack = 1e-9 * std::max(1.0, std::fabs(value));
    std::string here;
    int looked = 0;  // bounded: a value repeated in many entries is looked at 64 times at most
    for (const auto& src : sources)
      for (auto e = src->second.lower_bound(value - half - slack);
           e != src->second.end() && e->first <= value + half + slack && looked < 64; ++e, ++looked)
        if (RestatesValue(run, metric, e->first) && !(named && OtherConfig(run, *e->second.second)))
          here = e->second.first;
    if (here.empty()) return "";
    from = here;
  }
  return from;
}

// The metrics an entry measures of its own: those of its figures that are
// no reference's, derived ones aside.
static std::set<std::string> OwnMetrics(const std::vector<RecordedFigure>& figs) {
  std::set<std::string> own;
  for (const auto& f : figs)
    if (!f.refers)
      for (const auto& [metric, value] : f.run.metrics)
        if (!f.run.derived.count(metric)) own.insert(metric);
  return own;
}

// A reference's figure is this entry's measurement only beside one of the
// entry's own of its metric ("Reference path: 2.538 ms" next to "New path:
// 1.106 ms"); alone ("the reference C solution reports 0.31 s") it is
// someone else's.
// Whether a reference's figure has a measurement of the entry beside it: a
// metric of its own that the entry's other figures (`own`) measure too.
static bool RefersBeside(const StoredRun& run, const std::set<std::string>& own) {
  for (const auto& [metric, value] : run.metrics)
    if (!run.derived.count(metric) && own.count(metric)) return true;
  return false;
}

// Whether `text` names the entry `id` as a word ("as in PLN-001;").
bool NamesEntry(const std::string& text, const std::string& id) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (size_t p = text.find(id); p != std::string::npos; p = text.find(id, p + 1)) {
    const size_t end = p + id.size();
    if ((p == 0 || !word_char(text[p - 1])) && (end == text.size() || !word_char(text[end]))) return true;
  }
  return false;
}

// The numbers an entry writes in its list items, prose and tables with five
// significant digits at least (`min_significant`: "147,734", "17,485",
// "2.5381"), read as figures or not: a later figure written so restates one
// of them (fewer digits could match by chance).
// ScanWrittenNumbers: those of one text `t`.
void ScanWrittenNumbers(const std::string& t, std::set<double>* out, size_t min_significant) {
  for (size_t i = 0; i < t.size();) {
    if (!std::isdigit(static_cast<unsigned char>(t[i])) || (i > 0 && std::isalnum(static_cast<unsigned char>(t[i - 1])))) {
      ++i;
      continue;
    }
    std::string digits;
    size_t j = i;
    for (; j < t.size(); ++j) {
      const char c = t[j];
      const bool group = c == ',' && j + 4 <= t.size() &&
                         std::all_of(t.begin() + static_cast<long>(j) + 1, t.begin() + static_cast<long>(j) + 4,
                                     [](char d) { return std::isdigit(static_cast<unsigned char>(d)); });
      if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && j + 1 < t.size() &&
                                                          std::isdigit(static_cast<unsigned char>(t[j + 1])) &&
                                                          digits.find('.') == std::string::npos))
        digits += c;
      else if (!group)
        break;
    }
    i = j;
    const size_t first = digits.find_first_not_of("0.");
    size_t significant = 0;
    for (size_t k = first == std::string::npos ? digits.size() : first; k < digits.size(); ++k)
      significant += std::isdigit(static_cast<unsigned char>(digits[k])) ? 1 : 0;
    if (significant >= min_significant && out->size() < 4096) out->insert(std::strtod(digits.c_str(), nullptr));
  }
}

void WrittenNumbers(const Entry& e, std::set<double>* out, size_t min_significant = 5) {
  auto scan = [&](const std::string& t) { ScanWrittenNumbers(t, out, min_significant); };
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    scan(b.text);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& f : e.fields) walk(f.bullet);
  for (const auto& b : e.notes) walk(b);
  for (const auto& p : e.paragraphs) scan(p.text);
  for (const auto& t : e.tables)  // "| 10 | 128 | 14,389.80 |": a table's cells are written too
    for (const auto& row : t.rows)
      for (const auto& cell : row) scan(cell);
}

// The list items of the logbook's sections that lie in no entry ("##
// Baseline" above `### date` entries), by line.
std::vector<std::pair<int, std::string>> TextOutsideEntries(const Logbook& logbook) {
  std::vector<std::pair<int, std::string>> out;
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    const bool inside = std::any_of(logbook.entries.begin(), logbook.entries.end(), [&](const Entry& e) {
      return e.heading_line <= b.line && b.line <= e.end_line;
    });
    if (!inside && out.size() < 4096) out.emplace_back(b.line, b.text);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& sec : logbook.sections)
    for (const auto& b : sec.bullets) walk(b);
  std::sort(out.begin(), out.end());
  return out;
}

// The numbers of `outside` (TextOutsideEntries) above `line` not yet read
// (from `*next`) into `written`: "## Baseline" above the entries, no entry
// of its own, writes them before the entry at `line`.
void WrittenAbove(const std::vector<std::pair<int, std::string>>& outside, int line, size_t* next,
                  std::set<double>* written) {
  for (; *next < outside.size() && outside[*next].first < line; ++*next) ScanWrittenNumbers(outside[*next].second, written);
}

// Whether each own figure of `f` is written with five significant digits
// at least and is a number an earlier entry writes (WrittenNumbers), cut or
// rounded to the figure's digits:
// "VLIW packing: 147,734 -> 102,678 cycles" in a recap of the entries that
// wrote "Cycles: 102,678", read there or not.
int MatchedDigits(const RecordedFigure& f, const std::set<double>& written, int min_digits) {
  int total = 0;
  for (const auto& [metric, value] : f.run.metrics) {
    if (f.run.derived.count(metric)) continue;
    const WrittenValue w = WrittenOf(f.run, metric);
    if (w.decimals < 0) return 0;
    const double shown = FromStored(w.value, w.factor);
    int digits = w.decimals;
    for (double v = std::fabs(shown); v >= 1; v /= 10) ++digits;
    if (std::fabs(shown) < 1) digits = w.decimals + static_cast<int>(std::floor(std::log10(std::max(std::fabs(shown), 1e-12))) + 1);
    if (digits < min_digits) return 0;
    // "14,389 tokens/sec" of a table's "14,389.80": the number cut or rounded
    // to the digits it is written with (within one unit of its last digit).
    const double eps = 1e-9 * std::max(1.0, std::fabs(shown)), tol = std::pow(10.0, -w.decimals) - eps;
    auto it = written.upper_bound(shown - tol);
    if (it == written.end() || *it >= shown + tol) return 0;
    total += digits;
  }
  return total;
}

bool RestatesWritten(const RecordedFigure& f, const std::set<double>& written) { return MatchedDigits(f, written, 5) > 0; }

// The lines of `figs` whose change from one figure to another (an arrow's
// two sides) gives two numbers an earlier entry writes, together of eight
// significant digits at least: "regresses +1.03% (605.5 ms -> 611.8 ms)"
// under a change that an ablation table above measured. Two such numbers
// are no coincidence.
std::set<int> RestatingArrows(const std::vector<RecordedFigure>& figs, const std::set<double>& written) {
  std::map<int, std::pair<int, int>> sides;  // line -> (sides matched, digits)
  std::set<int> other;
  for (const auto& f : figs) {
    const auto a = f.run.config.find("arrow");
    if (f.table || a == f.run.config.end() || (a->second != "before" && a->second != "after")) continue;
    const int d = MatchedDigits(f, written, 3);
    if (d == 0) other.insert(f.line);
    sides[f.line].first += 1, sides[f.line].second += d;
  }
  std::set<int> lines;
  for (const auto& [line, s] : sides)
    if (s.first >= 2 && s.second >= 8 && !other.count(line)) lines.insert(line);
  return lines;
}

// Whether `line` is one of the entry's printed (output) lines.
bool InOutput(const Entry& e, int line) {
  return std::any_of(e.outputs.begin(), e.outputs.end(),
                     [line](const FencedBlock& b) { return b.line <= line && line <= b.end_line; });
}

// Whether line `line` of entry `e` is in a paragraph led as its result
// (`**Result:** 4,892 cycles`, record_result_parts): what the entry measured,
// never a quote of a recap above it.
bool UnderResultLead(const Entry& e, int line) {
  for (const auto& p : e.paragraphs) {
    if (line < p.line || line > p.end_line || p.lead.empty()) continue;
    std::string lead = p.lead;
    lead.erase(std::remove_if(lead.begin(), lead.end(), [](char c) { return c == '*' || c == '_' || c == ':' || c == '.'; }), lead.end());
    return IsResultPartName(lead);
  }
  return false;
}

// An entry with entries below it (`## 2. Major changes` over `### 2.1`)
// that holds no table, command or output of its own: its prose above its
// first part introduces them ("Waiting 8 hours for a result was too slow,
// so ..."), its figures are no runs. The line its introduction ends at, or 0.
int IntroductionEnd(const Logbook& logbook, size_t i) {
  const Entry& e = logbook.entries[i];
  if (i + 1 >= logbook.entries.size() || !e.holds_entries) return 0;
  if (!e.tables.empty() || !e.outputs.empty() || !e.commands.empty()) return 0;
  int end = logbook.entries[i + 1].heading_line;
  if (!e.subheadings.empty()) end = std::min(end, e.subheadings.front().line);
  // "**Result:** measured on one H100." above the parts: the entry's own record.
  for (const auto& p : e.paragraphs)
    if (p.line < end && UnderResultLead(e, p.line)) return 0;
  for (const auto& f : e.fields)
    if (f.bullet.line < end && IsResultPartName(f.name)) return 0;
  return end;
}

// Entry `i`'s figures outside its tables and printed lines that introduce
// the entries below it (IntroductionEnd) or, in an entry that runs no
// command, restate a number an earlier entry writes (RestatesWritten):
// listed, not runs. "147,734 -> 102,678 cycles": when the figure after the
// arrow restates one, the one before it (older still) does too.
void DropRecapFigures(const Logbook& logbook, size_t i, const std::set<double>& written,
                      std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* un) {
  const Entry& e = logbook.entries[i];
  const int intro_end = IntroductionEnd(logbook, i);
  const bool recaps = e.commands.empty();  // an entry that runs a command measures it again
  auto arrow = [](const RecordedFigure& f) {
    auto a = f.run.config.find("arrow");
    return a == f.run.config.end() ? std::string() : a->second;
  };
  std::set<int> recap;
  for (const auto& f : *figs)
    if (recaps && arrow(f) == "after" && !f.table && RestatesWritten(f, written)) recap.insert(f.line);
  const std::set<int> restating = recaps ? RestatingArrows(*figs, written) : std::set<int>{};
  std::vector<RecordedFigure> kept;
  for (auto& f : *figs) {
    const bool intro = f.line < intro_end;
    const bool restates =
        recaps && (RestatesWritten(f, written) || (arrow(f) == "before" && recap.count(f.line)) || restating.count(f.line));
    if (f.table || InOutput(e, f.line) || (!intro && !restates)) {
      kept.push_back(std::move(f));
    } else if (un && !(!un->empty() && un->back().line == f.line && un->back().text == f.text)) {
      un->push_back({f.line, f.text, intro ? "an introduction to the entries below it, not a run"
                                           : "restates a number an earlier entry writes, not another run"});
    }
  }
  *figs = std::move(kept);
}

}  // namespace reader

RunKeys RecordedKeys(const Logbook& logbook) {
  RunKeys keys;
  for (const auto& r : RecordedRuns(logbook))
    for (const auto& [k, v] : r.config) keys.recorded.insert(k);
  return keys;
}

namespace {
// The unit the entries' headings name (HeadingsUnit).
HeadingUnit EntryHeadingsUnit(const Logbook& logbook) {
  std::vector<std::string> headings;
  for (const Entry& e : logbook.entries) headings.push_back(e.heading);
  return HeadingsUnit(headings);
}

// How an entry states figures the entries below it measure: not at all, as
// a summary or recap (StatesEntriesBelow), or by a table they give again
// line by line (TabulatesEntriesBelow).
enum class Below { kNone, kStates, kTabulates };
// Of each entry that tabulates the entries below it, the lines (first, last) of the tables that do.
using SummingTables = std::vector<std::vector<std::pair<int, int>>>;

void DropSummaryRestated(const Logbook& logbook, const std::vector<Below>& below, const SummingTables& summing,
                         std::vector<std::vector<RecordedFigure>>* out, std::vector<std::vector<UnreadFigures>>* unread);

// Whether a line of prose states a figure as a labelled value, a short
// label, a colon and the number ("- **Mean latency**: 12.41 ms", "RPS:
// 251.66 req/s"), as a list of a run's metrics does; a sentence ("parsing
// takes ~25.12 ms per file") is none.
bool LabelledValue(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon > 60 || Words(text.substr(0, colon)).size() > 6) return false;
  size_t p = colon + 1;
  while (p < text.size() && (text[p] == ' ' || text[p] == '*' || text[p] == '`' || text[p] == '~')) ++p;
  return p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]));
}

// Whether a figure quotes what a recap above it states (prose that is no
// labelled value), rather than being what a recap quotes.
bool QuotesRecap(const RecordedFigure& f) { return f.prose && !LabelledValue(f.text); }


// Whether an entry states figures the entries below it measure: a summary
// above them (rules "summary", "preamble"), or an entry whose own heading
// names a recap ("## Consolidated results", "## Comparison" written before
// the sections that give each run's details, IsRecapHeading). Its figures
// restate what a later entry measures; the later entry's are its own.
// Only recap_first_words of sections.json name such a recap ("## Test
// summary", "## Consolidated results"; "## Long-horizon wear evolution"
// names a run).
bool StatesEntriesBelow(const Entry& e) {
  if (e.segment_rule == "summary" || e.segment_rule == "preamble") return true;
  if (!IsRecapHeading(e.heading)) return false;
  static const auto* words = new std::set<std::string>(DataWords("data/reader/sections.json", "recap_first_words"));
  std::vector<std::string> label;
  for (std::string w : Words(Lower(e.heading))) {
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.pop_back();
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.front()))) w.erase(0, 1);
    if (!w.empty() && std::none_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      label.push_back(w);
  }
  return !label.empty() && (words->count(label.front()) || words->count(label.back()));
}

// Whether entry `i` holds a table whose rows (or columns) are the records
// of the entries below it (`| Step | PPL | NLL |` above one `## Step 25`
// entry per row, `| Metric | iter-0 | iter-1 |` above one `## Iteration`
// entry per column, each giving its figures again): half its rows (or
// columns) of three numbers or more at least are written in a later entry,
// all but one in five of their numbers, the first such entry of each line
// a different one (an entry first to give two of them compares them), two
// entries at least, one after another (a history far below quotes them).
// The table sums up what those entries measure, whatever its heading says:
// its figures restate theirs, read there or not.
// `written`: each entry's numbers of two significant digits or more, its
// heading's too. `tables` gets the lines of each table that does (an
// entry's own record beside it, `| Batch | t/s |` over a comparison with
// the GPUs of the entries below, stays its record).
bool TabulatesEntriesBelow(const Logbook& logbook, size_t i, const std::vector<std::set<double>>& written,
                           std::vector<std::pair<int, int>>* tables) {
  const Entry& e = logbook.entries[i];
  if (e.tables.empty() || i + 2 >= logbook.entries.size()) return false;
  auto summed = [&](const std::vector<std::set<double>>& lines) {
    size_t counted = 0, found = 0;
    std::map<size_t, int> lines_of;  // later entry -> the lines it records
    for (const auto& numbers : lines) {
      if (numbers.size() < 3) continue;
      ++counted;
      const size_t needed = numbers.size() - numbers.size() / 5;
      for (size_t j = i + 1; j < written.size() && j <= i + 64; ++j)
        if (static_cast<size_t>(std::count_if(numbers.begin(), numbers.end(), [&](double v) { return written[j].count(v) > 0; })) >= needed) {
          ++lines_of[j], ++found;  // the first entry giving the line again: its record
          break;
        }
    }
    // An entry first to give two lines again compares them (a baseline quoted), no line's own record.
    const bool one_each = std::all_of(lines_of.begin(), lines_of.end(), [](const auto& kv) { return kv.second == 1; });
    // ... and the entries are one series, one after another (a history far below quotes, it records nothing).
    const bool series = !lines_of.empty() && lines_of.rbegin()->first - lines_of.begin()->first + 1 == lines_of.size();
    return one_each && series && lines_of.size() >= 2 && found * 2 >= counted;
  };
  for (const auto& t : e.tables) {
    std::vector<std::set<double>> rows, columns(t.header.size());
    for (const auto& row : t.rows) {
      rows.emplace_back();
      for (size_t c = 0; c < row.size(); ++c) {
        ScanWrittenNumbers(row[c], &rows.back(), 2);
        if (c < columns.size()) ScanWrittenNumbers(row[c], &columns[c], 2);
      }
    }
    if (summed(rows) || summed(columns)) tables->emplace_back(t.line, t.end_line);
  }
  return !tables->empty();
}

// How each entry states figures the entries below it measure (Below).
std::vector<Below> EntriesStatingBelow(const Logbook& logbook, SummingTables* summing) {
  std::vector<Below> out(logbook.entries.size(), Below::kNone);
  summing->assign(logbook.entries.size(), {});
  bool tables = false;
  for (size_t i = 0; i < logbook.entries.size(); ++i) {
    if (StatesEntriesBelow(logbook.entries[i])) out[i] = Below::kStates;
    tables = tables || (out[i] == Below::kNone && !logbook.entries[i].tables.empty());
  }
  if (!tables) return out;
  std::vector<std::set<double>> written(logbook.entries.size());
  for (size_t i = 0; i < logbook.entries.size(); ++i) {  // the heading's too ("## Step 40" of its row's `40`)
    WrittenNumbers(logbook.entries[i], &written[i], 2);
    ScanWrittenNumbers(logbook.entries[i].heading, &written[i], 2);
  }
  for (size_t i = 0; i < logbook.entries.size(); ++i)
    if (out[i] == Below::kNone && TabulatesEntriesBelow(logbook, i, written, &(*summing)[i])) out[i] = Below::kTabulates;
  return out;
}

// Whether a figure set is the side a comparison starts from: a value of its
// configuration whose first word is a before word ("Before", "Old",
// "Baseline (main)"; an arrow's "before"; before_words of the vocabulary).
bool BeforeSide(const StoredRun& run) {
  for (const auto& [key, value] : run.config) {
    std::string first = Lower(value.substr(0, value.find_first_of(" (/_-")));
    if (ReaderLexicon().before_words.count(first)) return true;
  }
  return false;
}

// The table rows (lines) of an entry with a figure set no earlier entry
// records: such a row is this entry's measurement, every figure set of it
// (a row of "| shape | ours us | upstream us |" whose upstream run repeats
// an earlier entry's digits measured it again beside ours). So is every row
// of a table of three rows or more most of whose rows are fresh: the
// entry's run of the whole table, a row that repeats an earlier entry's
// digits measured again (a benchmark history's table per day).
std::set<int> FreshTableRows(const Entry& e, const std::vector<RecordedFigure>& figs, const EarlierFigures& earlier) {
  std::set<int> out, rows;
  for (const auto& f : figs) {
    if (!f.table) continue;
    rows.insert(f.line);
    if (EarlierEntryOf(f.run, earlier, false).empty()) out.insert(f.line);  // ("6.3 s" of an earlier 6.3 s: no sign either way)
  }
  for (const TableBlock& t : e.tables) {
    const auto from = rows.lower_bound(t.line), to = rows.upper_bound(t.end_line);
    const long total = std::distance(from, to);
    const long fresh = std::distance(out.lower_bound(t.line), out.upper_bound(t.end_line));
    if (total >= 3 && fresh * 2 > total) out.insert(from, to);
  }
  return out;
}

// The table rows (lines) that compare a side a comparison starts from
// (BeforeSide) with another: "| Latency (ms) | 14.62 | 12.91 |" under
// "Before | After". Such a row's before side is judged by itself: it
// restates an earlier 14.62 though the row measures 12.91. A row of one
// run named "baseline" is no comparison.
std::set<int> ComparedRows(const std::vector<RecordedFigure>& figs) {
  std::set<int> before, other, out;
  for (const auto& f : figs)
    if (f.table) (BeforeSide(f.run) ? before : other).insert(f.line);
  std::set_intersection(before.begin(), before.end(), other.begin(), other.end(), std::inserter(out, out.end()));
  return out;
}

// The lines whose comparison of runs ("100ms/pos vs 14,700ms/pos before",
// keyed side=1, side=2) restates one earlier entry whole: every side equal
// to a figure of that entry. One side alone may be this entry's own
// measurement; both at once are a recap.
std::set<int> RestatedComparisons(const std::vector<RecordedFigure>& figs, const EarlierFigures& earlier) {
  std::map<int, std::pair<int, std::set<std::string>>> by_line;  // line -> sides, entries restated
  for (const auto& f : figs) {
    if (f.table || !f.run.config.count("side")) continue;
    auto& [sides, from] = by_line[f.line];
    ++sides;
    from.insert(ThreeDigits(f.run) ? EarlierEntryOf(f.run, earlier, false) : "");
  }
  std::set<int> out;
  for (const auto& [line, seen] : by_line)
    if (seen.first >= 2 && seen.second.size() == 1 && !seen.second.begin()->empty()) out.insert(line);
  return out;
}

// The earlier entry a figure restates ("" for none): a prose figure or a
// table row (not a fresh one, FreshTableRows) equal to an earlier entry's;
// a reference's figure only when it is that figure ("Reference path: 2.538
// ms"), else this entry measured it; a Result's figure equal to an earlier
// entry's that names that entry ("bf16 31.42 ms (as in PLN-001)"); a side
// of a comparison that restates an earlier entry whole (RestatedComparisons).
std::string RestatedFrom(const RecordedFigure& f, const EarlierFigures& earlier, const std::set<int>& fresh_rows,
                         const std::set<int>& compared, const std::set<int>& restated_sides) {
  if (!f.table && restated_sides.count(f.line) && f.run.config.count("side")) return EarlierEntryOf(f.run, earlier, false);
  const bool table = f.table && TableRowDigits(f.run) &&
                     (!fresh_rows.count(f.line) || (compared.count(f.line) && BeforeSide(f.run)));
  std::string from = f.prose || table ? EarlierEntryOf(f.run, earlier, f.prose) : "";
  if (from.empty() && f.refers && ThreeDigits(f.run)) from = EarlierEntryOf(f.run, earlier, false);
  if (from.empty() && !f.prose && !f.table)
    if (std::string id = EarlierEntryOf(f.run, earlier, true); !id.empty() && NamesEntry(f.text, id)) from = id;
  return from;
}

// Whether `why` is listed for line `line` already.
bool ListedWhy(const std::vector<UnreadFigures>& un, int line, const char* why) {
  return std::any_of(un.begin(), un.end(), [&](const UnreadFigures& u) { return u.line == line && u.why == why; });
}

// Whether an entry records speedups or changes alone ("Impact: sin 3-27x
// faster", "~46.5x on B200"): those are its record, kept, their lines no
// longer listed as derived. Beside a run's own figures they are that run's
// comparison, no row of their own.
bool OnlyDerivedRecord(const std::vector<RecordedFigure>& figs, std::vector<UnreadFigures>* un) {
  const bool only = !figs.empty() && std::none_of(figs.begin(), figs.end(), [](const RecordedFigure& f) {
    return HasBaseMetric(f.run) || f.table;
  });
  if (only && un)
    std::erase_if(*un, [&figs](const UnreadFigures& u) {
      return u.why == kDerivedWhy && std::any_of(figs.begin(), figs.end(), [&u](const RecordedFigure& f) { return f.line == u.line; });
    });
  return only;
}

// Entry `e`'s kept figures as earlier figures of the entries below it
// (`earlier`), and as figures a later record is compared with (`records`)
// unless the entry is a recap of the entries below it (`recap`).
void Remember(const Entry& e, bool recap, const std::vector<RecordedFigure>& figs, EarlierFigures* earlier,
              EarlierFigures* records) {
  constexpr size_t kMaxEarlier = 4096;  // earlier entries' figures of one metric kept (bounded)
  for (const auto& f : figs)
    for (const auto& [metric, value] : f.run.metrics)
      if (!f.run.derived.count(metric) && (*earlier)[metric].size() < kMaxEarlier) {
        (*earlier)[metric].emplace(value, std::make_pair(e.id, &f.run));
        if (!recap) (*records)[metric].emplace(value, std::make_pair(e.id, &f.run));
      }
}
// The earlier entry each of an entry's figures restates ("" for none):
// RestatedFrom, then RecapTables.
std::vector<std::string> RestatedFroms(const Entry& e, const std::vector<RecordedFigure>& figs,
                                       const EarlierFigures& earlier, const EarlierFigures& records) {
  const std::set<int> fresh_rows = FreshTableRows(e, figs, earlier), compared = ComparedRows(figs);
  const std::set<int> restated_sides = RestatedComparisons(figs, earlier);
  std::vector<std::string> froms;
  for (const auto& f : figs)
    froms.push_back(RestatedFrom(f, QuotesRecap(f) && !UnderResultLead(e, f.line) ? earlier : records, fresh_rows, compared,
                                 restated_sides));
  RecapTables(e, figs, records, &froms);
  return froms;
}
}  // namespace

std::vector<std::vector<RecordedFigure>> LogbookFigures(const Logbook& logbook,
                                                        std::vector<std::vector<UnreadFigures>>* unread) {
  const bool mfu = MfuLogbook(logbook), tflops = TflopsLogbook(logbook);
  const double example = TflopsExample(logbook);
  std::vector<std::vector<RecordedFigure>> out;
  if (unread) unread->assign(logbook.entries.size(), {});
  EarlierFigures earlier;
  EarlierFigures records;  // the same but a recap's (Remember): what a record below is compared with
  std::set<double> written;  // numbers written above (WrittenNumbers, WrittenAbove)
  SummingTables summing;
  const std::vector<Below> below = EntriesStatingBelow(logbook, &summing);
  Vocabulary vocabulary;
  const auto hardware = DocumentHardware(logbook);
  const HeadingUnit heading_unit = EntryHeadingsUnit(logbook);
  const std::string table_unit = DocumentTableUnit(logbook);
  const auto outside = TextOutsideEntries(logbook);
  for (size_t i = 0, next_outside = 0; i < logbook.entries.size(); ++i) {
    const Entry& e = logbook.entries[i];
    WrittenAbove(outside, e.heading_line, &next_outside, &written);
    std::vector<UnreadFigures>* un = unread ? &(*unread)[i] : nullptr;
    std::vector<RecordedFigure> figs = RecordedFiguresUnder(e, logbook.file, un, mfu, tflops, example,
                                                            HardwareAt(hardware, e.heading_line), heading_unit, table_unit);
    const bool only_derived = OnlyDerivedRecord(figs, un);  // as read: beside a restated run they compare it
    DropEstimateDocument(logbook, e, &figs, un);
    DropUnderSpecSection(logbook, e, &figs, un);
    ReportKinds(e, &figs, un);  // recap tables, `Savings: 54%`, a monitor's readings; transaction rates
    const std::set<std::string> own_metrics = OwnMetrics(figs);
    DropRecapFigures(logbook, i, written, &figs, un);
    const std::vector<std::string> froms = RestatedFroms(e, figs, earlier, records);
    std::vector<RecordedFigure> kept;
    for (size_t fi = 0; fi < figs.size(); ++fi) {
      RecordedFigure& f = figs[fi];
      if (!HasBaseMetric(f.run) && !only_derived) {  // "256x4096: 1.05x": a ratio to another run, no measurement
        if (un && !ListedWhy(*un, f.line, kDerivedWhy)) un->push_back({f.line, f.text, "only derived figures (a speedup, a change), no run's own"});
        continue;
      }
      if (f.refers && !RefersBeside(f.run, own_metrics)) {
        if (un) un->push_back({f.line, f.text, "restates earlier work (reference, comparison, remains ...), not this entry's run"});
        continue;
      }
      if (froms[fi].empty()) {
        kept.push_back(std::move(f));
      } else if (un && !(!un->empty() && un->back().line == f.line && un->back().text == f.text)) {
        un->push_back({f.line, f.text, "restates a figure of " + froms[fi] + ", not another run"});  // a row once
      }
    }
    for (const auto& f : kept) vocabulary.Add(f.run);
    vocabulary.Name(&kept);
    for (size_t k = 0; k < kept.size(); ++k) kept[k].run.id = e.id + "#" + std::to_string(k + 1);
    out.push_back(std::move(kept));
    // A summary above the entries (`## Results`) or the title's own text
    // states the figures the entries below measure: theirs are not restated.
    if (e.segment_rule == "summary" || e.segment_rule == "preamble" || below[i] == Below::kTabulates) continue;
    WrittenNumbers(e, &written, 3);  // of three digits: RestatingArrows pairs them, RestatesWritten asks five
    Remember(e, below[i] != Below::kNone, out.back(), &earlier, &records);
  }
  DropSummaryRestated(logbook, below, summing, &out, unread);
  DropRecapRestated(logbook, &out, unread);
  return out;
}

namespace {

// The figures of a summary above the entries (rules "summary", "preamble")
// that an entry below measures again: restated there, not runs of the
// summary's own. A row keeps the figures only it records (a token count the
// entries never state); one with none left is listed as restating.
void DropSummaryRestated(const Logbook& logbook, const std::vector<Below>& below, const SummingTables& summing,
                         std::vector<std::vector<RecordedFigure>>* out, std::vector<std::vector<UnreadFigures>>* unread) {
  constexpr size_t kMaxLater = 4096;
  for (size_t i = 0; i < logbook.entries.size(); ++i) {
    if (below[i] == Below::kNone || (*out)[i].empty()) continue;
    // A recap quotes the runs below it as they record them (fields, tables,
    // printed lines), never prose that quotes the recap ("parsing takes
    // ~25.12 ms" under the summary table that is the record).
    const bool recap = IsRecapHeading(logbook.entries[i].heading);
    EarlierFigures later;
    for (size_t j = i + 1; j < out->size(); ++j)
      for (const auto& f : (*out)[j])
        if (!(recap && QuotesRecap(f)))
          for (const auto& [metric, value] : f.run.metrics)
            if (!f.run.derived.count(metric) && later[metric].size() < kMaxLater)
              later[metric].emplace(value, std::make_pair(logbook.entries[j].id, &f.run));
    std::vector<RecordedFigure> kept;
    // A table the entries below give again line by line (TabulatesEntriesBelow)
    // sums them up whole, figures the reader took from them or not.
    const bool tabulated = below[i] == Below::kTabulates;
    for (auto& f : (*out)[i]) {
      const bool summed = std::any_of(summing[i].begin(), summing[i].end(),
                                      [&f](const auto& t) { return t.first <= f.line && f.line <= t.second; });
      if (tabulated && f.table && summed) {
        if (unread) (*unread)[i].push_back({f.line, f.text, "sums up the entries below it (each given again in its entry), not another run"});
        continue;
      }
      std::string from;
      for (auto it = f.run.metrics.begin(); it != f.run.metrics.end();) {
        StoredRun one = f.run;
        one.metrics = {*it};
        const std::string id = f.run.derived.count(it->first) ? "" : EarlierEntryOf(one, later, false);
        if (id.empty()) {
          ++it;
          continue;
        }
        from = id;
        f.run.units.erase(it->first);
        f.run.decimals.erase(it->first);
        it = f.run.metrics.erase(it);
      }
      if (!HasBaseMetric(f.run)) {
        if (unread) (*unread)[i].push_back({f.line, f.text, "restates a figure of " + from + " (an entry below), not another run"});
      } else {
        kept.push_back(std::move(f));
      }
    }
    for (size_t k = 0; k < kept.size(); ++k) kept[k].run.id = logbook.entries[i].id + "#" + std::to_string(k + 1);
    (*out)[i] = std::move(kept);
  }
}

}  // namespace

std::vector<StoredRun> RecordedRuns(const Logbook& logbook) {
  std::vector<StoredRun> out;
  for (auto& figs : LogbookFigures(logbook, nullptr))
    for (auto& f : figs) out.push_back(std::move(f.run));
  return out;
}

}  // namespace moelog::logbook
