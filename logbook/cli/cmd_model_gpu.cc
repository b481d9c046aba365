// moelog model predict | fit --target gpu | validate --target gpu: the GPU
// model (engine/gpu) on one case, or fitted and validated on published
// measurements (data/gpu_fit_measurements.csv).
#include <CLI/CLI.hpp>

#include <ctime>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "engine/gpu/bench_flags.h"
#include "engine/gpu/fit.h"
#include "engine/gpu/hardware.h"
#include "engine/gpu/model.h"
#include "engine/gpu/params.h"
#include "engine/v5p/hardware.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/model_gpu.h"
#include "logbook/file_util.h"

namespace moelog::cli {
namespace {

namespace gpu = engine::gpu;

int Fail(const Status& st) {
  PrintError("model", st.message());
  return st.code() == Status::Code::kIOError ? kExitError : kExitUsage;
}

}  // namespace

std::string CanonicalGpuDtype(const std::string& d) { return engine::gpu::CanonicalDtype(d); }

namespace {

struct PredictFlags {
  gpu::Case c;
  std::string target, hardware, params, pass = "forward";
  bool json = false;
  int64_t nodes = 0, gpn = 0, ep = 0, repeat = 0;

  void Add(CLI::App& app) {
    app.add_option("--target", target, "GPU hardware: a name in data/hardware (h800, h100, h200, b200, gb200, mi300x)");
    app.add_option("--hardware", hardware, "a GPU hardware file (.json); its \"class\" picks the model");
    app.add_option("--params", params, "parameter file (default data/gpu_params.json)");
    app.add_flag("--json", json, "print JSON");
    app.add_option("--kernel", c.kernel, "ep_dispatch | ep_combine | ep_dispatch_ll | ep_combine_ll | grouped_gemm | "
                                         "dense_gemm | moe_layer | alltoall | allreduce")->capture_default_str();
    app.add_option("--tokens", c.tokens, "tokens per rank (as DeepEP counts)")->capture_default_str();
    app.add_option("--hidden", c.hidden, "hidden size")->capture_default_str();
    app.add_option("--mlp-dim", c.mlp_dim, "expert MLP width")->capture_default_str();
    app.add_option("--experts", c.experts, "routed experts")->capture_default_str();
    app.add_option("--topk", c.topk, "experts per token")->capture_default_str();
    app.add_option("--topk-groups", c.topk_groups, "node groups a token may pick (-1: the library's test default)");
    app.add_option("--ep", ep, "EP degree (default: nodes x gpus per node)");
    app.add_option("--nodes", nodes, "nodes (default: ep / gpus per node)");
    app.add_option("--gpus-per-node", gpn, "GPUs per node (default: min(ep, the scale-up domain))");
    app.add_option("--dtype", c.dtype, "fp8 | bf16 | fp32 | fp4 (dispatch and GEMMs)")->capture_default_str();
    app.add_option("--combine-dtype", c.combine_dtype, "combine dtype")->capture_default_str();
    app.add_option("--sms", c.sms, "SMs the communication kernel takes (0: the library's default)");
    app.add_option("--library", c.library, "deepep, deepep_2025_02, deepep_v2, hybrid_ep, uccl_ep, mori, nccl, rccl, "
                                           "allgather, deepgemm, cublaslt, ...")->capture_default_str();
    app.add_option("--interconnect", c.interconnect, "scale-out fabric: nvlink|ib|roce|efa|xgmi|pcie_rdma");
    app.add_option("--groups", c.groups, "GEMM groups");
    app.add_option("--m-per-group", c.m_per_group, "GEMM rows per group (M for dense_gemm)");
    app.add_option("--n", c.n, "GEMM N");
    app.add_option("--k", c.k, "GEMM K");
    app.add_option("--layout", c.layout, "grouped GEMM layout: contiguous | masked")->capture_default_str();
    app.add_option("--pass", pass, "moe_layer: forward | forward_backward")->capture_default_str();
    app.add_option("--shared-mlp-dim", c.shared_mlp_dim, "moe_layer: shared expert width (0: none)");
    app.add_option("--seed", c.seed, "router seed");
    app.add_option("--time-predictions", repeat, "also time N predictions (routing given) and print us per prediction");
  }
};

Status Normalize(const gpu::Hardware& hw, PredictFlags* f) {
  gpu::Case& c = f->c;
  c.dtype = CanonicalGpuDtype(c.dtype);
  c.combine_dtype = CanonicalGpuDtype(c.combine_dtype);
  if (f->pass != "forward" && f->pass != "forward_backward")
    return Status::InvalidArgument("--pass must be forward or forward_backward");
  c.backward = f->pass == "forward_backward";
  const bool collective = c.kernel == "alltoall" || c.kernel == "allreduce";
  if (collective && c.library == "deepep") c.library = "nccl";  // the default library of a collective
  int64_t ep = f->ep, nodes = f->nodes, gpn = f->gpn;
  if (ep <= 0 && nodes > 0 && gpn > 0) ep = nodes * gpn;
  if (ep <= 0) ep = 8;
  if (gpn <= 0) gpn = nodes > 0 ? ep / nodes : std::min<int64_t>(ep, hw.scaleup_domain);
  if (nodes <= 0) nodes = gpn > 0 ? ep / gpn : 0;
  c.ep = ep, c.nodes = nodes, c.gpus_per_node = gpn;
  return Status::Ok();
}

void PrintText(const gpu::Case& c, const gpu::Hardware& hw, const gpu::Prediction& pr) {
  std::printf("%s on %s (%s): %.3f us, %.4g bytes (%.1f GB/s as %s counts), %.4g FLOPs (%.1f TFLOP/s)\n",
              c.kernel.c_str(), hw.name.c_str(), c.library.c_str(), pr.time_s * 1e6, pr.bytes,
              pr.time_s > 0 ? pr.bytes / pr.time_s / 1e9 : 0.0, c.library.c_str(), pr.flops,
              pr.time_s > 0 ? pr.flops / pr.time_s / 1e12 : 0.0);
  for (const auto& s : pr.stages)
    std::printf("  %-16s %10.3f us  bytes=%.4g flops=%.4g  bound=%s\n", s.name.c_str(), s.time_s * 1e6, s.bytes,
                s.flops, s.bound.c_str());
}

}  // namespace

int CmdModelPredict(const Args& args) {
  CLI::App app{"moelog model predict: the GPU model's time, bytes and FLOPs of one kernel or MoE layer.\n"
               "  moelog model predict --target h100 --json --kernel ep_dispatch --tokens 4096 --hidden 7168 \\\n"
               "      --experts 256 --topk 8 --ep 16 --nodes 2 --gpus-per-node 8 --dtype fp8",
               "moelog model predict"};
  PredictFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;
  const std::string name = !f.hardware.empty() ? f.hardware : !f.target.empty() ? f.target : "h100";
  auto path = engine::v5p::ResolveDataFile(name, "hardware");
  if (!path.ok()) return Fail(Status::InvalidArgument(path.status().message()));
  auto cls = gpu::HardwareClass(*path);
  if (!cls.ok()) return Fail(Status::InvalidArgument(cls.status().message()));
  if (*cls != "gpu") {
    std::cout << "{\"unsupported\": \"" << name << " is a TPU hardware file: `moelog bench --target v5p` models it\"}\n";
    return kExitOk;
  }
  auto hw = gpu::LoadHardware(*path);
  if (!hw.ok()) return Fail(Status::InvalidArgument(hw.status().message()));
  auto params = gpu::LoadParamsByName(f.params);
  if (!params.ok()) return Fail(Status::InvalidArgument(params.status().message()));
  if (Status st = Normalize(*hw, &f); !st.ok()) return Fail(st);
  if (Status st = gpu::CheckCase(*hw, f.c); !st.ok() && st.code() == Status::Code::kInvalidArgument) return Fail(st);
  const gpu::RouteCounts counts = gpu::CountRoutes(f.c);
  auto pr = gpu::Predict(*hw, *params, f.c, counts);
  if (!pr.ok()) {
    if (pr.status().code() != Status::Code::kNotSupported) return Fail(pr.status());
    std::cout << "{\"unsupported\": " << gpu::JsonString(pr.status().message()) << "}\n";
    return kExitOk;
  }
  if (f.json) std::cout << gpu::PredictionJson(f.c, *hw, *pr);
  else PrintText(f.c, *hw, *pr);
  if (f.repeat > 0) {
    const std::clock_t t0 = std::clock();  // CPU time: the figure a loaded machine does not inflate
    double sink = 0;
    for (int64_t i = 0; i < f.repeat; ++i) sink += gpu::Predict(*hw, *params, f.c, counts)->time_s;
    const double us = 1e6 * static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
    std::fprintf(stderr, "prediction time: %.3f us CPU per prediction over %lld (routing given; checksum %.3g)\n",
                 us / static_cast<double>(f.repeat), static_cast<long long>(f.repeat), sink);
  }
  return kExitOk;
}

namespace {

// `fit`, or `validate` with its leave-one-out refits: both fit, so both take
// the rows through gpu::FitSet, which loads only a file declaring "# role: fit".
int FitOrCrossValidate(const std::string& verb, const std::string& csv, const std::string& out,
                       const std::string& params_name) {
  auto set = gpu::FitSet::Load(csv);
  if (!set.ok()) return Fail(Status::InvalidArgument(set.status().message()));
  auto hws = set->Prepare();
  if (!hws.ok()) return Fail(Status::InvalidArgument(hws.status().message()));
  if (verb == "fit") {
    const gpu::FitOutcome fit = gpu::Fit(*hws, *set, gpu::Params::Priors());
    std::string info = "{\"csv\": " + gpu::JsonString(std::filesystem::path(csv).filename().string()) +
                       ", \"rows\": " + std::to_string(set->rows().size()) + ", \"objective_sum_abs_log\": " +
                       std::to_string(fit.objective) + "}";
    if (Status st = logbook::AtomicWriteFile(out, gpu::ParamsToJson(fit.params, info)); !st.ok()) return Fail(st);
    std::cout << "fitted on " << set->rows().size() << " rows of " << csv << "; wrote " << out << "\n";
    std::cout << gpu::ValidationReport(*hws, set->rows(), fit.params);
    return kExitOk;
  }
  auto params = gpu::LoadParamsByName(params_name);
  if (!params.ok()) return Fail(Status::InvalidArgument(params.status().message()));
  std::cout << gpu::ValidationReport(*hws, set->rows(), *params) << gpu::LeaveOneVersionOut(*hws, *set, *params);
  return kExitOk;
}

}  // namespace

int CmdModelGpu(const std::string& verb, const Args& args) {
  CLI::App app{"moelog model " + verb + " --target gpu: the GPU model on published measurements.\n"
               "  moelog model fit --target gpu [--csv data/gpu_fit_measurements.csv] [--out data/gpu_params.json]\n"
               "  moelog model validate --target gpu [--csv ...] [--params ...] [--no-cv]",
               "moelog model " + verb};
  std::string target, csv, out = "data/gpu_params.json", params_name;
  bool no_cv = false;
  app.add_option("--target", target, "gpu")->required();
  app.add_option("--csv", csv, "measurements CSV (default data/gpu_fit_measurements.csv)");
  if (verb == "fit") app.add_option("--out", out, "parameter file to write")->capture_default_str();
  if (verb == "validate") {
    app.add_option("--params", params_name, "parameter file (default data/gpu_params.json)");
    app.add_flag("--no-cv", no_cv, "skip the leave-one-source-version-out refits");
  }
  if (auto code = ParseCommandLine(app, args)) return *code;
  if (csv.empty()) {
    auto p = engine::v5p::ResolveDataFile("gpu_fit_measurements", "", ".csv");
    csv = p.ok() ? *p : "data/gpu_fit_measurements.csv";
  }
  auto role = gpu::CsvRole(csv);
  if (!role.ok()) return Fail(Status::InvalidArgument(role.status().message()));
  if (verb == "fit" || (*role == gpu::Role::kFit && !no_cv)) return FitOrCrossValidate(verb, csv, out, params_name);
  auto rows = gpu::LoadRows(csv);
  if (!rows.ok()) return Fail(Status::InvalidArgument(rows.status().message()));
  auto hws = gpu::PrepareRows(&*rows);
  if (!hws.ok()) return Fail(Status::InvalidArgument(hws.status().message()));
  auto params = gpu::LoadParamsByName(params_name);
  if (!params.ok()) return Fail(Status::InvalidArgument(params.status().message()));
  std::cout << gpu::ValidationReport(*hws, *rows, *params);
  if (*role == gpu::Role::kHeldOut && !no_cv)
    std::cout << "leave-one-source-version-out: not run (a held-out set is never fitted on)\n";
  return kExitOk;
}

}  // namespace moelog::cli
