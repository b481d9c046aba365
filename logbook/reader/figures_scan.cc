#include "engine/format.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_fromto.h"
#include "logbook/reader/figures_shares.h"
#include "logbook/reader/figures_slash.h"
#include "logbook/reader/figures_spread.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook {

namespace reader {

// "ring 13.2 / 13.1 / 12.8 % at EP2/4/8": the numbers `listed` before the
// figure `f` (read as `value`) take its unit, each paired with its value of
// the key after "at" (if as many); a comma list's numbers keep their words.
void ShareListUnit(const std::string& s, size_t i, double value, bool comma_list,
                   const std::vector<Listed>& listed, Figure* f, std::vector<Figure>* out) {
  const auto at = AtList(s, i, listed.size() + 1);
  const double ratio = f->value / value;
  const std::string first = listed.front().word;
  for (size_t n = 0; n < listed.size(); ++n) {
    Figure m = *f;
    m.value = listed[n].value * ratio;
    m.decimals = f->decimals < 0 ? -1 : listed[n].decimals;  // "13.2 / 13.1 %": as written
    m.list = f->list;
    m.word = comma_list ? listed[n].word : MetricWord(first) || NoName(first) ? "" : first;
    if (!at.empty()) m.named[at[n].first] = at[n].second;
    out->push_back(m);
  }
  if (!at.empty()) f->named[at.back().first] = at.back().second;
  if (f->word.empty() && !MetricWord(first) && !NoName(first) && !comma_list) f->word = first;
}

// "linger.ms=5", "batch.size=64KB": whether the key ending at `eq`, its last
// part starting at `b`, is a dotted property's name (a setting's, no figure's).
bool DottedKey(const std::string& s, size_t b, size_t eq) {
  if (b == 0 || s[b - 1] != '.') return false;
  size_t pb = b - 1;
  while (pb > 0 && (IsIdentChar(s[pb - 1]) || s[pb - 1] == '.')) --pb;
  const std::string dotted = s.substr(pb, eq - pb);
  return DottedProperty(dotted) && dotted.find_first_of("0123456789") == std::string::npos;
}

// "`time_s=0.017877`": the figure a key=value word states in the unit its key
// names (thousands separators read), or false. `eq` is the '=' before the number.
bool KeyValueFigure(const std::string& s, size_t eq, size_t* end, Figure* f) {
  size_t b = eq;
  while (b > 0 && IsIdentChar(s[b - 1])) --b;
  const std::string key = s.substr(b, eq - b);
  if (DottedKey(s, b, eq)) return false;
  std::string unit = KeyUnit(key);
  // "avg_step_ms=20.4"; "s=128" names a parameter by one letter, no unit.
  if (unit.empty() && !SettingKey(key) && key.size() > 1) unit = PrintedKeyUnit(key);
  size_t j = eq + 1;
  // "reward=-16.53": a sign only before a score's figure (a unit's would be a change).
  const bool negative = j + 1 < s.size() && s[j] == '-' && UnitlessMetricName(key) && KeyUnit(key).empty();
  if (negative) ++j;
  const std::string num = DigitsAt(s, &j);
  // "`steady_state_time=0.0341s`", "`latency=3.2ms`": the unit glued to the
  // value names it, unless the key is a setting ("timeout=60s").
  std::string glued_unit;
  if (UnitInfo glued{}; unit.empty() && j < s.size() && IsIdentStart(s[j]) && !SettingKey(key) &&
                        UnitOf(UnitToken(s, j), &glued) && !glued.derived) {
    unit = glued_unit = UnitToken(s, j);
    j += unit.size();
  }
  // "`avg=1.188 H/s`", "median=3.1 ms": a statistic or metric assigned its
  // figure, the unit after one space.
  if (UnitInfo spaced{}; unit.empty() && j + 1 < s.size() && s[j] == ' ' && IsIdentStart(s[j + 1]) &&
                         (StatisticWord(key) || MetricWord(key)) && UnitOf(UnitToken(s, j + 1), &spaced) &&
                         !spaced.derived) {
    unit = UnitToken(s, j + 1);
    j += 1 + unit.size();
    if (StatisticWord(key)) f->named["statistic"] = Lower(key);
  }
  *end = j;
  // "rs.65=6.45ms", "all-gather.389=6.29ms", ".317=7.22ms": a key that is an
  // op's or a buffer's name (a number or a point in it), not a metric's,
  // names the figure's run; its unit is the one glued to the value.
  size_t nb = b;
  while (nb > 0 && (IsIdentChar(s[nb - 1]) || s[nb - 1] == '.')) --nb;
  if (const std::string name = s.substr(nb, eq - nb);
      !glued_unit.empty() && name.find_first_of("0123456789.") != std::string::npos && KeyUnit(name).empty() &&
      !UnitlessMetricName(SnakeKey(name)) && !StatisticWord(name) && !MetricWord(name) && name.size() <= 64)
    f->named["name"] = name;
  UnitInfo info{};
  const auto v = ParseNumber(num);
  if (unit.empty() && v && !(j < s.size() && IsIdentChar(s[j])) && UnitlessMetricName(key)) {
    // "speedup=28.52": a harness's own score, a figure without a unit.
    f->metric = SnakeKey(key), f->unit = "", f->derived = false, f->value = negative ? -*v : *v;
    f->decimals = WrittenDecimals(num);
    return true;
  }
  if (negative || unit.empty() || !v || (j < s.size() && IsIdentChar(s[j])) || !UnitOf(unit, &info)) return false;
  f->metric = info.metric, f->unit = unit, f->derived = false;
  f->value = ToStored(*v, info.factor);
  f->decimals = WrittenDecimals(num);
  return true;
}

// A word that counts what a statistic before it is of ("min cycles", "max
// ops"): letters only, plural, no connective. Not "min to", "min total".
bool PluralNoun(const std::string& w) {
  if (w.size() < 4 || w.back() != 's' || !std::all_of(w.begin(), w.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) != 0;
      }))
    return false;
  static const std::set<std::string> not_nouns = {"less", "was", "is", "has", "its", "this", "thus", "plus", "across", "versus", "unless"};
  return !not_nouns.count(Lower(w));
}

// Whether the number at `i` is followed by a unit the reader knows ("81 ms").
bool UnitAfterDigits(const std::string& s, size_t i) {
  size_t j = i;
  DigitsAt(s, &j);
  while (j < s.size() && s[j] == ' ') ++j;
  UnitInfo info{};
  return j > i && AnyUnit(UnitToken(s, j), &info);
}

