#include "logbook/reader/blocks_benchtools.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/numbers.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_banners.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook {

namespace {

// How a profiler's line names its report (report_lines): its first words,
// a phrase in it, and the marks around the name.
struct ReportForm {
  std::string starts, contains, open, close;
};

// The words of data/reader/bench_printouts.json, read once.
struct BenchWords {
  std::set<std::string> estimate_fields;
  std::string low = "ci_low", high = "ci_high";
  std::vector<std::string> table;  // a console table's header words
  std::set<std::string> time_units;  // as printed, case kept
  std::vector<std::string> chatter, chatter_phrases, after_colon, outliers, preamble, no_figure_suffixes;
  std::string go_prefix;                 // Go's `testing` benchmark names' first word ("Benchmark")
  std::vector<std::string> go_op_units;  // the per-operation units its first figure is printed in
  std::string procs_key, arg_key;        // Go's `-8` suffix's key; Google Benchmark's unnamed arguments'
  std::vector<std::string> libtest;      // libtest's line: first word, the mark before its figure, the spread's opening
  std::string libtest_spread;            // the name of libtest's `(+/- 56)`
  std::set<std::string> go_done;         // the first word of Go's package verdict line (`ok  pkg  4.512s`)
  std::vector<std::string> statistic_lines;  // first words of `Time (mean ± σ): 12.3 ms` lines
  std::vector<std::string> run_headers;      // first words of `Benchmark 2: ./cmd` lines
  std::vector<ReportForm> report_lines;      // lines naming a profiler's report
  std::set<std::string> count_keys;          // a profiler's count columns' keys
};

void Strings(const nlohmann::json& j, const char* key, std::vector<std::string>* into) {
  if (j.contains(key) && j[key].is_array())
    for (const auto& v : j[key])
      if (v.is_string()) into->push_back(LowerAscii(v.get<std::string>()));
}

void ReportForms(const nlohmann::json& j, std::vector<ReportForm>* into) {
  if (!j.contains("report_lines") || !j["report_lines"].is_array()) return;
  for (const auto& f : j["report_lines"]) {
    if (!f.is_object()) continue;
    auto field = [&](const char* k) { return f.contains(k) && f[k].is_string() ? LowerAscii(f[k].get<std::string>()) : std::string(); };
    ReportForm form{field("starts"), field("contains"), field("open"), field("close")};
    if (!form.open.empty() && !form.close.empty()) into->push_back(form);
  }
}

const BenchWords& Vocab() {
  static const BenchWords words = [] {
    BenchWords w;
    const nlohmann::json& j = reader::ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object()) return w;
    std::vector<std::string> fields, names;
    Strings(j, "estimate_fields", &fields);
    w.estimate_fields.insert(fields.begin(), fields.end());
    Strings(j, "interval_names", &names);
    if (names.size() == 2) w.low = names[0], w.high = names[1];
    Strings(j, "table_header", &w.table);
    Strings(j, "chatter", &w.chatter);
    Strings(j, "chatter_phrases", &w.chatter_phrases);
    Strings(j, "chatter_after_colon", &w.after_colon);
    Strings(j, "outlier_words", &w.outliers);
    Strings(j, "preamble", &w.preamble);
    Strings(j, "no_figure_suffixes", &w.no_figure_suffixes);
    Strings(j, "statistic_lines", &w.statistic_lines);
    Strings(j, "run_headers", &w.run_headers);
    ReportForms(j, &w.report_lines);
    std::vector<std::string> counts;
    Strings(j, "count_keys", &counts);
    w.count_keys.insert(counts.begin(), counts.end());
    if (j.contains("go_bench") && j["go_bench"].is_object()) {
      const auto& g = j["go_bench"];
      if (g.contains("name_prefix") && g["name_prefix"].is_string()) w.go_prefix = g["name_prefix"].get<std::string>();
      if (g.contains("per_op_units") && g["per_op_units"].is_array())
        for (const auto& v : g["per_op_units"])
          if (v.is_string()) w.go_op_units.push_back(v.get<std::string>());
    }
    if (j.contains("go_bench") && j["go_bench"].is_object()) {
      w.procs_key = j["go_bench"].value("procs_key", "");
      std::vector<std::string> done;
      Strings(j["go_bench"], "verdicts", &done);
      w.go_done.insert(done.begin(), done.end());
    }
    w.arg_key = j.value("case_arg_key", "");
    if (j.contains("libtest_bench") && j["libtest_bench"].is_object()) {
      const auto& l = j["libtest_bench"];
      for (const char* k : {"first", "mark", "spread_open"}) w.libtest.push_back(l.value(k, ""));
      w.libtest_spread = l.value("spread_statistic", "");
    }
    if (j.contains("time_units") && j["time_units"].is_array())
      for (const auto& v : j["time_units"])
        if (v.is_string()) w.time_units.insert(v.get<std::string>());
    return w;
  }();
  return words;
}

