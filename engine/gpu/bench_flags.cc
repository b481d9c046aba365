#include "engine/gpu/bench_flags.h"

namespace moelog::engine::gpu {

const std::vector<GpuBenchFlag>& GpuBenchFlags() {
  static const std::vector<GpuBenchFlag> kFlags = {
      {"--target", true},        {"--hardware", true},       {"--model-params", true},  {"--kernel", true},
      {"--tokens", true},        {"--tokens-per-rank", true}, {"--hidden", true},       {"--mlp-dim", true},
      {"--experts", true},       {"--topk", true},           {"--topk-list", true},     {"--shared-expert-dim", true},
      {"--dtype", true},         {"--combine-dtype", true},  {"--bench-pass", true},    {"--distribution", true},
      {"--seed", true},          {"--ep", true},             {"--nodes", true},         {"--gpus-per-node", true},
      {"--library", true},       {"--interconnect", true},   {"--sms", true},           {"--json", false},
  };
  return kFlags;
}

namespace {

const GpuBenchFlag* Find(const std::string& name) {
  for (const GpuBenchFlag& f : GpuBenchFlags())
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace

Status CheckGpuBenchArgs(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    if (w.rfind("--", 0) != 0) return Status::InvalidArgument("unexpected argument '" + w + "'");
    const size_t eq = w.find('=');
    const std::string name = w.substr(0, eq);
    const GpuBenchFlag* f = Find(name);
    if (f == nullptr) return Status::InvalidArgument("unknown flag " + name + " of the GPU bench");
    if (!f->takes_value) {
      if (eq != std::string::npos) return Status::InvalidArgument(name + " takes no value");
      continue;
    }
    if (eq != std::string::npos) continue;
    if (i + 1 >= args.size()) return Status::InvalidArgument(name + " needs a value");
    ++i;
  }
  return Status::Ok();
}

}  // namespace moelog::engine::gpu
