#include "logbook/reader/blocks.h"
#include "logbook/reader/figures_namedlist.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_unitfield.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/table_ledger.h"
#include "logbook/reader/key_fields.h"

namespace moelog::logbook {

namespace reader {

StoredRun NewRecorded(const EntryCtx& x, const Config& context, int line) {
  StoredRun r;
  r.config = x.fixed;
  for (const auto& [k, v] : context) r.config[k] = v;
  r.entry_id = x.entry_id;
  r.source = "recorded";
  r.file = x.file;
  r.line = line;
  return r;
}

// Whether a point has a figure of its own (not only speedups or deltas).
bool HasBaseMetric(const StoredRun& r) {
  for (const auto& [m, v] : r.metrics)
    if (!r.derived.count(m)) return true;
  return LedgerChanges(r);  // a ledger's row: its changes are its record (table_ledger.h)
}

// A column that checks a run rather than naming or measuring it
// ("Checksum", "Max abs diff", "Mismatches"): neither key nor figure.
bool CheckColumn(const std::string& header) {
  const std::string h = Lower(header);
  for (const char* w : {"checksum", "abs diff", "max diff", "mismatch", "error"})
    if (h.find(w) != std::string::npos) return true;
  // "Hash:", "digest" as words; a hashmap or a hashing function is no check.
  for (const std::string w : {"hash", "digest"})
    for (size_t p = h.find(w); p != std::string::npos; p = h.find(w, p + 1))
      if ((p == 0 || !std::isalpha(static_cast<unsigned char>(h[p - 1]))) &&
          (p + w.size() >= h.size() || !std::isalpha(static_cast<unsigned char>(h[p + w.size()]))))
        return true;
  return false;
}

// A label's plain words, lower case, without code spans or parentheses
// ("shared off (`topk=8`, forward)" -> "shared off").
std::string PlainLabel(const std::string& label) {
  std::string out;
  int depth = 0;
  bool code = false;
  for (char c : label) {
    if (c == '`') code = !code;
    else if (c == '(') ++depth;
    else if (c == ')') depth = std::max(0, depth - 1);
    else if (!code && depth == 0) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return parse_detail::Trim(out);
}

// Whether the text before `end` opens with a decimal number ("0.00171, mean
// diff", the value of the label before it): a figure, never a run's name.
static bool LeadDecimal(const std::string& text, size_t end) {
  size_t i = text.find_first_not_of(" `*");
  if (i >= end || !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  while (i < end && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (!(i + 1 < end && text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 1])))) return false;
  for (++i; i < end && std::isdigit(static_cast<unsigned char>(text[i]));) ++i;
  i = std::min(ExponentEnd(text, i), end);  // "1.71e-03,"
  return i == end || text[i] == ',' || text[i] == ';' || text[i] == ' ';  // "1.3B, micro-batch 4" names a model
}

// Where a bullet's label ends: the first colon outside code that is
// followed by a space (or ends the text) after a short name ("`topk=2`:",
// "Non-EP result:"). A colon in a URL or a time ("03:06"), or after a
// sentence ("... succeeded. Steps 60-79: ..."), or after a figure, ends no
// label. npos if none.
size_t LabelEnd(const std::string& text) {
  bool in_code = false;
  int words = 0, depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`') in_code = !in_code;
    if (in_code) continue;
    // "fused 12.3 ms = 412 TF/s (comparison: 380 TF/s)": a colon in parentheses ends no label.
    if (c == '(' || c == ')') depth = c == '(' ? depth + 1 : std::max(0, depth - 1);
    if (depth > 0) continue;
    if (c == ' ' && i > 0 && text[i - 1] != ' ' && ++words > 8) return std::string::npos;
    if (c == '.' && i + 1 < text.size() && text[i + 1] == ' ') return std::string::npos;
    // "1.106 ms (412 TFLOP/s), reference: 2.538 ms": a list of figures
    // before the colon is no label (a run's name is never a list of
    // figures); a size in a name ("memset 4 KB: 2.31e-05 s") is its setting.
    if (c == ':') {
      const std::string_view before = std::string_view(text).substr(0, i);
      const bool listed = before.find(", ") != std::string_view::npos || before.find("; ") != std::string_view::npos ||
                          before.find(") ") != std::string_view::npos;
      return (i + 1 >= text.size() || text[i + 1] == ' ') && !(listed && (StatesFigure(before) || LeadDecimal(text, i)))
                 ? i
                 : std::string::npos;
    }
  }
  return std::string::npos;
}

// A label that says its percentages are shares of something ("Top kernels
// by share of GPU kernel time:", "Profile breakdown:"), not MFU.
bool NamesShares(const std::string& label) {
  const std::string l = Lower(label);
  for (const char* w : {"share", "fraction", "breakdown", "profile", "% of", "of gpu", "kernel time", "device time"})
    if (l.find(w) != std::string::npos) return true;
  return false;
}

// The metric a figure written without a unit is in: TF/s where a label
// above it, the entry or (at the scale of its own TF/s figures) the logbook
// names TF/s and nothing nearer names time; "" when nothing names it.
bool BareIsTflops(const Figure& f, const EntryCtx& x, const WalkScope& w) {
  if (w.tflops) return true;
  if (x.names_time) return false;
  if (x.tflops) return true;
  if (!x.tflops_logbook) return false;
  return x.tflops_example <= 0 || (f.value >= x.tflops_example / 100 && f.value <= x.tflops_example * 100);
}

// The config the word before a figure names: a varied value, `topk8`, a
// boolean word, a short value; a choice of a flag the command sets;
// otherwise a variant of its own.
Config WordConfig(const Figure& f, const EntryCtx& x) {
  Config named;
  std::string key, value;
  if (!f.word.empty() && (KeyDigits(f.word, x.vars, &key, &value) || BoolWord(f.word, x.vars, &key, &value) ||
                          ShortValue(x.vars, f.word, &key, &value) || LooseValue(x.vars, f.word, &key, &value))) {
    named[key] = value;
  } else if (!f.word.empty() && !IsFixedValue(x.fixed, f.word) && !ReaderLexicon().delta_words.count(Lower(f.word))) {
    // A comparison word ("2.1x faster (410 -> 862 ops/ms)") names no run.
    std::string k = KeyOfValue(x.vars, f.word);
    // A choice of a flag the command sets ("full" with `--queue-mode both`),
    // also when the command is elided (`... --queue-mode both`).
    if (k.empty() && x.fixed.count(ChoiceKey(f.word))) k = ChoiceKey(f.word);
    named[k.empty() ? "variant" : k] = f.word;
  }
  for (const auto& [k, v] : f.named) named[k] = v;  // "at EP2/4/8", an arrow's sides
  return named;
}

// "rows=2048/4096/8192: 210.5 / 305.1 / 388.7 TF/s": a label's value list
// with as many values as the bullet has unnamed figures of one metric (and no
// others of it) names each in order.
void SlashLabelList(const Config& context, const std::string& text, std::vector<Figure>* figures) {
  // Unnamed figures by metric (all of them), and each " / " list's when all of its are unnamed.
  std::map<std::string, std::vector<size_t>> unnamed;
  std::map<std::string, size_t> all;
  std::map<int, std::vector<size_t>> list;
  std::set<int> named_list;
  for (size_t i = 0; i < figures->size(); ++i) {
    const Figure& f = (*figures)[i];
    if (f.derived || f.not_run || f.restated) continue;
    ++all[f.metric];
    const bool free = f.word.empty() && f.named.empty();
    if (free) unnamed[f.metric].push_back(i);
    if (f.list >= 0) (free ? list[f.list].push_back(i) : (void)named_list.insert(f.list));
  }
  for (const auto& [id, idx] : list)
    if (!named_list.count(id)) unnamed["list " + std::to_string(id)] = idx, all["list " + std::to_string(id)] = idx.size();
  Config lists = context;
  // "... for low / center / high": the bullet's word list names a list of as many figures.
  if (const auto words = prose::ForWordList(text); !words.empty()) {
    std::string joined;
    for (const auto& w : words) joined += (joined.empty() ? "" : "/") + w;
    lists["variant"] = joined;
  }
  for (const auto& [k, v] : lists) {
    const std::vector<std::string> parts = SplitList(v, '/');
    if (parts.size() < 2 || parts.size() > 64 || v.find("//") != std::string::npos) continue;
    for (const auto& [metric, idx] : unnamed) {
      if (idx.size() != parts.size() || all[metric] != idx.size()) continue;
      for (size_t n = 0; n < idx.size(); ++n) (*figures)[idx[n]].named[k] = parts[n];
      return;
    }
  }
}

// A prose number in the unit of the figure before it ("ragged backend =
// 96.2 ms/step bf16; fp8gemm 92.2"): kept when a value of the entry's keys
// names it (its commands', its tables' columns), in that unit.
bool CarriedFigure(const EntryCtx& x, Figure* f) {
  std::string key, value;
  // "causal 2.880 -> 2.464": a change written in the paragraph's unit is one too.
  static const std::set<std::string> outcome = {"loss", "norm", "grad", "accuracy", "acc", "perplexity", "ppl",
                                                "drops", "dropped", "errors", "error", "count", "overflow", "step",
                                                "steps", "epoch", "lr", "rows", "tokens", "batch"};
  if (outcome.count(Lower(f->word))) return false;  // "loss 5.31 -> 5.02": no time, whatever came before
  const bool change = f->named.count("arrow") > 0 && !f->word.empty();
  if (!change && (f->word.empty() || (KeyOfValue(x.vars, f->word).empty() && !ShortValue(x.vars, f->word, &key, &value) &&
                                      !LooseValue(x.vars, f->word, &key, &value))))
    return false;
  UnitInfo info{};
  if (!UnitOf(f->unit, &info) || info.derived) return false;
  f->metric = info.metric;
  f->value = ToStored(f->value, info.factor);
  return true;
}

// Words that say figures repeat one configuration ("paired repeats",
// "`for rep in 1 2`", "--repeats 3", "3 trials").
bool SaysRepeats(const std::string& text) {
  const std::string l = Lower(text);
  for (const char* w : {"repeat", "for rep ", "for r in", "trials", "for trial", "reruns", "seeds"})
    if (l.find(w) != std::string::npos) return true;
  return false;
}

// Two or more unnamed figures of one metric in one point ("no_vjp: 191.837,
// 191.861, 191.897 TF/s"), where the text says runs repeat and the values lie
// within 5% of their median, or that the text lists with commas alone
// between them (`listed`: "Build time: 25.63s, 21.51s, 24.24s"): repeats of
// the point's configuration. Its
// figure becomes their median, the repeats kept beside it; otherwise the
// point clashes (nothing tells its figures apart).
void KeepRepeats(const std::string& metric, std::vector<double> later, bool listed, Point* p) {
  StoredRun* run = &p->run;
  std::vector<double> values = std::move(later);
  values.insert(values.begin(), run->metrics[metric]);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (median <= 0 || (!listed && (sorted.back() - sorted.front()) > 0.05 * median)) {
    p->clash = true;
    return;
  }
  run->metrics[metric] = median;
  run->repeats[metric] = std::move(values);
}

// A figure into its point: a metric of its own, or a second figure of one:
// two deltas tell nothing apart, a repeat (`may_repeat`) waits in `repeats`
// for KeepRepeats, anything else clashes.
void AddToPoint(const Figure& f, bool may_repeat, Point* p, std::vector<double>* repeats) {
  p->refers = p->refers || f.refers;
  if (p->run.metrics.count(f.metric)) {
    if (f.derived) {
      p->run.metrics.erase(f.metric);
    } else if (may_repeat) {
      repeats->push_back(f.value);
      if (f.decimals >= 0) p->run.decimals.emplace(f.metric, f.decimals);  // a list's unit is written last
    } else {
      p->clash = true;
    }
    return;
  }
  p->run.metrics[f.metric] = f.value;
  p->run.units[f.metric] = f.unit.empty() && f.metric == "tflops" ? "TF/s" : f.unit;
  if (f.decimals >= 0) p->run.decimals[f.metric] = f.decimals;
  if (f.derived) p->run.derived.insert(f.metric);
}

// A figure without a unit under a label that names one ("tail50 tok/sec:
// `468,782.94`"): in the label's unit.
void LabelUnit(const std::string& unit, Figure* f) {
  UnitInfo info{};
  if (!AnyUnit(unit, &info) || info.derived) return;  // its label named its context
  f->metric = info.metric;
  f->unit = unit;
  f->value = ToStored(f->value, info.factor);
}

// The metric a label names for a figure written without a unit: a quality
// of the run ("Best validation loss", "Final perplexity"; a column headed so
// holds such figures, ColumnMetric), or "".
std::string QualityOfLabel(const std::string& label) {
  std::string plain;
  for (char c : label)
    if (c != '*' && c != '`') plain += c;
  plain = parse_detail::Trim(plain);
  while (!plain.empty() && plain.back() == ':') plain.pop_back();
  if (plain.empty() || Words(plain).size() > 6) return "";
  const ColumnInfo c = ColumnMetric(plain);
  return c.metric.empty() || !c.unit.empty() || c.derived || c.metric == kNoUnit ? "" : c.metric;
}

// The figures without a unit under a label that names a quality of the run:
// the one such figure ("Best validation loss: `4.477`"), or the figures of
// one " / " list the label's slashed word names one by one ("Final
// train/val loss: `4.37` / `4.54`" is final_train_loss, final_val_loss);
// no unit. Any other figures nothing names stay unnamed ("at step `500`").
void LabelQualities(const std::string& label, const std::string& rest, std::vector<Figure>* figures) {
  std::vector<size_t> bare;
  for (size_t i = 0; i < figures->size(); ++i)
    if (const Figure& f = (*figures)[i]; f.metric == kNoUnit && f.value != 0 && !f.derived && !f.not_run) bare.push_back(i);
  // The label names the number right after it: "`5.1889` at step `500`" names no 500.
  const size_t first = rest.find_first_of("0123456789");
  size_t end = first;
  const std::string lead = first == std::string::npos ? "" : DigitsAt(rest, &end);
  const auto v = ParseNumber(lead);
  if (bare.empty() || !v || std::fabs(*v - (*figures)[bare[0]].value) > 1e-12 * std::max(1.0, std::fabs(*v))) return;
  std::vector<std::string> names;
  if (bare.size() == 1) names.push_back(QualityOfLabel(label));
  // "Validation Loss: 3.104 → 0.917": both sides of the arrow the label's quality (keyed arrow=before/after).
  if (const std::string after = Trim(rest.substr(end)); bare.size() == 2 &&
                                                        (after.rfind("\xE2\x86\x92", 0) == 0 || after.rfind("->", 0) == 0))
    names = {QualityOfLabel(label), QualityOfLabel(label)};
  const auto words = Words(label);
  for (size_t w = 0; bare.size() > 1 && names.empty() && w < words.size(); ++w) {
    const auto parts = SplitList(words[w], '/');
    if (parts.size() != bare.size() || rest.find('/') == std::string::npos) continue;
    for (const auto& part : parts) {
      auto named = words;
      named[w] = part;
      std::string joined;
      for (const auto& n : named) joined += (joined.empty() ? "" : " ") + n;
      names.push_back(QualityOfLabel(joined));
    }
  }
  if (names.size() != bare.size() || std::count(names.begin(), names.end(), std::string()) > 0) return;
  for (size_t k = 0; k < bare.size(); ++k) (*figures)[bare[k]].metric = names[k], (*figures)[bare[k]].unit.clear();
}

// A camel-case key in snake case ("scrollPassMs" -> "scroll_pass_ms"): a
// lower-case letter or digit then a capital starts a word. A key with no
// such capital stays as written.
static std::string CamelToSnake(const std::string& key) {
  std::string out;
  for (size_t i = 0; i < key.size(); ++i) {
    const unsigned char c = key[i];
    const bool starts = i > 0 && std::isupper(c) && (std::islower(static_cast<unsigned char>(key[i - 1])) ||
                                                     std::isdigit(static_cast<unsigned char>(key[i - 1])));
    if (starts) out += '_';
    out += starts ? static_cast<char>(std::tolower(c)) : key[i];
  }
  return out.find('_') == std::string::npos || key.find('_') != std::string::npos ? key : out;
}

// The unit a label names: its last word or parenthetical ("tail50 tok/sec",
// "Throughput (tok/s)"), or the label itself when it is one unit word
// ("**Cycles:** 147,734", "Tokens/s: 1,080"); "" when it names none. A
// derived unit ("x", "%") names no label's figures. A record's key with
// its unit as the last part ("runtime_sec", "elapsed_ms") names it too,
// unless it sets the run up ("timeout_sec"); so does one in camel case
// ("parseMs", "longTasks.sumMs").
std::string LabelUnitOf(const std::string& written) {
  // "`python3 t.py` -> CYCLES": the label is what the arrow points at.
  std::string label = written;
  for (const char* arrow : {"->", "=>", "\u2192"})
    if (const size_t a = label.rfind(arrow); a != std::string::npos) label = label.substr(a + std::string(arrow).size());
  ColumnInfo lc;
  if (HeaderUnit(label, &lc, &lc.metric)) return lc.unit;
  if (std::string key = Trim(label); Words(key).size() == 1) {
    key.erase(std::remove_if(key.begin(), key.end(), [](char c) { return c == '*' || c == '`' || c == ':'; }), key.end());
    std::string bare;
    UnitInfo info{};
    key = CamelToSnake(key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1));  // "longTasks.sumMs"
    if (key.find('_') != std::string::npos && !SettingKey(key))
      if (const std::string u = PrintedKeyUnit(key); !u.empty() && AnyUnit(u, &info) && !info.derived) return u;
  }
  // "tick duration ms", "event loop lag ms": a label of words ending in a unit of two letters or more.
  if (const auto words = Words(Trim(label)); words.size() >= 2 && words.size() <= 6 && words.back().size() >= 2) {
    UnitInfo info{};
    const std::string& before = words[words.size() - 2];
    const std::string last = AnyUnit(words.back(), &info) ? words.back() : Lower(words.back());  // "Total CYCLES"
    if (AnyUnit(last, &info) && !info.derived && std::isalpha(static_cast<unsigned char>(before[0])) &&
        !AnyUnit(before, &info))
      return last;
  }
  std::string w;
  for (char c : label)
    if (c != '*' && c != '_' && c != '`' && c != ':' && c != ' ') w += c;
  if (w.size() < 3 || Words(label).size() != 1) return "";
  UnitInfo info{};
  if (AnyUnit(w, &info)) return info.derived ? "" : w;
  w = Lower(w);  // "Cycles"
  return AnyUnit(w, &info) && !info.derived ? w : "";
}

// A text that starts with a plain number ("147,734", "**102,678** (1.44x
// speedup)") with the unit its label names written after that number; the
// text as it is when the number has a unit or a word glued or after it.
std::string UnitAfterLeadNumber(const std::string& rest, const std::string& unit) {
  size_t p = 0;
  while (p < rest.size() && (rest[p] == ' ' || rest[p] == '*' || rest[p] == '`')) ++p;
  const size_t start = p;
  while (p < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[p])) || rest[p] == ',' || rest[p] == '.')) ++p;
  while (p > start && (rest[p - 1] == ',' || rest[p - 1] == '.')) --p;  // "147,734." ends a sentence
  if (p == start || !std::isdigit(static_cast<unsigned char>(rest[start]))) return rest;
  size_t q = p;
  while (q < rest.size() && (rest[q] == '*' || rest[q] == '`')) ++q;
  while (q < rest.size() && rest[q] == ' ') ++q;
  if (q < rest.size() && rest[q] != '(' && rest[q] != ',' && rest[q] != ';') return rest;  // "4 cycles", "12.3k"
  return rest.substr(0, p) + " " + unit + rest.substr(p);
}

