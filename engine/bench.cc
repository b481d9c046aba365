#include "engine/bench.h"

#include <cmath>

#include <cstdio>
#include <list>
#include <map>
#include <memory>
#include <atomic>
#include <mutex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/backend.h"
#include "engine/format.h"
#include "engine/target.h"

namespace moelog::engine {
namespace {

nlohmann::json RunToJson(const RunResult& r) {
  nlohmann::json j;
  j["distribution"] = r.point.distribution;
  j["mode"] = r.point.queue_mode;
  j["pass"] = r.pass;
  j["impl"] = r.point.impl;
  j["backend"] = r.backend;
  j["topk"] = r.point.topk;
  j["remat_mode"] = r.remat_mode;
  j["quant_mode"] = r.quant_mode;
  j["parallel_mode"] = r.parallel_mode;
  j["ep_comm_path"] = r.ep_comm_path;
  j["mesh"] = r.mesh;
  j["source"] = r.source;
  if (!r.unvalidated.empty()) j["unvalidated"] = r.unvalidated;
  j["devices"] = r.devices;
  for (const auto& [k, v] : HeadlineFigures(r)) j[k] = v;
  j["time_samples_s"] = r.time.samples_s;
  j["flops"] = r.flops;
  j["run_stats"] = {{"runs", r.run_stats.runs}, {"mean", r.run_stats.mean}, {"p95", r.run_stats.p95}, {"max", r.run_stats.max}};
  j["load_stats"] = {{"min", r.load_stats.min}, {"max", r.load_stats.max}, {"std", r.load_stats.std}, {"cv", r.load_stats.cv}};
  j["capacity"] = {{"cap", r.capacity.cap}, {"dropped", r.capacity.dropped}, {"drop_frac", r.capacity.drop_frac}};
  j["null_route"] = {{"target", r.null_target}, {"realized", r.null_realized}, {"mode", r.null_mode},
                     {"null_experts", r.null_experts}, {"null_assignments", r.null_assignments},
                     {"real_assignments", r.real_assignments}};
  if (!r.stages.empty()) {
    nlohmann::json st = nlohmann::json::array();
    for (const auto& s : r.stages) st.push_back({{"name", s.name}, {"seconds", s.seconds}, {"bound", s.bound}});
    j["stages"] = st;
  }
  if (!r.numerics.empty()) {
    nlohmann::json nm = nlohmann::json::array();
    for (const auto& n : r.numerics)
      nm.push_back({{"tensor", n.tensor}, {"max_rel_err", n.max_rel_err}, {"tolerance", n.tolerance}, {"ok", n.ok}});
    j["numerics"] = nm;
  }
  j["comm"] = {{"bytes_sent_per_device", r.comm.bytes_sent_per_device},
               {"bytes_recv_per_device", r.comm.bytes_recv_per_device},
               {"comm_s", r.comm.comm_s}, {"compute_s", r.comm.compute_s}};
  j["oom"] = r.oom;
  j["memory_bytes"] = r.memory_bytes;
  for (const auto& [k, v] : r.extra) j["extra"][k] = v;
  return j;
}

}  // namespace

std::string FormatHeader(const BenchConfig& c, const std::string& devices_line) {
  std::string s = "devices=" + devices_line + "\n";
  nlohmann::json j = nlohmann::json::parse(CanonicalConfigJson(c));
  s += "shape";
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string v = it.value().is_string()
                        ? it.value().get<std::string>()
                        : it.value().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    s += " " + it.key() + "=" + v;
  }
  return s + "\n";
}

std::string FormatResultLine(const RunResult& r) {
  std::string s = "RESULT distribution=" + r.point.distribution + " mode=" + r.point.queue_mode +
                  " pass=" + r.pass + " impl=" + r.point.impl + " backend=" + r.backend +
                  " topk=" + std::to_string(r.point.topk) + " null_target=" + Fixed(r.null_target, 3) +
                  " null_realized=" + Fixed(r.null_realized, 3) + " null_mode=" + r.null_mode +
                  " null_assignments=" + std::to_string(r.null_assignments) +
                  " real_assignments=" + std::to_string(r.real_assignments) +
                  " tflops=" + Fixed(r.tflops, 6) + " tokens_per_s=" + Fixed(r.tokens_per_s, 6);
  return s;
}

