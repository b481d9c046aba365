#include <algorithm>
#include <cmath>
#include <map>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"


namespace moelog::logbook {

namespace reader {

// The decimals a number is written with ("0.027212" -> 6, "1,832,938" -> 0).
int WrittenDecimals(const std::string& num) {
  // "1.285e-05": the mantissa's decimals moved by the exponent (8: the
  // author's digits 0.00001285, never rounded to 0.0000129).
  const size_t e = num.find_first_of("eE");
  const std::string mantissa = num.substr(0, e);
  const size_t dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  if (e == std::string::npos) return decimals;
  return std::max(0, decimals - std::atoi(num.c_str() + e + 1));
}

// What a unit written after a number measures (the vocabulary's units,
// vocabulary.h); false for words that are no unit of a figure (steps ...)
// and for a unit that names its metric only in context ("GB": UnitOfIn).
bool UnitOf(const std::string& unit, UnitInfo* info) {
  return UnitIn(ReaderLexicon(), unit, info) && info->context.empty();
}

// Whether `text` has a word starting with one of `context` (case aside):
// "Peak VRAM", "max_memory_allocated" name memory.
bool NamesContext(const std::string& text, const std::vector<std::string>& context) {
  const std::string l = Lower(text);
  for (const auto& w : context)
    for (size_t p = l.find(w); p != std::string::npos; p = l.find(w, p + 1))
      if (p == 0 || !std::isalnum(static_cast<unsigned char>(l[p - 1]))) return true;
  return false;
}

// A unit as UnitOf, or one that needs context ("GB" is memory after "peak",
// "VRAM", "memory") when `before` (the clause, header or label before the
// number) names it.
// A rating word there ("power envelope", "slot supplies") makes it no figure.
namespace {
// A device's peak before a rate ("The T4 peak is 8.1 TFLOPS", "H100 peak
// bandwidth: 3.35 TB/s"): its rating, unless a verb of measuring says a
// run reached it (measured_verbs: "the kernel on H100 hit a peak of ...").
bool DevicePeak(const std::string& before, const UnitInfo& info) {
  if (info.metric != "tflops" && info.metric != "gb_per_s") return false;
  const auto words = Words(Lower(before));
  if (std::find(words.begin(), words.end(), "peak") == words.end() || AcceleratorIn(before).empty()) return false;
  const auto& verbs = ReaderLexicon().measured_verbs;
  return std::none_of(words.begin(), words.end(), [&](const std::string& w) { return verbs.count(w) > 0; });
}
}  // namespace

bool UnitOfIn(const std::string& unit, const std::string& before, UnitInfo* info) {
  if (!UnitIn(ReaderLexicon(), unit, info) || RatedUnit(unit, before)) return false;
  if (DevicePeak(before, *info)) return false;
  return info->context.empty() || NamesContext(before, info->context);
}

// A unit that needs context named by the word right after it ("59GB mem",
// "41 GB peak": context_after), `at` past the unit, where `before` names no
// device ("H100 80GB memory" is its size) and no rating word.
bool UnitNamedAfter(const std::string& unit, const std::string& s, size_t at, const std::string& before,
                    UnitInfo* info) {
  if (!UnitIn(ReaderLexicon(), unit, info) || info->context_after.empty() || RatedUnit(unit, before) ||
      !AcceleratorIn(before).empty())
    return false;
  size_t e = at;
  const std::string w = Lower(WordAt(s, at, &e));
  return std::find(info->context_after.begin(), info->context_after.end(), w) != info->context_after.end();
}

// Whether `before` names one of the rating words of `unit` ("a power
// envelope of ~75 W"): the number is a device's rating or limit, no reading.
bool RatedUnit(const std::string& unit, const std::string& before) {
  UnitInfo info{};
  return UnitIn(ReaderLexicon(), unit, &info) && !info.rating.empty() && NamesContext(before, info.rating);
}

// Any unit of the vocabulary, context or not: for a unit whose context was
// read where it was found (a label's or a column's unit).
bool AnyUnit(const std::string& unit, UnitInfo* info) { return UnitIn(ReaderLexicon(), unit, info); }

// A magnitude written right after a number at `k` ("630K tok/s", "6.44B",
// "1.2M`"): its factor, and its length in `*len`; 1 when there is none.
// It must end there (a space, backtick, '|', ')' or the end): "4GiB" is no
// magnitude.
double MagnitudeAt(const std::string& s, size_t k, size_t* len) {
  *len = 0;
  if (k >= s.size()) return 1;
  // A magnitude spelled in a script without spaces ("13.2万", "3만"): whatever follows.
  if (static_cast<unsigned char>(s[k]) >= 0x80) {
    for (const auto& [word, factor] : ReaderLexicon().magnitudes)
      if (!word.empty() && static_cast<unsigned char>(word[0]) >= 0x80 && s.compare(k, word.size(), word) == 0) {
        *len = word.size();
        return factor;
      }
    return 1;
  }
  auto m = ReaderLexicon().magnitudes.find(std::string(1, s[k]));
  if (m == ReaderLexicon().magnitudes.end()) return 1;
  if (k + 1 < s.size() && s[k + 1] != ' ' && s[k + 1] != '`' && s[k + 1] != '|' && s[k + 1] != ')' &&
      s[k + 1] != ',' && s[k + 1] != '*')
    return 1;
  *len = 1;
  return m->second;
}

// What a percentage at [from, to) measures when words before or after it
// name a share the vocabulary knows ("91.8% load utilization", "hit rate
// 48%", "3.8% of theoretical peak"): the metric, else "". At most four
// words after it, and the clause's last 40 characters before it, are read.
std::string PercentMetric(const std::string& s, size_t from, size_t to) {
  const auto& names = ReaderLexicon().percent_metrics;
  if (names.empty()) return "";
  std::vector<std::string> after;  // up to four words after the '%' ("percent" written after it aside)
  size_t p = to;
  for (int n = 0; n < 5 && after.size() < 4; ++n) {
    size_t e = p;
    const std::string w = WordAt(s, p, &e);
    if (w.empty()) break;
    if (n > 0 || Lower(w) != "percent") after.push_back(Lower(w));
    p = e;
  }
  // "91.8% load utilization", "48% hit rate", "22.0% percent of the CPU
  // time": a name among the words after it, of up to four words.
  for (size_t a = 0; a < after.size(); ++a) {
    std::string joined;
    for (size_t b = a; b < after.size(); ++b) {
      joined += (b == a ? "" : " ") + after[b];
      for (const auto& [w, metric] : names)
        if (Lower(w) == joined) return metric;
    }
  }
  // "utilization 91.8%", "hit rate: 48%", "Occupancy was 62%": the clause
  // before it ends with a name, at most one linking word between.
  size_t b = from;
  const size_t lim = from > 40 ? from - 40 : 0;
  while (b > lim && s[b - 1] != ',' && s[b - 1] != ';' && s[b - 1] != '(' && s[b - 1] != '|' &&
         !(s[b - 1] == '.' && b < s.size() && s[b] == ' '))
    --b;
  std::vector<std::string> words = Words(Lower(s.substr(b, from - b)));
  for (auto& w : words)
    while (!w.empty() && (w.back() == ':' || w.back() == '=' || w.back() == '*' || w.back() == '`')) w.pop_back();
  while (!words.empty() && (words.back().empty() || words.back() == "was" || words.back() == "is" ||
                            words.back() == "at" || words.back() == "of" || words.back() == "~" ||
                            words.back() == "\xE2\x89\x88"))  // "hit rate ≈ 65%"
    words.pop_back();
  if (words.empty()) return "";
  const std::string last = words.back();
  std::string two;
  if (words.size() >= 2) two.append(words[words.size() - 2]).append(1, ' ').append(last);
  // The two-word name first ("parallel efficiency" before "efficiency").
  for (const std::string& name : {two, last})
    for (const auto& [w, metric] : names)
      if (!name.empty() && Lower(w) == name) return metric;
  // "val_acc = 8.11%", "val/acc/mean@1 = 7.43%": a printed key names it by
  // one of its parts, the last that is a name.
  std::vector<std::string> parts;
  for (size_t k = 0, e = 0; k < last.size(); k = e + 1) {
    e = std::min(last.find_first_of("/_.@-", k), last.size());
    if (e > k) parts.push_back(last.substr(k, e - k));
  }
  for (auto part = parts.rbegin(); parts.size() > 1 && part != parts.rend(); ++part)
    for (const auto& [w, metric] : names)
      if (Lower(w) == *part) return metric;
  return "";
}

// The unit token after a number: up to a space, backtick, comma, ';' or ')'
// (a trailing '.' or ':' is punctuation).
std::string UnitToken(const std::string& s, size_t k) {
  // No unit is longer than this: a longer word is cut (and names no unit), so
  // a word of thousands of dash-joined numbers is not read again after each.
  constexpr size_t kMaxUnitChars = 64;
  size_t e = k;
  // "12.5秒，": a full-width comma, semicolon, stop or parenthesis ends it too.
  auto wide_stop = [&](size_t p) {
    return s.compare(p, 3, "\xEF\xBC\x8C") == 0 || s.compare(p, 3, "\xEF\xBC\x9B") == 0 ||
           s.compare(p, 3, "\xE3\x80\x82") == 0 || s.compare(p, 3, "\xEF\xBC\x89") == 0 ||
           s.compare(p, 3, "\xEF\xBC\x88") == 0;
  };
  while (e < s.size() && e - k < kMaxUnitChars && !std::isspace(static_cast<unsigned char>(s[e])) && s[e] != '`' &&
         s[e] != ',' && s[e] != ';' && s[e] != ')' && s[e] != '(' && s[e] != '|' && !wide_stop(e))
    ++e;
  std::string u = s.substr(k, e - k);
  while (!u.empty() && (u.back() == '.' || u.back() == ':')) u.pop_back();
  return u;
}

namespace {
// The units a time in parts is written in (duration_parts of
// data/reader/vocabulary.json), each with its length in seconds.
const std::map<std::string, double>& DurationUnits() {
  static const auto* units = new std::map<std::string, double>(DataNumberMap("data/reader/vocabulary.json", "duration_parts"));
  return *units;
}

// The unit glued to a part's number at `k` (letters; µ and μ too) when it is
// one of DurationUnits and ends there; its length in seconds, else 0.
double PartUnit(const std::string& s, size_t k, size_t* end) {
  size_t e = k;
  while (e < s.size() && e - k < 8 && (std::isalpha(static_cast<unsigned char>(s[e])) || static_cast<unsigned char>(s[e]) >= 0x80))
    ++e;
  if (e < s.size() && IsIdentChar(s[e]) && !std::isdigit(static_cast<unsigned char>(s[e]))) return 0;  // "3m_run"
  const auto it = DurationUnits().find(s.substr(k, e - k));
  *end = e;
  return it == DurationUnits().end() ? 0 : it->second;
}
}  // namespace

bool DurationInParts(const std::string& s, size_t at, PartsDuration* out) {
  constexpr int kMaxParts = 4;
  constexpr size_t kMaxDigits = 4;  // a part's whole number ("2h 51m 31s", "1m 44s 79ms")
  PartsDuration d;
  double last = 0;
  int parts = 0;
  bool fraction = false;  // only the last part is written with one ("1m2.500s")
  for (size_t k = at; parts < kMaxParts && !fraction; ++parts) {
    while (parts > 0 && k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
    size_t e = k;
    while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
    const size_t whole = e - k;
    fraction = e + 1 < s.size() && s[e] == '.' && std::isdigit(static_cast<unsigned char>(s[e + 1]));
    if (fraction)
      for (++e; e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]));) ++e;
    size_t unit_end = e;
    const double unit = whole == 0 || whole > kMaxDigits ? 0 : PartUnit(s, e, &unit_end);
    if (unit == 0 || (last > 0 && unit >= last)) break;
    d.seconds += std::stod(s.substr(k, e - k)) * unit;
    d.last_digits = s.substr(k, e - k);
    if (parts == 0) d.first_unit = unit;
    last = unit, d.end = k = unit_end;
  }
  if (parts < 2) return false;
  const int unit_decimals = last >= 1 ? 0 : static_cast<int>(std::lround(-std::log10(last)));
  d.decimals = WrittenDecimals(d.last_digits) + unit_decimals, d.hours = d.first_unit >= 3600;
  *out = d;
  return true;
}