UnitRead ReadUnit(const std::string& s, size_t j) {
  UnitRead u;
  size_t k = j, mag = 0;
  if (const double m = MagnitudeAt(s, k, &mag); mag > 0) u.scale = m, u.magnitude = s.substr(k, mag), k += mag;
  UnitInfo probe{};
  if (k + 1 < s.size() && s[k] == '-' && IsIdentStart(s[k + 1]) && UnitOf(UnitToken(s, k + 1), &probe)) ++k;
  // "60-81 ms": a range's lower end, its unit the upper end's.
  if (k + 1 < s.size() && s[k] == '-' && std::isdigit(static_cast<unsigned char>(s[k + 1])) && UnitAfterDigits(s, k + 1)) {
    u.at = k;
    return u;
  }
  u.glued = k < s.size() && IsIdentChar(s[k]);
  while (k < s.size() && (s[k] == ' ' || s[k] == '`')) ++k;
  u.unit = UnitToken(s, k);
  if (StatWord(u.unit)) {
    size_t n = k + u.unit.size();
    while (n < s.size() && (s[n] == ' ' || s[n] == '`')) ++n;
    if (UnitOf(UnitToken(s, n), &probe) || PluralNoun(UnitToken(s, n)))
      u.statistic = u.unit, k = n, u.unit = UnitToken(s, n);  // "1211 min cycles": a minimum of cycles, no minutes
  }
  u.at = k;
  u.len = u.unit.size();
  u.before_arrow = ArrowAt(s, k) > 0;
  u.own = (!u.unit.empty() && u.unit[0] == '%') || UnitOf(u.unit, &probe);
  return u;
}

// A number right after an arrow ("14.71→14.82") takes the unit of the
// figure before the arrow.
bool AfterArrow(const std::string& s, size_t start) {
  size_t a = start;
  while (a > 0 && s[a - 1] == ' ') --a;
  return (a >= 2 && ArrowAt(s, a - 2) == 2) || (a >= 3 && ArrowAt(s, a - 3) == 3);
}

// A percentage written as a change ("improves by 21.3%", "28.8% relative",
// "12.7% faster"): a delta, never the metric itself.
bool ChangeOf(const std::string& s, size_t start, size_t end) {
  if (Lower(WordBefore(s, start)) == "by") return true;
  // "19% speedup", "12% regression": change_directions of table.json (a ledger's words too).
  static const auto* after = new std::set<std::string>(DataWords("data/reader/table.json", "change_directions"));
  size_t e = end;
  const std::string w = Lower(WordAt(s, end, &e));
  return w == "relative" || after->count(w) > 0;
}

// A percentage: a delta when signed, MFU when MFU qualifies it (or the
// logbook measures MFU and its clause names no other share), else no figure.
// "21.4→22.9 % peak", "48% of peak": a share of a peak, no MFU. Looks at
// the first '%' within 40 characters after `start` and the words after it.
bool PercentOfPeak(const std::string& s, size_t start) {
  const size_t pct = s.find('%', start);
  if (pct == std::string::npos || pct > start + 40) return false;
  size_t e = 0;
  std::string w = Lower(WordAt(s, pct + 1, &e));
  if (w == "of") w = Lower(WordAt(s, e, &e));
  return w == "peak";
}

// The share a field's name names ("CPU", "CPU usage": field_percent_metrics
// of data/reader/vocabulary.json), or "".
std::string FieldPercentMetric(const std::string& label) {
  static const auto* names = new std::map<std::string, std::string>(DataWordMap("data/reader/vocabulary.json", "field_percent_metrics"));
  const std::string t = parse_detail::Trim(label);
  const auto it = names->find(Lower(t));
  if (it != names->end()) return it->second;
  // "accuracy:", "4B score:": a share or score the vocabulary names at the label's end (percent_metrics).
  return PercentMetric(t + " ", t.size() + 1, t.size() + 1);
}

bool PercentFigure(const std::string& s, size_t start, const UnitRead& u, double value, bool sign, bool negative,
                   const ScanMode& mode, size_t* i, Figure* f) {
  *i = std::max(*i, u.at + 1);
  // "91.8% load utilization", "hit rate 48%", "3.8% of peak": a share the vocabulary names.
  std::string named = sign ? "" : PercentMetric(s, start, u.at + 1);
  if (named.empty() && !sign && !mode.label.empty() && s.find_first_not_of(" *`", 0) == start) {  // "- CPU: 22.8%": its field names it
    named = FieldPercentMetric(mode.label);
    if (named.empty() && mode.label_shares) named = "value_pct";  // "2B base: 65.1%" among its list's like items
  }
  if (!sign && named.empty() && PercentOfPeak(s, start)) return false;
  if (sign || ChangeOf(s, start, u.at + u.unit.size())) {
    f->metric = "delta_pct", f->unit = std::string(1, '%'), f->derived = true;  // (a literal trips GCC 12's -Wrestrict here)
  } else if (ThresholdBefore(s, start)) {
    return false;
  } else if (MfuQualifies(s, start, u.at + u.unit.size()) ||
             (mode.percent_is_mfu && PercentClauseIsMfu(s, start, u.at + u.unit.size()))) {
    f->metric = "mfu", f->unit = std::string(1, '%');
  } else if (!named.empty()) {
    f->metric = named, f->unit = std::string(1, '%');
    f->derived = ReaderLexicon().derived_percent_metrics.count(named) > 0;  // "90% scaling efficiency"
  } else {
    return false;
  }
  f->value = (negative ? -1 : 1) * value;
  return true;
}

// A number followed by a unit moelog knows ("3.12 ms", "1.2M tok/s").
bool UnitFigure(const std::string& s, size_t start, const UnitRead& u, const UnitInfo& info, double value,
                size_t* i, Figure* f) {
  if (u.scale != 1 && info.derived) return false;
  f->metric = info.metric, f->unit = u.unit, f->derived = info.derived;
  // "3.5M tok/s": in the unit "M tok/s", its digits as written.
  if (u.scale != 1) f->unit = u.magnitude + " " + u.unit;
  // ms and us divide by an exact power of ten ("3.12 ms" is 0.00312 s).
  f->value = ToStored(value * u.scale, info.factor);
  *i = u.at + u.len;
  if (const char* why = NoFigureWhy(s, start, u, f->metric)) {
    f->not_run = why;  // told why, never kept (ScanNumber)
    return false;
  }
  if (!u.statistic.empty()) f->named["statistic"] = u.statistic;
  return true;
}

// A number with no unit after it: TF/s where the harness prints TF/s, a
// reported value whose unit the caller decides ("none `252.091`"), or none.
bool BareFigure(const std::string& s, size_t start, size_t j, const UnitRead& u, double value, const ScanMode& mode,
                size_t* i, Figure* f) {
  if (u.glued || u.scale != 1) {
    while (*i < s.size() && IsIdentChar(s[*i])) ++*i;  // "4GiB", "128MiB"
    return false;
  }
  if (std::string q = u.before_arrow || AfterArrow(s, start) ? "" : BareQuality(s, start, mode);
      !q.empty() && !ThresholdBefore(s, start)) {
    f->metric = std::move(q), f->value = value, f->unit.clear();
    return true;
  }
  if (!u.unit.empty() && std::isalpha(static_cast<unsigned char>(u.unit[0])) && u.unit != "vs")
    return false;  // another word (GiB, steps, dropped ...): no figure
  if (mode.bare_is_tflops && !CountWord(WordBefore(s, start))) {
    f->metric = "tflops", f->value = value;
    return true;
  }
  if (start > 0 && s[start - 1] == '`' && j < s.size() && s[j] == '`' && !CountWord(WordBefore(s, start)) &&
      !ThresholdBefore(s, start)) {
    // "none `252.091`": a reported value written without a unit. The
    // caller names its metric or lists it ("no unit").
    f->metric = kNoUnit, f->value = value;
    return true;
  }
  if ((u.before_arrow || AfterArrow(s, start)) && !CountWord(WordBefore(s, start)) &&
      (!mode.prose || mode.carry.empty())) {
    // "d2048 14.71→14.82" with no unit anywhere: a change of something, listed "no unit".
    f->metric = kNoUnit, f->value = value;
    return true;
  }
  if (mode.prose && !mode.carry.empty() && !CountWord(WordBefore(s, start)) && !ThresholdBefore(s, start)) {
    // "fp8gemm 92.2": perhaps in the unit of the figure before it; the
    // caller keeps it only when a value of the entry's keys names it.
    f->metric = kCarried, f->unit = mode.carry, f->value = value;
    return true;
  }
  return false;
}

