// moelog bench --target <GPU hardware>: the harness's command line on the GPU
// model. --tokens is the whole batch (as in the harness), split over --ep
// ranks; --kernel (default moe_layer) picks what is modeled.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "engine/gpu/hardware.h"
#include "engine/gpu/model.h"
#include "engine/gpu/params.h"
#include "engine/v5p/hardware.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/model_gpu.h"

namespace moelog::cli {
namespace {

namespace gpu = engine::gpu;

struct BenchGpuFlags {
  gpu::Case c;
  std::string target, hardware, params, pass = "forward", topk_list, dtype = "bfloat16", distribution = "random";
  int64_t tokens = 32768, tokens_per_rank = 0, ep = 0, nodes = 0, gpn = 0;
  bool json = false;
};

std::vector<int64_t> TopkValues(const BenchGpuFlags& f) {
  if (f.topk_list.empty()) return {f.c.topk};
  std::vector<int64_t> out;
  std::stringstream ss(f.topk_list);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(std::atoll(item.c_str()));
  return out;
}

void AddFlags(CLI::App& app, BenchGpuFlags& f) {
  app.allow_extras();
  // An adapter's defaults come before the command's own flags: the last one wins, as in argparse.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--target", f.target, "a GPU hardware file's name (h100, ...)")->required();
  app.add_option("--hardware", f.hardware, "a GPU hardware file (.json) instead of the target's");
  app.add_option("--model-params", f.params, "parameter file (default data/gpu_params.json)");
  app.add_option("--kernel", f.c.kernel, "moe_layer (default) or one kernel of `moelog model predict`");
  app.add_option("--tokens", f.tokens, "T, tokens in the whole batch (split over --ep ranks)")->capture_default_str();
  app.add_option("--tokens-per-rank", f.tokens_per_rank,
                 "tokens on each rank, as DeepEP's test scripts count them (instead of --tokens)");
  app.add_option("--hidden", f.c.hidden, "H")->capture_default_str();
  app.add_option("--mlp-dim", f.c.mlp_dim, "M, expert width")->capture_default_str();
  app.add_option("--experts", f.c.experts, "E")->capture_default_str();
  app.add_option("--topk", f.c.topk, "K")->capture_default_str();
  app.add_option("--topk-list", f.topk_list, "comma list of K values");
  app.add_option("--shared-expert-dim", f.c.shared_mlp_dim, "S, shared expert width");
  app.add_option("--dtype", f.dtype, "fp8|bf16|fp32|fp4 or the long names")->capture_default_str();
  app.add_option("--combine-dtype", f.c.combine_dtype, "combine dtype")->capture_default_str();
  app.add_option("--bench-pass", f.pass, "forward | forward_backward")->capture_default_str();
  app.add_option("--distribution", f.distribution, "random (the only routing the GPU model takes)");
  app.add_option("--seed", f.c.seed, "router seed");
  app.add_option("--ep", f.ep, "EP degree (default: nodes x GPUs per node, else 8)");
  app.add_option("--nodes", f.nodes, "nodes");
  app.add_option("--gpus-per-node", f.gpn, "GPUs per node");
  app.add_option("--library", f.c.library, "deepep, nccl, allgather, hybrid_ep, ...")->capture_default_str();
  app.add_option("--interconnect", f.c.interconnect, "scale-out fabric");
  app.add_option("--sms", f.c.sms, "SMs the communication kernels take");
  app.add_flag("--json", f.json, "one JSON object per point");
}

void PrintPoint(const gpu::Case& c, const gpu::Hardware& hw, const gpu::Prediction& pr, int64_t tokens,
                const std::string& pass) {
  const double t = pr.time_s;
  const double tflops = t > 0 ? pr.flops * static_cast<double>(c.ep) / t / 1e12 : 0.0;
  std::printf("[random] mode=full pass=%s topk=%lld kernel=%s library=%s time_s=%.6f tflops=%.3f tokens_per_s=%.2f\n",
              pass.c_str(), static_cast<long long>(c.topk), c.kernel.c_str(), c.library.c_str(), t, tflops,
              t > 0 ? static_cast<double>(tokens) / t : 0.0);
  std::printf("[random] timing source=modeled devices=%lld tflops_per_device=%.3f time_median_s=%.6f "
              "bandwidth_gbs=%.1f\n", static_cast<long long>(c.ep), t > 0 ? pr.flops / t / 1e12 : 0.0, t,
              t > 0 ? pr.bytes / t / 1e9 : 0.0);
  for (const auto& s : pr.stages)
    std::printf("[random] stage name=%s time_s=%.6f bound=%s\n", s.name.c_str(), s.time_s, s.bound.c_str());
  std::printf("RESULT distribution=random mode=full pass=%s kernel=%s topk=%lld hardware=%s tflops=%.6f "
              "tokens_per_s=%.6f time_s=%.9f\n", pass.c_str(), c.kernel.c_str(), static_cast<long long>(c.topk),
              hw.name.c_str(), tflops, t > 0 ? static_cast<double>(tokens) / t : 0.0, t);
}

}  // namespace

bool IsGpuBenchTarget(const Args& args) {
  std::string target;
  for (size_t i = 0; i < args.size(); ++i) {  // the last --target wins, as in the harness's argparse
    if (args[i] == "--target" && i + 1 < args.size()) target = args[i + 1];
    if (args[i].rfind("--target=", 0) == 0) target = args[i].substr(9);
  }
  if (target.empty()) return false;
  auto path = engine::v5p::ResolveDataFile(target, "hardware");
  if (!path.ok()) return false;
  auto cls = gpu::HardwareClass(*path);
  return cls.ok() && *cls == "gpu";
}

int CmdBenchGpu(const Args& args) {
  CLI::App app{"moelog bench --target <gpu>: the harness's flags on the GPU model", "moelog bench"};
  BenchGpuFlags f;
  AddFlags(app, f);
  if (auto code = ParseCommandLine(app, args)) return *code;
  for (const std::string& extra : app.remaining())
    if (extra.rfind("--", 0) == 0)
      std::cerr << "moelog bench: warning: " << extra << " has no effect on --target " << f.target
                << " (the GPU model)\n";
  auto hw = gpu::LoadHardwareByName(f.hardware.empty() ? f.target : f.hardware);
  auto params = gpu::LoadParamsByName(f.params);
  if (!hw.ok() || !params.ok()) {
    PrintError("bench", !hw.ok() ? hw.status().message() : params.status().message());
    return kExitUsage;
  }
  if (f.distribution != "random") {
    PrintError("bench", "--distribution " + f.distribution + ": the GPU model routes with random logits only");
    return kExitUsage;
  }
  gpu::Case c = f.c;
  c.dtype = CanonicalGpuDtype(f.dtype);
  c.combine_dtype = CanonicalGpuDtype(c.combine_dtype);
  c.backward = f.pass == "forward_backward";
  c.ep = f.ep > 0 ? f.ep : (f.nodes > 0 && f.gpn > 0 ? f.nodes * f.gpn : 8);
  c.gpus_per_node = f.gpn > 0 ? f.gpn : (f.nodes > 0 ? c.ep / f.nodes : std::min<int64_t>(c.ep, hw->scaleup_domain));
  c.nodes = f.nodes > 0 ? f.nodes : c.ep / std::max<int64_t>(1, c.gpus_per_node);
  c.tokens = f.tokens_per_rank > 0 ? f.tokens_per_rank : f.tokens / std::max<int64_t>(1, c.ep);
  if (!f.json)
    std::printf("devices=[ModeledGpu(kind=%s) x %lld] modeled: hardware=%s params=%s model=%s\n",
                hw->name.c_str(), static_cast<long long>(c.ep), hw->path.c_str(), params->source.c_str(),
                gpu::kModelVersion);
  for (int64_t k : TopkValues(f)) {
    c.topk = k;
    if (Status st = gpu::CheckCase(*hw, c); !st.ok() && st.code() == Status::Code::kInvalidArgument) {
      PrintError("bench", st.message());
      return kExitUsage;
    }
    auto pr = gpu::Predict(*hw, *params, c, gpu::CountRoutes(c));
    if (!pr.ok()) {
      if (f.json) std::cout << "{\"unsupported\": " << gpu::JsonString(pr.status().message()) << "}\n";
      else std::printf("[random] topk=%lld unsupported: %s\n", static_cast<long long>(k), pr.status().message().c_str());
      continue;
    }
    if (f.json) std::cout << gpu::PredictionJson(c, *hw, *pr);
    else PrintPoint(c, *hw, *pr, f.tokens_per_rank > 0 ? c.tokens * c.ep : f.tokens, f.pass);
  }
  return kExitOk;
}

}  // namespace moelog::cli
