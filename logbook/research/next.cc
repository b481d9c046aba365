#include "logbook/research/next.h"
#include "logbook/research/next_internal.h"
#include "logbook/research/next_steps.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "engine/bench.h"
#include "engine/bench_flags.h"
#include "engine/metrics.h"
#include "engine/routing.h"
#include "engine/v5p/coverage.h"
#include "engine/v5p/model.h"
#include "engine/v5p/uncertainty.h"
#include "logbook/budgets.h"
#include "logbook/doc/entry_ids.h"
#include "logbook/doc/markdown.h"
#include "logbook/numbers.h"
#include "logbook/criteria/recorded.h"
#include "logbook/plan/bench_args.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/update/criteria_status.h"
#include "logbook/update/entry_chart.h"
#include "logbook/update/entry_plans.h"

namespace moelog::logbook {
namespace next_internal {

using engine::BenchConfig;

// ------------------------------------------------------------ config keys ---

// Sets one searched key. False for a key the search does not know.
bool SetKey(BenchConfig* c, const std::string& key, const std::string& v) {
  if (key == "parallel_mode") c->parallel_mode = v;
  else if (key == "ep_comm_path") c->ep_comm_path = v;
  else if (key == "ep_dispatch") c->ep_dispatch = v;
  else if (key == "routing_pack_strategy") c->routing_pack_strategy = v;
  else if (key == "queue_mode") c->queue_mode = v;
  else if (key == "remat_mode") c->remat_mode = v;
  else if (key == "backend") c->backend = v;
  else if (key == "impl") c->impl = v;
  else if (key == "quant_mode") c->quant_mode = v;
  else if (key == "dispatch_permute_mode") c->dispatch_permute_mode = v;
  else if (key == "shared_fused") c->shared_fused = v == "true";
  else if (key == "use_custom_sort_vjp") c->use_custom_sort_vjp = v == "true";
  else if (key == "xla_scoped_vmem_kib") c->xla_scoped_vmem_kib = std::atoll(v.c_str());
  // Shape keys: searched only when the Scope frees them.
  else if (key == "tokens") c->tokens = std::atoll(v.c_str());
  else if (key == "hidden") c->hidden = std::atoll(v.c_str());
  else if (key == "mlp_dim") c->mlp_dim = std::atoll(v.c_str());
  else if (key == "experts") c->experts = std::atoll(v.c_str());
  else if (key == "topk") {
    c->topk = std::atoll(v.c_str());
    c->topk_list.clear();
  } else if (key == "shared_expert_dim") c->shared_expert_dim = std::atoll(v.c_str());
  else if (key == "distribution") c->distribution = v;
  else if (key == "bench_pass") c->bench_pass = v;
  else if (key == "dtype") c->dtype = v;
  else return false;
  return true;
}

// The value of a key of a config, as a flag takes it ("" unknown).
std::string GetKey(const BenchConfig& c, const std::string& key) {
  auto b = [](bool x) { return std::string(x ? "true" : "false"); };
  if (key == "parallel_mode") return c.parallel_mode;
  if (key == "ep_comm_path") return c.ep_comm_path;
  if (key == "ep_dispatch") return c.ep_dispatch;
  if (key == "routing_pack_strategy") return c.routing_pack_strategy;
  if (key == "queue_mode") return c.queue_mode;
  if (key == "remat_mode") return c.remat_mode;
  if (key == "backend") return c.backend;
  if (key == "impl") return c.impl;
  if (key == "quant_mode") return c.quant_mode;
  if (key == "dispatch_permute_mode") return c.dispatch_permute_mode;
  if (key == "shared_fused") return b(c.shared_fused);
  if (key == "use_custom_sort_vjp") return b(c.use_custom_sort_vjp);
  if (key == "xla_scoped_vmem_kib") return std::to_string(c.xla_scoped_vmem_kib);
  if (key == "tokens") return std::to_string(c.tokens);
  if (key == "hidden") return std::to_string(c.hidden);
  if (key == "mlp_dim") return std::to_string(c.mlp_dim);
  if (key == "experts") return std::to_string(c.experts);
  if (key == "topk") return std::to_string(c.topk);
  if (key == "shared_expert_dim") return std::to_string(c.shared_expert_dim);
  if (key == "distribution") return c.distribution;
  if (key == "bench_pass") return c.bench_pass;
  if (key == "dtype") return c.dtype;
  return "";
}

// The keys that make a shape: held by the search.
const std::vector<std::string>& ShapeKeys() {
  static const std::vector<std::string> kKeys = {"tokens", "hidden", "mlp_dim", "experts", "topk",
                                                 "shared_expert_dim", "bench_pass", "distribution", "dtype"};
  return kKeys;
}

std::string ShapeText(const BenchConfig& c) {
  std::string s;
  for (const auto& k : ShapeKeys()) s += (s.empty() ? "" : " ") + k + "=" + GetKey(c, k);
  return s;
}

}  // namespace next_internal

namespace {

using engine::BenchConfig;
using namespace next_internal;

// Whether a searched key can change anything for this combination.
bool Matters(const BenchConfig& c, const std::string& key) {
  if (key == "ep_comm_path" || key == "ep_dispatch") return c.parallel_mode == "ep";
  if (key == "remat_mode" || key == "use_custom_sort_vjp") return c.bench_pass == "forward_backward";
  if (key == "shared_fused") return c.shared_expert_dim > 0;
  return true;
}

// The v5p model's path keys of a config (as v5p_backend reports them).
std::map<std::string, std::string> PathConfig(const BenchConfig& c) {
  return {{"backend", c.backend},         {"impl", c.impl},
          {"parallel_mode", c.parallel_mode}, {"ep_dispatch", c.ep_dispatch},
          {"ep_comm_path", c.ep_comm_path}, {"quant_mode", c.quant_mode},
          {"capacity_policy", c.EffectiveCapacityPolicy()}, {"null_route_frac", FormatValue(c.null_route_frac)},
          {"hardware", c.hardware},       {"mlp_path", c.mlp_path},
          {"mesh", c.mesh}};
}

// ---------------------------------------------------------------- routing ---

// The routing of a shape, built once and shared by every configuration.
struct ShapeRouting {
  std::vector<int64_t> groups;
  int64_t real_assignments = 0;
  double flops = 0;  // the harness's FLOP count (the same for every config of the shape)
  engine::RunPoint point;
};

Result<ShapeRouting> RouteShape(const BenchConfig& anchor) {
  MOELOG_RETURN_IF_ERROR(anchor.Validate());
  const auto points = engine::ExpandRuns(anchor);
  if (points.empty()) return Status::InvalidArgument("the configuration has no run point");
  ShapeRouting s;
  s.point = points[0];
  BenchConfig routed = anchor;
  double scale = 1.0;
  // The sample `bench` routes (engine/bench_config.h): bounded in tokens,
  // logits and routed slots, so a wide shape costs what `bench` costs.
  const int64_t sample = engine::V5pSampleTokens(anchor.experts, s.point.topk);
  if (anchor.tokens > sample) {
    routed.tokens = sample;
    scale = static_cast<double>(anchor.tokens) / static_cast<double>(sample);
  }
  engine::Logits logits = engine::GenerateLogits(s.point.distribution, routed.tokens, routed.experts,
                                                 static_cast<uint64_t>(routed.seed), routed.run_alpha,
                                                 routed.run_noise_scale);
  engine::Routing routing = engine::RoutingForPoint(routed, logits, s.point);
  if (scale != 1.0) {
    routing.token_scale = scale;
    routing.real_assignments = std::llround(static_cast<double>(routing.real_assignments) * scale);
    routing.null_assignments = std::llround(static_cast<double>(routing.null_assignments) * scale);
  }
  s.groups = engine::GroupSizes(routing);
  s.real_assignments = routing.real_assignments;
  engine::RunResult r;
  r.point = s.point;
  r.devices = 1;
  r.time.mean_s = 1.0;
  engine::FillCommonFigures(anchor, routing, &r);
  s.flops = r.flops;
  return s;
}

bool PredictOne(const BenchConfig& c, const ShapeRouting& s, const engine::v5p::Hardware& hw,
                const engine::v5p::ModelParams& params, Candidate* out) {
  engine::RunPoint p = s.point;
  p.impl = c.impl;
  p.queue_mode = c.queue_mode;
  auto mc = engine::v5p::MakeCase(c, p, s.groups, s.real_assignments, hw.chips);
  if (!mc.ok()) return false;
  const engine::v5p::Prediction pred = engine::v5p::Predict(hw, params, *mc);
  out->oom = pred.oom;
  out->skips_work = pred.int8_backward_skipped;
  out->time_s = pred.time_s;
  out->tflops = pred.time_s > 0 && !pred.oom ? s.flops / pred.time_s / 1e12 : 0;
  out->tokens_per_s = pred.time_s > 0 && !pred.oom ? static_cast<double>(c.tokens) / pred.time_s : 0;
  int dom = -1;
  for (int i = 0; i < pred.num_stages; ++i)
    if (dom < 0 || pred.stages[i].seconds > pred.stages[dom].seconds) dom = i;
  if (dom >= 0)
    out->dominant = std::string(pred.stages[dom].name) + " (" + pred.stages[dom].bound + ", " +
                    FormatValue(std::round(1000 * pred.stages[dom].seconds / pred.time_s) / 10) + "% of the time)";
  return true;
}

double Figure(const Candidate& c, const std::string& metric) {
  return metric == "tokens_per_s" ? c.tokens_per_s : c.tflops;
}

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double NormalPdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI); }

