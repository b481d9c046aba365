// Placeholder until the v5p model lands: refuses clearly.
#include "engine/backend.h"

namespace moelog::engine {

Result<std::unique_ptr<Backend>> MakeV5pBackend(const BenchConfig&) {
  return Status::NotSupported("--target v5p: the TPU v5p model is not available in this build");
}

}  // namespace moelog::engine