// A range's end that nothing names, among other figures of its text ("...
// but the benchmark measures 30-51 us") or under a label that named no key
// ("Tried the vendor library as a baseline: between 5.1 and 5.8 us"): no
// run's it is told of. Under a metric's name alone ("Latency: 12.1-12.9 ms")
// or no label, it is the entry's one measurement.
// How many of a text's figures are measurements ("285.0-286.6 MiB/s, ~+2.9%
// throughput": the range's two ends; the change is derived).
static size_t Measured(const std::vector<Figure>& figures) {
  return static_cast<size_t>(std::count_if(figures.begin(), figures.end(), [](const Figure& f) { return !f.derived && !f.not_run; }));
}

// Whether a label names what is measured ("measured TTFT", "decode speed"):
// a word of it is a metric's or a measured quantity's (measured_words of table.json).
static bool MeasureLabel(const std::string& label) {
  static const auto* measured = new std::set<std::string>(DataWords("data/reader/table.json", "measured_words"));
  for (const auto& w : Words(Lower(label)))
    if (MetricWord(w) || measured->count(w)) return true;
  return false;
}

// A later clause's figure of a metric the last point lacks ("TTFT 221 ms;
// TPOT 35 ms"): the point's own; one of a metric it holds is another run's.
// True when there is no point yet, too (the figure opens one).
static bool NewMetric(const Figure& f, const std::vector<Point>& points) {
  return points.empty() || (!points.back().run.metrics.empty() && !points.back().run.metrics.count(f.metric));
}

