#include "engine/cpu/isa.h"

#include <cpuid.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <oneapi/dnnl/dnnl.hpp>

namespace moelog::engine::cpu {
namespace {

const char* OnednnIsaName(dnnl::cpu_isa isa) {
  switch (isa) {
    case dnnl::cpu_isa::sse41: return "sse41";
    case dnnl::cpu_isa::avx: return "avx";
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
    case dnnl::cpu_isa::avx512_mic: return "avx512_mic";
    case dnnl::cpu_isa::avx512_mic_4ops: return "avx512_mic_4ops";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    default: return "baseline";
  }
}

// The highest kernel tier oneDNN's effective ISA allows.
KernelIsa OnednnCap(dnnl::cpu_isa isa) {
  switch (isa) {
    case dnnl::cpu_isa::avx2:
    case dnnl::cpu_isa::avx2_vnni: return KernelIsa::kAvx2;
    case dnnl::cpu_isa::avx512_core:
    case dnnl::cpu_isa::avx512_core_vnni: return KernelIsa::kAvx512;
    case dnnl::cpu_isa::avx512_core_bf16:
    case dnnl::cpu_isa::avx512_core_amx: return KernelIsa::kAvx512Bf16;
    default: return KernelIsa::kBaseline;
  }
}

// The highest tier this CPU (and its OS) runs.
KernelIsa CpuTier() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    // GCC 12 has no "avx512bf16" name for __builtin_cpu_supports: CPUID leaf 7
    // subleaf 1, EAX bit 5.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool bf16 = __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0 && (eax & (1u << 5)) != 0;
    return bf16 ? KernelIsa::kAvx512Bf16 : KernelIsa::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return KernelIsa::kAvx2;
  return KernelIsa::kBaseline;
}

bool ParseTier(const char* s, KernelIsa* out) {
  static const struct {
    const char* name;
    KernelIsa isa;
  } kNames[] = {{"baseline", KernelIsa::kBaseline}, {"sse41", KernelIsa::kBaseline}, {"avx2", KernelIsa::kAvx2},
                {"avx512", KernelIsa::kAvx512},     {"avx512_core", KernelIsa::kAvx512},
                {"avx512_bf16", KernelIsa::kAvx512Bf16}, {"avx512_core_bf16", KernelIsa::kAvx512Bf16},
                {"avx512_core_amx", KernelIsa::kAvx512Bf16}, {"all", KernelIsa::kAvx512Bf16}};
  for (const auto& n : kNames)
    if (strcasecmp(s, n.name) == 0) {
      *out = n.isa;
      return true;
    }
  return false;
}

// Whether oneDNN creates a small bf16 matmul.
bool ProbeBf16Matmul() {
  try {
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::memory::desc a({32, 64}, dt::bf16, tag::ab), b({64, 64}, dt::bf16, tag::any), c({32, 64}, dt::bf16, tag::ab);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), eng);
    return true;
  } catch (const dnnl::error&) {
    return false;
  }
}

CpuCaps Detect() {
  CpuCaps c;
  const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
  c.onednn_isa = OnednnIsaName(isa);
  c.kernels = std::min(CpuKernelIsa(), OnednnCap(isa));
  if (const char* env = std::getenv("MOELOG_CPU_ISA"); env != nullptr && *env != '\0') {
    KernelIsa cap;
    if (ParseTier(env, &cap)) c.kernels = std::min(c.kernels, cap);
    else std::fprintf(stderr, "moelog: warning: MOELOG_CPU_ISA=%s is not one of baseline, avx2, avx512, avx512_bf16; ignored\n", env);
  }
  c.bf16_native = ProbeBf16Matmul();
  if (const char* env = std::getenv("MOELOG_BF16"); env != nullptr && *env != '\0') {
    if (std::strcmp(env, "native") == 0) c.bf16_native = true;
    else if (std::strcmp(env, "f32-compute") == 0) c.bf16_native = false;
    else std::fprintf(stderr, "moelog: warning: MOELOG_BF16=%s is not native or f32-compute; ignored\n", env);
  }
  c.int8_native = isa == dnnl::cpu_isa::avx512_core_vnni || isa == dnnl::cpu_isa::avx512_core_bf16 ||
                  isa == dnnl::cpu_isa::avx512_core_amx || isa == dnnl::cpu_isa::avx2_vnni;
  if (const char* env = std::getenv("MOELOG_INT8"); env != nullptr && *env != '\0') {
    if (std::strcmp(env, "native") == 0) c.int8_native = true;
    else if (std::strcmp(env, "f32-compute") == 0) c.int8_native = false;
    else std::fprintf(stderr, "moelog: warning: MOELOG_INT8=%s is not native or f32-compute; ignored\n", env);
  }
  return c;
}

}  // namespace

KernelIsa CpuKernelIsa() {
  static const KernelIsa tier = CpuTier();
  return tier;
}

const char* KernelIsaName(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kBaseline: return "baseline";
    case KernelIsa::kAvx2: return "avx2";
    case KernelIsa::kAvx512: return "avx512";
    case KernelIsa::kAvx512Bf16: return "avx512_bf16";
  }
  return "baseline";
}

const char* Bf16PathName(bool native) { return native ? "native" : "f32-compute"; }

std::string CpuCaps::Describe() const {
  return "isa=" + onednn_isa + " bf16=" + Bf16PathName(bf16_native) + " kernels=" + KernelIsaName(kernels) +
         " int8=" + Bf16PathName(int8_native);
}

const CpuCaps& Caps() {
  static const CpuCaps caps = Detect();
  return caps;
}

}  // namespace moelog::engine::cpu
