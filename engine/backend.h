// Backend: what runs one point of a benchmark sweep. Two exist: "cpu" (the
// real engine, measured) and "v5p" (the analytical TPU v5p-8 model).
#ifndef MOELOG_ENGINE_BACKEND_H_
#define MOELOG_ENGINE_BACKEND_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/metrics.h"
#include "engine/routing.h"
#include "engine/status.h"

namespace moelog::engine {

class Backend {
 public:
  virtual ~Backend() = default;
  // "cpu" or "v5p".
  virtual std::string Name() const = 0;
  // Describes the devices for the harness's `devices=[...]` header line.
  virtual std::string DevicesLine() const = 0;
  // Runs (or models) one sweep point with fixed routing. Fills every figure of
  // RunResult it can; the caller adds nothing but printing. A run that cannot
  // happen (shape too large, unsupported combination) returns a non-OK Status.
  // REQUIRES: config.Validate().ok(); routing matches point.topk/null_frac.
  virtual Result<RunResult> Run(const BenchConfig& config, const RunPoint& point,
                                const Routing& routing) = 0;
};

// What a backend's results depend on besides the config: its name and
// version, the machine facts that change its numbers, and the data files it
// reads. A result cache keys on all of them (hashing the files' contents),
// so a new version, another CPU or an edited parameter file never reuses a
// result.
struct ResultDependencies {
  std::string version;  // "v5p:0.5.0", "cpu:0.5.0:<cpu model>:<isa, kernels>"
  struct File {
    std::string label;   // "params", "hw"
    std::string path;    // "" when it cannot be found
    std::string name;    // what the config asked for
  };
  std::vector<File> files;
};
ResultDependencies CpuResultDependencies(const BenchConfig& config);
ResultDependencies V5pResultDependencies(const BenchConfig& config);
// Chooses by config.target (bench.cc holds one factory pair per target of
// engine/target.h).
ResultDependencies ResultDependenciesOf(const BenchConfig& config);

// Factories, one per backend (cpu_backend.cc, v5p/v5p_backend.cc).
Result<std::unique_ptr<Backend>> MakeCpuBackend(const BenchConfig& config);
Result<std::unique_ptr<Backend>> MakeV5pBackend(const BenchConfig& config);
// Chooses by config.target.
Result<std::unique_ptr<Backend>> MakeBackend(const BenchConfig& config);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_BACKEND_H_