// E[max(X - best, 0)] for X ~ N(mu, sigma).
double ExpectedImprovement(double mu, double sigma, double best) {
  if (sigma <= 0) return std::max(mu - best, 0.0);
  const double z = (mu - best) / sigma;
  return (mu - best) * NormalCdf(z) + sigma * NormalPdf(z);
}

// ------------------------------------------------------------- runs -> cfg ---

std::map<std::string, std::string> FlatConfig(const BenchConfig& c) {
  std::map<std::string, std::string> out;
  auto j = nlohmann::json::parse(engine::CanonicalConfigJson(c), nullptr, false);
  if (!j.is_object()) return out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const auto& v = it.value();
    const auto& x = v.is_array() && v.size() == 1 ? v[0] : v;
    if (x.is_string()) out[it.key()] = x.get<std::string>();
    else if (x.is_boolean()) out[it.key()] = x.get<bool>() ? "true" : "false";
    else if (x.is_number()) out[it.key()] = FormatValue(x.get<double>());
  }
  return out;
}

}  // namespace

namespace next_internal {
std::string MetricName(const std::string& metric) { return metric == "tokens_per_s" ? "tokens/s" : "TF/s"; }
std::string Fmt(double v) { return Fixed(v, v >= 1e4 ? 0 : 1); }
}  // namespace next_internal

namespace {

}  // namespace

