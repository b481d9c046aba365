// Load and I/O benchmark tools' printouts (the figures stage): wrk, fio,
// ApacheBench and sysbench print one run over many lines (a table of
// statistics, `Label: value` fields, `key=value` lists, percentile lines).
// One run's printout is one row, every figure on it named as the tool names
// it: its line's label, the group title it is printed under, its column or
// key ("latency_avg_time_s", "read_iops", "clat_p99_time_s",
// "time_per_request_mean_time_s"). A run opens at a tool's first line, at a
// command, or where a metric comes again. The words are data
// (bench_printouts.json "tool_runs").
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/reader/blocks.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/figures_toollines.h"
#include "logbook/reader/internal.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

struct ToolWords {
  std::vector<std::string> marks, starts, starts_within, summaries, chatter, bare_titles, elapsed, per_second, counts;
  std::set<std::string> columns;
  std::vector<std::string> row_columns, counter_starts, ratio_phrases;
};

const ToolWords& Tools() {
  static const ToolWords w = [] {
    ToolWords out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("tool_runs")) return out;
    const nlohmann::json& t = j["tool_runs"];
    auto list = [&](const char* key, std::vector<std::string>* into) {
      if (t.contains(key) && t[key].is_array())
        for (const auto& s : t[key])
          if (s.is_string()) into->push_back(s.get<std::string>());
    };
    list("marks", &out.marks), list("starts", &out.starts), list("starts_within", &out.starts_within);
    list("summaries", &out.summaries), list("chatter", &out.chatter), list("bare_titles", &out.bare_titles);
    list("row_columns", &out.row_columns), list("counter_starts", &out.counter_starts);
    list("ratio_phrases", &out.ratio_phrases);
    list("elapsed_words", &out.elapsed), list("per_second", &out.per_second), list("count_keys", &out.counts);
    std::vector<std::string> cols;
    list("columns", &cols);
    out.columns.insert(cols.begin(), cols.end());
    return out;
  }();
  return w;
}

bool StartsAny(const std::string& lower, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return lower.rfind(w, 0) == 0; });
}

bool ContainsAny(const std::string& lower, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return lower.find(w) != std::string::npos; });
}

// A number as printed, with a magnitude letter ("14.02k") and a unit glued
// to it or in brackets ("7.07MB", "[ms]"): its value in its unit.
struct Value {
  double value = 0;  // as written, the magnitude's factor aside
  std::string unit, magnitude;
  double factor = 1;  // the magnitude's
  int decimals = 0;
};

bool ValueOf(const std::string& tok, Value* v) {
  std::string t = tok;
  while (!t.empty() && (t.back() == ',' || t.back() == ']' || t.back() == ')')) t.pop_back();
  while (!t.empty() && (t.front() == '[' || t.front() == '(')) t.erase(t.begin());
  size_t j = 0;
  std::string num = DigitsAt(t, &j);
  if (num.empty() || DigitsAt(t, &(j = 0)).size() != num.size()) return false;
  if (const size_t e = ExponentEnd(t, num.size()); e > num.size()) num = t.substr(0, e);  // YCSB's "6.0014592E7"
  const auto n = ParseNumber(num);
  if (!n || (!std::isdigit(static_cast<unsigned char>(t[0])) && t[0] != '.' && t[0] != '-')) return false;
  size_t len = 0;
  const double mag = MagnitudeAt(t + " ", num.size(), &len);
  v->value = *n, v->factor = mag;
  v->magnitude = t.substr(num.size(), len);
  v->decimals = WrittenDecimals(num);
  v->unit = t.substr(num.size() + len);
  return true;
}

