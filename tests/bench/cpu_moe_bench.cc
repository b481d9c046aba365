// The CPU MoE layer against a dense oneDNN bf16 matmul of the same FLOPs,
// measured interleaved (MoE call, dense call, MoE call, ...) in one process,
// because this machine's AMX rate flips between full and half speed every few
// seconds. Each benchmark reports best and median GFLOP/s of both and their
// ratios as counters.
//
// Run pinned:  OMP_PROC_BIND=true OMP_PLACES=cores build/tests/cpu_moe_bench
// Shape: T=8192, H=1024, M=512, E=16, K=2, bf16, impl fused_w13, backend gmm
// (override with MOELOG_BENCH_T/H/M/E/K environment variables).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "engine/cpu/moe_block.h"
#include "tests/bench/bench_timing.h"

namespace moelog::engine::cpu {
namespace {

using ::moelog::bench::Seconds;
using ::moelog::bench::Median;

int64_t EnvInt(const char* name, int64_t def) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoll(v) : def;
}

struct Shape {
  int64_t t = EnvInt("MOELOG_BENCH_T", 8192), h = EnvInt("MOELOG_BENCH_H", 1024), m = EnvInt("MOELOG_BENCH_M", 512);
  int64_t e = EnvInt("MOELOG_BENCH_E", 16), k = EnvInt("MOELOG_BENCH_K", 2);
};

// A dense bf16 matmul [T*K, H] x [H, 3M] (prepacked weights): the same
// 6*H*M*T*K FLOPs as the routed forward.
struct Dense {
  MatmulRunner mm;
  Tensor a, b, c;
  PackedMatrix packed;
  explicit Dense(const Shape& s)
      : a(DType::kBF16, {s.t * s.k, s.h}), b(DType::kBF16, {s.h, 3 * s.m}), c(DType::kBF16, {s.t * s.k, 3 * s.m}) {
    for (int64_t i = 0; i < a.numel(); ++i) a.Set(i, static_cast<float>((i % 13) - 6) * 0.1f);
    for (int64_t i = 0; i < b.numel(); ++i) b.Set(i, static_cast<float>((i % 7) - 3) * 0.1f);
    packed = mm.Pack(MatView::RowMajor(b.data(), DType::kBF16, s.h, 3 * s.m, 3 * s.m));
  }
  void Run() {
    mm.Run(MatView::RowMajor(a.data(), DType::kBF16, a.dim(0), a.dim(1), a.dim(1)), packed,
           OutView{c.data(), DType::kBF16, c.dim(0), c.dim(1), c.dim(1)});
  }
};

void Report(benchmark::State& state, const char* name, const std::vector<double>& moe, const std::vector<double>& dense,
            double moe_flops, double dense_flops) {
  const double moe_best = moe_flops / *std::min_element(moe.begin(), moe.end()) / 1e9;
  const double moe_med = moe_flops / Median(moe) / 1e9;
  const double d_best = dense_flops / *std::min_element(dense.begin(), dense.end()) / 1e9;
  const double d_med = dense_flops / Median(dense) / 1e9;
  state.counters[std::string(name) + "_gflops_best"] = moe_best;
  state.counters[std::string(name) + "_gflops_median"] = moe_med;
  state.counters["dense_gflops_best"] = d_best;
  state.counters["dense_gflops_median"] = d_med;
  state.counters["ratio_best"] = moe_best / d_best;
  state.counters["ratio_median"] = moe_med / d_med;
}

// mode 0: forward (pack included); 1: expert matmul stages only (up + down,
// prepacked weights); 2: forward_backward (3x FLOPs), int8: mode 3.
void BM_MoeVsDense(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  Shape s;
  BenchConfig cfg;
  cfg.tokens = s.t;
  cfg.hidden = s.h;
  cfg.mlp_dim = s.m;
  cfg.experts = s.e;
  cfg.topk = s.k;
  cfg.dtype = "bfloat16";
  cfg.backend = "gmm";
  if (mode == 3) cfg.quant_mode = "int8_routed_prequant";
  if (mode == 2) cfg.bench_pass = "forward_backward";
  auto bc = MakeBlockConfig(cfg, "fused_w13");
  if (!bc.ok()) {
    state.SkipWithError(bc.status().ToString().c_str());
    return;
  }
  Logits logits = GenerateLogits("random", s.t, s.e, 0, cfg.run_alpha, cfg.run_noise_scale);
  Routing routing = TopK(logits, s.k);
  BlockData data = GenerateBlockData(s.t, s.h, s.m, s.e, 0, DType::kBF16, 0);
  MoeBlock block(*bc, &data, &routing);
  const bool training = mode == 2;
  if (!block.Prepare(training).ok() || !block.Pack().ok()) {
    state.SkipWithError("prepare failed");
    return;
  }
  Dense dense(s);
  auto moe_call = [&] {
    Status st = mode == 2 ? block.TrainStep() : mode == 1 ? block.Up() : block.Forward(true);
    if (mode == 1 && st.ok()) st = block.Down();
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
  };
  const int reps = training ? 1 : 1;
  moe_call();
  dense.Run();
  std::vector<double> tm, td;
  for (auto _ : state) {
    tm.push_back(Seconds(moe_call));
    double d = 0;
    for (int i = 0; i < (training ? 3 : reps); ++i) d += Seconds([&] { dense.Run(); });
    td.push_back(d);
  }
  const double flops = 6.0 * s.h * s.m * s.t * s.k * (training ? 3 : 1);
  Report(state, mode == 0 ? "moe_fwd" : mode == 1 ? "moe_updown" : mode == 2 ? "moe_fwdbwd" : "moe_int8pq_fwd", tm, td,
         flops, flops);
}
BENCHMARK(BM_MoeVsDense)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Iterations(20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace moelog::engine::cpu

BENCHMARK_MAIN();
