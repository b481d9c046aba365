// Communication volume of the EP paths at the logbooks' seed shapes
// (T=32768, H=2048, E=60/64, K=2/8, 4 devices, bf16), computed from the
// engine's dispatch plans (no matmuls run). The timed part is building the
// plan, which moelog does once per run outside the timed region.
//
//   build/tests/ep_comm_volume_bench --benchmark_counters_tabular=true
//
// Counters: sent_MB / recv_MB per device per step (largest over devices, 1 MB
// = 1e6 bytes), local_cap (rows per device buffer), and the volume relative
// to compact_psum's.
#include <benchmark/benchmark.h>

#include <string>

#include "engine/parallel/dispatch_plan.h"
#include "engine/routing.h"

namespace moelog::engine::parallel {
namespace {

struct Shape {
  int64_t experts, mlp_dim, shared_dim;
};

void Volume(benchmark::State& state, Shape s, int64_t topk, std::string dist, CommPath path, bool backward) {
  const int64_t tokens = 32768, hidden = 2048;
  Logits lg = GenerateLogits(dist, tokens, s.experts, 0, 0.98, 0.35);
  Routing r = TopK(lg, topk);
  StepVolumeInputs in;
  in.hidden = hidden;
  in.mlp_dim = s.mlp_dim;
  in.shared_dim = s.shared_dim;
  in.backward = backward;
  in.wire = Wire::kBF16;
  DispatchPlan plan;
  std::vector<moelog::engine::parallel::Volume> v;
  for (auto _ : state) {
    auto p = BuildDispatchPlan(r, DeviceMesh{1, 4}, path, DispatchKind::kCompact);
    if (!p.ok()) {
      state.SkipWithError(p.status().ToString().c_str());
      return;
    }
    plan = std::move(p).value();
    v = AnalyticStepVolumes(plan, in);
    benchmark::DoNotOptimize(v.data());
  }
  int64_t sent = 0, recv = 0;
  for (const auto& x : v) {
    sent = std::max(sent, x.sent);
    recv = std::max(recv, x.recv);
  }
  state.counters["sent_MB"] = static_cast<double>(sent) / 1e6;
  state.counters["recv_MB"] = static_cast<double>(recv) / 1e6;
  state.counters["local_cap"] = static_cast<double>(plan.local_cap);
  // compact_psum moves 2(P-1)/P * T*H*2 bytes per exchange (one exchange
  // forward, two forward_backward); each path's volume relative to it.
  const double psum = 2.0 * 3.0 / 4.0 * tokens * hidden * 2.0 * (backward ? 2.0 : 1.0);
  state.counters["vs_compact_psum"] = static_cast<double>(sent) / psum;
}

void RegisterAll() {
  const Shape shapes[] = {{64, 2048, 0}, {60, 1408, 5632}};
  for (const Shape& s : shapes)
    for (int64_t k : {2, 8})
      for (std::string dist : {"random", "runs"})
        for (bool bw : {false, true})
          for (CommPath path : {CommPath::kCompactPsum, CommPath::kRingAgRs, CommPath::kA2a}) {
            std::string name = "EpCommVolume/E" + std::to_string(s.experts) + "_S" + std::to_string(s.shared_dim) +
                               "/K" + std::to_string(k) + "/" + dist + "/" + (bw ? "forward_backward" : "forward") +
                               "/" + CommPathName(path);
            benchmark::RegisterBenchmark(name.c_str(), Volume, s, k, dist, path, bw)
                ->Unit(benchmark::kMillisecond)
                ->Iterations(1);
          }
}

}  // namespace
}  // namespace moelog::engine::parallel

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  moelog::engine::parallel::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
