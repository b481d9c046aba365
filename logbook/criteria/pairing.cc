#include "logbook/criteria/pairing.h"

#include "logbook/numbers.h"

namespace moelog::logbook {

std::string CanonicalValue(const std::optional<std::string>& v) {
  if (!v) return "-";
  if (auto n = ParseNumber(*v)) return FormatValue(*n);
  if (*v == "true") return "1";
  if (*v == "false") return "0";
  return *v;
}

std::vector<std::string> ControlKeys(const std::vector<const StoredRun*>& runs, const std::vector<std::string>& same,
                                     const std::set<std::string>& varied) {
  if (!same.empty()) return same;
  // Keys that only follow a varied key are varied with it: the devices and
  // mesh of a run follow its parallel mode (none runs on one device).
  auto follows_varied = [&](const std::string& k) { return varied.count(FollowedKey(k)) > 0; };
  std::set<std::string> keys;
  for (const StoredRun* r : runs)
    for (const auto& [k, v] : r->config)
      if (!varied.count(k) && !IsIgnoredForPairing(k) && !follows_varied(k)) keys.insert(k);
  if (!varied.count("target")) keys.insert("target");  // RunValue answers it from the run
  return {keys.begin(), keys.end()};
}

std::string ControlSignature(const StoredRun& r, const std::vector<std::string>& keys) {
  std::string sig;
  for (const auto& k : keys) sig += k + "=" + CanonicalValue(RunValue(r, k)) + "\x1f";
  return sig;
}

}  // namespace moelog::logbook
