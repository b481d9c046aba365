#include "logbook/reader/vocabulary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <mutex>

#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {
namespace {

struct BuiltinFile {
  const char* path;
  const char* text;
};
const BuiltinFile kBuiltinFiles[] = {
#include "builtin_reader.inc"
};

Status Words(const nlohmann::json& j, const std::string& file, const char* key, std::set<std::string>* out) {
  if (!j.contains(key)) return Status::Ok();
  if (!j[key].is_array()) return Status::InvalidArgument(file + ": " + key + ": expected an array of strings");
  for (const auto& w : j[key]) {
    if (!w.is_string()) return Status::InvalidArgument(file + ": " + key + ": expected an array of strings");
    out->insert(w.get<std::string>());
  }
  return Status::Ok();
}

// One unit's {"metric", "factor", "derived", "context"}; `where` names it in errors.
Status UnitSpec(const nlohmann::json& spec, const std::string& where, UnitInfo* info) {
  if (!spec.is_object() || !spec.contains("metric") || !spec["metric"].is_string())
    return Status::InvalidArgument(where + ": expected {\"metric\": ..., \"factor\": ...}");
  info->metric = spec["metric"].get<std::string>();
  if (info->metric.empty()) return Status::InvalidArgument(where + ".metric: expected a name");
  if (spec.contains("factor")) {
    if (!spec["factor"].is_number() || spec["factor"].get<double>() <= 0)
      return Status::InvalidArgument(where + ".factor: expected a positive number");
    info->factor = spec["factor"].get<double>();
  }
  if (spec.contains("derived")) {
    if (!spec["derived"].is_boolean()) return Status::InvalidArgument(where + ".derived: expected true or false");
    info->derived = spec["derived"].get<bool>();
  }
  if (spec.contains("context")) {
    std::set<std::string> words;
    MOELOG_RETURN_IF_ERROR(Words(spec, where, "context", &words));
    info->context.assign(words.begin(), words.end());
  }
  if (spec.contains("context_after")) {
    std::set<std::string> words;
    MOELOG_RETURN_IF_ERROR(Words(spec, where, "context_after", &words));
    info->context_after.assign(words.begin(), words.end());
  }
  if (spec.contains("rating")) {
    std::set<std::string> words;
    MOELOG_RETURN_IF_ERROR(Words(spec, where, "rating", &words));
    info->rating.assign(words.begin(), words.end());
  }
  return Status::Ok();
}

// A rate of a word of three letters or more per unit of time ("tokens/s",
// "req/sec"): its lower-case spelling, else "".
std::string WordRate(const std::string& unit) {
  const size_t slash = unit.find('/');
  if (slash == std::string::npos || slash < 3) return "";
  std::string lower;
  for (size_t i = 0; i < unit.size(); ++i) {
    if (i < slash && !std::isalpha(static_cast<unsigned char>(unit[i]))) return "";
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(unit[i])));
  }
  return lower;
}

void AddUnit(const std::string& u, const UnitInfo& info, Lexicon* lex) {
  lex->units[u] = info;
  if (const std::string w = WordRate(u); !w.empty()) lex->word_rates.emplace(w, info);
}

// "units": {"ms": {...}}, and "unit_groups": [{"metric", "factor",
// "spellings": ["ms", "msec", ...]}]: every spelling of one unit at once.
Status Units(const nlohmann::json& j, const std::string& file, Lexicon* lex) {
  if (j.contains("units")) {
    if (!j["units"].is_object()) return Status::InvalidArgument(file + ": units: expected an object");
    for (const auto& [unit, spec] : j["units"].items()) {
      UnitInfo info;
      MOELOG_RETURN_IF_ERROR(UnitSpec(spec, file + ": units." + unit, &info));
      AddUnit(unit, info, lex);
    }
  }
  if (!j.contains("unit_groups")) return Status::Ok();
  if (!j["unit_groups"].is_array()) return Status::InvalidArgument(file + ": unit_groups: expected an array");
  for (size_t g = 0; g < j["unit_groups"].size(); ++g) {
    const auto& spec = j["unit_groups"][g];
    const std::string where = file + ": unit_groups[" + std::to_string(g) + "]";
    UnitInfo info;
    MOELOG_RETURN_IF_ERROR(UnitSpec(spec, where, &info));
    std::set<std::string> spellings;
    if (!spec.contains("spellings")) return Status::InvalidArgument(where + ".spellings: expected an array of strings");
    MOELOG_RETURN_IF_ERROR(Words(spec, where, "spellings", &spellings));
    for (const auto& u : spellings) {
      if (lex->units.count(u)) return Status::InvalidArgument(where + ".spellings: \"" + u + "\" is named twice");
      AddUnit(u, info, lex);
    }
  }
  return Status::Ok();
}

