// Speed of the GPU model: one prediction given the routing, and a sweep of
// 100,000 configurations (6 GPUs x EP layouts x libraries x SMs x dtypes x
// passes x shared-expert widths) with one routing per EP layout, as a search
// over configurations would share it.
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "engine/gpu/hardware.h"
#include "engine/gpu/model.h"
#include "engine/gpu/params.h"

namespace {

using namespace moelog::engine::gpu;  // NOLINT

const Params& P() {
  static const Params p = *LoadParamsByName("");
  return p;
}

Case LayerCase(int64_t ep) {
  Case c;
  c.kernel = "moe_layer";
  c.tokens = 4096, c.hidden = 7168, c.mlp_dim = 2048, c.experts = 256, c.topk = 8;
  c.ep = ep, c.gpus_per_node = ep < 8 ? ep : 8, c.nodes = ep / c.gpus_per_node;
  return c;
}

void BM_PredictLayer(benchmark::State& state) {
  static const Hardware hw = *LoadHardwareByName("h100");
  Case c = LayerCase(16);
  c.backward = state.range(0) != 0;
  c.shared_mlp_dim = 2048;
  const RouteCounts r = CountRoutes(c);
  for (auto _ : state) benchmark::DoNotOptimize(Predict(hw, P(), c, r)->time_s);
}
BENCHMARK(BM_PredictLayer)->Arg(0)->Arg(1);

void BM_Sweep100k(benchmark::State& state) {
  std::vector<Hardware> hws;
  for (const char* n : {"h800", "h100", "h200", "b200", "gb200", "mi300x"}) hws.push_back(*LoadHardwareByName(n));
  const int64_t eps[] = {8, 16, 32, 64};
  const char* libs[] = {"deepep", "nccl", "allgather", "hybrid_ep"};
  for (auto _ : state) {
    std::map<int64_t, RouteCounts> routed;  // one routing per EP layout
    for (int64_t ep : eps) routed[ep] = CountRoutes(LayerCase(ep));
    int64_t n = 0;
    double sink = 0;
    for (int64_t i = 0; n < 100000; ++i) {
      Case c = LayerCase(eps[i % 4]);
      c.library = libs[(i / 4) % 4];
      c.sms = 8 + 8 * ((i / 16) % 8);
      c.dtype = (i / 128) % 2 ? "bf16" : "fp8";
      c.backward = (i / 256) % 2;
      c.shared_mlp_dim = 1024 * ((i / 512) % 4);
      auto pr = Predict(hws[static_cast<size_t>((i / 2048) % 6)], P(), c, routed[c.ep]);
      sink += pr.ok() ? pr->time_s : 0;
      ++n;
    }
    benchmark::DoNotOptimize(sink);
  }
}
BENCHMARK(BM_Sweep100k)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

}  // namespace

BENCHMARK_MAIN();