bool CommaGrouped(std::string* text) {
  std::string& t = *text;
  bool changed = false;
  for (size_t i = 0; i < t.size();) {
    if (!std::isdigit(static_cast<unsigned char>(t[i])) || (i > 0 && (IsIdentChar(t[i - 1]) || t[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t lead = i;
    while (lead < t.size() && std::isdigit(static_cast<unsigned char>(t[lead]))) ++lead;
    const char sep = lead < t.size() ? t[lead] : '\0';
    size_t end = lead, groups = 0;
    if (lead - i <= 3 && (sep == '_' || sep == '\''))
      while (end + 3 < t.size() && t[end] == sep && std::isdigit(static_cast<unsigned char>(t[end + 1])) &&
             std::isdigit(static_cast<unsigned char>(t[end + 2])) && std::isdigit(static_cast<unsigned char>(t[end + 3])) &&
             !(end + 4 < t.size() && std::isdigit(static_cast<unsigned char>(t[end + 4]))))
        end += 4, ++groups;
    if (groups > 0 && !(end < t.size() && t[end] == sep)) {
      for (size_t k = lead; k < end; k += 4) t[k] = ',';
      changed = true;
    }
    i = std::max(end, lead);
  }
  return changed;
}

// The word (letters, digits, '-', '_') starting at p after spaces, backticks
// and '*', and where it ends. At most 24 characters are read.
std::string WordAt(const std::string& s, size_t p, size_t* end) {
  while (p < s.size() && (s[p] == ' ' || s[p] == '`' || s[p] == '*')) ++p;
  size_t e = p;
  while (e < s.size() && e - p < 24 && IsIdentChar(s[e])) ++e;
  *end = e;
  return s.substr(p, e - p);
}

// A word that may stand between a percentage and the "MFU" it is
// ("21.8% median MFU", "22.3% tail-30 median MFU", "19% steady BF16 MFU").
bool MfuQualifier(const std::string& w) {
  static const std::set<std::string> k = {"mean", "median", "avg", "average", "p10", "p50", "p90", "p95", "p99",
                                          "min", "max", "best", "worst", "steady", "steady-state", "full-run",
                                          "BF16", "bf16", "FP8", "fp8", "GB200", "B200", "H100", "model", "hardware"};
  return k.count(w) > 0 || w.rfind("tail", 0) == 0;
}

// True when "MFU" qualifies the percentage written at [from, to): right
// after it, past at most three qualifier words ("21.8% median MFU"), or
// right before it ("MFU 21.8%", "MFU: 21.8%", "p50 MFU was 21.05%").
// Bounded: a few short words either side are looked at.
bool MfuQualifies(const std::string& s, size_t from, size_t to) {
  size_t p = to;
  for (int n = 0; n < 4; ++n) {
    size_t e = p;
    const std::string w = WordAt(s, p, &e);
    if (w == "MFU") return true;
    if (!MfuQualifier(w)) break;
    p = e;
  }
  size_t b = from;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*' || s[b - 1] == ':' || s[b - 1] == '=' ||
                   s[b - 1] == '~'))
    --b;
  if (b >= 3 && s.compare(b - 3, 3, "MFU") == 0) return true;
  size_t w = b;
  while (w > 0 && b - w < 24 && IsIdentChar(s[w - 1])) --w;
  static const std::set<std::string> link = {"was", "is", "of", "at", "reached", "hit", "stays", "stayed", "remains"};
  if (link.count(s.substr(w, b - w))) {
    size_t m = w;
    while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '`' || s[m - 1] == '*')) --m;
    if (m >= 3 && s.compare(m - 3, 3, "MFU") == 0) return true;
  }
  // "Two MFU samples had a 6.70% median": MFU is the subject of the clause
  // the percentage ends, and no other number stands between them.
  for (size_t c = from, lim = from > 60 ? from - 60 : 0; c > lim; --c) {
    const char ch = s[c - 1];
    if (ch == ',' || ch == ';' || ch == ':' || std::isdigit(static_cast<unsigned char>(ch)) ||
        (ch == '.' && c < s.size() && s[c] == ' '))
      return false;
    if (c >= 3 && s.compare(c - 3, 3, "MFU") == 0 && (c - 3 == 0 || !IsIdentChar(s[c - 4]))) return true;
  }
  return false;
}