bool EndsWith(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// A printed number ("1.2034", "+0.9120", "-3.1102") and a unit glued after
// it ("-3.1102%"): false for a token that starts with no number.
bool Number(std::string tok, std::string* digits, std::string* glued) {
  if (!tok.empty() && tok[0] == '+') tok.erase(0, 1);
  size_t n = tok.empty() || tok[0] != '-' ? 0 : 1;
  while (n < tok.size() && (std::isdigit(static_cast<unsigned char>(tok[n])) || tok[n] == '.')) ++n;
  *digits = tok.substr(0, n), *glued = tok.substr(n);
  return ParseNumber(*digits).has_value() && (glued->empty() || !std::isdigit(static_cast<unsigned char>((*glued)[0])));
}

// "[1.2034 ms 1.2101 ms 1.2177 ms]" or "[-3.1% -2.4% -1.7%]": three numbers
// and their units, low, estimate and high.
bool Interval(const std::vector<std::string>& toks, size_t from, std::vector<BenchValue>* out) {
  std::string inner;
  for (size_t k = from; k < toks.size(); ++k) {
    inner += (inner.empty() ? "" : " ") + toks[k];
    if (toks[k].back() == ']') break;
  }
  if (inner.size() < 3 || inner.front() != '[' || inner.back() != ']') return false;
  const auto in = SpaceWords(inner.substr(1, inner.size() - 2));
  for (size_t k = 0; k < in.size() && out->size() < 4; ++k) {
    std::string digits, glued;
    if (!Number(in[k], &digits, &glued)) return false;
    if (glued.empty() && k + 1 < in.size()) glued = in[++k];
    out->push_back({"", digits, glued});
  }
  if (out->size() != 3 || (*out)[0].unit.empty()) return false;
  (*out)[0].role = Vocab().low, (*out)[2].role = Vocab().high;
  return true;
}

// criterion's "name  time:   [lo est hi]" (the name may be on the line above).
bool EstimateLine(const std::vector<std::string>& toks, BenchLine* out) {
  for (size_t f = 0; f < toks.size(); ++f) {
    const std::string w = LowerAscii(toks[f]);
    if (w.size() < 2 || w.back() != ':' || !Vocab().estimate_fields.count(w.substr(0, w.size() - 1))) continue;
    std::vector<BenchValue> values;
    if (!Interval(toks, f + 1, &values)) return false;
    for (size_t k = 0; k < f; ++k) out->name += (k ? " " : "") + toks[k];
    out->field = w.substr(0, w.size() - 1);
    out->kind = values[1].unit == "%" ? BenchLine::Kind::kChange : BenchLine::Kind::kFigures;
    out->values = std::move(values);
    return true;
  }
  return false;
}

bool TimeUnit(const std::string& u) { return Vocab().time_units.count(u) > 0; }

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A case's name and the parameters it prints: "BM_Copy/64/size:8" ->
// "BM_Copy", arg=64, size=8; "BenchmarkGet/size=1024-8" -> "BenchmarkGet",
// size=1024, procs=8. Parts of no parameter stay in the name.
std::string CaseKeys(const std::string& name, bool go, std::vector<std::pair<std::string, std::string>>* keys) {
  std::string rest = name, base, args;
  if (const size_t dash = rest.rfind('-'); go && dash != std::string::npos && AllDigits(rest.substr(dash + 1)) &&
                                           !Vocab().procs_key.empty() && dash > 0) {
    keys->emplace_back(Vocab().procs_key, rest.substr(dash + 1));
    rest.resize(dash);
  }
  size_t p = 0;
  for (size_t slash; p <= rest.size(); p = slash + 1) {
    slash = std::min(rest.find('/', p), rest.size());
    const std::string part = rest.substr(p, slash - p);
    const size_t eq = part.find(go ? '=' : ':');
    if (p > 0 && eq != std::string::npos && eq > 0 && eq + 1 < part.size()) keys->emplace_back(part.substr(0, eq), part.substr(eq + 1));
    else if (p > 0 && !go && AllDigits(part) && !Vocab().arg_key.empty()) args += (args.empty() ? "" : "/") + part;
    else base += (base.empty() ? "" : "/") + part;
  }
  if (!args.empty()) keys->emplace_back(Vocab().arg_key, args);
  return base.empty() ? name : base;
}

// Google Benchmark's "BM_Gemm/1024   12.3 ms   12.2 ms   57" (counters may follow).
bool TableRow(const std::vector<std::string>& toks, BenchLine* out) {
  if (toks.size() < 6) return false;
  std::string d1, g1, d2, g2, d3, g3;
  if (Number(toks[0], &d1, &g1) || !Number(toks[1], &d1, &g1) || !g1.empty() || !TimeUnit(toks[2]) ||
      !Number(toks[3], &d2, &g2) || !g2.empty() || !TimeUnit(toks[4]) || !Number(toks[5], &d3, &g3) || !g3.empty() ||
      d3.find('.') != std::string::npos)
    return false;
  out->kind = BenchLine::Kind::kFigures;
  out->name = CaseKeys(toks[0], false, &out->keys);
  for (const auto& s : Vocab().no_figure_suffixes)
    if (EndsWith(LowerAscii(out->name), s)) out->kind = BenchLine::Kind::kChatter;  // a spread over repeats
  out->values = {{"", d1, toks[2]}, {"cpu", d2, toks[4]}};
  return true;
}

// libtest's "test parse_small ... bench:   1,234 ns/iter (+/- 56)".
bool LibtestRow(const std::vector<std::string>& toks, BenchLine* out) {
  const auto& v = Vocab();
  if (v.libtest.size() != 3 || v.libtest[0].empty() || toks.size() < 6 || LowerAscii(toks[0]) != v.libtest[0]) return false;
  size_t mark = 2;
  while (mark < toks.size() && LowerAscii(toks[mark]) != v.libtest[1]) ++mark;
  std::string d, g;
  if (mark + 2 >= toks.size()) return false;
  std::string digits = toks[mark + 1];  // "1,234": grouped as libtest prints it
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  if (!Number(digits, &d, &g) || !g.empty()) return false;
  out->kind = BenchLine::Kind::kFigures;
  out->name = toks[1];
  out->values = {{"", toks[mark + 1], toks[mark + 2]}};
  if (mark + 4 >= toks.size() || LowerAscii(toks[mark + 3]) != v.libtest[2] || toks[mark + 4].back() != ')') return true;
  std::string spread = toks[mark + 4].substr(0, toks[mark + 4].size() - 1);  // "3,220)"
  digits = spread;
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  if (Number(digits, &d, &g) && g.empty()) out->values.push_back({v.libtest_spread, spread, toks[mark + 2]});
  return true;
}

// Go's `testing` line "BenchmarkGet/size=1024-8   5000000   287 ns/op   48 B/op
// 1 allocs/op": the benchmark's name (its sub-benchmarks and GOMAXPROCS
// suffix as printed), the iterations (no figure), then a number and its unit
// each, the first per operation.
bool GoBenchRow(const std::vector<std::string>& toks, BenchLine* out) {
  const auto& v = Vocab();
  if (v.go_prefix.empty() || toks.size() < 4 || toks.size() % 2 != 0 || toks[0].rfind(v.go_prefix, 0) != 0) return false;
  std::string d, g;
  if (!Number(toks[1], &d, &g) || !g.empty() || d.find('.') != std::string::npos ||
      std::find(v.go_op_units.begin(), v.go_op_units.end(), toks[3]) == v.go_op_units.end())
    return false;
  std::vector<BenchValue> values;
  for (size_t k = 2; k + 1 < toks.size(); k += 2) {
    if (!Number(toks[k], &d, &g) || !g.empty() || Number(toks[k + 1], &d, &g)) return false;
    values.push_back({"", toks[k], toks[k + 1]});
  }
  out->kind = BenchLine::Kind::kFigures;
  out->name = CaseKeys(toks[0], true, &out->keys);
  out->values = std::move(values);
  return true;
}

// Lines that state no figure: chatter, a console table's header and the
// machine lines before it.
bool Chatter(const std::string& t, const std::vector<std::string>& toks) {
  const std::string low = LowerAscii(t);
  const auto& v = Vocab();
  auto starts = [&](const std::vector<std::string>& list) {
    return std::any_of(list.begin(), list.end(), [&](const std::string& p) { return low.rfind(p, 0) == 0; });
  };
  if (starts(v.chatter) || starts(v.preamble)) return true;
  std::string d, g;  // Go's "ok  example.com/cache  4.512s": the package's verdict and its test time
  if (toks.size() == 3 && v.go_done.count(LowerAscii(toks[0])) && Number(toks[2], &d, &g) && g == "s") return true;
  for (const auto& p : v.chatter_phrases)
    if (low.find(p) != std::string::npos) return true;
  for (const auto& o : v.outliers)
    if (EndsWith(low, o) && !toks.empty() && std::isdigit(static_cast<unsigned char>(toks[0][0]))) return true;
  if (const size_t colon = low.find(": "); colon != std::string::npos && low.rfind("benchmarking ", 0) == 0)
    for (const auto& a : v.after_colon)
      if (low.compare(colon + 2, a.size(), a) == 0) return true;
  if (toks.size() < v.table.size() || v.table.empty()) return false;
  for (size_t k = 0; k < v.table.size(); ++k)
    if (LowerAscii(toks[k]) != v.table[k]) return false;
  return true;
}

// A rule line ("-----", "=====") between a table's header and its rows.
bool RuleLine(std::string_view l) {
  return l.size() >= 3 && l.find_first_not_of("-=+| ") == std::string_view::npos;
}

std::string_view Trimmed(std::string_view l) {
  while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
  while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.remove_suffix(1);
  return l;
}

}  // namespace

