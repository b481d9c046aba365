// Placeholder until the CPU engine lands: refuses clearly.
#include "engine/backend.h"

namespace moelog::engine {

Result<std::unique_ptr<Backend>> MakeCpuBackend(const BenchConfig&) {
  return Status::NotSupported("--target cpu: the CPU engine is not built into this moelog");
}

}  // namespace moelog::engine