// Whether a verb of measuring (measured_verbs of vocabulary.json) stands in
// the clause before `b` ("p99 measured < 1 ms", "stayed < 2 ms").
static bool MeasuredBefore(const std::string& s, size_t b) {
  size_t c = b;
  while (c > 0 && b - c < 80 && s[c - 1] != ',' && s[c - 1] != ';' && s[c - 1] != '(' && s[c - 1] != '\n' &&
         !(s[c - 1] == '.' && c < s.size() && s[c] == ' '))
    --c;
  const auto& verbs = ReaderLexicon().measured_verbs;
  for (const auto& w : Words(s.substr(c, b - c)))
    if (verbs.count(Lower(w))) return true;
  return false;
}

// A bound mark (bound_marks of vocabulary.json) right before the figure at
// `at` ("<500ms", "≥ 2.5 s", ">= 90 fps", "for >15 tokens/sec"), no verb of
// measuring before it in its clause; an arrow ("->", "=>") or the end of an
// HTML tag ("<br>19.4 s") is none.
// Whether a figure's word ends right before `at`, blanks aside: a word
// that opens with a digit ("21.23s", "4 ms" ends in "ms" after "4").
static bool FigureEndsAt(const std::string& s, size_t at) {
  size_t e = at;
  while (e > 0 && s[e - 1] == ' ') --e;
  size_t b = e;
  while (b > 0 && s[b - 1] != ' ') --b;
  if (b < e && std::isdigit(static_cast<unsigned char>(s[b]))) return true;
  if (b == e || b == 0) return false;
  size_t pb = b - 1;  // "4 ms >": the word before the unit is the number
  while (pb > 0 && s[pb - 1] != ' ') --pb;
  UnitInfo u{};
  return std::isdigit(static_cast<unsigned char>(s[pb])) && AnyUnit(s.substr(b, e - b), &u);
}