bool FigureUnit(const std::string& s, size_t start, size_t j, double value, bool sign, bool negative,
                const ScanMode& mode, int arrow_left, const std::string& arrow_unit, size_t* i, Figure* f,
                std::string* unit_out, bool* before_arrow) {
  UnitRead u = ReadUnit(s, j);
  *before_arrow = u.before_arrow;
  if (u.before_arrow && !u.own) {
    u.unit = ArrowUnit(s, u.at);  // "96.1 -> fp8wire 56.5 ms": ms
    u.len = 0;
  } else if (!u.own && arrow_left >= 0 && !sign && !arrow_unit.empty() && AfterArrow(s, start)) {
    u.unit = arrow_unit;  // "14.71→14.82 (+0.11 pp)": the unit of the figure before the arrow
    u.len = 0;
  } else if (!u.own && !sign && !u.glued) {
    if (std::string vs = VersusUnit(s, u.at); !vs.empty()) u.unit = vs, u.len = 0;  // "9.4 vs 9.45s": s
    else if (vs = FromToUnit(s, start, u.at); !vs.empty()) u.unit = vs, u.len = 0;  // "from 7227.42 to 7472.93 tokens/sec"
  }
  *unit_out = u.unit.empty() && mode.prose ? mode.carry : u.unit;
  if (!u.unit.empty() && u.unit[0] == '%') return PercentFigure(s, start, u, value, sign, negative, mode, i, f);
  if (sign) return false;  // a signed number that is no percentage
  UnitInfo info{};
  // "peak 41.2 GB": a unit that needs its context finds it in the clause
  // before it, or in the key the clause is the value of ("Power: 158W").
  size_t cb = ClauseStart(s, start, false);
  if (cb > 0 && s[cb - 1] == ':') cb = ClauseStart(s, cb - 1, false);
  const std::string before = mode.label + " " + s.substr(cb, start - cb);
  if (!u.unit.empty() && (UnitOfIn(u.unit, before, &info) || UnitNamedAfter(u.unit, s, u.at + u.len, before, &info)))
    return UnitFigure(s, start, u, info, value, i, f);
  if (!u.unit.empty() && RatedUnit(u.unit, before)) {
    f->not_run = "a device's rating or limit (power envelope, slot supplies ...), not a reading";  // told why, never kept
    return false;
  }
  return BareFigure(s, start, j, u, value, mode, i, f);
}

// The word that names a figure (the identifier before it, unless it names a
// metric or nothing), and its side of an arrow ("bf16 96.1 -> fp8wire 56.5").
bool NameFigure(const std::string& s, size_t start, int arrow_left, std::vector<Figure>* out, Figure* f) {
  size_t b = start;
  std::string word = WordBefore(s, start, &b);
  bool stat_named = false;
  if (StatWord(Lower(word)) && !f->derived && !f->named.count("statistic")) {
    // "`xla_sum` median 0.48 ms": the statistic names the figure's metric
    // statistic, the word before it the run.
    f->named["statistic"] = Lower(word);
    word = WordBefore(s, b, &b);
  }
  if (MetricWord(word)) {
    // "mean MFU 20.21%": the statistic names the metric, not a run.
    const std::string stat = WordBefore(s, b);
    if (StatWord(stat) && !f->derived) f->metric += "_" + stat, stat_named = true;
    word.clear();
  }
  if (!f->derived && !NoName(word) && (b == 0 || s[b - 1] != '/'))
    f->word = word;
  size_t q = word.empty() ? start : b;
  while (q > 0 && (s[q - 1] == ' ' || s[q - 1] == '`' || s[q - 1] == '*' || s[q - 1] == '~')) --q;  // "~485ms → ~156ms"
  const bool after_arrow = (q >= 2 && ArrowAt(s, q - 2) == 2) || (q >= 3 && ArrowAt(s, q - 3) == 3);
  if (after_arrow && arrow_left >= 0 && !f->derived) {
    // "bf16 96.1 -> fp8wire 56.5": their words; "d2560 14.71→14.82": the
    // word names both, the arrow's sides tell them apart.
    Figure& left = (*out)[static_cast<size_t>(arrow_left)];
    if (f->word.empty() || left.word.empty()) {
      if (f->word.empty()) f->word = left.word;
      left.named["arrow"] = "before", f->named["arrow"] = "after";
    }
  }
  return stat_named;
}

// Where the clause (`sentence`: the sentence) holding position `at` starts:
// after the previous ", ", ';', ':' (a sentence: ". " or ';'), at most
// 200 characters back. Bounded, so the scan stays linear.
size_t ClauseStart(const std::string& s, size_t at, bool sentence) {
  const size_t lim = at > 200 ? at - 200 : 0;
  size_t c = at;
  for (; c > lim; --c) {
    const char ch = s[c - 1];
    const bool spaced = c < s.size() && s[c] == ' ';
    if ((ch == '.' && spaced) || ch == ';') break;
    if (!sentence && ((ch == ',' && spaced) || ch == ':')) break;
  }
  return c;
}

// A statistic's word: "mean", "median", "p50", "tail-100".
bool StatisticWord(const std::string& w) {
  const std::string l = Lower(w);
  return StatWord(l) || (l.rfind("tail-", 0) == 0 && l.size() > 5 && std::isdigit(static_cast<unsigned char>(l[5])));
}

