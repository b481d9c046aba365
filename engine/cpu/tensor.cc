#include "engine/cpu/tensor.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

namespace moelog::engine::cpu {

DType DTypeFromName(const std::string& name) { return name == "bfloat16" ? DType::kBF16 : DType::kF32; }

void Tensor::Free::operator()(void* p) const {
  if (owned) std::free(p);
}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  numel_ = 1;
  for (int64_t d : shape_) numel_ *= d;
  size_t bytes = static_cast<size_t>(numel_ * DTypeSize(dtype_));
  bytes = (bytes + 63) / 64 * 64;
  if (bytes == 0) bytes = 64;
  data_.reset(std::aligned_alloc(64, bytes));
  if (!data_) throw AllocationFailure(static_cast<int64_t>(bytes));
}

Tensor Tensor::HugePages(DType dtype, std::vector<int64_t> shape) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numel_ = 1;
  for (int64_t d : t.shape_) t.numel_ *= d;
  const size_t page = static_cast<size_t>(kHugePage);
  size_t bytes = static_cast<size_t>(t.numel_ * DTypeSize(dtype));
  bytes = std::max<size_t>(page, (bytes + page - 1) / page * page);
  t.data_.reset(std::aligned_alloc(page, bytes));
  if (!t.data_) throw AllocationFailure(static_cast<int64_t>(bytes));
  // Advice only: without transparent huge pages the buffer works the same.
  if (t.data_) madvise(t.data_.get(), bytes, MADV_HUGEPAGE);
  return t;
}

Tensor Tensor::Scratch(DType dtype, std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n * DTypeSize(dtype) >= kHugeScratchBytes) return HugePages(dtype, std::move(shape));
  return Tensor(dtype, std::move(shape));
}

Tensor Tensor::View(Tensor& src, int64_t offset, std::vector<int64_t> shape) {
  Tensor t;
  t.dtype_ = src.dtype_;
  t.shape_ = std::move(shape);
  t.numel_ = 1;
  for (int64_t d : t.shape_) t.numel_ *= d;
  t.data_ = std::unique_ptr<void, Free>(src.at(offset), Free{false});
  return t;
}

void Tensor::Zero() {
  if (numel_ > 0) std::memset(data(), 0, static_cast<size_t>(bytes()));
}

void Tensor::CopyFrom(const Tensor& o) {
  if (o.dtype_ == dtype_) {
    std::memcpy(data(), o.data(), static_cast<size_t>(bytes()));
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < numel_; ++i) Set(i, o.Get(i));
}

std::vector<double> Tensor::ToDouble() const {
  std::vector<double> out(static_cast<size_t>(numel_));
  for (int64_t i = 0; i < numel_; ++i) out[static_cast<size_t>(i)] = Get(i);
  return out;
}

}  // namespace moelog::engine::cpu
