// The classify stage's recap rule: a part of an entry whose heading names a
// recap or a comparison ("### Key observations" under the table they read,
// "### Final Performance Summary", "### Comparison To Exp 2"; IsRecapHeading)
// quotes figures the document writes elsewhere. Such a figure restates them,
// with the rest of its row; a figure written nowhere else stays a run.
#include <cstdio>
#include <cstring>

#include "logbook/reader/internal.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook::reader {
namespace {

// A number the document writes, with the unit token right after it ("ms"
// of "3.57ms", "" of "`407,401.01715`"), magnitude applied.
struct Written {
  std::string unit;
  int line = 0;
  bool record = false;  // a table's cell or a printed line, not prose
};
using WrittenNumbers = std::multimap<double, Written>;

// The numbers of `t` (line `line`; `lines` gives each byte's line when the
// text spans several): digits with "," groups and one ".", a glued
// magnitude ("407k") applied.
void NumbersIn(const std::string& t, const std::function<int(size_t)>& line_at, bool record, WrittenNumbers* out) {
  constexpr size_t kMaxNumbers = 1 << 16;  // bounded: a document of more numbers is not indexed further
  for (size_t i = 0; i < t.size() && out->size() < kMaxNumbers;) {
    const bool digit = std::isdigit(static_cast<unsigned char>(t[i])) != 0;
    if (!digit || (i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '.'))) {
      ++i;
      continue;
    }
    const size_t start = i;
    std::string digits;
    for (; i < t.size(); ++i) {
      const char c = t[i];
      if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
      else if (c == '.' && digits.find('.') == std::string::npos && i + 1 < t.size() &&
               std::isdigit(static_cast<unsigned char>(t[i + 1])))
        digits += c;
      else if (!(c == ',' && i + 3 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1])) &&
                 std::isdigit(static_cast<unsigned char>(t[i + 2])) && std::isdigit(static_cast<unsigned char>(t[i + 3]))))
        break;
    }
    size_t len = 0;
    const double magnitude = MagnitudeAt(t, i, &len);
    size_t u = i + len;
    while (u < t.size() && t[u] == ' ') ++u;
    std::string unit;
    for (; u < t.size() && (std::isalpha(static_cast<unsigned char>(t[u])) || t[u] == '/'); ++u)
      unit += t[u];
    out->emplace(std::strtod(digits.c_str(), nullptr) * magnitude, Written{unit, line_at(start), record});
  }
}

// Every number the document's entries and sections write: tables, prose,
// list items and printed lines.
WrittenNumbers DocumentNumbers(const Logbook& logbook) {
  WrittenNumbers out;
  auto at = [](int line) { return [line](size_t) { return line; }; };
  std::function<void(const Bullet&)> bullet = [&](const Bullet& b) {
    NumbersIn(b.text, at(b.line), false, &out);
    for (const auto& c : b.children) bullet(c);
  };
  auto table = [&](const TableBlock& t) {
    for (size_t r = 0; r < t.rows.size(); ++r)
      for (const auto& cell : t.rows[r]) NumbersIn(cell, at(t.line + 2 + static_cast<int>(r)), true, &out);
  };
  for (const Entry& e : logbook.entries) {
    for (const auto& t : e.tables) table(t);
    for (const auto& p : e.paragraphs) NumbersIn(p.text, [&p](size_t k) { return p.LineAt(k); }, false, &out);
    for (const auto& b : e.notes) bullet(b);
    for (const auto& f : e.fields) bullet(f.bullet);
    for (const auto& o : e.outputs) {
      int line = o.line + 1;
      for (size_t s = 0, nl = 0; s <= o.text.size(); s = nl + 1, ++line) {
        nl = std::min(o.text.find('\n', s), o.text.size());
        NumbersIn(o.text.substr(s, nl - s), at(line), true, &out);
      }
    }
  }
  for (const auto& sec : logbook.sections) {
    for (const auto& t : sec.tables) table(t);
    for (const auto& b : sec.bullets) bullet(b);
  }
  return out;
}

// The lines [first, last] of the part of `e` that holds `line`: from the
// nearest heading above it (the entry's or a sub-heading) to the next one.
// Its heading's text in `heading`.
std::pair<int, int> PartOf(const Entry& e, int line, std::string* heading) {
  std::pair<int, int> part{e.heading_line, e.end_line};
  *heading = e.heading;
  for (const auto& h : e.subheadings) {
    if (h.line <= line) {
      part.first = h.line;
      *heading = h.text;
    } else {
      part.second = std::min(part.second, h.line - 1);
      break;
    }
  }
  // "## Summary of the week" over "### Standing numbers": the whole
  // entry recaps, whatever its parts are called.
  if (!IsRecapHeading(*heading) && IsRecapHeading(e.heading)) {
    part = {e.heading_line, e.end_line};
    *heading = e.heading;
  }
  return part;
}