// A run's version tag as researchers name runs in prose ("v156"): 'v'
// and at least two digits ("h1024" is a shape, "v5" a harness version).
bool RunTag(const std::string& w) {
  return w.size() >= 4 && w[0] == 'v' &&
         std::all_of(w.begin() + 1, w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A clause's word that names no run: verbs, statistics, metric and window
// words ("control median MFU over steps 5-19 was" leaves "control").
bool SubjectFiller(const std::string& w, bool prose) {
  // In prose a number format names a run ("With fp8 the step takes 27.7 ms").
  static const std::set<std::string> dtype = {"bf16", "fp8", "fp16", "fp32", "int8", "int4"};
  if (prose && dtype.count(Lower(w))) return false;
  static const std::set<std::string> k = {"steps", "step", "window", "averaged", "over", "final", "runs", "takes",
                                          "ran", "median", "full-run", "samples", "sample", "two", "both", "run",
                                          "went", "dropped", "fell", "rose", "improved", "moved", "changed", "grew",
                                          "increased", "decreased", "goes", "time"};
  UnitInfo unit{};
  return NoName(w) || StatisticWord(w) || MetricWord(w) || MfuQualifier(Lower(w)) || k.count(Lower(w)) > 0 ||
         !IsIdentStart(w[0]) || UnitOf(w, &unit) || !std::all_of(w.begin(), w.end(), IsIdentChar);
}

// What the words around a figure name beyond the word before it: the
// statistic of its clause ("mean was 21.067%", "25.5% tail-100 median MFU"),
// the step window of its sentence ("Steps 60-79 averaged ..."), the run its
// clause is about ("treatment was 22.865%", "`dw13` at 7.23 ms"), and
// whether its sentence restates earlier work. `end`: past the figure's unit.
// The words of the clause before a figure at `start` that come after the
// clause's last figure and the words qualifying it ("19.1% tail-40 median MFU
// and 19.0% ..." leaves "and").
std::vector<std::string> ClauseWords(const std::string& s, size_t start) {
  const size_t cb = ClauseStart(s, start, false);
  std::vector<std::string> clause = Words(s.substr(cb, start - cb));
  for (size_t n = clause.size(); n > 0; --n)
    if (std::isdigit(static_cast<unsigned char>(clause[n - 1][0])) &&
        (clause[n - 1].find('.') != std::string::npos || clause[n - 1].back() == '%')) {
      clause.erase(clause.begin(), clause.begin() + static_cast<std::ptrdiff_t>(n));
      UnitInfo unit{};  // and the words that qualify that figure ("tail-40 median MFU")
      while (!clause.empty() && (StatisticWord(clause[0]) || MfuQualifier(clause[0]) || MetricWord(clause[0]) ||
                                 UnitOf(clause[0], &unit)))
        clause.erase(clause.begin());
      if (clause.size() >= 2 && clause[0] == "at") clause.erase(clause.begin(), clause.begin() + 2);  // "... at EP8 and"
      break;
    }
  return clause;
}

// The statistic words of a figure's clause, or those right after its unit
// ("25.5% tail-100 median MFU"); `end`: past the figure's unit.
std::string ClauseStatistic(const std::string& s, const std::vector<std::string>& clause, size_t end) {
  std::string stat;
  auto add = [&stat](const std::string& w) {
    if (!stat.empty()) stat += ' ';
    stat += Lower(w);
  };
  for (const auto& w : clause)
    if (StatisticWord(w)) add(w);
  const bool clause_stat = !stat.empty();
  for (size_t p = end, n = 0; !clause_stat && n < 3; ++n) {
    size_t e = p;
    const std::string w = WordAt(s, p, &e);
    if (w.empty() || !(StatisticWord(w) || MfuQualifier(w))) break;
    if (StatisticWord(w)) add(w);
    p = e;
  }
  return stat;
}

// What the sentence before a figure at `start` says of it: where it starts,
// the run tag it opens with, whether it restates earlier work or is
// hypothetical (prose), its step window ("Steps 60-79 averaged ..."). The
// sentence's words.
std::vector<std::string> SentenceMarks(const std::string& s, size_t start, bool prose, Figure* f) {
  const size_t sb = ClauseStart(s, start, true);
  f->sentence = sb;
  const std::vector<std::string> sentence = Words(s.substr(sb, start - sb));
  if (!sentence.empty() && RunTag(sentence[0])) f->run_tag = sentence[0];
  if (prose && !sentence.empty() && prose::AdviceLead(sentence[0]))
    f->not_run = "advice (use ..., prefer ...): what it promises, not a run";
  for (size_t n = 0; n < sentence.size(); ++n) {
    if (prose::EstimateWord(sentence[n])) f->not_run = "an estimate (estimated, projected ...), not a measurement";
    else if (ReferenceWord(sentence[n])) f->refers = true;
    else if (RestatingWord(sentence[n])) f->restated = true;
    if (prose && prose::HypotheticalWord(sentence[n])) f->not_run = "hypothetical (would, if, ideal ...), not a run";
    if (prose && prose::FutureWord(sentence[n])) f->not_run = "what the entry will run or measure (will ...): it has not run";
    if (prose::GoalWord(sentence[n])) f->not_run = "goals or expectations (should, target ...), not a run";
    if (Lower(sentence[n]) != "steps" || n + 1 >= sentence.size()) continue;
    std::string r = sentence[n + 1];
    while (!r.empty() && (r.back() == ',' || r.back() == ':')) r.pop_back();
    const size_t dash = r.find('-');
    if (dash != std::string::npos && dash > 0 && dash + 1 < r.size() &&
        std::all_of(r.begin(), r.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '-'; }))
      f->named["steps"] = r;
  }
  return sentence;
}

// The run a figure's clause is about, as its word: "treatment was 22.865%",
// "`dw13` at 7.23 ms", the one naming word of the clause, or the sentence's
// subject before a verb of a run's outcome ("P1 finished at loss 5.14, ...,
// and 192,583 tok/s").
void ClauseSubject(const std::vector<std::string>& clause, const std::vector<std::string>& sentence, bool prose,
                   Figure* f) {
  static const std::set<std::string> link = {"at", "was", "is", "were", "had", "took"};
  if (clause.size() >= 2 && link.count(clause.back()) && !SubjectFiller(clause[clause.size() - 2], prose)) {
    f->word = clause[clause.size() - 2];
    f->subject = true;
    return;
  }
  std::vector<std::string> names;
  for (const auto& w : clause) {
    std::string c = w;
    while (!c.empty() && (c.back() == ',' || c.back() == ':' || c.back() == '.')) c.pop_back();
    if (!c.empty() && !SubjectFiller(c, prose)) names.push_back(c);
  }
  if (names.size() == 1 && names[0].size() <= 24) f->word = names[0], f->subject = true;
  static const std::set<std::string> outcome = {"finished", "ran", "reached", "completed", "ended", "achieved"};
  for (size_t n = 1; f->word.empty() && n < sentence.size() && n < 12; ++n)
    if (outcome.count(Lower(sentence[n]))) {
      std::string w = sentence[n - 1];
      while (!w.empty() && (w.back() == ',' || w.back() == ':')) w.pop_back();
      if (!w.empty() && w.size() <= 24 && !SubjectFiller(w, prose) && std::all_of(w.begin(), w.end(), IsIdentChar))
        f->word = w, f->subject = true;
      break;
    }
}

void ClauseNames(const std::string& s, size_t start, size_t end, bool stat_named, Figure* f, bool prose) {
  const std::vector<std::string> clause = ClauseWords(s, start);
  const std::string stat = ClauseStatistic(s, clause, end);
  if (!stat.empty() && !stat_named && !f->derived && !f->named.count("statistic")) f->named["statistic"] = stat;
  const std::vector<std::string> sentence = SentenceMarks(s, start, prose, f);
  if (f->derived || (!f->word.empty() && !NamesOwnMetric(f->word, f->metric))) return;
  f->word.clear();  // "P1 finished at loss 5.17": "loss" names the metric, the subject the run
  ClauseSubject(clause, sentence, prose, f);
}

std::string FigureText(const std::string& text) {
  if (text.size() <= kMaxFigureText) return text;
  size_t n = kMaxFigureText;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

// "12.1-12.9 ms": a hyphen between two numbers, no space around it, joins
// them as a range (a sign is written after a space or a bracket).
bool HyphenRange(const std::string& s, size_t start) {
  return start >= 2 && s[start - 1] == '-' && std::isdigit(static_cast<unsigned char>(s[start - 2]));
}

// A number glued to a word or '=' ("topk8", "v5p", "k=2", "1e+00") is no
// figure, unless a key names its unit ("time_s=0.0179"). True when the
// number at `st.i` was such and the scan stepped past it. The scan always
// steps past the character it stands on ('+' is no identifier character),
// so every loop here is linear.
bool GluedNumber(FigureScan& st, bool sign) {
  const std::string& s = st.s;
  size_t& i = st.i;
  if (Figure kv; (!sign || s[i] == '-') && i > 0 && s[i - 1] == '=' && st.depth == 0) {
    size_t end = i + 1;
    if (KeyValueFigure(s, i - 1, &end, &kv)) {
      st.listed.clear(), st.comma_list = false, st.list_next = std::string::npos, st.arrow_left = -1;
      // ".317=7.22ms" after "all-gather.389=6.29ms": the name's stem is the one before it.
      if (auto n = kv.named.find("name"); n != kv.named.end() && n->second[0] == '.')
        for (auto it = st.out.rbegin(); it != st.out.rend(); ++it)
          if (auto prev = it->named.find("name"); prev != it->named.end() && prev->second.rfind('.') != std::string::npos) {
            n->second = prev->second.substr(0, prev->second.rfind('.')) + n->second;
            break;
          }
      st.out.push_back(kv);  // named by its key, not by the word before it
    }
    i = std::max(i + 1, end);
    while (i < s.size() && (IsIdentChar(s[i]) || s[i] == '.')) ++i;
    return true;
  }
  if (i > 0 && (IsIdentChar(s[i - 1]) || s[i - 1] == '=' || s[i - 1] == '.' || s[i - 1] == '/' || s[i - 1] == '@') &&
      !(HyphenRange(s, i) && UnitAfterDigits(s, i))) {
    ++i;
    while (i < s.size() && (IsIdentChar(s[i]) || s[i] == '.')) ++i;
    return true;
  }
  return false;
}

// A number that waits for a unit written after a later one: "13.2 / 13.1 /
// 12.8 %", "full `210.201`, prequeue `277.222` TF/s" (each named by its own
// word). True when it was listed and the scan moved to the next number.
bool ListedNumber(FigureScan& st, size_t start, size_t j, double value, bool sign) {
  const std::string& s = st.s;
  // "RTX 4090, 1008 GB/s": the number of a device's name is no value at all.
  if (const std::string num = s.substr(start, j - start), word = WordBefore(s, start);
      !sign && !word.empty() && AcceleratorIn(num).empty() && !AcceleratorIn(word + " " + num).empty()) {
    st.i = j;
    return true;
  }
  if (start != st.list_next) st.listed.clear(), st.comma_list = false;  // the list ended without a unit: no figures
  st.list_next = std::string::npos;
  if (const size_t next = sign ? std::string::npos : ListNext(s, j); next != std::string::npos && st.depth == 0) {
    if (st.comma_list) st.listed.clear(), st.comma_list = false;
    st.listed.push_back({value, st.listed.empty() ? WordBefore(s, start) : "", WrittenDecimals(s.substr(start, j - start))});
    st.list_next = st.i = next;
    return true;
  }
  // "ppl 12.4, loss 2.51": a quality's number is named, it waits for no unit.
  if (const size_t e = !sign && st.depth == 0 && QualityBefore(s, start).empty() ? CommaListNext(s, j) : std::string::npos;
      e != std::string::npos && (st.listed.empty() || st.comma_list)) {
    const std::string named = WordBefore(s, start);
    st.listed.push_back({value, NoName(named) ? "" : named, WrittenDecimals(s.substr(start, j - start))});
    st.comma_list = true;
    st.list_next = st.i = e;
    return true;
  }
  return false;
}

// An arrow right after a figure's unit ("12.3 ms -> 10.1 ms"); `at` is past the unit.
bool ArrowAfterUnit(const std::string& s, size_t at) {
  while (at < s.size() && (s[at] == ' ' || s[at] == '`' || s[at] == '*')) ++at;
  return at < s.size() && ArrowAt(s, at) > 0;
}

// An estimate word in the few words after a figure's unit ("~35 minutes by
// my estimate"); `at` is past the unit. Bounded: six words.
bool EstimateAfter(const std::string& s, size_t at) {
  for (size_t p = at, n = 0; n < 6 && p < s.size(); ++n) {
    size_t e = p;
    const std::string w = WordAt(s, p, &e);
    if (e <= p) break;
    if (prose::EstimateWord(w)) return true;
    if (e < s.size() && (s[e] == '.' || s[e] == ';' || s[e] == ',')) break;
    p = e;
  }
  return false;
}

// What prose says of a figure beyond the words before it: a name after its
// unit ("13.6 s eager", "27.6 ms (fp8)", "31.3 ms in bf16") where none before
// it names it, an estimate ("~36 ms"), what a clause says it is a value of
// ("ragged backend = 96.2 ms"), and "from 31.2 ms to 27.9 ms" as before/after.
void ProseNames(FigureScan& st, size_t start, Figure* f) {
  const std::string& s = st.s;
  UnitInfo probe{};
  if (!f->word.empty() && SubjectFiller(f->word, true)) f->word.clear();  // "Throughput step 12.3 ms"
  if (f->word.empty() || f->subject)
    if (std::string post = prose::PostfixName(s, st.i);
        !post.empty() && !NoName(post) && !MetricWord(post) && !StatisticWord(post) && !UnitOf(post, &probe))
      f->word = post, f->subject = false;
  // "~2.2 ms" is a measurement written roughly; "~35 minutes by my estimate" a projection.
  if (prose::Estimate(s, start) && EstimateAfter(s, st.i)) f->not_run = "an estimate (\"~\"), not a measurement";
  size_t rough = start;  // past "~" ("spending ~10.5s")
  while (rough > 0 && (s[rough - 1] == '~' || s[rough - 1] == ' ')) --rough;
  const std::string spent = Lower(WordBefore(s, rough));  // "spending ~10.5s moving data": a share of a run
  const bool and_share = spent == "and" && !st.out.empty() && st.out.back().sentence == f->sentence &&
                         st.out.back().not_run != nullptr && std::strncmp(st.out.back().not_run, "a part", 6) == 0;
  if (prose::PartOf(s, st.i) || prose::WholeOf(s, start) || spent == "spending" || spent == "spent" ||
      spent == "spends" || and_share)
    f->not_run = "a part of a whole (\"X ms of a Y ms step\"), not a run";
  const size_t cb = ClauseStart(s, start, false);
  for (const auto& [k, v] : prose::NounPairs(s.substr(cb, start - cb))) f->named.emplace(k, v);
}

// "from 560 us to 545 us": the two figures of one change, before and after,
// in prose as in a bullet.
void FromTo(FigureScan& st, size_t start, Figure* f) {
  const std::string& s = st.s;
  const std::string before = Lower(WordBefore(s, start));
  // "Down to 2.9ms from 3.4ms": the figure after "to" is where the change ended.
  if (before == "from" && st.to_figure >= 0 && static_cast<size_t>(st.to_figure) < st.out.size()) {
    Figure& to = st.out[static_cast<size_t>(st.to_figure)];
    st.to_figure = -1;
    if (to.metric == f->metric && to.sentence == f->sentence && !to.named.count("arrow")) {
      if (f->word.empty() || f->word == to.word) f->word = to.word, f->subject = to.subject;
      to.named["arrow"] = "after", f->named["arrow"] = "before";
      return;
    }
  }
  if (before == "to" && st.from_figure < 0) st.to_figure = static_cast<int>(st.out.size());
  if (before == "from") st.from_figure = static_cast<int>(st.out.size());
  if (before != "to" || st.from_figure < 0 || static_cast<size_t>(st.from_figure) >= st.out.size()) return;
  Figure& from = st.out[static_cast<size_t>(st.from_figure)];
  st.from_figure = -1;
  if (from.metric != f->metric || from.sentence != f->sentence) return;
  if (f->word.empty() || f->word == from.word) f->word = from.word, f->subject = from.subject;
  from.named["arrow"] = "before", f->named["arrow"] = "after";
}

// The code a profiler's share of time is spent in ("48% of the CPU time is
// spent in cudaStreamSynchronize", "... creating a stream
// (cudaStreamCreate)"): the first word after `at` written as code (camelCase,
// snake_case or a call "f()"), within 160 characters; "" when none.
std::string CodeName(const std::string& s, size_t at) {
  const size_t end = std::min(s.size(), at + 160);
  for (size_t p = at; p < end;) {
    while (p < end && !IsIdentStart(s[p])) ++p;
    size_t e = p;
    while (e < s.size() && (IsIdentChar(s[e]) || s[e] == '.' || s[e] == ':') && e - p < 64) ++e;
    std::string w = s.substr(p, e - p);
    while (!w.empty() && (w.back() == '.' || w.back() == ':' || w.back() == '-')) w.pop_back();
    bool lower_then_upper = false, snake = false;
    for (size_t k = 1; k < w.size(); ++k) {
      lower_then_upper = lower_then_upper || (std::islower(static_cast<unsigned char>(w[k - 1])) &&
                                              std::isupper(static_cast<unsigned char>(w[k])));
      snake = snake || (w[k] == '_' && k + 1 < w.size());
    }
    const bool call = e + 1 < s.size() && s[e] == '(' && s[e + 1] == ')';
    if (w.size() >= 3 && (lower_then_upper || snake || call)) return w;
    p = std::max(e, p + 1);
  }
  return "";
}

// A figure read: named by its words, paired with the list waiting for its
// unit or with the key values after it ("0.95 % at EP2"), and kept.
void KeepFigure(FigureScan& st, Figure f, size_t start, double value, const std::string& unit, bool before_arrow,
                const std::string& num) {
  const std::string& s = st.s;
  UnitInfo probe{};
  f.decimals = f.decimals == -2 ? -1 : WrittenDecimals(num);
  ClauseNames(s, start, st.i, NameFigure(s, start, st.arrow_left, &st.out, &f), &f, st.mode.prose);
  // The last number of a " / " list: its clause's subject names no one number of it.
  if (f.subject && !st.listed.empty() && !f.derived) f.word.clear(), f.subject = false;
  if (!f.derived) f.restated = f.restated || prose::RestatingAround(s, start, st.i);  // "the 13.9 ms forward"
  if (st.mode.prose && !f.derived) ProseNames(st, start, &f);
  // "maybe 5-10 us", "probably ~2 ms": a guess (hedge_words of vocabulary.json).
  static const auto* hedges = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "hedge_words"));
  if (!f.derived && hedges->count(LeadWord(s, start))) f.not_run = "a guess (hedged: \"maybe\", \"probably\" ...), not a measurement";
  if (!st.mode.prose && !f.derived && f.word.empty() && f.named.empty())
    if (std::string post = prose::PostfixName(s, st.i); !post.empty() && !NoName(post) && !MetricWord(post) &&
                                                        !StatisticWord(post) && !UnitOf(post, &probe))
      f.word = post;  // "~3.8 us launch overhead vs 51 us kernel"
  if (!f.derived) FromTo(st, start, &f);
  VersusSides(st, start, &f);
  f.comma_repeat = CommaRepeat(st, start, f);
  if (ListSummary(st, start, f)) f.metric = QualifiedMetricName("mean", f.metric);
  st.companions = 0;
  if (f.metric == "time_share_pct" && f.word.empty()) f.word = CodeName(s, st.i);
  if (UnitInfo u{}; st.mode.prose && !f.derived && !f.not_run && f.metric != kCarried && UnitOf(f.unit, &u)) st.mode.carry = f.unit;
  // "12.3 ms -> 10.1 ms": an arrow after the unit pairs it with the next figure.
  before_arrow = before_arrow || ArrowAfterUnit(s, st.i);
  SpeedupScores(st, start, before_arrow, &f);
  st.last_end = st.i;
  st.arrow_left = before_arrow && !f.derived ? static_cast<int>(st.out.size()) : -1;
  st.arrow_unit = before_arrow && !f.derived ? unit : "";
  if (!st.listed.empty() && !f.derived && value != 0) {
    f.list = st.lists++;
    ShareListUnit(s, st.i, value, st.comma_list, st.listed, &f, &st.out);
    st.listed.clear();
    st.comma_list = false;
  } else if (!f.derived) {
    for (const auto& [k, v] : AtList(s, st.i, 1)) f.named[k] = v;
  }
  st.out.push_back(f);
}