namespace {

// --stage-timing lines: each stage's seconds, its share, and what bounds it
// (when any stage says).
std::string FormatStages(const std::string& p, const RunResult& r) {
  if (r.stages.empty()) return "";
  double sum = 0;
  std::string s = p + "pass=" + r.pass + " stage";
  for (const auto& st : r.stages) {
    s += " " + st.name + "_s=" + Fixed(st.seconds, 6);
    sum += st.seconds;
  }
  s += "\n" + p + "stage_pct";
  for (const auto& st : r.stages) s += " " + st.name + "=" + Fixed(sum > 0 ? 100.0 * st.seconds / sum : 0.0, 1);
  s += "\n";
  bool any_bound = false;
  for (const auto& st : r.stages) any_bound = any_bound || !st.bound.empty();
  if (!any_bound) return s;
  s += p + "stage_bound";
  for (const auto& st : r.stages) s += " " + st.name + "=" + (st.bound.empty() ? "-" : st.bound);
  return s + "\n";
}

}  // namespace

std::string FormatRun(const BenchConfig& c, const RunResult& r) {
  const std::string p = "[" + r.point.distribution + "] ";
  const std::string tk = "topk=" + std::to_string(r.point.topk) + " impl=" + r.point.impl + " ";
  std::string s;
  if (r.oom) {
    s += p + "mode=" + r.point.queue_mode + " pass=" + r.pass + " " + tk + "backend=" + r.backend +
         " OOM estimate_bytes=" + Fixed(r.memory_bytes, 0) + "\n";
    return s;
  }
  s += p + "mode=" + r.point.queue_mode + " pass=" + r.pass + " topk=" + std::to_string(r.point.topk) +
       " impl=" + r.point.impl + " backend=" + r.backend + " remat_mode=" + r.remat_mode +
       " quant_mode=" + r.quant_mode + " parallel_mode=" + r.parallel_mode +
       " ep_comm_path=" + r.ep_comm_path + " time_s=" + Fixed(r.time.mean_s, 6) +
       " tflops=" + Fixed(r.tflops, 3) + " tokens_per_s=" + Fixed(r.tokens_per_s, 2) + "\n";
  s += p + "timing source=" + r.source + " devices=" + std::to_string(r.devices) +
       " tflops_per_device=" + Fixed(r.tflops_per_device, 3) +
       " time_median_s=" + Fixed(r.time.median_s, 6) + " time_min_s=" + Fixed(r.time.min_s, 6) +
       " time_max_s=" + Fixed(r.time.max_s, 6) + (r.mfu > 0 ? " mfu=" + Fixed(r.mfu, 4) : "") + "\n";
  if (!r.unvalidated.empty())
    s += p + "model unvalidated: no calibration row covers " + r.unvalidated + " (physics, unchecked)\n";
  s += tk + "run_stats runs=" + std::to_string(r.run_stats.runs) + " mean=" + Fixed(r.run_stats.mean, 2) +
       " p95=" + Fixed(r.run_stats.p95, 1) + " max=" + std::to_string(r.run_stats.max) + "\n";
  s += tk + "load_stats min=" + std::to_string(r.load_stats.min) + " max=" + std::to_string(r.load_stats.max) +
       " std=" + Fixed(r.load_stats.std, 2) + " cv=" + Fixed(r.load_stats.cv, 4) + "\n";
  if (c.capacity_policy != "none" && r.capacity.cap > 0)
    s += tk + "capacity policy=" + c.capacity_policy + " factor=" + Fixed(c.capacity_factor, 3) +
         " cap=" + std::to_string(r.capacity.cap) + " dropped=" + std::to_string(r.capacity.dropped) +
         " drop_frac=" + Fixed(r.capacity.drop_frac, 4) + "\n";
  s += tk + "null_route mode=" + r.null_mode + " target=" + Fixed(r.null_target, 3) +
       " realized=" + Fixed(r.null_realized, 3) + " null_experts=" + std::to_string(r.null_experts) +
       " null_assignments=" + std::to_string(r.null_assignments) +
       " real_assignments=" + std::to_string(r.real_assignments) + "\n";
  if (r.comm.bytes_sent_per_device > 0 || r.comm.bytes_recv_per_device > 0)
    s += p + "comm path=" + r.ep_comm_path + " bytes_sent_per_device=" + std::to_string(r.comm.bytes_sent_per_device) +
         " bytes_recv_per_device=" + std::to_string(r.comm.bytes_recv_per_device) +
         " comm_s=" + Fixed(r.comm.comm_s, 6) + " compute_s=" + Fixed(r.comm.compute_s, 6) + "\n";
  for (const auto& n : r.numerics)
    s += p + "numerics tensor=" + n.tensor + " max_rel_err=" + Scientific(n.max_rel_err, 3) +
         " status=" + (n.ok ? "ok" : "FAIL") + "\n";
  s += FormatStages(p, r);
  s += FormatResultLine(r) + "\n";
  return s;
}