// Whether a number written with `unit` ("ms", "tok/s", "" for none) is a
// figure of `metric` in a unit of `factor` ("3.57ms" of "3.6 ms", "58.2
// tokens/sec" of "58.2 tok/s"); a number with no unit one only when `bare`.
bool SameUnit(const std::string& unit, const std::string& metric, double factor, bool bare) {
  UnitInfo info{};
  std::string plain;
  MagnitudeOf(ReaderLexicon(), unit, &plain);
  for (const std::string& u : {unit, plain})
    if (!u.empty() && (AnyUnit(u, &info) || AnyUnit(Lower(u), &info)))
      return NamesOwnMetric(info.metric, metric) && std::fabs(info.factor / factor - 1) < 1e-9;
  return bare;
}

// Where a recap part's figure may be quoted from: above the part; below it
// a table's or a printout's number only (prose below that repeats a summary
// table quotes it, not the other way round); in a log written newest first,
// any number of the entries below (older) too.
struct Source {
  std::pair<int, int> part;  // the recap part's lines
  int entry_end = 0;         // the last line of its entry
  bool newest_first = false;
  bool From(const Written& w) const {
    if (w.line < part.first) return true;
    if (w.line <= part.second) return false;
    return w.record || (newest_first && w.line > entry_end);
  }
};

// Whether the log's dated entries run newest first: more of them follow a
// later one than an earlier one.
bool NewestFirst(const Logbook& logbook) {
  int down = 0, up = 0;
  const Entry* last = nullptr;
  for (const Entry& e : logbook.entries) {
    if (e.date.empty()) continue;
    if (last != nullptr) {
      const std::string a = last->date + " " + last->time, b = e.date + " " + e.time;
      down += b < a ? 1 : 0;
      up += a < b ? 1 : 0;
    }
    last = &e;
  }
  return down > up;
}

// Whether the figure's own metric `metric`, as written, is a number the
// document writes where `source` allows: rounded to the figure's decimals,
// in the same unit, or in any unit when the figure has three significant
// digits at least ("407k" is "407,401.01715").
bool WrittenElsewhere(const StoredRun& run, const std::string& metric, const WrittenNumbers& numbers,
                      const Source& source) {
  const auto d = run.decimals.find(metric);
  const auto u = run.units.find(metric);
  if (d == run.decimals.end() || d->second < 0 || d->second > 9 || u == run.units.end()) return false;
  std::string plain;
  const double magnitude = MagnitudeOf(ReaderLexicon(), u->second, &plain);
  UnitInfo info{};
  const double factor = (AnyUnit(plain, &info) && NamesOwnMetric(info.metric, metric) ? info.factor : 1) * magnitude;
  const double shown = FromStored(run.metrics.at(metric), factor / magnitude) / magnitude;  // the digits as written
  // Trailing zeros say how precise the figure is, not what it is: "1.000 ms"
  // has one digit that could match a "1" written anywhere.
  int sig_decimals = d->second;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", d->second, std::fabs(shown));
  for (size_t n = std::strlen(text); sig_decimals > 0 && n > 0 && text[n - 1] == '0'; --n) --sig_decimals;
  const double digits = sig_decimals + (std::fabs(shown) >= 1 ? std::floor(std::log10(std::fabs(shown))) + 1 : 0);
  if (digits < 2) return false;  // "8 ms" could be anything
  const double half = 0.5 * std::pow(10.0, -d->second) * magnitude * 1.000001;
  for (auto it = numbers.lower_bound(shown * magnitude - half); it != numbers.end() && it->first <= shown * magnitude + half; ++it) {
    if (!source.From(it->second)) continue;
    if (!prose::SameAsWritten(it->first / magnitude, shown, d->second)) continue;
    if (SameUnit(it->second.unit, metric, factor / magnitude, digits >= 3)) return true;
  }
  return false;
}

// The heading of the part of `e` that holds `line`.
std::string PartHeading(const Entry& e, int line) {
  std::string heading;
  PartOf(e, line, &heading);
  return heading;
}