// The snake-case name of printed words ("Req/Sec" -> "req_sec", "Time per
// request" -> "time_per_request"); a capital after a small letter starts a
// word (YCSB's "AverageLatency", "99thPercentileLatency").
std::string Snake(const std::string& words) {
  std::string out;
  char prev = ' ';
  for (char ch : words) {
    const auto u = static_cast<unsigned char>(ch);
    if (std::isupper(u) && std::islower(static_cast<unsigned char>(prev)) && !out.empty() && out.back() != '_') out += '_';
    prev = ch;
    ch = static_cast<char>(std::tolower(u));
    if (std::isalnum(static_cast<unsigned char>(ch))) out += ch;
    else if (ch == '%') out += "pct";
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

// A unit in parentheses or brackets in a title or label ("Latency (ms)",
// "bw (  KiB/s)", "slat (nsec)"): the unit, and the text without it.
std::string ParenUnit(const std::string& text, std::string* bare) {
  *bare = text;
  const size_t open = text.find('('), close = text.find(')', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return "";
  const std::string inner = parse_detail::Trim(text.substr(open + 1, close - open - 1));
  UnitInfo info{};
  if (inner.empty() || inner.find(' ') != std::string::npos || !OutputUnit(inner, "", &info)) return "";
  *bare = parse_detail::Trim(text.substr(0, open) + text.substr(close + 1));
  return inner;
}

// A label or key that is a unit alone ("Requests/sec", "IOPS"), never a
// statistic's word ("min": no minutes).
bool UnitLabel(const std::string& label) {
  UnitInfo info{};
  return !StatisticWord(Lower(label)) && !Tools().columns.count(Lower(label)) && OutputUnit(label, "", &info);
}

// The hint of a figure that counts (no unit, named by its event).
constexpr char kCount[] = "\x01count";

struct Run {
  StoredRun run;
  int line = 0;
  std::string text;
  std::vector<int> lines;
  std::string written;  // the lines its figures were read from, as printed
  bool open = false;
};

struct ToolRead {
  ToolRead(const EntryCtx& ctx, const Config& c, std::vector<RecordedFigure>* o, std::set<int>* rd)
      : x(ctx), context(c), out(o), read(rd) {}
  const EntryCtx& x;
  Config context;
  std::vector<RecordedFigure>* out;
  std::set<int>* read;
  Run run;
  std::string group, group_unit;
  std::vector<std::string> columns;
  bool summary = false;
  bool counters = false;  // under perf stat's "Performance counter stats for"
};

void Close(ToolRead& r) {
  if (!r.run.run.metrics.empty() && r.out->size() <= kMaxFiguresPerEntry) {
    RecordedFigure f{r.run.run, r.run.line, r.run.text};
    for (int l : r.run.lines)
      if (l != r.run.line) f.joined_lines.push_back(l);
    f.written = r.run.written;
    r.out->push_back(std::move(f));
  }
  r.run = Run{};
  r.run.run = NewRecorded(r.x, r.context, 0);
  r.group.clear(), r.group_unit.clear(), r.columns.clear(), r.summary = false;
}

// One figure of the run, named `name`, in its unit (else `hint`'s): false
// when no unit names it. A metric the run holds already opens a new run.
bool Add(ToolRead& r, const std::string& name, const Value& v, const std::string& hint, int line, const std::string& text) {
  std::string unit = v.unit.empty() ? hint : v.unit;
  if (UnitInfo known{}; !UnitOf(unit, &known) && UnitOf(Lower(unit), &known)) unit = Lower(unit);  // "Req/Sec"
  std::string metric;
  double factor = 1;
  UnitInfo info{};
  if (unit == "%") metric = name + "_pct";
  else if (unit == kCount && !name.empty()) metric = name, unit.clear();  // a counter's count (perf's "instructions")
  else if (OutputUnit(unit, "", &info) && !info.derived) metric = QualifiedMetricName(name, info.metric), factor = info.factor;
  else return false;
  if (r.run.run.metrics.count(metric)) {
    const Config keys = r.run.run.config;
    Close(r);
    r.run.run.config = keys;
  }
  if (r.run.line == 0) r.run.line = line, r.run.text = parse_detail::Trim(text), r.run.run.line = line;
  r.run.run.metrics[metric] = v.value * v.factor * factor;
  r.run.run.units[metric] = v.magnitude.empty() ? unit : v.magnitude + " " + unit;  // "14.02k": shown as written
  r.run.run.decimals[metric] = v.decimals;
  if (r.run.lines.empty() || r.run.lines.back() != line) r.run.lines.push_back(line), r.run.written += text + "\n";
  return true;
}

std::string Named(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : a + "_" + b;
}

// "50%  2.11ms", " 99.900%  5.72ms", " 100%  21 (longest request)": a
// percentile of the group's.
bool PercentileLine(ToolRead& r, const std::vector<std::string>& toks, const PrintedLine& l) {
  if (toks.size() < 2 || toks[0].size() < 2 || toks[0].back() != '%') return false;
  std::string pct = toks[0].substr(0, toks[0].size() - 1);
  const auto n = ParseNumber(pct);
  Value v;
  if (!n || !ValueOf(toks[1], &v)) return false;
  if (pct.find('.') != std::string::npos) {
    while (pct.back() == '0') pct.pop_back();
    if (pct.back() == '.') pct.pop_back();
  }
  const std::string first = Snake(Words(r.group).empty() ? "" : Words(r.group)[0]);
  const bool bare = std::find(Tools().bare_titles.begin(), Tools().bare_titles.end(), first) != Tools().bare_titles.end();
  Add(r, Named(bare ? "" : first, "p" + Snake(pct)), v, r.group_unit, l.line, l.text);
  return true;
}

// fio's "|  1.00th=[  383],  5.00th=[  437]," under "clat percentiles (usec):".
bool FioPercentiles(ToolRead& r, const PrintedLine& l) {
  if (l.text.empty() || l.text[0] != '|') return false;
  const std::string first = Snake(Words(r.group).empty() ? "" : Words(r.group)[0]);
  for (size_t p = l.text.find("th=["); p != std::string::npos; p = l.text.find("th=[", p + 4)) {
    size_t b = p;
    while (b > 0 && (std::isdigit(static_cast<unsigned char>(l.text[b - 1])) || l.text[b - 1] == '.')) --b;
    std::string pct = l.text.substr(b, p - b);
    const size_t close = l.text.find(']', p);
    Value v;
    if (close == std::string::npos || !ValueOf(parse_detail::Trim(l.text.substr(p + 4, close - p - 4)), &v)) continue;
    while (pct.find('.') != std::string::npos && (pct.back() == '0' || pct.back() == '.')) pct.pop_back();
    Add(r, Named(first, "p" + Snake(pct)), v, r.group_unit, l.line, l.text);
  }
  return true;
}

// "Thread Stats   Avg   Stdev   Max   +/- Stdev", "min  mean[+/-sd] median
// max": the statistic columns of the rows below.
bool ColumnsLine(ToolRead& r, const std::vector<std::string>& toks) {
  for (const auto& t : toks)
    if (std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) return false;
  std::vector<std::string> cols;
  for (size_t k = 0; k < toks.size(); ++k) {
    std::string t = Lower(toks[k]);
    if (t == "+/-" && k + 1 < toks.size()) t += Lower(toks[++k]);
    if (const size_t b = t.find('['); b != std::string::npos && t.back() == ']') {
      std::string spread = t.substr(b + 1, t.size() - b - 2);  // "mean[+/-sd]": the mean and its spread
      if (spread.rfind("+/-", 0) == 0) spread.erase(0, 3);
      cols.push_back(t.substr(0, b)), cols.push_back(spread);
      continue;
    }
    if (Tools().columns.count(t)) cols.push_back(t);
    else if (!cols.empty()) return false;
  }
  if (cols.size() < 3) return false;
  for (auto& c : cols) c = c.rfind("+/-", 0) == 0 ? "within_" + Snake(c) : Snake(c);  // "+/- Stdev": the share within one
  r.columns = cols;
  return true;
}

// "Latency  2.31ms  1.02ms  41.70ms  88.12%", "Connect:  0  1  0.4  1  4": a
// row of the statistic columns above, named by its label.
bool ColumnsRow(ToolRead& r, const std::vector<std::string>& toks, const PrintedLine& l) {
  size_t k = 0;
  std::string label;
  Value v;
  while (k < toks.size() && !ValueOf(toks[k], &v)) label += (label.empty() ? "" : " ") + toks[k++];
  // A row pasted without its header ("Latency  594.62us  7.77us  0.96ms  94.90%"): the tool's own columns.
  if (r.columns.empty() && !label.empty() && label.back() != ':' && toks.size() - k == Tools().row_columns.size())
    r.columns = Tools().row_columns;
  if (r.columns.empty() || label.empty() || toks.size() - k != r.columns.size()) return false;
  while (!label.empty() && label.back() == ':') label.pop_back();
  const bool unit_label = UnitLabel(label);  // "Req/Sec": the label is the unit, the column the name
  const std::string hint = unit_label ? label : r.group_unit;
  for (size_t c = 0; k < toks.size(); ++k, ++c)
    if (ValueOf(toks[k], &v)) Add(r, Named(unit_label ? "" : Snake(label), r.columns[c]), v, hint, l.line, l.text);
  return true;
}

// "read: IOPS=52.1k, BW=204MiB/s (213MB/s)", "clat (usec): min=61, max=4120",
// "cpu : usr=9.81%, sys=31.20%": each key's value named by the label and
// the key; a key that is a unit (IOPS) names the label's own figure.
bool KeyValuesLine(ToolRead& r, const std::string& text, const PrintedLine& l) {
  const size_t colon = text.find(':'), eq = text.find('=');
  if (colon == std::string::npos || eq == std::string::npos || eq < colon) return false;
  std::string label;
  const std::string unit = ParenUnit(parse_detail::Trim(text.substr(0, colon)), &label);
  label = Snake(label);
  std::string rest = text.substr(colon + 1);
  for (size_t p = rest.find('('); p != std::string::npos; p = rest.find('(')) {  // "(213MB/s)(11.9GiB/60001msec)"
    const size_t e = rest.find(')', p);
    rest.erase(p, e == std::string::npos ? std::string::npos : e - p + 1);
  }
  for (const auto& pair : SplitList(rest, ',')) {
    const size_t at = pair.find('=');
    if (at == std::string::npos) continue;
    const std::string key = parse_detail::Trim(pair.substr(0, at));
    const std::vector<std::string> value = SpaceWords(pair.substr(at + 1));
    Value v;
    if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0])) || value.empty() ||
        std::count(Tools().counts.begin(), Tools().counts.end(), Lower(key)) || !ValueOf(value[0], &v))
      continue;
    while (!v.unit.empty() && (v.unit.back() == ';' || v.unit.back() == ',')) v.unit.pop_back();
    UnitInfo info{};
    if (v.unit.empty() && unit.empty() && UnitLabel(key)) {
      Add(r, label, v, key, l.line, l.text);
      continue;
    }
    if (v.unit.empty() && unit.empty() && Lower(key) != "iops" && label != "iops") continue;  // a count
    Add(r, Named(label, Snake(key)), v, v.unit.empty() && unit.empty() ? "iops" : unit, l.line, l.text);
  }
  return true;
}

