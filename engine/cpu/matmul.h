// Dense matmuls on oneDNN 2.6 with a primitive cache and prepacked weights.
// Every matmul of the CPU engine goes through MatmulRunner: C = A @ B (or
// C += A @ B), A and B given as strided views (so transposes cost nothing) or
// B prepacked into oneDNN's blocked layout (format_tag::any, reordered once).
// Primitives are cached per (M, K, N, data types, strides, packed layout,
// accumulate), so a fixed routing creates each primitive once.
//
// bf16 on CPUs where oneDNN 2.6 has no bf16 matmul (below AVX-512): the
// runner's f32-compute mode. bf16 keeps its meaning: operands and outputs are
// bf16 tensors, each matmul accumulates in f32 and rounds its output to bf16
// once, as the native path does. The matmul itself runs in f32: packed bf16
// weights are kept as f32 copies in oneDNN's f32 blocked layout (converted
// once per pack: twice the bytes, but the f32 kernels then read them as they
// are), the left operand is widened into a per-thread f32 buffer per call
// (M*K conversions against M*K*N multiply-adds), and a bf16 output is
// computed into a per-thread f32 buffer and rounded (with the sum for an
// accumulating call) by the caller's thread. Measured on AVX2 this beats
// converting bf16 weight tiles on the fly inside every job (BENCHMARKS.md).
#ifndef MOELOG_ENGINE_CPU_MATMUL_H_
#define MOELOG_ENGINE_CPU_MATMUL_H_

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "engine/cpu/tensor.h"
#include "engine/status.h"

namespace moelog::engine::cpu {

// A 2-D view: element (i, j) lives at data[i * row_stride + j * col_stride]
// (strides in elements).
struct MatView {
  const void* data = nullptr;
  DType dtype = DType::kF32;
  int64_t rows = 0, cols = 0, row_stride = 0, col_stride = 1;
  // Row-major [rows, cols] with leading dimension ld (elements).
  static MatView RowMajor(const void* data, DType dtype, int64_t rows, int64_t cols, int64_t ld) {
    return MatView{data, dtype, rows, cols, ld, 1};
  }
  // The transposed view ([cols, rows]) of the same memory.
  MatView T() const { return MatView{data, dtype, cols, rows, col_stride, row_stride}; }
};

// A row-major output [rows, cols] with leading dimension ld.
struct OutView {
  void* data = nullptr;
  DType dtype = DType::kF32;
  int64_t rows = 0, cols = 0, ld = 0;
};

// A weight matrix [K, N] reordered into the blocked layout oneDNN's matmul
// picks for it (AMX/avx512 brgemm). The layout does not depend on M.
class PackedMatrix {
 public:
  int64_t k() const { return k_; }
  int64_t n() const { return n_; }
  DType dtype() const { return dtype_; }
  const dnnl::memory::desc& desc() const { return desc_; }
  const dnnl::memory& memory() const { return memory_; }
  bool empty() const { return k_ == 0; }
  // In the bf16 VNNI layout moelog packs itself (AMX): RepackColumns,
  // RepackRows, PackInto and SliceColumns apply.
  bool vnni64() const { return vnni64_; }

 private:
  friend class MatmulRunner;
  int64_t k_ = 0, n_ = 0;
  DType dtype_ = DType::kF32;  // the tensor's dtype (bf16 also in f32-compute mode)
  // The layout is oneDNN's bf16 "BA16a64b2a" (checked when packed), which
  // Repack fills with its own kernel instead of a oneDNN reorder.
  bool vnni64_ = false;
  dnnl::memory::desc desc_;
  dnnl::memory memory_;
};

// One matmul of a batch: c (+)= a @ b, with b prepacked (packed != nullptr)
// or given as a view. `epilogue`, if set, runs on the same thread right
// after the matmul (while its output is still in that core's cache); it must
// only touch memory no other job of the batch touches.
struct MatmulJob {
  MatView a;
  const PackedMatrix* packed = nullptr;
  MatView b;
  OutView c;
  bool accumulate = false;
  std::function<void()> epilogue;
  // If set (c.data must then be null and accumulate false): the matmul writes
  // into an output buffer owned by the executing thread (c.rows x c.ld
  // elements, reused by that thread's next such job) and consume(c), with
  // c.data pointing at that buffer, runs right after it on the same thread.
  // For outputs that are only an intermediate (the s32 accumulators of int8
  // matmuls): they stay in that core's cache and need no full-size buffer.
  std::function<void(const OutView&)> consume;
};

class MatmulRunner {
 public:
  // bf16_native: oneDNN's bf16 matmuls, else the f32-compute mode (default:
  // what this machine has, Caps().bf16_native).
  MatmulRunner();
  explicit MatmulRunner(bool bf16_native);
  MatmulRunner(const MatmulRunner&) = delete;
  MatmulRunner& operator=(const MatmulRunner&) = delete;

