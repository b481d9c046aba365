// Reader stage figures, program output: the figures of an output block (a
// fenced block after a command or under an Output label, the printed lines
// of a `$ ` session, lines that look like a program's output), read line by
// line in one pass:
//  - `Name (unit): value` and `Name: value unit` lines ("Mean TTFT (ms):
//    183.2", "Latency: 0.512 ms"): one figure each, keyed metric=<Name>;
//  - key=value lines ("avg_step_ms=20.4 speedup=28.5", "RESULT ..."): the
//    keys that carry a unit (a suffix `_ms`, a glued unit `3.2ms`) or name a
//    figure without one (`loss`, `speedup`) are figures, the others the
//    line's configuration;
//  - JSON lines, the same way;
//  - aligned columns and CSV: a header line of names, then rows; a column is
//    a figure when its header or its cells carry a unit;
//  - a line of words without digits ("cuBLAS kernel", "---- Time to First
//    Token ----") titles the lines below it (key "group");
//  - any other line that states a number with its unit is read as a bullet.
// Words (units, key suffixes, names of unitless figures, count words) are
// data: data/reader/output.json.
#include <nlohmann/json.hpp>

#include "logbook/doc/command_line.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/blocks_dumps.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_benchtools.h"
#include "logbook/reader/figures_dumps.h"
#include "logbook/reader/figures_frameworks.h"
#include "logbook/reader/figures_output_read.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_pipefields.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace output_read {
namespace {

const OutputWords& Vocab() { return OutputVocabulary(); }

std::string TrimText(const std::string& s) { return parse_detail::Trim(s); }

std::string NameUnit(const std::string& name, std::string* bare) { return PrintedNameUnit(name, bare); }

}  // namespace

Config LineConfig(const OutputRead& r) {
  Config cfg = r.context;
  if (!r.group.empty()) cfg["group"] = r.group;
  return cfg;
}

namespace {

// "1. Thread creation overhead": the name without its list number.
std::string Unnumbered(const std::string& name) {
  size_t p = 0;
  while (p < name.size() && std::isdigit(static_cast<unsigned char>(name[p]))) ++p;
  if (p == 0 || p + 1 >= name.size() || (name[p] != '.' && name[p] != ')') || name[p + 1] != ' ') return name;
  return TrimText(name.substr(p + 1));
}

// The metric a named figure is kept under: the unit's, or the name's own
// when the unit names none ("val_loss").
std::string MetricOf(const UnitInfo& info) { return info.metric; }

}  // namespace

void KeepFigure(OutputRead& r, int line, const std::string& text, Config cfg, const std::vector<Fig>& figs) {
  if (figs.empty() || r.out->size() > kMaxFiguresPerEntry) return;
  StoredRun run = NewRecorded(r.x, cfg, line);
  for (const auto& [metric, info, unit, num, approx] : figs) {
    const auto v = ParseNumber(num);
    if (!v) continue;
    run.metrics[metric] = ToStored(*v, info.factor);
    // "usecond", "milliseconds": the vocabulary's spelling, so it shows with the author's digits ("128.35 us").
    const auto alias = Vocab().aliases.find(Lower(unit));
    run.units[metric] = alias == Vocab().aliases.end() ? unit : alias->second;
    run.decimals[metric] = WrittenDecimals(num);
    if (info.derived) run.derived.insert(metric);
    if (approx) run.approximate.insert(metric);
  }
  if (run.metrics.empty()) return;
  RecordedFigure f;
  f.run = std::move(run);
  f.line = line;
  f.text = FigureText(text);
  r.out->push_back(std::move(f));
}

namespace {

bool CountName(const std::string& bare) { return PrintedCountName(bare); }
// A count's name with a rate's unit ("Requests per second", "requests_per_sec") names the rate.
bool CountName(const std::string& bare, const std::string& unit) { return CountName(bare) && unit.find('/') == std::string::npos; }

bool UnitlessMetric(const std::string& bare) {
  std::string low = Lower(bare);
  std::replace(low.begin(), low.end(), ' ', '_');
  if (Vocab().unitless.count(low)) return true;
  const size_t us = low.rfind('_'), first = low.find('_');
  // "avg_cpu", "mean_util": a statistic of what a program measured, a figure.
  return (us != std::string::npos && Vocab().unitless.count(low.substr(us + 1)) > 0) ||
         (first != std::string::npos && first > 0 && Vocab().measured_prefixes.count(low.substr(0, first)) > 0) ||
         (first != std::string::npos && first > 0 && !QualityName(low.substr(0, first)).empty());  // "loss_main", "acc_top1"
}

// A named figure's metric from its printed name and unit: the unit's base
// metric, named after the key when the line holds several ("fwd_time_s").
bool NamedMetric(const std::string& bare, const std::string& unit, bool prefixed, UnitInfo* info) {
  if (!unit.empty()) {
    if (!OutputUnit(unit, bare, info)) return false;
  } else if (UnitlessMetric(bare)) {
    *info = UnitInfo{SnakeKey(bare), 1, false};
    return true;
  } else {
    return false;
  }
  const std::string key = SnakeKey(bare);
  if (prefixed && !key.empty() && !MetricWord(Lower(bare)) && key != info->metric &&
      info->metric.rfind(key + "_", 0) != 0) {  // "memory: 63.36GiB" is memory_mib, not memory_memory_mib
    // "Total Time (ns)": total_time_s, the unit's word said once, not total_time_time_s.
    info->metric = QualifiedMetricName(key, info->metric);
  }
  return true;
}
}  // namespace

// The unit written right after a number: glued to it, or the next word.
std::string UnitAfter(const std::vector<std::string>& toks, size_t k, const std::string& glued, const std::string& name) {
  UnitInfo info;
  if (!glued.empty()) return OutputUnit(glued, name, &info) ? glued : "";
  if (k + 1 >= toks.size()) return "";
  std::string u = toks[k + 1];
  while (!u.empty() && (u.back() == ',' || u.back() == ';' || u.back() == '.')) u.pop_back();
  // "4096 x 4096": a shape, not a speedup.
  if ((u == "x" || u == "X") && k + 2 < toks.size() && IsNumber(toks[k + 2])) return "";
  return OutputUnit(u, name, &info) ? u : "";
}

