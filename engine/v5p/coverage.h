// Which harness paths the v5p model's calibration data covers. The model is
// physics with efficiencies fitted on the hillclimb and mlp_profile rows of
// data/seed_measurements.csv; a configuration that takes a path those rows
// never measured (int8, null routing, the ring or all-to-all EP collectives,
// the hillclimb harness's data parallelism, a data x expert mesh, capacity
// limits, the other expert-MLP variants, an unvalidated chip file) is a
// prediction nobody has checked, and moelog says so beside its figures and
// in `moelog bench`'s output ("model unvalidated: ..."). tests/engine/v5p_coverage_test.cc checks this list
// against the CSV.
#ifndef MOELOG_ENGINE_V5P_COVERAGE_H_
#define MOELOG_ENGINE_V5P_COVERAGE_H_

#include <map>
#include <string>
#include <vector>

namespace moelog::engine::v5p {

// The config keys whose values decide the model's path, each with the
// values the calibration rows hold in enough rows to check the terms of that
// path (kMinCalibrationRows).
const std::map<std::string, std::vector<std::string>>& CalibratedPathValues();

// Paths with calibration rows too few to pin their terms: ragged_dot (2 rows,
// one entry, one local group count) -- its per-group weight fetch is physics
// no row has checked. They are reported as unvalidated like unmeasured paths.
constexpr int kMinCalibrationRows = 5;
const std::map<std::string, std::vector<std::string>>& ThinPathValues();

// The paths of a run's config (canonical config keys -> values, as stored:
// "quant_mode" -> "int8", "null_route_frac" -> "0.25") that no calibration
// row took, as "key=value" ("quant_mode=int8"); empty when the config is on
// calibrated paths only. A key the config does not hold is not judged.
std::vector<std::string> UncalibratedPaths(const std::map<std::string, std::string>& config);

}  // namespace moelog::engine::v5p

#endif  // MOELOG_ENGINE_V5P_COVERAGE_H_
