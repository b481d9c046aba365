#include "logbook/reader/figures_output_words.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <string_view>

#include "logbook/numbers.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

const OutputWords& OutputVocabulary() {
  static const OutputWords words = [] {
    OutputWords w;
    const char* file = "data/reader/output.json";
    auto map = [&](const char* key, std::map<std::string, std::string>* into) { *into = DataWordMap(file, key); };
    auto set = [&](const char* key, std::set<std::string>* into) { *into = DataWords(file, key); };
    map("units", &w.units);
    map("key_suffixes", &w.suffixes);
    map("unit_aliases", &w.aliases);
    set("unitless_metrics", &w.unitless);
    set("count_words", &w.counts);
    map("duration_units", &w.duration_units);
    map("unit_words", &w.unit_words);
    set("duration_names", &w.duration_names);
    set("counter_names", &w.counters);
    set("statistic_suffixes", &w.stat_suffixes);
    std::set<std::string> phrases;
    set("unit_phrases", &phrases);
    set("measured_peak_metrics", &w.measured_peaks);
    set("statistic_prefixes", &w.measured_prefixes);
    set("unit_columns", &w.unit_columns);
    set("name_columns", &w.name_columns);
    set("progress_leads", &w.progress_leads);
    set("setting_count_leads", &w.setting_leads);
    set("outcome_count_words", &w.outcome_words);
    set("record_banners", &w.record_banners);
    set("metric_line_words", &w.metric_line_words);
    set("pair_joiners", &w.pair_joiners);
    set("pair_group_words", &w.pair_group_words);
    set("subcommand_programs", &w.subcommand_programs);
    set("repeat_names", &w.repeat_names);
    set("subcommand_tools", &w.subcommand_tools);
    set("setup_programs", &w.setup_programs);
    set("command_prefixes", &w.command_prefixes);
    std::set<std::string> arrows;
    set("rate_arrows", &arrows);
    w.rate_arrows.assign(arrows.begin(), arrows.end());
    set("spread_marks", &w.spread_marks);
    w.unit_phrases.assign(phrases.begin(), phrases.end());
    return w;
  }();
  return words;
}

// A number token as printed: "0.672896", "-0.00", "1,295.95", "~0.73",
// "2.1e9"; a unit glued after it ("0.0051ms", "53.6%") goes to `unit`. A
// range ("50-100") is none.
bool NumberToken(const std::string& tok, std::string* num, std::string* unit, bool* approx) {
  size_t p = 0;
  *approx = false;
  if (p < tok.size() && (tok[p] == '~' || tok[p] == '+')) *approx = tok[p] == '~', ++p;
  const size_t b = p;
  if (p < tok.size() && tok[p] == '-') ++p;
  bool digit = false;
  while (p < tok.size() && (std::isdigit(static_cast<unsigned char>(tok[p])) || tok[p] == '.' || tok[p] == ',')) {
    digit = digit || std::isdigit(static_cast<unsigned char>(tok[p]));
    ++p;
  }
  if (!digit) return false;
  if (p + 1 < tok.size() && (tok[p] == 'e' || tok[p] == 'E') &&
      (std::isdigit(static_cast<unsigned char>(tok[p + 1])) || tok[p + 1] == '-' || tok[p + 1] == '+')) {
    p += 2;
    while (p < tok.size() && std::isdigit(static_cast<unsigned char>(tok[p]))) ++p;
  }
  *num = tok.substr(b, p - b);
  while (!num->empty() && (num->back() == ',' || num->back() == '.')) num->pop_back();
  std::string rest = tok.substr(p);
  while (!rest.empty() && (rest.back() == ',' || rest.back() == ';')) rest.pop_back();
  // "50-100", "~30-60": a range a person wrote (what a run takes, guessed),
  // or a date; no program prints one value so.
  if (rest.size() > 1 && rest[0] == '-' && std::isdigit(static_cast<unsigned char>(rest[1]))) return false;
  *unit = rest;
  return ParseNumber(*num).has_value() && (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0])));
}

bool IsNumber(const std::string& tok) {
  std::string num, unit;
  bool approx = false;
  return NumberToken(tok, &num, &unit, &approx) && unit.empty();
}