namespace {

// "% of 117 TFLOP/s", "% of peak": a share of a bound, derived.
bool ShareOfBound(const std::vector<std::string>& toks, size_t k, const std::string& unit, const std::string& glued) {
  const size_t next = k + (glued.empty() ? 2 : 1);
  return unit == "%" && next < toks.size() && Lower(toks[next]) == "of";
}

bool MemoryMetric(const std::string& m) { return m == "memory_mib" || m == "gb" || m == "mb" || m == "gib" || m == "mib"; }
bool TheoreticalName(const std::string& bare) { return HasWord(Lower(bare), "theoretical") || HasWord(Lower(bare), "spec"); }  // a memory's peak is measured

// Whether a value is followed by another figure ("0.0214 s, 3,055,291 tok/s"):
// a line of several figures is read as a bullet. A spread after "±" is none.
bool MoreFigures(const std::vector<std::string>& toks) {
  for (size_t k = 1; k < toks.size(); ++k) {
    if (toks[k] == "\xC2\xB1" || toks[k] == "+-" || toks[k] == "[User:" || toks[k][0] == '(') return false;
    if (std::isdigit(static_cast<unsigned char>(toks[k][0]))) return true;
  }
  return false;
}

// A named figure of a record's lines ("Mean TTFT (ms): 41.08" under "====
// Serving Benchmark Result ===="): added to the record's row under its own
// name, or a new row when the record has none yet or names it again.
// Statistics under a title that names their unit ("Latency (ms):" over
// "min: 1.92", "avg: 6.11", "95th percentile: 10.09") are one record too.
bool RecordFigure(OutputRead& r, int line, const std::string& t, const std::string& bare, Fig fig) {
  const auto words = Words(Lower(bare));
  const bool statistic = !r.group_unit.empty() && !words.empty() &&
                         (Vocab().stat_suffixes.count(words.front()) || HasWord(Lower(bare), "percentile"));
  // "Latency: 12.18 ms", "Effective Bandwidth: 16.5 GB/s" under a title line
  // ("cuBLAS GEMM Kernel Performance"): lines naming their own metric are
  // the titled run's figures, one row.
  const bool metric_named = r.record.empty() && !r.group.empty() && !statistic && !words.empty() &&
                            OutputVocabulary().metric_line_words.count(words.back());
  if (r.record.empty() && !statistic && !metric_named) return false;
  UnitInfo named = std::get<1>(fig);
  if (!NamedMetric(bare, std::get<2>(fig), !metric_named, &named)) return false;
  if (named.metric == std::get<1>(fig).metric && !metric_named) named.metric = SnakeKey(bare) + "_" + named.metric;  // "min" of a latency
  std::get<0>(fig) = named.metric;
  if (r.record_row < r.out->size() && !(*r.out)[r.record_row].run.metrics.count(named.metric)) {
    const size_t was = r.timing;
    r.timing = r.record_row;
    AddToTimingRow(r, {fig}, line);
    r.timing = was;
    if (std::get<1>(fig).derived) (*r.out)[r.record_row].run.derived.insert(named.metric);
    if (std::get<4>(fig)) (*r.out)[r.record_row].run.approximate.insert(named.metric);
    return true;
  }
  Config cfg = r.context;
  cfg["group"] = r.record.empty() ? r.group : r.record;
  const size_t before = r.out->size();
  KeepFigure(r, line, t, cfg, {fig});
  if (r.out->size() > before) r.record_row = before;
  return true;
}

// "number of clients: 32": a count the run was set up with, a key (clients=32).
bool SettingCount(OutputRead& r, const std::string& name, const std::vector<std::string>& toks) {
  std::string key;
  if (toks.size() != 1 || !SettingCountKey(name, toks[0], &key)) return false;
  r.context[key] = toks[0];
  return true;
}

// "prompt eval time = 312.44 ms / 180 tokens (1.74 ms per token, 576.11
// tokens per second)": one row named by the line, its rates beside it.
bool RatedLine(OutputRead& r, const PrintedLine& l) {
  std::string name;
  std::vector<ProgressField> fields;
  if (!RatedFields(l.text, &name, &fields)) return false;
  std::vector<Fig> figs;
  for (const auto& f : fields)
    if (UnitInfo info; OutputUnit(f.unit, "", &info) && !info.derived)
      figs.emplace_back(QualifiedMetricName(SnakeKey(f.name), info.metric), info, f.unit, f.digits, f.approx);
  Config cfg = LineConfig(r);
  cfg["metric"] = name;
  KeepFigure(r, l.line, l.text, cfg, figs);
  return !figs.empty();
}

std::vector<std::pair<std::string, std::string>> Pairs(const std::string& t, std::string* prefix);

bool NamedLine(OutputRead& r, const std::string& t, int line);
bool HasAlpha(const std::string& s);

// "tps = 11926.334918 (without initial connection time)": a unit named
// alone before " = ", then its number (pgbench's result line).
bool UnitNamedLine(OutputRead& r, const std::string& t, int line) {
  const size_t eq = t.find(" = ");
  if (eq == std::string::npos || eq == 0 || eq > 24) return false;
  const std::string name = TrimText(t.substr(0, eq));
  UnitInfo info;
  // "latency stddev = 1.164 ms": a named figure, as "Name: value unit" is.
  if (const auto words = Words(name); words.size() > 1 && words.size() <= 4 && HasAlpha(name) && name.find_first_of(":=") == std::string::npos)
    return NamedLine(r, name + ": " + t.substr(eq + 3), line);
  if (name.empty() || name.find(' ') != std::string::npos || !OutputUnit(name, "", &info) || info.derived) return false;
  const auto toks = SpaceWords(t.substr(eq + 3));
  std::string num, glued;
  bool approx = false;
  if (toks.empty() || !NumberToken(toks[0], &num, &glued, &approx) || !glued.empty() || MoreFigures(toks)) return false;
  if (toks.size() > 1 && toks[1][0] != '(') return false;  // "tps = 12.3 per client": prose
  Config cfg = LineConfig(r);
  // "(including connections establishing)" beside "(excluding ...)": what the figure counts, its key.
  if (const size_t open = t.find('(', eq), close = t.rfind(')'); open != std::string::npos && close != std::string::npos && close > open + 1)
    if (const std::string q = TrimText(t.substr(open + 1, close - open - 1)); Words(q).size() <= 5) cfg["qualifier"] = q;
  KeepFigure(r, line, t, cfg, {Fig{info.metric, info, name, num, approx}});
  return true;
}

// "Mean TTFT (ms):   183.2", "Latency: 0.512 ms", "Pass: Cold: 0.0051ms",
// "Backend: sglang" (a setting of the lines below).
bool NamedLine(OutputRead& r, const std::string& t, int line) {
  std::string name;
  size_t from = 0;
  for (int k = 0; k < 3; ++k) {
    const size_t colon = t.find(':', from);
    if (colon == std::string::npos || (colon + 1 < t.size() && t[colon + 1] != ' ' && t[colon + 1] != '\t')) return false;
    const std::string part = TrimText(t.substr(from, colon - from));
    if (part.empty() || part.size() > 60 || std::none_of(part.begin(), part.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      return false;
    // "Kept the checkpoint (val loss: 3.4456)": a sentence's aside, no printed name.
    if (std::count(part.begin(), part.end(), '(') > std::count(part.begin(), part.end(), ')')) return false;
    name += (name.empty() ? "" : " ") + part;
    const auto toks = SpaceWords(t.substr(colon + 1));
    if (toks.empty()) return false;
    std::string num, glued;
    bool approx = false;
    if (NumberToken(toks[0], &num, &glued, &approx) && !MoreFigures(toks)) {
      std::string bare;
      name = Unnumbered(name);
      std::string name_unit = NameUnit(name, &bare);
      if (name_unit.empty()) name_unit = r.group_unit;
      std::string unit = UnitAfter(toks, 0, glued, bare);
      if (unit.empty() && glued.empty()) unit = name_unit;
      else if (name.find('(') == std::string::npos) bare = TrimText(name);  // "Effective TFLOPS: 204 TFLOPS"
      UnitInfo info;
      if (std::string outcome; unit.empty() && OutcomeCountName(name, &outcome)) {  // "number of failed transactions: 0"
        Config cfg = LineConfig(r);
        cfg["metric"] = name;  // told apart from the block's other named lines as they are
        KeepFigure(r, line, t, cfg, {Fig{outcome, UnitInfo{outcome, 1, false}, "", num, approx}});
        return true;
      }
      if (unit.empty() && SettingCount(r, name, toks)) return true;
      if (CountName(bare, unit) || bare.empty() || !NamedMetric(bare, unit, false, &info)) return true;  // a count or setting
      const bool measured_peak = MemoryMetric(info.metric) || Vocab().measured_peaks.count(info.metric);
      if (SpecName(bare) && !(measured_peak && !TheoreticalName(bare))) {  // "Peak memory" is measured
        if (r.unread) r.unread->push_back({line, FigureText(t), "a peak or specification, not a run's figure"});
        return true;
      }
      if (ShareOfBound(toks, 0, unit, glued)) info.derived = true;
      if (RecordFigure(r, line, t, bare, Fig{MetricOf(info), info, unit, num, approx})) return true;
      Config cfg = LineConfig(r);
      // "hdim=512: 0.60 TFLOPS": a name of settings keys the figure by them.
      std::string before;
      const auto settings = Pairs(bare, &before);
      if (!settings.empty() && before.empty() && settings.size() == SpaceWords(bare).size())
        for (const auto& [k, v] : settings) cfg[SnakeKey(k)] = v;
      else cfg["metric"] = bare;
      KeepFigure(r, line, t, cfg, {Fig{MetricOf(info), info, unit, num, approx}});
      return true;
    }
    if (toks.size() == 1 && toks[0].size() <= 32 && std::isalpha(static_cast<unsigned char>(toks[0][0])) && part.size() <= 32) {
      r.context[SnakeKey(name)] = toks[0];  // "Backend: sglang"
      return true;
    }
    from = colon + 1;
  }
  return false;
}

// key=value tokens with a value ("loss=3.28", "impl=fused").
std::vector<std::pair<std::string, std::string>> Pairs(const std::string& t, std::string* prefix) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string s = t;
  for (size_t i = 0; i < s.size(); ++i)  // "a=1, b=2" or "a=1,b=2", not the separators of "1,988,350"
    if (s[i] == '\t' || (s[i] == ',' && (i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 1])))))
      s[i] = ' ';
  size_t first = std::string::npos;
  std::istringstream ss(s);
  for (std::string w; ss >> w;) {
    // "avg_step_ms≈9.37": the value about as written (the figure approximate).
    if (const size_t about = w.find("\xE2\x89\x88"); about != std::string::npos && w.find('=') == std::string::npos)
      w.replace(about, 3, "=~");
    const size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size() || !IsIdentStart(w[0])) continue;
    std::string key = w.substr(0, eq);
    if (!std::all_of(key.begin(), key.end(), [](char c) { return IsIdentChar(c) || c == '.' || c == '/'; })) continue;
    if (first == std::string::npos) first = s.find(w);
    out.emplace_back(key, w.substr(eq + 1));
  }
  *prefix = first == std::string::npos ? "" : TrimText(t.substr(0, std::min(first, t.size())));
  return out;
}

