// Reader stage figures, bench frameworks' console result tables
// (figures_frameworks.h).
#include "logbook/reader/figures_frameworks.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/numbers.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_banners.h"
#include "logbook/reader/figures_bracketcols.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/key_reportsettings.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

struct JmhWords {
  std::string first;                       // the header's first column ("benchmark")
  std::vector<std::string> needs, modes;   // header words it must hold; the modes a row names
  std::vector<std::string> plus_minus;     // the sign between a score and its error ("±")
  std::string error;                       // the error's statistic name
  std::string result_lead, result_mark;    // a verbose result's first words (`Result "`), its error's mark (`±(`)
  std::string params_lead;                 // the line a verbose run prints its parameters on (`# Parameters:`)
  std::vector<std::string> result_stats;   // the starts of the statistics lines under it (`(min, avg, max)`, `CI (99.9%)`)
  std::set<std::string> bracket_skip;      // labels of bracket report lines that state no run's figure (`duration`)
};

const JmhWords& Jmh() {
  static const JmhWords w = [] {
    JmhWords out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("framework_tables") || !j["framework_tables"].contains("jmh")) return out;
    const nlohmann::json& t = j["framework_tables"]["jmh"];
    auto list = [&](const char* key, std::vector<std::string>* into) {
      if (t.contains(key) && t[key].is_array())
        for (const auto& s : t[key])
          if (s.is_string()) into->push_back(s.get<std::string>());
    };
    list("header_words", &out.needs), list("modes", &out.modes), list("plus_minus", &out.plus_minus);
    out.first = t.value("header_first", "");
    out.error = t.value("error_statistic", "error");
    out.result_lead = t.value("result_lead", ""), out.result_mark = t.value("result_error_mark", "");
    out.params_lead = t.value("parameters_lead", "");
    list("result_statistics", &out.result_stats);
    if (j["framework_tables"].contains("bracket_reports") && j["framework_tables"]["bracket_reports"].contains("skip"))
      for (const auto& w : j["framework_tables"]["bracket_reports"]["skip"])
        if (w.is_string()) out.bracket_skip.insert(w.get<std::string>());
    return out;
  }();
  return w;
}