  // c (+)= a @ b. a: [M, K]; b: [K, N]; c: [M, N]. Float types: f32 or bf16
  // inputs (both the same) with f32 accumulation, output f32 or bf16. Int8:
  // s8 x s8 -> s32. M == 0 does nothing.
  void Run(const MatView& a, const MatView& b, const OutView& c, bool accumulate = false);
  void Run(const MatView& a, const PackedMatrix& b, const OutView& c, bool accumulate = false);
  // Runs every job of a batch (the grouped matmuls: one job per tile or
  // group). REQUIRES: the jobs write disjoint outputs. With several OpenMP
  // threads and at least kMinJobsPerThread jobs per thread, the jobs are
  // spread over the threads (dynamic schedule, each a single-threaded oneDNN
  // call) instead of splitting every call across all threads: no barrier per
  // call, and a core whose AMX unit currently runs at half rate simply takes
  // fewer jobs. Results are identical either way. Otherwise the jobs run one
  // after another, each on all threads.
  void RunBatch(const std::vector<MatmulJob>& jobs);
  static constexpr size_t kMinJobsPerThread = 2;

  // Runs fn(i) for i in [0, n) spread over the OpenMP threads (dynamic
  // schedule, one index at a time), or in order on the calling thread when
  // there is one thread or n < 2. Inside fn, RunHere executes matmuls on the
  // calling thread: the fused tile pipelines use it to chain several matmuls
  // and elementwise steps per tile without a barrier between them.
  void ParallelFor(int64_t n, const std::function<void(int64_t)>& fn);
  // c (+)= a @ b for one job on the calling thread (single-threaded oneDNN
  // call with the thread's own stream and scratchpad) when called from fn of
  // ParallelFor on several threads; otherwise like RunBatch({job}). Runs the
  // job's epilogue too. Primitive creation is serialized by a lock.
  void RunHere(const MatmulJob& job);

  // Reorders b into the blocked layout (allocates; call outside hot loops).
  PackedMatrix Pack(const MatView& b);
  // Repacks into an existing PackedMatrix of the same shape (no allocation).
  // May be called from fn of ParallelFor (on the calling thread).
  void Repack(const MatView& b, PackedMatrix* packed);
  // Repacks b into columns [col0, col0 + b.cols) of packed (b.rows ==
  // packed->k()); false (nothing written) when the layout does not allow it:
  // only the bf16 layout of VnniPackable, with col0 and b.cols multiples of 64.
  bool RepackColumns(const MatView& b, int64_t col0, PackedMatrix* packed);
  // Repacks b, the transposed view of a row-major bf16 matrix (row_stride
  // 1, even col_stride), into rows [row0, row0 + b.rows) of packed (b.cols ==
  // packed->n()): the transposed weights of a backward pass, packed without
  // a oneDNN reorder. False (nothing written) unless the layout is
  // VnniPackable's and row0 and b.rows are multiples of 32.
  bool RepackRows(const MatView& b, int64_t row0, PackedMatrix* packed);
  // Packs b ([rows, N], bf16, rows <= k) as a [k, N] weight whose rows
  // [rows, k) are zero, into caller memory (k * N elements, alive while p is
  // used): for right operands whose K changes from call to call (the tokens
  // of an expert in the weight-gradient matmuls). False (p untouched) unless
  // the layout is VnniPackable's: bf16, k % 32 == 0, N % 64 == 0.
  bool PackInto(const MatView& b, int64_t k, void* buffer, PackedMatrix* p);
  // Columns [col0, col0 + n) of p as a [K, n] weight of its own that shares
  // p's memory (valid while p's memory is; a repack of p shows through):
  // the 64-column blocks of VnniPackable's layout are contiguous, so a run of
  // them is itself a packed matrix. May be called from fn of ParallelFor.
  // False (slice untouched) unless p has that layout and col0 and n are
  // multiples of 64 within p's columns.
  bool SliceColumns(const PackedMatrix& p, int64_t col0, int64_t n, PackedMatrix* slice);