std::vector<SearchAxis> DefaultSearchAxes() {
  // Which keys researchers vary is moelog's reading of the logbooks; the
  // values each takes are the flag registry's (engine/bench_flags.h): its
  // choices without the sweep marker "both", or false/true for a switch.
  static const char* const kKeys[] = {"parallel_mode", "ep_comm_path",          "routing_pack_strategy",
                                      "queue_mode",    "remat_mode",            "backend",
                                      "impl",          "quant_mode",            "shared_fused",
                                      "dispatch_permute_mode", "use_custom_sort_vjp"};
  std::vector<SearchAxis> out;
  for (const char* key : kKeys) {
    const engine::FlagSpec* f = engine::FindRunKey(key);
    if (!f) continue;
    SearchAxis a{key, {}};
    if (std::holds_alternative<bool BenchConfig::*>(f->field)) a.values = {"false", "true"};
    for (const auto& v : f->choices)
      if (v != "both") a.values.push_back(v);
    if (!a.values.empty()) out.push_back(std::move(a));
  }
  return out;
}

Result<Candidate> PredictConfig(const BenchConfig& config, const engine::v5p::Hardware& hw,
                                const engine::v5p::ModelParams& params) {
  auto s = RouteShape(config);
  if (!s.ok()) return s.status();
  Candidate c;
  if (!PredictOne(config, *s, hw, params, &c)) return Status::InvalidArgument("the model cannot take this config");
  c.unvalidated = engine::v5p::UncalibratedPaths(PathConfig(config));
  return c;
}

namespace {

// Steps the mixed-radix counter `idx` (digit a runs over 0 .. size(a) - 1,
// the last digit fastest) to its next value; false when it wraps to all
// zeros, after the last combination.
template <typename Size>
bool NextCombination(std::vector<size_t>& idx, Size size) {
  for (size_t a = idx.size(); a-- > 0;) {
    if (++idx[a] < size(a)) return true;
    idx[a] = 0;
  }
  return false;
}

}  // namespace

Result<std::vector<Candidate>> SearchConfigs(const BenchConfig& anchor, const std::vector<SearchAxis>& axes_in,
                                             const engine::v5p::Hardware& hw,
                                             const engine::v5p::ModelParams& params, int* tried) {
  auto shape = RouteShape(anchor);
  if (!shape.ok()) return shape.status();
  // Each axis starts at the anchor's value, so "unchanged" is index 0.
  std::vector<SearchAxis> axes = axes_in;
  for (auto& a : axes) {
    const std::string cur = GetKey(anchor, a.key);
    auto it = std::find(a.values.begin(), a.values.end(), cur);
    if (it != a.values.end()) std::rotate(a.values.begin(), it, it + 1);
    else if (!cur.empty()) a.values.insert(a.values.begin(), cur);
  }
  size_t combinations = 1;
  for (const auto& a : axes)
    combinations = a.values.empty() || combinations > SIZE_MAX / a.values.size() ? SIZE_MAX : combinations * a.values.size();
  if (combinations > static_cast<size_t>(BudgetLimit(BudgetId::kModelCallsPerCommand)))
    return Status::InvalidArgument("cannot plan: the search would make " + OverBudget(BudgetId::kModelCallsPerCommand) +
                                   "; free fewer keys or values in the Scope");
  std::vector<Candidate> out;
  std::vector<size_t> idx(axes.size(), 0);
  int n = 0;
  BenchConfig c = anchor;
  while (true) {
    bool skip = false;
    for (size_t a = 0; a < axes.size(); ++a) SetKey(&c, axes[a].key, axes[a].values[idx[a]]);
    for (size_t a = 0; a < axes.size() && !skip; ++a) skip = idx[a] != 0 && !Matters(c, axes[a].key);
    if (!skip && c.Validate().ok()) {
      Candidate cand;
      if (PredictOne(c, *shape, hw, params, &cand)) {
        ++n;
        for (size_t a = 0; a < axes.size(); ++a)
          if (idx[a] != 0) cand.changes[axes[a].key] = axes[a].values[idx[a]];
        out.push_back(std::move(cand));
      }
    }
    if (!NextCombination(idx, [&](size_t a) { return axes[a].values.size(); })) break;
  }
  if (tried) *tried = n;
  return out;
}

Result<BenchConfig> ConfigOfRun(const StoredRun& run) {
  static const std::set<std::string> kFlags(BenchFlagNames().begin(), BenchFlagNames().end());
  std::vector<std::string> args;
  for (const auto& [k, v] : run.config) {
    if (IsIgnoredForPairing(k) || k == "target" || k == "devices" || k == "hardware" || k == "model_params") continue;
    std::string flag = "--" + k;
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (!kFlags.count(flag)) continue;
    if (v == "true") args.push_back(flag);
    else if (v != "false") {
      args.push_back(flag);
      args.push_back(v);
    }
  }
  args.push_back("--target");
  args.push_back("v5p");
  return ParseBenchArgs(args);
}

namespace {

bool IsHillclimb(const StoredRun& r) {
  auto it = r.config.find("mlp_path");
  return it == r.config.end() || it->second.empty();
}

double RunFigure(const StoredRun& r, const std::string& metric) {
  auto it = r.metrics.find(metric);
  return it == r.metrics.end() ? 0 : it->second;
}

// The first unmet (or predicted) criterion this configuration, run, would meet.
std::pair<std::string, int> Serves(const Candidate& cand, const BenchConfig& config, const std::vector<StoredRun>& runs,
                                   const std::vector<Criterion>& criteria, const Logbook& logbook) {
  EvalContext ctx;
  ctx.runs = runs;
  ctx.entries = EntryFactsOf(logbook);
  StoredRun hyp;
  hyp.id = "proposal";
  hyp.config = FlatConfig(config);
  hyp.metrics = {{"tflops", cand.tflops}, {"tokens_per_s", cand.tokens_per_s}, {"mean_s", cand.time_s},
                 {"time_s", cand.time_s}};
  hyp.target = "v5p";
  hyp.source = "modeled";
  for (const auto& c : criteria) {
    if (!c.predicate) continue;
    const CriterionState before = Evaluate(c, ctx).state;
    if (before == CriterionState::kMet) continue;
    EvalContext with = ctx;
    with.runs.push_back(hyp);
    const CriterionState after = Evaluate(c, with).state;
    if (after == CriterionState::kMet) return {c.text, c.line};
    // As a measurement of the same config it would meet it.
    with.runs.back().source = "measured";
    with.runs.back().target = "";
    if (before == CriterionState::kUnmet && Evaluate(c, with).state == CriterionState::kMet)
      return {c.text + " (once measured)", c.line};
  }
  return {"", 0};
}

}  // namespace