// "4.1x slower than ring", "2.7x off the floor": a factor that is no
// speedup of the run it follows.
bool SpeedupOfNoRun(const std::string& s, size_t at) {
  size_t e = 0;
  const std::string w = Lower(WordAt(s, at, &e));
  return w == "slower" || w == "off" || w == "short" || w == "away" || w == "behind";
}

// The lower end of a range whose upper end `f` (written `num`) starts at
// `start`: the figure read right before the gap (of f's metric, or a number
// without a unit: `*replace` is then set), else the number written there, in
// f's unit. Into `low`: its value and written decimals. False when no
// number ends the gap (the range is then no figure).
struct RangeLow {
  double value = 0;
  int decimals = -1;
  bool replace = false;
  bool approximate = false;  // "~30-60 ms", "about 2-4 s": a guess at what a run takes
};

// Whether an approximation ("~", "≈", a word of approximation_words) stands
// right before the number that starts at `n`.
bool ApproximateBefore(const std::string& s, size_t n) {
  static const auto* approx = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "approximation_words"));
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '`' || s[n - 1] == '*')) --n;
  if (n > 0 && s[n - 1] == '~') return true;
  if (n >= 3 && s.compare(n - 3, 3, "\xE2\x89\x88") == 0) return true;
  return approx->count(Lower(WordBefore(s, n))) > 0;
}
bool RangeEnds(const FigureScan& st, size_t start, const std::string& num, const Figure& f, RangeLow* low) {
  const std::string& s = st.s;
  size_t p = start;
  while (p > 0 && (s[p - 1] == ' ' || s[p - 1] == '~' || s[p - 1] == '`' || s[p - 1] == '*')) --p;
  if (p >= 3 && s.compare(p - 3, 3, "\xE2\x80\x93") == 0) p -= 3;
  else if (p >= 1 && s[p - 1] == '-') p -= 1;
  else if (p >= 2 && Lower(s.substr(p - 2, 2)) == "to") p -= 2;
  else if (p >= 3 && Lower(s.substr(p - 3, 3)) == "and") p -= 3;
  else return false;
  size_t u = p;  // past the lower end's own unit ("119 seconds to"), at most 12 characters
  while (u > 0 && (s[u - 1] == ' ' || s[u - 1] == '`' || s[u - 1] == '*' || s[u - 1] == '~')) --u;
  for (size_t k = 0; k < 12 && u > 0 && !std::isdigit(static_cast<unsigned char>(s[u - 1])) && s[u - 1] != ' '; ++k) --u;
  while (u > 0 && s[u - 1] == ' ') --u;
  size_t n = u;
  while (n > 0 && (std::isdigit(static_cast<unsigned char>(s[n - 1])) || s[n - 1] == '.' || s[n - 1] == ',')) --n;
  const auto lo = n < u ? ParseNumber(s.substr(n, u - n)) : std::nullopt;
  const auto hi = ParseNumber(num);
  if (!lo || !hi || *hi == 0 || *lo > *hi) return false;
  low->value = f.value * (*lo / *hi);
  low->decimals = WrittenDecimals(s.substr(n, u - n));
  low->approximate = ApproximateBefore(s, n);
  if (!st.out.empty() && st.last_end != std::string::npos && st.last_end >= u && st.last_end <= start) {
    const Figure& prev = st.out.back();  // read already: with its own unit ("17.22% to 17.29%") or none
    const bool bare = prev.unit.empty() || prev.metric == kNoUnit || prev.metric == kCarried;
    if (prev.metric != f.metric && !bare) return false;
    if (!bare) low->value = prev.value, low->decimals = prev.decimals;
    low->replace = true;
  }
  return true;
}