BenchLine ReadBenchLine(const std::string& line) {
  BenchLine out;
  if (line.size() > 400) return out;
  const auto toks = SpaceWords(line);
  if (toks.empty()) return out;
  if (EstimateLine(toks, &out) || TableRow(toks, &out) || GoBenchRow(toks, &out) || LibtestRow(toks, &out)) return out;
  out = BenchLine{};
  if (Chatter(Trim(line), toks)) out.kind = BenchLine::Kind::kChatter;
  return out;
}

std::string BenchCaseName(const std::string& name, std::vector<std::pair<std::string, std::string>>* keys) {
  return CaseKeys(name, true, keys);
}

bool StatisticLine(std::string_view line) {
  const std::string t(Trimmed(line.substr(0, std::min<size_t>(line.size(), 400))));
  const size_t open = t.find('('), close = t.find("):");
  if (open == std::string::npos || close == std::string::npos || close < open || open == 0) return false;
  const std::string word = LowerAscii(Trimmed(std::string_view(t).substr(0, open)));
  const auto& words = Vocab().statistic_lines;
  if (std::find(words.begin(), words.end(), word) == words.end()) return false;
  const auto toks = SpaceWords(t.substr(close + 2));
  std::string digits, glued;
  return !toks.empty() && Number(toks[0], &digits, &glued) && (!glued.empty() || toks.size() > 1);
}

