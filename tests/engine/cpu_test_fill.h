// Deterministic values for the CPU engine's tests: integers in [-100, 100]
// from a linear congruential sequence, divided by denominator (exact in bf16
// when the denominator is a power of two).
#ifndef MOELOG_TESTS_ENGINE_CPU_TEST_FILL_H_
#define MOELOG_TESTS_ENGINE_CPU_TEST_FILL_H_

#include <cstdint>

#include "engine/cpu/tensor.h"

namespace moelog::engine::cpu {

inline void Fill(Tensor* t, uint32_t seed, float denominator = 64.0f) {
  uint32_t s = seed;
  for (int64_t i = 0; i < t->numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    t->Set(i, static_cast<float>(static_cast<int32_t>(s >> 9) % 201 - 100) / denominator);
  }
}

}  // namespace moelog::engine::cpu

#endif  // MOELOG_TESTS_ENGINE_CPU_TEST_FILL_H_