// Whether a range's ends are written with decimals and lie within half of
// the lower one of each other ("~4.24-4.28 ms/op", "~12.7-13.9 MB/op"): the
// spread of repeats an author measured, not a guess ("~50-100 ms").
static bool MeasuredSpread(const RangeLow& low, const Figure& f, const std::string& num) {
  if (low.decimals <= 0 || num.find('.') == std::string::npos) return false;
  const double lo = std::abs(low.value), hi = std::abs(f.value);
  return lo > 0 && hi >= lo && hi <= 1.5 * lo;
}

// The range's two ends, after its upper end was kept: the lower end (named
// as the upper is) goes before it, each a statistic of one measurement.
void KeepRangeLow(FigureScan& st, const RangeLow& low) {
  if (st.out.empty()) return;
  Figure lower = st.out.back();
  lower.value = low.value, lower.decimals = low.decimals;
  lower.named["statistic"] = "min";
  st.out.back().named["statistic"] = "max";
  lower.range = st.out.back().range = true;
  if (low.replace && st.out.size() >= 2) st.out.erase(st.out.end() - 2);
  st.out.insert(st.out.end() - 1, lower);
}

// Whether the figure at `start` goes on with the change before it in one
// clause ("added ~3s to compress and ~2s to decompress"): "and"/"or" before
// it, no sentence or clause end since that figure.
static bool DeltaContinues(const FigureScan& st, size_t start) {
  if (st.delta_end == std::string::npos || start <= st.delta_end || start - st.delta_end > 80) return false;
  const std::string lead = LeadWord(st.s, start);
  if (lead != "and" && lead != "or") return false;
  return st.s.find_first_of(".;:\n", st.delta_end) >= start;
}

