// The harness's command line (bench_moe_hillclimb.py flags, plus moelog's
// own) as CLI11 options over an engine::BenchConfig: what `moelog bench`
// parses and what the planner reads harness invocations with.
#include "logbook/plan/bench_args.h"

#include <algorithm>

#include <CLI/CLI.hpp>

namespace moelog::logbook {
namespace {

void AddOptions(CLI::App& app, engine::BenchConfig& c) {
  // A flag given twice takes its last value, as the harness's argparse does.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto choice = [](std::initializer_list<std::string> v) { return CLI::IsMember(std::vector<std::string>(v)); };
  // First: moelog adds it to every invocation it plans, and CLI11 looks
  // options up in the order they were added.
  app.add_option("--target", c.target, "engine backend: cpu (measured) or v5p (modeled)")
      ->check(choice({"cpu", "v5p"}))->capture_default_str();
  app.add_option("--tokens", c.tokens, "T, tokens in the whole batch")->capture_default_str();
  app.add_option("--hidden", c.hidden, "H, model width")->capture_default_str();
  app.add_option("--mlp-dim", c.mlp_dim, "M, routed expert intermediate width")->capture_default_str();
  app.add_option("--experts", c.experts, "E, routed experts")->capture_default_str();
  app.add_option("--topk", c.topk, "K, experts per token")->capture_default_str();
  app.add_option("--topk-list", c.topk_list, "comma list of K values (replaces --topk)");
  app.add_option("--shared-expert-dim", c.shared_expert_dim, "S, shared expert width (0: none)")->capture_default_str();
  app.add_flag("--shared-fused", c.shared_fused, "shared gate/up as one [H,2S] matmul");
  app.add_option("--dtype", c.dtype, "float32 | bfloat16")->check(choice({"float32", "bfloat16"}))->capture_default_str();
  app.add_option("--backend", c.backend, "grouped matmul")->check(choice({"gmm", "ragged_dot"}))->capture_default_str();
  app.add_option("--impl", c.impl, "expert MLP and combine variant")
      ->check(choice({"baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter", "fast", "both"}))
      ->capture_default_str();
  app.add_option("--distribution", c.distribution, "router logits")->check(choice({"random", "runs", "both"}))->capture_default_str();
  app.add_option("--bench-pass", c.bench_pass, "")->check(choice({"forward", "forward_backward"}))->capture_default_str();
  app.add_option("--queue-mode", c.queue_mode, "packing inside (full) or outside (prequeue) the timed region")
      ->check(choice({"full", "prequeue", "both"}))->capture_default_str();
  app.add_option("--routing-pack-strategy", c.routing_pack_strategy, "")
      ->check(choice({"argsort", "tuple_sort", "expert_score_sort"}))->capture_default_str();
  app.add_option("--remat-mode", c.remat_mode, "")->check(choice({"none", "expert_mlp", "combine"}))->capture_default_str();
  app.add_flag("--stage-timing", c.stage_timing, "also time pack/up/down/combine");
  app.add_option("--capacity-factor", c.capacity_factor, "")->capture_default_str();
  app.add_option("--capacity-policy", c.capacity_policy, "")->check(choice({"none", "drop", "pad"}))->capture_default_str();
  app.add_option("--run-alpha", c.run_alpha, "stickiness of the runs distribution")->capture_default_str();
  app.add_option("--run-noise-scale", c.run_noise_scale, "")->capture_default_str();
  app.add_option("--iters", c.iters, "timed iterations")->capture_default_str();
  app.add_option("--warmup", c.warmup, "untimed iterations after the first call")->capture_default_str();
  app.add_option("--seed", c.seed, "")->capture_default_str();
  app.add_option("--parallel-mode", c.parallel_mode, "")->check(choice({"none", "ep", "dp"}))->capture_default_str();
  app.add_option("--ep-comm-path", c.ep_comm_path, "")->check(choice({"compact_psum", "ring_ag_rs", "a2a"}))->capture_default_str();
  app.add_option("--ep-dispatch", c.ep_dispatch, "")->check(choice({"compact", "dense_masked"}))->capture_default_str();
  app.add_option("--dispatch-permute-mode", c.dispatch_permute_mode, "")
      ->check(choice({"direct_take", "repeat_sort"}))->capture_default_str();
  app.add_flag("--use-custom-sort-vjp", c.use_custom_sort_vjp, "");
  app.add_option("--trace-dir", c.trace_dir, "accepted for compatibility; moelog writes no profiler traces");
  app.add_option("--devices", c.devices, "devices for ep/dp (cpu target)")->capture_default_str();
  app.add_option("--mesh", c.mesh, "data=A,expert=B");
  app.add_option("--mlp-path", c.mlp_path, "the layer as bench_moe_mlp_profile.py runs it: ref_dp, staged_dp (dp), fused_ep (ep)")
      ->check(choice({"ref_dp", "staged_dp", "fused_ep"}));
  app.add_flag("--staged-parallel", c.staged_parallel, "staged_dp: overlap its stages");
  app.add_option("--xla-scoped-vmem-kib", c.xla_scoped_vmem_kib,
                 "v5p target: XLA's scoped VMEM limit (LIBTPU_INIT_ARGS --xla_tpu_scoped_vmem_limit_kib; 0: default)")
      ->capture_default_str();
  app.add_option("--quant-mode", c.quant_mode, "")
      ->check(choice({"none", "int8", "int8_routed", "int8_all", "int8_routed_prequant"}))->capture_default_str();
  app.add_option("--null-route-frac", c.null_route_frac, "")->capture_default_str();
  app.add_option("--null-route-frac-list", c.null_route_frac_list, "");
  app.add_flag("--null-route-sweep", c.null_route_sweep, "fractions 0.1..0.9");
  app.add_option("--null-experts", c.null_experts, "")->capture_default_str();
  app.add_option("--null-route-seed", c.null_route_seed, "")->capture_default_str();
  app.add_flag("--renormalize-real-after-null", c.renormalize_real_after_null, "");
  app.add_option("--null-routing-mode", c.null_routing_mode, "")
      ->check(choice({"independent", "take_until_null"}))->capture_default_str();
  app.add_flag("--json", c.json, "print one JSON document with every figure");
  app.add_flag("--check-numerics", c.check_numerics, "compare with the double-precision reference");
  app.add_option("--threads", c.threads, "CPU threads (0: all cores)")->capture_default_str();
  app.add_option("--hardware", c.hardware, "v5p target: hardware file (name in data/ or path)")->capture_default_str();
  app.add_option("--model-params", c.model_params, "v5p target: fitted parameter file");
}

// Building the CLI11 parser costs about a millisecond; planning a large
// logbook parses thousands of command lines, so each thread keeps one parser
// bound to a scratch config and resets both before every parse.
struct BenchParser {
  engine::BenchConfig scratch;
  CLI::App app{"moelog bench: run one MoE layer benchmark (hillclimb harness flags)", "moelog bench"};
  BenchParser() { AddOptions(app, scratch); }
};

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// "unknown flag --topk-lst (did you mean --topk-list?)" for each flag of
// `args` the parser does not know; "" when every flag is known.
std::string UnknownFlags(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> known;
  for (const CLI::Option* o : app.get_options())
    for (const auto& n : o->get_lnames()) known.push_back(n);
  std::string out;
  for (const auto& a : args) {
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) continue;
    const std::string name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string best;
    size_t best_d = 4;  // suggest only close names
    for (const auto& k : known)
      if (size_t d = EditDistance(name, k); d < best_d) best_d = d, best = k;
    out += (out.empty() ? "" : "; ") + std::string("unknown flag --") + name +
           (best.empty() ? "" : " (did you mean --" + best + "?)");
  }
  return out;
}

}  // namespace