bool BoundMarkBefore(const std::string& s, size_t at) {
  size_t b = at;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '~' || s[b - 1] == '*' || s[b - 1] == '`')) --b;
  for (const auto& mark : ReaderLexicon().bound_marks) {
    if (b < mark.size() || s.compare(b - mark.size(), mark.size(), mark) != 0) continue;
    const size_t m = b - mark.size();
    const char before = m > 0 ? s[m - 1] : ' ';
    if (mark == ">" && (before == '-' || before == '=' || std::isalnum(static_cast<unsigned char>(before)) || before == '"'))
      continue;
    if (mark == "<" && (before == '<' || before == '-' || before == '=')) continue;
    if (FigureEndsAt(s, m)) continue;  // "21.23s > 22.05s": two figures compared, no bound
    return !MeasuredBefore(s, m);
  }
  return false;
}

// A word of bound_words_after (vocabulary.json) right after a figure's unit
// ending at `at` ("4 ms or less", "2 ms 以下", "5ms 이하", "3 s or more"):
// the figure bounds what a run may take, a claim or a goal, no reading.
// Whether one of `words` (lower case) is written right after `at`.
static bool WordsAfter(const std::set<std::string>& words, const std::string& s, size_t at) {
  size_t p = at;
  while (p < s.size() && (s[p] == ' ' || s[p] == '*' || s[p] == '`')) ++p;
  const std::string rest = Lower(s.substr(p, 24));
  return std::any_of(words.begin(), words.end(), [&rest](const std::string& w) {
    return rest.compare(0, w.size(), w) == 0 &&
           (rest.size() == w.size() || !std::isalnum(static_cast<unsigned char>(rest[w.size()])));
  });
}

