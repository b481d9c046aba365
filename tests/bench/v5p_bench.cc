// Speed of the v5p model: one prediction given the routing histogram, and a
// 10,000-configuration sweep at T=32768 including routing (cached per
// (distribution, seed, T, E, K) within the sweep, as a sweep driver would).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include "engine/bench.h"
#include "engine/routing.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/model.h"
#include "engine/v5p/fit.h"
#include "engine/v5p/params.h"
#include "engine/v5p/uncertainty.h"
#include "logbook/render/calibration.h"

namespace {

using namespace moelog::engine;  // NOLINT

const v5p::Hardware& Hw() {
  static const v5p::Hardware hw = *v5p::LoadHardwareByName("v5p");
  return hw;
}
const v5p::ModelParams& Params() {
  static const v5p::ModelParams p = *v5p::LoadParamsByName("");
  return p;
}

BenchConfig BaseConfig() {
  BenchConfig c;
  c.target = "v5p";
  c.tokens = 32768;
  c.hidden = 2048;
  c.mlp_dim = 1408;
  c.experts = 64;
  c.topk = 8;
  c.shared_expert_dim = 5632;
  c.impl = "fused_w13";
  c.distribution = "random";
  c.bench_pass = "forward_backward";
  c.parallel_mode = "ep";
  return c;
}

void BM_PredictOne(benchmark::State& state) {
  BenchConfig c = BaseConfig();
  RunPoint p{"random", c.topk, c.impl, 0.0, "full"};
  Logits l = GenerateLogits("random", c.tokens, c.experts, 0, c.run_alpha, c.run_noise_scale);
  Routing r = RoutingForPoint(c, l, p);
  auto mc = v5p::MakeCase(c, p, GroupSizes(r), r.real_assignments, Hw().chips);
  for (auto _ : state) {
    v5p::Prediction pred = v5p::Predict(Hw(), Params(), *mc);
    benchmark::DoNotOptimize(pred.time_s);
  }
}
BENCHMARK(BM_PredictOne);

// What `moelog next` asks per configuration: the prediction and its band,
// calibrated by the logbook's factor for the configuration's key (learned
// once per key: BM_CalibrateFor).
std::vector<moelog::logbook::CalibrationSample> Samples() {
  std::vector<moelog::logbook::CalibrationSample> samples;
  for (int i = 0; i < 100; ++i) {  // 100 recorded figures of 25 entries, half of them of the key asked for
    char when[32];
    std::snprintf(when, sizeof when, "2026-02-09 %02d:%02d", 8 + i / 10, (i * 7) % 60);
    samples.push_back({std::to_string(i / 4), when, i % 2 ? "hillclimb: 2026-02-09" : "hillclimb: rev",
                       0.01 * (i % 7) - 0.03, ""});
  }
  return samples;
}

void BM_PredictCalibrated(benchmark::State& state) {
  BenchConfig c = BaseConfig();
  RunPoint p{"random", c.topk, c.impl, 0.0, "full"};
  Logits l = GenerateLogits("random", c.tokens, c.experts, 0, c.run_alpha, c.run_noise_scale);
  Routing r = RoutingForPoint(c, l, p);
  auto mc = v5p::MakeCase(c, p, GroupSizes(r), r.real_assignments, Hw().chips);
  const v5p::Uncertainty u = *v5p::LoadUncertaintyByName("");
  const std::map<std::string, std::string> config = v5p::ConfigMap(c);
  const auto cal = moelog::logbook::CalibrateFor(Samples(), "hillclimb: 2026-02-09", "9999-12-31 23:59", u.prior);
  for (auto _ : state) {
    v5p::Prediction pred = v5p::Predict(Hw(), Params(), *mc);
    const v5p::ErrorBand band = v5p::BandFor(u, config);
    const auto shown = moelog::logbook::Calibrated(1.0 / pred.time_s, cal, band);
    benchmark::DoNotOptimize(shown.hi);
  }
}
BENCHMARK(BM_PredictCalibrated);

// Learning one key's factor from 100 recorded figures.
void BM_CalibrateFor(benchmark::State& state) {
  const auto samples = Samples();
  const v5p::ShrinkagePrior prior;
  for (auto _ : state) {
    const auto cal = moelog::logbook::CalibrateFor(samples, "hillclimb: 2026-02-09", "9999-12-31 23:59", prior);
    benchmark::DoNotOptimize(cal.factor);
  }
}
BENCHMARK(BM_CalibrateFor);

// The routing part alone: logits for one (distribution, E) and top-k at one K.
void BM_RoutingOne(benchmark::State& state) {
  BenchConfig c = BaseConfig();
  const char* dist = state.range(0) ? "runs" : "random";
  for (auto _ : state) {
    Logits l = GenerateLogits(dist, c.tokens, c.experts, 0, c.run_alpha, c.run_noise_scale);
    Routing r = RoutingForPoint(c, l, RunPoint{dist, c.topk, c.impl, 0.0, "full"});
    benchmark::DoNotOptimize(r.real_assignments);
  }
}
BENCHMARK(BM_RoutingOne)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// 10,000 configurations: 2 distributions x 2 expert counts x 8 topk values
// (32 routings at T=32768) x impl, width, parallel mode, pass, shared, backend.
void BM_Sweep10k(benchmark::State& state) {
  const char* dists[] = {"random", "runs"};
  const int64_t experts[] = {32, 64};
  const int64_t widths[] = {1024, 1408, 2048, 3072};
  const char* modes[] = {"none", "ep", "dp"};
  const char* impls[] = {"baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter", "fast"};
  double checksum = 0;
  for (auto _ : state) {
    std::map<std::string, Logits> logits;
    std::map<std::tuple<int, int64_t, int64_t>, std::pair<std::vector<int64_t>, int64_t>> routing;
    for (int i = 0; i < 10000; ++i) {
      BenchConfig c = BaseConfig();
      const int di = i % 2;
      c.distribution = dists[di];
      c.experts = experts[(i / 2) % 2];
      c.topk = 1 + (i / 4) % 8;
      c.mlp_dim = widths[(i / 32) % 4];
      c.parallel_mode = modes[(i / 128) % 3];
      c.impl = impls[(i / 384) % 6];
      c.bench_pass = (i / 2304) % 2 ? "forward" : "forward_backward";
      c.shared_expert_dim = (i / 4608) % 2 ? 0 : 5632;
      c.backend = (i % 3 == 0) ? "ragged_dot" : "gmm";
      RunPoint p{c.distribution, c.topk, c.impl, 0.0, "full"};
      auto key = std::make_tuple(di, c.experts, c.topk);
      auto it = routing.find(key);
      if (it == routing.end()) {
        const std::string lk = c.distribution + std::to_string(c.experts);
        auto lit = logits.find(lk);
        if (lit == logits.end())
          lit = logits.emplace(lk, GenerateLogits(c.distribution, c.tokens, c.experts, 0, c.run_alpha,
                                                  c.run_noise_scale)).first;
        Routing r = RoutingForPoint(c, lit->second, p);
        it = routing.emplace(key, std::make_pair(GroupSizes(r), r.real_assignments)).first;
      }
      auto mc = v5p::MakeCase(c, p, it->second.first, it->second.second, Hw().chips);
      checksum += v5p::Predict(Hw(), Params(), *mc).time_s;
    }
  }
  benchmark::DoNotOptimize(checksum);
  state.counters["configs"] = 10000;
}
BENCHMARK(BM_Sweep10k)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
