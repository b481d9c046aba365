// Backend: what runs one point of a benchmark sweep. Two exist: "cpu" (the
// real engine, measured) and "v5p" (the analytical TPU v5p-8 model).
#ifndef MOELOG_ENGINE_BACKEND_H_
#define MOELOG_ENGINE_BACKEND_H_

#include <memory>
#include <string>

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

// Factories, one per backend (cpu_backend.cc, v5p/v5p_backend.cc).
Result<std::unique_ptr<Backend>> MakeCpuBackend(const BenchConfig& config);
Result<std::unique_ptr<Backend>> MakeV5pBackend(const BenchConfig& config);
// Chooses by config.target.
Result<std::unique_ptr<Backend>> MakeBackend(const BenchConfig& config);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_BACKEND_H_