static bool UnnamedRangeEnd(const Figure& f, size_t figures, const EntryCtx& x, const WalkScope& w) {
  const std::string label = parse_detail::Trim(w.label);
  // "Result: 276.2-277.8 MiB/s": a field's name names no run the ends could
  // belong to; nor does a metric's ("measured TTFT: 212.4-214.7 ms").
  const bool named_label = !label.empty() && !MetricWord(Lower(label)) && !MetricWord(label) && !FieldLabel(label) &&
                           !(f.decimals > 0 && MeasureLabel(label));  // "Warm call time: 2-4 ms": a rough span
  return f.range && (figures > 2 || named_label) && w.context.empty() && WordConfig(f, x).size() <= 1;
}

// "... 8.412-second median duration. Final loss was 6.12.": a quality of
// the model (QualityName) the last point lacks joins it from a later sentence.
static bool JoinsQuality(const Figure& f, const std::vector<Point>& points) {
  return !points.empty() && QualityName(f.metric) == f.metric && !points.back().run.metrics.count(f.metric);
}

// A range's ends ("416-455 us"): one measurement written as one figure, so
// one row, each end under its own metric (min_time_s, max_time_s), no key
// telling the ends apart.
static Config RangeEnds(Config named, Figure* f) {
  const auto stat = named.find("statistic");
  if (!f->range || stat == named.end() || (stat->second != "min" && stat->second != "max")) return named;
  f->metric = stat->second + "_" + f->metric;
  named.erase(stat);
  return named;
}