// "ms/iter: sdpa=3.90 flex=8.12": the prefix names the unit, each key a variant.
bool PrefixUnitPairs(OutputRead& r, const std::string& t, int line, std::string prefix,
                     const std::vector<std::pair<std::string, std::string>>& pairs) {
  while (!prefix.empty() && prefix.back() == ':') prefix.pop_back();
  std::string bare;
  std::string unit = NameUnit(prefix, &bare);
  UnitInfo info;
  if (unit.empty() && OutputUnit(prefix, "", &info)) unit = prefix, bare.clear();
  if (unit.empty() || !OutputUnit(unit, bare, &info)) return false;
  bool any = false;
  for (const auto& [k, v] : pairs) {
    std::string num, glued;
    bool approx = false;
    if (!NumberToken(v, &num, &glued, &approx) || !glued.empty()) continue;
    Config cfg = LineConfig(r);
    cfg["variant"] = k;
    if (!bare.empty()) cfg["metric"] = bare;
    KeepFigure(r, line, t, cfg, {Fig{info.metric, info, unit, num, approx}});
    any = true;
  }
  return any;
}

// A duration's unit glued in a log's short form ("elapsed 2.10m"): the
// vocabulary's spelling when the key names a duration, else "".
std::string DurationUnit(const std::string& key, const std::string& glued) {
  const auto& w = Vocab();
  if (!w.duration_names.count(Lower(SnakeKey(key)))) return "";
  const auto it = w.duration_units.find(Lower(glued));
  return it == w.duration_units.end() ? "" : it->second;
}

// One printed key and its value: a figure (the key or a glued unit names
// its unit, or the key a unitless figure) or the line's configuration.
void PairFigure(const std::string& k, const std::string& v, Config* cfg, std::vector<Fig>* figs) {
  std::string num, glued, bare;
  bool approx = false;
  const std::string key_unit = NameUnit(k, &bare);
  if (!NumberToken(v, &num, &glued, &approx)) {
    if (v.size() <= 40) (*cfg)[SnakeKey(k)] = v;
    return;
  }
  if (const size_t open = glued.find('('); open != std::string::npos && open > 0) glued.resize(open);  // "63.36GiB(66.67%)"
  if (const std::string d = DurationUnit(k, glued); !d.empty()) glued = d;
  // "tok/s 15.2k": a magnitude glued to the number, the unit the key's; shown as written ("k tok/s").
  std::string magnitude;
  if (auto m = ReaderLexicon().magnitudes.find(glued); m != ReaderLexicon().magnitudes.end() && !key_unit.empty())
    magnitude = glued, glued.clear();
  UnitInfo info;
  std::string unit = glued;
  // "peak_bytes_reserved=3.15GB": a unit written on the value, of the metric the key's names, is the value's.
  UnitInfo written{}, named_unit{};
  const bool own = !unit.empty() && !key_unit.empty() && AnyUnit(unit, &written) &&
                   ((AnyUnit(key_unit, &named_unit) && written.metric == named_unit.metric) ||
                    (key_unit == "bytes" && written.metric == "memory_mib")) &&
                   OutputUnit(unit, bare.empty() ? k : bare, &info);
  if (!own && !unit.empty() && (!key_unit.empty() || SettingKey(k) || !OutputUnit(unit, bare, &info))) unit.clear();
  if (unit.empty()) unit = key_unit;
  if (Lower(bare) == Lower(unit)) bare = unit;  // "tok/s 12,345": the key is the unit
  const bool named = bare != unit;
  if (CountName(bare, unit) || !NamedMetric(bare, unit, named, &info)) {
    (*cfg)[SnakeKey(k)] = v;
    return;
  }
  if (!magnitude.empty()) {
    if (info.derived) return;
    info.factor *= ReaderLexicon().magnitudes.at(magnitude);
    unit = magnitude + " " + unit;
  }
  figs->emplace_back(info.metric, info, unit, num, approx);
}