// "4 threads and 128 connections": counts the run was set up with, keys
// (threads=4, connections=128).
bool CountsLine(ToolRead& r, const std::vector<std::string>& toks) {
  if (toks.size() < 2 || toks.size() > 5) return false;
  Config keys;
  for (size_t k = 0; k < toks.size(); ++k) {
    if (k % 3 == 2) {
      if (Lower(toks[k]) != "and") return false;
      continue;
    }
    const bool number = k % 3 == 0;
    const std::string& t = toks[k];
    if (number != std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
        (!number && !std::all_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); })))
      return false;
    if (!number) keys[Lower(t)] = toks[k - 1];
  }
  if (keys.empty() || toks.size() % 3 != 2) return false;
  for (const auto& [k, v] : keys) r.run.run.config[k] = v, r.context[k] = v;
  return true;
}

// "1673201 requests in 30.03s, 212.44MB read": each figure with a unit named
// by the word after it, or a duration after "in"; the count before them
// named by its event ("requests").
bool ElapsedLine(ToolRead& r, const std::vector<std::string>& toks, const PrintedLine& l) {
  Value v, count;
  if (toks.size() < 4 || !ValueOf(toks[0], &count) || !count.unit.empty()) return false;
  bool any = false;
  for (size_t k = 1; k < toks.size(); ++k) {
    if (!ValueOf(toks[k], &v) || v.unit.empty()) continue;
    const auto& el = Tools().elapsed;
    std::string name;
    if (std::find(el.begin(), el.end(), Lower(toks[k - 1])) != el.end()) name = "duration";
    else if (k + 1 < toks.size() && std::isalpha(static_cast<unsigned char>(toks[k + 1][0]))) name = Snake(toks[k + 1]);
    any = (!name.empty() && Add(r, name, v, "", l.line, l.text)) || any;
  }
  // "3267 requests in 30.02s": how many events the elapsed time held, a
  // count named by its event's word.
  if (any && std::isalpha(static_cast<unsigned char>(toks[1][0])) && count.factor == 1)
    Add(r, Snake(toks[1]), count, kCount, l.line, l.text);
  return any;
}

