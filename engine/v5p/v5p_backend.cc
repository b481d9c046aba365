// The modeled TPU backend (`--target v5p`): predicts every figure the harness
// prints from the analytical model (engine/v5p/model.h), the chip description
// (--hardware) and the fitted parameters (--model-params).
#include <cstdio>
#include <map>
#include <string>

#include "engine/backend.h"
#include "engine/v5p/coverage.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/model.h"
#include "engine/v5p/params.h"

namespace moelog::engine {
namespace {

// The keys that choose the model's path, as a stored run holds them.
std::map<std::string, std::string> PathConfig(const BenchConfig& c, const RunPoint& p) {
  char frac[32];
  std::snprintf(frac, sizeof frac, "%g", p.null_frac);
  return {{"backend", c.backend},         {"impl", p.impl},
          {"parallel_mode", c.parallel_mode}, {"ep_dispatch", c.ep_dispatch},
          {"ep_comm_path", c.ep_comm_path}, {"quant_mode", c.quant_mode},
          {"capacity_policy", c.EffectiveCapacityPolicy()}, {"null_route_frac", frac},
          {"hardware", c.hardware},       {"mlp_path", c.mlp_path},
          {"mesh", c.mesh}};
}

class V5pBackend : public Backend {
 public:
  V5pBackend(v5p::Hardware hw, v5p::ModelParams params) : hw_(std::move(hw)), params_(std::move(params)) {}

  std::string Name() const override { return "v5p"; }

  std::string DevicesLine() const override {
    std::string s = "[";
    for (int64_t i = 0; i < hw_.chips; ++i)
      s += (i ? ", " : "") + std::string("ModeledTpu(id=") + std::to_string(i) + ", kind=" + hw_.name + ")";
    s += "] modeled: hardware=" + hw_.path + (hw_.validated ? "" : " (unvalidated)") + " params=" + params_.source;
    return s;
  }

  Result<RunResult> Run(const BenchConfig& config, const RunPoint& point, const Routing& routing) override {
    std::vector<int64_t> groups = GroupSizes(routing);
    auto c = v5p::MakeCase(config, point, groups, routing.real_assignments, hw_.chips);
    if (!c.ok()) return c.status();
    v5p::Prediction pred = v5p::Predict(hw_, params_, *c);
    RunResult r;
    r.point = point;
    r.source = "modeled";
    r.devices = pred.devices;
    // A shape that does not fit the chip's HBM has no time: the real run fails.
    const double t = pred.oom ? 0.0 : pred.time_s;
    r.time.mean_s = r.time.median_s = r.time.min_s = r.time.max_s = t;
    r.time.samples_s = {t};
    FillCommonFigures(config, routing, &r);
    r.mfu = t > 0 ? r.flops / (t * static_cast<double>(pred.devices) * pred.peak_flops) : 0.0;
    r.oom = pred.oom;
    r.memory_bytes = pred.memory_bytes;
    r.comm.bytes_sent_per_device = static_cast<int64_t>(pred.comm_bytes_per_device);
    r.comm.bytes_recv_per_device = static_cast<int64_t>(pred.comm_bytes_per_device);
    r.comm.comm_s = pred.comm_s;
    r.comm.compute_s = t > 0 ? t - pred.comm_s : 0.0;
    if (config.stage_timing || config.json) {
      for (int i = 0; i < pred.num_stages; ++i)
        r.stages.push_back({pred.stages[i].name, pred.stages[i].seconds, pred.stages[i].bound});
    }
    r.extra["hbm_limit_bytes"] = hw_.hbm_bytes;
    for (const auto& p : v5p::UncalibratedPaths(PathConfig(config, point)))
      r.unvalidated += (r.unvalidated.empty() ? "" : ", ") + p;
    if (pred.int8_backward_skipped) r.extra["int8_backward_skipped"] = 1;
    return r;
  }

 private:
  v5p::Hardware hw_;
  v5p::ModelParams params_;
};

}  // namespace

Result<std::unique_ptr<Backend>> MakeV5pBackend(const BenchConfig& config) {
  // A missing or bad file is a usage error (exit 2); the message names the file.
  auto hw = v5p::LoadHardwareByName(config.hardware.empty() ? "v5p" : config.hardware);
  if (!hw.ok()) return Status::InvalidArgument(hw.status().message());
  auto params = v5p::LoadParamsByName(config.model_params);
  if (!params.ok()) return Status::InvalidArgument(params.status().message());
  return std::unique_ptr<Backend>(new V5pBackend(std::move(hw).value(), std::move(params).value()));
}

ResultDependencies V5pResultDependencies(const BenchConfig& c) {
  // The files the backend reads, resolved as it resolves them.
  ResultDependencies d;
  d.version = std::string("v5p:") + MOELOG_VERSION;
  const std::string params = c.model_params.empty() ? "v5p_params" : c.model_params;
  const std::string hw = c.hardware.empty() ? "v5p" : c.hardware;
  auto params_path = v5p::ResolveDataFile(params, "");
  auto hw_path = v5p::ResolveDataFile(hw, "hardware");
  d.files.push_back({"params", params_path.ok() ? *params_path : "", c.model_params});
  d.files.push_back({"hw", hw_path.ok() ? *hw_path : "", c.hardware});
  return d;
}

}  // namespace moelog::engine