bool MeasuredLine(OutputRead& r, const std::string& t, int line);

// "avg_step_ms=20.4 speedup=28.5 impl=fused", "RESULT tokens=4096 time_ms=1.2".
bool KeyValueLine(OutputRead& r, const std::string& t, int line) {
  std::string prefix;
  const auto pairs = Pairs(t, &prefix);
  if (pairs.empty()) return false;
  if (!prefix.empty() && prefix.back() == ':' && PrefixUnitPairs(r, t, line, prefix, pairs)) return true;
  Config cfg = LineConfig(r);
  std::vector<Fig> figs;
  for (const auto& [k, v] : pairs) PairFigure(k, v, &cfg, &figs);
  if (figs.empty() && MeasuredLine(r, t, line)) return true;  // "gemm M=128  0.003 ms": a shape
  // "hdim=512:  0.60 TFLOPS - ✓ PASSED": a figure after the settings, for the readers below.
  if (const std::string& v = pairs.back().second; figs.empty() && v.back() == ':' && StatesFigure(t.substr(t.find(v) + v.size())))
    return false;
  if (figs.empty()) r.context = cfg, r.context.erase("group");  // "Running with N=1024": settings of the lines below
  if (figs.empty()) return !cfg.empty();
  KeepFigure(r, line, t, cfg, figs);
  return true;
}

// {"avg_step_ms": 3.41, "impl": "kernel"} or Python's {'runtime_s': 5.84,
// 'ok': True}: as key=value, the numbers as written.
bool JsonLine(OutputRead& r, const std::string& t, int line) {
  std::vector<DictItem> items;
  if (!PrintedDict(t, &items)) return false;
  Config cfg = LineConfig(r);
  std::vector<Fig> figs;
  for (const auto& [k, v, kind] : items) {
    if (kind == DictItem::Kind::kOther || (kind == DictItem::Kind::kString && v.size() > 40)) continue;
    std::string bare;
    const std::string unit = NameUnit(k, &bare);
    UnitInfo info;
    if (kind != DictItem::Kind::kNumber || CountName(bare) || !NamedMetric(bare, unit, true, &info))
      cfg[SnakeKey(k)] = kind == DictItem::Kind::kBool ? Lower(v) : v;
    else figs.emplace_back(info.metric, info, unit, v, false);
  }
  if (!figs.empty()) KeepFigure(r, line, t, cfg, figs);
  return true;
}

bool HasAlpha(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}
bool StartsNumber(const std::string& cell) { return PrintedStartsNumber(cell); }
bool HeaderOver(const std::vector<std::string>& head, const std::vector<std::string>& row) { return PrintedHeaderOver(head, row); }

// One row of aligned columns or CSV: its figures (a cell with a unit, or
// under a header that names one) and its configuration (the other cells).
void ColumnRow(OutputRead& r, const std::vector<std::string>& head, const std::vector<std::string>& cells,
               const std::string& t, int line, const std::string& table_unit = "") {
  Config cfg = LineConfig(r);
  std::vector<Fig> figs;
  const size_t unit_col = PrintedUnitColumn(head);
  for (size_t c = 0; c < head.size(); ++c) {
    if (c == unit_col) continue;
    const auto toks = SpaceWords(cells[c]);
    std::string num, glued, bare;
    bool approx = false;
    std::string head_unit = NameUnit(head[c], &bare);
    if (head_unit.empty() && Vocab().stat_suffixes.count(Lower(bare))) head_unit = table_unit;  // "Mean" under "(time in us)"
    if (toks.empty() || !NumberToken(toks[0], &num, &glued, &approx)) {
      // A kernel's signature under "Name" is the row's label however long; other long cells are sentences.
      const size_t longest = Vocab().name_columns.count(Lower(TrimText(head[c]))) ? 160 : 40;
      if (!cells[c].empty() && cells[c].size() <= longest) cfg[SnakeKey(head[c])] = cells[c];
      continue;
    }
    std::string unit = UnitAfter(toks, 0, glued, bare);
    if (unit.empty()) unit = head_unit;
    if (unit.empty() && unit_col < cells.size() && c > 0)  // "Duration  usecond  128.35": the row's unit, its name
      unit = cells[unit_col], bare = cells[0];
    UnitInfo info;
    // "Elem/s" over "3.2 Gelem/s": a rate's unit as the header; never "Min" (minutes) over a time.
    if (Lower(bare) == Lower(unit) || (unit != head_unit && bare.find('/') != std::string::npos && UnitOf(Lower(bare), &info)))
      bare.clear();
    if (CountName(bare) || !NamedMetric(bare.empty() ? unit : bare, unit, !bare.empty(), &info)) {
      cfg[SnakeKey(head[c])] = cells[c];
      continue;
    }
    if (ShareOfBound(toks, 0, unit, glued)) info.derived = true;
    figs.emplace_back(info.metric, info, unit, num, approx);
    // "812.48 ± 3.43" under "t/s" (llama-bench): the spread of its repeats, in its unit.
    std::string sd, sd_glued;
    bool sd_approx = false;
    if (!info.derived && toks.size() >= 3 && OutputVocabulary().spread_marks.count(toks[1]) &&
        NumberToken(toks[2], &sd, &sd_glued, &sd_approx))
      figs.emplace_back("std_" + info.metric, info, unit, sd, false);
  }
  KeepFigure(r, line, t, cfg, figs);
}

using BlockLine = PrintedLine;