// "Requests/sec:  55716.31", "Transfer/sec:  7.07MB", "Time per request:
// 5.295 ms (mean)", "events per second:  4512.33", "min:  0.85" under
// "Latency (ms):": a field of the run, named by its label (and the group of
// a unit above it) and the words after its number.
bool FieldLine(ToolRead& r, const std::string& text, const PrintedLine& l) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string label = parse_detail::Trim(text.substr(0, colon));
  std::vector<std::string> toks = SpaceWords(text.substr(colon + 1));
  Value v;
  if (toks.empty() || !ValueOf(toks[0], &v)) return false;
  size_t k = 1;
  UnitInfo info{};
  if (v.unit.empty() && k < toks.size() && OutputUnit(toks[k], "", &info)) v.unit = toks[k++];
  std::string qualifier;
  for (; k < toks.size(); ++k) qualifier += " " + toks[k];
  qualifier = Snake(qualifier);
  std::string lower = Lower(label), hint;
  for (const auto& per : Tools().per_second)
    if (const size_t at = lower.find(" " + per); at != std::string::npos && v.unit.empty()) {
      hint = Snake(label.substr(0, at)) + "/s", label.clear();
      break;
    }
  if (const size_t slash = lower.rfind('/'); !label.empty() && slash != std::string::npos && !v.unit.empty() &&
                                             (lower.substr(slash) == "/sec" || lower.substr(slash) == "/s"))
    v.unit += "/s", label = label.substr(0, slash);  // "Transfer/sec: 7.07MB"
  else if (!label.empty() && v.unit.empty() && UnitLabel(label))
    hint = label, label.clear();  // "Requests/sec: 55716.31"
  if (v.unit.empty() && hint.empty()) hint = r.group_unit;
  const std::string group = r.group_unit.empty() ? "" : Snake(r.group);
  if (!Add(r, Named(Named(group, Snake(label)), qualifier), v, hint, l.line, l.text)) return v.unit.empty() && hint.empty();
  return true;
}

