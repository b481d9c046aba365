// The cpu backend: runs each sweep point on the real CPU MoE engine, one
// device (engine/cpu/) or several (engine/parallel/), timed as the harness
// does. It sits above both: parallel/ builds on cpu/, never the reverse.
#include <malloc.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <memory>

#include <oneapi/dnnl/dnnl.hpp>

#include "engine/backend.h"
#include "engine/format.h"
#include "engine/cpu/isa.h"
#include "engine/cpu/moe_block.h"
#include "engine/parallel/mpi_comm.h"
#include "engine/parallel/parallel_runner.h"
#include "engine/timing.h"

namespace moelog::engine {
namespace {

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(const BenchConfig& c) {
    if (c.threads > 0) omp_set_num_threads(static_cast<int>(c.threads));
    // Buffers of 1 MiB and more are mapped and unmapped on their own, so a
    // freed one returns its pages at once. (glibc's adaptive threshold would
    // otherwise move them to the heap, where freed space stays resident.)
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    if (c.parallel_mode != "none") {
      const parallel::MeshShape m = parallel::MeshForConfig(c);
      devices_ = std::max(1, m.data * m.expert);
      mpi_ = parallel::LaunchedByMpi();
    }
  }
  std::string Name() const override { return "cpu"; }
  // Every device the run uses: simulated devices share this process's
  // threads (they run one after the other); under MPI device i is rank i.
  std::string DevicesLine() const override {
    const dnnl_version_t* v = dnnl_version();
    const cpu::CpuCaps& caps = cpu::Caps();
    std::string line = "[";
    for (int i = 0; i < devices_; ++i) {
      char buf[256];
      std::snprintf(buf, sizeof(buf), "%sCpuDevice(id=%d%s, threads=%d, onednn=%d.%d.%d, isa=%s, bf16=%s, kernels=%s, int8=%s)",
                    i > 0 ? ", " : "", i, mpi_ ? (", rank=" + std::to_string(i)).c_str() : "", omp_get_max_threads(),
                    v->major, v->minor, v->patch, caps.onednn_isa.c_str(), cpu::Bf16PathName(caps.bf16_native),
                    cpu::KernelIsaName(caps.kernels), cpu::Bf16PathName(caps.int8_native));
      line += buf;
    }
    return line + "]";
  }
  Result<RunResult> Run(const BenchConfig& config, const RunPoint& point, const Routing& routing) override;

