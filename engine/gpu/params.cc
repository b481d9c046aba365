#include "engine/gpu/params.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/v5p/hardware.h"

namespace moelog::engine::gpu {
namespace {

const ParamInfo kInfo[kNumParams] = {
    {"eta_mm_bf16", 0.75, 0.3, 1.0, true, "fraction", "NVIDIA: fraction of dense BF16 peak a large GEMM reaches"},
    {"eta_mm_fp8", 0.75, 0.3, 1.0, true, "fraction", "NVIDIA: fraction of dense FP8 peak a large GEMM reaches"},
    {"eta_mm_amd", 0.6, 0.2, 1.0, true, "fraction", "AMD: fraction of dense peak a large GEMM reaches"},
    {"k_epilogue", 256, 0, 4096, true, "elements of K", "per-tile prologue/epilogue cost as extra K"},
    {"eta_hbm", 0.85, 0.4, 1.0, true, "fraction", "fraction of HBM bandwidth streaming kernels reach"},
    {"sm_mem_frac", 0.5, 0.05, 1.0, true, "fraction of SMs", "SMs needed to saturate HBM"},
    {"eta_nvl", 0.8, 0.3, 1.0, true, "fraction", "scale-up bandwidth reached by normal intranode EP kernels"},
    {"eta_fwd", 0.7, 0.2, 1.0, true, "fraction", "scale-up bandwidth reached by the forwarding stage of internode EP kernels"},
    {"eta_rdma", 0.9, 0.3, 1.0, true, "fraction", "NIC bandwidth reached by normal internode EP kernels"},
    {"eta_rdma_v1", 0.8, 0.3, 1.0, true, "fraction", "the same, first DeepEP release (before multi-QP IBGDA)"},
    {"notify_s", 2e-5, 0, 5e-5, true, "s", "layout and notify work per normal dispatch or combine"},
    {"eta_ll_rdma", 0.9, 0.3, 1.0, true, "fraction", "NIC bandwidth reached by low-latency EP kernels"},
    {"eta_ll_nvl", 0.6, 0.1, 1.0, true, "fraction", "scale-up bandwidth reached by low-latency EP kernels"},
    {"ll_fixed_s", 1e-5, 0, 1e-4, true, "s", "fixed cost per low-latency kernel"},
    {"ll_log_s", 3e-6, 0, 3e-5, true, "s", "cost per doubling of the EP degree in a low-latency kernel"},
    {"sm_copy_bw", 6.0e10, 1e9, 2e11, false, "bytes/s per SM",
     "bytes one data-moving SM copies per second in a communication kernel (Little's law: ~40 KB of loads in flight "
     "per SM over ~0.7 us)"},
    {"sm_token_s", 1.0e-7, 0, 1e-6, false, "s per token per SM",
     "per-token work of a data-moving SM beyond the bytes (routing index, metadata, queue slot: ~200 cycles)"},
    {"fabric_roce", 0.8, 0.1, 1.0, false, "fraction of IB", "scale-out rate on RoCE relative to InfiniBand"},
    {"fabric_efa", 0.7, 0.1, 1.0, false, "fraction of IB", "scale-out rate on EFA relative to InfiniBand"},
    {"fabric_pcie_rdma", 0.5, 0.1, 1.0, false, "fraction of IB", "RDMA through a PCIe switch two GPUs share"},
    {"proxy_msg_s", 5e-7, 0, 5e-6, false, "s per message",
     "host work per RDMA write on EFA (no GPU-initiated path: a proxy thread posts each write the GPU queues, and "
     "the SRD provider handles each message in software): ~0.5 us, a PCIe round trip to see the GPU's queue entry "
     "plus ~1,000 host cycles to post and complete the write"},
};

}  // namespace

const ParamInfo& Info(int id) { return kInfo[id]; }

Params Params::Priors() {
  Params p;
  for (int i = 0; i < kNumParams; ++i) p[i] = kInfo[i].prior;
  return p;
}

Result<Params> LoadParams(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open parameter file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("params") || !j["params"].is_object())
    return Status::InvalidArgument(path + ": not a parameter file (no \"params\" object)");
  Params p;
  p.source = path;
  for (int i = 0; i < kNumParams; ++i) {
    const ParamInfo& info = kInfo[i];
    const auto& v = j["params"].contains(info.name) ? j["params"][info.name] : nlohmann::json();
    if (!v.is_object() || !v.contains("value") || !v["value"].is_number())
      return Status::InvalidArgument(path + ": parameter \"" + info.name + "\" missing or not {\"value\": number}");
    p[i] = v["value"].get<double>();
    if (!(p[i] >= info.min && p[i] <= info.max))
      return Status::InvalidArgument(path + ": parameter \"" + info.name + "\" outside its bounds");
  }
  return p;
}

Result<Params> LoadParamsByName(const std::string& name_or_path) {
  auto path = v5p::ResolveDataFile(name_or_path.empty() ? "gpu_params" : name_or_path, "");
  if (!path.ok()) return path.status();
  return LoadParams(*path);
}

std::string ParamsToJson(const Params& p, const std::string& fit_info) {
  nlohmann::ordered_json j;
  j["about"] = "Efficiencies of moelog's GPU model (engine/gpu), fitted by `moelog model fit --target gpu` on "
               "data/gpu_fit_measurements.csv; parameters marked fitted=false stay at their prior.";
  for (int i = 0; i < kNumParams; ++i) {
    const ParamInfo& info = kInfo[i];
    j["params"][info.name] = {{"value", p[i]},   {"prior", info.prior}, {"min", info.min},      {"max", info.max},
                              {"fitted", info.fitted}, {"unit", info.unit}, {"meaning", info.meaning}};
  }
  if (!fit_info.empty()) j["fit"] = nlohmann::ordered_json::parse(fit_info, nullptr, false);
  return j.dump(2) + "\n";
}

}  // namespace moelog::engine::gpu
