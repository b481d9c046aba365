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
#include "engine/parallel/memory_estimate.h"
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
  Result<RunResult> RunGuarded(const BenchConfig& config, const RunPoint& point, const Routing& routing);
  // deferred_ok: the run packs the expert weights itself (forward-only tiled
  // pipeline), so they need not exist in plain form.
  Status EnsureData(const BenchConfig& c, bool deferred_ok = false);
  std::unique_ptr<cpu::BlockData> data_;
  int devices_ = 1;
  bool mpi_ = false;
};

Status CpuBackend::EnsureData(const BenchConfig& c, bool deferred_ok) {
  if (c.parallel_mode != "none" && parallel::LaunchedByMpi()) {
    // A rank of an ep/dp run is one device: it generates what that device
    // reads (its experts, its tokens, the shared weights), not the whole.
    const cpu::DataShare share = parallel::DeviceDataShare(c, parallel::MpiWorldRankFromEnv());
    if (data_ && data_->share && data_->token_begin == share.token_begin && data_->x.dim(0) == share.tokens &&
        data_->expert_begin == share.expert_begin && data_->experts.experts() == share.experts)
      return Status::Ok();
    data_ = std::make_unique<cpu::BlockData>(cpu::GenerateBlockDataShare(
        c.hidden, c.mlp_dim, c.shared_expert_dim, cpu::DTypeFromName(c.dtype), static_cast<uint64_t>(c.seed), share));
    return Status::Ok();
  }
  // A forward-only run may have released the plain expert weights.
  if (data_ && !data_->share && (deferred_ok || !data_->experts.w1.empty())) return Status::Ok();
  auto make = deferred_ok ? cpu::GenerateBlockDataDeferred : cpu::GenerateBlockData;
  data_ = std::make_unique<cpu::BlockData>(make(c.tokens, c.hidden, c.mlp_dim, c.experts, c.shared_expert_dim,
                                                cpu::DTypeFromName(c.dtype), static_cast<uint64_t>(c.seed)));
  return Status::Ok();
}

// The estimate of the run's peak memory (one device, or every simulated
// device of an ep/dp run), refused before anything is allocated when it
// exceeds --max-memory or, without it, the memory available now.
Result<double> CheckFits(const BenchConfig& config, const RunPoint& point, const cpu::BlockConfig& bc) {
  const bool training = config.bench_pass == "forward_backward";
  const bool parallel = config.parallel_mode != "none";
  const double need = parallel ? parallel::EstimateParallelBytes(config, bc, point.topk)
                               : cpu::EstimateBytes(bc, point.topk, training, config.check_numerics);
  const double avail = cpu::AvailableBytes();
  const double limit = config.max_memory_gb > 0 ? config.max_memory_gb * 1e9 : avail;
  if (limit <= 0 || need <= limit) return need;
  std::string shape = "--tokens " + std::to_string(config.tokens) + " --hidden " + std::to_string(config.hidden) +
                      " --mlp-dim " + std::to_string(config.mlp_dim) + " --experts " +
                      std::to_string(config.experts) + " --topk " + std::to_string(point.topk);
  if (config.shared_expert_dim > 0) shape += " --shared-expert-dim " + std::to_string(config.shared_expert_dim);
  if (parallel) shape += " --parallel-mode " + config.parallel_mode;
  std::string msg = shape + " --bench-pass " + config.bench_pass + ": the cpu engine needs an estimated " +
                    Fixed(need / 1e9, 1) + " GB at its peak";
  if (config.max_memory_gb > 0) msg += ", over --max-memory " + Fixed(config.max_memory_gb, 1) + " GB";
  msg += " (" + Fixed(avail / 1e9, 1) + " GB available now); a smaller shape";
  if (parallel) msg += ", fewer --devices";
  return Status::OutOfMemory(msg + " or a larger --max-memory lets it run");
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

// An allocation that fails is an error naming its size, not a crash.
Result<RunResult> CpuBackend::Run(const BenchConfig& config, const RunPoint& point, const Routing& routing) {
  auto failed = [&](const std::string& what) -> Status {
    return Status::OutOfMemory(what + " (" + Fixed(cpu::AvailableBytes() / 1e9, 1) +
                               " GB available now); a smaller shape or fewer --devices needs less");
  };
  try {
    return RunGuarded(config, point, routing);
  } catch (const cpu::AllocationFailure& e) {
    data_.reset();  // what was made of it may be partial
    return failed("could not allocate a buffer of " + std::to_string(e.bytes()) + " bytes (" +
                  Fixed(static_cast<double>(e.bytes()) / 1e9, 2) + " GB)");
  } catch (const std::bad_alloc&) {
    data_.reset();
    return failed("an allocation failed");
  }
}

Result<RunResult> CpuBackend::RunGuarded(const BenchConfig& config, const RunPoint& point, const Routing& routing) {
  auto bc = cpu::MakeBlockConfig(config, point.impl);
  if (!bc.ok()) return bc.status();
  auto need = CheckFits(config, point, *bc);
  if (!need.ok()) return need.status();
  if (config.parallel_mode != "none") {
    MOELOG_RETURN_IF_ERROR(EnsureData(config));
    auto r = parallel::RunParallel(config, point, routing, data_.get());
    if (r.ok()) r->memory_bytes = *need;
    return r;
  }
  const bool training = config.bench_pass == "forward_backward";
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