bool BoundWordAfter(const std::string& s, size_t at) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "bound_words_after"));
  return WordsAfter(*words, s, at);
}

bool ProgressWordAfter(const std::string& s, size_t at) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "progress_words_after"));
  return WordsAfter(*words, s, at);
}

// A goal or threshold names the number after it, it records no run: "at
// least 30%", "at or below 3%", "within 1% of control", "target 30%",
// "goal of 30%", "Goal: 2 ms", "p99 < 500ms". Looks at the two words before `at`.
bool ThresholdBefore(const std::string& s, size_t at) {
  static const auto* k = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "threshold_leads"));
  size_t b = at;
  bool colon = false;  // "slower than EP16: 37.28 ms": past a colon only the word before it ("target: 20 ms") counts
  for (int n = 0; n < 2; ++n) {
    while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*' || s[b - 1] == ':' || s[b - 1] == '~')) {
      --b;
      if (s[b] == ':') colon = true;
    }
    size_t w = b;
    while (w > 0 && b - w < 24 && IsIdentChar(s[w - 1])) --w;
    if (w == b) return false;
    if (k->count(Lower(s.substr(w, b - w)))) return true;
    if (colon) return false;
    b = w;
  }
  return false;
}

// In a logbook that measures MFU, a bare percentage ending its clause
// ("mean was 21.067%,") is MFU unless its sentence names another share
// ("drop was 1.784%", "contributed 23.20%", "84% JAX memory fraction").
bool PercentClauseIsMfu(const std::string& s, size_t from, size_t to) {
  size_t p = to;
  while (p < s.size() && (s[p] == ' ' || s[p] == '`' || s[p] == '*')) ++p;
  if (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p]))) {
    // "84% JAX memory fraction" names what it is a share of; "13.2 % at EP2"
    // and "21.1% vs 20.9%" end the figure.
    size_t e = p;
    static const std::set<std::string> ends = {"at", "vs", "and", "on", "in", "with", "for", "after", "then"};
    if (!ends.count(WordAt(s, p, &e))) return false;
  }
  const size_t a = from > 40 ? from - 40 : 0;
  size_t c = from;  // back to the start of the clause, at most 40 characters
  while (c > a && s[c - 1] != ',' && s[c - 1] != ';' && s[c - 1] != '.' && s[c - 1] != ':') --c;
  const std::string clause = s.substr(c, from - c);
  for (const char* w : {"drop", "fraction", "share", "contribut", "loss", "of ", "retries", "utili"})
    if (clause.find(w) != std::string::npos) return false;
  return true;
}