  // False in f32-compute mode (bf16 matmuls computed in f32).
  bool bf16_native() const { return bf16_native_; }
  // The first oneDNN error seen (Ok if none). Errors do not throw. A
  // primitive this machine cannot create is NotSupported, with the shape,
  // dtype, ISA and the way out.
  const Status& status() const { return status_; }
  // Implementation name of the most recently created primitive ("brg:...").
  const std::string& last_impl() const { return last_impl_; }
  size_t cached_primitives() const { return cache_.size(); }
  dnnl::engine& engine() { return engine_; }
  dnnl::stream& stream() { return stream_; }

 private:
  struct Entry {
    dnnl::matmul prim;
    dnnl::memory::desc a, b, c, scratch;
    size_t scratch_bytes = 0;
    // f32-compute mode: a bf16 call runs as f32 on widened copies of a (and
    // of b when it is a view); a bf16 c is computed into an f32 buffer.
    bool f32_compute = false;
    bool c_bf16 = false;
    bool c_s32 = false;
    bool accumulate = false;
  };
  // Per-thread execution context: a stream and a scratchpad buffer
  // (primitives use user-provided scratchpads so they can run concurrently).
  struct ThreadCtx {
    dnnl::stream stream;
    std::unique_ptr<char, void (*)(void*)> scratch{nullptr, std::free};
    size_t scratch_bytes = 0;
    // Output buffer of MatmulJob::consume jobs.
    std::unique_ptr<char, void (*)(void*)> out{nullptr, std::free};
    size_t out_bytes = 0;
    // f32-compute mode: widened operands and the f32 output.
    std::vector<float> fa, fb, fc;
  };
  Entry* Get(const MatView& a, const dnnl::memory::desc& b_md, const std::string& b_key, const OutView& c,
             bool accumulate, int64_t n);
  Entry* Resolve(const MatmulJob& job);
  // Grows thread tid's scratchpad to `bytes` (not thread-safe across tids
  // sharing a slot; each thread only touches its own).
  char* Scratch(int tid, size_t bytes);
  void Execute(Entry* e, const MatView& a, const dnnl::memory& b, const OutView& c, int tid = 0);
  // An f32-compute entry: b is a bf16 view (b_view) or packed f32 weights.
  void ExecuteF32(Entry* e, const MatView& a, const MatView* b_view, const dnnl::memory* b_packed, const OutView& c,
                  int tid);
  ThreadCtx& Thread(int tid);
  // c (when given) replaces job.c as the output.
  void ExecuteJob(Entry* e, const MatmulJob& job, int tid, const OutView* c = nullptr);
  // Runs job i of a batch on thread tid: matmul (entry may be null: nothing
  // to compute), then epilogue or consume.
  void RunJob(Entry* e, const MatmulJob& job, int tid);
  // Grows thread tid's consume-output buffer to `bytes`.
  char* OutBuffer(int tid, size_t bytes);
  void Fail(const std::string& what);
  // A primitive oneDNN cannot create on this machine.
  void FailUnsupported(const std::string& what, DType dtype, int64_t m, int64_t k, int64_t n);
  // The blocked layout oneDNN's matmul picks for a [k, n] weight (cached;
  // throws dnnl::error).
  dnnl::memory::desc WeightsDesc(int64_t k, int64_t n, DType dtype);
  // True when p's layout is the one PackVnni64 writes (checked once per
  // shape against a oneDNN reorder).
  bool VnniPackable(const PackedMatrix& p);

  dnnl::engine engine_;
  dnnl::stream stream_;
  std::vector<ThreadCtx> threads_;
  std::unordered_map<std::string, Entry> cache_;
  std::mutex cache_mu_;     // RunHere inside ParallelFor
  std::unordered_map<std::string, bool> vnni_layouts_;  // "KxN" -> VnniPackable
  std::unordered_map<std::string, dnnl::memory::desc> weight_descs_;  // "KxN:dtype" -> WeightsDesc
  std::mutex layout_mu_;    // weight_descs_
  int parallel_threads_ = 0;  // > 0 while ParallelFor runs on several threads
  bool bf16_native_ = true;
  bool int8_native_ = true;  // Caps().int8_native: else s8 matmuls run in f32
  Status status_;
  std::string last_impl_;
};

dnnl::memory::data_type ToDnnl(DType t);

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_MATMUL_H_
