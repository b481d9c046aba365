#include "engine/v5p/params.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/v5p/hardware.h"

namespace moelog::engine::v5p {
namespace {

const ParamInfo kInfo[kNumParams] = {
    {"eta_mxu_gmm", 0.85, 0.3, 1.0, "fraction of peak",
     "MXU efficiency of grouped-matmul tile steps on the padded tile work (pipeline bubbles, mask_k_rem VPU work); "
     "megablox gmm and XLA's ragged_dot do the same MXU work, ragged_dot adding an exposed weight fetch per group"},
    {"eta_dense", 0.85, 0.3, 1.0, "fraction of peak",
     "MXU efficiency of dense XLA matmuls (shared expert gate/up/down and their gradients)"},
    {"eta_hbm", 0.85, 0.3, 1.0, "fraction of nominal HBM bandwidth",
     "achieved HBM bandwidth of streaming elementwise passes (activation, casts, concat, reductions)"},
    {"eta_gather", 0.3, 0.02, 1.0, "fraction of nominal HBM bandwidth",
     "achieved bandwidth of row gathers x[idx] of D-wide rows (pack, inverse permute)"},
    {"eta_scatter", 0.1, 0.005, 1.0, "fraction of nominal HBM bandwidth",
     "achieved bandwidth of row scatter-adds (read-modify-write of D-wide rows; serialized on TPU)"},
    {"sort_s", 2e-10, 1e-12, 1e-8, "s per element per log2(n)",
     "cost of an XLA sort/argsort of n keys: sort_s * n * log2(n) (times operands/2)"},
    {"eta_ici", 0.7, 0.1, 1.0, "fraction of link bandwidth",
     "achieved ICI bandwidth of XLA collectives (psum, all-gather, reduce-scatter, all-to-all) on the slice"},
    {"eta_placement", 0.6, 0.05, 1.0, "fraction of the origin chip's links",
     "EP inputs (x, weights) arrive as single-device arrays and are replicated to the slice on every call; "
     "the origin chip sends them over its usable links at this fraction of their bandwidth"},
    {"gmm_step_s", 3.5e-7, 1e-9, 5e-6, "s per grid step", "per-grid-step pipeline overhead of gmm/tgmm"},
    {"fixed_s", 2e-4, 1e-6, 5e-3, "s per call", "fixed cost of one timed call: host dispatch and kernel launches"},
    {"eta_scatter_unique", 0.3, 0.005, 1.0, "fraction of nominal HBM bandwidth",
     "achieved bandwidth of the scatter-add that transposes a permutation gather (the backward of the sorted "
     "combine's unpermute): its indices never repeat, so no update waits on another's read-modify-write"},
    {"eta_mlp_profile", 0.3, 0.05, 1.0, "fraction of peak",
     "MXU efficiency of the expert matmuls of bench_moe_mlp_profile.py's paths (the reference and staged fused "
     "MoE under XLA, the fused EP Pallas kernel at its default block sizes)"},
    {"staged_overlap", 0.5, 0.01, 1.0, "fraction",
     "share of the shorter of input placement and expert compute that staged_dp's --staged-parallel stages "
     "run concurrently"},
    {"xla_step_overhead_bytes", 2.0e6, 1.0e3, 1.0e8, "bytes",
     "fixed cost of one VMEM tile step of an XLA-compiled kernel (fusions, gathers, scatters, sorts, dense "
     "matmuls), as HBM transfer time of this many bytes per full scoped-VMEM tile: an XLA kernel's tiles fill the "
     "scoped VMEM limit, so its time is (1 + this / limit) times its bytes' transfer time"},
};

}  // namespace

const ParamInfo& Info(int id) { return kInfo[id]; }

ModelParams ModelParams::Priors() {
  ModelParams p;
  for (int i = 0; i < kNumParams; ++i) p[i] = kInfo[i].prior;
  p.source = "priors";
  return p;
}

Result<ModelParams> LoadParams(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open model parameter file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("parameters") || !j["parameters"].is_object())
    return Status::InvalidArgument(path + ": expected a JSON object with \"parameters\"");
  const auto& ps = j["parameters"];
  ModelParams p;
  p.source = path;
  for (int i = 0; i < kNumParams; ++i) {
    const char* name = kInfo[i].name;
    if (!ps.contains(name) || !ps[name].is_object() || !ps[name].contains("value") || !ps[name]["value"].is_number())
      return Status::InvalidArgument(path + ": parameter \"" + name + "\" missing or not {\"value\": number}");
    double v = ps[name]["value"].get<double>();
    if (!(v >= kInfo[i].min && v <= kInfo[i].max))
      return Status::InvalidArgument(path + ": parameter \"" + name + "\" = " + std::to_string(v) +
                                     " outside its bounds");
    p[i] = v;
  }
  return p;
}

Result<ModelParams> LoadParamsByName(const std::string& name_or_path) {
  const std::string n = name_or_path.empty() ? "v5p_params" : name_or_path;
  auto path = ResolveDataFile(n, "");
  if (!path.ok()) return Status::NotFound("--model-params " + n + ": " + path.status().message());
  return LoadParams(*path);
}

std::string ParamsToJson(const ModelParams& p, const std::string& hardware_name, const std::string& fit_info) {
  nlohmann::ordered_json j;
  j["model"] = "moelog analytical TPU MoE-layer model";
  j["hardware"] = hardware_name;
  j["note"] = "Only efficiencies and overheads are fitted; hardware constants come from data/hardware/<chip>.json.";
  nlohmann::ordered_json ps;
  for (int i = 0; i < kNumParams; ++i) {
    nlohmann::ordered_json e;
    e["value"] = p[i];
    e["unit"] = kInfo[i].unit;
    e["meaning"] = kInfo[i].meaning;
    e["prior"] = kInfo[i].prior;
    e["min"] = kInfo[i].min;
    e["max"] = kInfo[i].max;
    ps[kInfo[i].name] = e;
  }
  j["parameters"] = ps;
  if (!fit_info.empty()) {
    auto f = nlohmann::ordered_json::parse(fit_info, nullptr, false);
    if (!f.is_discarded()) j["fit"] = f;
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace moelog::engine::v5p
