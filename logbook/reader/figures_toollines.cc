// Reader stage figures, bench tools' printed lines (figures_toollines.h).
#include "logbook/reader/figures_toollines.h"

#include <algorithm>

#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_bracketcols.h"
#include "logbook/reader/figures_frameworks.h"
#include "logbook/reader/figures_pipefields.h"
#include "logbook/reader/figures_progressbar.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

// The rate words of a count's parenthesis ("per sec.", "/sec"; rate_parens
// of data/reader/output.json).
const std::set<std::string>& RateWords() {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/output.json", "rate_parens"));
  return *words;
}

// The brackets that hold a rate the line's name already names ("[#/sec]";
// rate_brackets of data/reader/output.json).
const std::set<std::string>& RateBrackets() {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/output.json", "rate_brackets"));
  return *words;
}

bool Number(const std::string& w) { return !w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && ParseNumber(w).has_value(); }

// "Time per request: 6.155 [ms] (mean)": the unit out of its brackets, or
// dropped when it is a rate the name says ("[#/sec]").
bool BracketUnit(const std::string& t, std::string* out) {
  const size_t colon = t.find(':'), open = t.find(" [");
  if (colon == std::string::npos || open == std::string::npos || open < colon) return false;
  const size_t close = t.find(']', open);
  if (close == std::string::npos) return false;
  const std::string value = parse_detail::Trim(t.substr(colon + 1, open - colon - 1));
  const std::string inner = t.substr(open + 2, close - open - 2);
  UnitInfo info{};
  const bool rate = RateBrackets().count(Lower(inner)) > 0;
  if (!Number(value) || (!rate && !AnyUnit(inner, &info))) return false;
  out->assign(t, 0, open);
  if (!rate) out->append(" ").append(inner);
  out->append(t, close + 1, std::string::npos);
  return true;
}

// "transactions:  12345  (411.45 per sec.)": the rate, named by the count's name.
bool CountRate(const std::string& t, std::string* out) {
  const size_t colon = t.find(':'), open = t.find('(');
  if (colon == std::string::npos || open == std::string::npos || open < colon || t.back() != ')') return false;
  const std::string count = parse_detail::Trim(t.substr(colon + 1, open - colon - 1));
  const auto inner = Words(t.substr(open + 1, t.size() - open - 2));
  if (!Number(count) || inner.size() < 2 || !Number(inner[0])) return false;
  std::string rate;
  for (size_t k = 1; k < inner.size(); ++k) rate.append(k > 1 ? " " : "").append(Lower(inner[k]));
  if (!RateWords().count(rate)) return false;
  out->assign(parse_detail::Trim(t.substr(0, colon)));
  out->append(" per sec: ").append(inner[0]);
  return true;
}

// "[READ], AverageLatency(us), 1114.39": a group in brackets, a name with
// its unit in parentheses, a number, comma-separated (YCSB's report lines):
// "READ AverageLatency: 1114.39 us". A name without a unit
// ("[READ], Operations, 4073") or a unit the vocabulary does not know keeps
// its name alone ("READ Operations: 4073").
bool GroupedCsvLine(const std::string& t, std::string* out) {
  if (t.size() < 8 || t.front() != '[') return false;
  const size_t close = t.find("], ");
  if (close == std::string::npos || close < 2) return false;
  const size_t comma = t.find(", ", close + 3);
  if (comma == std::string::npos || t.find(',', comma + 2) != std::string::npos) return false;
  const std::string group = t.substr(1, close - 1), value = parse_detail::Trim(t.substr(comma + 2));
  std::string name = parse_detail::Trim(t.substr(close + 3, comma - close - 3));
  if (group.find(' ') != std::string::npos || name.empty() || !Number(value)) return false;
  std::string unit;
  if (const size_t open = name.find('('); open != std::string::npos && name.back() == ')') {
    unit = name.substr(open + 1, name.size() - open - 2);
    name = parse_detail::Trim(name.substr(0, open));
    UnitInfo info{};
    if (unit != "%" && !AnyUnit(unit, &info)) unit.clear();
  }
  if (name.empty() || name.find(' ') != std::string::npos) return false;
  *out = group + " " + name + ": " + value + (unit.empty() ? "" : unit == "%" ? "%" : " " + unit);
  return true;
}

