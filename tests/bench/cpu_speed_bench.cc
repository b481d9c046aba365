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
//   bare_matmuls, bare_int8_matmuls, bare_train_matmuls   bounds: the
//                   bf16 forward's, the int8 forward's and the bf16 training
//                   step's matmuls alone, as the engine runs them but with
//                   every operand except the right ones in per-thread
//                   buffers (no gather, SwiGLU, quantization, combine or
//                   packing), paired; bare_int8 is also paired with bare
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
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <omp.h>

#include <nlohmann/json.hpp>

#include "engine/cpu/matmul.h"
#include "engine/cpu/moe_block.h"
#include "engine/cpu/moe_layer.h"
#include "engine/cpu/moe_pipeline.h"
#include "engine/cpu/tensor.h"
#include "engine/routing.h"
#include "tests/bench/bench_flags.h"
#include "tests/bench/bench_timing.h"

namespace moelog::engine::cpu {
namespace {

using ::moelog::bench::Seconds;
using ::moelog::bench::Median;
using ::moelog::bench::Min;

struct Options {
  int64_t tokens = 8192, hidden = 1024, mlp_dim = 512, experts = 16, topk = 2, shared_dim = 0;
  bool shared_fused = false;
  int64_t rounds = 20, warmup = 2, seed = 0;
  std::string impl = "fused_w13", backend = "gmm", distribution = "random";
  std::set<std::string> only;
  bool json = false;
};

bool Want(const Options& o, const std::string& v) { return o.only.empty() || o.only.count(v) > 0; }

int Usage(const char* msg) {
  std::fprintf(stderr,
               "cpu_speed_bench: %s\nusage: cpu_speed_bench [--tokens N] [--hidden N] [--mlp-dim N] "
               "[--experts N] [--topk N] [--shared-expert-dim N] [--shared-fused] [--rounds N] [--warmup N] [--seed N] [--impl NAME] [--backend gmm|ragged_dot] "
               "[--distribution random|runs] [--only v1,v2,...] [--json]\n",
               msg);
  return 2;
}

bool ParseArgs(int argc, char** argv, Options* o, std::string* err) {
  moelog::bench::FlagTable t;
  t.ints = {{"--tokens", {&o->tokens, 1}}, {"--hidden", {&o->hidden, 1}}, {"--mlp-dim", {&o->mlp_dim, 1}},
            {"--experts", {&o->experts, 1}}, {"--topk", {&o->topk, 1}},  {"--rounds", {&o->rounds, 1}},
            {"--warmup", {&o->warmup, 0}},   {"--seed", {&o->seed, 0}}, {"--shared-expert-dim", {&o->shared_dim, 0}}};
  t.strings = {{"--impl", &o->impl}, {"--backend", &o->backend}, {"--distribution", &o->distribution}};
  t.switches = {{"--json", &o->json}, {"--shared-fused", &o->shared_fused}};
  t.only = &o->only;
  if (!moelog::bench::ParseFlags(argc, argv, t, err)) return false;
  if (o->topk > o->experts) {
    *err = "--topk must be <= --experts";
    return false;
  }
  return true;
}

// Fills t with fixed small non-zero values (the dense reference and the
// bare_* variants: their time does not depend on the values).
void FillFixed(Tensor* t, int64_t salt) {
  for (int64_t i = 0; i < t->numel(); ++i) {
    const int64_t v = (i * 7919 + salt) % 17 - 8;
    if (t->dtype() == DType::kS8) static_cast<int8_t*>(t->data())[i] = static_cast<int8_t>(v);
    else t->Set(i, static_cast<float>(v) * 0.0625f);
  }
}

// The dense reference: one bf16 matmul [T*K, H] x [H, 3M] with prepacked
// weights and bf16 output, i.e. the 6*T*K*H*M FLOPs of the routed forward in
// one oneDNN call.
class Dense {
 public:
  Dense(int64_t rows, int64_t k, int64_t n)
      : a_(DType::kBF16, {rows, k}), b_(DType::kBF16, {k, n}), c_(DType::kBF16, {rows, n}) {
    FillFixed(&a_, 0);
    for (int64_t i = 0; i < b_.numel(); ++i) b_.Set(i, static_cast<float>((i * 104729) % 13 - 6) * 0.03125f);
    packed_ = mm_.Pack(MatView::RowMajor(b_.data(), DType::kBF16, k, n, n));
  }
  void Run() {
    mm_.Run(MatView::RowMajor(a_.data(), DType::kBF16, a_.dim(0), a_.dim(1), a_.dim(1)), packed_,
            OutView{c_.data(), DType::kBF16, c_.dim(0), c_.dim(1), c_.dim(1)});
    if (shared_) shared_->Run();
  }
  // With a shared expert of width s over `tokens` rows, the reference also
  // runs the dense [tokens, k] x [k, 3s] matmul of its FLOPs.
  void AddShared(int64_t tokens, int64_t s) {
    if (s > 0) shared_ = std::make_unique<Dense>(tokens, a_.dim(1), 3 * s);
  }
  double flops() const {
    return 2.0 * static_cast<double>(a_.dim(0)) * a_.dim(1) * b_.dim(1) + (shared_ ? shared_->flops() : 0.0);
  }
  const Status& status() const { return shared_ && !shared_->status().ok() ? shared_->status() : mm_.status(); }
  const std::string& impl() const { return mm_.last_impl(); }

