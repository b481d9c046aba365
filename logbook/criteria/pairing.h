// The one rule by which runs are compared, shared by `moelog compare` and the
// stop criteria (pairs, sweep, table, repeats): two runs are comparable when
// they agree on every control key.
#ifndef MOELOG_LOGBOOK_CRITERIA_PAIRING_H_
#define MOELOG_LOGBOOK_CRITERIA_PAIRING_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// A value as runs are compared: numbers in one form ("2.0" -> "2"),
// true/false as 1/0, a missing key as "-".
std::string CanonicalValue(const std::optional<std::string>& v);

// The keys runs must agree on: `same` when given; otherwise every config key
// of any of `runs` except the `varied` ones, those that only follow a varied
// key (devices and mesh follow parallel_mode) and those IsIgnoredForPairing,
// plus `target` (a modeled and a measured run never pair) unless varied.
std::vector<std::string> ControlKeys(const std::vector<const StoredRun*>& runs, const std::vector<std::string>& same,
                                     const std::set<std::string>& varied);

// A run's canonical values of `keys`: runs with equal signatures are at
// identical controls.
std::string ControlSignature(const StoredRun& r, const std::vector<std::string>& keys);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_CRITERIA_PAIRING_H_