bool RunHeaderLine(std::string_view line) {
  const auto toks = SpaceWords(std::string(Trimmed(line.substr(0, std::min<size_t>(line.size(), 400)))));
  if (toks.size() < 3 || toks[1].size() < 2 || toks[1].back() != ':') return false;
  const auto& words = Vocab().run_headers;
  if (std::find(words.begin(), words.end(), LowerAscii(toks[0])) == words.end()) return false;
  const std::string n = toks[1].substr(toks[1][0] == '#' ? 1 : 0, toks[1].size() - (toks[1][0] == '#' ? 2 : 1));
  return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool ElapsedStamp(std::string_view line, std::string* digits, std::string* unit, std::string* event) {
  const std::string_view t = Trimmed(line.substr(0, std::min<size_t>(line.size(), 400)));
  const size_t close = t.find(']');
  if (t.size() < 5 || t[0] != '[' || close == std::string_view::npos || close > 16) return false;
  const auto stamp = SpaceWords(std::string(t.substr(1, close - 1)));
  if (stamp.empty() || stamp.size() > 2 || !Number(stamp[0], digits, unit)) return false;
  if (stamp.size() == 2) {
    if (!unit->empty()) return false;
    *unit = stamp[1];
  }
  *event = std::string(Trimmed(t.substr(close + 1)));
  return Vocab().time_units.count(*unit) > 0 && !event->empty() &&
         std::isalpha(static_cast<unsigned char>((*event)[0]));
}

namespace {

// A progress mark before a tool's line ("[6/8] "): where the line's words start.
size_t AfterProgressMark(std::string_view t) {
  if (t.size() < 6 || t[0] != '[') return 0;
  const size_t close = t.find(']');
  if (close == std::string_view::npos || close > 12) return 0;
  const std::string_view in = t.substr(1, close - 1);
  const size_t slash = in.find('/');
  auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  if (slash == std::string_view::npos || !digits(in.substr(0, slash)) || !digits(in.substr(slash + 1))) return 0;
  return close + 1;
}

}  // namespace

bool ReportLine(std::string_view line, std::string* name) {
  std::string_view t = Trimmed(line.substr(0, std::min<size_t>(line.size(), 400)));
  t = Trimmed(t.substr(AfterProgressMark(t)));
  const std::string low = LowerAscii(t);
  for (const ReportForm& f : Vocab().report_lines) {
    if (low.compare(0, f.starts.size(), f.starts) != 0 || low.find(f.contains, f.starts.size()) == std::string::npos) continue;
    const size_t open = low.find(f.open);
    const size_t from = open == std::string::npos ? open : open + f.open.size();
    const size_t close = from == std::string::npos ? from : low.find(f.close, from);
    if (close == std::string::npos || close == from) continue;
    std::string n(t.substr(from, close - from));
    if (const size_t slash = n.find_last_of('/'); slash != std::string::npos) n.erase(0, slash + 1);  // a report script's path
    if (n.size() > 3 && n.compare(n.size() - 3, 3, ".py") == 0) n.resize(n.size() - 3);
    if (n.empty() || n.size() > 64 || n.find(' ') != std::string::npos) continue;
    *name = n;
    return true;
  }
  return false;
}

bool ProfilerCountKey(const std::string& key) { return Vocab().count_keys.count(LowerAscii(key)) > 0; }

namespace {

// A tool's first line that says its printout follows (perf stat's
// "Performance counter stats for './app':", wrk's "Running 30s test @
// http://..."): bench_printouts.json printout_openings (its start) and
// printout_opening_phrases (a phrase in it).
bool PrintoutOpening(const std::string& line) {
  static const std::set<std::string> starts = reader::DataWords("data/reader/bench_printouts.json", "printout_openings");
  static const std::set<std::string> phrases =
      reader::DataWords("data/reader/bench_printouts.json", "printout_opening_phrases");
  const std::string lower = LowerAscii(line);
  if (std::string name; reader::SectionBanner(line, &name)) return true;  // redis-benchmark's `====== SET ======`
  return std::any_of(starts.begin(), starts.end(), [&](const std::string& w) { return lower.rfind(w, 0) == 0; }) ||
         std::any_of(phrases.begin(), phrases.end(), [&](const std::string& w) { return lower.find(w) != std::string::npos; });
}

}  // namespace

bool BenchToolPrintout(std::string_view text) {
  std::vector<std::string> lines;
  for (size_t p = 0; p < text.size() && lines.size() < 4096;) {
    const size_t nl = text.find('\n', p);
    const std::string_view l = Trimmed(text.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p));
    p = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!l.empty() && !RuleLine(l)) lines.emplace_back(l);
  }
  if (!lines.empty() && PrintoutOpening(lines[0])) return true;
  size_t tool = 0, figures = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const BenchLine b = ReadBenchLine(lines[i]);
    // A long name on a line of its own, its figures on the next ("time: [...]").
    const bool name_line = b.kind == BenchLine::Kind::kNone && lines[i].find(' ') == std::string::npos &&
                           i + 1 < lines.size() && ReadBenchLine(lines[i + 1]).kind != BenchLine::Kind::kNone &&
                           ReadBenchLine(lines[i + 1]).name.empty();
    if (b.kind == BenchLine::Kind::kNone && !name_line && i == 0) return false;
    tool += b.kind != BenchLine::Kind::kNone || name_line ? 1 : 0;
    figures += b.kind == BenchLine::Kind::kFigures ? 1 : 0;
  }
  return figures > 0 && 2 * tool >= lines.size();
}

}  // namespace moelog::logbook