// "3m 04s", "1h 12m": one figure of their sum (seconds, or minutes when
// hours lead), named like any other. A time that starts under a minute
// ("44s 79ms") is no such figure in prose. True when read.
bool PartsDurationFigure(FigureScan& st, size_t start) {
  PartsDuration d;
  if (!DurationInParts(st.s, start, &d) || d.first_unit < 60) return false;
  Figure f;
  f.value = d.seconds, f.metric = d.hours ? "wall_time_s" : "time_s", f.unit = d.hours ? "min" : "s";
  st.i = d.end;
  KeepFigure(st, f, start, d.seconds, f.unit, false, d.hours ? d.last_digits : Fixed(d.seconds, d.decimals));
  return true;
}

// The number at st.i (`sign`: written with one): a fraction ("33/64") or a
// listed value waits or is skipped; a figure with its unit is kept, an aside
// in parentheses joins the figure before it. st.i moves past what was read.
// What the words around a figure say makes it no run's: a difference of
// two runs, what a change adds, a worked-out number, a bound.
static void NoRunMarks(FigureScan& st, size_t start, Figure* f) {
  const std::string& s = st.s;
  if (!f->derived && DifferenceAfter(s, st.i)) f->not_run = "a difference of two runs (smaller, faster ...), not one run's figure";
  if (!f->derived && (DeltaLead(s, start) || DeltaContinues(st, start) || ChangeLabelBefore(s, start))) {
    f->not_run = "what a change adds or saves (adds, saves ...), not one run's figure";
    st.delta_end = st.i;
  }
  if (!f->derived && (ComputedFigure(s, start) || OperandFigure(s, start, st.i)))
    f->not_run = "computed from the numbers before \"=\" or \"\u2248\", not a measurement";
  if (BoundMarkBefore(s, start)) f->not_run = "a bound (written after <, >, \u2264 or \u2265): a claim, a goal or a limit, not a reading";
  if (BoundWordAfter(s, st.i)) f->not_run = "a bound (written before or less, or more, \u4ee5\u4e0b ...): a claim or a goal, not a reading";
  if (f->unit == "%" && ProgressWordAfter(s, st.i)) f->not_run = "a running job's progress (84% complete), not a result";
}

