// The benchmark targets and what each can do: whether it measures or models,
// how many devices its parallel runs use, how many tokens it routes, which
// flags are not its own. Code outside the backends asks these instead of
// comparing target names. The backends themselves (what runs a point) are
// cpu_backend.cc and v5p/v5p_backend.cc; bench.cc picks one by name.
#ifndef MOELOG_ENGINE_TARGET_H_
#define MOELOG_ENGINE_TARGET_H_

#include <cstdint>
#include <string>
#include <vector>

namespace moelog::engine {

// The v5p model routes at most this many tokens (a sample of larger batches).
inline constexpr int64_t kV5pSampleTokens = int64_t{1} << 18;
inline constexpr int64_t kMaxV5pTokens = int64_t{1} << 40;

struct Target {
  const char* name;                  // --target value: "cpu"
  const char* about = "";            // what it is, in a few words
  bool modeled = false;              // predicts its figures (a model), rather than measuring them
  const char* source = "measured";   // what a stored run of it is: "measured" | "modeled"
  const char* figures = "";          // its figures as a legend or a table caption names them
  bool in_process = false;           // runs inside moelog's process (answers at once, cannot hang)
  int64_t fixed_devices = 0;         // 0: --devices and --mesh decide; else what every ep/dp run uses
  int64_t sample_tokens = 0;         // 0: routes every token; else a sample of at most this many
  int64_t max_tokens = 0;            // 0: the shared --tokens limit (BenchLimits); else this one
  bool mlp_path_forward_only = false;            // the mlp_profile paths: forward pass only
  bool stage_timing_forward_only_on_one_device = false;  // --stage-timing of forward_backward needs ep/dp
  std::vector<std::string> foreign_keys = {};    // flags of other targets: not part of its runs (cache key)
  std::vector<std::string> inert_flags = {};     // flags it accepts that change none of its figures
  std::vector<std::string> prose_names = {};     // other words prose names it by ("tpu")
};

// Every target, the default (cpu) first.
const std::vector<Target>& Targets();

// The target named `name`; nullptr when there is none.
const Target* FindTarget(const std::string& name);

// The target named `name`, or the default one (cpu) for an unknown name.
const Target& TargetOrDefault(const std::string& name);

// The target a word of prose names: its name or one of its prose_names;
// nullptr when the word names none.
const Target* TargetNamedBy(const std::string& word);

// True when runs of target `name` are predictions (false for unknown names).
bool IsModeledTarget(const std::string& name);

// "cpu, v5p" (error messages) and {"cpu", "v5p"} (option choices).
std::vector<std::string> TargetNames();

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_TARGET_H_
