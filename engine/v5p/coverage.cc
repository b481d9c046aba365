#include "engine/v5p/coverage.h"

#include <algorithm>
#include <cstdlib>

namespace moelog::engine::v5p {

const std::map<std::string, std::vector<std::string>>& CalibratedPathValues() {
  static const std::map<std::string, std::vector<std::string>> kValues = {
      {"backend", {"gmm"}},
      {"impl", {"fused_w13"}},
      {"parallel_mode", {"none", "ep"}},
      {"ep_dispatch", {"compact", "dense_masked"}},
      {"ep_comm_path", {"compact_psum"}},
      {"quant_mode", {"none"}},
      {"capacity_policy", {"none"}},
      {"null_route_frac", {"0"}},
      {"hardware", {"v5p"}},
      {"mlp_path", {"ref_dp", "staged_dp", "fused_ep"}},
      // The chip's default (the key absent) and the raised limit the Qwen-like runs used.
      {"xla_scoped_vmem_kib", {"50000"}},
  };
  return kValues;
}

const std::map<std::string, std::vector<std::string>>& ThinPathValues() {
  static const std::map<std::string, std::vector<std::string>> kValues = {{"backend", {"ragged_dot"}}};
  return kValues;
}

namespace {

bool Covered(const std::vector<std::string>& values, const std::string& v) {
  if (std::find(values.begin(), values.end(), v) != values.end()) return true;
  // Numbers by value ("0", "0.0"); a list ("0,0.5") is covered when every element is.
  if (v.find(',') != std::string::npos) {
    size_t start = 0;
    while (start <= v.size()) {
      const size_t end = v.find(',', start);
      if (!Covered(values, v.substr(start, end == std::string::npos ? std::string::npos : end - start))) return false;
      if (end == std::string::npos) return true;
      start = end + 1;
    }
  }
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0') return false;
  return std::any_of(values.begin(), values.end(), [x](const std::string& c) {
    char* e = nullptr;
    const double y = std::strtod(c.c_str(), &e);
    return e != c.c_str() && *e == '\0' && x == y;
  });
}

}  // namespace

std::vector<std::string> UncalibratedPaths(const std::map<std::string, std::string>& config) {
  std::vector<std::string> out;
  // A bench_moe_mlp_profile.py path is its own program: its rows calibrate it
  // whatever impl or parallel mode the engine computes it with on cpu.
  const auto path = config.find("mlp_path");
  if (path != config.end() && !path->second.empty()) {
    if (!Covered(CalibratedPathValues().at("mlp_path"), path->second)) out.push_back("mlp_path=" + path->second);
    return out;
  }
  const auto mode = config.find("parallel_mode");
  const bool ep = mode != config.end() && mode->second == "ep";
  // Every calibration row ran the whole slice on one axis (EP: expert=4, the
  // hillclimb default); another mesh (data x expert, or fewer chips) is
  // physics no row checked.
  const auto mesh = config.find("mesh");
  if (mesh != config.end() && !mesh->second.empty() && !(ep && mesh->second == "data=1,expert=4"))
    out.push_back("mesh=" + mesh->second);
  for (const auto& [key, values] : CalibratedPathValues()) {
    auto it = config.find(key);
    if (it == config.end() || it->second.empty()) continue;
    // The EP collective and dispatch only matter under EP.
    if ((key == "ep_comm_path" || key == "ep_dispatch") && !ep) continue;
    if (!Covered(values, it->second)) out.push_back(key + "=" + it->second);
  }
  return out;
}

}  // namespace moelog::engine::v5p