// Whether a text's figures are derived from runs and none its own ("2.36x
// faster", "90% scaling efficiency"); a shape's "4096 x 4096" is no speedup.
static bool OnlyDerived(const std::vector<Figure>& figures, const std::vector<Point>& points, const std::string& text) {
  for (size_t p = text.find_first_of("xX"); p != std::string::npos; p = text.find_first_of("xX", p + 1)) {
    size_t a = p, b = p + 1;
    while (a > 0 && text[a - 1] == ' ') --a;
    while (b < text.size() && text[b] == ' ') ++b;
    if (a > 0 && b < text.size() && std::isdigit(static_cast<unsigned char>(text[a - 1])) &&
        std::isdigit(static_cast<unsigned char>(text[b])))
      return false;
    // "`b` is 1 x K x L": a dimension beside a named one, no speedup.
    if (a > 0 && a < p && b > p + 1 && b < text.size() && std::isdigit(static_cast<unsigned char>(text[a - 1])) &&
        (text[b] == '(' || (std::isalpha(static_cast<unsigned char>(text[b])) &&
                            (b + 1 == text.size() || !std::isalpha(static_cast<unsigned char>(text[b + 1]))))))
      return false;
  }
  const bool derived = std::any_of(figures.begin(), figures.end(), [](const Figure& f) { return f.derived && !f.not_run; });
  return derived && std::none_of(points.begin(), points.end(), [](const Point& p) { return HasBaseMetric(p.run); });
}

// "decode 41.2 tok/s, TTFT 182 ms": a word before a figure that names a part
// or a phase of one run (PartOfARun) qualifies its metric (ttft_time_s); it
// keys no row of its own. Only where every figure of that metric in the text
// is so named ("prefill 9120 tok/s, decode 310 tok/s"): "cpu 12 ms, gpu 3 ms"
// stays two runs.
static void PartWordMetrics(const EntryCtx& x, std::vector<Figure>* figures) {
  auto part_word = [&](const Figure& f) {
    if (f.word.empty() || !f.named.empty() || f.derived || f.not_run || f.metric == kNoUnit || f.metric == kCarried)
      return false;
    const std::string w = SnakeKey(f.word);
    const Config named = WordConfig(f, x);
    return PartOfARun(w) && !MetricWord(w) && named.size() == 1 && named.count("variant") > 0;
  };
  std::map<std::string, bool> all_parts;  // metric -> every figure of it named by a part word, each by another
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& f : *figures)
    if (!f.derived && !f.not_run)
      all_parts.emplace(f.metric, true).first->second &= part_word(f) && seen.emplace(f.metric, SnakeKey(f.word)).second;
  for (auto& f : *figures)
    if (all_parts[f.metric] && part_word(f)) {
      f.metric = QualifiedMetricName(SnakeKey(f.word), f.metric);
      f.word.clear();
    }
}