// "SET: 91743.12 requests per second, p50=0.271 msec" (redis-benchmark's
// -q lines): an operation, its rate in words and key=value figures after
// it, written as one key=value line: "op=SET requests/sec=91743.12
// p50=0.271msec" (the key naming the operation: labeled_rate_key of
// data/reader/bench_printouts.json; the rate words: tool_runs per_second).
bool LabeledRate(const std::string& t, std::string* out) {
  static const std::set<std::string> per = DataWords("data/reader/bench_printouts.json", "labeled_rate_words");
  const size_t colon = t.find(": ");
  if (colon == std::string::npos || colon == 0 || colon > 40 || t.find(' ') < colon || t.size() > 300) return false;
  std::vector<std::string> parts;
  for (size_t b = colon + 2;;) {
    const size_t e = t.find(", ", b);
    parts.push_back(parse_detail::Trim(t.substr(b, e == std::string::npos ? std::string::npos : e - b)));
    if (e == std::string::npos) break;
    b = e + 2;
  }
  const auto words = Words(parts[0]);
  if (words.size() < 3 || !Number(words[0])) return false;
  std::string phrase;
  for (size_t k = 2; k < words.size(); ++k) phrase.append(k > 2 ? " " : "").append(Lower(words[k]));
  if (!per.count(phrase)) return false;
  std::string form = "op=" + t.substr(0, colon) + " " + Lower(words[1]) + "/sec=" + words[0];
  for (size_t k = 1; k < parts.size(); ++k) {
    const size_t eq = parts[k].find('=');
    if (eq == std::string::npos || eq == 0) return false;
    std::string v = parts[k].substr(eq + 1);
    v.erase(std::remove(v.begin(), v.end(), ' '), v.end());  // "0.271 msec": the unit glued
    form.append(" ").append(parts[k].substr(0, eq)).append("=").append(v);
  }
  *out = form;
  return true;
}

// "http_req_duration..............: avg=12.31ms  min=1.02ms  p(90)=21.9ms"
// (k6's summary): the dots leading to the colon dropped, a percentile's
// parentheses too: "http_req_duration: avg=12.31ms min=1.02ms p90=21.9ms".
bool DottedLeader(const std::string& t, std::string* out) {
  const size_t dots = t.find("...");
  const size_t colon = t.find(':');
  if (dots == std::string::npos || dots == 0 || colon == std::string::npos || colon < dots || t.find(' ') < dots) return false;
  if (t.find_first_not_of('.', dots) != colon) return false;
  std::string rest = t.substr(colon + 1);
  for (size_t p = rest.find("p("); p != std::string::npos; p = rest.find("p(", p + 1))
    if (const size_t close = rest.find(')', p); close != std::string::npos && close < p + 8) rest.erase(close, 1), rest.erase(p + 1, 1);
  const auto words = Words(rest);
  const bool pairs = !words.empty() && std::all_of(words.begin(), words.end(), [](const std::string& w) {
    return w.find('=') != std::string::npos && w.find(',') == std::string::npos;
  });
  if (pairs) {  // "avg=12.31ms  min=1.02ms": a group of key=value figures, as fio prints them
    rest.clear();
    for (const auto& w : words) rest.append(rest.empty() ? " " : ", ").append(w);
  }
  *out = t.substr(0, dots) + ":" + rest;
  return true;
}

// "[  5]   0.00-10.00  sec  10.9 GBytes  9.36 Gbits/sec   12   sender"
// (iperf3's interval lines, and its summary's sender and receiver): the
// stream's interval and its rate, keyed by the interval and the role at
// the end: "interval=0.00-10.00s role=sender bitrate=9.36Gbits/sec".
bool IntervalRate(const std::string& t, std::string* out) {
  if (t.size() < 12 || t[0] != '[' || t.size() > 300) return false;
  const size_t close = t.find(']');
  if (close == std::string::npos || close > 8) return false;
  const auto words = Words(t.substr(close + 1));
  if (Lower(parse_detail::Trim(t.substr(1, close - 1))) == "id" && !words.empty() && Lower(words[0]) == "interval") {
    out->clear();  // "[ ID] Interval  Transfer  Bitrate": the header of the lines below, no title of a group
    return true;
  }
  if (words.size() < 6 || Lower(words[1]) != "sec") return false;
  const size_t dash = words[0].find('-');
  if (dash == std::string::npos || !Number(words[0].substr(0, dash)) || !Number(words[0].substr(dash + 1))) return false;
  if (!Number(words[2]) || !Number(words[4]) || words[5].find("/s") == std::string::npos) return false;
  std::string form = "interval=" + words[0] + "s";
  if (std::all_of(words.back().begin(), words.back().end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }))
    form += " role=" + words.back();
  *out = form + " bitrate=" + words[4] + words[5];
  return true;
}

