// The GPU model's efficiencies: a few physical fractions and overheads per
// hardware class, fitted on H800 measurements (DeepEP, DeepGEMM) and published
// matmul ceilings, stored in data/gpu_params.json. Peaks and bandwidths are
// never among them (they are the hardware file's).
#ifndef MOELOG_ENGINE_GPU_PARAMS_H_
#define MOELOG_ENGINE_GPU_PARAMS_H_

#include <array>
#include <string>

#include "engine/status.h"

namespace moelog::engine::gpu {

enum ParamId : int {
  kEtaMmBf16 = 0,  // NVIDIA: fraction of dense BF16 peak a large GEMM tile loop reaches
  kEtaMmFp8,       // NVIDIA: the same for FP8
  kEtaMmAmd,       // AMD: the same (any dtype)
  kKEpilogue,      // K-equivalent elements of per-tile prologue/epilogue work
  kEtaHbm,         // fraction of HBM bandwidth streaming kernels reach
  kSmMemFrac,      // fraction of the SMs needed to saturate HBM
  kEtaNvl,         // fraction of scale-up bandwidth DeepEP normal intranode kernels reach
  kEtaFwd,         // the same for the NVLink forwarding stage of internode kernels
  kEtaRdma,        // fraction of NIC bandwidth DeepEP normal internode kernels reach (multi-QP IBGDA)
  kEtaRdmaV1,      // the same for the first release's kernels (one QP per peer)
  kNotifyS,        // seconds of layout and notify work per normal dispatch/combine
  kEtaLlRdma,      // fraction of NIC bandwidth the low-latency kernels reach
  kEtaLlNvl,       // fraction of scale-up bandwidth the low-latency kernels reach over NVLink
  kLlFixedS,       // seconds of fixed cost per low-latency kernel
  kLlLogS,         // seconds per doubling of the EP degree in a low-latency kernel (signalling)
  kSmCopyBw,       // bytes/s one data-moving SM copies in a communication kernel (prior; bounds kernels given few SMs)
  kSmTokenS,       // seconds one data-moving SM spends per token beyond its bytes (index, metadata, queue slots; prior)
  kFabricRoce,     // scale-out rate on RoCE relative to InfiniBand (prior)
  kFabricEfa,      // the same on EFA (prior)
  kFabricPcie,     // the same for RDMA through a PCIe switch shared by two GPUs (prior)
  kProxyMsgS,      // seconds a host proxy thread spends per RDMA write it posts for a GPU (prior)
  kNumParams
};

struct ParamInfo {
  const char* name;
  double prior, min, max;
  bool fitted;  // false: kept at the prior (the fit set has no data on it)
  const char* unit;
  const char* meaning;
};

const ParamInfo& Info(int id);

struct Params {
  std::array<double, kNumParams> value{};
  std::string source = "priors";
  static Params Priors();
  double operator[](int id) const { return value[static_cast<size_t>(id)]; }
  double& operator[](int id) { return value[static_cast<size_t>(id)]; }
};

// Loads a parameter file; every parameter present, inside its bounds.
Result<Params> LoadParams(const std::string& path);
// data/gpu_params.json (or a name/path) through the data-file search.
Result<Params> LoadParamsByName(const std::string& name_or_path);
// JSON text of the parameters with meanings, priors and bounds; `fit_info`
// (a JSON object text, may be empty) goes under "fit".
std::string ParamsToJson(const Params& p, const std::string& fit_info);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_PARAMS_H_