 private:
  MatmulRunner mm_;
  Tensor a_, b_, c_;
  PackedMatrix packed_;
  std::unique_ptr<Dense> shared_;
};

int ThreadSlot() { return omp_in_parallel() ? omp_get_thread_num() : 0; }

// The bare_* variants: the matmuls of a pass and nothing else, as the engine
// spreads them over the threads (the same MatmulRunner calls), on prepacked
// right operands, with every other operand in buffers of the executing
// thread that are reused for every job (x, h, gate|up and y tiles), so they
// stay in its core's L2 where they fit. That is the least data movement any
// pipeline of these matmuls can have, so their speed bounds the engine's.
//
// BareMatmuls: the routed forward's, per expert and tile: up = x W13
// ([rows, H] x [H, 2M]) and down = h W2 ([rows, M] x [M, H]). dtype kBF16
// (512-row tiles, bf16 outputs) or kS8 (the int8 forward's s8 x s8 -> s32
// in its 128-row jobs).
class BareMatmuls {
 public:
  BareMatmuls(const Routing& routing, int64_t hidden, int64_t mlp_dim, DType dt) : h_(hidden), m_(mlp_dim), dt_(dt) {
    const std::vector<int64_t> count = GroupSizes(routing);
    // int8: the engine's 128-row jobs, each rounded up to the 16-row AMX
    // tile (see GroupedInt8 in expert_mlp.cc).
    const int64_t tile = dt == DType::kS8 ? 128 : kGmmTileRows, align = dt == DType::kS8 ? 16 : 1;
    for (size_t e = 0; e < count.size(); ++e)
      for (int64_t off = 0; off < count[e]; off += tile)
        tiles_.push_back({static_cast<int64_t>(e), (std::min(tile, count[e] - off) + align - 1) / align * align});
    const DType out = dt == DType::kS8 ? DType::kS32 : dt;
    for (int i = 0; i < std::max(1, omp_get_max_threads()); ++i) {
      Tiles t{Tensor(dt, {kGmmTileRows, h_}), Tensor(dt, {kGmmTileRows, m_}), Tensor(out, {kGmmTileRows, 2 * m_}),
              Tensor(out, {kGmmTileRows, h_})};
      FillFixed(&t.x, 1);
      FillFixed(&t.h, 2);
      tiles_of_.push_back(std::move(t));
    }
    Tensor w13(dt, {h_, 2 * m_}), w2(dt, {m_, h_});
    for (size_t e = 0; e < count.size(); ++e) {
      FillFixed(&w13, static_cast<int64_t>(e));
      FillFixed(&w2, static_cast<int64_t>(e) + 3);
      p13_.push_back(mm_.Pack(MatView::RowMajor(w13.data(), dt, h_, 2 * m_, 2 * m_)));
      p2_.push_back(mm_.Pack(MatView::RowMajor(w2.data(), dt, m_, h_, h_)));
    }
  }
  Status Run() {
    mm_.ParallelFor(static_cast<int64_t>(tiles_.size()), [&](int64_t i) {
      const Tile& t = tiles_[static_cast<size_t>(i)];
      Tiles& th = tiles_of_[static_cast<size_t>(ThreadSlot())];
      MatmulJob up;
      up.a = MatView::RowMajor(th.x.data(), dt_, t.n, h_, h_);
      up.packed = &p13_[static_cast<size_t>(t.e)];
      up.c = OutView{th.ab.data(), th.ab.dtype(), t.n, 2 * m_, 2 * m_};
      mm_.RunHere(up);
      MatmulJob down;
      down.a = MatView::RowMajor(th.h.data(), dt_, t.n, m_, m_);
      down.packed = &p2_[static_cast<size_t>(t.e)];
      down.c = OutView{th.y.data(), th.y.dtype(), t.n, h_, h_};
      mm_.RunHere(down);
    });
    return mm_.status();
  }