// "Latency (ms):", "Latency Distribution", "clat percentiles (usec):",
// "Connection Times (ms)": the group of the lines below, its unit.
bool TitleLine(ToolRead& r, const std::string& text) {
  std::string bare;
  const std::string unit = ParenUnit(text, &bare);
  for (char c : bare)
    if (std::isdigit(static_cast<unsigned char>(c))) return false;
  while (!bare.empty() && bare.back() == ':') bare.pop_back();
  if (bare.empty()) return false;
  r.group = bare, r.group_unit = unit, r.columns.clear();
  return true;
}

// perf stat's counter lines ("4,112,530,118  cycles  #  3.414 GHz",
// "1,204.55 msec task-clock", "1.2069 seconds time elapsed"): the count (or
// time) named by its event; what follows '#' is derived from it, no figure.
bool CounterLine(ToolRead& r, const std::vector<std::string>& toks, const PrintedLine& l) {
  Value v;
  if (!r.counters || toks.size() < 2 || !ValueOf(toks[0], &v) || !v.unit.empty()) return false;
  size_t k = 1;
  UnitInfo info{};
  if (k + 1 < toks.size() && toks[k + 1] != "#" && OutputUnit(toks[k], "", &info)) v.unit = toks[k++];
  std::string event;
  for (; k < toks.size() && toks[k] != "#" && toks[k][0] != '('; ++k) event += (event.empty() ? "" : " ") + toks[k];
  if (event.empty() || std::isdigit(static_cast<unsigned char>(event[0]))) return false;
  const bool counted = v.unit.empty() && !UnitLabel(event);
  Add(r, counted ? Snake(event) : UnitLabel(event) ? "" : Snake(event), v, counted ? kCount : v.unit.empty() ? event : "", l.line, l.text);
  return true;
}

