#include "logbook/store/stored_run_reader.h"

#include <nlohmann/json.hpp>

#include "engine/target.h"

namespace moelog::logbook {
namespace {

std::string JsonScalar(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return FormatValue(v.get<double>());
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string ConfigKeyOfPoint(const std::string& point_key) {
  static const std::map<std::string, std::string> kPointNames = {
      {"mode", "queue_mode"}, {"pass", "bench_pass"}, {"null_target", "null_route_frac"},
      {"null_mode", "null_routing_mode"}};
  auto it = kPointNames.find(point_key);
  return it == kPointNames.end() ? point_key : it->second;
}

StoredRun ToStoredRun(const RunRecord& rec) {
  StoredRun r;
  r.id = !rec.run_id.empty() ? rec.run_id : std::to_string(rec.id);
  r.entry_id = rec.entry_id;
  r.target = rec.target;
  r.host = rec.host;
  r.cpu_isa = rec.cpu_isa;
  try {
    auto j = nlohmann::json::parse(rec.config_json);
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) {
        const auto& v = it.value();
        if (v.is_array()) {
          if (v.size() == 1) r.config[it.key()] = JsonScalar(v[0]);
        } else if (!v.is_object() && !v.is_null()) {
          r.config[it.key()] = JsonScalar(v);
        }
      }
    }
  } catch (const std::exception&) {
    // A row with unreadable config JSON keeps only its point values.
  }
  for (const auto& [k, v] : rec.point) {
    if (k == "source") {
      r.source = v;
      continue;
    }
    if (k.rfind("loop.", 0) == 0) continue;  // rows stored before loop variables stopped being config
    r.config[ConfigKeyOfPoint(k)] = v;
  }
  if (!rec.point.count("source")) r.source = engine::TargetOrDefault(rec.target).source;
  if (r.target.empty() && r.config.count("target")) r.target = r.config["target"];
  r.metrics = rec.metrics;
  if (rec.metrics.count("time_s") && !rec.metrics.count("mean_s")) r.metrics["mean_s"] = rec.metrics.at("time_s");
  return r;
}

Result<std::vector<StoredRun>> LoadStoredRuns(const std::string& db_path, const RunQuery& query,
                                              bool accept_foreign, int64_t* foreign_ignored) {
  auto store = RunStore::Open(db_path);
  if (!store.ok()) return store.status();
  auto rows = (*store)->Query(query);
  if (!rows.ok()) return rows.status();
  const size_t dropped = accept_foreign ? 0 : DropForeign(&*rows);
  if (foreign_ignored) *foreign_ignored = static_cast<int64_t>(dropped);
  std::vector<StoredRun> out;
  for (const auto& rec : *rows)
    if (rec.status == "ok") out.push_back(ToStoredRun(rec));
  return out;
}

}  // namespace moelog::logbook
