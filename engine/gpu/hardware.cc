#include "engine/gpu/hardware.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/v5p/hardware.h"

namespace moelog::engine::gpu {
namespace {

using nlohmann::json;

Result<json> ReadJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open hardware file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidArgument(path + ": not a JSON object");
  return j;
}

// Reads constants[key] = {"value": number > 0, "source": "..."}.
Status ReadConstant(const std::string& path, const json& c, const char* key, bool required, double* out) {
  if (!c.contains(key)) {
    if (required) return Status::InvalidArgument(path + ": constant \"" + key + "\" is missing");
    return Status::Ok();
  }
  const json& v = c[key];
  if (!v.is_object() || !v.contains("value") || !v["value"].is_number())
    return Status::InvalidArgument(path + ": constant \"" + key + "\" must be {\"value\": number, \"source\": text}");
  if (!v.contains("source") || !v["source"].is_string() || v["source"].get<std::string>().empty())
    return Status::InvalidArgument(path + ": constant \"" + key + "\" has no \"source\" (cite where the figure comes from)");
  *out = v["value"].get<double>();
  if (!(*out > 0) || !std::isfinite(*out))
    return Status::InvalidArgument(path + ": constant \"" + key + "\" must be a finite number > 0");
  return Status::Ok();
}

Status ReadCurve(const std::string& path, const json& curves, const char* key, Curve* out) {
  const std::string where = path + ": curve \"" + key + "\"";
  if (!curves.contains(key)) return Status::InvalidArgument(where + " is missing");
  const json& c = curves[key];
  if (!c.is_object() || !c.contains("points") || !c["points"].is_array() || c["points"].empty())
    return Status::InvalidArgument(where + " must be {\"points\": [[x, efficiency], ...], \"source\": text}");
  if (!c.contains("source") || !c["source"].is_string())
    return Status::InvalidArgument(where + " has no \"source\"");
  for (const json& p : c["points"]) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
      return Status::InvalidArgument(where + ": each point must be [x, efficiency]");
    const double x = p[0].get<double>(), y = p[1].get<double>();
    if (!(y > 0 && y <= 1)) return Status::InvalidArgument(where + ": efficiency must be in (0, 1]");
    if (!out->points.empty() && !(x > out->points.back().first))
      return Status::InvalidArgument(where + ": x must ascend");
    out->points.emplace_back(x, y);
  }
  return Status::Ok();
}

Status ReadConstants(const std::string& path, const json& c, Hardware* h) {
  double dom = 0, nics = 0, sms = 0;
  struct Item { const char* key; bool required; double* out; };
  const Item items[] = {
      {"peak_bf16_flops", true, &h->peak_bf16},     {"peak_fp8_flops", true, &h->peak_fp8},
      {"peak_fp4_flops", false, &h->peak_fp4},      {"hbm_bytes", true, &h->hbm_bytes},
      {"hbm_bw", true, &h->hbm_bw},                 {"scaleup_bw", true, &h->scaleup_bw},
      {"scaleup_peer_bw", false, &h->scaleup_peer_bw}, {"scaleup_domain", true, &dom},
      {"scaleup_latency_s", true, &h->scaleup_latency_s}, {"nics_per_gpu", true, &nics},
      {"nic_bw", true, &h->nic_bw},                 {"scaleout_latency_s", true, &h->scaleout_latency_s},
      {"sms", true, &sms},                          {"launch_latency_s", true, &h->launch_latency_s}};
  for (const Item& it : items)
    if (Status st = ReadConstant(path, c, it.key, it.required, it.out); !st.ok()) return st;
  for (double v : {dom, nics, sms})
    if (v != std::floor(v) || v > 1e6)
      return Status::InvalidArgument(path + ": scaleup_domain, nics_per_gpu and sms must be whole numbers");
  h->scaleup_domain = static_cast<int64_t>(dom);
  h->nics_per_gpu = static_cast<int64_t>(nics);
  h->sms = static_cast<int64_t>(sms);
  return Status::Ok();
}

}  // namespace

double Curve::At(double x) const {
  if (points.empty()) return 1.0;
  if (x <= points.front().first) return points.front().second;
  if (x >= points.back().first) return points.back().second;
  auto hi = std::upper_bound(points.begin(), points.end(), x,
                             [](double v, const std::pair<double, double>& p) { return v < p.first; });
  auto lo = hi - 1;
  const double f = (x - lo->first) / (hi->first - lo->first);
  return lo->second + f * (hi->second - lo->second);
}

double Hardware::PeakFor(const std::string& dtype) const {
  if (dtype == "fp8") return peak_fp8;
  if (dtype == "fp4") return peak_fp4;
  if (dtype == "bf16") return peak_bf16;
  if (dtype == "fp32") return peak_bf16 / 2;  // TF32-class tensor rate; fp32 GEMMs are not the target
  return 0;
}

Result<std::string> HardwareClass(const std::string& path) {
  auto j = ReadJson(path);
  if (!j.ok()) return j.status();
  if (!j->contains("class")) return std::string("tpu");
  const json& c = (*j)["class"];
  if (!c.is_string() || (c.get<std::string>() != "gpu" && c.get<std::string>() != "tpu"))
    return Status::InvalidArgument(path + ": \"class\" must be \"gpu\" or \"tpu\"");
  return c.get<std::string>();
}

Result<Hardware> LoadHardware(const std::string& path) {
  auto j = ReadJson(path);
  if (!j.ok()) return j.status();
  if (j->value("class", std::string()) != "gpu")
    return Status::InvalidArgument(path + ": not a GPU hardware file (\"class\": \"gpu\" missing)");
  if (!j->contains("constants") || !(*j)["constants"].is_object())
    return Status::InvalidArgument(path + ": missing object \"constants\"");
  if (!j->contains("curves") || !(*j)["curves"].is_object())
    return Status::InvalidArgument(path + ": missing object \"curves\"");
  if (!j->contains("efficiency_source") || !(*j)["efficiency_source"].is_string())
    return Status::InvalidArgument(path + ": missing \"efficiency_source\" (where its efficiencies came from)");
  Hardware h;
  h.path = path;
  h.name = j->value("name", std::string("unnamed"));
  h.description = j->value("description", std::string());
  h.validated = j->value("validated", false);
  h.vendor = j->value("vendor", std::string("nvidia"));
  if (h.vendor != "nvidia" && h.vendor != "amd")
    return Status::InvalidArgument(path + ": \"vendor\" must be \"nvidia\" or \"amd\"");
  h.scaleup_kind = j->value("scaleup_kind", std::string("nvlink"));
  h.interconnect = j->value("interconnect", std::string("ib"));
  if (h.scaleup_kind != "nvlink" && h.scaleup_kind != "xgmi")
    return Status::InvalidArgument(path + ": \"scaleup_kind\" must be \"nvlink\" or \"xgmi\"");
  if (Status st = ReadConstants(path, (*j)["constants"], &h); !st.ok()) return st;
  const json& cv = (*j)["curves"];
  for (auto [key, out] : {std::pair{"matmul_size_gflop", &h.matmul_size},
                          std::pair{"scaleup_message_bytes", &h.scaleup_msg},
                          std::pair{"scaleout_message_bytes", &h.scaleout_msg}})
    if (Status st = ReadCurve(path, cv, key, out); !st.ok()) return st;
  return h;
}

Result<Hardware> LoadHardwareByName(const std::string& name_or_path) {
  auto p = v5p::ResolveDataFile(name_or_path, "hardware");
  if (!p.ok()) return Status::NotFound("hardware " + name_or_path + ": " + p.status().message());
  return LoadHardware(*p);
}

}  // namespace moelog::engine::gpu