// "magnitudes": {"k": 1e3, ...} and "percent_metrics": {"utilization": "utilization_pct", ...}.
Status Maps(const nlohmann::json& j, const std::string& file, Lexicon* lex) {
  if (j.contains("magnitudes")) {
    if (!j["magnitudes"].is_object()) return Status::InvalidArgument(file + ": magnitudes: expected an object");
    for (const auto& [m, v] : j["magnitudes"].items()) {
      if (!v.is_number() || v.get<double>() <= 1 || m.empty())
        return Status::InvalidArgument(file + ": magnitudes." + m + ": expected a number above 1");
      lex->magnitudes[m] = v.get<double>();
    }
  }
  if (j.contains("percent_metrics")) {
    if (!j["percent_metrics"].is_object()) return Status::InvalidArgument(file + ": percent_metrics: expected an object");
    for (const auto& [w, m] : j["percent_metrics"].items()) {
      if (!m.is_string() || m.get<std::string>().empty() || w.empty())
        return Status::InvalidArgument(file + ": percent_metrics." + w + ": expected a metric name");
      lex->percent_metrics[w] = m.get<std::string>();
    }
  }
  return Status::Ok();
}

// A vocabulary file's parsed JSON read into a Lexicon.
Result<Lexicon> LexiconOf(const nlohmann::json& j, const std::string& file) {
  try {
    if (!j.is_object()) return Status::InvalidArgument(file + ": expected an object");
    Lexicon lex;
    MOELOG_RETURN_IF_ERROR(Units(j, file, &lex));
    MOELOG_RETURN_IF_ERROR(Maps(j, file, &lex));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "statistic_words", &lex.statistic_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "metric_words", &lex.metric_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "time_words", &lex.time_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "count_words", &lex.count_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "delta_words", &lex.delta_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "goal_words", &lex.goal_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "bound_marks", &lex.bound_marks));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "reference_words", &lex.reference_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "estimate_words", &lex.estimate_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "no_run_leads", &lex.no_run_leads));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "summing_up_leads", &lex.summing_up_leads));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "result_lead_nouns", &lex.result_lead_nouns));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "plan_leads", &lex.plan_leads));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "plan_fields", &lex.plan_fields));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "derived_percent_metrics", &lex.derived_percent_metrics));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "duration_leads", &lex.duration_leads));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "job_duration_leads", &lex.job_duration_leads));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "duration_events", &lex.duration_events));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "duration_nouns", &lex.duration_nouns));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "setting_nouns", &lex.setting_nouns));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "setting_qualifiers", &lex.setting_qualifiers));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "delta_leads", &lex.delta_leads));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "before_words", &lex.before_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "measured_verbs", &lex.measured_verbs));
    return lex;
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(file + ": " + e.what());
  }
}
}  // namespace

Result<Lexicon> ParseLexicon(const std::string& json_text, const std::string& file) {
  try {
    return LexiconOf(nlohmann::json::parse(json_text), file);
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(file + ": " + e.what());
  }
}

// The text of a built-in data/reader/ file ("" when there is none).
const char* ReaderDataFile(const std::string& path) {
  for (const auto& f : kBuiltinFiles)
    if (path == f.path) return f.text;
  return "";
}

std::vector<std::string> ReaderDataFiles() {
  std::vector<std::string> paths;
  for (const auto& f : kBuiltinFiles) paths.emplace_back(f.path);
  return paths;
}

const nlohmann::json& ReaderDataJson(const std::string& path) {
  // Each file parsed once, whichever stage asks first; held for the whole
  // process (a leaked heap object: no destruction order to get wrong).
  struct Cache {
    std::mutex mu;
    std::map<std::string, nlohmann::json> parsed;  // nodes never move: references stay valid
  };
  static Cache* const cache = new Cache;
  const std::lock_guard<std::mutex> lock(cache->mu);
  auto it = cache->parsed.find(path);
  if (it == cache->parsed.end())
    it = cache->parsed.emplace(path, nlohmann::json::parse(ReaderDataFile(path), nullptr, /*allow_exceptions=*/false)).first;
  return it->second;
}

std::set<std::string> DataWords(const std::string& path, const char* key, bool lower) {
  std::set<std::string> words;
  const auto& j = ReaderDataJson(path);
  if (!j.is_object() || !j.contains(key) || !j[key].is_array()) return words;
  for (const auto& v : j[key])
    if (v.is_string()) words.insert(lower ? LowerAscii(v.get<std::string>()) : v.get<std::string>());
  return words;
}

std::map<std::string, std::string> DataWordMap(const std::string& path, const char* key) {
  std::map<std::string, std::string> words;
  const auto& j = ReaderDataJson(path);
  if (!j.is_object() || !j.contains(key) || !j[key].is_object()) return words;
  for (const auto& [k, v] : j[key].items())
    if (v.is_string()) words[LowerAscii(k)] = v.get<std::string>();
  return words;
}

std::map<std::string, double> DataNumberMap(const std::string& path, const char* key) {
  std::map<std::string, double> numbers;
  const auto& j = ReaderDataJson(path);
  if (!j.is_object() || !j.contains(key) || !j[key].is_object()) return numbers;
  for (const auto& [k, v] : j[key].items())
    if (v.is_number() && v.get<double>() > 0) numbers[k] = v.get<double>();
  return numbers;
}

