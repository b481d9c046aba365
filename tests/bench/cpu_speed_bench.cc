// cpu_speed_bench: the CPU MoE engine's speed figures of BENCHMARKS.md,
// measured interleaved in one process against a dense oneDNN bf16 matmul of
// the same FLOPs.
//
// This machine's AMX rate flips between full and half speed per core every
// few seconds, so a figure measured in one block of time and its reference
// measured in another are not comparable. Every round therefore runs, for
// each variant, one dense reference call immediately followed by one call of
// the variant, and the program reports per variant:
//   best and median GFLOP/s of the variant and of the dense calls paired with
//   it, the ratio of the bests, the ratio of the medians, and the median of the
//   per-round paired ratios (the most robust of the three), over all rounds
//   and over the full-rate rounds only (r_full: rounds whose dense call was
//   within 80% of the run's fastest).
// The int8 forward is also paired with the bf16 forward of the same round,
// and forward_backward_plain with forward_backward.
//
// Variants (--only a,b,...; default all):
//   stages          expert matmul stages only: Up + Down on prepacked rows
//   forward         pack + up + down + combine (moelog bench --bench-pass forward)
//   forward_backward one fixed-routing training step (3x FLOPs)
//   forward_backward_plain  the same step with the backward's weight-gradient
//                   and transposed-weight matmuls on oneDNN's plain operands
//                   (the engine's f32 path), paired with forward_backward
//   int8_forward    forward with --quant-mode int8_routed_prequant
//   up, down        the forward's up (with SwiGLU) and down stages, paired,
//                   with 2/3 and 1/3 of the forward's FLOPs
//   pack, combine   the forward's other stages timed separately (no pairing)
//   int8_pack, int8_up, int8_down, int8_combine   the int8 forward's four stages
//                   timed separately (no pairing)
//
// Pin threads: OMP_PROC_BIND=true OMP_PLACES=cores build/tests/cpu_speed_bench
// Defaults: T=8192 H=1024 M=512 E=16 K=2, bf16, impl fused_w13, backend gmm.
// Speed is never asserted: this program only measures and prints.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <omp.h>

#include <nlohmann/json.hpp>

#include "engine/cpu/moe_block.h"
#include "engine/routing.h"
#include "tests/bench/bench_flags.h"
#include "tests/bench/bench_timing.h"

namespace moelog::engine::cpu {
namespace {

using ::moelog::bench::Seconds;
using ::moelog::bench::Median;
using ::moelog::bench::Min;

struct Options {
  int64_t tokens = 8192, hidden = 1024, mlp_dim = 512, experts = 16, topk = 2;
  int64_t rounds = 20, warmup = 2, seed = 0;
  std::string impl = "fused_w13", backend = "gmm", distribution = "random";
  std::set<std::string> only;
  bool json = false;
};

bool Want(const Options& o, const std::string& v) { return o.only.empty() || o.only.count(v) > 0; }

int Usage(const char* msg) {
  std::fprintf(stderr,
               "cpu_speed_bench: %s\nusage: cpu_speed_bench [--tokens N] [--hidden N] [--mlp-dim N] "
               "[--experts N] [--topk N] [--rounds N] [--warmup N] [--seed N] [--impl NAME] [--backend gmm|ragged_dot] "
               "[--distribution random|runs] [--only v1,v2,...] [--json]\n",
               msg);
  return 2;
}

bool ParseArgs(int argc, char** argv, Options* o, std::string* err) {
  moelog::bench::FlagTable t;
  t.ints = {{"--tokens", {&o->tokens, 1}}, {"--hidden", {&o->hidden, 1}}, {"--mlp-dim", {&o->mlp_dim, 1}},
            {"--experts", {&o->experts, 1}}, {"--topk", {&o->topk, 1}},  {"--rounds", {&o->rounds, 1}},
            {"--warmup", {&o->warmup, 0}},   {"--seed", {&o->seed, 0}}};
  t.strings = {{"--impl", &o->impl}, {"--backend", &o->backend}, {"--distribution", &o->distribution}};
  t.switches = {{"--json", &o->json}};
  t.only = &o->only;
  if (!moelog::bench::ParseFlags(argc, argv, t, err)) return false;
  if (o->topk > o->experts) {
    *err = "--topk must be <= --experts";
    return false;
  }
  return true;
}

// The dense reference: one bf16 matmul [T*K, H] x [H, 3M] with prepacked
// weights and bf16 output, i.e. the 6*T*K*H*M FLOPs of the routed forward in
// one oneDNN call.
class Dense {
 public:
  Dense(int64_t rows, int64_t k, int64_t n)
      : a_(DType::kBF16, {rows, k}), b_(DType::kBF16, {k, n}), c_(DType::kBF16, {rows, n}) {
    for (int64_t i = 0; i < a_.numel(); ++i) a_.Set(i, static_cast<float>((i * 7919) % 17 - 8) * 0.0625f);
    for (int64_t i = 0; i < b_.numel(); ++i) b_.Set(i, static_cast<float>((i * 104729) % 13 - 6) * 0.03125f);
    packed_ = mm_.Pack(MatView::RowMajor(b_.data(), DType::kBF16, k, n, n));
  }
  void Run() {
    mm_.Run(MatView::RowMajor(a_.data(), DType::kBF16, a_.dim(0), a_.dim(1), a_.dim(1)), packed_,
            OutView{c_.data(), DType::kBF16, c_.dim(0), c_.dim(1), c_.dim(1)});
  }
  double flops() const { return 2.0 * static_cast<double>(a_.dim(0)) * a_.dim(1) * b_.dim(1); }
  const Status& status() const { return mm_.status(); }
  const std::string& impl() const { return mm_.last_impl(); }