Result<engine::BenchConfig> ParseBenchFlags(const std::vector<std::string>& args) {
  thread_local BenchParser parser;
  parser.scratch = engine::BenchConfig();
  parser.app.clear();
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    parser.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return Status::NotFound(parser.app.help());
  } catch (const CLI::ParseError& e) {
    const std::string unknown = UnknownFlags(parser.app, args);
    return Status::InvalidArgument(unknown.empty() ? std::string(e.what()) : unknown);
  }
  return parser.scratch;
}

Result<engine::BenchConfig> ParseBenchArgs(const std::vector<std::string>& args) {
  auto c = ParseBenchFlags(args);
  if (!c.ok()) return c.status();
  MOELOG_RETURN_IF_ERROR(c->Validate());
  return c;
}

const std::vector<std::string>& BenchFlagNames() {
  static const std::vector<std::string> names = [] {
    engine::BenchConfig c;
    CLI::App app;
    AddOptions(app, c);
    std::vector<std::string> v;
    for (const CLI::Option* o : app.get_options())
      for (const auto& n : o->get_lnames()) v.push_back("--" + n);
    return v;
  }();
  return names;
}

std::string BenchHelp() {
  engine::BenchConfig c;
  CLI::App app("moelog bench: run one MoE layer benchmark (hillclimb harness flags)", "moelog bench");
  AddOptions(app, c);
  return app.help();
}

}  // namespace moelog::logbook