bool In(const std::vector<std::string>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

// JMH's header: "Benchmark  (payload)  (size)  Mode  Cnt  Score  Error
// Units": the parameters' names, in order.
bool JmhHeader(const std::vector<std::string>& toks, std::vector<std::string>* params) {
  const JmhWords& w = Jmh();
  if (w.first.empty() || toks.size() < w.needs.size() + 1 || LowerAscii(toks[0]) != w.first) return false;
  std::vector<std::string> lower;
  for (const auto& t : toks) lower.push_back(LowerAscii(t));
  for (const auto& n : w.needs)
    if (!In(lower, n)) return false;
  params->clear();
  for (size_t k = 1; k < toks.size(); ++k)
    if (toks[k].size() > 2 && toks[k].front() == '(' && toks[k].back() == ')') params->push_back(toks[k].substr(1, toks[k].size() - 2));
  return true;
}

// A JMH number: its decimal mark a point or, in a locale that writes one,
// a comma (JMH prints no thousands separator).
bool JmhNumber(const std::string& tok, double* value) {
  std::string t = tok;
  std::replace(t.begin(), t.end(), ',', '.');
  if (t.empty() || !(std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-')) return false;
  const auto v = ParseNumber(t);
  if (!v) return false;
  *value = *v;
  return true;
}

// The decimals a JMH number is written with (its decimal mark a comma in
// some locales: "432833,932" has 3).
int JmhDecimals(std::string tok) {
  std::replace(tok.begin(), tok.end(), ',', '.');
  return WrittenDecimals(tok);
}

struct JmhRow {
  std::string name, mode, unit, score, error;
  std::vector<std::string> params;
};

// "CodecBench.decode  json  128  thrpt  10  1523.412 ±  12.301  ops/ms"
// (no count in a single-shot run, no error where one was not computed).
bool ReadJmhRow(const std::vector<std::string>& toks, JmhRow* row) {
  const JmhWords& w = Jmh();
  size_t m = 1;
  while (m < toks.size() && !In(w.modes, LowerAscii(toks[m]))) ++m;
  if (m >= toks.size() || toks.size() - m < 3) return false;
  const std::vector<std::string> rest(toks.begin() + static_cast<long>(m) + 1, toks.end());
  double v = 0;
  row->name = toks[0], row->mode = LowerAscii(toks[m]), row->unit = rest.back();
  row->params.assign(toks.begin() + 1, toks.begin() + static_cast<long>(m));
  if (JmhNumber(row->unit, &v)) return false;
  const auto pm = std::find_if(rest.begin(), rest.end(), [&](const std::string& t) { return In(w.plus_minus, t); });
  if (pm != rest.end()) {  // "1523.412 ±  12.301  ops/ms": the unit right after the error
    if (pm == rest.begin() || pm + 2 != rest.end() - 1 || !JmhNumber(*(pm + 1), &v)) return false;
    row->score = *(pm - 1), row->error = *(pm + 1);
  } else {
    row->score = rest[rest.size() - 2];
  }
  return JmhNumber(row->score, &v) && rest.size() <= 5;
}

// "decode:·gc.alloc.rate": the statistic a secondary row names, as a
// metric's qualifier ("gc_alloc_rate"); "" for a primary row.
std::string SecondaryName(const std::string& name, std::string* base) {
  const size_t colon = name.find(':');
  *base = name.substr(0, colon);
  if (colon == std::string::npos) return "";
  std::string sec = name.substr(colon + 1);
  if (const size_t dot = sec.rfind("\xC2\xB7"); dot != std::string::npos) sec = sec.substr(dot + 2);
  std::string out;
  for (char c : sec) {
    const bool alnum = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (alnum) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

struct JmhTable {
  std::vector<std::string> params;
  std::vector<std::pair<JmhRow, int>> rows;
};

// One table's rows, one figure a case; a secondary statistic's row joins
// its case's figure.
void KeepJmh(const JmhTable& t, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out) {
  std::set<std::string> modes;
  for (const auto& [row, line] : t.rows) modes.insert(row.mode);
  size_t first = out->size();
  for (const auto& [row, line] : t.rows) {
    UnitInfo info{};
    double score = 0, error = 0;
    if (!OutputUnit(row.unit, "", &info) || info.derived || !JmhNumber(row.score, &score) || out->size() > kMaxFiguresPerEntry) continue;
    std::string base;
    const std::string sec = SecondaryName(row.name, &base);
    Config cfg = context;
    cfg["benchmark"] = base;
    for (size_t k = 0; k < row.params.size() && k < t.params.size(); ++k) cfg[t.params[k]] = row.params[k];
    if (modes.size() > 1) cfg["mode"] = row.mode;
    const std::string metric = sec.empty() ? info.metric : QualifiedMetricName(sec, info.metric);
    auto same = std::find_if(out->begin() + static_cast<long>(first), out->end(), [&](const RecordedFigure& f) {
      return f.run.config == NewRecorded(x, cfg, 0).config && !f.run.metrics.count(metric);
    });
    if (same == out->end()) {
      RecordedFigure f{NewRecorded(x, cfg, line), line, ""};
      f.run.line = line;
      out->push_back(std::move(f));
      same = out->end() - 1;
    } else {
      same->joined_lines.push_back(line);
    }
    StoredRun& run = same->run;
    run.metrics[metric] = score * info.factor, run.units[metric] = row.unit, run.decimals[metric] = JmhDecimals(row.score);
    if (!row.error.empty() && JmhNumber(row.error, &error)) {
      const std::string em = QualifiedMetricName(Jmh().error, metric);
      run.metrics[em] = error * info.factor, run.units[em] = row.unit, run.decimals[em] = JmhDecimals(row.error);
    }
  }
}

// The `@Param` values the run printed above its result (`# Parameters:
// (size = 8, codec = lz4)`, after the last result above it) as keys.
void JmhParameters(const std::vector<PrintedLine>& lines, size_t i, Config* cfg) {
  const std::string& lead = Jmh().params_lead;
  for (size_t k = i; k-- > 0 && !lead.empty();) {
    const std::string& t = lines[k].text;
    if (!Jmh().result_lead.empty() && t.rfind(Jmh().result_lead, 0) == 0) return;
    if (t.rfind(lead, 0) != 0) continue;
    const size_t open = t.find('(', lead.size()), close = t.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return;
    std::stringstream ss(t.substr(open + 1, close - open - 1));
    for (std::string item; std::getline(ss, item, ',');)
      if (const size_t eq = item.find('='); eq != std::string::npos)
        if (std::string key = parse_detail::Trim(item.substr(0, eq)), v = parse_detail::Trim(item.substr(eq + 1)); !key.empty() && !v.empty())
          (*cfg)[key] = v;
    return;
  }
}

// JMH's verbose result of one benchmark: `Result "org.sample.Parse.parse":`,
// then `432833.932 ±(99.9%) 3090.755 ops/s [Average]` (the score, its
// error, the unit), then its statistics and interval (no figures). One
// figure; the lines taken go into `read`.
size_t JmhResult(const std::vector<PrintedLine>& lines, size_t i, const Config& context, const EntryCtx& x,
                 std::vector<RecordedFigure>* out, std::set<int>* read) {
  const std::string& lead = Jmh().result_lead;
  const std::string& t = lines[i].text;
  if (lead.empty() || t.rfind(lead, 0) != 0 || t.size() < lead.size() + 3 || t.compare(t.size() - 2, 2, "\":") != 0 ||
      i + 1 >= lines.size())
    return 0;
  const auto toks = SpaceWords(lines[i + 1].text);
  double score = 0, error = 0;
  UnitInfo info{};
  if (toks.size() < 4 || toks[1].rfind(Jmh().result_mark, 0) != 0 || !JmhNumber(toks[0], &score) || !JmhNumber(toks[2], &error) ||
      !OutputUnit(toks[3], "", &info) || info.derived || out->size() > kMaxFiguresPerEntry)
    return 0;
  Config cfg = context;
  cfg["benchmark"] = t.substr(lead.size(), t.size() - lead.size() - 2);
  JmhParameters(lines, i, &cfg);
  RecordedFigure f{NewRecorded(x, cfg, lines[i + 1].line), lines[i + 1].line, lines[i + 1].text};
  f.run.line = lines[i + 1].line;
  const std::string em = QualifiedMetricName(Jmh().error, info.metric);
  f.run.metrics[info.metric] = score * info.factor, f.run.units[info.metric] = toks[3], f.run.decimals[info.metric] = JmhDecimals(toks[0]);
  f.run.metrics[em] = error * info.factor, f.run.units[em] = toks[3], f.run.decimals[em] = JmhDecimals(toks[2]);
  out->push_back(std::move(f));
  size_t j = i + 2;  // "(min, avg, max) = (...)", "CI (99.9%): [...]": the score's statistics
  auto stat = [&](const std::string& l) {
    return std::any_of(Jmh().result_stats.begin(), Jmh().result_stats.end(), [&](const std::string& w) { return LowerAscii(l).rfind(w, 0) == 0; });
  };
  while (j < lines.size() && !lines[j].text.empty() && stat(lines[j].text)) ++j;
  for (size_t k = i; k < j; ++k) read->insert(lines[k].line);
  return j - i;
}

// A report line naming its values in brackets, then the values in order
// (vegeta's `Latencies  [min, mean, 50, 90, 95, 99, max]  1.2ms, 12.31ms,
// ...`): each value with a unit a figure, named by the line's label and its
// name (a bare percentile's number "p50"); false for any other line.
// The unit a report line's label names by its first word ("bytes" of
// "Bytes In"), "" when that word is no unit.
std::string LabelUnit(const std::string& label) {
  const auto words = SpaceWords(label);
  UnitInfo info{};
  if (words.size() < 2 || !OutputUnit(words[0], "", &info) || info.derived || info.factor != 1) return "";
  return words[0];
}

bool BracketLine(const PrintedLine& l, RecordedFigure* f) {
  const std::string& t = l.text;
  const size_t open = t.find(" ["), close = t.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open || open == 0) return false;
  const std::string label = LowerAscii(parse_detail::Trim(t.substr(0, open)));
  if (Jmh().bracket_skip.count(label) || SpaceWords(label).size() > 3) return false;
  std::vector<std::string> names, values;
  for (std::string n : SpaceWords(t.substr(open + 2, close - open - 2))) {
    if (!n.empty() && n.back() == ',') n.pop_back();
    names.push_back(n);
  }
  for (std::string v : SpaceWords(t.substr(close + 1))) {
    if (!v.empty() && v.back() == ',') v.pop_back();
    values.push_back(v);
  }
  if (names.empty() || names.size() != values.size()) return false;
  std::string snake;
  for (char c : label) snake += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  for (size_t k = 0; k < names.size(); ++k) {
    size_t n = 0;
    while (n < values[k].size() && (std::isdigit(static_cast<unsigned char>(values[k][n])) || values[k][n] == '.')) ++n;
    const std::string num = values[k].substr(0, n);
    std::string unit = values[k].substr(n);
    UnitInfo info{};
    // "Bytes In [total, mean]  1319, 1319.00": the label's first word names the unit of its bare values.
    if (unit.empty() && n == values[k].size()) unit = LabelUnit(label);
    if (n == 0 || unit.empty() || !ParseNumber(num)) continue;
    std::string stat = LowerAscii(names[k]);
    if (std::isdigit(static_cast<unsigned char>(stat[0]))) stat = "p" + stat;
    std::string metric;
    if (unit == "%") metric = snake + "_" + stat + "_pct";
    else if (OutputUnit(unit, "", &info) && !info.derived) metric = QualifiedMetricName(snake + "_" + stat, info.metric);
    else continue;
    f->run.metrics[metric] = *ParseNumber(num) * (unit == "%" ? 1 : info.factor), f->run.units[metric] = unit;
    f->run.decimals[metric] = WrittenDecimals(num);
    if (f->line == 0) f->line = l.line, f->text = t, f->run.line = l.line;
    else if (f->joined_lines.empty() || f->joined_lines.back() != l.line) f->joined_lines.push_back(l.line);
  }
  return true;
}

// The label of a bracket report line, lower case ("latencies"); "" for none.
std::string BracketLabel(const std::string& t) {
  const size_t open = t.find(" [");
  return open == std::string::npos || open == 0 ? "" : LowerAscii(parse_detail::Trim(t.substr(0, open)));
}

// A block's bracket report lines: one run's figure per report. A report ends
// where a label it holds comes again (reports pasted one after another);
// run settings above a report (`Rate: 80`; key_reportsettings.h) key it.
void BracketReport(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                   std::vector<RecordedFigure>* out, std::set<int>* read) {
  Config cfg = context;
  std::optional<RecordedFigure> f;
  std::set<std::string> labels;
  std::set<int> taken;
  std::vector<RecordedFigure> found;
  size_t in_report = 0;
  auto close = [&] {
    if (f && f->line != 0 && in_report >= 2) found.push_back(std::move(*f));  // a report: two such lines at least
    f.reset(), labels.clear(), in_report = 0;
  };
  for (const auto& l : lines) {
    if (read->count(l.line)) continue;
    const std::string t = parse_detail::Trim(l.text), label = BracketLabel(t);
    if (std::string key, value; label.empty() && ReportSettingLine(t, &key, &value)) {
      if (in_report > 0) close();
      cfg[key] = value, taken.insert(l.line);
      continue;
    }
    if (label.empty()) continue;
    if (labels.count(label)) close();
    if (!f) f.emplace(RecordedFigure{NewRecorded(x, cfg, 0), 0, ""});
    if (BracketLine(l, &*f)) taken.insert(l.line), labels.insert(label), ++in_report;
  }
  close();
  if (found.empty() || out->size() > kMaxFiguresPerEntry) return;
  // Its lines of counts and spans too ("Requests [total, rate, throughput] 6000, ..."): the report's, no run of their own.
  for (const auto& l : lines)
    if (std::string form; BracketColumnsForm(parse_detail::Trim(l.text), &form)) taken.insert(l.line);
  read->insert(taken.begin(), taken.end());
  for (auto& r : found) out->push_back(std::move(r));
}

struct TorchWords {
  std::string marker, setup, summary;  // the Measurement's first line, its setup line, its count line
  std::set<std::string> statistics;    // "median", "iqr", "mean"
};

const TorchWords& Torch() {
  static const TorchWords w = [] {
    TorchWords out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("torch_measurement") || !j["torch_measurement"].is_object()) return out;
    const auto& t = j["torch_measurement"];
    out.marker = t.value("marker", ""), out.setup = t.value("setup", ""), out.summary = t.value("summary_phrase", "");
    if (t.contains("statistics") && t["statistics"].is_array())
      for (const auto& v : t["statistics"])
        if (v.is_string()) out.statistics.insert(v.get<std::string>());
    return out;
  }();
  return w;
}

// "  Median: 412.31 us", "  IQR:    3.20 us (410.55 to 413.75)", or the
// value alone ("  412.31 us"): the statistic ("" alone), the number, its unit.
bool TorchValue(const std::string& text, std::string* stat, std::string* num, std::string* unit) {
  std::vector<std::string> toks = SpaceWords(text);
  stat->clear();
  if (toks.size() >= 3 && toks[0].size() > 1 && toks[0].back() == ':') {
    *stat = LowerAscii(toks[0].substr(0, toks[0].size() - 1));
    if (!Torch().statistics.count(*stat)) return false;
    toks.erase(toks.begin());
  }
  double v = 0;
  UnitInfo info{};
  if (toks.size() < 2 || (toks.size() > 2 && toks[2].front() != '(') || !JmhNumber(toks[0], &v) || !OutputUnit(toks[1], "", &info))
    return false;
  *num = toks[0], *unit = toks[1];
  return true;
}

// torch.utils.benchmark's printed Measurement: its first line, the
// statement timed (the case's name), `setup:`, the statistics, the count
// of measurements. One figure; the lines taken go into `read`.
size_t TorchMeasurement(const std::vector<PrintedLine>& lines, size_t i, const Config& context, const EntryCtx& x,
                        std::vector<RecordedFigure>* out, std::set<int>* read) {
  const TorchWords& w = Torch();
  if (w.marker.empty() || LowerAscii(lines[i].text).find(w.marker) == std::string::npos) return 0;
  Config cfg = context;
  RecordedFigure f{NewRecorded(x, cfg, 0), 0, ""};
  size_t j = i + 1;
  for (; j < lines.size(); ++j) {
    const std::string& t = lines[j].text;
    const std::string lower = LowerAscii(t);
    std::string stat, num, unit;
    if (t.empty() || LowerAscii(t).find(w.marker) != std::string::npos) break;
    UnitInfo info{};
    if (TorchValue(t, &stat, &num, &unit) && OutputUnit(unit, "", &info)) {
      const std::string metric = QualifiedMetricName(stat, info.metric);
      double v = 0;
      JmhNumber(num, &v);
      if (f.line == 0) f.line = lines[j].line, f.text = t, f.run.line = lines[j].line;
      else f.joined_lines.push_back(lines[j].line);
      f.run.metrics[metric] = v * info.factor, f.run.units[metric] = unit, f.run.decimals[metric] = WrittenDecimals(num);
    } else if (f.line == 0 && lower.rfind(w.setup, 0) != 0 && !f.run.config.count("benchmark") && t.size() <= 60) {
      f.run.config["benchmark"] = t;  // the statement timed ("matmul(a, b)")
    } else if (lower.find(w.summary) == std::string::npos && lower.rfind(w.setup, 0) != 0) {
      break;
    }
    read->insert(lines[j].line);
  }
  read->insert(lines[i].line);
  if (f.line != 0 && out->size() <= kMaxFiguresPerEntry) out->push_back(std::move(f));
  return j - i;
}

struct K6Words {
  std::string leader;                       // the dots between a metric's name and its colon
  std::map<std::string, std::string> stats;  // a trend's statistic as printed -> its name ("p(95)": "p95")
  std::string rate_unit;                     // a counter's rate's unit ("/s")
};

const K6Words& K6() {
  static const K6Words w = [] {
    K6Words out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("k6_summary") || !j["k6_summary"].is_object()) return out;
    const auto& k = j["k6_summary"];
    out.leader = k.value("leader", ""), out.rate_unit = k.value("rate_unit", "");
    if (k.contains("statistics") && k["statistics"].is_object())
      for (const auto& [key, v] : k["statistics"].items())
        if (v.is_string()) out.stats[key] = v.get<std::string>();
    return out;
  }();
  return w;
}

// A k6 summary line: "http_req_duration....: avg=12.41ms min=3.1ms
// p(95)=28.9ms" (a trend: each statistic a figure) or "http_reqs....: 48211
// 803.4/s" (a counter: its rate a figure, its count none). The figures go
// into `f`, named with the metric's name; false for any other line.
bool K6Line(const PrintedLine& l, RecordedFigure* f) {
  const K6Words& w = K6();
  const std::string& t = l.text;
  const size_t dots = w.leader.empty() ? std::string::npos : t.find(w.leader);
  const size_t colon = dots == std::string::npos ? dots : t.find(": ", dots);
  if (colon == std::string::npos) return false;
  std::string name = t.substr(0, dots);
  if (const size_t sp = name.rfind(' '); sp != std::string::npos) name = name.substr(sp + 1);  // "✓ checks"
  if (name.empty() || t.find_first_not_of('.', dots) != colon) return false;
  bool any = false;
  auto keep = [&](const std::string& metric, const std::string& num, const std::string& unit, double factor) {
    double v = 0;
    if (!JmhNumber(num, &v)) return;
    f->run.metrics[metric] = v * factor, f->run.units[metric] = unit, f->run.decimals[metric] = WrittenDecimals(num);
    any = true;
  };
  for (const auto& tok : SpaceWords(t.substr(colon + 2))) {
    const size_t eq = tok.find('=');
    std::string num = eq == std::string::npos ? tok : tok.substr(eq + 1);
    size_t n = 0;
    while (n < num.size() && (std::isdigit(static_cast<unsigned char>(num[n])) || num[n] == '.')) ++n;
    const std::string unit = num.substr(n);
    num.resize(n);
    UnitInfo info{};
    if (eq != std::string::npos && w.stats.count(tok.substr(0, eq)) && OutputUnit(unit, "", &info) && !info.derived)
      keep(QualifiedMetricName(name + "_" + w.stats.at(tok.substr(0, eq)), info.metric), num, unit, info.factor);
    else if (eq == std::string::npos && !w.rate_unit.empty() && unit == w.rate_unit)
      keep(name + "_per_s", num, unit, 1);
  }
  if (any && f->line == 0) f->line = l.line, f->text = t, f->run.line = l.line;
  else if (any) f->joined_lines.push_back(l.line);
  return true;
}

// A k6 run's summary lines: one figure (a run's), its lines taken.
void K6Summary(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
               std::vector<RecordedFigure>* out, std::set<int>* read) {
  RecordedFigure f{NewRecorded(x, context, 0), 0, ""};
  std::set<int> taken;
  for (const auto& l : lines)
    if (!read->count(l.line) && K6Line(l, &f)) taken.insert(l.line);
  if (f.line == 0 || out->size() > kMaxFiguresPerEntry) return;
  read->insert(taken.begin(), taken.end());
  out->push_back(std::move(f));
}

}  // namespace

bool JmhMode(const std::string& word) {
  const auto& modes = Jmh().modes;
  return std::find(modes.begin(), modes.end(), word) != modes.end();
}

void FrameworkTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread) {
  K6Summary(lines, context, x, out, read);
  BracketReport(lines, context, x, out, read);  // vegeta's
  PerfReportTables(lines, context, x, out, read);  // triton's
  BenchstatTables(lines, context, x, out, read, unread);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (const size_t n = read->count(lines[i].line) ? 0 : JmhResult(lines, i, context, x, out, read); n > 0) {
      i += n - 1;
      continue;
    }
    if (const size_t n = read->count(lines[i].line) ? 0 : BannerSection(lines, i, context, x, out, read); n > 0) {
      i += n - 1;  // redis-benchmark's `====== SET ======` sections
      continue;
    }
    if (const size_t n = read->count(lines[i].line) ? 0 : TorchMeasurement(lines, i, context, x, out, read); n > 0) {
      i += n - 1;
      continue;
    }
    JmhTable t;
    if (read->count(lines[i].line) || !JmhHeader(SpaceWords(lines[i].text), &t.params)) continue;
    read->insert(lines[i].line);
    size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      if (lines[j].text.empty() || PrintedRule(lines[j].text)) continue;
      JmhRow row;
      if (!ReadJmhRow(SpaceWords(lines[j].text), &row)) break;
      t.rows.push_back({row, lines[j].line});
      read->insert(lines[j].line);
    }
    const size_t before = out->size();
    KeepJmh(t, context, x, out);
    for (size_t k = before; k < out->size(); ++k)
      for (const auto& l : lines)
        if (l.line == (*out)[k].line) (*out)[k].text = l.text;
    i = j - 1;
  }
  JmhIterations(lines, context, x, out, read, unread);  // onto the results read above
}

}  // namespace moelog::logbook::reader