// Rows under a header from line `i` on; how many lines they take (0: no header there).
size_t ColumnBlock(OutputRead& r, const std::vector<BlockLine>& lines, size_t i) {
  // A session's prompt line starts another command's printout: no header or row (nor a line past the block).
  auto prompt = [&](size_t k) { return k >= lines.size() || !AfterPrompt(lines[k].text).empty(); };
  const size_t ruled = i + 2 < lines.size() && PrintedRule(lines[i + 1].text) ? 1 : 0;  // a printed table's header
  auto cells_of = [&](size_t k) { return ruled && lines[i].text.find('|') != std::string::npos ? PipeCells(lines[k].text) : LineCells(lines[k].text); };
  if (prompt(i) || prompt(i + 1 + ruled) || ReadBenchLine(lines[i].text).kind != BenchLine::Kind::kNone) return 0;  // a tool's own
  const bool pipes = ruled && lines[i].text.find('|') != std::string::npos;
  PrintedColumns aligned;  // where the rows' columns lie, found only when a header or a row needs it
  std::vector<std::string> head = cells_of(i);
  auto first = cells_of(i + 1 + ruled);
  std::string group;  // a first column of groups named once ("GPU activities:")
  const bool grouped = !pipes && GroupedRow(&first, head.size(), &group);
  if (head.size() != first.size() && !pipes) aligned = ColumnsFrom(lines, i + 1 + ruled), head = HeaderNames(lines[i].raw, aligned);
  if (!HeaderOver(head, first)) return 0;
  FrameworkColumns(&head);  // nvbench's "GPU Time | Noise", "Elements{io}"
  const std::string table_unit = TableUnit(&head, Vocab().unit_phrases);
  size_t k = i + 1 + ruled;
  for (; k < lines.size() && r.out->size() <= kMaxFiguresPerEntry && !prompt(k); ++k) {
    auto cells = cells_of(k);
    if (grouped) GroupedRow(&cells, head.size(), &group), r.context[kWorkloadKey] = group;  // nvprof's "API calls:": a report
    // A shorter row whose cells stand under the first columns ("Total   9.813" under "Total Secs  Pct").
    if (cells.size() < head.size() && !pipes && aligned.extents.empty()) aligned = ColumnsFrom(lines, i + 1 + ruled);
    if (cells.size() < head.size() && aligned.extents.size() == head.size() && FitsColumns(lines[k].raw, aligned))
      cells.resize(head.size());
    // A blank row between groups of rows (BenchmarkDotNet's `|   |   |`) ends none.
    if (pipes && cells.size() == head.size() && std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return c.empty(); }))
      continue;
    if (cells.size() != head.size() || !std::any_of(cells.begin(), cells.end(), StartsNumber)) break;
    MagnitudeCells(head, &cells);  // "23.504G" under "Elem/s"
    ColumnRow(r, head, cells, lines[k].text, lines[k].line, table_unit);
  }
  if (grouped) r.context.erase(kWorkloadKey);
  return k - i;
}

// "naive   m512   0.412 ms   0.65 TFLOP/s   0.6% of 117 TFLOP/s": names,
// then cells of a number and its unit, one metric each.
bool NamesAndFigures(OutputRead& r, const BlockLine& l) {
  const auto cells = LineCells(l.text);
  if (cells.size() < 3 || l.text.find("  ") == std::string::npos) return false;
  size_t k = 0;
  std::string label;
  for (; k < cells.size() && !StartsNumber(cells[k]); ++k) label += (label.empty() ? "" : " ") + cells[k];
  if (k == 0 || k == cells.size() || label.size() > 60) return false;
  std::vector<Fig> figs;
  std::set<std::string> metrics;
  for (; k < cells.size(); ++k) {
    const auto toks = SpaceWords(cells[k]);
    std::string num, glued;
    bool approx = false;
    if (toks.empty() || !NumberToken(toks[0], &num, &glued, &approx)) return false;
    const std::string unit = UnitAfter(toks, 0, glued, "");
    UnitInfo info;
    if (unit.empty() || !OutputUnit(unit, "", &info) || !metrics.insert(info.metric).second) return false;
    if (ShareOfBound(toks, 0, unit, glued)) info.derived = true;
    figs.emplace_back(info.metric, info, unit, num, approx);
  }
  Config cfg = LineConfig(r);
  for (const auto& [key, v] : LabelConfig(label, r.x.vars, r.x.fixed, r.x.generic, &r.x.feeds)) cfg[key] = v;
  KeepFigure(r, l.line, l.text, cfg, figs);
  return true;
}

// "[ 510] 9.4s/step (avg last 10)": a log's counter before its figure
// keys it (step=510); false when the line starts with no counter.
bool CounterLine(OutputRead& r, const BlockLine& l) {
  const std::string& t = l.text;
  const size_t end = CounterEnd(t);
  if (end == 0) return false;
  const auto toks = SpaceWords(t.substr(end));
  std::string num, glued;
  bool approx = false;
  if (toks.empty() || !NumberToken(toks[0], &num, &glued, &approx)) return false;
  const std::string unit = UnitAfter(toks, 0, glued, "");
  UnitInfo info;
  if (unit.empty() || !OutputUnit(unit, "", &info)) return false;
  Config cfg = LineConfig(r);
  cfg["step"] = TrimText(t.substr(1, end - 2));
  KeepFigure(r, l.line, t, cfg, {Fig{info.metric, info, unit, num, approx}});
  return true;
}

// A progress line ("progress: 30.0 s, 11843.2 tps, lat 2.701 ms stddev
// 1.220"): one row at the time it was printed, each field its own metric.
bool ProgressLine(OutputRead& r, const BlockLine& l) {
  std::string at;
  std::vector<ProgressField> fields;
  if (!ProgressFields(l.text, &at, &fields)) return false;
  std::vector<Fig> figs;
  for (const auto& f : fields) {
    UnitInfo info;
    if (!OutputUnit(f.unit, f.name, &info)) continue;
    const std::string metric = QualifiedMetricName(SnakeKey(f.name), info.metric);
    if (std::none_of(figs.begin(), figs.end(), [&](const Fig& g) { return std::get<0>(g) == metric; }))
      figs.emplace_back(metric, info, f.unit, f.digits, f.approx);
  }
  Config cfg = LineConfig(r);
  cfg["at"] = at;
  KeepFigure(r, l.line, l.text, cfg, figs);
  return true;
}

// "[10.63s] Insert 2048 authors": the time elapsed when the event was
// printed, keyed by the event (ElapsedStamp).
bool StampedLine(OutputRead& r, const BlockLine& l) {
  std::string digits, unit, event;
  UnitInfo info;
  if (!ElapsedStamp(l.text, &digits, &unit, &event) || event.size() > 80 || !OutputUnit(unit, "", &info)) return false;
  Config cfg = LineConfig(r);
  cfg["event"] = event;
  KeepFigure(r, l.line, l.text, cfg, {Fig{"elapsed_" + info.metric, info, unit, digits, false}});
  return true;
}

// After a "%" at toks[k]: "of 191 TFLOP/s" or "of peak", the bound it is a
// share of (no run's figure); how many tokens it takes (0: none).
size_t BoundAfter(const std::vector<std::string>& toks, size_t k) {
  if (k + 1 >= toks.size() || Lower(toks[k + 1]) != "of") return 0;
  if (k + 2 >= toks.size()) return 1;
  std::string num, glued;
  bool approx = false;
  if (!NumberToken(toks[k + 2], &num, &glued, &approx)) return 2;
  UnitInfo info;
  return glued.empty() && k + 3 < toks.size() && OutputUnit(toks[k + 3], "", &info) ? 3 : 2;
}