bool ToolLine(ToolRead& r, const PrintedLine& l) {
  const std::string text = ToolLineForm(l.text);
  const std::vector<std::string> toks = SpaceWords(text);
  return CounterLine(r, toks, l) || FioPercentiles(r, l) || PercentileLine(r, toks, l) || ColumnsLine(r, toks) || ColumnsRow(r, toks, l) ||
         CountsLine(r, toks) || KeyValuesLine(r, text, l) || FieldLine(r, text, l) || ElapsedLine(r, toks, l) ||
         TitleLine(r, text);
}

bool ToolPrintout(const std::vector<PrintedLine>& lines) {
  for (const auto& l : lines)
    if (StartsAny(Lower(l.text), Tools().marks)) return true;
  return false;
}

}  // namespace

void ToolRunLines(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                  std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread) {
  for (const auto& l : lines)  // hyperfine's "1.52 ± 0.07 times faster than './pack --best'": of the runs above
    if (ContainsAny(Lower(l.text), Tools().ratio_phrases) && read->insert(l.line).second && unread)
      unread->push_back({l.line, FigureText(l.text), "a ratio of the runs printed above it: derived, not tabled"});
  if (!ToolPrintout(lines)) return;
  ToolRead r(x, context, out, read);
  Close(r);
  for (const auto& l : lines) {
    if (l.text.empty() || read->count(l.line)) continue;
    const std::string lower = Lower(l.text);
    if (!AfterPrompt(l.text).empty()) {
      Close(r);
      r.context = context;
      continue;
    }
    if (StartsAny(lower, Tools().starts) || ContainsAny(lower, Tools().starts_within)) {
      if (!r.run.run.metrics.empty()) Close(r);
      r.counters = StartsAny(lower, Tools().counter_starts);
      r.context = context, r.run.run.config = NewRecorded(x, context, 0).config;
      r.summary = false;
    } else if (StartsAny(lower, Tools().summaries)) {
      r.summary = true;
    } else if (!r.summary && !StartsAny(lower, Tools().chatter) && !ToolLine(r, l)) {
      continue;
    }
    read->insert(l.line);
    if (r.run.lines.empty() || r.run.lines.back() != l.line) r.run.lines.push_back(l.line);
  }
  Close(r);
}

}  // namespace moelog::logbook::reader