namespace {

// The full harness configs an entry's commands run, one per sweep point.
std::vector<BenchConfig> PlannedConfigs(const Logbook& logbook, const Entry& entry) {
  PlanOptions popt;
  popt.target = "v5p";
  std::vector<BenchConfig> out;
  const auto plans = PlanEntries(logbook, {&entry}, popt);
  for (const auto& plan : plans.empty() ? std::vector<Plan>{} : plans[0]) {
    if (plan.verdict != PlanVerdict::kRunnable && plan.verdict != PlanVerdict::kNeedsConsent) continue;
    for (const auto& inv : plan.invocations) {
      if (!inv.config.mlp_path.empty()) continue;
      for (const auto& pt : engine::ExpandRuns(inv.config)) {
        BenchConfig c = inv.config;
        c.topk = pt.topk;
        c.topk_list.clear();
        c.impl = pt.impl;
        c.distribution = pt.distribution;
        c.queue_mode = pt.queue_mode;
        c.null_route_frac = pt.null_frac;
        c.null_route_frac_list.clear();
        c.null_route_sweep = false;
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

// The config a recorded figure stands for: the one planned config of its
// entry it fits (or several that agree on everything the search reads).
std::optional<BenchConfig> RecordedConfig(const StoredRun& figure, const std::vector<BenchConfig>& planned) {
  const BenchConfig* found = nullptr;
  for (const auto& c : planned) {
    if (!FigureFits(figure, FlatConfig(c))) continue;
    if (found) {
      if (ShapeText(*found) != ShapeText(c)) return std::nullopt;
      for (const auto& a : DefaultSearchAxes())
        if (GetKey(*found, a.key) != GetKey(c, a.key)) return std::nullopt;
      if (found->ep_dispatch != c.ep_dispatch || found->xla_scoped_vmem_kib != c.xla_scoped_vmem_kib)
        return std::nullopt;
      continue;
    }
    found = &c;
  }
  if (!found) return std::nullopt;
  return *found;
}

bool SamePrediction(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

}  // namespace

namespace {

// The values searched for each freed shape key: those the Scope lists, else
// those the logbook's runs used (the top-k sweep 1,2,4,6,8 for topk), the
// anchor's first. A key with no other value is left out.
std::map<std::string, std::vector<std::string>> FreedValues(const std::map<std::string, std::vector<std::string>>& freed,
                                                            const BenchConfig& anchor,
                                                            const std::vector<BenchConfig>& tried) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [key, listed] : freed) {
    std::vector<std::string> v = {GetKey(anchor, key)};
    auto add = [&](const std::string& x) {
      if (!x.empty() && std::find(v.begin(), v.end(), x) == v.end() && v.size() < 8) v.push_back(x);
    };
    for (const auto& x : listed) add(x);
    if (listed.empty()) {
      if (key == "topk")
        for (const char* x : {"1", "2", "4", "6", "8"}) add(x);
      for (const auto& c : tried) add(GetKey(c, key));
    }
    if (v.size() > 1) out[key] = std::move(v);
  }
  return out;
}

// SearchConfigs at every combination of the freed shape keys' values (at
// most 16 shapes), each with its own routing; a shape key that differs from
// the anchor is one of the candidate's changes.
Result<std::vector<Candidate>> SearchShapes(const BenchConfig& anchor,
                                            const std::map<std::string, std::vector<std::string>>& freed,
                                            const engine::v5p::Hardware& hw, const engine::v5p::ModelParams& params,
                                            int* searched, int* shapes) {
  std::vector<std::pair<std::string, std::vector<std::string>>> axes(freed.begin(), freed.end());
  std::vector<size_t> idx(axes.size(), 0);
  std::vector<Candidate> out;
  *searched = 0;
  *shapes = 0;
  while (*shapes < 16) {
    BenchConfig c = anchor;
    std::map<std::string, std::string> shape_changes;
    for (size_t a = 0; a < axes.size(); ++a) {
      SetKey(&c, axes[a].first, axes[a].second[idx[a]]);
      if (idx[a] != 0) shape_changes[axes[a].first] = axes[a].second[idx[a]];
    }
    if (shape_changes.empty() || c.Validate().ok()) {
      int n = 0;
      auto cands = SearchConfigs(c, DefaultSearchAxes(), hw, params, &n);
      if (!cands.ok() && shape_changes.empty()) return cands.status();  // the anchor's own shape must search
      if (cands.ok()) {
        ++*shapes;
        *searched += n;
        for (auto& cand : *cands) {
          cand.changes.insert(shape_changes.begin(), shape_changes.end());
          out.push_back(std::move(cand));
        }
      }
    }
    if (!NextCombination(idx, [&](size_t a) { return axes[a].second.size(); })) break;
  }
  return out;
}

// A hillclimb figure whose full config is known (stored runs carry it; a
// recorded figure takes it from its entry's planned commands).
struct Known {
  const StoredRun* run;
  BenchConfig config;
  EvidenceKind kind;
};

struct KnownFigures {
  std::vector<Known> known, modeled;
  // The measured and recorded figures when there are any, else the modeled.
  std::vector<Known>& Pool() { return known.empty() ? modeled : known; }
};

KnownFigures CollectKnown(const Logbook& logbook, const std::vector<StoredRun>& runs, const std::string& metric) {
  KnownFigures out;
  std::map<std::string, std::vector<BenchConfig>> planned;  // entry ID -> its configs
  for (const auto& r : runs) {
    if (!IsHillclimb(r) || RunFigure(r, metric) <= 0) continue;
    const EvidenceKind k = EvidenceKindOf(r);
    std::optional<BenchConfig> cfg;
    if (k == EvidenceKind::kRecorded) {
      auto it = planned.find(r.entry_id);
      if (it == planned.end()) {
        std::vector<BenchConfig> cs;
        for (const auto& e : logbook.entries)
          if (e.id == r.entry_id || e.explicit_id == r.entry_id) cs = PlannedConfigs(logbook, e);
        it = planned.emplace(r.entry_id, std::move(cs)).first;
      }
      cfg = RecordedConfig(r, it->second);
    } else if (auto c = ConfigOfRun(r); c.ok() && c->TopkValues().size() == 1) {
      cfg = std::move(c).value();
    }
    if (!cfg) continue;
    (k == EvidenceKind::kModeled ? out.modeled : out.known).push_back({&r, std::move(*cfg), k});
  }
  return out;
}

// The anchor: the best figure of the entry asked for, else of the latest
// entry with such a figure.
const Known* FindAnchor(const Logbook& logbook, const std::vector<Known>& pool, const std::string& entry,
                        const std::string& metric) {
  const Known* anchor = nullptr;
  for (auto e = logbook.entries.rbegin(); e != logbook.entries.rend() && !anchor; ++e) {
    if (!entry.empty() && e->id != entry && e->explicit_id != entry) continue;
    for (const auto& k : pool)
      if ((k.run->entry_id == e->id || k.run->entry_id == e->explicit_id) &&
          (!anchor || RunFigure(*k.run, metric) > RunFigure(*anchor->run, metric)))
        anchor = &k;
  }
  return anchor;
}

// What the search needs of the model: the v5p hardware, the parameters and
// the anchor's routing.
struct ModelInputs {
  engine::v5p::Hardware hw;
  engine::v5p::ModelParams params;
  ShapeRouting shape;
};

Result<ModelInputs> LoadModelInputs(const std::string& params_name, const BenchConfig& anchor) {
  auto hw = engine::v5p::LoadHardwareByName("v5p");
  if (!hw.ok()) return hw.status();
  auto params = engine::v5p::LoadParamsByName(params_name);
  if (!params.ok()) return params.status();
  auto shape = RouteShape(anchor);
  if (!shape.ok()) return shape.status();
  return ModelInputs{std::move(hw).value(), std::move(params).value(), std::move(shape).value()};
}

// The best known at the shape, by its figure; *best_model is the model's
// best figure over the same configs.
const Known* BestAtShape(const std::vector<Known>& pool, const ModelInputs& m, NextReport* rep, double* best_model) {
  const Known* best = nullptr;
  *best_model = 0;
  for (const auto& k : pool) {
    if (ShapeText(k.config) != rep->shape) continue;
    if (!best || RunFigure(*k.run, rep->metric) > RunFigure(*best->run, rep->metric)) best = &k;
    Candidate p;
    if (k.config.Validate().ok() && PredictOne(k.config, m.shape, m.hw, m.params, &p)) {
      ++rep->compared;
      *best_model = std::max(*best_model, Figure(p, rep->metric));
    }
  }
  return best;
}

// Calibration (engine/v5p/uncertainty.h): the recorded figures on validated
// paths of the same harness revision (EP dispatch) teach a factor, shrunk
// toward 1; the model's figures are compared after it.
void Calibrate(const std::vector<Known>& known, const BenchConfig& anchor, const ModelInputs& m,
               const Result<engine::v5p::Uncertainty>& unc, NextReport* rep) {
  std::vector<engine::v5p::FactorSample> samples;
  std::map<std::string, ShapeRouting> routings;
  routings.emplace(rep->shape, m.shape);
  for (const auto& k : known) {
    if (k.kind != EvidenceKind::kRecorded || k.config.ep_dispatch != anchor.ep_dispatch ||
        !engine::v5p::UncalibratedPaths(PathConfig(k.config)).empty() || !k.config.Validate().ok())
      continue;
    const std::string sk = ShapeText(k.config) + " seed=" + std::to_string(k.config.seed);
    auto it = routings.find(sk == rep->shape + " seed=" + std::to_string(anchor.seed) ? rep->shape : sk);
    if (it == routings.end()) {
      if (routings.size() >= 16) continue;  // bounded: a few shapes teach the factor
      auto r = RouteShape(k.config);
      if (!r.ok()) continue;
      it = routings.emplace(sk, std::move(r).value()).first;
    }
    Candidate p;
    if (!PredictOne(k.config, it->second, m.hw, m.params, &p) || Figure(p, rep->metric) <= 0) continue;
    samples.push_back({k.run->entry_id, std::log(RunFigure(*k.run, rep->metric) / Figure(p, rep->metric))});
  }
  if (!unc.ok()) return;
  const auto f = engine::v5p::ShrunkFactor(samples, unc->prior);
  rep->factor = f.factor;
  rep->factor_figures = f.n;
  rep->factor_entries = f.entries;
  rep->bands = std::filesystem::path(unc->source).filename().string();
}

// The logbook's own history of the model off its fit: for each path config
// (PathConfig) the logbook measured or recorded, measured/modeled on its
// first figure (in the record's order), the model uncalibrated. A few
// shapes are routed (bounded like Calibrate).
std::vector<double> HistoryRatios(const std::vector<Known>& known, const ModelInputs& m, const NextReport& rep) {
  std::vector<double> out;
  std::set<std::string> seen;
  std::map<std::string, ShapeRouting> routings;
  routings.emplace(rep.shape + " seed=" + std::to_string(rep.anchor.seed), m.shape);
  for (const auto& k : known) {
    std::string label;
    for (const auto& [key, v] : PathConfig(k.config)) label += key + "=" + v + ";";
    if (!seen.insert(label).second || !k.config.Validate().ok()) continue;
    const std::string sk = ShapeText(k.config) + " seed=" + std::to_string(k.config.seed);
    auto it = routings.find(sk);
    if (it == routings.end()) {
      if (routings.size() >= 16) continue;
      auto r = RouteShape(k.config);
      if (!r.ok()) continue;
      it = routings.emplace(sk, std::move(r).value()).first;
    }
    Candidate p;
    if (!PredictOne(k.config, it->second, m.hw, m.params, &p) || Figure(p, rep.metric) <= 0) continue;
    out.push_back(RunFigure(*k.run, rep.metric) / Figure(p, rep.metric));
  }
  return out;
}

// An exploration's interval: the prior of the model's error on a path it
// was not fitted on (rep.prior), compounded per unvalidated key.
void WidePrior(const NextReport& rep, size_t keys, Proposal* p) {
  const auto [lo, hi] = CompoundPrior(rep.prior, keys);
  p->exploration = true;
  p->lo = p->predicted * lo;
  p->hi = p->predicted * hi;
  p->band = (hi - lo) / 2;
}

// The leave-one-path-out prior of the band file (else the validated rows'
// band, widened), before the logbook's history widens it.
PriorBand FilePrior(const Result<engine::v5p::Uncertainty>& unc) {
  engine::v5p::Uncertainty fallback;  // no band file: the built-in spread, widened
  fallback.all.lo = 0.9;
  fallback.all.hi = 1.1;
  const engine::v5p::ErrorBand b = engine::v5p::UnvalidatedPrior(unc.ok() ? *unc : fallback);
  return ExplorationPrior(b.lo, b.hi, {});
}

// A proposal of a judged candidate; a validated one gets its band and its
// expected improvement over the best known; an unvalidated one, the wide
// prior as its interval (exploration).
Proposal MakeProposal(const Candidate& c, const BenchConfig& config, const NextReport& rep, double best_model,
                      const Result<engine::v5p::Uncertainty>& unc, const std::map<std::string, std::string>& pc) {
  const double fig = Figure(c, rep.metric);
  Proposal p;
  p.candidate = c;
  p.config = config;
  p.uncalibrated = fig;
  p.predicted = fig * rep.factor;
  p.gain_pct = best_model > 0 ? (fig / best_model - 1) * 100 : 0;
  if (!c.unvalidated.empty()) {
    WidePrior(rep, c.unvalidated.size(), &p);
    const double mu = (p.lo + p.hi) / 2, sigma = (p.hi - p.lo) / 2 / 1.2816;
    p.expected_improvement = ExpectedImprovement(mu, sigma, rep.best_modeled);
    return p;
  }
  const engine::v5p::ErrorBand b = unc.ok() ? engine::v5p::BandFor(*unc, pc) : engine::v5p::ErrorBand{};
  if (b.validated) {
    p.band = (b.hi - b.lo) / 2;
    p.lo = p.predicted * b.lo;
    p.hi = p.predicted * b.hi;
  }
  // The band holds the 10th..90th percentiles: a normal with that spread.
  const double mu = p.band > 0 ? (p.lo + p.hi) / 2 : p.predicted;
  const double sigma = p.band > 0 ? (p.hi - p.lo) / 2 / 1.2816 : 0;
  p.expected_improvement = ExpectedImprovement(mu, sigma, rep.best_modeled);
  return p;
}

// Changes the model barely tells apart (a figure within this fraction) fold
// into the candidate without them.
constexpr double kFoldFraction = 0.005;

// The candidate with the fewest changes that keeps candidate i's figure
// (within kFoldFraction): each change whose removal the model does not
// distinguish is dropped, one at a time.
size_t Simplest(const std::vector<Candidate>& cands, const std::unordered_map<std::string, size_t>& index, size_t i,
                const std::string& metric) {
  const double floor = Figure(cands[i], metric) * (1 - kFoldFraction);
  size_t cur = i;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& kv : cands[cur].changes) {
      auto fewer = cands[cur].changes;
      fewer.erase(kv.first);
      auto it = index.find(ChangesText(fewer));
      if (it == index.end()) continue;
      const Candidate& sub = cands[it->second];
      if (sub.oom || sub.skips_work || Figure(sub, metric) < floor) continue;
      cur = it->second;
      changed = true;
      break;
    }
  }
  return cur;
}

// What judging the search's candidates shares: candidates by their changes,
// the unvalidated paths of each path config seen, those already judged.
struct Judge {
  std::unordered_map<std::string, size_t> index;  // changes -> candidate
  std::map<std::string, std::vector<std::string>> path_memo;
  std::set<size_t> done;
};

// Candidate i folded into its simplest equal (nullptr: nothing to judge,
// or judged already), with its config and its unvalidated paths set.
Candidate* JudgeOne(std::vector<Candidate>& cands, size_t i, const NextReport& rep, Judge& j, BenchConfig* config) {
  // A figure the harness inflates (int8_routed/int8_all forward_backward
  // skip the expert backward) is no improvement.
  if (cands[i].oom || cands[i].skips_work || cands[i].changes.empty()) return nullptr;
  const size_t simplest = Simplest(cands, j.index, i, rep.metric);
  if (!j.done.insert(simplest).second) return nullptr;
  Candidate& c = cands[simplest];
  if (c.changes.empty()) return nullptr;
  *config = rep.anchor;
  for (const auto& [k, v] : c.changes) SetKey(config, k, v);
  const auto pc = PathConfig(*config);
  std::string memo_key;
  for (const auto& [k, v] : pc) memo_key += k + "=" + v + ";";
  auto it = j.path_memo.find(memo_key);
  if (it == j.path_memo.end()) it = j.path_memo.emplace(memo_key, engine::v5p::UncalibratedPaths(pc)).first;
  c.unvalidated = it->second;
  return &c;
}

// Candidates are judged in figure order: the validated ones until enough
// are found (they then rank by expected improvement, whose band varies),
// one per figure; every unvalidated one is exploration (RankExploration
// orders and folds them).
void JudgePaths(std::vector<Candidate>* cands, const NextReport& rep, double best_model,
                const Result<engine::v5p::Uncertainty>& unc, size_t n, std::vector<Proposal>* val,
                std::vector<Proposal>* unval) {
  Judge j;
  for (size_t i = 0; i < cands->size(); ++i) j.index.emplace(ChangesText((*cands)[i].changes), i);
  std::vector<double> seen_val;  // figures already proposed: one proposal per figure
  for (size_t i = 0; i < cands->size(); ++i) {
    BenchConfig config;
    Candidate* c = JudgeOne(*cands, i, rep, j, &config);
    if (!c) continue;
    const double fig = Figure(*c, rep.metric);
    if (c->unvalidated.empty()) {
      if (val->size() >= 50 + n) continue;
      if (std::any_of(seen_val.begin(), seen_val.end(), [&](double f) { return SamePrediction(f, fig); })) continue;
      seen_val.push_back(fig);
    }
    (c->unvalidated.empty() ? val : unval)->push_back(MakeProposal(*c, config, rep, best_model, unc, PathConfig(config)));
  }
  *unval = RankExploration(std::move(*unval), rep.best_modeled, n);
}

// Keeps the validated proposals predicted above the best known, best
// expected improvement first; when none is, says why in rep->none_why.
void KeepGains(std::vector<Proposal>* val, NextReport* rep) {
  std::stable_sort(val->begin(), val->end(), [](const Proposal& a, const Proposal& b) {
    return a.expected_improvement > b.expected_improvement;
  });
  const bool any_gain = std::any_of(val->begin(), val->end(), [](const Proposal& p) { return p.gain_pct > 0; });
  if (any_gain) {
    val->erase(std::remove_if(val->begin(), val->end(), [](const Proposal& p) { return p.gain_pct <= 0; }),
               val->end());
    return;
  }
  std::ostringstream why;
  why << "no validated configuration of the " << rep->searched << " searched is predicted above the best known ("
      << Fmt(rep->best_modeled) << " " << MetricName(rep->metric) << " by the model)";
  if (!val->empty())
    why << "; the nearest, " << ChangesText((*val)[0].candidate.changes) << ", is " << Fmt((*val)[0].predicted);
  why << ": the keys researchers vary are exhausted at this shape by the model's figures; a gain needs another shape "
         "(the Scope holds it) or a path the calibration has not measured (below)";
  rep->none_why = why.str();
  val->clear();
}

}  // namespace

namespace {

// The search around the best known configuration at the anchor's shape
// (fills the model's part of the report). OK with rep->searched_model false
// when no run of the harness gives the model a start.
Status SearchAroundBest(const Logbook& logbook, const std::vector<StoredRun>& runs,
                        const std::vector<Criterion>& criteria, const NextOptions& options, KnownFigures& figures,
                        const Result<engine::v5p::Uncertainty>& unc, NextReport* out) {
  NextReport& rep = *out;
  const std::vector<Known>& pool = figures.Pool();
  if (pool.empty()) {
    if (!options.entry.empty())
      return Status::NotFound(logbook.file + ": entry " + options.entry + " has no hillclimb run with a figure");
    rep.none_why = "no run of the hillclimb harness with a " + MetricName(rep.metric) +
                   " figure and a known config for the model to start from";
    return Status::Ok();
  }
  const Known* anchor = FindAnchor(logbook, pool, options.entry, rep.metric);
  if (!anchor)
    return Status::NotFound(logbook.file + ": entry " + options.entry + " has no hillclimb run with a figure");
  rep.anchor_entry = anchor->run->entry_id;
  rep.shape = ShapeText(anchor->config);
  auto model = LoadModelInputs(options.params_name, anchor->config);
  if (!model.ok()) return model.status();
  double best_model = 0;
  const Known* best = BestAtShape(pool, *model, &rep, &best_model);
  Calibrate(figures.known, anchor->config, *model, unc, &rep);
  rep.searched_model = true;
  rep.best_run = best->run->id;
  rep.best_kind = EvidenceKindName(best->kind);
  rep.best_figure = RunFigure(*best->run, rep.metric);
  rep.best_modeled = best_model * rep.factor;
  rep.anchor = best->config;
  rep.prior = ExplorationPrior(rep.prior.lo, rep.prior.hi, HistoryRatios(figures.known, *model, rep));
  // The shape is held unless the Scope frees some of its keys: then each
  // value the Scope lists (else each the logbook's runs used) is a shape of
  // its own, searched with its own routing.
  std::vector<BenchConfig> tried_configs;
  for (const auto& k : pool) tried_configs.push_back(k.config);
  rep.freed = FreedValues(ScopeFreedShapeKeys(logbook), rep.anchor, tried_configs);
  const auto t0 = std::chrono::steady_clock::now();
  auto cands = SearchShapes(rep.anchor, rep.freed, model->hw, model->params, &rep.searched, &rep.shapes);
  rep.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!cands.ok()) return cands.status();
  // Best figure first; among equal figures, the fewest changes.
  std::sort(cands->begin(), cands->end(), [&](const Candidate& a, const Candidate& b) {
    const double fa = Figure(a, rep.metric), fb = Figure(b, rep.metric);
    if (!SamePrediction(fa, fb)) return fa > fb;
    return a.changes.size() < b.changes.size();
  });
  const size_t n = static_cast<size_t>(std::max(1, options.count));
  std::vector<Proposal> val, unval;
  JudgePaths(&*cands, rep, best_model, unc, n, &val, &unval);
  KeepGains(&val, &rep);
  if (val.size() > n) val.resize(n);
  if (unval.size() > n) unval.resize(n);
  for (auto* list : {&val, &unval})
    for (auto& p : *list) std::tie(p.serves, p.serves_line) = Serves(p.candidate, p.config, runs, criteria, logbook);
  rep.validated = std::move(val);
  rep.unvalidated = std::move(unval);
  return Status::Ok();
}

// The harness config a step's run stands for (its base run's known config
// with the step's changes), when the base is a run of the harness.
std::optional<BenchConfig> StepConfig(const Step& s, const KnownFigures& figures) {
  for (const auto* list : {&figures.known, &figures.modeled})
    for (const auto& k : *list) {
      if (k.run->id != s.base_run) continue;
      BenchConfig c = k.config;
      for (const auto& [key, v] : s.changes)
        if (!SetKey(&c, key, v)) return std::nullopt;
      if (!c.Validate().ok()) return std::nullopt;
      return c;
    }
  return std::nullopt;
}

// The criteria's steps as proposals, with the model's figure (and the
// path's band) where the step's config is the harness's.
std::vector<Proposal> CriteriaProposals(const std::vector<Step>& steps, const KnownFigures& figures,
                                        const NextOptions& options, const Result<engine::v5p::Uncertainty>& unc,
                                        const NextReport& rep) {
  std::vector<Proposal> out;
  std::optional<std::pair<engine::v5p::Hardware, engine::v5p::ModelParams>> model;
  for (const auto& s : steps) {
    Proposal p;
    p.step = s;
    p.candidate.changes = s.changes;
    p.serves = s.criterion;
    p.serves_line = s.line;
    p.figured = false;
    p.harness = false;
    if (auto c = StepConfig(s, figures)) {
      p.config = *c;
      p.harness = true;
      if (!model) {
        auto hw = engine::v5p::LoadHardwareByName("v5p");
        auto params = engine::v5p::LoadParamsByName(options.params_name);
        if (hw.ok() && params.ok()) model.emplace(std::move(hw).value(), std::move(params).value());
      }
      auto cand = model ? PredictConfig(*c, model->first, model->second) : Result<Candidate>(Status::NotFound(""));
      if (cand.ok() && !cand->oom && Figure(*cand, rep.metric) > 0) {
        cand->changes = s.changes;
        p = MakeProposal(*cand, *c, rep, rep.best_modeled / std::max(rep.factor, 1e-9), unc, PathConfig(*c));
        p.step = s;
        p.serves = s.criterion;
        p.serves_line = s.line;
        p.exploration = !cand->unvalidated.empty();
        if (p.exploration) WidePrior(rep, cand->unvalidated.size(), &p);
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

// A model proposal the criteria already propose (the same config) is left out.
void DropDuplicates(NextReport* rep) {
  auto same = [](const BenchConfig& a, const BenchConfig& b) {
    if (ShapeText(a) != ShapeText(b)) return false;
    for (const auto& ax : DefaultSearchAxes())
      if (GetKey(a, ax.key) != GetKey(b, ax.key)) return false;
    return true;
  };
  for (auto* list : {&rep->validated, &rep->unvalidated})
    list->erase(std::remove_if(list->begin(), list->end(),
                               [&](const Proposal& p) {
                                 return std::any_of(rep->criteria.begin(), rep->criteria.end(), [&](const Proposal& c) {
                                   return c.figured && same(c.config, p.config);
                                 });
                               }),
                list->end());
}

std::vector<Proposal> RecordProposals(const std::vector<StoredRun>& runs, size_t n, std::string* metric) {
  std::vector<Proposal> out;
  bool lower = false;
  *metric = RecordMetric(runs, &lower);
  for (auto& s : RecordSteps(runs, n)) {
    Proposal p;
    p.candidate.changes = s.changes;
    p.harness = false;
    p.figured = s.pairs > 0;
    p.predicted = s.estimate;
    p.lo = s.lo;
    p.hi = s.hi;
    p.exploration = true;
    p.step = std::move(s);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

Result<NextReport> ProposeNext(const Logbook& logbook, const std::vector<StoredRun>& runs,
                               const std::vector<Criterion>& criteria, const NextOptions& options) {
  NextReport rep;
  if (PrimaryMetric(logbook) == "tokens_per_s") rep.metric = "tokens_per_s";
  KnownFigures figures = CollectKnown(logbook, runs, rep.metric);
  const auto unc = engine::v5p::LoadUncertaintyByName("");
  rep.prior = FilePrior(unc);
  MOELOG_RETURN_IF_ERROR(SearchAroundBest(logbook, runs, criteria, options, figures, unc, &rep));
  const size_t n = static_cast<size_t>(std::max(1, options.count));
  rep.criteria = CriteriaProposals(CriteriaSteps(logbook, options.text, runs, criteria, n), figures, options, unc, rep);
  DropDuplicates(&rep);
  if (!rep.searched_model) rep.record = RecordProposals(runs, n, &rep.record_metric);
  return rep;
}

const Proposal* FirstProposal(const NextReport& r) {
  for (const auto* list : {&r.criteria, &r.validated, &r.unvalidated, &r.record})
    if (!list->empty()) return &list->front();
  return nullptr;
}

}  // namespace moelog::logbook