 private:
  MatmulRunner mm_;
  Tensor a_, b_, c_;
  PackedMatrix packed_;
};

// One measured variant: its call, FLOPs per call, and the samples.
struct Variant {
  std::string name;
  double flops = 0;
  bool paired = true;  // preceded by a dense call every round
  std::function<Status()> call;
  std::vector<double> t, dense_t;
};

// The long-lived MoE block of one pass/quant mode.
struct Block {
  BlockData data;
  std::unique_ptr<MoeBlock> block;
};

Result<std::unique_ptr<Block>> MakeBlock(const Options& o, const Routing& routing, const std::string& quant,
                                         bool training, bool plain_backward = false) {
  BenchConfig cfg;
  cfg.tokens = o.tokens;
  cfg.hidden = o.hidden;
  cfg.mlp_dim = o.mlp_dim;
  cfg.experts = o.experts;
  cfg.topk = o.topk;
  cfg.dtype = "bfloat16";
  cfg.backend = o.backend;
  cfg.quant_mode = quant;
  cfg.bench_pass = training ? "forward_backward" : "forward";
  auto bc = MakeBlockConfig(cfg, o.impl);
  if (!bc.ok()) return bc.status();
  bc->plain_backward = plain_backward;
  auto b = std::make_unique<Block>();
  b->data = GenerateBlockData(o.tokens, o.hidden, o.mlp_dim, o.experts, 0, DType::kBF16,
                              static_cast<uint64_t>(o.seed));
  b->block = std::make_unique<MoeBlock>(*bc, &b->data, &routing);
  MOELOG_RETURN_IF_ERROR(b->block->Prepare(training));
  MOELOG_RETURN_IF_ERROR(b->block->Pack());
  return b;
}

// Peak resident set size of this process so far (bytes).
double VmHwmBytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) * 1024.0;
  return 0;
}