// A JMH result row ("RingBench.offer  thrpt  10  84123.551 ± 912.004
// ops/ms": a benchmark, its mode (JmhMode), the
// count, the score, its error and unit): "benchmark=RingBench.offer
// mode=thrpt score=84123.551ops/ms"; the error is the score's spread, no
// run's figure. Its header ("Benchmark  Mode  Cnt  Score  Error  Units")
// names no group and is dropped.
bool ModeScoreRow(const std::string& t, std::string* out) {
  const auto w = Words(t);
  if (w.size() == 6 && Lower(w[1]) == "mode" && Lower(w[3]) == "score" && Lower(w[5]) == "units") {
    out->clear();
    return true;
  }
  if (w.size() < 4 || w.size() > 8 || !JmhMode(Lower(w[1]))) return false;
  size_t k = 2;
  if (k + 2 < w.size() && Number(w[k]) && Number(w[k + 1])) ++k;  // the count
  if (!Number(w[k])) return false;
  const std::string& unit = w.back();  // "ops/ms", "ns/op": a rate or a time a call
  if (unit.find('/') == std::string::npos || unit.size() > 12 || Number(unit)) return false;
  const bool error = k + 3 < w.size() && (w[k + 1] == "\xC2\xB1" || w[k + 1] == "+-");
  if (k + (error ? 4 : 2) != w.size()) return false;
  *out = "benchmark=" + w[0] + " mode=" + w[1] + " score=" + w[k] + unit;
  return true;
}

// "50% in 0.0121 secs" (hey's latency distribution): the percentile's
// time, "p50: 0.0121 secs".
bool PercentileIn(const std::string& t, std::string* out) {
  const auto w = Words(t);
  if (w.size() != 4 || Lower(w[1]) != "in" || w[0].size() < 2 || w[0].back() != '%' || !Number(w[0].substr(0, w[0].size() - 1)) ||
      !Number(w[2]))
    return false;
  UnitInfo info{};
  if (!AnyUnit(w[3], &info) || info.metric.find("time") == std::string::npos) return false;
  std::string p = w[0].substr(0, w[0].size() - 1);
  if (const size_t dot = p.find('.'); dot != std::string::npos && p.find_first_not_of('0', dot + 1) == std::string::npos) p.resize(dot);
  *out = "p" + p + ": " + w[2] + " " + w[3];
  return true;
}

}  // namespace

// "CUTE_FMHA:  [384852.4]Gflop/s  (1.4285)ms": a number in brackets or
// parentheses with its unit glued after them is that figure ("384852.4
// Gflop/s", "1.4285 ms"); any other bracket stays as written.
static std::string UnbracketedFigures(const std::string& t) {
  std::string out;
  size_t k = 0;
  while (k < t.size()) {
    const char close = t[k] == '[' ? ']' : t[k] == '(' ? ')' : '\0';
    const size_t end = close ? t.find(close, k + 1) : std::string::npos;
    if (end == std::string::npos || end + 1 >= t.size() || !Number(t.substr(k + 1, end - k - 1))) {
      out += t[k++];
      continue;
    }
    size_t u = end + 1;
    while (u < t.size() && !std::isspace(static_cast<unsigned char>(t[u])) && t[u] != ',' && t[u] != ';') ++u;
    UnitInfo info{};
    if (u == end + 1 || !AnyUnit(t.substr(end + 1, u - end - 1), &info)) {
      out += t[k++];
      continue;
    }
    out.append(k > 0 && !std::isspace(static_cast<unsigned char>(t[k - 1])) ? " " : "")
        .append(t, k + 1, end - k - 1).append(" ").append(t, end + 1, u - end - 1);
    k = u;
  }
  return out;
}

std::string ToolLineForm(const std::string& written) {
  std::string unbracketed;
  if (written.find_first_of("[(") != std::string::npos) unbracketed = UnbracketedFigures(written);
  const std::string& text = unbracketed.empty() ? written : unbracketed;
  std::string out;
  if (BracketUnit(text, &out) || CountRate(text, &out) || GroupedCsvLine(text, &out) || ProgressBarForm(text, &out) ||
      BracketColumnsForm(text, &out) || BracketUnitHeader(text, &out) || LabeledRate(text, &out) ||
      DottedLeader(text, &out) || IntervalRate(text, &out) || ModeScoreRow(text, &out) ||
      PercentileIn(text, &out))
    return out;
  return PipeLineForm(text);  // "Tokens/s: 106979 | FLOPs/token: 8.78 GF (6N: N=1.3B)"
}

}  // namespace moelog::logbook::reader
