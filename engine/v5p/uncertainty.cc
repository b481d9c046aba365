#include "engine/v5p/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/v5p/coverage.h"
#include "engine/v5p/hardware.h"

namespace moelog::engine::v5p {

std::string BandPath(const std::map<std::string, std::string>& config) {
  auto get = [&](const char* k) {
    auto it = config.find(k);
    return it == config.end() ? std::string() : it->second;
  };
  if (!get("mlp_path").empty()) return "mlp_path=" + get("mlp_path");
  if (get("parallel_mode") == "ep")
    return "parallel_mode=ep, ep_dispatch=" + (get("ep_dispatch").empty() ? std::string("compact") : get("ep_dispatch"));
  return "parallel_mode=" + (get("parallel_mode").empty() ? std::string("none") : get("parallel_mode"));
}

ErrorBand BandFor(const Uncertainty& u, const std::map<std::string, std::string>& config) {
  if (!UncalibratedPaths(config).empty()) return ErrorBand{};
  const std::string path = BandPath(config);
  for (const ErrorBand& b : u.paths)
    if (b.path == path && b.validated) return b;
  ErrorBand b = u.all;
  b.path = path;
  return b;
}

bool WithinRatioBand(const Uncertainty& u, double ratio) {
  return ratio > 0 && std::fabs(std::log(ratio)) <= u.within_entry;
}

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t i = static_cast<size_t>(pos);
  const double frac = pos - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

Factor ShrunkFactor(const std::vector<FactorSample>& samples, const ShrinkagePrior& prior) {
  std::map<std::string, std::pair<double, int>> by_entry;  // sum, count
  Factor f;
  for (const FactorSample& s : samples) {
    if (!std::isfinite(s.log_ratio)) continue;
    if (std::fabs(s.log_ratio) > kOutlierTaus * prior.tau) {
      ++f.excluded;
      continue;
    }
    auto& e = by_entry[s.entry];
    e.first += s.log_ratio;
    ++e.second;
  }
  double precision = 1.0 / (prior.tau * prior.tau), weighted = 0;
  for (const auto& [entry, sc] : by_entry) {
    const double var = prior.sigma_entry * prior.sigma_entry + prior.sigma_within * prior.sigma_within / sc.second;
    precision += 1.0 / var;
    weighted += (sc.first / sc.second) / var;
    f.n += sc.second;
    ++f.entries;
  }
  f.factor = std::exp(weighted / precision);
  f.log_sd = 1.0 / std::sqrt(precision);
  return f;
}

namespace {

nlohmann::ordered_json BandJson(const ErrorBand& b) {
  nlohmann::ordered_json j;
  j["path"] = b.path;
  j["lo"] = b.lo;
  j["hi"] = b.hi;
  j["n"] = b.n;
  j["method"] = b.method;
  return j;
}

bool ReadBand(const nlohmann::json& j, ErrorBand* b) {
  if (!j.is_object() || !j.contains("lo") || !j.contains("hi") || !j["lo"].is_number() || !j["hi"].is_number())
    return false;
  b->lo = j["lo"].get<double>();
  b->hi = j["hi"].get<double>();
  if (!(b->lo > 0 && b->lo <= 1 && b->hi >= 1 && b->hi < 10)) return false;
  b->n = j.value("n", 0);
  b->path = j.value("path", "");
  b->method = j.value("method", "");
  b->validated = true;
  return true;
}

}  // namespace

std::string UncertaintyToJson(const Uncertainty& u, const std::string& about) {
  nlohmann::ordered_json j;
  j["about"] = about;
  j["bands"] = "measured/modeled throughput, 10th and 90th percentiles of past errors per path";
  nlohmann::ordered_json paths = nlohmann::ordered_json::array();
  for (const ErrorBand& b : u.paths) paths.push_back(BandJson(b));
  j["paths"] = paths;
  j["all"] = BandJson(u.all);
  if (u.unvalidated.validated) j["unvalidated"] = BandJson(u.unvalidated);
  j["within_entry_ratio"] = {{"abs_log_p80", u.within_entry}, {"pairs", u.within_entry_pairs}};
  j["calibration_prior"] = {{"tau", u.prior.tau},
                            {"sigma_entry", u.prior.sigma_entry},
                            {"sigma_within", u.prior.sigma_within}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<Uncertainty> LoadUncertainty(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open model band file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  auto bad = [&](const std::string& what) { return Status::InvalidArgument(path + ": " + what); };
  if (j.is_discarded() || !j.is_object()) return bad("expected a JSON object");
  Uncertainty u;
  u.source = path;
  if (!j.contains("paths") || !j["paths"].is_array()) return bad("expected \"paths\": [...]");
  for (const auto& p : j["paths"]) {
    ErrorBand b;
    if (!ReadBand(p, &b)) return bad("a path band needs lo in (0, 1] and hi in [1, 10)");
    u.paths.push_back(b);
  }
  if (!j.contains("all") || !ReadBand(j["all"], &u.all)) return bad("\"all\" needs lo in (0, 1] and hi in [1, 10)");
  if (j.contains("unvalidated") && !ReadBand(j["unvalidated"], &u.unvalidated))
    return bad("\"unvalidated\" needs lo in (0, 1] and hi in [1, 10)");
  const auto w = j.value("within_entry_ratio", nlohmann::json::object());
  u.within_entry = w.value("abs_log_p80", 0.0);
  u.within_entry_pairs = w.value("pairs", 0);
  const auto pr = j.value("calibration_prior", nlohmann::json::object());
  u.prior.tau = pr.value("tau", u.prior.tau);
  u.prior.sigma_entry = pr.value("sigma_entry", u.prior.sigma_entry);
  u.prior.sigma_within = pr.value("sigma_within", u.prior.sigma_within);
  if (!(u.within_entry >= 0 && u.within_entry < 1) || !(u.prior.tau > 0 && u.prior.tau < 1) ||
      !(u.prior.sigma_entry >= 0 && u.prior.sigma_entry < 1) || !(u.prior.sigma_within > 0 && u.prior.sigma_within < 1))
    return bad("within_entry_ratio and calibration_prior must be in [0, 1) (tau, sigma_within > 0)");
  return u;
}

ErrorBand UnvalidatedPrior(const Uncertainty& u) {
  ErrorBand b = u.unvalidated;
  if (!b.validated) {
    b = u.all;
    b.lo = std::max(0.05, 1 - 3 * (1 - u.all.lo));
    b.hi = 1 + 3 * (u.all.hi - 1);
    b.path = "all, widened";
  }
  // Never a point: at least +-5%.
  b.lo = std::min(b.lo, 0.95);
  b.hi = std::max(b.hi, 1.05);
  b.validated = false;
  return b;
}

Result<Uncertainty> LoadUncertaintyByName(const std::string& name_or_path) {
  const std::string n = name_or_path.empty() ? "v5p_bands" : name_or_path;
  auto path = ResolveDataFile(n, "");
  if (!path.ok()) return Status::NotFound("model bands " + n + ": " + path.status().message());
  return LoadUncertainty(*path);
}

}  // namespace moelog::engine::v5p
