#include "logbook/reader/figures_output_words.h"

#include <algorithm>
#include <cctype>
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
    w.unit_phrases.assign(phrases.begin(), phrases.end());
    return w;
  }();
  return words;
}

// A number token as printed: "0.672896", "-0.00", "1,295.95", "~0.73",
// "2.1e9"; a unit glued after it ("0.0051ms", "53.6%") goes to `unit`.
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

}  // namespace moelog::logbook::reader