// The word right before position `at` (spaces, backticks and '*' skipped),
// and where it starts.
std::string WordBefore(const std::string& s, size_t at, size_t* begin) {
  size_t b = at;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*')) --b;
  const size_t e = b;
  while (b > 0 && IsIdentChar(s[b - 1])) --b;
  // "the L4's 121 TFLOPS": a possessive's "s" names nothing; its possessor does.
  if (e - b == 1 && s[b] == 's') {
    const size_t ap = b > 0 && s[b - 1] == '\'' ? 1 : b >= 3 && s.compare(b - 3, 3, "\xE2\x80\x99") == 0 ? 3 : 0;
    if (ap > 0) {
      const size_t pe = b - ap;
      b = pe;
      while (b > 0 && IsIdentChar(s[b - 1])) --b;
      if (begin) *begin = b;
      return s.substr(b, pe - b);
    }
  }
  if (begin) *begin = b;
  return s.substr(b, e - b);
}

// "->" or "→" at p: its length, else 0.
size_t ArrowAt(const std::string& s, size_t p) {
  if (s.compare(p, 2, "->") == 0) return 2;
  if (s.compare(p, 3, "\xE2\x86\x92") == 0) return 3;
  return 0;
}

// The unit of the number after an arrow ("96.1 -> fp8wire 56.5 ms"): what a
// bare number before the arrow is measured in. "" when none. Bounded: one
// word and one number are looked at.
std::string ArrowUnit(const std::string& s, size_t p) {
  const size_t a = ArrowAt(s, p);
  if (a == 0) return "";
  size_t q = p + a;
  auto skip = [&] { while (q < s.size() && (s[q] == ' ' || s[q] == '`' || s[q] == '*')) ++q; };
  skip();
  if (q < s.size() && IsIdentStart(s[q])) {
    while (q < s.size() && IsIdentChar(s[q])) ++q;
    skip();
  }
  const size_t d = q;
  while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == '.' || s[q] == ',')) ++q;
  if (q == d) return "";
  skip();
  std::string unit = UnitToken(s, q);
  // "14.71→14.82 (+0.11 pp)": percentage points say both are percentages.
  if (unit.empty() && q < s.size() && s[q] == '(') {
    size_t r = q + 1;
    if (r < s.size() && (s[r] == '+' || s[r] == '-')) ++r;
    while (r < s.size() && (std::isdigit(static_cast<unsigned char>(s[r])) || s[r] == '.')) ++r;
    while (r < s.size() && s[r] == ' ') ++r;
    if (s.compare(r, 2, "pp") == 0) return "%";
  }
  return unit;
}

// Right after a list of figures' unit: "at EP2/4/8" pairs each with a value
// of one key (ep=2, ep=4, ep=8). Empty unless there are exactly `n` values.
std::vector<std::pair<std::string, std::string>> AtList(const std::string& s, size_t p, size_t n) {
  while (p < s.size() && (s[p] == ' ' || s[p] == '`')) ++p;
  if (s.compare(p, 3, "at ") != 0) return {};
  p += 3;
  while (p < s.size() && (s[p] == ' ' || s[p] == '`')) ++p;
  size_t k = p;
  while (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k]))) ++k;
  const std::string key = s.substr(p, k - p);
  if (key.empty() || key.size() > 16) return {};
  std::vector<std::pair<std::string, std::string>> out;
  while (k < s.size() && out.size() <= n) {
    const size_t d = k;
    while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
    if (k == d) return {};
    out.emplace_back(NormalizeKey(key), s.substr(d, k - d));
    if (k >= s.size() || s[k] != '/') break;
    ++k;
  }
  if (out.size() != n) return {};
  return out;
}

// A number ending at `j` is followed by " / " and another number: one of
// a list of figures sharing the last one's unit ("13.2 / 13.1 / 12.8 %").
// Where the next number starts, or npos. "33/64" (no space) is a fraction.
size_t ListNext(const std::string& s, size_t j) {
  size_t k = j;
  while (k < s.size() && s[k] == ' ') ++k;
  if (k >= s.size() || s[k] != '/') return std::string::npos;
  size_t r = k + 1;
  const bool spaced = k > j || (r < s.size() && s[r] == ' ');
  while (r < s.size() && s[r] == ' ') ++r;
  if (!spaced || r >= s.size() || !std::isdigit(static_cast<unsigned char>(s[r]))) return std::string::npos;
  return r;
}

