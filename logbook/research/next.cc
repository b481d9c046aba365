#include "logbook/research/next.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

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
namespace {

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

// ------------------------------------------------------- the Scope's word ---

// Lower case, dashes/underscores/backticks as spaces: "Top-K" -> "top k".
std::string ScopeWords(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const unsigned char u = static_cast<unsigned char>(ch);
    out += (ch == '-' || ch == '_' || ch == '`') ? ' ' : static_cast<char>(std::tolower(u));
  }
  return out;
}

bool WordAt(const std::string& s, size_t at, size_t len) {
  const auto alnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  return (at == 0 || !alnum(s[at - 1])) && (at + len >= s.size() || !alnum(s[at + len]));
}

// Whether the bullet says something may vary (and does not deny it).
bool SaysMayVary(const std::string& w) {
  for (const char* no : {"may not vary", "must not vary", "cannot vary", "can not vary", "can't vary", "never vary",
                         "never varies", "does not vary", "do not vary", "not free"})
    if (w.find(no) != std::string::npos) return false;
  for (const char* yes : {"may vary", "can vary", "free to vary", "is free", "are free", "may change", "what varies",
                          "varies:", "vary:", "free:", "varied:", "may be varied", "can be varied", "search space"})
    if (w.find(yes) != std::string::npos) return true;
  return false;
}

// The shape key a word names at `at` (and its length), or "".
std::string ShapeKeyAt(const std::string& w, size_t at, size_t* len) {
  static const std::vector<std::pair<std::string, std::string>> kWords = {
      {"shared expert dim", "shared_expert_dim"}, {"shared expert", "shared_expert_dim"},
      {"shared", "shared_expert_dim"},            {"top k", "topk"},
      {"topk", "topk"},                           {"experts per token", "topk"},
      {"number of experts", "experts"},           {"expert count", "experts"},
      {"experts", "experts"},                     {"mlp dim", "mlp_dim"},
      {"mlpdim", "mlp_dim"},                      {"intermediate", "mlp_dim"},
      {"mlp", "mlp_dim"},                         {"hidden", "hidden"},
      {"tokens", "tokens"},                       {"token count", "tokens"},
      {"bench pass", "bench_pass"},               {"pass mode", "bench_pass"},
      {"pass", "bench_pass"},                     {"distribution", "distribution"},
      {"dtype", "dtype"},                         {"precision", "dtype"},
      {"shape", "shape"}};
  for (const auto& [word, key] : kWords) {
    if (w.compare(at, word.size(), word) != 0 || !WordAt(w, at, word.size())) continue;
    if (key == "tokens" && w.compare(at + word.size(), 2, "/s") == 0) return "";  // a metric
    *len = word.size();
    return key;
  }
  return "";
}

