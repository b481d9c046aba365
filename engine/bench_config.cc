#include "engine/bench_config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "engine/target.h"

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

namespace {

Status Bad(const std::string& flag, const std::string& msg) { return Status::InvalidArgument(flag + ": " + msg); }

// A real-valued flag's range: [lo, hi), or [lo, inf) finite when hi is 0.
struct RealLimit {
  const char* flag;
  double BenchConfig::*field;
  double hi;
  bool show_value;  // the message repeats the value given
};

const RealLimit kRealLimits[] = {
    {"--null-route-frac", &BenchConfig::null_route_frac, 1.0, true},
    {"--capacity-factor", &BenchConfig::capacity_factor, 0.0, false},
    {"--run-alpha", &BenchConfig::run_alpha, 1.0, false},
    {"--run-noise-scale", &BenchConfig::run_noise_scale, 0.0, false},
};

// Each integer flag against its row of BenchLimits(); --tokens against the
// target's own limit where it routes a sample.
Status CheckLimits(const BenchConfig& c, const Target& t) {
  for (const auto& l : BenchLimits()) {
    const int64_t v = c.*l.field;
    if (v < l.min && l.range) return Bad(l.flag, l.range);
    if (v < l.min) return Bad(l.flag, l.min > 0 ? "must be positive, got " + std::to_string(v) : "must be >= 0");
  }
  for (const auto& l : BenchLimits()) {
    const int64_t v = c.*l.field;
    int64_t max = l.max;
    if (l.field == &BenchConfig::tokens && t.max_tokens > 0) continue;  // a bounded sample: below
    if (v > max && l.range) return Bad(l.flag, l.range);
    if (v > max) return Bad(l.flag, std::to_string(v) + " is above moelog's limit of " + std::to_string(max) + " (" +
                                        l.why + ")");
  }
  if (t.max_tokens > 0 && c.tokens > t.max_tokens)
    return Bad("--tokens", std::to_string(c.tokens) + " is above moelog's limit of " + std::to_string(t.max_tokens) +
                               " for the " + t.name + " model");
  int64_t kmax = c.topk;
  for (int64_t k : c.TopkValues()) kmax = std::max(kmax, k);
  if (t.sample_tokens == 0 && kmax > 0 && c.tokens > kMaxAssignments / kmax)
    return Bad("--tokens", "tokens x topk = " + std::to_string(c.tokens) + " x " + std::to_string(kmax) +
                               " is above moelog's limit of " + std::to_string(kMaxAssignments) +
                               " routed assignments (routing data grows with it)");
  return Status::Ok();
}

Status CheckRealLimits(const BenchConfig& c) {
  for (const auto& l : kRealLimits) {
    const double v = c.*l.field;
    const bool ok = v >= 0.0 && (l.hi > 0.0 ? v < l.hi : std::isfinite(v));
    if (ok) continue;
    const std::string range = l.hi > 0.0 ? "must lie in [0,1)" : "must be >= 0";
    return Bad(l.flag, l.show_value ? range + ", got " + std::to_string(v) : range);
  }
  return Status::Ok();
}

// What the target itself cannot do.
Status CheckTarget(const BenchConfig& c, const Target& t) {
  if (t.fixed_devices > 0 && c.devices != t.fixed_devices)
    return Bad("--devices", std::to_string(c.devices) +
                                ": --target v5p models the 4 chips of a v5p-8 slice; give --mesh data=A,expert=B for "
                                "another split of them, or --target cpu for another device count");
  if (t.stage_timing_forward_only_on_one_device && c.stage_timing && c.bench_pass != "forward" &&
      c.parallel_mode == "none")
    return Bad("--stage-timing", "on one cpu device only the forward pass is timed by stage; use --bench-pass "
                                 "forward, or --parallel-mode ep/dp for the stages of forward_backward");
  if (t.mlp_path_forward_only && !c.mlp_path.empty() && c.bench_pass != "forward")
    return Bad("--mlp-path", "the v5p model has the forward pass of the mlp_profile paths only (the harness "
                             "times no other); --target cpu computes their backward too");
  return Status::Ok();
}

// --topk-list and --null-route-frac-list: at most kMaxListValues values,
// each valid as the single flag's value.
Status CheckList(const char* flag, const std::string& list, bool integers, int64_t experts) {
  if (list.empty()) return Status::Ok();
  auto parts = SplitList(list);
  if (parts.empty()) return Bad(flag, "no values in '" + list + "'");
  if (parts.size() > kMaxListValues)
    return Bad(flag, std::to_string(parts.size()) + " values: moelog's limit is " + std::to_string(kMaxListValues) +
                         " (each is a run)");
  for (const auto& s : parts) {
    int64_t k = 0;
    double f = 0;
    if (integers && !ParseInt(s, &k)) return Bad(flag, "'" + s + "' is not an integer");
    if (integers && (k < 1 || k > experts))
      return Bad(flag, "topk " + s + " must satisfy 1 <= topk <= experts (" + std::to_string(experts) + ")");
    if (!integers && !ParseDouble(s, &f)) return Bad(flag, "'" + s + "' is not a number");
    if (!integers && !(f >= 0.0 && f < 1.0)) return Bad(flag, "fraction " + s + " must lie in [0,1)");
  }
  return Status::Ok();
}

Status CheckLists(const BenchConfig& c) {
  MOELOG_RETURN_IF_ERROR(CheckList("--topk-list", c.topk_list, true, c.experts));
  if (c.topk_list.empty() && (c.topk < 1 || c.topk > c.experts))
    return Bad("--topk", "topk " + std::to_string(c.topk) + " must satisfy 1 <= topk <= experts (" +
                             std::to_string(c.experts) + ")");
  return CheckList("--null-route-frac-list", c.null_route_frac_list, false, c.experts);
}

bool AnyNullRouting(const BenchConfig& c) {
  for (double f : c.NullFracValues())
    if (f > 0.0) return true;
  return false;
}

// The mlp_profile paths and the settings that only apply to some paths.
Status CheckPaths(const BenchConfig& c) {
  if (AnyNullRouting(c) && c.capacity_policy != "none")
    return Bad("--capacity-policy", "null routing requires --capacity-policy none");
  if (!c.mlp_path.empty()) {
    const std::string want = c.mlp_path == "fused_ep" ? "ep" : "dp";
    if (c.mlp_path != "ref_dp" && c.mlp_path != "staged_dp" && c.mlp_path != "fused_ep")
      return Bad("--mlp-path", "expected ref_dp, staged_dp or fused_ep, got '" + c.mlp_path + "'");
    if (c.parallel_mode != want) return Bad("--mlp-path", c.mlp_path + " needs --parallel-mode " + want);
    if (c.capacity_policy != "none" || c.quant_mode != "none" || AnyNullRouting(c))
      return Bad("--mlp-path", "the mlp_profile paths have no capacity limit, quantization or null routing");
  }
  if (c.int8_impl == "fake_quant" && c.quant_mode != "none" && c.quant_mode != "int8")
    return Bad("--int8-impl", "fake_quant is the first int8 revision, which had --quant-mode none or int8 only");
  // Like the harness, the other paths ignore it.
  if (c.staged_parallel && c.mlp_path.empty()) return Bad("--staged-parallel", "needs --mlp-path (staged_dp)");
  if (c.capacity_policy == "pad" && c.parallel_mode != "none")
    return Bad("--capacity-policy", "pad is not allowed with --parallel-mode " + c.parallel_mode);
  // --ep-dispatch is an EP setting: without EP the harness ignores it (a
  // logbook's pin of the EP dispatch covers its runs without EP too).
  if (c.ep_dispatch == "dense_masked" && c.ep_comm_path == "a2a")
    return Bad("--ep-dispatch", "dense_masked has no a2a path (use compact_psum or ring_ag_rs)");
  return Status::Ok();
}

// --mesh data=A,expert=B: each axis positive and at most kMaxDevices, the
// experts and tokens divisible by them. *devices receives A x B.
Status CheckMesh(const BenchConfig& c, int64_t* devices) {
  int64_t data = 0, expert = 0;
  for (const auto& part : SplitList(c.mesh)) {
    auto eq = part.find('=');
    int64_t v = 0;
    if (eq == std::string::npos || !ParseInt(part.substr(eq + 1), &v) || v < 1)
      return Bad("--mesh", "expected data=A,expert=B with positive A and B, got '" + c.mesh + "'");
    if (v > kMaxDevices)
      return Bad("--mesh", "axis size " + std::to_string(v) + " is above moelog's limit of " +
                               std::to_string(kMaxDevices) + " devices");
    std::string axis = part.substr(0, eq);
    if (axis == "data") data = v;
    else if (axis == "expert") expert = v;
    else return Bad("--mesh", "unknown axis '" + axis + "' (expected data, expert)");
  }
  if (data == 0 || expert == 0) return Bad("--mesh", "expected data=A,expert=B, got '" + c.mesh + "'");
  if (c.parallel_mode == "none") return Bad("--mesh", "needs --parallel-mode ep or dp");
  if (c.experts % expert != 0)
    return Bad("--mesh", "experts " + std::to_string(c.experts) + " not divisible by expert axis " +
                             std::to_string(expert));
  if (c.tokens % data != 0)
    return Bad("--mesh", "tokens " + std::to_string(c.tokens) + " not divisible by data axis " + std::to_string(data));
  *devices = data * expert;
  return Status::Ok();
}

// The device count (the target's, or --devices, or the mesh's) divides what
// the parallel mode splits.
Status CheckDevices(const BenchConfig& c, const Target& t) {
  int64_t d = t.fixed_devices > 0 ? t.fixed_devices : c.devices;
  if (!c.mesh.empty()) {
    MOELOG_RETURN_IF_ERROR(CheckMesh(c, &d));
  } else if (c.parallel_mode == "ep" && c.experts % d != 0) {
    return Bad("--experts", "experts " + std::to_string(c.experts) + " not divisible by the EP size " +
                                std::to_string(d));
  }
  if (c.parallel_mode == "dp" && c.mesh.empty() && c.tokens % d != 0)
    return Bad("--tokens", "tokens " + std::to_string(c.tokens) + " not divisible by the device count " +
                               std::to_string(d));
  if (c.parallel_mode == "ep" && c.ep_comm_path != "compact_psum" && c.tokens % d != 0)
    return Bad("--ep-comm-path", c.ep_comm_path + " requires tokens (" + std::to_string(c.tokens) +
                                     ") divisible by the device count " + std::to_string(d));
  return Status::Ok();
}

}  // namespace