// Words before a bare number that make it no figure: an exit code, a job
// number, a count ("exit code `0`", "job `50102`", "count: `4301`").
bool CountWord(const std::string& w) { return ReaderLexicon().count_words.count(w) > 0; }

// A percentile's name by its form: "p" and its rank, 1 to 99 with any
// decimals ("p75", "p99.9") or nines only ("p999", "p9999"). Not "p4" nor
// "p100" (device names).
bool PercentileName(const std::string& w) {
  if (w.size() < 3 || w[0] != 'p') return false;
  const size_t dot = w.find('.');
  const std::string rank = w.substr(1, dot == std::string::npos ? std::string::npos : dot - 1);
  if (rank.size() < 2 || !std::all_of(rank.begin(), rank.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  if (dot != std::string::npos &&
      (dot + 1 == w.size() || !std::all_of(w.begin() + static_cast<long>(dot) + 1, w.end(),
                                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })))
    return false;
  const bool nines = rank.find_first_not_of('9') == std::string::npos;
  return rank.size() == 2 ? rank != "00" : nines && dot == std::string::npos;
}

// A statistic named before a metric word ("mean MFU 20.21%", "p50 MFU",
// any percentile: PercentileName).
bool StatWord(const std::string& w) { return ReaderLexicon().statistic_words.count(w) > 0 || PercentileName(w); }

bool MetricWord(const std::string& w) { return ReaderLexicon().metric_words.count(w) > 0; }

// Whether a bullet or its sub-bullets name TF/s.
bool NamesTflops(const Bullet& b) {
  if (b.text.find("TF/s") != std::string::npos || b.text.find("TFLOP") != std::string::npos ||
      b.text.find("tflops") != std::string::npos)
    return true;
  for (const auto& c : b.children)
    if (NamesTflops(c)) return true;
  return false;
}

// Whether a bullet or its sub-bullets contain `word`.
bool BulletHas(const Bullet& b, const char* word) {
  if (b.text.find(word) != std::string::npos) return true;
  for (const auto& c : b.children)
    if (BulletHas(c, word)) return true;
  return false;
}

// Connectives, verbs and adverbs are no names ("had 21.8%", "about 64.7M
// tok/s"): no key rather than a junk one.
bool NoName(const std::string& w) {
  static const std::set<std::string> kStop = {
        "vs",     "and",     "or",      "at",      "with",     "to",        "of",       "is",     "from",
        "was",    "by",      "least",   "most",    "below",    "above",     "within",   "about",  "around",
        "roughly", "approximately", "nearly", "almost", "only", "just", "had", "has", "have", "were", "are",
        "be",     "been",    "contributed", "reached", "gave", "gives", "got", "hit", "showed", "shows",
        "measured", "The",   "the",     "a",       "an",       "A",         "An",       "independent", "totaled",
        "still",  "now",     "then",    "also",    "over",     "under",     "than",     "remains", "remained",
        "stays",  "stayed",  "became",  "yields",  "yielded",  "reaches",   "hits",     "in",     "on",
        "for",    "after",   "before",  "as",      "into",     "across",    "per",      "each",   "every",
        "averaged", "reported", "recorded", "logged", "measures", "took", "takes", "ran", "runs",
        "versus", "against", "it", "this", "these", "we", "they", "which", "its", "their", "our",
        "says",   "said",    "say",     "reports", "prints",  "printed",   "gets",     "needs",  "costs"};
  return w.empty() || !IsIdentStart(w[0]) || kStop.count(w) > 0 ||
         (std::isupper(static_cast<unsigned char>(w[0])) && kStop.count(Lower(w)) > 0);
}

// Figures in the text after a bullet's label. A number followed by a unit
// is a figure of that unit's metric; a bare number is TF/s when
// `bare_is_tflops` (the modeled harness prints TF/s), else no figure.
// Signed percentages are deltas and "1.8x" speedups (both derived);
// "42% MFU" is MFU. Inside parentheses only derived figures count (they
// qualify the figure before them). Not figures: fractions ("33/64"),
// numbers named as counts or codes ("exit code `0`"), a test run's time.
// "a -> b unit": both in the unit, named by their words, else "before" and
// "after". A statistic word names the metric ("mean MFU" -> mfu_mean).
// Linear: every branch steps past what it reads.
// The unit a `key=value` figure's key names ("time_s=0.0179", "tokens_per_s=1,832,938",
// "tflops=238.6"); empty for other keys ("pack=0.0042", "k=2": no figure).
// A key that sets a bound or a schedule ("timeout", "max_wait_s",
// "warmup"): its value is no measurement.
bool SettingKey(const std::string& key) {
  const std::string k = Lower(key);
  for (const char* w : {"timeout", "limit", "budget", "interval", "warmup", "sleep", "deadline", "wait", "max", "min"})
    if (k.find(w) != std::string::npos) return true;
  return false;
}

std::string KeyUnit(const std::string& key) {
  static const std::map<std::string, std::string> k = {
      {"time_s", "s"},          {"time_ms", "ms"},      {"time_us", "us"},       {"step_time_s", "s"},
      {"tokens_per_s", "tokens/s"}, {"tok_per_s", "tokens/s"}, {"tokens_s", "tokens/s"}, {"tok_s", "tokens/s"},
      {"tokens_per_sec", "tokens/s"}, {"tflops", "TF/s"}, {"tf_s", "TF/s"}};
  auto it = k.find(NormalizeKey(key));
  return it == k.end() ? "" : it->second;
}

// The digits of a number from `*j` on, with its thousands separators and
// decimal point ("1,832,938", "0.0179"); `*j` moves past them.
std::string DigitsAt(const std::string& s, size_t* j) {
  const size_t start = *j;
  std::string num;
  while (*j < s.size() && (std::isdigit(static_cast<unsigned char>(s[*j])) || s[*j] == ',' || s[*j] == '.')) {
    if ((s[*j] == ',' || s[*j] == '.') && !(*j + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[*j + 1]))))
      break;
    num += s[(*j)++];
  }
  if (num.empty()) return num;
  // In prose an exponent is a figure's only with its unit ("1.285e-05 s"; "loss went from 1e+00" is none),
  // or after a kernel's numerical error's name ("max diff: 1.71e-03").
  const size_t k = ExponentEnd(s, *j);
  size_t u = k < s.size() && s[k] == ' ' ? k + 1 : k;
  UnitInfo info{};
  if (k == *j) return num;
  const bool named = (s.find_first_not_of(" `*") == start || QualityBefore(s, start).find('_') != std::string::npos) &&
                     num.find('.') != std::string::npos;  // a label's value ("max diff: 1.71e-03") too
  if (!named && (u >= s.size() || (s[u] != '%' && !AnyUnit(UnitToken(s, u), &info)))) return num;
  num += s.substr(*j, k - *j);
  *j = k;
  return num;
}

