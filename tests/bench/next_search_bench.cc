// Speed of `moelog next`'s search: every configuration of the keys
// researchers vary (within the model-calls budget; the ones that can differ,
// 43,200, are predicted) at one shape, the routing
// built once and shared. Paired with the same configurations each routed on
// its own (as separate `moelog bench --target v5p` runs would be), on a
// 200-configuration subset.
#include <benchmark/benchmark.h>

#include "engine/bench.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/params.h"
#include "logbook/research/next.h"
#include "logbook/research/next_gpu.h"

namespace {

using namespace moelog;  // NOLINT

const engine::v5p::Hardware& Hw() {
  static const engine::v5p::Hardware hw = *engine::v5p::LoadHardwareByName("v5p");
  return hw;
}
const engine::v5p::ModelParams& Params() {
  static const engine::v5p::ModelParams p = *engine::v5p::LoadParamsByName("");
  return p;
}

engine::BenchConfig Anchor() {
  engine::BenchConfig c;
  c.target = "v5p";
  c.tokens = 32768;
  c.hidden = 2048;
  c.mlp_dim = 2048;
  c.experts = 64;
  c.topk = 2;
  c.shared_expert_dim = 5632;
  c.shared_fused = true;
  c.impl = "fused_w13";
  c.distribution = "random";
  c.queue_mode = "full";
  c.bench_pass = "forward_backward";
  c.parallel_mode = "ep";
  return c;
}

std::vector<logbook::SearchAxis> Axes() { return logbook::DefaultSearchAxes(); }

void BM_NextSearchSharedRouting(benchmark::State& state) {
  const auto axes = Axes();
  int tried = 0;
  for (auto _ : state) {
    auto r = logbook::SearchConfigs(Anchor(), axes, Hw(), Params(), &tried);
    if (!r.ok()) return state.SkipWithError(r.status().message().c_str());
    benchmark::DoNotOptimize(r);
  }
  state.counters["configs"] = tried;
  state.SetItemsProcessed(state.iterations() * tried);
}
BENCHMARK(BM_NextSearchSharedRouting)->Unit(benchmark::kMillisecond);

// `moelog next` on a GPU target: configurations of DeepEP's default
// dispatch case (4096 tokens per rank, hidden 7168, top-8 of 256 experts) on
// GB200 NVL72 -- EP degree, nodes x GPUs per node, library, low-latency or
// normal kernels, dtype, SMs -- each routing computed once per EP layout and
// included in the time.
void BM_GpuNextSearch(benchmark::State& state) {
  static const engine::gpu::Hardware hw = *engine::gpu::LoadHardwareByName("gb200");
  static const engine::gpu::Params params = *engine::gpu::LoadParamsByName("");
  engine::gpu::Case anchor;
  anchor.kernel = "ep_dispatch";
  anchor.tokens = 4096;
  logbook::GpuAxes axes = logbook::DefaultGpuAxes(hw, anchor);
  axes.ep = {8, 16, 24, 32, 36, 64, 72, 128, 256};
  axes.gpus_per_node = {1, 2, 4, 8, 16, 18, 32, 36, 64, 72};
  axes.libraries = {"deepep", "deepep_2025_02", "deepep_v2", "hybrid_ep", "uccl_ep", "mori", "nccl", "allgather"};
  axes.sms.clear();
  for (int64_t s = 0; s <= 132; s += 2) axes.sms.push_back(s);
  axes.dtypes = {"fp8", "bf16", "fp4"};
  int tried = 0;
  for (auto _ : state) {
    auto r = logbook::SearchGpuConfigs(hw, params, anchor, axes, &tried);
    benchmark::DoNotOptimize(r);
  }
  state.counters["configs"] = tried;
  state.SetItemsProcessed(state.iterations() * tried);
}
BENCHMARK(BM_GpuNextSearch)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

// 200 configurations: shared routing vs routing each one.
std::vector<logbook::SearchAxis> SmallAxes() {
  return {{"routing_pack_strategy", {"argsort", "tuple_sort"}},
          {"remat_mode", {"none", "expert_mlp"}},
          {"impl", {"baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter"}},
          {"quant_mode", {"none", "int8", "int8_routed", "int8_all", "int8_routed_prequant"}},
          {"use_custom_sort_vjp", {"false", "true"}}};
}

void BM_Next200Shared(benchmark::State& state) {
  const auto axes = SmallAxes();
  for (auto _ : state) {
    auto r = logbook::SearchConfigs(Anchor(), axes, Hw(), Params());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Next200Shared)->Unit(benchmark::kMillisecond);

void BM_Next200RoutedEach(benchmark::State& state) {
  const auto axes = SmallAxes();
  const size_t n = logbook::SearchConfigs(Anchor(), axes, Hw(), Params())->size();
  for (auto _ : state)
    for (size_t i = 0; i < n; ++i) {
      auto p = logbook::PredictConfig(Anchor(), Hw(), Params());  // routes the shape again
      benchmark::DoNotOptimize(p);
    }
  state.counters["configs"] = static_cast<double>(n);
}
BENCHMARK(BM_Next200RoutedEach)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