int64_t BenchConfig::DeviceCount() const {
  const Target& t = TargetOrDefault(target);
  if (parallel_mode == "none") return 1;
  return t.fixed_devices > 0 ? t.fixed_devices : devices;
}

Status BenchConfig::Validate() const {
  const Target* t = FindTarget(target);
  if (t == nullptr) return Bad("--target", "unknown target '" + target + "'");
  MOELOG_RETURN_IF_ERROR(CheckLimits(*this, *t));
  MOELOG_RETURN_IF_ERROR(CheckTarget(*this, *t));
  MOELOG_RETURN_IF_ERROR(CheckLists(*this));
  MOELOG_RETURN_IF_ERROR(CheckRealLimits(*this));
  MOELOG_RETURN_IF_ERROR(CheckPaths(*this));
  return CheckDevices(*this, *t);
}

const std::vector<BenchLimit>& BenchLimits() {
  static const std::vector<BenchLimit> limits = {
      {"--tokens", &BenchConfig::tokens, 1, int64_t{1} << 22, "per-token routing data"},
      {"--hidden", &BenchConfig::hidden, 1, 65536, "matrix width"},
      {"--mlp-dim", &BenchConfig::mlp_dim, 1, 65536, "matrix width"},
      {"--experts", &BenchConfig::experts, 1, 4096, "experts per layer"},
      {"--iters", &BenchConfig::iters, 1, 100000, "timed repetitions"},
      {"--devices", &BenchConfig::devices, 1, kMaxDevices, "simulated devices"},
      {"--shared-expert-dim", &BenchConfig::shared_expert_dim, 0, 65536, "matrix width"},
      {"--null-experts", &BenchConfig::null_experts, 0, 4096, "experts per layer"},
      {"--warmup", &BenchConfig::warmup, 0, 10000, "untimed repetitions"},
      {"--threads", &BenchConfig::threads, 0, 1024, "CPU threads"},
      {"--xla-scoped-vmem-kib", &BenchConfig::xla_scoped_vmem_kib, 0, int64_t{1} << 20, "",
       "must be between 0 (the chip's default) and 1048576 KiB"},
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

}  // namespace moelog::engine
