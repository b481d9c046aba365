// What this CPU can run, decided once at start-up: the instruction-set tier
// of moelog's own vector kernels and whether oneDNN has bf16 matmuls.
//
// moelog is built for the x86-64 baseline; its hand-written AVX2 and AVX-512
// kernels are compiled for their ISA alone (target attributes) and chosen
// here from what the CPU reports, capped by oneDNN's effective ISA (so
// ONEDNN_MAX_CPU_ISA=AVX2 reproduces an AVX2-only machine for both) and by
// MOELOG_CPU_ISA (baseline | avx2 | avx512 | avx512_bf16), which caps moelog's
// kernels alone. Where oneDNN 2.6 has no bf16 matmul (below AVX-512), bf16
// keeps its meaning (bf16 storage, rounding at the same points, f32
// accumulation) and the matmuls compute in f32 ("f32-compute").
// MOELOG_INT8=native | f32-compute does the same for int8 matmuls.
// MOELOG_BF16=native | f32-compute overrides the probe (native on a machine
// without bf16 matmuls then fails with a clear error: for tests).
#ifndef MOELOG_ENGINE_CPU_ISA_H_
#define MOELOG_ENGINE_CPU_ISA_H_

#include <string>

namespace moelog::engine::cpu {

// Tiers of moelog's own kernels, in increasing order.
enum class KernelIsa { kBaseline = 0, kAvx2 = 1, kAvx512 = 2, kAvx512Bf16 = 3 };

struct CpuCaps {
  std::string onednn_isa;  // oneDNN's effective ISA: "avx2", "avx512_core_amx", ...
  KernelIsa kernels = KernelIsa::kBaseline;
  bool bf16_native = false;  // oneDNN creates bf16 matmuls
  // oneDNN's s8 matmuls are exact (VNNI). Without VNNI oneDNN 2.6 multiplies
  // with vpmaddubsw, whose 16-bit pair sums saturate for full-range int8
  // values: moelog then computes s8 x s8 -> s32 in f32 ("f32-compute").
  bool int8_native = false;
  // "isa=avx2 bf16=f32-compute kernels=avx2": what the devices line and the run store say.
  std::string Describe() const;
};

// Computed on first use (thread-safe), then fixed for the process.
const CpuCaps& Caps();
inline KernelIsa ActiveKernelIsa() { return Caps().kernels; }
// The highest tier this CPU runs, before any cap (for tests of every tier).
KernelIsa CpuKernelIsa();
const char* KernelIsaName(KernelIsa isa);
// "native" or "f32-compute".
const char* Bf16PathName(bool native);

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_ISA_H_