size_t ExponentEnd(const std::string& s, size_t j) {
  auto digit = [&](size_t k) { return k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])); };
  if (j >= s.size() || (s[j] != 'e' && s[j] != 'E')) return j;
  size_t k = j + 1;
  if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
  if (!digit(k)) return j;
  while (digit(k)) ++k;
  UnitInfo glued{};
  if (k < s.size() && IsIdentChar(s[k]) && !AnyUnit(UnitToken(s, k), &glued)) return j;  // "1.2e-05s" has its unit
  return k;
}

// "full `210.201`, prequeue `277.222` TF/s": after a number ending at `j`, a
// comma and a word and the next number: where that number starts, else npos.
size_t CommaListNext(const std::string& s, size_t j) {
  size_t k = j;
  while (k < s.size() && (s[k] == ' ' || s[k] == '`')) ++k;
  if (k >= s.size() || s[k] != ',') return std::string::npos;
  size_t e = k + 1;
  // "`88.412`, `88.440`, `88.397` ms": numbers alone, the unit after the last.
  // A time in parts after the comma ("Job 2583679, 2h53m") shares no unit.
  PartsDuration parts;
  for (size_t d = e; k + 1 < s.size() && s[k + 1] == ' ' && d < s.size() && d < k + 8; ++d)
    if (std::isdigit(static_cast<unsigned char>(s[d]))) return DurationInParts(s, d, &parts) ? std::string::npos : d;
    else if (s[d] != ' ' && s[d] != '`' && s[d] != '*') break;
  const std::string w = WordAt(s, k + 1, &e);
  while (e < s.size() && (s[e] == ' ' || s[e] == '`' || s[e] == '*')) ++e;
  if (w.empty() || !IsIdentStart(w[0]) || e >= s.size() || !std::isdigit(static_cast<unsigned char>(s[e])))
    return std::string::npos;
  return e;
}

}  // namespace reader

}  // namespace moelog::logbook