// What a unit written in output measures: the reader's vocabulary first,
// then the output words (kept as written, factor 1). "%" is MFU when the
// name says so.
bool OutputUnit(const std::string& unit, const std::string& name, UnitInfo* info) {
  if (unit.empty()) return false;
  if (unit != "%" && (UnitOf(unit, info) || UnitOfIn(unit, name, info))) return true;  // "Peak memory: 1.2 GB"
  const std::string low = Lower(unit);
  if (unit == "%" && Lower(name).find("mfu") != std::string::npos) {
    *info = UnitInfo{"mfu", 1, false};
    return true;
  }
  if (UnitOf(low, info)) return true;
  if (!name.empty() && UnitOfIn(unit, name, info)) return true;  // "Peak memory: 4.1 GB": memory by its name
  if (auto a = OutputVocabulary().aliases.find(low); a != OutputVocabulary().aliases.end()) return UnitOf(a->second, info);
  auto it = OutputVocabulary().units.find(low);
  if (it != OutputVocabulary().units.end()) {
    *info = UnitInfo{it->second, 1, false};
    return true;
  }
  // "blocks/s", "rows/sec": a rate of what a program counts, kept as written.
  const size_t slash = low.find('/');
  const std::string per = slash == std::string::npos ? "" : low.substr(slash + 1);
  if (slash < 2 || slash > 16 || (per != "s" && per != "sec") ||
      !std::all_of(low.begin(), low.begin() + static_cast<std::ptrdiff_t>(slash), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
    return false;
  *info = UnitInfo{low.substr(0, slash) + "_per_s", 1, false};
  return true;
}

namespace {

// A rate whose unit is glued to a word of its name before `_s`: iostat's
// read and write rates (`rkB/s`, `wkB/s` printed as `avg_rkB_s`) are
// kilobytes a second, not a time in seconds. The unit is the key suffix the
// name's last two parts end with (`kb_s`); the name keeps its word (`avg_rkb`),
// so read and write stay two figures. "" when the name is no such rate.
std::string GluedRateSuffix(const std::string& low, std::string* bare) {
  const size_t us = low.rfind('_');
  if (us == std::string::npos || us == 0) return "";
  const size_t word = low.rfind('_', us - 1);
  const std::string last = low.substr(word == std::string::npos ? 0 : word + 1);  // "wkb_s"
  for (const auto& [suffix, unit] : OutputVocabulary().suffixes) {
    if (last.size() <= suffix.size() || last.compare(last.size() - suffix.size(), suffix.size(), suffix) != 0 ||
        unit.find('/') == std::string::npos || suffix.find('_') == std::string::npos)
      continue;
    *bare = bare->substr(0, us);
    return unit;
  }
  return "";
}

}  // namespace

// A printed name's unit: "(ms)" in it, or its last word or `_` part
// ("avg_step_ms", "tok_s"); `bare` gets the name without it.
// The unit of a "<what>_per_second" key: what it counts a second, by the
// key's last word when the whole is no unit ("train_samples_per_second":
// samples/s; "blocks_per_second": blocks/s).
static std::string PerSecondUnit(const std::string& what) {
  UnitInfo info;
  const size_t us = what.rfind('_');
  if (us == std::string::npos || OutputUnit(what + "/s", "", &info)) return what + "/s";
  return what.substr(us + 1) + "/s";
}

std::string PrintedNameUnit(const std::string& name, std::string* bare) {
  *bare = parse_detail::Trim(name);
  UnitInfo info;
  if (const size_t open = bare->rfind('('); open != std::string::npos && bare->back() == ')') {
    const std::string inner = parse_detail::Trim(bare->substr(open + 1, bare->size() - open - 2));
    *bare = parse_detail::Trim(bare->substr(0, open));
    if (OutputUnit(inner, *bare, &info)) return inner;
  }
  std::string low = Lower(*bare);
  std::replace(low.begin(), low.end(), ' ', '_');
  std::replace(low.begin(), low.end(), '-', '_');
  // "step_s_mean", "latency_ms_p99": a statistic after the unit.
  if (const size_t us = low.rfind('_'); us != std::string::npos && us > 0 && OutputVocabulary().stat_suffixes.count(low.substr(us + 1))) {
    std::string inner;
    if (std::string u = PrintedNameUnit(bare->substr(0, us), &inner); !u.empty()) {
      *bare = inner + bare->substr(us);
      return u;
    }
  }
  if (std::string u = GluedRateSuffix(low, bare); !u.empty()) return u;
  for (int parts = 3; parts >= 1; --parts) {
    size_t at = low.size();
    for (int k = 0; k < parts && at != std::string::npos && at > 0; ++k) at = low.rfind('_', at - 1);
    if (at == std::string::npos || at == 0) continue;
    if (at >= 4 && low.compare(at - 4, 4, "_per") == 0) continue;  // "requests per sec": a rate (below), no seconds
    auto it = OutputVocabulary().suffixes.find(low.substr(at + 1));
    if (it == OutputVocabulary().suffixes.end()) continue;
    *bare = bare->substr(0, at);
    return it->second;
  }
  if (auto it = OutputVocabulary().suffixes.find(low); it != OutputVocabulary().suffixes.end() && low.size() > 2) return it->second;
  // "blocks_per_second", "rows_per_sec": a rate of what it counts ("blocks/s").
  for (const std::string per : {"_per_second", "_per_sec"})
    if (low.size() > per.size() + 1 && low.compare(low.size() - per.size(), per.size(), per) == 0)
      return *bare = bare->substr(0, low.size() - per.size()), PerSecondUnit(low.substr(0, low.size() - per.size()));
  // "ns_per_eval", "ms_per_step": a time unit per what it times (eval_time_s).
  if (const size_t per = low.find("_per_"); per != std::string::npos && per + 5 < low.size())
    if (auto it = OutputVocabulary().suffixes.find(low.substr(0, per)); it != OutputVocabulary().suffixes.end() && UnitOf(it->second, &info) && info.metric == "time_s")
      return *bare = bare->substr(per + 5), it->second;
  std::string parts = low;
  std::replace_if(parts.begin(), parts.end(), [](char c) { return c == '_' || c == '/' || c == '.'; }, ' ');
  for (const auto& part : Words(parts))  // "peak_bytes_reserved"
    if (auto it = OutputVocabulary().unit_words.find(part); it != OutputVocabulary().unit_words.end()) return it->second;
  if (!OutputVocabulary().stat_suffixes.count(low) && OutputUnit(*bare, "", &info)) return *bare;  // a header that is a unit ("TFLOP/s"); "Min" is a minimum
  // "Output tokens/s", "Total tok/s": a name whose last word is a unit.
  if (const size_t sp = bare->find_last_of(" \t"); sp != std::string::npos && sp + 1 < bare->size()) {
    const std::string last = bare->substr(sp + 1);
    if (last.find('/') != std::string::npos && UnitOf(last, &info) && !info.derived) {
      *bare = parse_detail::Trim(bare->substr(0, sp));
      return last;
    }
  }
  return "";
}

static bool HasAlpha(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

bool PrintedStartsNumber(const std::string& cell) {
  std::istringstream ss(cell);
  std::string first;
  ss >> first;
  std::string num, unit;
  bool approx = false;
  return !first.empty() && NumberToken(first, &num, &unit, &approx);
}

// A header of names (two or more, none a number) over a row of as many
// cells with a number.
bool PrintedHeaderOver(const std::vector<std::string>& head, const std::vector<std::string>& row) {
  if (head.size() < 2 || head.size() != row.size() || head.size() > 32) return false;
  for (const auto& h : head)
    if (h.size() > 40 || !HasAlpha(h) || PrintedStartsNumber(h) || h.back() == ':') return false;
  for (const auto& c : row)
    if (!c.empty() && c.back() == ':') return false;
  return std::any_of(row.begin(), row.end(), PrintedStartsNumber);
}

// A printed table's column of units (ncu's "Metric Unit"; unit_columns of
// output.json): its index, or npos.
size_t PrintedUnitColumn(const std::vector<std::string>& head) {
  for (size_t c = 0; c < head.size(); ++c)
    if (const auto words = Words(Lower(head[c])); !words.empty() && OutputVocabulary().unit_columns.count(words.back())) return c;
  return std::string::npos;
}

bool ProgressFields(const std::string& line, std::string* at, std::vector<ProgressField>* fields) {
  const size_t colon = line.find(": ");
  if (colon == std::string::npos || !OutputVocabulary().progress_leads.count(Lower(parse_detail::Trim(line.substr(0, colon)))))
    return false;
  std::vector<std::string> parts;
  std::istringstream in(line.substr(colon + 2));
  for (std::string part; std::getline(in, part, ',');) parts.push_back(parse_detail::Trim(part));
  if (parts.size() < 2) return false;
  auto words = [](const std::string& s) {
    std::istringstream ws(s);
    std::vector<std::string> w;
    for (std::string t; ws >> t;) w.push_back(t);
    return w;
  };
  const auto first = words(parts[0]);
  std::string num, glued;
  bool approx = false;
  UnitInfo info;
  if (first.empty() || first.size() > 2 || !NumberToken(first[0], &num, &glued, &approx)) return false;
  if (!OutputUnit(glued.empty() && first.size() == 2 ? first[1] : glued, "", &info) || info.metric.find("time_s") == std::string::npos)
    return false;  // printed at a time
  *at = parts[0];
  fields->clear();
  for (size_t p = 1; p < parts.size(); ++p) {
    const auto w = words(parts[p]);
    const size_t k = !w.empty() && !NumberToken(w[0], &num, &glued, &approx) ? 1 : 0;  // "lat 2.701 ms"
    if (k >= w.size() || !NumberToken(w[k], &num, &glued, &approx)) continue;
    const std::string unit = glued.empty() && k + 1 < w.size() ? w[k + 1] : glued;
    if (unit.empty() || !OutputUnit(unit, "", &info) || info.derived) continue;  // "0 failed": a count
    fields->push_back({k ? w[0] : "", num, unit, approx});
  }
  return !fields->empty();
}

bool SettingCountKey(const std::string& name, const std::string& value, std::string* key) {
  std::string num, glued;
  bool approx = false;
  if (!NumberToken(value, &num, &glued, &approx) || !glued.empty() || num.find_first_of(".,") != std::string::npos) return false;
  const std::string low = Lower(name);
  for (const auto& lead : OutputVocabulary().setting_leads) {
    if (low.size() <= lead.size() + 1 || low.compare(0, lead.size() + 1, lead + " ") != 0) continue;
    const std::string what = parse_detail::Trim(name.substr(lead.size() + 1));
    if (Words(what).empty() || Words(what).size() > 2) return false;
    *key = SnakeKey(what);
    return true;
  }
  return false;
}

bool OutcomeCountName(const std::string& name, std::string* metric) {
  const std::string low = Lower(name);
  for (const auto& lead : OutputVocabulary().setting_leads) {
    if (low.size() <= lead.size() + 1 || low.compare(0, lead.size() + 1, lead + " ") != 0) continue;
    const std::string what = parse_detail::Trim(name.substr(lead.size() + 1));
    const auto words = Words(Lower(what));
    if (words.empty() || words.size() > 5) return false;
    for (const auto& w : words)
      if (OutputVocabulary().outcome_words.count(w)) {
        *metric = SnakeKey(what);
        return !metric->empty();
      }
    return false;
  }
  return false;
}

namespace {

// "1.74 ms per token", "576.11 tokens per second": a rate's number, unit and name.
bool RateField(const std::string& part, ProgressField* f) {
  std::istringstream in(part);
  std::vector<std::string> w;
  for (std::string t; in >> t;) w.push_back(t);
  std::string glued;
  if (w.size() < 2 || !NumberToken(w[0], &f->digits, &glued, &f->approx) || !glued.empty()) return false;
  const std::string per = w.size() >= 4 && w[2] == "per" ? Lower(w[3]) : "";
  f->unit = w[1], f->name.clear();
  if (per == "second" || per == "sec" || per == "s") f->unit = w[1] + "/s";  // "tokens per second"
  else if (!per.empty()) f->name = per;                                       // "ms per token"
  UnitInfo info;
  return OutputUnit(f->unit, "", &info) && !info.derived;
}

}  // namespace

bool RatedFields(const std::string& line, std::string* name, std::vector<ProgressField>* fields) {
  const size_t eq = line.find(" = "), open = std::min(line.find('('), line.size()), close = line.rfind(')');
  if (eq == std::string::npos || open < eq || (open < line.size() && (close == std::string::npos || close < open))) return false;
  *name = parse_detail::Trim(line.substr(0, eq));
  const auto words = Words(*name);
  if (words.empty() || words.size() > 4 || name->find_first_of(":=|") != std::string::npos) return false;
  ProgressField total;
  std::string head = line.substr(eq + 3, open - eq - 3);
  const size_t slash = head.find('/');  // "/ 180 tokens": a count of what it took
  if (slash != std::string::npos) head.resize(slash);
  if (!RateField(head, &total) || !total.name.empty()) return false;
  fields->assign(1, total);
  std::istringstream in(open < line.size() ? line.substr(open + 1, close - open - 1) : "");
  for (std::string part; std::getline(in, part, ',');)
    if (ProgressField f; RateField(part, &f)) fields->push_back(f);
  return fields->size() > 1 || slash != std::string::npos;
}

bool SpecName(const std::string& bare) {
  for (const auto& w : Words(Lower(bare)))
    if (w == "peak" || w == "theoretical" || w == "spec") return true;
  return false;
}

bool PrintedCountName(const std::string& bare) {
  for (const auto& w : Words(Lower(bare)))
    if (OutputVocabulary().counts.count(w)) return true;
  return false;
}

}  // namespace moelog::logbook::reader