const Lexicon& ReaderLexicon() {
  static const Lexicon lex = [] {
    const char* path = "data/reader/vocabulary.json";
    if (auto l = LexiconOf(ReaderDataJson(path), path); l.ok()) return *l;
    return Lexicon{};  // the built-in file is checked by its test
  }();
  return lex;
}

namespace {
// 1 / factor when it is a whole number (1e3 for ms), else 0.
double WholeInverse(double factor) {
  if (factor >= 1) return 0;
  const double inv = 1 / factor, r = std::round(inv);
  return std::abs(inv - r) <= 1e-9 * inv ? r : 0;
}
}  // namespace

double ToStored(double written, double factor) {
  const double inv = WholeInverse(factor);
  return inv > 0 ? written / inv : written * factor;
}

double FromStored(double stored, double factor) {
  const double inv = WholeInverse(factor);
  return inv > 0 ? stored * inv : stored / factor;
}

double MagnitudeOf(const Lexicon& lex, const std::string& unit, std::string* plain) {
  const size_t sp = unit.find(' ');
  if (sp != std::string::npos && sp > 0)
    if (auto m = lex.magnitudes.find(unit.substr(0, sp)); m != lex.magnitudes.end()) {
      *plain = unit.substr(sp + 1);
      return m->second;
    }
  *plain = unit;
  return 1;
}

// A time per item of a run's work ("310 ns/iter", "2.5 μs/n_kv", "4.1
// ms/image"): a time unit of a step or a call, "/" and a name: a time per
// that item (time_per_iter_s), never the run's whole time beside it
// ("1293 ms, 3193 ns/node" are two metrics).
static bool PerItemTime(const Lexicon& lex, const std::string& unit, UnitInfo* info) {
  const size_t slash = unit.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 >= unit.size()) return false;
  const auto base = lex.units.find(unit.substr(0, slash));
  const std::string item = unit.substr(slash + 1);
  if (base == lex.units.end() || base->second.metric != "time_s" || base->second.derived ||
      !std::isalpha(static_cast<unsigned char>(item[0])) ||
      !std::all_of(item.begin(), item.end(),
                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }))
    return false;
  *info = base->second;
  std::string name;
  for (char c : item) name += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  info->metric = "time_per_" + name + "_s";
  return true;
}

// A rate of what the column or the sentence names, written with its
// magnitude only ("9.5 M/s" under "cycles/sec", "120 K/s"): rate_per_s,
// the magnitude (k, K, M, G) its factor. A rate of a word of its own
// ("32 GT/s", "visits/s") is a unit of the vocabulary or no figure.
static bool PerSecondRate(const std::string& unit, UnitInfo* info) {
  const size_t slash = unit.rfind('/');
  if (slash == std::string::npos || slash == 0 || (unit.substr(slash) != "/s" && unit.substr(slash) != "/sec")) return false;
  std::string word = unit.substr(0, slash);
  double factor = 1;
  if (word == "k" || word == "K") factor = 1e3, word.clear();
  else if (word == "M") factor = 1e6, word.clear();
  else if (word == "G") factor = 1e9, word.clear();
  else
    return false;
  info->metric = "rate_per_s";
  info->factor = factor;
  info->derived = false;
  return true;
}

bool UnitIn(const Lexicon& lex, const std::string& written, UnitInfo* info) {
  // "k tokens/s": a magnitude before a unit is a unit that many times larger.
  std::string unit;
  const double magnitude = MagnitudeOf(lex, written, &unit);
  if (magnitude != 1) {
    if (unit.find(' ') != std::string::npos || !UnitIn(lex, unit, info) || info->derived) return false;
    info->factor *= magnitude;
    return true;
  }
  auto it = lex.units.find(unit);
  if (it != lex.units.end()) {
    *info = it->second;
    return true;
  }

  for (const char* d : {"rank", "gpu", "GPU", "device", "chip"}) {
    const std::string suffix = std::string("/") + d;
    if (unit.size() <= suffix.size() || unit.compare(unit.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    auto base = lex.units.find(unit.substr(0, unit.size() - suffix.size()));
    if (base == lex.units.end() || base->second.derived) return false;
    *info = base->second;
    info->metric += std::string("_per_") + (d[0] == 'G' ? "gpu" : d);
    return true;
  }
  return PerItemTime(lex, unit, info) || PerSecondRate(unit, info);
}

bool WordRateIn(const Lexicon& lex, const std::string& written, UnitInfo* info) {
  if (UnitIn(lex, written, info)) return true;
  const std::string w = WordRate(written);
  auto rate = w.empty() ? lex.word_rates.end() : lex.word_rates.find(w);
  if (rate == lex.word_rates.end()) return false;
  *info = rate->second;
  return true;
}

}  // namespace moelog::logbook::reader