// The values listed right after a key's word ("topk in {2,4,8}", "(2, 4)",
// "= 2048"): numbers, or the words a non-numeric key takes.
std::vector<std::string> ValuesAfter(const std::string& w, size_t at, const std::string& key) {
  size_t i = at;
  const size_t stop = std::min(w.size(), at + 80);  // bounded: the values sit right after the word
  auto skip = [&] {
    while (i < stop && (w[i] == ' ' || w[i] == '=' || w[i] == '{' || w[i] == '(' || w[i] == ':' || w[i] == '[')) ++i;
  };
  skip();
  if (w.compare(i, 3, "in ") == 0) i += 3;
  skip();
  std::vector<std::string> out;
  const bool numeric = key != "distribution" && key != "bench_pass" && key != "dtype";
  while (i < stop) {
    size_t e = i;
    while (e < stop && (std::isalnum(static_cast<unsigned char>(w[e])) || w[e] == '.')) ++e;
    if (e == i) break;
    std::string v = w.substr(i, e - i);
    const bool number = std::all_of(v.begin(), v.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    if (numeric ? !number : !(v == "random" || v == "runs" || v == "forward" || v == "float32" || v == "bfloat16"))
      break;
    // "forward backward" is one pass.
    if (v == "forward" && w.compare(e, 9, " backward") == 0) {
      v = "forward_backward";
      e += 9;
    }
    out.push_back(v);
    i = e;
    while (i < stop && (w[i] == ',' || w[i] == ' ' || w[i] == '/')) ++i;
    if (w.compare(i, 4, "and ") == 0) i += 4;
    else if (w.compare(i, 3, "or ") == 0) i += 3;
  }
  return out;
}

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

std::string MetricName(const std::string& metric) { return metric == "tokens_per_s" ? "tokens/s" : "TF/s"; }

std::string Fmt(double v) { return Fixed(v, v >= 1e4 ? 0 : 1); }

std::string ChangesText(const std::map<std::string, std::string>& changes) {
  std::string s;
  for (const auto& [k, v] : changes) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s.empty() ? "no change" : s;
}

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

std::map<std::string, std::vector<std::string>> ScopeFreedShapeKeys(const Logbook& logbook) {
  std::map<std::string, std::vector<std::string>> out;
  const Section* scope = logbook.FindSection(SectionKind::kScope);
  if (!scope) return out;
  for (const auto& b : scope->bullets) {
    const std::string w = ScopeWords(b.text.substr(0, 2000));  // bounded
    if (!SaysMayVary(w)) continue;
    // What follows "except", "but" or "other than" stays held.
    size_t held_from = w.size();
    for (const char* cut : {" except ", " but ", " other than "})
      held_from = std::min(held_from, w.find(cut) == std::string::npos ? w.size() : w.find(cut));
    std::map<std::string, std::vector<std::string>> named;
    std::set<std::string> held;
    for (size_t i = 0; i < w.size(); ++i) {
      size_t len = 0;
      const std::string key = ShapeKeyAt(w, i, &len);
      if (key.empty()) continue;
      const std::vector<std::string> keys =
          key == "shape" ? ShapeKeys() : std::vector<std::string>{key};
      const auto values = key == "shape" ? std::vector<std::string>{} : ValuesAfter(w, i + len, key);
      for (const auto& k : keys) {
        if (i >= held_from) {
          held.insert(k);
        } else {
          auto& v = named[k];
          for (const auto& x : values)
            if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
        }
      }
      i += len - 1;
    }
    for (auto& [k, v] : named)
      if (!held.count(k)) {
        auto& into = out[k];
        for (const auto& x : v)
          if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
      }
  }
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

// A proposal of a judged candidate; a validated one gets its band and its
// expected improvement over the best known.
Proposal MakeProposal(const Candidate& c, const BenchConfig& config, const NextReport& rep, double best_model,
                      const Result<engine::v5p::Uncertainty>& unc, const std::map<std::string, std::string>& pc) {
  const double fig = Figure(c, rep.metric);
  Proposal p;
  p.candidate = c;
  p.config = config;
  p.uncalibrated = fig;
  p.predicted = fig * rep.factor;
  p.gain_pct = best_model > 0 ? (fig / best_model - 1) * 100 : 0;
  if (!c.unvalidated.empty()) return p;
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

// Paths are judged in figure order until enough of each kind are found
// (validated ones then rank by expected improvement, whose band varies).
void JudgePaths(std::vector<Candidate>* cands, const NextReport& rep, double best_model,
                const Result<engine::v5p::Uncertainty>& unc, size_t n, std::vector<Proposal>* val,
                std::vector<Proposal>* unval) {
  std::map<std::string, std::vector<std::string>> path_memo;
  std::vector<double> seen_val;      // figures already proposed: one proposal per figure
  std::set<std::string> seen_paths;  // unvalidated path sets already proposed
  for (size_t i = 0; i < cands->size() && (val->size() < 50 + n || unval->size() < n); ++i) {
    Candidate& c = (*cands)[i];
    // A figure the harness inflates (int8_routed/int8_all forward_backward
    // skip the expert backward) is no improvement.
    if (c.oom || c.skips_work || c.changes.empty()) continue;
    BenchConfig config = rep.anchor;
    for (const auto& [k, v] : c.changes) SetKey(&config, k, v);
    const auto pc = PathConfig(config);
    std::string memo_key;
    for (const auto& [k, v] : pc) memo_key += k + "=" + v + ";";
    auto it = path_memo.find(memo_key);
    if (it == path_memo.end()) it = path_memo.emplace(memo_key, engine::v5p::UncalibratedPaths(pc)).first;
    c.unvalidated = it->second;
    const double fig = Figure(c, rep.metric);
    if (c.unvalidated.empty()) {
      if (std::any_of(seen_val.begin(), seen_val.end(), [&](double f) { return SamePrediction(f, fig); })) continue;
      seen_val.push_back(fig);
    } else {
      // One proposal per set of unmeasured paths: the best of each.
      std::string sig;
      for (const auto& u : c.unvalidated) sig += u + ";";
      if (!seen_paths.insert(sig).second) continue;
    }
    (c.unvalidated.empty() ? val : unval)->push_back(MakeProposal(c, config, rep, best_model, unc, pc));
  }
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

Result<NextReport> ProposeNext(const Logbook& logbook, const std::vector<StoredRun>& runs,
                               const std::vector<Criterion>& criteria, const NextOptions& options) {
  NextReport rep;
  if (PrimaryMetric(logbook) == "tokens_per_s") rep.metric = "tokens_per_s";
  KnownFigures figures = CollectKnown(logbook, runs, rep.metric);
  const std::vector<Known>& pool = figures.Pool();
  if (pool.empty())
    return Status::NotFound(logbook.file + ": no run of the hillclimb harness with a " + MetricName(rep.metric) +
                            " figure and a known config to start from (run `moelog update` first, or record a Result)");
  const Known* anchor = FindAnchor(logbook, pool, options.entry, rep.metric);
  if (!anchor)
    return Status::NotFound(logbook.file + ": entry " + options.entry + " has no hillclimb run with a figure");
  rep.anchor_entry = anchor->run->entry_id;
  rep.shape = ShapeText(anchor->config);
  auto model = LoadModelInputs(options.params_name, anchor->config);
  if (!model.ok()) return model.status();
  double best_model = 0;
  const Known* best = BestAtShape(pool, *model, &rep, &best_model);
  auto unc = engine::v5p::LoadUncertaintyByName("");
  Calibrate(figures.known, anchor->config, *model, unc, &rep);
  rep.best_run = best->run->id;
  rep.best_kind = EvidenceKindName(best->kind);
  rep.best_figure = RunFigure(*best->run, rep.metric);
  rep.best_modeled = best_model * rep.factor;
  rep.anchor = best->config;
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
  return rep;
}

std::string FormatNextReport(const NextReport& r) {
  std::ostringstream s;
  const std::string unit = MetricName(r.metric);
  s << "shape: " << r.shape << " (entry " << r.anchor_entry << ")";
  if (r.freed.empty()) {
    s << "; held (the Scope frees no shape key)\n";
  } else {
    s << "; the Scope frees";
    for (const auto& [k, v] : r.freed) {
      s << " " << k << " {";
      for (size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i];
      s << "}";
    }
    s << ": " << r.shapes << " shapes searched\n";
  }
  s << "best so far: " << Fmt(r.best_figure) << " " << unit << " " << r.best_kind << " (run " << r.best_run
    << "); the model's best of the " << r.compared << " known configurations at this shape: " << Fmt(r.best_modeled)
    << " " << unit << "\n";
  s << "searched " << r.searched << " configurations in " << FormatValue(std::round(r.search_s * 1e4) / 1e4)
    << " s (v5p model";
  if (r.factor_figures > 0)
    s << ", calibrated on " << r.factor_figures << " recorded figures of " << r.factor_entries << " entries: x"
      << Fixed(r.factor, 3);
  else
    s << ", uncalibrated (no recorded figure on a validated path)";
  s << "; interval: " << (r.bands.empty() ? std::string("none (no band file)") : "the path's p10-p90 band, " + r.bands)
    << ")\n";
  if (r.validated.empty()) s << "\nno proposal: " << r.none_why << "\n";
  int i = 0;
  for (const auto& p : r.validated) {
    s << "\n" << ++i << ". " << ChangesText(p.candidate.changes) << "\n";
    s << "   predicted " << Fmt(p.predicted) << " " << unit;
    if (p.band > 0) s << " [" << Fmt(p.lo) << ", " << Fmt(p.hi) << "]";
    else s << " (no band: no interval)";
    if (r.factor != 1) s << " (model " << Fmt(p.uncalibrated) << ")";
    s << ", " << (p.gain_pct >= 0 ? "+" : "") << FormatValue(std::round(p.gain_pct * 100) / 100)
      << "% over the best; expected improvement " << Fmt(p.expected_improvement) << " " << unit << "\n";
    s << "   dominant term: " << p.candidate.dominant << "\n";
    s << "   serves: " << (p.serves.empty() ? "no unmet criterion" : p.serves) << "\n";
    s << "   path: validated\n";
  }
  if (!r.unvalidated.empty()) {
    s << "\nunvalidated paths (no calibration row took them: no interval), by predicted gain:\n";
    for (const auto& p : r.unvalidated) {
      s << "  - " << ChangesText(p.candidate.changes) << ": " << Fmt(p.predicted) << " " << unit << " ("
        << (p.gain_pct >= 0 ? "+" : "") << FormatValue(std::round(p.gain_pct * 100) / 100) << "%), dominant "
        << p.candidate.dominant << "; unvalidated: ";
      for (size_t k = 0; k < p.candidate.unvalidated.size(); ++k) s << (k ? ", " : "") << p.candidate.unvalidated[k];
      if (!p.serves.empty()) s << "; serves: " << p.serves;
      s << "\n";
    }
  }
  return s.str();
}

// ------------------------------------------------------------ the entry ---

namespace {

// The latest command of the logbook that runs the harness, and its entry.
const CommandText* LatestHarnessCommand(const Logbook& logbook, const Entry** entry) {
  for (auto e = logbook.entries.rbegin(); e != logbook.entries.rend(); ++e)
    for (auto c = e->commands.rbegin(); c != e->commands.rend(); ++c)
      if (c->joined.find("bench_moe_hillclimb.py") != std::string::npos) {
        *entry = &*e;
        return &*c;
      }
  return nullptr;
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

// The harness's arguments for `c`: the original invocation's flags with
// their values set to c's (loop variables resolved), then changed keys the
// original did not name.
std::string ProposalArgs(const std::string& original, const BenchConfig& c,
                         const std::map<std::string, std::string>& changes) {
  std::vector<std::string> words = SplitWords(original), out;
  std::set<std::string> named;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0) {
      out.push_back(w);
      continue;
    }
    std::string key = w.substr(2);
    std::string inline_value;
    if (size_t eq = key.find('='); eq != std::string::npos) {
      inline_value = key.substr(eq + 1);
      key = key.substr(0, eq);
    }
    std::replace(key.begin(), key.end(), '-', '_');
    const std::string v = GetKey(c, key);
    named.insert(key);
    if (v.empty()) {
      out.push_back(w);
      continue;
    }
    if (v == "true" || v == "false") {  // a switch
      if (v == "true") out.push_back(w);
      continue;
    }
    out.push_back("--" + w.substr(2, w.find('=') == std::string::npos ? std::string::npos : w.find('=') - 2));
    out.push_back(v);
    if (inline_value.empty() && i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0) ++i;
  }
  for (const auto& [k, v] : changes) {
    if (named.count(k)) continue;
    std::string flag = "--" + k;
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (v == "true") out.push_back(flag);
    else if (v != "false") {
      out.push_back(flag);
      out.push_back(v);
    }
  }
  std::string s;
  for (const auto& w : out) s += (s.empty() ? "" : " ") + w;
  return s;
}

// The command in the form of `cmd`: the same launcher and harness program,
// the proposal's flags, and no loop around it.
std::string CommandInFormOf(const std::string& cmd, const BenchConfig& c,
                            const std::map<std::string, std::string>& changes) {
  const std::string script = "bench_moe_hillclimb.py";
  const size_t p = cmd.find(script);
  const size_t args_begin = p + script.size();
  size_t e = cmd.find_first_of(";'\"&|", args_begin);
  // A quoted loop variable ("$tk") is part of the arguments.
  while (e != std::string::npos && cmd[e] == '"' && e + 1 < cmd.size() && cmd[e + 1] == '$') {
    const size_t close = cmd.find('"', e + 1);
    if (close == std::string::npos) break;
    e = cmd.find_first_of(";'\"&|", close + 1);
  }
  if (e == std::string::npos) e = cmd.size();
  // The harness's simple command starts after the last separator before it.
  size_t s = 0;
  for (size_t i = p; i-- > 0;) {
    const char ch = cmd[i];
    if (ch == ';' || ch == '\'' || ch == '&' || ch == '|') { s = i + 1; break; }
    const bool word_start = i == 0 || cmd[i - 1] == ' ';
    if (word_start && cmd.compare(i, 3, "do ") == 0) { s = i + 3; break; }
    if (word_start && cmd.compare(i, 3, "-- ") == 0) { s = i + 3; break; }
  }
  while (s < p && cmd[s] == ' ') ++s;
  std::string head = cmd.substr(0, s), tail = cmd.substr(e);
  const std::string prog = cmd.substr(s, args_begin - s);
  const std::string args = ProposalArgs(cmd.substr(args_begin, e - args_begin), c, changes);
  // A loop in a quoted shell script: keep the script's quotes, drop the loop.
  const size_t q = head.find('\'');
  if (q != std::string::npos && head.find("for ", q) != std::string::npos) {
    const bool strict = head.find("set -euo pipefail", q) != std::string::npos;
    head = head.substr(0, q + 1) + (strict ? "set -euo pipefail; " : "");
    const size_t close = tail.find('\'');
    tail = close == std::string::npos ? "" : tail.substr(close);
  }
  return head + prog + " " + args + tail;
}

// The next explicit ID in the logbook's series ("MOE-I8-004"), or "" when its
// entries carry none (moelog derives one from the date).
std::string NextExplicitId(const Logbook& logbook) {
  std::string best_prefix;
  long best = -1;
  size_t width = 0;
  for (const auto& e : logbook.entries) {
    const std::string& id = e.explicit_id;
    if (id.empty()) continue;
    size_t d = id.size();
    while (d > 0 && std::isdigit(static_cast<unsigned char>(id[d - 1]))) --d;
    if (d == id.size()) continue;
    const std::string prefix = id.substr(0, d);
    if (!logbook.id_prefix.empty() && prefix != logbook.id_prefix + "-") continue;
    const long n = std::atol(id.c_str() + d);
    if (n > best) {
      best = n;
      best_prefix = prefix;
      width = id.size() - d;
    }
  }
  if (best < 0) return "";
  std::string num = std::to_string(best + 1);
  while (num.size() < width) num = "0" + num;
  return best_prefix + num;
}

}  // namespace

Result<std::string> AppendProposalEntry(const Logbook& logbook, std::string_view text, const NextReport& report,
                                        const std::string& now, std::string* new_id) {
  if (report.validated.empty())
    return Status::NotFound(logbook.file + ": nothing to append: " +
                            (report.none_why.empty() ? std::string("no proposal") : report.none_why));
  const Entry* latest = nullptr;
  const CommandText* cmd = LatestHarnessCommand(logbook, &latest);
  if (!cmd)
    return Status::NotFound(logbook.file + ": no command runs bench_moe_hillclimb.py: no form to write the proposal in");
  const Proposal& p = report.validated[0];
  const std::string unit = MetricName(report.metric);
  const std::string id = NextExplicitId(logbook);
  if (new_id) *new_id = id;
  const auto lines = SplitLines(text);
  const bool sub_bullet = cmd->line >= 1 && static_cast<size_t>(cmd->line) <= lines.size() &&
                          lines[static_cast<size_t>(cmd->line) - 1].find("- Command") == std::string_view::npos;
  std::ostringstream e;
  e << "### " << now << " - " << (id.empty() ? "" : id + " ") << "Next: " << ChangesText(p.candidate.changes)
    << (latest->confidence.empty() ? "" : " (confidence: exploratory)") << "\n";
  e << "- Hypothesis: the v5p model predicts " << Fmt(p.predicted) << " " << unit;
  if (p.band > 0) e << " [" << Fmt(p.lo) << ", " << Fmt(p.hi) << "]";
  e << " with " << ChangesText(p.candidate.changes) << ", " << (p.gain_pct >= 0 ? "+" : "")
    << FormatValue(std::round(p.gain_pct * 100) / 100) << "% over the best known configuration at this shape ("
    << Fmt(report.best_figure) << " " << unit << " " << report.best_kind << ", " << Fmt(report.best_modeled)
    << " by the model); dominant term: " << p.candidate.dominant << ".\n";
  const std::string command = CommandInFormOf(cmd->joined, p.config, p.candidate.changes);
  if (sub_bullet) e << "- Command:\n  - `" << command << "`\n";
  else e << "- Command: `" << command << "`\n";
  e << "- Config:\n  - shape: " << ShapeText(p.config) << "\n  - changed from the best known configuration (run "
    << report.best_run << "): " << ChangesText(p.candidate.changes) << "\n";
  if (!p.serves.empty()) e << "  - serves: " << p.serves << "\n";
  e << "- Result: pending\n";
  e << "- Next action: run it (`moelog update`) and compare with the prediction.\n";
  // After the last entry (or at the end), with one blank line before.
  int after = logbook.entries.empty() ? static_cast<int>(lines.size()) : logbook.entries.back().end_line;
  std::string out;
  int line = 1;
  size_t pos = 0;
  bool placed = false;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.append(text.substr(pos, end - pos));
    if (line == after) {
      if (nl == std::string_view::npos) out += '\n';
      out += "\n" + e.str();
      const bool next_blank = end < text.size() && text[end] == '\n';
      if (end < text.size() && !next_blank) out += "\n";
      placed = true;
    }
    pos = end;
    ++line;
  }
  if (!placed) {
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "\n" + e.str();
  }
  return out;
}

}  // namespace moelog::logbook
