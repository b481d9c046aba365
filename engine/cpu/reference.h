// A plain double-precision reference of the MoE layer (no oneDNN, no
// packing): for every token, the weighted sum of its kept experts' SwiGLU
// outputs plus the shared expert, and the gradients of loss = mean(y^2).
// Used by --check-numerics and the tests.
#ifndef MOELOG_ENGINE_CPU_REFERENCE_H_
#define MOELOG_ENGINE_CPU_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "engine/routing.h"

namespace moelog::engine::cpu {

struct ReferenceInputs {
  int64_t tokens = 0, hidden = 0, mlp_dim = 0, experts = 0, shared_dim = 0;
  std::vector<double> x;              // [T,H]
  std::vector<double> w1, w3, w2;     // [E,H,M], [E,H,M], [E,M,H]
  std::vector<double> sw1, sw3, sw2;  // [H,S], [H,S], [S,H]
  const Routing* routing = nullptr;
  int64_t cap = 0;                    // > 0: an expert keeps its first cap assignments (flat order)
};

struct ReferenceOutputs {
  std::vector<double> y;  // [T,H]
  double loss = 0;        // mean(y^2)
  // Filled when gradients are requested.
  std::vector<double> dx, dw1, dw3, dw2, dsw1, dsw3, dsw2;
};

// REQUIRES: inputs sized as documented; routing->ids has T*K entries.
ReferenceOutputs ReferenceMoe(const ReferenceInputs& in, bool gradients);

// max_i |got_i - ref_i| / max_i |ref_i| (0 when both are all zero).
double MaxRelErr(const std::vector<double>& got, const std::vector<double>& ref);

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_REFERENCE_H_