void ScanNumber(FigureScan& st, bool sign) {
  const std::string& s = st.s;
  size_t& i = st.i;
  const char c = s[i];
  size_t j = i + (sign ? 1 : 0);
  const std::string num = DigitsAt(s, &j);
  const size_t start = i;
  i = j;
  // "33/64", "455/455": a fraction, no figure.
  if (j + 1 < s.size() && s[j] == '/' && std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
    i = j + 1;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    return;
  }
  const auto v = ParseNumber(num);
  if (v && !sign && PartsDurationFigure(st, start)) return;
  if (!v || ListedNumber(st, start, j, *v, sign)) return;
  Figure f;
  std::string unit;
  bool before_arrow = false;
  if (!FigureUnit(s, start, j, *v, sign, c == '-', st.mode, st.arrow_left, st.arrow_unit, &i, &f, &unit,
                  &before_arrow)) {
    if (f.not_run != nullptr && st.no_figure.size() < kMaxFiguresPerEntry) st.no_figure.push_back(f.not_run);
    return;
  }
  if (f.metric == "speedup" && SpeedupOfNoRun(s, i)) return;
  NoRunMarks(st, start, &f);
  // "119 to 123 seconds", "12.1–12.9 ms", "[14.2, 15.0] ms": the two ends of
  // one measurement's spread, its minimum and maximum.
  RangeLow low;
  const bool range = !f.derived && (prose::RangeEnd(s, start) || HyphenRange(s, start)) && !f.not_run;
  bool ends = range && RangeEnds(st, start, num, f, &low);
  if (range && !ends) f.not_run = "a range, not one run's figure";
  // "takes 2-3 h to build", "1-2 days": whole hours or days a task is thought to take.
  if (ends && f.metric == "wall_time_s" && low.decimals <= 0 && num.find('.') == std::string::npos)
    f.not_run = "a range of whole hours or minutes (what a task is thought to take), not a run's figure", ends = false;
  // "~50-100 ms", "about 5-8 ms": approximate guesses at what runs take (not a MeasuredSpread).
  if (ends && low.approximate && !MeasuredSpread(low, f, num))
    f.not_run = "an approximate range (what a run is thought to take), not a run's figure", ends = false;
  // Asides, but for another metric of the figure before them, and for a
  // change written in parentheses ("MFU rose (19.41% -> 20.87%)").
  const bool paren_change = st.depth > 0 && (before_arrow || ArrowAfterUnit(s, i) ||
                                             (st.arrow_left >= 0 && AfterArrow(s, start)));
  if (st.depth > 0 && !f.derived && !paren_change && !SharedAside(s, i) && !VersusSide(st, start, i, f)) {
    if (ParenCompanion(st, start, f, num)) {
      st.last_end = i;
    } else if (f.metric != kNoUnit && f.metric != kCarried && (!f.unit.empty() || QualityName(f.metric) == f.metric) && !f.not_run &&
               st.asides.size() < kMaxFiguresPerEntry) {
      // "(~3.8 us Triton vs ~4.5 us CuTe-DSL)", "(peak 38.2 GiB, 2.1 s warmup)",
      // "(max error 14.28)": an aside with a unit or a quality's name still
      // gets a fate; listed, never guessed into a run.
      f.not_run = "an aside in parentheses that no figure before it takes, not read as a run's figure";
      f.decimals = WrittenDecimals(num);
      st.asides.push_back(f);
    }
    return;
  }
  KeepFigure(st, f, start, *v, unit, before_arrow, num);
  if (ends) KeepRangeLow(st, low);
}

// "[14.2, 15.0] ms": a bracketed pair of numbers before a
// unit is a range, rewritten into `out` as "14.2–15.0 ms" (the same length:
// every position of the text holds). False when the text has none.
bool BracketRanges(const std::string& s, std::string* out) {
  bool any = false;
  for (size_t b = s.find('['); b != std::string::npos && b + 1 < s.size(); b = s.find('[', b + 1)) {
    size_t j = b + 1;
    const std::string lo = DigitsAt(s, &j);
    if (lo.empty() || j >= s.size() || s[j] != ',') continue;
    const size_t comma = j;
    size_t k = comma + 1 + (comma + 1 < s.size() && s[comma + 1] == ' ' ? 1 : 0);
    const size_t hi_at = k;
    const std::string hi = DigitsAt(s, &k);
    if (hi.empty() || k >= s.size() || s[k] != ']' || k + 1 >= s.size() || s[k + 1] != ' ') continue;
    UnitInfo info{};
    if (!AnyUnit(UnitToken(s, k + 2), &info) || info.derived) continue;
    if (hi_at != comma + 2) continue;
    if (!any) *out = s, any = true;
    const std::string pair = " " + lo + "\xE2\x80\x93" + hi;
    out->replace(b, k + 1 - b, pair);
  }
  return any;
}

namespace {
// Reads every number of st.s (Figures, NoFigureReasons).
void ScanText(FigureScan& st) {
  const std::string& s = st.s;
  size_t& i = st.i;
  while (i < s.size() && st.out.size() < kMaxFiguresPerEntry) {
    const char c = s[i];
    if (c == '(' || c == ')') {
      st.depth = c == '(' ? st.depth + 1 : std::max(0, st.depth - 1);
      st.companions = 0;
      ++i;
      continue;
    }
    const bool sign = (c == '+' || c == '-') && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) &&
                      !(c == '-' && i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1])));  // "12.1-12.9 ms"
    if (!std::isdigit(static_cast<unsigned char>(c)) && !sign) { ++i; continue; }
    if (GluedNumber(st, sign)) continue;
    ScanNumber(st, sign);
  }
}
}  // namespace

// Each minus sign (U+2212, "−33%") of `text` written as two spaces and an
// ASCII '-': the same length, so a figure's place in it stays its place in
// the text as written.
static void AsciiMinus(std::string* text) {
  for (size_t p = text->find("\xE2\x88\x92"); p != std::string::npos; p = text->find("\xE2\x88\x92", p + 3)) text->replace(p, 3, "  -");
}

std::vector<Figure> Figures(const std::string& written, bool bare_is_tflops, bool percent_is_mfu,
                            bool prose, const std::string& carry, const std::string& label, bool label_shares) {
  std::string minus_free;  // a copy only when the text writes a minus sign or digits grouped by '_' or '\''
  if (written.find("\xE2\x88\x92") != std::string::npos) minus_free = written, AsciiMinus(&minus_free);
  if (written.find_first_of("_'") != std::string::npos) {
    std::string grouped = minus_free.empty() ? written : minus_free;
    if (CommaGrouped(&grouped)) minus_free = std::move(grouped);
  }
  const std::string& text = minus_free.empty() ? written : minus_free;
  std::string bracketed, listed, shared, measured;
  const std::string& own = SpreadsDropped(text, &measured) ? measured : text;  // "550.8 ± 1.3 TFLOPS"
  if (!BracketRanges(ProfileShares(own, &shared) ? shared : own, &bracketed))  // "45.85% (13.64s / 29.75s)"
    bracketed = shared.empty() ? own : shared;
  FigureScan st(SlashFigureLists(bracketed, &listed, label) ? listed : bracketed);  // "fwd/bwd: 3.1/7.4 ms"
  st.mode.label = label;
  st.mode.label_shares = label_shares && !label.empty();
  st.mode.bare_is_tflops = bare_is_tflops, st.mode.percent_is_mfu = percent_is_mfu, st.mode.prose = prose;
  st.mode.carry = prose ? carry : "";
  ScanText(st);
  // Asides last: what is read before them (a figure's companions, lists) never sees them.
  for (auto& a : st.asides)
    if (st.out.size() < kMaxFiguresPerEntry) st.out.push_back(std::move(a));
  return std::move(st.out);
}

std::vector<std::string> NoFigureReasons(const std::string& text) {
  std::string bracketed, listed, measured;
  const std::string& own = SpreadsDropped(text, &measured) ? measured : text;
  if (!BracketRanges(own, &bracketed)) bracketed = own;
  FigureScan st(SlashFigureLists(bracketed, &listed) ? listed : bracketed);
  st.mode.bare_is_tflops = false, st.mode.prose = true;
  ScanText(st);
  std::vector<std::string> reasons;
  for (const char* why : st.no_figure)
    if (std::find(reasons.begin(), reasons.end(), why) == reasons.end()) reasons.emplace_back(why);
  return reasons;
}

}  // namespace reader

}  // namespace moelog::logbook
