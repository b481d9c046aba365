#include "engine/gpu/bench_flags.h"

#include <algorithm>
#include <cstdlib>
#include <map>

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

std::string CanonicalDtype(const std::string& d) {
  if (d == "fp8" || d == "float8" || d == "e4m3" || d == "float8_e4m3fn" || d == "fp8_e4m3") return "fp8";
  if (d == "bf16" || d == "bfloat16") return "bf16";
  if (d == "fp32" || d == "float32" || d == "float") return "fp32";
  if (d == "fp4" || d == "nvfp4" || d == "float4" || d == "mxfp4") return "fp4";
  return d;
}

namespace {

// The flags' last values ("--flag value" and "--flag=value").
std::map<std::string, std::string> LastValues(const std::vector<std::string>& args) {
  std::map<std::string, std::string> v;
  for (size_t i = 0; i < args.size(); ++i) {
    const size_t eq = args[i].find('=');
    const std::string name = args[i].substr(0, eq);
    const GpuBenchFlag* f = Find(name);
    if (f == nullptr || !f->takes_value) continue;
    if (eq != std::string::npos) v[name] = args[i].substr(eq + 1);
    else if (i + 1 < args.size()) v[name] = args[++i];
  }
  return v;
}

Status IntOf(const std::map<std::string, std::string>& v, const char* flag, int64_t* out) {
  auto it = v.find(flag);
  if (it == v.end()) return Status::Ok();
  char* end = nullptr;
  const long long x = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || end == nullptr || *end != '\0' || x < 0)
    return Status::InvalidArgument(std::string(flag) + " '" + it->second + "' is no count");
  *out = x;
  return Status::Ok();
}

}  // namespace

Result<GpuBenchCase> ParseGpuBenchArgs(const std::vector<std::string>& args, int64_t scaleup_domain) {
  if (Status st = CheckGpuBenchArgs(args); !st.ok()) return st;
  const std::map<std::string, std::string> v = LastValues(args);
  GpuBenchCase b;
  auto str = [&](const char* flag, std::string* out) { if (auto it = v.find(flag); it != v.end()) *out = it->second; };
  str("--target", &b.target);
  str("--hardware", &b.hardware);
  str("--kernel", &b.c.kernel);
  str("--library", &b.c.library);
  str("--interconnect", &b.c.interconnect);
  str("--bench-pass", &b.pass);
  std::string dtype = "bf16", topk_list;
  str("--dtype", &dtype);
  str("--combine-dtype", &b.c.combine_dtype);
  str("--topk-list", &topk_list);
  int64_t tokens = 32768, per_rank = 0, ep = 0, nodes = 0, gpn = 0, seed = 0;
  const std::pair<const char*, int64_t*> ints[] = {
      {"--tokens", &tokens}, {"--tokens-per-rank", &per_rank}, {"--hidden", &b.c.hidden},
      {"--mlp-dim", &b.c.mlp_dim}, {"--experts", &b.c.experts}, {"--topk", &b.c.topk},
      {"--shared-expert-dim", &b.c.shared_mlp_dim}, {"--ep", &ep}, {"--nodes", &nodes},
      {"--gpus-per-node", &gpn}, {"--sms", &b.c.sms}, {"--seed", &seed}};
  for (const auto& [flag, out] : ints)
    if (Status st = IntOf(v, flag, out); !st.ok()) return st;
  if (!topk_list.empty()) b.c.topk = std::atoll(topk_list.c_str());  // the list's first K
  b.c.seed = static_cast<uint64_t>(seed);
  b.c.dtype = CanonicalDtype(dtype);
  b.c.combine_dtype = CanonicalDtype(b.c.combine_dtype);
  b.c.backward = b.pass == "forward_backward";
  b.c.ep = ep > 0 ? ep : (nodes > 0 && gpn > 0 ? nodes * gpn : 8);
  b.c.gpus_per_node = gpn > 0 ? gpn : (nodes > 0 ? b.c.ep / nodes : std::min<int64_t>(b.c.ep, scaleup_domain));
  b.c.nodes = nodes > 0 ? nodes : b.c.ep / std::max<int64_t>(1, b.c.gpus_per_node);
  b.c.tokens = per_rank > 0 ? per_rank : tokens / std::max<int64_t>(1, b.c.ep);
  b.batch_tokens = per_rank > 0 ? per_rank * b.c.ep : tokens;
  return b;
}

}  // namespace moelog::engine::gpu