 private:
  // deferred_ok: the run packs the expert weights itself (forward-only tiled
  // pipeline), so they need not exist in plain form.
  Status EnsureData(const BenchConfig& c, bool deferred_ok = false);
  std::unique_ptr<cpu::BlockData> data_;
  int devices_ = 1;
  bool mpi_ = false;
};

Status CpuBackend::EnsureData(const BenchConfig& c, bool deferred_ok) {
  // A forward-only run may have released the plain expert weights.
  if (data_ && (deferred_ok || !data_->experts.w1.empty())) return Status::Ok();
  auto make = deferred_ok ? cpu::GenerateBlockDataDeferred : cpu::GenerateBlockData;
  data_ = std::make_unique<cpu::BlockData>(make(c.tokens, c.hidden, c.mlp_dim, c.experts, c.shared_expert_dim,
                                                cpu::DTypeFromName(c.dtype), static_cast<uint64_t>(c.seed)));
  return Status::Ok();
}

// The simulated devices hold the whole layer between them, plus their
// exchange buffers: refused before allocation when that cannot fit.
Status CheckParallelFits(const BenchConfig& config, const RunPoint& point) {
  BenchConfig whole = config;
  whole.parallel_mode = "none";
  whole.mesh.clear();
  auto wb = cpu::MakeBlockConfig(whole, point.impl);
  if (!wb.ok()) return Status::Ok();
  const double need =
      1.5 * cpu::EstimateBytes(*wb, point.topk, config.bench_pass == "forward_backward", config.check_numerics);
  const double avail = cpu::AvailableBytes();
  if (avail > 0 && need > avail)
    return Status::OutOfMemory("--parallel-mode " + config.parallel_mode + " --tokens " +
                               std::to_string(config.tokens) + " --hidden " + std::to_string(config.hidden) +
                               ": the simulated devices need an estimated " +
                               std::to_string(static_cast<int64_t>(need / (1 << 20))) + " MiB but only " +
                               std::to_string(static_cast<int64_t>(avail / (1 << 20))) + " MiB are available");
  return Status::Ok();
}

// The engine's estimate of one device's bytes, refused when MemAvailable
// cannot hold it; the estimate otherwise.
Result<double> CheckFits(const BenchConfig& config, const RunPoint& point, const cpu::BlockConfig& bc, bool training) {
  const double need = cpu::EstimateBytes(bc, point.topk, training, config.check_numerics);
  const double avail = cpu::AvailableBytes();
  if (avail > 0 && need > avail)
    return Status::OutOfMemory("--tokens " + std::to_string(config.tokens) + " --hidden " +
                               std::to_string(config.hidden) + " --mlp-dim " + std::to_string(config.mlp_dim) +
                               " --experts " + std::to_string(config.experts) + " --topk " +
                               std::to_string(point.topk) + ": the cpu engine needs an estimated " + Fixed(need, 0) +
                               " bytes (" + Fixed(need / (1 << 30), 2) + " GiB) but only " + Fixed(avail, 0) +
                               " bytes (" + Fixed(avail / (1 << 30), 2) + " GiB) are available (MemAvailable)");
  return need;
}

// The first failure among the timed calls (they cannot return one).
struct FirstError {
  Status st;
  void operator()(Status s) {
    if (st.ok() && !s.ok()) st = std::move(s);
  }
};

// --stage-timing: each stage timed on its own. Each stage's input comes from
// one untimed run of the previous stage; the tiled pipeline fuses the
// stages, so they run unfused here.
Status TimeStages(const BenchConfig& config, cpu::MoeBlock& block, RunResult* r) {
  MOELOG_RETURN_IF_ERROR(block.BeginStageTiming());
  FirstError guard;
  guard(block.Pack());
  auto time = [&](auto fn) { return TimeFn([&] { guard(fn()); }, config.warmup, config.iters).mean_s; };
  const double pack = time([&] { return block.Pack(); });
  const double up = time([&] { return block.Up(); });
  const double down = time([&] { return block.Down(); });
  // The shared expert is not part of the stage timing (harness 3.4).
  const double combine = time([&] { return block.Combine(false); });
  MOELOG_RETURN_IF_ERROR(guard.st);
  r->stages = {{"pack", pack, ""}, {"up", up, ""}, {"down", down, ""}, {"combine", combine, ""}};
  return Status::Ok();
}

Result<RunResult> CpuBackend::Run(const BenchConfig& config, const RunPoint& point, const Routing& routing) {
  if (config.parallel_mode != "none") {
    MOELOG_RETURN_IF_ERROR(CheckParallelFits(config, point));
    MOELOG_RETURN_IF_ERROR(EnsureData(config));
    return parallel::RunParallel(config, point, routing, data_.get());
  }
  auto bc = cpu::MakeBlockConfig(config, point.impl);
  if (!bc.ok()) return bc.status();
  const bool training = config.bench_pass == "forward_backward";
  auto need = CheckFits(config, point, *bc, training);
  if (!need.ok()) return need.status();
  // Peak memory: a forward-only run keeps only the prepacked weights, unless
  // the reference or the unfused stage path needs the plain ones later.
  const bool packed_only = !training && !config.check_numerics && !config.stage_timing;
  MOELOG_RETURN_IF_ERROR(EnsureData(config, packed_only && cpu::UsesTiledPipeline(*bc)));
  cpu::MoeBlock block(*bc, data_.get(), &routing);
  block.set_release_plain_weights(packed_only);
  MOELOG_RETURN_IF_ERROR(block.Prepare(training));
  RunResult r;
  r.point = point;
  r.source = "measured";
  r.devices = 1;
  r.memory_bytes = *need;
  FirstError guard;
  if (training) {
    r.time = TimeFn([&] { guard(block.TrainStep()); }, config.warmup, config.iters);
  } else if (point.queue_mode == "prequeue") {
    guard(block.Pack());  // packing outside the timed function
    r.time = TimeFn([&] { guard(block.Forward(false)); }, config.warmup, config.iters);
  } else {
    r.time = TimeFn([&] { guard(block.Forward(true)); }, config.warmup, config.iters);
  }
  MOELOG_RETURN_IF_ERROR(guard.st);
  if (config.check_numerics) r.numerics = block.CheckNumerics(training);
  if (config.stage_timing && !training) MOELOG_RETURN_IF_ERROR(TimeStages(config, block, &r));
  r.extra["cpu_threads"] = omp_get_max_threads();
  r.extra["cpu_primitives_cached"] = static_cast<double>(block.runner().cached_primitives());
  r.extra["cpu_combine_scatter"] = block.uses_scatter() ? 1.0 : 0.0;
  if (training) r.extra["loss"] = block.loss();
  FillCommonFigures(config, routing, &r);
  return r;
}

}  // namespace

Result<std::unique_ptr<Backend>> MakeCpuBackend(const BenchConfig& config) {
  MOELOG_RETURN_IF_ERROR(parallel::PrepareProcess(config));  // MPI ranks: init, rank 0 prints
  try {
    return std::unique_ptr<Backend>(std::make_unique<CpuBackend>(config));
  } catch (const dnnl::error& e) {
    return Status::Internal(std::string("oneDNN: ") + e.what());
  }
}

namespace {

// The CPU's model name from /proc/cpuinfo ("unknown-cpu" elsewhere).
std::string CpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto c = line.find(':');
      return c == std::string::npos ? "" : line.substr(c + 2);
    }
  return "unknown-cpu";
}

}  // namespace

ResultDependencies CpuResultDependencies(const BenchConfig& c) {
  // The CPU and what moelog runs on it: a run on AMX is not reused for the
  // same config capped to AVX2 (ONEDNN_MAX_CPU_ISA) or in f32-compute mode.
  static const std::string machine = CpuModelName() + ":" + cpu::Caps().Describe();
  ResultDependencies d;
  d.version = c.target + ":" + MOELOG_VERSION + ":" + machine;
  return d;
}

}  // namespace moelog::engine