 private:
  struct Tile {
    int64_t e, n;
  };
  struct Tiles {
    Tensor x, h, ab, y;
  };
  int64_t h_, m_;
  DType dt_;
  MatmulRunner mm_;
  std::vector<Tile> tiles_;
  std::vector<Tiles> tiles_of_;
  std::vector<PackedMatrix> p13_, p2_;
};

// BareTrainMatmuls: the bf16 training step's, one job per expert (as the
// engine's training runs them), over the expert's n rows (pad: PadTokens(n),
// the engine's padding of the tokens as K):
//   forward, per 512-row tile: up = x W13, down = h W2;
//   backward: dW2 = h^T dy ([M, pad] x [pad, H]); per tile dh = dy W2^T
//   ([rows, H] x [H, M]); dW1, dW3 = x^T d(gate), x^T d(up) ([H, pad] x
//   [pad, M]); per tile dx = d(gate|up) W13^T ([rows, 2M] x [2M, H]).
// The per-expert right operands (weights, their transposes, dy and
// d(gate), d(up) with the tokens as K) are all prepacked once; the engine
// packs the last three per step, which is not counted here.
class BareTrainMatmuls {
 public:
  BareTrainMatmuls(const Routing& routing, int64_t hidden, int64_t mlp_dim) : h_(hidden), m_(mlp_dim) {
    const DType bf = DType::kBF16;
    count_ = GroupSizes(routing);
    int64_t most = 1;
    for (int64_t n : count_) most = std::max(most, PadTokens(n));
    for (int i = 0; i < std::max(1, omp_get_max_threads()); ++i) {
      Bufs b{Tensor(bf, {most, h_}), Tensor(bf, {most, m_}), Tensor(bf, {most, 2 * m_}), Tensor(bf, {most, h_}),
             Tensor(bf, {std::max(h_, m_), most}), Tensor(bf, {m_, h_}), Tensor(bf, {h_, m_}), Tensor(bf, {h_, m_})};
      for (Tensor* t : {&b.x, &b.h, &b.ab, &b.tr}) FillFixed(t, 1);
      bufs_.push_back(std::move(b));
    }
    for (size_t e = 0; e < count_.size(); ++e) {
      const int64_t pad = PadTokens(count_[e]), salt = static_cast<int64_t>(e);
      p13_.push_back(PackFixed(h_, 2 * m_, salt));
      p2_.push_back(PackFixed(m_, h_, salt + 1));
      p2t_.push_back(PackFixed(h_, m_, salt + 2));
      p13t_.push_back(PackFixed(2 * m_, h_, salt + 3));
      pdy_.push_back(PackFixed(pad, h_, salt + 4));
      pdg_.push_back(PackFixed(pad, m_, salt + 5));
      pdu_.push_back(PackFixed(pad, m_, salt + 6));
    }
  }
  Status Run() {
    const DType bf = DType::kBF16;
    mm_.ParallelFor(static_cast<int64_t>(count_.size()), [&](int64_t e) {
      const size_t ei = static_cast<size_t>(e);
      const int64_t n = count_[ei], pad = PadTokens(n);
      if (n == 0) return;
      Bufs& b = bufs_[static_cast<size_t>(ThreadSlot())];
      auto run = [&](const MatView& a, const PackedMatrix& p, Tensor* c, int64_t rows, int64_t cols) {
        MatmulJob j;
        j.a = a;
        j.packed = &p;
        j.c = OutView{c->data(), bf, rows, cols, cols};
        mm_.RunHere(j);
      };
      for (int64_t off = 0; off < n; off += kGmmTileRows) {
        const int64_t tn = std::min(kGmmTileRows, n - off);
        run(MatView::RowMajor(b.x.at(off * h_), bf, tn, h_, h_), p13_[ei], &b.ab, tn, 2 * m_);
        run(MatView::RowMajor(b.h.at(off * m_), bf, tn, m_, m_), p2_[ei], &b.y, tn, h_);
      }
      run(MatView::RowMajor(b.tr.data(), bf, m_, pad, pad), pdy_[ei], &b.dw2, m_, h_);
      for (int64_t off = 0; off < n; off += kGmmTileRows) {
        const int64_t tn = std::min(kGmmTileRows, n - off);
        run(MatView::RowMajor(b.y.at(off * h_), bf, tn, h_, h_), p2t_[ei], &b.h, tn, m_);
      }
      run(MatView::RowMajor(b.tr.data(), bf, h_, pad, pad), pdg_[ei], &b.dw1, h_, m_);
      run(MatView::RowMajor(b.tr.data(), bf, h_, pad, pad), pdu_[ei], &b.dw3, h_, m_);
      for (int64_t off = 0; off < n; off += kGmmTileRows) {
        const int64_t tn = std::min(kGmmTileRows, n - off);
        run(MatView::RowMajor(b.ab.at(off * 2 * m_), bf, tn, 2 * m_, 2 * m_), p13t_[ei], &b.y, tn, h_);
      }
    });
    return mm_.status();
  }

