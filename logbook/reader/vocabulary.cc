#include "logbook/reader/vocabulary.h"

#include <nlohmann/json.hpp>

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

Status Units(const nlohmann::json& j, const std::string& file, Lexicon* lex) {
  if (!j.contains("units")) return Status::Ok();
  if (!j["units"].is_object()) return Status::InvalidArgument(file + ": units: expected an object");
  for (const auto& [unit, spec] : j["units"].items()) {
    const std::string where = file + ": units." + unit;
    if (!spec.is_object() || !spec.contains("metric") || !spec["metric"].is_string())
      return Status::InvalidArgument(where + ": expected {\"metric\": ..., \"factor\": ...}");
    UnitInfo info;
    info.metric = spec["metric"].get<std::string>();
    if (spec.contains("factor")) {
      if (!spec["factor"].is_number() || spec["factor"].get<double>() <= 0)
        return Status::InvalidArgument(where + ".factor: expected a positive number");
      info.factor = spec["factor"].get<double>();
    }
    if (spec.contains("derived")) {
      if (!spec["derived"].is_boolean()) return Status::InvalidArgument(where + ".derived: expected true or false");
      info.derived = spec["derived"].get<bool>();
    }
    lex->units[unit] = info;
  }
  return Status::Ok();
}

}  // namespace

Result<Lexicon> ParseLexicon(const std::string& json_text, const std::string& file) {
  try {
    const nlohmann::json j = nlohmann::json::parse(json_text);
    if (!j.is_object()) return Status::InvalidArgument(file + ": expected an object");
    Lexicon lex;
    MOELOG_RETURN_IF_ERROR(Units(j, file, &lex));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "statistic_words", &lex.statistic_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "metric_words", &lex.metric_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "count_words", &lex.count_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "delta_words", &lex.delta_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "goal_words", &lex.goal_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "reference_words", &lex.reference_words));
    MOELOG_RETURN_IF_ERROR(Words(j, file, "estimate_words", &lex.estimate_words));
    return lex;
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(file + ": " + e.what());
  }
}

const Lexicon& ReaderLexicon() {
  static const Lexicon lex = [] {
    for (const auto& f : kBuiltinFiles)
      if (std::string(f.path) == "data/reader/vocabulary.json")
        if (auto l = ParseLexicon(f.text, f.path); l.ok()) return *l;
    return Lexicon{};  // the built-in file is checked by its test
  }();
  return lex;
}

bool UnitIn(const Lexicon& lex, const std::string& unit, UnitInfo* info) {
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
  return false;
}

}  // namespace moelog::logbook::reader