// A label that is a record's key in camel case with its unit as the last
// part ("`parseMs`", "`longTasks.sumMs`") names the metric of the figures in
// that unit: "parseMs" over "renderMs" are two metrics of one run, not two
// runs of one time.
static void KeyNamesMetric(const std::string& label, const std::string& unit, std::vector<Figure>* figures) {
  std::string key;
  for (char c : Trim(label))
    if (c != '`' && c != '*' && c != ':') key += c;
  if (key.empty() || Words(key).size() != 1 || SettingKey(key)) return;
  std::string bare;
  const std::string snake = CamelToSnake(key);
  if (snake == key || PrintedNameUnit(snake, &bare) != unit || bare.empty()) return;  // snake keys: named by PartWordMetrics
  for (auto& f : *figures)
    if (!f.derived && !f.not_run && f.unit == unit && f.metric != kNoUnit && f.metric != kCarried)
      f.metric = QualifiedMetricName(SnakeKey(bare), f.metric);
}

// A record's key as the metric of its bare count ("`elements`" ->
// "elements", "`longTasks.count`" -> "long_tasks_count"); `otherwise` when
// the label is no one key of letters, digits, '_' and '.' or sets the run up.
static std::string RecordKeyMetric(const std::string& label, const std::string& otherwise) {
  std::string key;
  for (char c : Trim(label))
    if (c != '`' && c != '*' && c != ':') key += c;
  if (key.empty() || key.size() > 48 || !std::isalpha(static_cast<unsigned char>(key[0])) || SettingKey(key)) return otherwise;
  for (char c : key)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return otherwise;
  std::string snake = Lower(CamelToSnake(key));
  std::replace(snake.begin(), snake.end(), '.', '_');
  return snake;
}

// What names each figure of a text: a label's value list, the label's
// qualities, a part of the run.
static void NameFigures(const std::string& rest, const EntryCtx& x, const WalkScope& w, std::vector<Figure>* figures) {
  SlashLabelList(w.context, rest, figures);
  if (w.label_unit.empty()) LabelQualities(w.label, rest, figures);
  else KeyNamesMetric(w.label, w.label_unit, figures);
  for (auto& f : *figures)  // "- `elements`: `677`" among a record's keys
    if (f.metric == kNoUnit && w.record_keys && f.value != 0) f.metric = RecordKeyMetric(w.label, f.metric);
  PartWordMetrics(x, figures);
}

// The repeats waiting in `repeats` (point -> metric -> later values) into
// their points (KeepRepeats); `listed`: whether each was written in a comma list.
static void SettleRepeats(std::map<size_t, std::map<std::string, std::vector<double>>> repeats,
                          std::map<size_t, std::map<std::string, bool>>& listed, std::vector<Point>* points) {
  for (auto& [i, by_metric] : repeats)
    for (auto& [metric, later] : by_metric)
      if (!later.empty()) KeepRepeats(metric, std::move(later), listed[i][metric], &(*points)[i]);
}

// Whether a text of speedups or changes names what they compare
// (derived_anchor_words of vocabulary.json: "faster", "over", "speedup")
// and cites no other source for them (derived_source_words: "the paper
// reports", "previously").
static bool NamesOwnComparison(const std::string& text) {
  static const std::set<std::string> anchors = DataWords("data/reader/vocabulary.json", "derived_anchor_words");
  static const std::set<std::string> sources = DataWords("data/reader/vocabulary.json", "derived_source_words");
  bool anchored = false;
  for (const auto& word : Words(text)) {
    std::string w;
    for (char c : Lower(word))
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') w += c;
    if (sources.count(w)) return false;
    anchored = anchored || anchors.count(w) > 0;
  }
  return anchored;
}

// How many figures of each metric a text has.
static std::map<std::string, int> PerMetric(const std::vector<Figure>& figures) {
  std::map<std::string, int> n;
  for (const auto& f : figures) ++n[f.metric];
  return n;
}

// Speedups or changes alone ("~46.5x on B200"; no shape, "4096 x 4096")
// go on to classify, which keeps them only in an entry that records nothing
// else; a list of them ("2.31x, 2.13x ... for topk=1,2,4") and those beside a
// run's own figures are no point. Whether the text's figures are derived only.
static bool KeepDerivedOnly(const std::vector<Figure>& figures, const std::string& text, std::vector<Point>* points) {
  const bool only_derived = OnlyDerived(figures, *points, text);
  // Every figure a value of its own point: none folded into another's.
  const auto read = std::count_if(figures.begin(), figures.end(), [](const Figure& f) { return f.derived && !f.not_run; });
  size_t held = 0;
  for (const auto& p : *points) held += p.clash ? 0 : p.run.metrics.size();
  const bool keep = only_derived && static_cast<size_t>(read) == held && NamesOwnComparison(text);
  std::erase_if(*points, [keep](const Point& p) { return !p.clash && !HasBaseMetric(p.run) && !keep; });
  return only_derived;
}

