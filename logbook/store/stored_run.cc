#include "logbook/store/stored_run.h"


#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "engine/bench_flags.h"

namespace moelog::logbook {

std::optional<std::string> RunValue(const StoredRun& run, const std::string& key) {
  if (key == "target" && !run.target.empty()) return run.target;
  if (key == "host") return run.host;
  if (key == "entry") return run.entry_id;
  if (key == "source") return run.source;
  auto it = run.config.find(key);
  if (it != run.config.end()) return it->second;
  if (key == "target") return run.target;
  return std::nullopt;
}


namespace {

std::optional<bool> ParseBool(const std::string& s) {
  if (s == "true" || s == "1") return true;
  if (s == "false" || s == "0") return false;
  return std::nullopt;
}

}  // namespace

bool ValuesEqual(const std::string& a, const std::string& b) {
  if (a == b) return true;
  auto na = ParseNumber(a), nb = ParseNumber(b);
  if (na && nb) return *na == *nb || std::fabs(*na - *nb) <= 1e-9 * std::max(std::fabs(*na), std::fabs(*nb));
  auto ba = ParseBool(a), bb = ParseBool(b);
  return ba && bb && *ba == *bb;
}

bool IsIgnoredForPairing(const std::string& key) {
  const engine::FlagSpec* f = engine::FindRunKey(key);
  return f != nullptr && f->pairing == engine::Pairing::kIgnored;
}

std::string FollowedKey(const std::string& key) {
  const engine::FlagSpec* f = engine::FindRunKey(key);
  return f != nullptr && f->pairing == engine::Pairing::kFollows ? f->follows : "";
}

std::string NormalizeKey(const std::string& key) {
  std::string k;
  for (char c : key) k += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::map<std::string, std::string> kAliases = [] {
    std::map<std::string, std::string> m;
    for (const auto& f : engine::BenchFlags())
      if (*f.alias) m.emplace(f.alias, f.key);
    return m;
  }();
  auto it = kAliases.find(k);
  return it == kAliases.end() ? k : it->second;
}

const std::set<std::string>& KnownRunKeys() {
  static const std::set<std::string> kKeys = [] {
    std::set<std::string> keys;
    for (const auto& f : engine::BenchFlags()) keys.insert(f.key);
    return keys;
  }();
  return kKeys;
}

bool IsKnownRunKey(const std::string& key) { return KnownRunKeys().count(key) > 0; }

std::set<std::string> RunKeys::Names() const {
  std::set<std::string> all = KnownRunKeys();
  all.insert(recorded.begin(), recorded.end());
  return all;
}

const std::set<std::string>& KnownMetrics() {
  static const std::set<std::string> kMetrics = {"tflops",        "tflops_per_device", "tokens_per_s", "time_s",
                                                 "mean_s",        "time_median_s",     "time_min_s",   "time_max_s",
                                                 "mfu",           "gb_per_s",          "speedup",      "delta_pct"};
  return kMetrics;
}

std::string JoinKeys(const std::set<std::string>& keys) {
  std::string s;
  for (const auto& k : keys) s += (s.empty() ? "" : ", ") + k;
  return s;
}


}  // namespace moelog::logbook