int Main(int argc, char** argv) {
  Options o;
  std::string err;
  if (!ParseArgs(argc, argv, &o, &err)) return Usage(err.c_str());

  Logits logits = GenerateLogits(o.distribution, o.tokens, o.experts, static_cast<uint64_t>(o.seed), 0.98, 0.35);
  Routing routing = TopK(logits, o.topk);
  const double assignments =
      static_cast<double>(routing.real_assignments > 0 ? routing.real_assignments : o.tokens * o.topk);
  const double fwd_flops = 6.0 * static_cast<double>(o.hidden) * static_cast<double>(o.mlp_dim) * assignments;

  Dense dense(o.tokens * o.topk, o.hidden, 3 * o.mlp_dim);
  std::vector<Variant> vars;
  std::vector<std::unique_ptr<Block>> blocks;
  MoeBlock* fwd_block = nullptr;
  const bool need_fwd = Want(o, "stages") || Want(o, "forward") || Want(o, "pack") || Want(o, "up") ||
                        Want(o, "down") || Want(o, "combine") || Want(o, "int8_forward");
  if (need_fwd) {
    auto b = MakeBlock(o, routing, "none", false);
    if (!b.ok()) return std::fprintf(stderr, "cpu_speed_bench: %s\n", b.status().ToString().c_str()), 1;
    fwd_block = (*b)->block.get();
    blocks.push_back(std::move(b).value());
  }
  MoeBlock* fb = fwd_block;
  if (Want(o, "stages"))
    vars.push_back({"stages", fwd_flops, true, [fb] {
                      MOELOG_RETURN_IF_ERROR(fb->Up());
                      return fb->Down();
                    }, {}, {}});
  if (Want(o, "forward"))
    vars.push_back({"forward", fwd_flops, true, [fb] { return fb->Forward(true); }, {}, {}});
  if (Want(o, "forward_backward")) {
    auto b = MakeBlock(o, routing, "none", true);
    if (!b.ok()) return std::fprintf(stderr, "cpu_speed_bench: %s\n", b.status().ToString().c_str()), 1;
    MoeBlock* tb = (*b)->block.get();
    blocks.push_back(std::move(b).value());
    vars.push_back({"forward_backward", 3 * fwd_flops, true, [tb] { return tb->TrainStep(); }, {}, {}});
  }
  if (Want(o, "forward_backward_plain")) {
    auto b = MakeBlock(o, routing, "none", true, /*plain_backward=*/true);
    if (!b.ok()) return std::fprintf(stderr, "cpu_speed_bench: %s\n", b.status().ToString().c_str()), 1;
    MoeBlock* pb = (*b)->block.get();
    blocks.push_back(std::move(b).value());
    vars.push_back({"forward_backward_plain", 3 * fwd_flops, true, [pb] { return pb->TrainStep(); }, {}, {}});
  }
  if (Want(o, "int8_forward")) {
    auto b = MakeBlock(o, routing, "int8_routed_prequant", false);
    if (!b.ok()) return std::fprintf(stderr, "cpu_speed_bench: %s\n", b.status().ToString().c_str()), 1;
    MoeBlock* qb = (*b)->block.get();
    blocks.push_back(std::move(b).value());
    vars.push_back({"int8_forward", fwd_flops, true, [qb] { return qb->Forward(true); }, {}, {}});
  }
  // The forward's stages, each reading the previous stage's output (the
  // order of the list is the data order).
  if (Want(o, "pack")) vars.push_back({"pack", 0, false, [fb] { return fb->Pack(); }, {}, {}});
  // up and down carry their share of the forward's FLOPs (2/3 and 1/3) and
  // are paired with the dense call like the other variants.
  if (Want(o, "up")) vars.push_back({"up", fwd_flops * 2 / 3, true, [fb] { return fb->Up(); }, {}, {}});
  if (Want(o, "down")) vars.push_back({"down", fwd_flops / 3, true, [fb] { return fb->Down(); }, {}, {}});
  if (Want(o, "combine")) vars.push_back({"combine", 0, false, [fb] { return fb->Combine(false); }, {}, {}});
  // The same stages of the int8_routed_prequant forward.
  const bool int8_stages = Want(o, "int8_pack") || Want(o, "int8_up") || Want(o, "int8_down") ||
                           Want(o, "int8_combine");
  if (int8_stages) {
    auto b = MakeBlock(o, routing, "int8_routed_prequant", false);
    if (!b.ok()) return std::fprintf(stderr, "cpu_speed_bench: %s\n", b.status().ToString().c_str()), 1;
    MoeBlock* qb = (*b)->block.get();
    blocks.push_back(std::move(b).value());
    if (Want(o, "int8_pack")) vars.push_back({"int8_pack", 0, false, [qb] { return qb->Pack(); }, {}, {}});
    if (Want(o, "int8_up")) vars.push_back({"int8_up", 0, false, [qb] { return qb->Up(); }, {}, {}});
    if (Want(o, "int8_down")) vars.push_back({"int8_down", 0, false, [qb] { return qb->Down(); }, {}, {}});
    if (Want(o, "int8_combine"))
      vars.push_back({"int8_combine", 0, false, [qb] { return qb->Combine(false); }, {}, {}});
  }
  if (vars.empty()) return Usage("--only selects no known variant");

  // A stage's input is the previous stage's output: run the stages between
  // the pack (done by MakeBlock) and the selected ones once, untimed.
  Status st;
  if (fwd_block != nullptr && (Want(o, "down") || Want(o, "combine")) && !Want(o, "up")) {
    st = fwd_block->Up();  // MakeBlock has packed
    if (st.ok() && Want(o, "combine") && !Want(o, "down")) st = fwd_block->Down();
  }
  if (int8_stages && (Want(o, "int8_down") || Want(o, "int8_combine")) && !Want(o, "int8_up")) {
    MoeBlock* qb = blocks.back()->block.get();
    if (st.ok()) st = qb->Up();
    if (st.ok() && Want(o, "int8_combine") && !Want(o, "int8_down")) st = qb->Down();
  }
  // First call and warmup, untimed.
  for (int64_t w = 0; w < 1 + o.warmup; ++w) {
    dense.Run();
    for (auto& v : vars)
      if (Status s = v.call(); st.ok() && !s.ok()) st = s;
  }
  for (int64_t r = 0; r < o.rounds && st.ok(); ++r) {
    for (auto& v : vars) {
      if (v.paired) v.dense_t.push_back(Seconds([&] { dense.Run(); }));
      v.t.push_back(Seconds([&] {
        if (Status s = v.call(); st.ok() && !s.ok()) st = s;
      }));
    }
  }
  if (!st.ok() || !dense.status().ok()) {
    std::fprintf(stderr, "cpu_speed_bench: %s\n", (!st.ok() ? st : dense.status()).ToString().c_str());
    return 1;
  }

  nlohmann::json out;
  out["shape"] = {{"tokens", o.tokens}, {"hidden", o.hidden}, {"mlp_dim", o.mlp_dim},  {"experts", o.experts},
                  {"topk", o.topk},     {"impl", o.impl},     {"backend", o.backend}, {"distribution", o.distribution},
                  {"dtype", "bfloat16"}};
  out["threads"] = omp_get_max_threads();
  out["rounds"] = o.rounds;
  out["dense"] = {{"m", o.tokens * o.topk}, {"k", o.hidden}, {"n", 3 * o.mlp_dim}, {"impl", dense.impl()}};
  out["max_rss_bytes"] = VmHwmBytes();
  std::printf("cpu_speed_bench T=%lld H=%lld M=%lld E=%lld K=%lld impl=%s backend=%s threads=%d rounds=%lld "
              "dense=[%lld x %lld x %lld, %s]\n",
              static_cast<long long>(o.tokens), static_cast<long long>(o.hidden), static_cast<long long>(o.mlp_dim),
              static_cast<long long>(o.experts), static_cast<long long>(o.topk), o.impl.c_str(), o.backend.c_str(),
              omp_get_max_threads(), static_cast<long long>(o.rounds), static_cast<long long>(o.tokens * o.topk),
              static_cast<long long>(o.hidden), static_cast<long long>(3 * o.mlp_dim), dense.impl().c_str());
  // Rounds whose dense call ran at the full AMX rate on both cores: within
  // 80% of the fastest dense call of the run. The paired ratios of those
  // rounds alone are reported too (r_full, over n_full rounds): when one core
  // is at half rate, the two-thread dense call is paced by it while the
  // engine's dynamic schedule is not, which flatters the engine.
  double fastest_dense = 0;
  for (const auto& v : vars)
    for (double d : v.dense_t) fastest_dense = fastest_dense == 0 ? d : std::min(fastest_dense, d);
  const double full_rate_time = fastest_dense / 0.8;
  std::printf("%-22s %10s %10s %10s %10s %9s %9s %9s %9s %4s\n", "variant", "gflops_bst", "gflops_med", "dense_bst",
              "dense_med", "r_best", "r_median", "r_paired", "r_full", "n_full");
  auto find = [&](const char* name) -> const Variant* {
    for (const auto& v : vars)
      if (v.name == name) return &v;
    return nullptr;
  };
  for (const auto& v : vars) {
    nlohmann::json j;
    j["time_best_s"] = Min(v.t);
    j["time_median_s"] = Median(v.t);
    j["time_samples_s"] = v.t;
    if (!v.paired) {
      std::printf("%-22s time_best_ms=%.3f time_median_ms=%.3f\n", v.name.c_str(), 1e3 * Min(v.t),
                  1e3 * Median(v.t));
      out["variants"][v.name] = j;
      continue;
    }
    std::vector<double> paired, paired_full;
    for (size_t i = 0; i < v.t.size(); ++i) {
      paired.push_back((v.flops / v.t[i]) / (dense.flops() / v.dense_t[i]));
      if (v.dense_t[i] <= full_rate_time) paired_full.push_back(paired.back());
    }
    const double g_best = v.flops / Min(v.t) / 1e9, g_med = v.flops / Median(v.t) / 1e9;
    const double d_best = dense.flops() / Min(v.dense_t) / 1e9, d_med = dense.flops() / Median(v.dense_t) / 1e9;
    std::printf("%-22s %10.1f %10.1f %10.1f %10.1f %9.3f %9.3f %9.3f %9.3f %4zu\n", v.name.c_str(), g_best, g_med, d_best,
                d_med, g_best / d_best, g_med / d_med, Median(paired), Median(paired_full), paired_full.size());
    j["flops"] = v.flops;
    j["gflops_best"] = g_best;
    j["gflops_median"] = g_med;
    j["dense_gflops_best"] = d_best;
    j["dense_gflops_median"] = d_med;
    j["dense_time_samples_s"] = v.dense_t;
    j["ratio_best"] = g_best / d_best;
    j["ratio_median"] = g_med / d_med;
    j["ratio_paired_median"] = Median(paired);
    j["ratio_paired_median_full_rate"] = Median(paired_full);
    j["full_rate_rounds"] = paired_full.size();
    out["variants"][v.name] = j;
  }
  // Speedup of v over base, paired by round (base time / v time), also over
  // the rounds whose dense calls (before base and before v) were both at
  // the full rate.
  auto speedup = [&](const char* label, const Variant* base, const Variant* v) {
    if (base == nullptr || v == nullptr) return;
    std::vector<double> sp, sp_full;
    for (size_t i = 0; i < v->t.size() && i < base->t.size(); ++i) {
      sp.push_back(base->t[i] / v->t[i]);
      if (v->dense_t[i] <= full_rate_time && base->dense_t[i] <= full_rate_time) sp_full.push_back(sp.back());
    }
    const double s_best = Min(base->t) / Min(v->t), s_med = Median(base->t) / Median(v->t);
    std::printf("%s speedup_best=%.3f speedup_median=%.3f speedup_paired_median=%.3f speedup_full=%.3f n_full=%zu\n",
                label, s_best, s_med, Median(sp), Median(sp_full), sp_full.size());
    out[label] = {{"speedup_best", s_best},
                  {"speedup_median", s_med},
                  {"speedup_paired_median", Median(sp)},
                  {"speedup_paired_median_full_rate", Median(sp_full)},
                  {"full_rate_rounds", sp_full.size()}};
  };
  speedup("int8_vs_bf16_forward", find("forward"), find("int8_forward"));
  speedup("own_vs_plain_backward", find("forward_backward_plain"), find("forward_backward"));
  std::printf("max_rss_bytes=%.0f\n", VmHwmBytes());
  if (o.json) std::printf("%s\n", out.dump().c_str());
  return 0;
}

}  // namespace
}  // namespace moelog::engine::cpu

int main(int argc, char** argv) { return moelog::engine::cpu::Main(argc, argv); }