std::vector<Point> BulletPoints(const std::string& rest, const EntryCtx& x, const WalkScope& w, int line,
                                const std::string& text, std::vector<UnreadFigures>* unread) {
  std::vector<Point> points;
  bool no_unit = false, restated = false, unnamed = false;
  std::set<std::string> not_run;
  const std::string carry = w.carry ? *w.carry : std::string();
  std::vector<Figure> figures = Figures(rest, x.known && !x.names_time, x.mfu && !w.share, w.prose, carry, w.label, w.list_shares);
  for (UnitInfo carried{}; const auto& f : figures)
    if (w.carry && !f.derived && !f.not_run && f.metric != kCarried && UnitOf(f.unit, &carried)) *w.carry = f.unit;
  NameFigures(rest, x, w, &figures);
  const std::map<std::string, int> per_metric = PerMetric(figures);
  std::map<size_t, std::map<std::string, std::vector<double>>> repeats;  // point -> metric -> later values
  std::map<size_t, std::map<std::string, bool>> listed;  // point -> metric -> every repeat a comma list's
  size_t sentence = 0;
  for (Figure f : figures) {
    if (f.metric == kCarried && !CarriedFigure(x, &f)) continue;  // prose numbers nothing names: no figures
    // A clause's subject names a figure only where it tells figures of one
    // metric apart ("control ... was 23.0%; treatment was 22.9%").
    if (f.subject && per_metric.at(f.metric) < 2) f.word.clear();
    if (f.restated || w.restated || (!f.run_tag.empty() && !x.own_text.count(f.run_tag))) {
      restated = restated || !f.derived;
      continue;
    }
    if (f.not_run) {
      not_run.insert(f.not_run);
      continue;
    }
    if (f.metric == kNoUnit && f.value != 0 && !w.label_unit.empty()) LabelUnit(w.label_unit, &f);
    if (f.metric == kNoUnit) {
      if (f.value == 0) continue;  // "mismatches: `0`": a count, no run measures 0
      if (!BareIsTflops(f, x, w)) {
        no_unit = true;
        continue;
      }
      f.metric = "tflops";
    }
    Config named = RangeEnds(WordConfig(f, x), &f);
    if ((named.empty() && f.sentence != sentence && !f.derived && !JoinsQuality(f, points) && !NewMetric(f, points)) ||
        UnnamedRangeEnd(f, Measured(figures), x, w)) {
      unnamed = true;  // "...; corrected kernel takes 4.68 ms": not the named point's before it
      continue;
    }
    sentence = f.sentence;
    // "Steps 5-19 had 21.8% median MFU, 10.0-second median duration": the
    // same names over another metric add to the point.
    const bool joins = !points.empty() && points.back().cfg == named && !points.back().run.metrics.count(f.metric);
    if (!named.empty() && !joins) points.push_back({named, {}, false});
    else if (points.empty()) points.push_back({});
    AddToPoint(f, (named.empty() && (w.repeats || x.repeats)) || f.comma_repeat, &points.back(), &repeats[points.size() - 1][f.metric]);
    if (auto [it, fresh] = listed[points.size() - 1].emplace(f.metric, true); !fresh) it->second = it->second && f.comma_repeat;
  }
  SettleRepeats(std::move(repeats), listed, &points);
  if (KeepDerivedOnly(figures, text, &points)) not_run.insert(kDerivedWhy);
  if (!unread) return points;
  if (no_unit) unread->push_back({line, text, "no unit, and nothing in the entry names its metric"});
  if (restated) unread->push_back({line, text, "restates earlier work (reference, comparison, remains ...), not this entry's run"});
  if (unnamed) unread->push_back({line, text, "a figure of a later sentence that nothing names"});
  for (const auto& why : not_run) unread->push_back({line, text, why});
  return points;
}

// The figure sets of a bullet's text after its label (`rest`), each a
// recorded run under the scope's configuration; `kept`: the text as listed.
void KeepPoints(const std::string& rest, const std::string& kept, int line, const EntryCtx& x, const WalkScope& scope,
                std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  for (auto& p : BulletPoints(rest, x, scope, line, kept, unread)) {
    if (p.clash && unread) unread->push_back({line, kept, "two figures of one metric and nothing naming each"});
    if (p.clash || p.run.metrics.empty()) continue;
    StoredRun r = NewRecorded(x, scope.context, line);
    for (const auto& [k, v] : p.cfg) r.config[k] = v;
    r.metrics = std::move(p.run.metrics);
    r.units = std::move(p.run.units);
    r.derived = std::move(p.run.derived);
    r.decimals = std::move(p.run.decimals);
    r.repeats = std::move(p.run.repeats);
    out->push_back({std::move(r), line, kept, scope.loose});
    out->back().refers = scope.refers || p.refers;
  }
}

// The unit of a list's items written "label: number unit" ("v3: 6.96s",
// "v6: 20.8s"), when two or more give one and the same unit and none gives
// another: an item of the list written "v4: 75.67" is in it. "" otherwise.
// Looked for only in lists of at most 64 items with such an item (bounded).
std::string SiblingUnit(const std::vector<Bullet>& items) {
  if (items.size() < 3 || items.size() > 64 ||
      std::none_of(items.begin(), items.end(), [](const Bullet& c) {
        const size_t colon = LabelEnd(c.text);
        return colon != std::string::npos && BareNumber(c.text.substr(colon + 1));
      }))
    return "";
  std::string unit;
  int with = 0;
  for (const auto& c : items) {
    const size_t colon = LabelEnd(c.text);
    if (colon == std::string::npos) continue;
    const auto figs = Figures(c.text.substr(colon + 1), false);
    if (figs.empty()) continue;
    for (const auto& f : figs) {
      if (f.derived || f.unit.empty()) continue;
      if (!unit.empty() && f.unit != unit) return "";
      unit = f.unit;
    }
    ++with;
  }
  return with >= 2 ? unit : "";
}

bool ListOfShares(const std::vector<Bullet>& items) {
  if (items.size() < 2 || items.size() > 64) return false;
  int shares = 0;
  for (const auto& c : items) {
    const size_t colon = LabelEnd(c.text);
    if (colon == std::string::npos) continue;
    const std::string rest = c.text.substr(colon + 1);
    size_t p = rest.find_first_not_of(" *`");
    if (p == std::string::npos || !std::isdigit(static_cast<unsigned char>(rest[p]))) continue;
    while (p < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[p])) || rest[p] == '.')) ++p;
    if (p >= rest.size() || rest[p] != '%') return false;  // "v3: 6.96 s": an item of another unit
    if (!FieldPercentMetric(parse_detail::Trim(c.text.substr(0, colon))).empty()) return false;  // "CPU: 22%" names its share
    ++shares;
  }
  return shares >= 2;
}

// Whether a label's rest is one plain number and nothing else (" 75.67", " **19.94**").
bool BareNumber(const std::string& rest) {
  std::string t;
  for (char c : rest)
    if (c != ' ' && c != '*' && c != '`') t += c;
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ',';
  }) && std::isdigit(static_cast<unsigned char>(t[0])) && ParseNumber(t).has_value();
}