// A word of a measured row's name: "M=128" is a shape key, others name it.
void NameWord(const std::string& w, Config* cfg, std::string* label) {
  const size_t eq = w.find('=');
  if (eq != std::string::npos && eq > 0 && eq + 1 < w.size() && IsIdentStart(w[0])) {
    std::string v = w.substr(eq + 1);
    while (v.size() > 1 && (v.back() == ':' || v.back() == ',')) v.pop_back();  // "K=4096:" before its figure
    (*cfg)[SnakeKey(w.substr(0, eq))] = v;
    return;
  }
  *label += (label->empty() ? "" : " ") + w;
}

// "moe_gemm  M=128 N=4096  0.003 ms  0.02 TFLOP/s  0.0% of 191 TFLOP/s": a
// row's name and shape (words, key=value words), then its figures, each a
// number and its unit, one metric each; "% of <peak>" is a share of that
// bound (derived), the peak no run's figure. False for any other line.
bool MeasuredLine(OutputRead& r, const std::string& t, int line) {
  const auto toks = SpaceWords(t);
  Config cfg = LineConfig(r);
  std::string label;
  std::vector<Fig> figs;
  std::set<std::string> metrics;
  for (size_t k = 0; k < toks.size(); ++k) {
    std::string num, glued;
    bool approx = false;
    const bool number = NumberToken(toks[k], &num, &glued, &approx);
    const std::string unit = number ? UnitAfter(toks, k, glued, "") : "";
    UnitInfo info;
    if (unit.empty() || !OutputUnit(unit, "", &info)) {
      if (!figs.empty() && IsIdentStart(toks[k][0]) && toks[k].find('=') != std::string::npos) break;  // "total= 4 ms iters=80": the loop's, no figure
      if (!figs.empty() && HasAlpha(toks[k])) return false;  // words after the figures: prose
      if (figs.empty()) NameWord(toks[k], &cfg, &label);
      continue;
    }
    if (!metrics.insert(info.metric).second) return false;
    if (glued.empty()) ++k;
    if (const size_t bound = unit == "%" ? BoundAfter(toks, k) : 0; bound > 0) {
      info.derived = true;
      k += bound;
    }
    figs.emplace_back(info.metric, info, unit, num, approx);
  }
  const bool shaped = cfg.size() > LineConfig(r).size();
  // "M=4096 N=4096 K=4096: 812.4 TFLOPS": a shape alone names its row.
  if (figs.empty() || (label.empty() && !shaped) || (!label.empty() && !HasAlpha(label)) || label.size() > 60 ||
      (figs.size() < 2 && !shaped))
    return false;
  for (const auto& [key, v] : LabelConfig(label, r.x.vars, r.x.fixed, r.x.generic, &r.x.feeds)) cfg[key] = v;
  if ((cfg.size() == LineConfig(r).size() || !shaped) && !label.empty()) cfg["case"] = label;
  KeepFigure(r, line, t, cfg, figs);
  return true;
}

// A log line's fields: "step 100 | elapsed 2.10m | loss: 3.87 | tok/s 12,345"
// (each part a name and its value, or a value and its unit) or "step: 10
// loss: 5.98  tps: 829" (names ending in ':' before their values).
using Fields = std::vector<std::pair<std::string, std::string>>;

// A number as printed, with a magnitude glued to it or not ("12,345", "15.2k").
bool MagnitudeNumber(const std::string& tok) {
  std::string num, unit;
  bool approx = false;
  return NumberToken(tok, &num, &unit, &approx) && (unit.empty() || ReaderLexicon().magnitudes.count(unit) > 0);
}

bool PipeField(const std::string& part, Fields* out) {
  const std::string p = PipeFieldForm(TrimText(part));  // "8.78 GF (6N: N=1.3B)", "13.53 GB alloc"
  std::string name, value;
  if (const size_t colon = p.find(": "); colon != std::string::npos) {
    name = TrimText(p.substr(0, colon)), value = TrimText(p.substr(colon + 2));
  } else if (const size_t sp = p.rfind(' '); sp != std::string::npos) {
    name = TrimText(p.substr(0, sp)), value = p.substr(sp + 1);
    if (MagnitudeNumber(name.substr(0, name.find(' '))) && !IsNumber(value))  // "12,345 tok/s", "15.2k tok/s"
      std::swap(name, value), name = TrimText(name), value = TrimText(value);
  }
  const auto vt = SpaceWords(value);
  if (name.empty() || name.size() > 32 || !HasAlpha(name) || vt.empty() || vt.size() > 2) return false;
  std::string num, glued;
  bool approx = false;
  if (!NumberToken(vt[0], &num, &glued, &approx)) return false;
  out->emplace_back(name, vt.size() == 2 ? vt[0] + vt[1] : vt[0]);
  return true;
}

// "step:100/5000", "train_loss:3.2801", "step_avg:401.12ms": a name glued to
// its value by a colon (a speed-run's log line); a counter's total after
// '/' is its schedule, not its value.
bool GluedField(const std::string& w, Fields* out) {
  const size_t colon = w.find(':');
  if (colon == std::string::npos || colon < 2 || colon + 1 >= w.size() || !IsIdentStart(w[0]) ||
      !std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) { return IsIdentChar(c) || c == '.'; }))
    return false;
  std::string value = w.substr(colon + 1), num, glued;
  bool approx = false;
  if (const size_t slash = value.find('/'); slash != std::string::npos && Vocab().counters.count(Lower(w.substr(0, colon))) &&
                                            IsNumber(value.substr(slash + 1)))
    value.resize(slash);
  if (!NumberToken(value, &num, &glued, &approx)) return false;
  out->emplace_back(w.substr(0, colon), value);
  return true;
}

bool ColonFields(const std::vector<std::string>& toks, Fields* out) {
  for (size_t k = 0; k < toks.size(); ++k) {
    if (GluedField(toks[k], out) || k + 1 >= toks.size()) continue;
    const std::string& w = toks[k];
    if (w.size() < 2 || w.back() != ':' || !IsIdentStart(w[0]) ||
        !std::all_of(w.begin(), w.end() - 1, [](char c) { return IsIdentChar(c) || c == '/' || c == '.'; }))
      continue;
    std::string num, glued;
    bool approx = false;
    if (!NumberToken(toks[k + 1], &num, &glued, &approx)) continue;
    std::string value = toks[k + 1];
    UnitInfo info;
    if (glued.empty() && k + 2 < toks.size() && toks[k + 2].back() != ':' && OutputUnit(toks[k + 2], "", &info))
      value += toks[k + 2];  // "time: 41 ms"
    out->emplace_back(w.substr(0, w.size() - 1), value);
  }
  return out->size() >= 2;
}

// "Step 500: train loss 3.4071, val loss 3.4456": a counter and its value
// before a colon, then fields split by ", ", each a name and its value: the
// counter's field and the others into `out`. Nothing for any other line.
void CounterCommaFields(const std::string& t, Fields* out) {
  const size_t colon = t.find(": ");
  const auto head = SpaceWords(t.substr(0, colon == std::string::npos ? 0 : colon));
  if (head.size() != 2 || !Vocab().counters.count(Lower(head[0])) || !IsNumber(head[1])) return;
  Fields fields{{head[0], head[1]}};
  std::stringstream ss(t.substr(colon + 2));
  for (std::string part; std::getline(ss, part, ',');)
    if (!PipeField(part, &fields)) return;
  if (fields.size() >= 2) *out = std::move(fields);
}