 private:
  struct Bufs {
    Tensor x, h, ab, y, tr, dw2, dw1, dw3;
  };
  PackedMatrix PackFixed(int64_t k, int64_t n, int64_t salt) {
    Tensor w(DType::kBF16, {std::max<int64_t>(k, 32), n});
    FillFixed(&w, salt);
    return mm_.Pack(MatView::RowMajor(w.data(), DType::kBF16, std::max<int64_t>(k, 32), n, n));
  }
  int64_t h_, m_;
  MatmulRunner mm_;
  std::vector<int64_t> count_;
  std::vector<Bufs> bufs_;
  std::vector<PackedMatrix> p13_, p2_, p2t_, p13t_, pdy_, pdg_, pdu_;
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
  cfg.shared_expert_dim = o.shared_dim;
  cfg.shared_fused = o.shared_fused;
  cfg.dtype = "bfloat16";
  cfg.backend = o.backend;
  cfg.quant_mode = quant;
  cfg.bench_pass = training ? "forward_backward" : "forward";
  auto bc = MakeBlockConfig(cfg, o.impl);
  if (!bc.ok()) return bc.status();
  bc->plain_backward = plain_backward;
  auto b = std::make_unique<Block>();
  b->data = GenerateBlockData(o.tokens, o.hidden, o.mlp_dim, o.experts, o.shared_dim, DType::kBF16,
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
  // The shared expert (when any) adds 6 T H S to the forward (harness 3.3).
  // stages, up, down and the bare_* bounds run the routed experts only.
  const double routed_flops = 6.0 * static_cast<double>(o.hidden) * static_cast<double>(o.mlp_dim) * assignments;
  const double fwd_flops =
      routed_flops + 6.0 * static_cast<double>(o.tokens) * static_cast<double>(o.hidden) * static_cast<double>(o.shared_dim);

  Dense dense(o.tokens * o.topk, o.hidden, 3 * o.mlp_dim);
  dense.AddShared(o.tokens, o.shared_dim);
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
    vars.push_back({"stages", routed_flops, true, [fb] {
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
  if (Want(o, "up")) vars.push_back({"up", routed_flops * 2 / 3, true, [fb] { return fb->Up(); }, {}, {}});
  if (Want(o, "down")) vars.push_back({"down", routed_flops / 3, true, [fb] { return fb->Down(); }, {}, {}});
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
  // The bounds: the passes' matmuls alone (see BareMatmuls).
  std::unique_ptr<BareMatmuls> bare, bare_int8;
  std::unique_ptr<BareTrainMatmuls> bare_train;
  if (Want(o, "bare_matmuls")) {
    bare = std::make_unique<BareMatmuls>(routing, o.hidden, o.mlp_dim, DType::kBF16);
    vars.push_back({"bare_matmuls", routed_flops, true, [bm = bare.get()] { return bm->Run(); }, {}, {}});
  }
  if (Want(o, "bare_int8_matmuls")) {
    bare_int8 = std::make_unique<BareMatmuls>(routing, o.hidden, o.mlp_dim, DType::kS8);
    vars.push_back({"bare_int8_matmuls", routed_flops, true, [bm = bare_int8.get()] { return bm->Run(); }, {}, {}});
  }
  if (Want(o, "bare_train_matmuls")) {
    bare_train = std::make_unique<BareTrainMatmuls>(routing, o.hidden, o.mlp_dim);
    vars.push_back({"bare_train_matmuls", 3 * routed_flops, true, [bm = bare_train.get()] { return bm->Run(); }, {}, {}});
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
  speedup("bare_int8_vs_bf16", find("bare_matmuls"), find("bare_int8_matmuls"));
  std::printf("max_rss_bytes=%.0f\n", VmHwmBytes());
  if (o.json) std::printf("%s\n", out.dump().c_str());
  return 0;
}

}  // namespace
}  // namespace moelog::engine::cpu

int main(int argc, char** argv) { return moelog::engine::cpu::Main(argc, argv); }