// Where a labelled arm of a list starts after a comma, semicolon or full
// stop at `i` (", reference: 2.538 ms", ". After: 8.1 ms"): a name of one to three words, no figure in it
// and not a metric's or statistic's name, then ": ". npos when none starts there.
static size_t LabelledArmAt(const std::string& text, size_t i) {
  if ((text[i] != ',' && text[i] != ';' && text[i] != '.') || i + 2 >= text.size() || text[i + 1] != ' ')
    return std::string::npos;
  const size_t colon = text.find(": ", i + 2);
  if (colon == std::string::npos) return std::string::npos;
  const std::string name = text.substr(i + 2, colon - i - 2);
  const auto words = Words(name);
  if (words.empty() || words.size() > 3 || name.find_first_of(",;()") != std::string::npos || StatesFigure(name))
    return std::string::npos;
  // ", latency: 35 ms", ", p99: 41 ms": a metric or statistic of the same run, no arm.
  const bool measure = std::all_of(words.begin(), words.end(), [](const std::string& w) {
    return MetricWord(Lower(w)) || StatisticWord(w) || SpreadStatistic(w);
  });
  return measure ? std::string::npos : i + 2;
}

// "fused: 1.106 ms (412 TFLOP/s), reference: 2.538 ms (180 TFLOP/s)": a list
// of labelled figures, one arm each (its label and figures); empty when the
// text is no such list (fewer than two arms, an arm that states no figure).
static std::vector<std::string> LabelledArms(const std::string& text) {
  std::vector<std::string> arms;
  int depth = 0;
  bool code = false;
  size_t begin = 0;
  for (size_t i = 0; i < text.size() && text.size() <= 4096; ++i) {
    if (text[i] == '`') code = !code;
    if (text[i] == '(' || text[i] == ')') depth = text[i] == '(' ? depth + 1 : std::max(0, depth - 1);
    const size_t arm = code || depth > 0 ? std::string::npos : LabelledArmAt(text, i);
    if (arm == std::string::npos) continue;
    arms.push_back(text.substr(begin, i - begin));
    begin = arm;
  }
  if (arms.empty()) return {};
  arms.push_back(text.substr(begin));
  for (const auto& a : arms)
    if (!StatesFigure(a)) return {};
  return arms;
}

// A text of arms ("ring EP4 21.3% / 12.1 s · a2a EP4 ...", DotArms; "fused:
// 1.1 ms, reference: 2.5 ms", LabelledArms): each arm walked as a bullet of
// its own, then the bullet's items (unless `text` is a field's value).
static bool WalkArms(const Bullet& b, const WalkScope& scope, const EntryCtx& x, std::vector<RecordedFigure>* out,
                     std::vector<UnreadFigures>* unread, const std::string& text, bool field_value) {
  auto arms = prose::DotArms(text);
  if (arms.empty()) arms = LabelledArms(text);
  if (arms.empty()) return false;
  // A field's value ("- fused: 1.1 ms, reference: 2.5 ms"): its first arm is the field's.
  if (const size_t name = LabelEnd(b.text); field_value && name != std::string::npos && LabelEnd(arms[0]) == std::string::npos)
    arms[0] = b.text.substr(0, name) + ": " + arms[0];
  Bullet one = b;
  one.children.clear();
  for (const auto& arm : arms) Walk(one, scope, x, out, unread, arm);
  if (!field_value)
    for (const auto& c : b.children) Walk(c, scope, x, out, unread);
  return true;
}

// Whether a list item's label names no run: a field's name ("**Change**:
// ...", "**結果**: ..."), a key that names its metric by its unit
// ("runtime_sec:").
static bool NamesNoRun(const std::string& label, const std::string& own_unit) {
  std::string key;
  for (char c : Trim(label))
    if (c != '`' && c != '*' && c != ':') key += c;
  return FieldLabel(label) || (!own_unit.empty() && (label.find('_') != std::string::npos || CamelToSnake(key) != key));
}

// A list item's label without a done task's mark ("[x] **job**" names the
// job part, not a "[x] job" case).
static std::string TaskMarkless(const std::string& label) {
  for (const char* mark : {"[x] ", "[X] "})
    if (label.rfind(mark, 0) == 0) return label.substr(4);
  return label;
}

// "avg 21.1031 | p95 30.3296 | max 40.9663" under a label that names its
// unit ("tick duration ms:"): each bare number a statistic word names, in
// that unit ("avg 21.1031 ms | ..."); `rest` as it was when it writes a unit
// of its own or no statistic names a number.
static std::string StatisticsInUnit(const std::string& rest, const std::string& unit) {
  if (unit.empty()) return rest;
  std::string out;
  bool named = false;
  const auto words = Words(rest);
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    UnitInfo info{};
    if (std::isalpha(static_cast<unsigned char>(w[0])) && AnyUnit(w, &info)) return rest;  // "21.1 ms": its own unit
    const bool stat = i > 0 && StatisticWord(Lower(words[i - 1]));
    std::string digits = w;
    while (!digits.empty() && (digits.back() == ',' || digits.back() == ';')) digits.pop_back();
    if (stat && !digits.empty() && BareNumber(" " + digits)) {
      w = digits + " " + unit + w.substr(digits.size());
      named = true;
    }
    out += (out.empty() ? "" : " ") + w;
  }
  return named ? " " + out : rest;
}

// An item's text after its label as its list reads it: a bare number in the
// unit its siblings give ("v4: 75.67"), a comma list named by the label
// above ("0.3960, +0.0018, ~12.26s": figures_namedlist.h), statistics in the
// unit its label names (StatisticsInUnit).
static std::string ListedRest(std::string rest, const std::string& label, bool labelled, const WalkScope& scope,
                              const std::string& own_unit) {
  if (!scope.sibling_unit.empty() && !label.empty() && BareNumber(rest)) rest += " " + scope.sibling_unit;
  if (!scope.list_names.empty() && labelled) rest = NamedListText(rest, scope.list_names);
  return StatisticsInUnit(rest, own_unit.empty() ? scope.label_unit : own_unit);  // "avg 21.1 | p95 30.3" under "... ms:"
}

// A check's figures ("Max abs diff: 0.0039", "mismatches: 0"), no run's
// measurement: their fate, told by --show-recorded only.
static void ListCheck(int line, const std::string& text, const std::string& rest, std::vector<UnreadFigures>* unread) {
  if (unread && rest.find_first_of("0123456789") != std::string::npos)
    unread->push_back({line, text, "a check of the run (checksum, max diff, mismatches, correctness), not a figure of its measurement", true});
}