// A plain decimal written with three significant digits or more ("0.688",
// "3.1713"; not "0.001", "1e-4" or "512"): how a measured score is written,
// not a setting.
bool MeasuredDecimal(const std::string& v) {
  if (v.empty() || std::count(v.begin(), v.end(), '.') != 1 ||
      !std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }))
    return false;
  const size_t first = v.find_first_not_of("0.");
  return first != std::string::npos && std::count_if(v.begin() + static_cast<long>(first), v.end(), [](char c) {
                                          return std::isdigit(static_cast<unsigned char>(c));
                                        }) >= 3;
}

// "PPL: 23.84 | NLL: 3.17 | 2-gram: 0.688": beside a unitless figure the
// line measures, a field whose value is a MeasuredDecimal under a name that
// is no setting, count or counter is a unitless figure of its own.
void ScoresBeside(const Fields& fields, Config* cfg, std::vector<Fig>* figs) {
  if (std::none_of(figs->begin(), figs->end(), [](const Fig& f) { return std::get<2>(f).empty(); })) return;
  // A sweep's settings ("lr: 0.000300", "dropout: 0.125"; key_names of dumps.json) are never scores.
  static const auto* settings = [] {
    auto* out = new std::set<std::string>;
    for (const auto& [phrase, key] : DataWordMap("data/reader/dumps.json", "key_names")) out->insert(SnakeKey(phrase)), out->insert(key);
    return out;
  }();
  for (const auto& [k, v] : fields) {
    const std::string key = SnakeKey(k);
    const auto it = cfg->find(key);
    if (it == cfg->end() || it->second != v || !MeasuredDecimal(v) || SettingKey(k) || CountName(k) ||
        Vocab().counters.count(Lower(key)) || settings->count(Lower(key)))
      continue;
    figs->emplace_back(key, UnitInfo{key, 1, false}, "", v, false);
    cfg->erase(it);
  }
}

// A line of several named fields: a counter's value ("step 100") keys the
// line, each other field a figure with its name or a setting ("lr 3e-4").
bool FieldsLine(OutputRead& r, const std::string& t, int line) {
  Fields fields;
  // Fields split by " | ", or by "; " ("SIZE: 2048; average elapsed time: 0.0565s; performance: 303.9 GFLOPS").
  const char sep = t.find(" | ") != std::string::npos ? '|' : t.find("; ") != std::string::npos ? ';' : '\0';
  if (sep != '\0') {
    std::stringstream ss(t);
    for (std::string part; std::getline(ss, part, sep);) PipeField(part, &fields);
    if (fields.size() < 2) fields.clear();
  }
  if (fields.empty()) CounterCommaFields(t, &fields);
  if (fields.empty() && !ColonFields(SpaceWords(t), &fields)) return false;
  Config cfg = LineConfig(r);
  std::vector<Fig> figs;
  for (const auto& [k, v] : fields) {
    if (Vocab().counters.count(Lower(SnakeKey(k)))) cfg[SnakeKey(k)] = v;
    else PairFigure(k, v, &cfg, &figs);
  }
  if (figs.empty()) return false;
  ScoresBeside(fields, &cfg, &figs);
  KeepFigure(r, line, t, cfg, figs);
  return true;
}

// A bench tool's line (blocks_benchtools.h): figures keyed by the benchmark it (or one above) names; a
// change against its last run is derived (listed); chatter and a table's header state nothing.
bool BenchToolLine(OutputRead& r, const BlockLine& l) {
  const BenchLine b = ReadBenchLine(l.text);
  std::string prefix;
  if (b.kind == BenchLine::Kind::kNone || (b.kind == BenchLine::Kind::kChatter && !Pairs(l.text, &prefix).empty())) return false;
  if (b.kind == BenchLine::Kind::kChange && r.unread)
    r.unread->push_back({l.line, FigureText(l.text), "a difference against the tool's last run: derived, not tabled"});
  if (b.kind != BenchLine::Kind::kFigures) return true;
  if (!b.name.empty()) r.context["benchmark"] = b.name;
  std::vector<Fig> figs;
  for (const auto& v : b.values)
    if (UnitInfo info; OutputUnit(v.unit, "", &info)) figs.emplace_back((v.role.empty() ? "" : v.role + "_") + info.metric, info, v.unit, v.digits, false);
  const size_t before = r.out->size();
  Config cfg = LineConfig(r);
  for (const auto& [k, v] : b.keys) cfg[k] = v;  // "BenchmarkSet-8": procs=8
  KeepFigure(r, l.line, l.text, cfg, figs);
  if (b.name.empty()) JoinLineAbove(before, l.line, r.out);  // "thrpt:" under "name time:"
  return true;
}

// "Round 3:  712ms (LLM: 314ms, Probe: 371ms)": the total, keyed by its
// counter ("round=3") or named, and each part its own figure (component=LLM).
bool BreakdownLine(OutputRead& r, const BlockLine& l) {
  Breakdown bd;
  if (!PrintedBreakdown(l.text, &bd)) return false;
  Config cfg = LineConfig(r);
  const auto words = Words(bd.name);
  if (words.size() == 2 && Vocab().counters.count(Lower(words[0])) && IsNumber(words[1])) cfg[Lower(words[0])] = words[1];
  else cfg["metric"] = bd.name;
  for (size_t k = 0; k <= bd.parts.size(); ++k) {
    const auto& [part, value] = k == 0 ? std::pair<std::string, PrintedValue>{"", bd.total} : bd.parts[k - 1];
    UnitInfo info;
    if (!OutputUnit(value.unit, "", &info)) continue;
    Config own = cfg;
    if (!part.empty()) own["component"] = part;
    KeepFigure(r, l.line, l.text, own, {Fig{info.metric, info, value.unit, value.digits, false}});
  }
  return true;
}

