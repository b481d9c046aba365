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
