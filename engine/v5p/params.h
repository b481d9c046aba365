// ModelParams: the handful of fitted efficiencies and overheads of the v5p
// model, each with a physical meaning, a prior and bounds. Stored in
// data/v5p_params.json; hardware constants are never among them.
#ifndef MOELOG_ENGINE_V5P_PARAMS_H_
#define MOELOG_ENGINE_V5P_PARAMS_H_

#include <array>
#include <string>

#include "engine/status.h"

namespace moelog::engine::v5p {

enum ParamId : int {
  kEtaMxuGmm = 0,   // fraction of peak MXU rate a grouped-matmul tile step reaches (gmm and ragged_dot alike)
  kEtaDense,        // fraction of peak for dense XLA matmuls (shared expert)
  kEtaHbm,          // fraction of nominal HBM bandwidth for streaming elementwise passes
  kEtaGather,       // fraction of HBM bandwidth a row gather (x[idx], D-wide rows) reaches
  kEtaScatter,      // fraction of HBM bandwidth a row scatter-add reaches (read-modify-write)
  kSortS,           // seconds per element per log2(n) stage of an XLA sort on one chip
  kEtaIci,          // fraction of ICI link bandwidth reached by XLA collectives on the slice
  kEtaPlacement,    // fraction of the origin chip's links used when EP inputs are replicated per call
  kGmmStepS,        // seconds of pipeline overhead per gmm/tgmm grid step
  kFixedS,          // seconds per timed call: host dispatch + kernel launches
  kEtaScatterUnique,  // fraction of HBM bandwidth a scatter-add with never-repeating indices reaches
  kEtaMlpProfile,   // fraction of peak the mlp_profile harness's expert matmuls reach (its reference/staged/fused kernels)
  kStagedOverlap,   // fraction of the shorter of input placement and compute the staged path's parallel stages hide
  kXlaStepBytes,    // bytes of HBM transfer time one VMEM tile step of an XLA kernel costs in fixed overhead, per byte of scoped VMEM
  kNumParams
};

struct ParamInfo {
  const char* name;
  double prior;
  double min, max;
  const char* unit;
  const char* meaning;
};

// Static description of parameter `id` (name, prior, bounds, meaning).
const ParamInfo& Info(int id);

struct ModelParams {
  std::array<double, kNumParams> value{};
  std::string source;  // the file loaded, or "priors"

  static ModelParams Priors();
  double operator[](int id) const { return value[static_cast<size_t>(id)]; }
  double& operator[](int id) { return value[static_cast<size_t>(id)]; }
};

// Loads a parameter file. Every parameter must be present and inside its
// bounds; errors name the file and the parameter.
Result<ModelParams> LoadParams(const std::string& path);

// The default file (data/v5p_params.json via ResolveDataFile) or a path/name.
Result<ModelParams> LoadParamsByName(const std::string& name_or_path);

// JSON text of the parameters, each with its meaning, prior, bounds and unit.
// `fit_info` (a JSON object text, may be empty) is stored under "fit".
std::string ParamsToJson(const ModelParams& p, const std::string& hardware_name, const std::string& fit_info);

}  // namespace moelog::engine::v5p

#endif  // MOELOG_ENGINE_V5P_PARAMS_H_