std::string ResultsToJson(const BenchConfig& c, const std::string& devices_line,
                          const std::vector<RunResult>& results) {
  nlohmann::json j;
  j["devices"] = devices_line;
  j["target"] = c.target;
  j["config"] = nlohmann::json::parse(CanonicalConfigJson(c));
  j["runs"] = nlohmann::json::array();
  for (const auto& r : results) j["runs"].push_back(RunToJson(r));
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

Routing RoutingForPoint(const BenchConfig& c, const Logits& logits, const RunPoint& point) {
  return RoutingForPoint(c, TopK(logits, point.topk), point);
}

Routing RoutingForPoint(const BenchConfig& c, Routing r, const RunPoint& point) {
  NullOptions o;
  o.frac = point.null_frac;
  o.mode = c.null_routing_mode;
  o.null_experts = c.null_experts;
  o.key = FoldIn(KeyForLabel(static_cast<uint64_t>(c.seed), "null/" + point.distribution),
                 static_cast<uint64_t>(c.null_route_seed));
  o.renormalize = c.renormalize_real_after_null;
  ApplyNullRouting(o, &r);
  return r;
}

namespace {

// The backend of each target of engine/target.h.
struct BackendOfTarget {
  const char* target;
  Result<std::unique_ptr<Backend>> (*make)(const BenchConfig&);
  ResultDependencies (*dependencies)(const BenchConfig&);
};
constexpr BackendOfTarget kBackends[] = {
    {"cpu", MakeCpuBackend, CpuResultDependencies},
    {"v5p", MakeV5pBackend, V5pResultDependencies},
};

const BackendOfTarget& BackendFor(const std::string& target) {
  for (const auto& b : kBackends)
    if (target == b.target) return b;
  return kBackends[0];
}

}  // namespace

ResultDependencies ResultDependenciesOf(const BenchConfig& c) { return BackendFor(c.target).dependencies(c); }

Result<std::unique_ptr<Backend>> MakeBackend(const BenchConfig& c) { return BackendFor(c.target).make(c); }

namespace {

// Router logits depend only on (distribution, T, E, seed, alpha, noise), and
// a logbook's invocations share them across whole sweeps, so the last few are
// kept for the process with their top-k selections (generating and selecting
// is most of a modeled run's time). `random` logits of T tokens are the first
// T rows of those of more tokens (one stream, row-major) and each token's
// selection is its own, so one router serves every token count of a shape:
// grown when more tokens are asked for, its first rows taken for fewer.
// Thread-safe: in-process runs may be concurrent (those that need the same
// router wait for one generation).
struct SharedRouter {
  std::atomic<int64_t> values{0};  // logits held (for the cache's bound)
  std::mutex mu;                   // guards what follows
  Logits logits;                   // tokens == 0: not generated yet
  std::map<int64_t, Routing> topk;  // K -> TopK(logits, K), every row
  // (K, tokens) -> StatsOf(TopK of the first tokens): what every run of that
  // selection without null routing reads (a sweep's other keys share it).
  std::map<std::pair<int64_t, int64_t>, std::shared_ptr<const RoutingStats>> stats;
};

// A logbook's sweeps come back to a dozen shapes and distributions: 16 are
// kept (4 thrashed: a fresh update of a 512-line logbook regenerated its
// logits, 26% more CPU), at most 32M logits (128 MiB) in all.
constexpr size_t kKeepRouters = 16;
constexpr int64_t kKeepValues = int64_t{32} << 20;
constexpr int64_t kMaxRouterValues = int64_t{16} << 20;  // larger ones (64 MiB+) are not kept

std::shared_ptr<SharedRouter> RouterFor(const std::string& distribution, const BenchConfig& c) {
  static std::mutex mu;
  static std::list<std::pair<std::string, std::shared_ptr<SharedRouter>>> recent;  // most recent first
  const bool grows = distribution == "random";  // alpha and noise shape `runs` only
  std::ostringstream key;
  key.precision(17);
  key << distribution << '/' << c.experts << '/' << c.seed;
  if (!grows) key << '/' << c.tokens << '/' << c.run_alpha << '/' << c.run_noise_scale;
  if (c.tokens * c.experts > kMaxRouterValues) return std::make_shared<SharedRouter>();  // its own, not kept
  std::lock_guard<std::mutex> lock(mu);
  for (auto it = recent.begin(); it != recent.end(); ++it)
    if (it->first == key.str()) {
      recent.splice(recent.begin(), recent, it);
      return it->second;
    }
  auto r = std::make_shared<SharedRouter>();
  r->values = c.tokens * c.experts;  // about to be generated
  recent.emplace_front(key.str(), r);
  auto held = [&] {
    int64_t n = 0;
    for (const auto& e : recent) n += e.second->values;
    return n;
  };
  while (recent.size() > kKeepRouters || (recent.size() > 1 && held() > kKeepValues)) recent.pop_back();
  return r;
}

// The logits of `c` (grown or generated as needed); r.mu held.
void EnsureLogits(SharedRouter& r, const std::string& distribution, const BenchConfig& c) {
  if (r.logits.tokens >= c.tokens) return;
  if (r.logits.tokens > 0 && distribution == "random") {
    GrowRandomLogits(&r.logits, c.tokens, static_cast<uint64_t>(c.seed));
    // The widest selection grows with its logits; the narrower ones are its
    // prefixes (TopKPrefix) and are derived again when asked for.
    if (!r.topk.empty()) {
      auto widest = std::prev(r.topk.end());
      Routing wide = std::move(widest->second);
      r.topk.clear();
      GrowTopK(r.logits, &wide);
      r.topk.emplace(wide.topk, std::move(wide));
    }
  } else {
    r.logits = GenerateLogits(distribution, c.tokens, c.experts, static_cast<uint64_t>(c.seed), c.run_alpha,
                              c.run_noise_scale);
    r.topk.clear();
  }
  r.values = static_cast<int64_t>(r.logits.values.size());
}

// The top-k selection for k of the first c.tokens tokens; a sweep's widest K
// (kmax), and at least kSelectAtLeast, is selected once and every smaller k
// is its prefix (TopKPrefix: the same routing, without another pass over
// every logit). Logbooks compare k = 2, 4, 8 in separate commands on the same
// logits: selecting 8 at the first of them costs little more than selecting
// 2, and the others then skip their pass (a fresh update of a 512-line
// hillclimb logbook selected 16 times over 6 logits, now 6).
Routing TopKOf(SharedRouter& r, const std::string& distribution, const BenchConfig& c, int64_t k, int64_t kmax) {
  constexpr int64_t kSelectAtLeast = 8;
  std::lock_guard<std::mutex> lock(r.mu);
  EnsureLogits(r, distribution, c);
  auto it = r.topk.find(k);
  if (it == r.topk.end()) {
    auto wide = r.topk.lower_bound(k);  // the narrowest cached K > k
    kmax = std::max(kmax, std::min(kSelectAtLeast, r.logits.experts));
    if (wide == r.topk.end() && kmax > k) wide = r.topk.emplace(kmax, TopK(r.logits, kmax)).first;
    Routing sel = wide == r.topk.end() ? TopK(r.logits, k) : TopKPrefix(r.logits, wide->second, k);
    it = r.topk.emplace(k, std::move(sel)).first;
  }
  Routing sel = FirstTokens(it->second, c.tokens);
  auto& stats = r.stats[{k, c.tokens}];
  if (!stats) stats = std::make_shared<const RoutingStats>(StatsOf(sel));
  sel.stats = stats;
  return sel;
}

}  // namespace

Result<std::vector<RunResult>> RunBench(const BenchConfig& c, std::ostream& out, bool print) {
  return RunBench(c, out, print, PointHook());
}

Result<std::vector<RunResult>> RunBench(const BenchConfig& c, std::ostream& out, bool print, const PointHook& hook) {
  MOELOG_RETURN_IF_ERROR(c.Validate());
  auto backend = MakeBackend(c);
  if (!backend.ok()) return backend.status();
  const std::string devices = (*backend)->DevicesLine();
  bool text = print && !c.json;
  if (text) out << FormatHeader(c, devices) << std::flush;
  std::vector<RunResult> results;
  std::map<std::string, std::shared_ptr<SharedRouter>> routers;
  // A model needs the routing's statistics, not every token: beyond its
  // sample (v5p: V5pSampleTokens(E, k), which shrinks as experts and top-k
  // grow) it routes a bounded sample of the batch (same router, same seed)
  // and scales its counts, so memory and time grow with neither T nor E.
  BenchConfig routed = c;
  double token_scale = 1.0;
  int64_t kmax = c.topk;
  for (int64_t k : c.TopkValues()) kmax = std::max(kmax, k);
  const int64_t sample =
      TargetOrDefault(c.target).sample_tokens > 0 ? V5pSampleTokens(c.experts, kmax) : 0;
  if (sample > 0 && c.tokens > sample) {
    routed.tokens = sample;
    token_scale = static_cast<double>(c.tokens) / static_cast<double>(sample);
  }
  int64_t kwide = 0;  // the sweep's widest top-k
  for (int64_t k : c.TopkValues()) kwide = std::max(kwide, k);
  for (const RunPoint& point : ExpandRuns(c)) {
    auto it = routers.find(point.distribution);
    if (it == routers.end()) it = routers.emplace(point.distribution, RouterFor(point.distribution, routed)).first;
    Routing routing = RoutingForPoint(routed, TopKOf(*it->second, point.distribution, routed, point.topk, kwide), point);
    if (token_scale != 1.0) {
      routing.token_scale = token_scale;
      routing.real_assignments = std::llround(static_cast<double>(routing.real_assignments) * token_scale);
      routing.null_assignments = std::llround(static_cast<double>(routing.null_assignments) * token_scale);
    }
    if (hook) hook(point, false);
    auto r = (*backend)->Run(c, point, routing);
    if (hook) hook(point, true);
    if (!r.ok()) return r.status();
    if (text) out << FormatRun(c, *r) << std::flush;
    results.push_back(std::move(r).value());
  }
  if (print && c.json) out << ResultsToJson(c, devices, results) << "\n";
  return results;
}

}  // namespace moelog::engine