void Walk(const Bullet& b, WalkScope scope, const EntryCtx& x, std::vector<RecordedFigure>* out,
          std::vector<UnreadFigures>* unread, const std::string& text_override) {
  if (out->size() > kMaxFiguresPerEntry || SettingsList(b)) return;  // past the cap; a list of settings (SettingsListConfig)
  if ((text_override.empty() || b.children.empty()) && PrintedBullet(b, scope, x, out, unread)) return;
  const std::string& text = text_override.empty() ? b.text : text_override;
  if (WalkArms(b, scope, x, out, unread, text, !text_override.empty())) return;
  const size_t colon = LabelEnd(text);
  std::string label = colon == std::string::npos ? "" : TaskMarkless(text.substr(0, colon));
  std::string rest = colon == std::string::npos ? text : text.substr(colon + 1);
  if (colon == std::string::npos && !b.children.empty() && Figures(text, x.known && !x.names_time).empty()) {
    label = TaskMarkless(text);  // "- `random`" over its figures' bullets names them all
    rest.clear();
  }
  const std::string own_unit = LabelUnitOf(label);
  const std::string listed = rest = ListedRest(rest, label, colon != std::string::npos, scope, own_unit);
  if (!own_unit.empty() || (label.empty() && !scope.label_unit.empty()))  // "**Cycles:** 147,734"
    rest = UnitAfterLeadNumber(rest, own_unit.empty() ? scope.label_unit : own_unit);
  scope.sibling_unit.clear();
  Config own = LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds);
  if (NamesNoRun(label, own_unit) || (scope.record_keys && !RecordKeyMetric(label, "").empty())) own.erase("case");
  // A parent written as sentences ("Initial matrix was noisy. Paired repeats
  // (`iters=5`) were stable:") names the keys in it, not a case.
  if (colon == std::string::npos && Words(label).size() > 8) own.erase("case");
  if (scope.prose) {  // a sentence's lead ("Job `...`:", "Target `k`:") is no run's name, "a2a impl:" is
    // "bf16: 31.4 ms; fp8: 27.8 ms": a short plain label names its figures.
    if (label.find('`') != std::string::npos || Words(label).size() > 2) own.erase("case");
    for (const auto& [k, v] : prose::NounPairs(label)) own.emplace(k, v);
  }
  if (auto it = x.command_labels.find(PlainLabel(label)); it != x.command_labels.end() && own.count("case")) {
    own.erase("case");  // "shared off (`topk=8`):" names the command labelled "shared off"
    for (const auto& [k, v] : it->second) own[k] = v;
  }
  if (own.count("case") && scope.context.count("case")) {
    // A nested case names a variant of its parent's case.
    own["variant"] = own["case"];
    own.erase("case");
  }
  for (const auto& [k, v] : own) scope.context[k] = v;
  // "forward TF/s:" over its figures' bullets names their unit.
  scope.tflops = scope.tflops || label.find("TF/s") != std::string::npos || label.find("TFLOP") != std::string::npos;
  if (!own_unit.empty()) scope.label_unit = own_unit;
  if (!label.empty()) scope.label = label;
  for (const auto& w : Words(label)) {  // "Reference path:" names a run; "(from previous section)" restates one
    if (ReferenceWord(w)) scope.refers = true;
    else scope.restated = scope.restated || RestatingWord(w);
  }
  scope.check = scope.check || CheckColumn(label) || Lower(label).find("correctness") != std::string::npos;
  scope.repeats = scope.repeats || SaysRepeats(text);
  scope.share = scope.share || NamesShares(label);
  // "- Measured gain: 0.63 s": what a change gained or saved (ChangeLabelBefore).
  if (colon != std::string::npos && b.children.empty() && ChangeLabelBefore(text, colon + 1) && !Figures(rest, false).empty()) {
    if (unread) unread->push_back({b.line, FigureText(text), "what a change gains or saves (its label names a gain or a saving), not one run's figure"});
    return;
  }
  if (scope.check) ListCheck(b.line, FigureText(text), rest, unread);
  else if (!(b.children.empty() && SampleList(listed, own_unit, b.line, FigureText(text), x, scope, out))) KeepPoints(rest, FigureText(text), b.line, x, scope, out, unread);
  if (!text_override.empty()) return;
  scope.sibling_unit = SiblingUnit(b.children), scope.list_shares = ListOfShares(b.children), scope.list_names = ListNames(label);
  for (std::vector<Bullet> with_units; const auto& c : WithUnitFields(b.children, &with_units)) Walk(c, scope, x, out, unread);
}

// A Result's printed output block ("```text" with "current: 0.0374 s,
// 3,502,411 tok/s" lines under "shared_expert_dim=0:"), read as bullets:
// a line's deeper-indented lines below it are its children. RESULT lines
// are read by ResultLines. Linear: each line is visited once.
std::vector<Bullet> OutputBullets(const std::vector<std::pair<int, std::string>>& lines, size_t* i, int indent,
                                  int first_line) {
  std::vector<Bullet> out;
  while (*i < lines.size() && lines[*i].first >= indent) {
    Bullet b;
    b.text = lines[*i].second;
    b.line = first_line + static_cast<int>(*i);
    const int own = lines[*i].first;
    ++*i;
    if (*i < lines.size() && lines[*i].first > own) b.children = OutputBullets(lines, i, lines[*i].first, first_line);
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<Bullet> OutputBullets(const FencedBlock& block) {
  std::vector<std::pair<int, std::string>> lines;  // indent, text
  std::vector<int> at;                              // each kept line's number in the block
  std::stringstream ss(block.text);
  int n = 0;
  for (std::string line; std::getline(ss, line); ++n) {
    const size_t ind = line.find_first_not_of(' ');
    if (ind == std::string::npos || line.compare(ind, 7, "RESULT ") == 0) continue;
    lines.emplace_back(static_cast<int>(ind), line.substr(ind));
    at.push_back(n);
  }
  size_t i = 0;
  std::vector<Bullet> out;
  while (i < lines.size()) {
    auto top = OutputBullets(lines, &i, lines[i].first, 0);
    out.insert(out.end(), top.begin(), top.end());
  }
  std::function<void(Bullet&)> renumber = [&](Bullet& b) {
    b.line = block.line + 1 + at[static_cast<size_t>(b.line)];
    for (auto& c : b.children) renumber(c);
  };
  for (auto& b : out) renumber(b);
  return out;
}

}  // namespace reader

}  // namespace moelog::logbook