// Whether the table of `e` that holds `line` compares sources or settings
// side by side, not the two sides of a change (IsChangeColumn).
bool SideBySideTable(const Entry& e, int line) {
  for (const auto& t : e.tables)
    if (t.line <= line && line <= t.end_line)
      return std::none_of(t.header.begin(), t.header.end(), [](const std::string& h) { return IsChangeColumn(h); });
  return false;
}

// Whether figure `f` of entry `e` sits in a recap part and restates a number
// the document writes elsewhere; that part's heading in `heading`.
bool RecapRestates(const Entry& e, const RecordedFigure& f, const WrittenNumbers& numbers, bool newest_first,
                   std::string* heading) {
  const std::pair<int, int> part = PartOf(e, f.line, heading);
  if (!IsRecapHeading(*heading)) return false;
  for (const auto& [metric, value] : f.run.metrics)
    if (!f.run.derived.count(metric) && WrittenElsewhere(f.run, metric, numbers, Source{part, e.end_line, newest_first}))
      return true;
  return false;
}

}  // namespace

// A recap part's figure that restates a number written elsewhere is listed,
// not tabled; so is every figure of its table row: a row of a comparison
// whose one column quotes this log ("95.24 req/s" on H100) quotes the others
// beside it too (another source's "9.87 req/s", an estimate's "~8,000"),
// and an arrow one side of which it quotes quotes the other ("30 → 68.8
// TFLOPS" where 68.8 is the log's). A row of changes alone in an
// entry that is a recap by its own heading (a ledger's "+7.8%") changes
// runs recorded elsewhere: listed too.
void DropRecapRestated(const Logbook& logbook, std::vector<std::vector<RecordedFigure>>* out,
                       std::vector<std::vector<UnreadFigures>>* unread) {
  std::optional<WrittenNumbers> numbers;  // read when a recap part holds a figure
  const bool newest_first = NewestFirst(logbook);
  for (size_t i = 0; i < logbook.entries.size() && i < out->size(); ++i) {
    const Entry& e = logbook.entries[i];
    std::vector<std::string> headings((*out)[i].size());
    std::vector<bool> restated((*out)[i].size(), false);
    std::set<int> rows;    // table rows (lines) with a restated figure
    std::set<int> arrows;  // lines whose arrow has a restated side ("30 → 68.8 TFLOPS": its start too)
    for (size_t k = 0; k < (*out)[i].size(); ++k) {
      const RecordedFigure& f = (*out)[i][k];
      const bool recap_part = IsRecapHeading(PartHeading(e, f.line)), recap_entry = IsRecapHeading(e.heading);
      if (!recap_part && !recap_entry) continue;
      if (!numbers) numbers = DocumentNumbers(logbook);
      // A ledger's row of changes alone in an entry that is a recap by its own
      // heading ("## Summary After 6 Iterations" over "| 2 | batching | +7.8% |",
      // "## Summary Statistics" over "### Successful Optimizations" and its
      // speedups): the changes of runs the log records elsewhere, no run of its own.
      const bool changes_only = recap_entry && !f.run.metrics.empty() &&
                                std::all_of(f.run.metrics.begin(), f.run.metrics.end(),
                                            [&](const auto& m) { return f.run.derived.count(m.first) > 0; });
      restated[k] = (recap_part && RecapRestates(e, f, *numbers, newest_first, &headings[k])) || changes_only;
      if (restated[k] && f.table && SideBySideTable(e, f.line)) rows.insert(f.line);
      if (restated[k] && f.run.config.count("arrow")) arrows.insert(f.line);
    }
    std::vector<RecordedFigure> kept;
    for (size_t k = 0; k < (*out)[i].size(); ++k) {
      RecordedFigure& f = (*out)[i][k];
      if (!restated[k] && !(f.table && rows.count(f.line)) && !(f.run.config.count("arrow") && arrows.count(f.line))) {
        kept.push_back(std::move(f));
      } else if (unread) {
        const std::string heading = PartHeading(e, f.line);
        (*unread)[i].push_back({f.line, f.text, "restates a figure written elsewhere (under \"" + heading +
                                                    "\", a recap or comparison" +
                                                    (restated[k] ? "" : ", in a row that quotes one") +
                                                    "), not another run"});
      }
    }
    const bool dropped = kept.size() != (*out)[i].size();
    if (dropped)
      for (size_t k = 0; k < kept.size(); ++k) kept[k].run.id = e.id + "#" + std::to_string(k + 1);
    (*out)[i] = std::move(kept);
  }
}

}  // namespace moelog::logbook::reader
