// A run table's rows and which of their config keys make columns.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/bench_flags.h"
#include "logbook/numbers.h"
#include "logbook/render/render_table.h"
#include "logbook/render/table_parts.h"
#include "logbook/store/stored_run_reader.h"

namespace moelog::logbook {
namespace {

using table_parts::kPriority;

std::string JsonScalar(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) return FormatValue(v.get<double>());
  if (v.is_null()) return "";
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}


// Keys that never make a column (engine/bench_flags.cc says which): keys
// pairing ignores, bookkeeping (target, source, hardware, seeds).
bool NeverColumn(const std::string& k) {
  // "stage_bound_shared=MXU": what bounds a stage in the model's output, not a setting.
  if (k.rfind("stage_bound_", 0) == 0) return true;
  const engine::FlagSpec* f = engine::FindRunKey(k);
  return f != nullptr && (!f->column || f->pairing == engine::Pairing::kIgnored);
}

}  // namespace

TableRow RowFromRecord(const RunRecord& record) {
  TableRow row;
  row.target = record.target;
  try {
    const auto j = nlohmann::json::parse(record.config_json);
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_array()) {
          std::string joined;
          for (const auto& e : it.value()) {
            if (!joined.empty()) joined += ',';
            joined += JsonScalar(e);
          }
          row.config[it.key()] = joined;
        } else {
          row.config[it.key()] = JsonScalar(it.value());
        }
      }
    }
  } catch (const std::exception&) {
    // A malformed stored config leaves only the point columns.
  }
  // Loop bindings ("loop.tk") belong to the entry that first ran this config;
  // a cached run can be shared by entries, so they never make columns.
  for (const auto& [k, v] : record.point)
    if (k.rfind("loop.", 0) != 0 && k != "source") row.config[ConfigKeyOfPoint(k)] = v;
  row.metrics = record.metrics;
  row.status = record.status;
  row.version = record.moelog_version;
  return row;
}

// Whether `values` (one per row) is a function of `by` (same rows): equal
// `by` values always come with equal `values`.
bool FollowsFrom(const std::vector<std::string>& by, const std::vector<std::string>& values) {
  std::map<std::string, std::string> seen;
  for (size_t i = 0; i < by.size(); ++i)
    if (!seen.emplace(by[i], values[i]).second && seen[by[i]] != values[i]) return false;
  return true;
}

// The varying keys, in kPriority order, without keys whose values repeat an
// earlier column's. An mlp_profile path (mlp_path) names its program: the
// keys its adapter sets with it (parallel mode, impl, staged_parallel) are
// implied and left out.
std::vector<std::string> VaryingColumns(const std::vector<TableRow>& rows) {
  std::set<std::string> keys;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.config)
      if (!NeverColumn(k)) keys.insert(k);
  std::vector<std::string> order;
  for (const char* p : kPriority)
    if (keys.erase(p)) order.push_back(p);
  for (const auto& k : keys) order.push_back(k);
  std::vector<std::string> out;
  std::vector<std::vector<std::string>> seen;
  for (const auto& k : order) {
    std::vector<std::string> values;
    for (const auto& r : rows) {
      auto it = r.config.find(k);
      values.push_back(it == r.config.end() ? "" : it->second);
    }
    std::set<std::string> distinct(values.begin(), values.end());
    if (distinct.size() < 2) continue;
    if (std::find(seen.begin(), seen.end(), values) != seen.end()) continue;
    if (!seen.empty() && out.front() == "mlp_path" && FollowsFrom(seen.front(), values)) continue;
    seen.push_back(values);
    out.push_back(k);
  }
  return out;
}

}  // namespace moelog::logbook
