#include "engine/bench_config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "engine/bench_flags.h"
#include "engine/parallel/mpi_comm.h"

namespace moelog::engine {
namespace {

// Splits "a,b,c" into trimmed non-empty parts.
std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  std::stringstream ss(s);
  while (std::getline(ss, cur, ',')) {
    auto b = cur.find_first_not_of(" \t");
    auto e = cur.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
  }
  return out;
}

bool ParseInt(const std::string& s, int64_t* v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool ParseDouble(const std::string& s, double* v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::vector<int64_t> BenchConfig::TopkValues() const {
  if (topk_list.empty()) return {topk};
  std::vector<int64_t> out;
  for (const auto& s : SplitList(topk_list)) {
    int64_t v = 0;
    if (ParseInt(s, &v)) out.push_back(v);
  }
  return out;
}

std::vector<double> BenchConfig::NullFracValues() const {
  if (!null_route_frac_list.empty()) {
    std::vector<double> out;
    for (const auto& s : SplitList(null_route_frac_list)) {
      double v = 0;
      if (ParseDouble(s, &v)) out.push_back(v);
    }
    return out;
  }
  if (null_route_sweep) {
    std::vector<double> out;
    for (int i = 1; i <= 9; ++i) out.push_back(i / 10.0);
    return out;
  }
  return {null_route_frac};
}

std::vector<std::string> BenchConfig::DistributionValues() const {
  if (distribution == "both") return {"random", "runs"};
  return {distribution};
}

std::vector<std::string> BenchConfig::ImplValues() const {
  if (impl == "both") return {"baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter", "fast"};
  return {impl};
}

std::vector<std::string> BenchConfig::QueueModeValues() const {
  // prequeue only exists for the forward pass; any other pass forces full.
  if (bench_pass != "forward") return {"full"};
  if (queue_mode == "both") return {"full", "prequeue"};
  return {queue_mode};
}

Status BenchConfig::Validate() const {
  auto bad = [](const std::string& flag, const std::string& msg) {
    return Status::InvalidArgument(flag + ": " + msg);
  };
  struct { const char* flag; int64_t v; } positives[] = {
      {"--tokens", tokens}, {"--hidden", hidden}, {"--mlp-dim", mlp_dim},
      {"--experts", experts}, {"--iters", iters}, {"--devices", devices}};
  for (const auto& p : positives) {
    if (p.v <= 0) return bad(p.flag, "must be positive, got " + std::to_string(p.v));
  }
  // Documented limits (BenchLimits), checked before anything is allocated.
  for (const auto& l : BenchLimits()) {
    if (l.field == &BenchConfig::tokens && target == "v5p") continue;  // a bounded sample (kV5pSampleTokens)
    const int64_t v = this->*l.field;
    if (v > l.max) return bad(l.flag, std::to_string(v) + " is above moelog's limit of " + std::to_string(l.max) +
                                          " (" + l.why + ")");
  }
  if (target == "v5p" && tokens > kMaxV5pTokens)
    return bad("--tokens", std::to_string(tokens) + " is above moelog's limit of " + std::to_string(kMaxV5pTokens) +
                               " for the v5p model");
  {
    int64_t kmax = topk;
    for (int64_t k : TopkValues()) kmax = std::max(kmax, k);
    if (target != "v5p" && kmax > 0 && tokens > kMaxAssignments / kmax)
      return bad("--tokens", "tokens x topk = " + std::to_string(tokens) + " x " + std::to_string(kmax) +
                                 " is above moelog's limit of " + std::to_string(kMaxAssignments) +
                                 " routed assignments (routing data grows with it)");
  }
  if (target == "v5p" && devices != 4)
    return bad("--devices", std::to_string(devices) +
                                ": --target v5p models the 4 chips of a v5p-8 slice; give --mesh data=A,expert=B for "
                                "another split of them, or --target cpu for another device count");
  if (target == "cpu" && stage_timing && bench_pass != "forward" && parallel_mode == "none")
    return bad("--stage-timing", "on one cpu device only the forward pass is timed by stage; use --bench-pass "
                                 "forward, or --parallel-mode ep/dp for the stages of forward_backward");
  if (shared_expert_dim < 0) return bad("--shared-expert-dim", "must be >= 0");
  if (warmup < 0) return bad("--warmup", "must be >= 0");
  if (threads < 0) return bad("--threads", "must be >= 0");
  if (null_experts < 0) return bad("--null-experts", "must be >= 0");
  if (!topk_list.empty()) {
    auto parts = SplitList(topk_list);
    if (parts.empty()) return bad("--topk-list", "no values in '" + topk_list + "'");
    if (parts.size() > kMaxListValues)
      return bad("--topk-list", std::to_string(parts.size()) + " values: moelog's limit is " +
                                    std::to_string(kMaxListValues) + " (each is a run)");
    for (const auto& s : parts) {
      int64_t v = 0;
      if (!ParseInt(s, &v)) return bad("--topk-list", "'" + s + "' is not an integer");
      if (v < 1 || v > experts)
        return bad("--topk-list", "topk " + s + " must satisfy 1 <= topk <= experts (" + std::to_string(experts) + ")");
    }
  } else if (topk < 1 || topk > experts) {
    return bad("--topk", "topk " + std::to_string(topk) + " must satisfy 1 <= topk <= experts (" +
                             std::to_string(experts) + ")");
  }
  if (!null_route_frac_list.empty()) {
    auto parts = SplitList(null_route_frac_list);
    if (parts.empty()) return bad("--null-route-frac-list", "no values in '" + null_route_frac_list + "'");
    if (parts.size() > kMaxListValues)
      return bad("--null-route-frac-list", std::to_string(parts.size()) + " values: moelog's limit is " +
                                               std::to_string(kMaxListValues) + " (each is a run)");
    for (const auto& s : parts) {
      double v = 0;
      if (!ParseDouble(s, &v)) return bad("--null-route-frac-list", "'" + s + "' is not a number");
      if (!(v >= 0.0 && v < 1.0)) return bad("--null-route-frac-list", "fraction " + s + " must lie in [0,1)");
    }
  }
  if (!(null_route_frac >= 0.0 && null_route_frac < 1.0))
    return bad("--null-route-frac", "must lie in [0,1), got " + std::to_string(null_route_frac));
  if (!(capacity_factor >= 0.0) || !std::isfinite(capacity_factor))
    return bad("--capacity-factor", "must be >= 0");
  if (!(run_alpha >= 0.0 && run_alpha < 1.0)) return bad("--run-alpha", "must lie in [0,1)");
  if (!(run_noise_scale >= 0.0) || !std::isfinite(run_noise_scale)) return bad("--run-noise-scale", "must be >= 0");
  bool any_null = false;
  for (double f : NullFracValues()) any_null = any_null || f > 0.0;
  if (any_null && capacity_policy != "none")
    return bad("--capacity-policy", "null routing requires --capacity-policy none");
  if (!mlp_path.empty()) {
    const std::string want = mlp_path == "fused_ep" ? "ep" : "dp";
    if (mlp_path != "ref_dp" && mlp_path != "staged_dp" && mlp_path != "fused_ep")
      return bad("--mlp-path", "expected ref_dp, staged_dp or fused_ep, got '" + mlp_path + "'");
    if (parallel_mode != want) return bad("--mlp-path", mlp_path + " needs --parallel-mode " + want);
    if (bench_pass != "forward" && target == "v5p")
      return bad("--mlp-path", "the v5p model has the forward pass of the mlp_profile paths only (the harness "
                               "times no other); --target cpu computes their backward too");
    bool nulls = false;
    for (double f : NullFracValues()) nulls = nulls || f > 0.0;
    if (capacity_policy != "none" || quant_mode != "none" || nulls)
      return bad("--mlp-path", "the mlp_profile paths have no capacity limit, quantization or null routing");
  }
  if (xla_scoped_vmem_kib < 0 || xla_scoped_vmem_kib > (int64_t{1} << 20))
    return bad("--xla-scoped-vmem-kib", "must be between 0 (the chip's default) and 1048576 KiB");
  // Like the harness, the other paths ignore it.
  if (staged_parallel && mlp_path.empty()) return bad("--staged-parallel", "needs --mlp-path (staged_dp)");
  if (capacity_policy == "pad" && parallel_mode != "none")
    return bad("--capacity-policy", "pad is not allowed with --parallel-mode " + parallel_mode);
  // Device count: the v5p target models the v5p-8 slice (4 chips).
  int64_t d = target == "v5p" ? 4 : devices;
  if (!mesh.empty()) {
    int64_t data = 0, expert = 0;
    for (const auto& part : SplitList(mesh)) {
      auto eq = part.find('=');
      int64_t v = 0;
      if (eq == std::string::npos || !ParseInt(part.substr(eq + 1), &v) || v < 1)
        return bad("--mesh", "expected data=A,expert=B with positive A and B, got '" + mesh + "'");
      if (v > kMaxDevices)
        return bad("--mesh", "axis size " + std::to_string(v) + " is above moelog's limit of " +
                                 std::to_string(kMaxDevices) + " devices");
      std::string axis = part.substr(0, eq);
      if (axis == "data") data = v;
      else if (axis == "expert") expert = v;
      else return bad("--mesh", "unknown axis '" + axis + "' (expected data, expert)");
    }
    if (data == 0 || expert == 0) return bad("--mesh", "expected data=A,expert=B, got '" + mesh + "'");
    if (parallel_mode == "none") return bad("--mesh", "needs --parallel-mode ep or dp");
    if (experts % expert != 0)
      return bad("--mesh", "experts " + std::to_string(experts) + " not divisible by expert axis " + std::to_string(expert));
    if (tokens % data != 0)
      return bad("--mesh", "tokens " + std::to_string(tokens) + " not divisible by data axis " + std::to_string(data));
    d = data * expert;
  } else if (parallel_mode == "ep" && experts % d != 0) {
    return bad("--experts", "experts " + std::to_string(experts) + " not divisible by the EP size " + std::to_string(d));
  }
  if (parallel_mode == "dp" && mesh.empty() && tokens % d != 0)
    return bad("--tokens", "tokens " + std::to_string(tokens) + " not divisible by the device count " + std::to_string(d));
  if (parallel_mode == "ep" && ep_comm_path != "compact_psum" && tokens % d != 0)
    return bad("--ep-comm-path", ep_comm_path + " requires tokens (" + std::to_string(tokens) +
                                     ") divisible by the device count " + std::to_string(d));
  // --ep-dispatch is an EP setting: without EP the harness ignores it (a
  // logbook's pin of the EP dispatch covers its runs without EP too).
  if (ep_dispatch == "dense_masked" && ep_comm_path == "a2a")
    return bad("--ep-dispatch", "dense_masked has no a2a path (use compact_psum or ring_ag_rs)");
  // Under mpirun each rank is one device: the device count must be the world size.
  if (target == "cpu" && parallel_mode != "none" && parallel::LaunchedByMpi() &&
      d != parallel::MpiWorldSizeFromEnv()) {
    return bad(mesh.empty() ? "--devices" : "--mesh",
               std::to_string(d) + " devices do not match the MPI world size " +
                   std::to_string(parallel::MpiWorldSizeFromEnv()) + " (mpirun -np)");
  }
  return Status::Ok();
}

const std::vector<BenchLimit>& BenchLimits() {
  static const std::vector<BenchLimit> limits = {
      {"--tokens", &BenchConfig::tokens, int64_t{1} << 22, "per-token routing data"},
      {"--hidden", &BenchConfig::hidden, 65536, "matrix width"},
      {"--mlp-dim", &BenchConfig::mlp_dim, 65536, "matrix width"},
      {"--shared-expert-dim", &BenchConfig::shared_expert_dim, 65536, "matrix width"},
      {"--experts", &BenchConfig::experts, 4096, "experts per layer"},
      {"--null-experts", &BenchConfig::null_experts, 4096, "experts per layer"},
      {"--iters", &BenchConfig::iters, 100000, "timed repetitions"},
      {"--warmup", &BenchConfig::warmup, 10000, "untimed repetitions"},
      {"--threads", &BenchConfig::threads, 1024, "CPU threads"},
      {"--devices", &BenchConfig::devices, kMaxDevices, "simulated devices"},
  };
  return limits;
}

std::vector<RunPoint> ExpandRuns(const BenchConfig& c) {
  std::vector<RunPoint> out;
  for (const auto& dist : c.DistributionValues())
    for (int64_t k : c.TopkValues())
      for (const auto& impl : c.ImplValues())
        for (double f : c.NullFracValues())
          for (const auto& qm : c.QueueModeValues()) out.push_back({dist, k, impl, f, qm});
  return out;
}

namespace {

// A flag's value as the cache key holds it: the config's own, or for a few
// flags one derived from the whole config (the expanded sweep lists, the
// devices the run uses, staged_parallel where it applies).
nlohmann::json FlagValue(const BenchConfig& c, const FlagSpec& f) {
  const std::string key = f.key;
  if (key == "topk") return c.TopkValues();
  if (key == "null_route_frac") return c.NullFracValues();
  // Devices the run uses: one for parallel_mode none, the v5p-8 slice (4 chips) on v5p.
  if (key == "devices") return c.parallel_mode == "none" ? 1 : (c.target == "v5p" ? 4 : c.devices);
  if (key == "staged_parallel") return c.staged_parallel && c.mlp_path == "staged_dp";
  return std::visit([&](auto field) -> nlohmann::json {
    if constexpr (std::is_same_v<decltype(field), std::monostate>) return nullptr;
    else return c.*field;
  }, f.field);
}

// Whether the cache key holds the flag: kWhenSet flags only when they differ
// from the default (the hillclimb layer's keys, and cache keys, are unchanged
// by flags added later).
bool InCacheKey(const BenchConfig& c, const FlagSpec& f, const nlohmann::json& value) {
  if (f.cache == CacheRole::kNone) return false;
  if (*f.only_target && c.target != f.only_target) return false;
  return f.cache == CacheRole::kValue || value != FlagValue(BenchConfig{}, f);
}

}  // namespace

std::string CanonicalConfigJson(const BenchConfig& c) {
  nlohmann::json j;  // std::map-backed: keys come out sorted
  for (const FlagSpec& f : BenchFlags()) {
    if (f.cache == CacheRole::kNone) continue;
    nlohmann::json value = FlagValue(c, f);
    if (InCacheKey(c, f, value)) j[f.key] = std::move(value);
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace moelog::engine
