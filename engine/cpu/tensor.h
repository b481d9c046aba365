// Tensor: an owning, 64-byte aligned, row-major buffer of float32 or bfloat16
// values, plus the bf16 conversion helpers the CPU engine uses. bfloat16 is
// stored as uint16_t (the upper half of an IEEE float32); conversions round to
// nearest even, as oneDNN and JAX do.
#ifndef MOELOG_ENGINE_CPU_TENSOR_H_
#define MOELOG_ENGINE_CPU_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace moelog::engine::cpu {

// kS8/kS32 only appear as matmul operand types (int8 quantized paths).
enum class DType { kF32, kBF16, kS8, kS32 };

// "float32" -> kF32, "bfloat16" -> kBF16 (anything else: kF32).
DType DTypeFromName(const std::string& name);
inline int64_t DTypeSize(DType t) {
  return t == DType::kBF16 ? 2 : t == DType::kS8 ? 1 : 4;
}

using bf16_t = uint16_t;

inline float Bf16ToF32(bf16_t v) {
  uint32_t u = static_cast<uint32_t>(v) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Round to nearest even; NaN stays NaN.
inline bf16_t F32ToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<bf16_t>((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<bf16_t>(u >> 16);
}

// Reads/writes element i of a buffer of dtype t as float.
inline float LoadF(const void* p, DType t, int64_t i) {
  switch (t) {
    case DType::kF32: return static_cast<const float*>(p)[i];
    case DType::kBF16: return Bf16ToF32(static_cast<const bf16_t*>(p)[i]);
    case DType::kS8: return static_cast<float>(static_cast<const int8_t*>(p)[i]);
    case DType::kS32: return static_cast<float>(static_cast<const int32_t*>(p)[i]);
  }
  return 0.0f;
}
inline void StoreF(void* p, DType t, int64_t i, float v) {
  // REQUIRES: t is kF32 or kBF16.
  if (t == DType::kF32) static_cast<float*>(p)[i] = v;
  else static_cast<bf16_t*>(p)[i] = F32ToBf16(v);
}

// What a Tensor throws when its buffer cannot be allocated. The cpu
// backend catches it at its boundary and returns Status::OutOfMemory naming
// the size (engine code otherwise does not throw).
class AllocationFailure : public std::bad_alloc {
 public:
  explicit AllocationFailure(int64_t bytes) : bytes_(bytes) {}
  int64_t bytes() const { return bytes_; }
  const char* what() const noexcept override { return "tensor allocation failed"; }

 private:
  int64_t bytes_;
};

class Tensor {
 public:
  Tensor() = default;
  // Allocates shape (row-major) without initializing the values; throws
  // AllocationFailure when the memory cannot be had.
  Tensor(DType dtype, std::vector<int64_t> shape);
  // The same, aligned to kHugePage bytes with the size rounded up to a
  // multiple of it, and advised for transparent huge pages (MADV_HUGEPAGE).
  // For large buffers whose pages are returned to the OS and refilled every
  // step: a refill then costs one fault per 2 MiB instead of one per 4 KiB.
  static Tensor HugePages(DType dtype, std::vector<int64_t> shape);
  // HugePages for buffers of at least kHugeScratchBytes, a plain tensor
  // below: for scratch that is freed and allocated again every step (the
  // rounding wastes at most one huge page in four).
  static Tensor Scratch(DType dtype, std::vector<int64_t> shape);
  static constexpr int64_t kHugeScratchBytes = int64_t{8} << 20;
  static constexpr int64_t kHugePage = int64_t{2} << 20;
  // A tensor of `shape` over `numel` elements of src starting at element
  // `offset`, sharing src's memory (nothing is copied or freed): for
  // simulated devices that would hold the same values (replicated inputs,
  // weights a device reads in place). REQUIRES: src outlives the view and
  // offset + numel(shape) <= src.numel().
  static Tensor View(Tensor& src, int64_t offset, std::vector<int64_t> shape);
  // True when this tensor shares another's memory (View).
  bool is_view() const { return !data_.get_deleter().owned; }
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(Tensor&&) noexcept = default;
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t dim(size_t i) const { return shape_[i]; }
  int64_t numel() const { return numel_; }
  int64_t bytes() const { return numel_ * DTypeSize(dtype_); }
  bool empty() const { return numel_ == 0; }
  void* data() { return data_.get(); }
  const void* data() const { return data_.get(); }
  template <typename T> T* as() { return static_cast<T*>(data()); }
  template <typename T> const T* as() const { return static_cast<const T*>(data()); }
  // Address of element `offset` (in elements).
  void* at(int64_t offset) { return static_cast<char*>(data()) + offset * DTypeSize(dtype_); }
  const void* at(int64_t offset) const { return static_cast<const char*>(data()) + offset * DTypeSize(dtype_); }

  void Zero();
  float Get(int64_t i) const { return LoadF(data(), dtype_, i); }
  void Set(int64_t i, float v) { StoreF(data(), dtype_, i, v); }
  // Copies values as float (converting dtype). REQUIRES: same numel.
  void CopyFrom(const Tensor& other);
  // Values converted to double (for references and checks).
  std::vector<double> ToDouble() const;

 private:
  struct Free {
    constexpr Free() noexcept : owned(true) {}
    constexpr explicit Free(bool own) noexcept : owned(own) {}
    bool owned;
    void operator()(void* p) const;
  };
  DType dtype_ = DType::kF32;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::unique_ptr<void, Free> data_;
};

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_TENSOR_H_
