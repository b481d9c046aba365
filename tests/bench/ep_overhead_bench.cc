// ep_overhead_bench: the cost of simulated-device expert/data parallelism in
// one process against --parallel-mode none at equal total work, with the
// communication excluded (BENCHMARKS.md, expert parallelism on the cpu
// target).
//
// Every configuration is set up once (dispatch plan, device buffers,
// prepacked weights: untimed). Then each round runs, for every variant, one
// step of `none` immediately followed by one step of the variant, so the two
// see the same machine state (the AMX rate of this machine changes every few
// seconds, and other jobs share the cores). A variant's step is split by the
// engine itself (parallel::SimSession::Step):
//   total       the step's wall time;
//   collective  time inside the collectives (all-reduce, all-gather,
//               reduce-scatter, all-to-all-v: the copies between the devices'
//               buffers, bf16 wire rounding, reductions);
//   comm        the communication blocks: collectives plus packing the
//               device tensors into the f32 staging buffers, unpacking them
//               after, and (a2a) adding the returned rows into the shard;
//   compute     total - comm: everything the devices compute (gather, expert
//               MLP, combine, output cast, shared expert, backward).
// Reported per variant, as ratios to the paired `none` step:
//   compute/none   best (ratio of the minima) and median of per-round ratios
//   (total-collective)/none  the same with only the collectives excluded
//   total/none     median, communication included
// Variants: ep:compact_psum, ep:ring_ag_rs, ep:a2a, dp (--only to select).
// Defaults: T=8192 H=512 M=512 E=16 K=2, bf16, impl fast (EP always combines
// by scatter-add, docs/harness.md §2.5, so `none` runs the same combine), 4 devices,
// forward; --pass forward_backward for the training step.
// Speed is never asserted: this program only measures and prints.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <omp.h>

#include "engine/bench_config.h"
#include "engine/cpu/moe_block.h"
#include "engine/parallel/parallel_runner.h"
#include "engine/routing.h"
#include "tests/bench/bench_flags.h"
#include "tests/bench/bench_timing.h"

namespace moelog::engine {
namespace {

using ::moelog::bench::Median;
using ::moelog::bench::Min;

struct Options {
  int64_t tokens = 8192, hidden = 512, mlp_dim = 512, experts = 16, topk = 2, shared = 0;
  int64_t devices = 4, rounds = 15, warmup = 2, seed = 0, threads = 0;
  std::string impl = "fast", pass = "forward", distribution = "random";
  std::set<std::string> only;
};

int Usage(const char* msg) {
  std::fprintf(stderr,
               "ep_overhead_bench: %s\nusage: ep_overhead_bench [--tokens N] [--hidden N] [--mlp-dim N] "
               "[--experts N] [--topk N] [--shared-expert-dim N] [--devices N] [--rounds N] [--warmup N] "
               "[--seed N] [--threads N] [--impl NAME] [--pass forward|forward_backward] "
               "[--distribution random|runs] [--only ep:compact_psum,ep:ring_ag_rs,ep:a2a,dp]\n",
               msg);
  return 2;
}

bool ParseArgs(int argc, char** argv, Options* o, std::string* err) {
  moelog::bench::FlagTable t;
  t.ints = {{"--tokens", {&o->tokens, 1}},  {"--hidden", {&o->hidden, 1}},   {"--mlp-dim", {&o->mlp_dim, 1}},
            {"--experts", {&o->experts, 1}}, {"--topk", {&o->topk, 1}},       {"--shared-expert-dim", {&o->shared, 0}},
            {"--devices", {&o->devices, 1}}, {"--rounds", {&o->rounds, 1}},   {"--warmup", {&o->warmup, 0}},
            {"--seed", {&o->seed, 0}},       {"--threads", {&o->threads, 0}}};
  t.strings = {{"--impl", &o->impl}, {"--pass", &o->pass}, {"--distribution", &o->distribution}};
  t.only = &o->only;
  if (!moelog::bench::ParseFlags(argc, argv, t, err)) return false;
  if (o->pass != "forward" && o->pass != "forward_backward") {
    *err = "--pass must be forward or forward_backward";
    return false;
  }
  return true;
}

BenchConfig BaseConfig(const Options& o) {
  BenchConfig c;
  c.tokens = o.tokens;
  c.hidden = o.hidden;
  c.mlp_dim = o.mlp_dim;
  c.experts = o.experts;
  c.shared_expert_dim = o.shared;
  c.dtype = "bfloat16";
  c.bench_pass = o.pass;
  c.devices = o.devices;
  c.seed = o.seed;
  return c;
}

struct Variant {
  std::string name;
  std::unique_ptr<parallel::SimSession> session;
  std::vector<double> none_s, total_s, collective_s, compute_s;
  std::map<std::string, std::vector<double>> stages;
};

int Run(const Options& o) {
  if (o.threads > 0) omp_set_num_threads(static_cast<int>(o.threads));
  const bool training = o.pass == "forward_backward";
  Logits logits = GenerateLogits(o.distribution, o.tokens, o.experts, static_cast<uint64_t>(o.seed), 0.98, 0.35);
  Routing routing = TopK(logits, o.topk);
  RunPoint point;
  point.distribution = o.distribution;
  point.topk = o.topk;
  point.impl = o.impl;
  point.queue_mode = "full";

  // Each configuration gets its own copy of the data (Prepare of `none`
  // rebuilds and drops w13 in place).
  BenchConfig base = BaseConfig(o);
  auto bc = cpu::MakeBlockConfig(base, o.impl);
  if (!bc.ok()) return Usage(bc.status().ToString().c_str());
  cpu::BlockData none_data = cpu::GenerateBlockData(o.tokens, o.hidden, o.mlp_dim, o.experts, o.shared,
                                                    cpu::DType::kBF16, static_cast<uint64_t>(o.seed));
  cpu::BlockData par_data = cpu::GenerateBlockData(o.tokens, o.hidden, o.mlp_dim, o.experts, o.shared,
                                                   cpu::DType::kBF16, static_cast<uint64_t>(o.seed));
  cpu::MoeBlock none(*bc, &none_data, &routing);
  if (Status s = none.Prepare(training); !s.ok()) return Usage(s.ToString().c_str());

  std::vector<Variant> variants;
  for (std::string name : {"ep:compact_psum", "ep:ring_ag_rs", "ep:a2a", "dp"}) {
    if (!o.only.empty() && o.only.count(name) == 0) continue;
    BenchConfig c = base;
    if (name == "dp") {
      c.parallel_mode = "dp";
    } else {
      c.parallel_mode = "ep";
      c.ep_comm_path = name.substr(3);
    }
    auto s = parallel::SimSession::Create(c, point, routing, &par_data);
    if (!s.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), s.status().ToString().c_str());
      return 1;
    }
    Variant v;
    v.name = name;
    v.session = std::move(s).value();
    std::printf("# %s: computed rows %lld, buffer rows %lld (padding included)\n", name.c_str(),
                static_cast<long long>(v.session->computed_rows()), static_cast<long long>(v.session->buffer_rows()));
    variants.push_back(std::move(v));
  }