void ReadLine(OutputRead& r, const BlockLine& l) {
  if (std::string_view cmd = AfterPrompt(l.text); !cmd.empty()) {  // a session's next command
    r.group.clear(), r.group_unit.clear();
    r.context.erase("args"), r.context.erase(kWorkloadKey);
    r.record.clear(), r.record_row = static_cast<size_t>(-1);
    if (std::string args = PositionalArgs(std::string(cmd)); !args.empty()) r.context["args"] = args;
    if (r.sessions > 1) KeyCommand(r, std::string(cmd), false);  // what tells the session's printouts apart
    return;
  }
  std::string title;
  if (ReportLine(l.text, &title)) {  // a profiler's next report: a workload of its own
    r.group.clear(), r.group_unit.clear();
    r.context[kWorkloadKey] = title;
    return;
  }
  if (!StatisticLine(l.text)) r.timing = static_cast<size_t>(-1), r.pending.clear();  // a record's lines end
  if (bool closing = false; !PrintedRecordBanner(l.text, &closing).empty() && !closing && PrintedTitle(l.text, &title))
    r.group.clear(), r.group_unit.clear();  // a record opens: no group of the last one's goes on
  if (SeriesTitleLine(r, l.text) || SeriesValuesLine(r, l.text, l.line)) return;
  // hyperfine's "Benchmark 1: X='a b' cmd" first: its command's words are no printed settings.
  if (BenchmarkLine(r, l.text) || BenchToolLine(r, l) || AsideLine(r, l.text, l.line) || ArrowRateLine(r, l.written.empty() ? l.text : l.written, l.line) || BreakdownLine(r, l) || CounterLine(r, l) || ProgressLine(r, l) || RatedLine(r, l) || StampedLine(r, l) || JsonLine(r, l.text, l.line) || KeyValueLine(r, l.text, l.line) ||
      TimingLine(r, l.text, l.line) || FieldsLine(r, l.text, l.line) || UnitNamedLine(r, l.text, l.line) || NamedLine(r, l.text, l.line) ||
      TookLine(r, l.text, l.line))
    return;
  if (PrintedTitle(l.text, &title)) {
    bool closing = false;
    const bool opens = !PrintedRecordBanner(l.text, &closing).empty();  // a record opens
    if (opens) r.record = title;
    if (opens || r.record.empty()) r.record_row = static_cast<size_t>(-1);  // a title inside a record is no new row
    r.group_unit = NameUnit(title, &r.group);
    r.series.clear();
    return;
  }
  if (bool closing = false; !PrintedRecordBanner(l.text, &closing).empty() && closing) {  // the record ends
    r.record.clear(), r.record_row = static_cast<size_t>(-1);
    return;
  }
  if (!StatesFigure(l.text) || NamesAndFigures(r, l) || MeasuredLine(r, l.text, l.line)) return;
  Bullet b;
  b.text = l.text;
  b.line = l.line;
  WalkScope scope = r.scope;
  scope.context = LineConfig(r);
  Walk(b, scope, r.x, r.out, r.unread);
}

}  // namespace
}  // namespace output_read

using namespace output_read;  // NOLINT: this file's own reading

// The lines as the program printed them (trimmed), before a tool line's
// form rewrote them: what a bench framework's own reader reads.
static std::vector<BlockLine> AsPrinted(std::vector<BlockLine> lines) {
  for (auto& l : lines) l.text = parse_detail::Trim(l.raw);
  return lines;
}

void OutputFigures(const Entry& entry, const FencedBlock& block, const Config& context, const EntryCtx& x,
                   std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  // A block named for a language that is no shell holds a program's source
  // unless its lines read as a printout ("```python" of a model's code).
  if (block.output_cue == "info" && !LooksLikeOutput(block.text)) return;
  OutputRead r{x, BlockContext(entry, block, context, x), "", "", "", {}, out, unread, {}, static_cast<size_t>(-1), 0};
  const size_t before = out->size();
  ResultLines(block.text, block.output_cue == "prompt" ? block.line - 1 : block.line, r.context, x, out);
  std::set<int> read;  // lines the harness's RESULT reader and the shell's `time` took
  for (size_t k = before; k < out->size(); ++k) read.insert((*out)[k].line);
  ShellTimeLines(block.text, block.output_cue == "prompt" ? block.line - 1 : block.line, r.context, x, out, &read);
  std::vector<BlockLine> lines = PrintedLines(block);
  RuledUnitHeaders(&lines);  // ncu's `--metrics` rows under a rule alone
  FrameworkTables(AsPrinted(lines), r.context, x, out, &read, unread);  // JMH's, k6's, benchstat's: first
  ToolRunLines(lines, r.context, x, out, &read, unread);
  std::vector<std::pair<int, std::string>> texts;  // for a dump of pairs (figures_dumps.h)
  for (const auto& l : lines) r.sessions += AfterPrompt(l.text).empty() ? 0 : 1, texts.emplace_back(l.line, l.text);
  for (size_t i = 0; i < lines.size() && out->size() <= kMaxFiguresPerEntry; ++i) {
    if (lines[i].text.empty()) r.series.clear();  // a title's series end at a blank line
    if (lines[i].text.empty() || read.count(lines[i].line)) continue;
    if (const size_t rows = PairDumpRows(texts, i); rows > 0) {
      DumpFigures(entry, {texts.begin() + static_cast<long>(i), texts.begin() + static_cast<long>(i + rows)}, r.context, x, out, unread);
      i += rows - 1;
      continue;
    }
    std::string stamp, unit, event;  // "[3.41s] Insert 4096 users": no column of a table
    if (const size_t rows = ElapsedStamp(lines[i].text, &stamp, &unit, &event) ? 0 : ColumnBlock(r, lines, i); rows > 0) {
      i += rows - 1;
      continue;
    }
    ReadLine(r, lines[i]);
  }
  RecordRows(lines, before, out);
  LoopFigures(entry, block, before, out);
}

// A printed line of fields pasted as a bullet's one code span ("`SIZE: 2048;
// average elapsed time: 0.0565s; performance: 303.9 GFLOPS`"): its text;
// "" for any other bullet (bare text with `;` is prose: "baseline: 12 ms;
// fused: 8 ms" names two runs).
static std::string PrintedFieldsSpan(const Bullet& b) {
  const std::string& t = b.text;
  if (!b.children.empty() || t.size() < 3 || t.size() > 400 || t.front() != '`' || t.back() != '`' ||
      t.find('`', 1) != t.size() - 1)
    return "";
  const std::string inner = t.substr(1, t.size() - 2);
  return inner.find("; ") != std::string::npos || inner.find(" | ") != std::string::npos ? inner : "";
}

bool PrintedBullet(const Bullet& b, const WalkScope& scope, const EntryCtx& x, std::vector<RecordedFigure>* out,
                   std::vector<UnreadFigures>* unread) {
  const std::string joined = PrintedPairs(b);
  const std::string fields = joined.empty() ? PrintedFieldsSpan(b) : "";
  if (joined.empty() && fields.empty()) return false;
  FencedBlock at;
  at.line = b.line;  // the commands above it, as above a fence
  WalkScope own = scope;
  for (auto it = own.context.begin(); it != own.context.end();)  // a parent bullet's command is no value
    it = LooksLikeCommandLine(it->second) || it->second.find(" --") != std::string::npos ? own.context.erase(it) : std::next(it);
  OutputRead r{x, x.entry ? BlockContext(*x.entry, at, own.context, x) : own.context, "", "", "", own, out, unread, {}, static_cast<size_t>(-1), 0};
  const size_t before = out->size();
  return (fields.empty() ? KeyValueLine(r, joined, b.line) : FieldsLine(r, fields, b.line)) && out->size() > before;
}

std::string PrintedKeyUnit(const std::string& key) {
  std::string bare;
  return NameUnit(key, &bare);
}

bool UnitlessMetricName(const std::string& key) { return UnitlessMetric(key); }

}  // namespace moelog::logbook::reader
