#include "engine/v5p/hardware.h"

#include "engine/source_dir.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace moelog::engine::v5p {
namespace {

namespace fs = std::filesystem;

std::string ExecutableDir() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  return p.parent_path().string();
}

}  // namespace

bool IsDataFilePath(const std::string& name_or_path) {
  return name_or_path.find('/') != std::string::npos ||
         (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".json") == 0);
}

Result<std::string> ResolveDataFile(const std::string& name_or_path, const std::string& subdir,
                                    const std::string& extension) {
  if (name_or_path.empty()) return Status::InvalidArgument("empty data file name");
  std::error_code ec;
  if (IsDataFilePath(name_or_path)) {
    if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
    return Status::NotFound("file not found: " + name_or_path);
  }
  const std::string rel = (subdir.empty() ? "" : subdir + "/") + name_or_path + extension;
  std::vector<std::string> roots;
  if (const char* env = std::getenv("MOELOG_DATA_DIR"); env != nullptr && *env != '\0') roots.push_back(env);
  if (std::string exe = ExecutableDir(); !exe.empty()) roots.push_back(exe + "/../share/moelog/data");
  roots.push_back(SourceTreeDataDir());
  std::string tried;
  for (const auto& root : roots) {
    fs::path p = fs::path(root) / rel;
    if (fs::is_regular_file(p, ec)) return p.string();
    tried += (tried.empty() ? "" : ", ") + p.string();
  }
  return Status::NotFound("no data file '" + rel + "' (searched " + tried + ")");
}

Result<Hardware> LoadHardware(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open hardware file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidArgument(path + ": not a JSON object");
  if (!j.contains("constants") || !j["constants"].is_object())
    return Status::InvalidArgument(path + ": missing object \"constants\"");
  const nlohmann::json& c = j["constants"];
  Status bad;
  auto num = [&](const char* key, double* out) {
    if (!bad.ok()) return;
    if (!c.contains(key) || !c[key].is_object() || !c[key].contains("value") || !c[key]["value"].is_number()) {
      bad = Status::InvalidArgument(path + ": constant \"" + key + "\" missing or not {\"value\": number}");
      return;
    }
    if (!c[key].contains("source") || !c[key]["source"].is_string()) {
      bad = Status::InvalidArgument(path + ": constant \"" + key + "\" has no \"source\"");
      return;
    }
    *out = c[key]["value"].get<double>();
    if (!(*out > 0)) bad = Status::InvalidArgument(path + ": constant \"" + key + "\" must be > 0");
  };
  Hardware h;
  h.path = path;
  h.name = j.value("name", std::string("unnamed"));
  h.validated = j.value("validated", false);
  double links = 0, chips = 0, cores = 0, mxu = 0, tm = 0, tk = 0, tn = 0, capm = 0;
  num("peak_bf16_flops", &h.peak_bf16_flops);
  num("peak_int8_ops", &h.peak_int8_ops);
  num("hbm_bytes", &h.hbm_bytes);
  num("hbm_bw", &h.hbm_bw);
  num("ici_link_bw", &h.ici_link_bw);
  num("ici_links_per_chip", &links);
  num("ici_hop_latency_s", &h.ici_hop_latency_s);
  num("chips_per_slice", &chips);
  num("tensorcores_per_chip", &cores);
  num("mxu_dim", &mxu);
  num("vmem_bytes_per_core", &h.vmem_bytes_per_core);
  num("xla_scoped_vmem_default", &h.xla_scoped_vmem_default);
  num("gmm_tile_m", &tm);
  num("gmm_tile_k", &tk);
  num("gmm_tile_n", &tn);
  num("ep_local_cap_multiple", &capm);
  if (!bad.ok()) return bad;
  h.ici_links = static_cast<int64_t>(links);
  h.chips = static_cast<int64_t>(chips);
  h.cores_per_chip = static_cast<int64_t>(cores);
  h.mxu_dim = static_cast<int64_t>(mxu);
  h.tile_m = static_cast<int64_t>(tm);
  h.tile_k = static_cast<int64_t>(tk);
  h.tile_n = static_cast<int64_t>(tn);
  h.ep_cap_multiple = static_cast<int64_t>(capm);
  return h;
}

Result<Hardware> LoadHardwareByName(const std::string& name_or_path) {
  auto p = ResolveDataFile(name_or_path, "hardware");
  if (!p.ok()) return Status::NotFound("--hardware " + name_or_path + ": " + p.status().message());
  return LoadHardware(*p);
}

}  // namespace moelog::engine::v5p