  Status st;
  auto none_step = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    Status s = training ? none.TrainStep() : none.Forward(true);
    if (st.ok() && !s.ok()) st = s;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int64_t round = -o.warmup; round < o.rounds; ++round) {
    for (auto& v : variants) {
      const double n = none_step();
      auto t = v.session->Step();
      if (!t.ok()) {
        std::fprintf(stderr, "%s: %s\n", v.name.c_str(), t.status().ToString().c_str());
        return 1;
      }
      if (!st.ok()) {
        std::fprintf(stderr, "none: %s\n", st.ToString().c_str());
        return 1;
      }
      if (round < 0) continue;
      v.none_s.push_back(n);
      v.total_s.push_back(t->total_s);
      v.collective_s.push_back(t->total_s - t->collective_s);
      v.compute_s.push_back(t->total_s - t->comm_s);
      for (const auto& s : t->stages) v.stages[s.name].push_back(s.seconds);
    }
  }

  std::printf("# T=%lld H=%lld M=%lld E=%lld K=%lld S=%lld bf16 impl=%s pass=%s devices=%lld threads=%d rounds=%lld\n",
              static_cast<long long>(o.tokens), static_cast<long long>(o.hidden), static_cast<long long>(o.mlp_dim),
              static_cast<long long>(o.experts), static_cast<long long>(o.topk), static_cast<long long>(o.shared),
              o.impl.c_str(), o.pass.c_str(), static_cast<long long>(o.devices), omp_get_max_threads(),
              static_cast<long long>(o.rounds));
  std::printf("%-16s %9s %9s | %-22s | %-22s | %9s\n", "variant", "none_min", "comp_min", "compute/none best med",
              "(tot-coll)/none best med", "total/none");
  for (auto& v : variants) {
    auto paired = [&](const std::vector<double>& x) {
      std::vector<double> r;
      for (size_t i = 0; i < x.size(); ++i) r.push_back(x[i] / v.none_s[i]);
      return Median(r);
    };
    const double nmin = Min(v.none_s);
    std::printf("%-16s %9.4f %9.4f | %10.3f %10.3f | %10.3f %10.3f | %9.3f\n", v.name.c_str(), nmin,
                Min(v.compute_s), Min(v.compute_s) / nmin, paired(v.compute_s), Min(v.collective_s) / nmin,
                paired(v.collective_s), paired(v.total_s));
  }
  for (auto& v : variants) {
    std::printf("# %s median stage seconds (summed over devices):", v.name.c_str());
    for (const auto& [name, xs] : v.stages) std::printf(" %s=%.4f", name.c_str(), Median(xs));
    std::printf("\n");
  }
  return 0;
}

}  // namespace
}  // namespace moelog::engine

int main(int argc, char** argv) {
  moelog::engine::Options o;
  std::string err;
  if (!moelog::engine::ParseArgs(argc, argv, &o, &err)) return moelog::engine::Usage(err.c_str());
  return moelog::engine::Run(o);
}
