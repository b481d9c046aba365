#include "engine/target.h"

#include <algorithm>

namespace moelog::engine {

const std::vector<Target>& Targets() {
  static const std::vector<Target> kTargets = {
      {.name = "cpu",
       .about = "the CPU engine of this machine, measured",
       .figures = "measured (cpu)",
       .stage_timing_forward_only_on_one_device = true,
       .foreign_keys = {"hardware", "model_params", "xla_scoped_vmem_kib", "int8_impl"}},
      {.name = "v5p",
       .about = "a model of the v5p-8 slice: one deterministic prediction, 4 chips",
       .modeled = true,
       .source = "modeled",
       .figures = "model (v5p)",
       .in_process = true,
       .fixed_devices = 4,  // the v5p-8 slice
       .sample_tokens = kV5pSampleTokens,
       .max_tokens = kMaxV5pTokens,
       .mlp_path_forward_only = true,
       .inert_flags = {"--threads", "--iters", "--warmup", "--check-numerics"},
       .prose_names = {"tpu"}},
  };
  return kTargets;
}

const Target* FindTarget(const std::string& name) {
  for (const Target& t : Targets())
    if (name == t.name) return &t;
  return nullptr;
}

const Target& TargetOrDefault(const std::string& name) {
  const Target* t = FindTarget(name);
  return t != nullptr ? *t : Targets().front();
}

const Target* TargetNamedBy(const std::string& word) {
  for (const Target& t : Targets())
    if (word == t.name || std::find(t.prose_names.begin(), t.prose_names.end(), word) != t.prose_names.end())
      return &t;
  return nullptr;
}

bool IsModeledTarget(const std::string& name) {
  const Target* t = FindTarget(name);
  return t != nullptr && t->modeled;
}

std::vector<std::string> TargetNames() {
  std::vector<std::string> names;
  for (const Target& t : Targets()) names.push_back(t.name);
  return names;
}

}  // namespace moelog::engine
