#include "engine/cpu/matmul.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/cpu/isa.h"
#include "engine/cpu/kernels.h"

namespace moelog::engine::cpu {
namespace {

using dnnl::memory;

memory::desc ViewDesc(const MatView& v) {
  return memory::desc({v.rows, v.cols}, ToDnnl(v.dtype), memory::dims{v.row_stride, v.col_stride});
}

memory::desc OutDesc(const OutView& c) {
  return memory::desc({c.rows, c.cols}, ToDnnl(c.dtype), memory::dims{c.ld, 1});
}

const char* DTypeLabel(DType t) {
  switch (t) {
    case DType::kF32: return "float32";
    case DType::kBF16: return "bfloat16";
    case DType::kS8: return "int8";
    case DType::kS32: return "int32";
  }
  return "?";
}

// A view that is the transpose of a row-major matrix (column i of the view is
// contiguous): the f32-compute path widens it in that order.
bool IsTransposed(const MatView& v) { return v.row_stride == 1 && v.col_stride != 1; }

std::string ViewKey(const MatView& v) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%d:%lldx%lld/%lld,%lld", static_cast<int>(v.dtype),
                static_cast<long long>(v.rows), static_cast<long long>(v.cols),
                static_cast<long long>(v.row_stride), static_cast<long long>(v.col_stride));
  return buf;
}

}  // namespace

memory::data_type ToDnnl(DType t) {
  switch (t) {
    case DType::kF32: return memory::data_type::f32;
    case DType::kBF16: return memory::data_type::bf16;
    case DType::kS8: return memory::data_type::s8;
    case DType::kS32: return memory::data_type::s32;
  }
  return memory::data_type::f32;
}

MatmulRunner::MatmulRunner() : MatmulRunner(Caps().bf16_native) {}

MatmulRunner::MatmulRunner(bool bf16_native)
    : engine_(dnnl::engine::kind::cpu, 0),
      stream_(engine_),
      bf16_native_(bf16_native),
      int8_native_(Caps().int8_native) {}

void MatmulRunner::Fail(const std::string& what) {
  // Jobs of a batch can fail on several threads at once.
#pragma omp critical(moelog_matmul_fail)
  if (status_.ok()) status_ = Status::Internal("oneDNN matmul: " + what);
}

void MatmulRunner::FailUnsupported(const std::string& what, DType dtype, int64_t m, int64_t k, int64_t n) {
  char buf[512];
  const bool bf16 = dtype == DType::kBF16;
  std::snprintf(buf, sizeof(buf),
                "oneDNN %d.%d cannot create a %s matmul [%lld x %lld] @ [%lld x %lld] on this CPU (isa=%s bf16=%s): %s; "
                "%s",
                DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR, DTypeLabel(dtype), static_cast<long long>(m), static_cast<long long>(k),
                static_cast<long long>(k), static_cast<long long>(n), Caps().onednn_isa.c_str(),
                Bf16PathName(bf16_native_), what.c_str(),
                bf16 && bf16_native_ ? "run with --dtype float32, or without MOELOG_BF16=native so that moelog computes "
                                       "bf16 matmuls in f32"
                                     : "run with --dtype float32");
#pragma omp critical(moelog_matmul_fail)
  if (status_.ok()) status_ = Status::NotSupported(buf);
}

MatmulRunner::Entry* MatmulRunner::Get(const MatView& a, const memory::desc& b_md, const std::string& b_key,
                                       const OutView& c, bool accumulate, int64_t n) {
  char ckey[96];
  std::snprintf(ckey, sizeof(ckey), "|c%d:%lld/%lld|%d", static_cast<int>(c.dtype),
                static_cast<long long>(n), static_cast<long long>(c.ld), accumulate ? 1 : 0);
  std::string key = ViewKey(a) + "|" + b_key + ckey;
  auto it = cache_.find(key);
  if (it != cache_.end()) return &it->second;
  try {
    Entry e;
    e.a = ViewDesc(a);
    e.b = b_md;
    e.c = OutDesc(c);
    if ((a.dtype == DType::kBF16 && !bf16_native_) || (a.dtype == DType::kS8 && !int8_native_)) {
      // f32-compute: contiguous f32 operands (b_md is already f32 when the
      // weights are packed), an f32 output buffer for a bf16 or s32 c.
      e.f32_compute = true;
      e.c_bf16 = c.dtype == DType::kBF16;
      e.c_s32 = c.dtype == DType::kS32;
      e.accumulate = accumulate;
      // A transposed view is widened in its own (row-major) order and given
      // to oneDNN as transposed (ba): contiguous, vectorized conversion.
      e.a = memory::desc({a.rows, a.cols}, memory::data_type::f32,
                         IsTransposed(a) ? memory::format_tag::ba : memory::format_tag::ab);
      if (b_key[0] == 'v')
        e.b = memory::desc({a.cols, n}, memory::data_type::f32,
                           b_key.find("|T") != std::string::npos ? memory::format_tag::ba : memory::format_tag::ab);
      if (e.c_bf16 || e.c_s32) {
        e.c = memory::desc({c.rows, c.cols}, memory::data_type::f32, memory::format_tag::ab);
        accumulate = false;  // the sum is added when the f32 result is rounded
      }
    }
    dnnl::primitive_attr attr;
    // User scratchpads: each thread passes its own, so one primitive can run
    // on several threads at once (RunBatch).
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (accumulate) {
      dnnl::post_ops ops;
      ops.append_sum(1.0f);
      attr.set_post_ops(ops);
    }
    dnnl::matmul::primitive_desc pd;
    try {
      pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(e.a, e.b, e.c), attr, engine_);
    } catch (const dnnl::error& err) {
      FailUnsupported(err.what(), a.dtype, a.rows, a.cols, n);
      return nullptr;
    }
    e.prim = dnnl::matmul(pd);
    e.scratch = pd.scratchpad_desc();
    e.scratch_bytes = e.scratch.get_size();
    last_impl_ = pd.impl_info_str();
    return &cache_.emplace(std::move(key), std::move(e)).first->second;
  } catch (const dnnl::error& err) {
    Fail(std::string("creating ") + key + ": " + err.what());
    return nullptr;
  }
}

namespace {

// A thread's buffer of at least `bytes`: grown (page-aligned, whole pages)
// when it holds fewer, its old contents dropped. nullptr when allocation fails.
char* AtLeast(std::unique_ptr<char, void (*)(void*)>* buf, size_t* held, size_t bytes) {
  if (bytes > *held) {
    const size_t size = (bytes + 4095) / 4096 * 4096;
    buf->reset(static_cast<char*>(std::aligned_alloc(4096, size)));
    *held = *buf ? size : 0;
  }
  return buf->get();
}

}  // namespace

char* MatmulRunner::Scratch(int tid, size_t bytes) {
  ThreadCtx& t = Thread(tid);
  return AtLeast(&t.scratch, &t.scratch_bytes, bytes);
}

MatmulRunner::ThreadCtx& MatmulRunner::Thread(int tid) {
  if (threads_.size() <= static_cast<size_t>(tid)) threads_.resize(static_cast<size_t>(tid) + 1);
  return threads_[static_cast<size_t>(tid)];
}

namespace {

// Grows v to n elements (the f32-compute buffers; never shrinks).
float* Grow(std::vector<float>* v, int64_t n) {
  if (v->size() < static_cast<size_t>(n)) v->resize(static_cast<size_t>(n));
  return v->data();
}

// f32(v) for a bf16 (or s8) view v, contiguous: [rows, cols] row-major, or,
// for a transposed view (IsTransposed), [cols, rows] row-major -- v's own
// memory order, so that the conversion reads and writes rows. Parallel over
// rows when not already inside a parallel region.
void WidenBf16(const MatView& v, float* dst) {
  if (v.dtype == DType::kS8) {
    // int8 values are exact in f32.
    const int8_t* q = static_cast<const int8_t*>(v.data);
    if (IsTransposed(v)) {
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && v.rows * v.cols >= (1 << 16))
      for (int64_t j = 0; j < v.cols; ++j)
        for (int64_t i = 0; i < v.rows; ++i) dst[j * v.rows + i] = q[j * v.col_stride + i];
      return;
    }
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && v.rows * v.cols >= (1 << 16))
    for (int64_t i = 0; i < v.rows; ++i)
      for (int64_t j = 0; j < v.cols; ++j) dst[i * v.cols + j] = q[i * v.row_stride + j * v.col_stride];
    return;
  }
  const bf16_t* src = static_cast<const bf16_t*>(v.data);
  if (IsTransposed(v)) {
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && v.rows * v.cols >= (1 << 16))
    for (int64_t j = 0; j < v.cols; ++j) Bf16ToF32Row(src + j * v.col_stride, v.rows, dst + j * v.rows);
    return;
  }
  if (v.col_stride == 1) {
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && v.rows * v.cols >= (1 << 16))
    for (int64_t i = 0; i < v.rows; ++i) Bf16ToF32Row(src + i * v.row_stride, v.cols, dst + i * v.cols);
    return;
  }
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && v.rows * v.cols >= (1 << 16))
  for (int64_t i = 0; i < v.rows; ++i)
    for (int64_t j = 0; j < v.cols; ++j) dst[i * v.cols + j] = ToF(src[i * v.row_stride + j * v.col_stride]);
}

}  // namespace

void MatmulRunner::ExecuteF32(Entry* e, const MatView& a, const MatView* b_view, const memory* b_packed,
                              const OutView& c, int tid) {
  ThreadCtx& t = Thread(tid);
  float* fa = Grow(&t.fa, a.rows * a.cols);
  WidenBf16(a, fa);
  const MatView fav = IsTransposed(a) ? MatView{fa, DType::kF32, a.rows, a.cols, 1, a.rows}
                                      : MatView::RowMajor(fa, DType::kF32, a.rows, a.cols, a.cols);
  try {
    memory bm;
    if (b_view != nullptr) {
      float* fb = Grow(&t.fb, b_view->rows * b_view->cols);
      WidenBf16(*b_view, fb);
      bm = memory(e->b, engine_, fb);
    } else {
      bm = *b_packed;
    }
    if (!e->c_bf16 && !e->c_s32) {
      Execute(e, fav, bm, c, tid);
      return;
    }
    float* fc = Grow(&t.fc, c.rows * c.cols);
    Execute(e, fav, bm, OutView{fc, DType::kF32, c.rows, c.cols, c.cols}, tid);
    if (e->c_s32) {
      // Products of int8 values and their sums are exact in f32 up to
      // K = 2^24 / 127^2 (1040); beyond, the sum carries f32's 24 bits
      // (relative 6e-8), far below int8's own quantization error.
      int32_t* out = static_cast<int32_t*>(c.data);
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && c.rows * c.cols >= (1 << 16))
      for (int64_t i = 0; i < c.rows; ++i)
        for (int64_t j = 0; j < c.cols; ++j) {
          const int32_t v = static_cast<int32_t>(std::lrint(fc[i * c.cols + j]));
          out[i * c.ld + j] = e->accumulate ? out[i * c.ld + j] + v : v;
        }
      return;
    }
    bf16_t* out = static_cast<bf16_t*>(c.data);
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && c.rows * c.cols >= (1 << 16))
    for (int64_t i = 0; i < c.rows; ++i) F32ToBf16Row(fc + i * c.cols, c.cols, e->accumulate, out + i * c.ld);
  } catch (const dnnl::error& err) {
    Fail(std::string("f32-compute: ") + err.what());
  }
}

void MatmulRunner::Execute(Entry* e, const MatView& a, const memory& b, const OutView& c, int tid) {
  // REQUIRES (tid > 0): Scratch(tid, e->scratch_bytes) was called and the
  // thread's stream exists; tid 0 sizes its own scratchpad here.
  try {
    char* scratch = tid == 0 ? Scratch(0, e->scratch_bytes) : threads_[static_cast<size_t>(tid)].scratch.get();
    dnnl::stream& s = tid == 0 ? stream_ : threads_[static_cast<size_t>(tid)].stream;
    memory am(e->a, engine_, const_cast<void*>(a.data));
    memory cm(e->c, engine_, c.data);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, cm}};
    if (e->scratch_bytes > 0) args.emplace(DNNL_ARG_SCRATCHPAD, memory(e->scratch, engine_, scratch));
    e->prim.execute(s, args);
    s.wait();
  } catch (const dnnl::error& err) {
    Fail(std::string("execute: ") + err.what());
  }
}

void MatmulRunner::Run(const MatView& a, const MatView& b, const OutView& c, bool accumulate) {
  if (a.rows == 0 || c.cols == 0) return;
  if (a.cols == 0) {
    if (!accumulate)
      for (int64_t i = 0; i < c.rows; ++i)
        std::memset(static_cast<char*>(c.data) + i * c.ld * DTypeSize(c.dtype), 0,
                    static_cast<size_t>(c.cols * DTypeSize(c.dtype)));
    return;
  }
  Entry* e = Get(a, ViewDesc(b), "v" + ViewKey(b) + (IsTransposed(b) ? "|T" : ""), c, accumulate, b.cols);
  if (e == nullptr) return;
  if (e->f32_compute) {
    ExecuteF32(e, a, &b, nullptr, c, 0);
    return;
  }
  try {
    memory bm(e->b, engine_, const_cast<void*>(b.data));
    Execute(e, a, bm, c);
  } catch (const dnnl::error& err) {
    Fail(std::string("weights: ") + err.what());
  }
}

void MatmulRunner::Run(const MatView& a, const PackedMatrix& b, const OutView& c, bool accumulate) {
  if (a.rows == 0 || c.cols == 0) return;
  char bkey[64];
  std::snprintf(bkey, sizeof(bkey), "p%d:%lldx%lld", static_cast<int>(b.dtype()), static_cast<long long>(b.k()),
                static_cast<long long>(b.n()));
  Entry* e = Get(a, b.desc(), bkey, c, accumulate, b.n());
  if (e == nullptr) return;
  if (e->f32_compute) ExecuteF32(e, a, nullptr, &b.memory(), c, 0);
  else Execute(e, a, b.memory(), c);
}

namespace {

std::string PackedKey(const PackedMatrix& b) {
  char bkey[64];
  std::snprintf(bkey, sizeof(bkey), "p%d:%lldx%lld", static_cast<int>(b.dtype()), static_cast<long long>(b.k()),
                static_cast<long long>(b.n()));
  return bkey;
}

// c = 0 for a matmul with an empty inner dimension.
void ZeroOut(const OutView& c) {
  for (int64_t i = 0; i < c.rows; ++i)
    std::memset(static_cast<char*>(c.data) + i * c.ld * DTypeSize(c.dtype), 0,
                static_cast<size_t>(c.cols * DTypeSize(c.dtype)));
}

}  // namespace

MatmulRunner::Entry* MatmulRunner::Resolve(const MatmulJob& j) {
  if (j.packed != nullptr) return Get(j.a, j.packed->desc(), PackedKey(*j.packed), j.c, j.accumulate, j.packed->n());
  return Get(j.a, ViewDesc(j.b), "v" + ViewKey(j.b) + (IsTransposed(j.b) ? "|T" : ""), j.c, j.accumulate, j.b.cols);
}

void MatmulRunner::ExecuteJob(Entry* e, const MatmulJob& j, int tid, const OutView* c) {
  const OutView& out = c != nullptr ? *c : j.c;
  if (e->f32_compute) {
    ExecuteF32(e, j.a, j.packed != nullptr ? nullptr : &j.b, j.packed != nullptr ? &j.packed->memory() : nullptr, out,
               tid);
    return;
  }
  if (j.packed != nullptr) {
    Execute(e, j.a, j.packed->memory(), out, tid);
    return;
  }
  try {
    memory bm(e->b, engine_, const_cast<void*>(j.b.data));
    Execute(e, j.a, bm, out, tid);
  } catch (const dnnl::error& err) {
    Fail(std::string("weights: ") + err.what());
  }
}

char* MatmulRunner::OutBuffer(int tid, size_t bytes) {
  ThreadCtx& t = Thread(tid);
  return AtLeast(&t.out, &t.out_bytes, bytes);
}

void MatmulRunner::RunJob(Entry* e, const MatmulJob& j, int tid) {
  if (!j.consume) {
    if (e != nullptr) ExecuteJob(e, j, tid);
    if (j.epilogue) j.epilogue();
    return;
  }
  // REQUIRES: OutBuffer(tid, ...) was sized for this job.
  OutView c = j.c;
  c.data = threads_[static_cast<size_t>(tid)].out.get();
  if (e != nullptr) {
    ExecuteJob(e, j, tid, &c);
  } else if (j.a.rows > 0 && j.c.cols > 0) {
    ZeroOut(c);  // empty inner dimension
  }
  j.consume(c);
}

void MatmulRunner::RunBatch(const std::vector<MatmulJob>& jobs) {
  // Primitives are created (or found) here, on one thread: the cache is not
  // thread-safe.
  std::vector<Entry*> entries(jobs.size(), nullptr);
  size_t live = 0, scratch = 0, out = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const MatmulJob& j = jobs[i];
    if (j.consume) out = std::max(out, static_cast<size_t>(j.c.rows * j.c.ld * DTypeSize(j.c.dtype)));
    if (j.a.rows == 0 || j.c.cols == 0) continue;
    if (j.a.cols == 0) {
      if (!j.accumulate && !j.consume) ZeroOut(j.c);
      continue;
    }
    entries[i] = Resolve(j);
    if (entries[i] == nullptr) return;
    scratch = std::max(scratch, entries[i]->scratch_bytes);
    ++live;
  }
  const int nt = omp_in_parallel() ? 1 : omp_get_max_threads();
  if (nt <= 1 || live < kMinJobsPerThread * static_cast<size_t>(nt)) {
    if (out > 0) OutBuffer(0, out);
    for (size_t i = 0; i < jobs.size(); ++i) RunJob(entries[i], jobs[i], 0);
    return;
  }
  for (int t = 0; t < nt; ++t) {
    Scratch(t, scratch);
    if (out > 0) OutBuffer(t, out);
    ThreadCtx& ctx = threads_[static_cast<size_t>(t)];
    if (!ctx.stream) ctx.stream = dnnl::stream(engine_);
  }
  const int64_t n = static_cast<int64_t>(jobs.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
  for (int64_t i = 0; i < n; ++i) {
    // Inside this region oneDNN runs each call on the calling thread only.
    RunJob(entries[static_cast<size_t>(i)], jobs[static_cast<size_t>(i)], omp_get_thread_num());
  }
}

void MatmulRunner::ParallelFor(int64_t n, const std::function<void(int64_t)>& fn) {
  const int nt = omp_in_parallel() ? 1 : omp_get_max_threads();
  if (nt <= 1 || n < 2) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  for (int t = 0; t < nt; ++t) {
    Scratch(t, 0);
    ThreadCtx& ctx = threads_[static_cast<size_t>(t)];
    if (!ctx.stream) ctx.stream = dnnl::stream(engine_);
  }
  parallel_threads_ = nt;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
  for (int64_t i = 0; i < n; ++i) fn(i);
  parallel_threads_ = 0;
}

void MatmulRunner::RunHere(const MatmulJob& j) {
  const bool here = parallel_threads_ > 0 && omp_in_parallel();
  if (!here) {
    RunBatch({j});
    return;
  }
  if (j.a.rows > 0 && j.c.cols > 0) {
    if (j.a.cols == 0) {
      if (!j.accumulate) ZeroOut(j.c);
    } else {
      Entry* e = nullptr;
      {
        std::lock_guard<std::mutex> lock(cache_mu_);
        e = Resolve(j);
      }
      if (e == nullptr) return;
      const int tid = omp_get_thread_num();
      Scratch(tid, e->scratch_bytes);  // the thread's own slot only
      ExecuteJob(e, j, tid);
    }
  }
  if (j.epilogue) j.epilogue();
}

memory::desc MatmulRunner::WeightsDesc(int64_t k, int64_t n, DType dtype) {
  const std::string key = std::to_string(k) + "x" + std::to_string(n) + ":" + std::to_string(static_cast<int>(dtype));
  {
    std::lock_guard<std::mutex> lock(layout_mu_);
    auto it = weight_descs_.find(key);
    if (it != weight_descs_.end()) return it->second;
  }
  // The blocked layout brgemm wants for B depends on (K, N, types), not M.
  // f32-compute mode: bf16 (or s8) weights are packed as f32 copies.
  const bool f32 = (dtype == DType::kBF16 && !bf16_native_) || (dtype == DType::kS8 && !int8_native_);
  memory::data_type dt = f32 ? memory::data_type::f32 : ToDnnl(dtype);
  memory::data_type out = dt == memory::data_type::s8 ? memory::data_type::s32 : dt;
  memory::desc a_md({512, k}, dt, memory::format_tag::ab);
  memory::desc b_md({k, n}, dt, memory::format_tag::any);
  memory::desc c_md({512, n}, out, memory::format_tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), engine_);
  std::lock_guard<std::mutex> lock(layout_mu_);
  return weight_descs_.emplace(key, pd.weights_desc()).first->second;
}

PackedMatrix MatmulRunner::Pack(const MatView& b) {
  PackedMatrix p;
  p.k_ = b.rows;
  p.n_ = b.cols;
  p.dtype_ = b.dtype;
  try {
    p.desc_ = WeightsDesc(b.rows, b.cols, b.dtype);
    p.memory_ = memory(p.desc_, engine_);
    p.vnni64_ = VnniPackable(p);
  } catch (const dnnl::error& err) {
    FailUnsupported(std::string("packing the weights: ") + err.what(), b.dtype, 512, b.rows, b.cols);
    p.k_ = 0;
    return p;
  }
  Repack(b, &p);
  return p;
}

namespace {

// oneDNN 2.6's AMX bf16 matmul takes its weights [K, N] in the blocked layout
// BA16a64b2a: 64-column blocks outermost, then 32-row blocks, each a
// [16][64][2] array of row pairs (VNNI). Writes rows [0, k) and columns
// [0, n) of w (row stride ld) into the layout of a [k, total_n] matrix, at
// column block offset col0 / 64. Rows [k_valid, k) are written as zeros
// (w has only k_valid rows). REQUIRES: k % 32 == 0, n % 64 == 0,
// col0 % 64 == 0, k_valid <= k.
void PackVnni64(const bf16_t* w, int64_t k_valid, int64_t k, int64_t n, int64_t ld, int64_t col0, bf16_t* dst) {
  const int64_t kb_count = k / 32;
  alignas(64) static const bf16_t kZeros[64] = {};
  for (int64_t nb = 0; nb < n / 64; ++nb) {
    bf16_t* out = dst + ((col0 / 64 + nb) * kb_count) * 32 * 64;
    for (int64_t r = 0; r < k; r += 2, out += 128) {
      const bf16_t* r0 = r < k_valid ? w + r * ld + nb * 64 : kZeros;
      const bf16_t* r1 = r + 1 < k_valid ? w + (r + 1) * ld + nb * 64 : kZeros;
      InterleaveRowPair64(r0, r1, out);
    }
  }
}

// The same layout for the transpose of a row-major w [n, kpart] (row stride
// ld): B = w^T, written into rows [k0, k0 + kpart) of a [k_total, n] B. A
// VNNI pair (B[k][j], B[k+1][j]) is the 32-bit word w[j][k..k+1], so each
// [16 pairs][64 columns] block is four 16x16 transposes of 32-bit words.
// REQUIRES: n % 64 == 0, kpart % 32 == 0, k0 % 32 == 0, ld even.
void PackVnni64Transposed(const bf16_t* w, int64_t n, int64_t kpart, int64_t ld, int64_t k0, int64_t k_total,
                          bf16_t* dst) {
  const int64_t kb_count = k_total / 32;
  for (int64_t nb = 0; nb < n / 64; ++nb) {
    for (int64_t kb = 0; kb < kpart / 32; ++kb) {
      bf16_t* out = dst + (nb * kb_count + k0 / 32 + kb) * 32 * 64;
      for (int64_t q = 0; q < 4; ++q) {
        const bf16_t* src = w + (nb * 64 + q * 16) * ld + kb * 32;
        TransposePairs16x16(src, ld, out + q * 16 * 2);
      }
    }
  }
}

}  // namespace

bool MatmulRunner::VnniPackable(const PackedMatrix& p) {
  if (p.dtype_ != DType::kBF16 || p.k_ % 32 != 0 || p.n_ % 64 != 0) return false;
  if (p.desc_.get_size() != static_cast<size_t>(p.k_ * p.n_) * sizeof(bf16_t)) return false;
  const std::string key = std::to_string(p.k_) + "x" + std::to_string(p.n_);
  std::lock_guard<std::mutex> lock(cache_mu_);
  auto it = vnni_layouts_.find(key);
  if (it != vnni_layouts_.end()) return it->second;
  // Reorder a pattern with oneDNN and compare it with PackVnni64's.
  bool same = false;
  try {
    std::vector<bf16_t> src(static_cast<size_t>(p.k_ * p.n_)), ours(src.size()), theirs(src.size());
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<bf16_t>(i * 2654435761u >> 16);
    memory sm(memory::desc({p.k_, p.n_}, memory::data_type::bf16, memory::format_tag::ab), engine_, src.data());
    memory dm(p.desc_, engine_, theirs.data());
    // A stream of its own: this may run on a worker thread while thread 0
    // executes on stream_.
    dnnl::stream s(engine_);
    dnnl::reorder(sm, dm).execute(s, sm, dm);
    s.wait();
    PackVnni64(src.data(), p.k_, p.k_, p.n_, p.n_, 0, ours.data());
    same = ours == theirs;
  } catch (const dnnl::error&) {
    same = false;
  }
  vnni_layouts_.emplace(key, same);
  return same;
}

bool MatmulRunner::RepackColumns(const MatView& b, int64_t col0, PackedMatrix* p) {
  if (!p->vnni64_ || b.dtype != DType::kBF16 || b.col_stride != 1 || b.rows != p->k_ || col0 % 64 != 0 ||
      b.cols % 64 != 0 || col0 + b.cols > p->n_)
    return false;
  PackVnni64(static_cast<const bf16_t*>(b.data), b.rows, b.rows, b.cols, b.row_stride, col0,
             static_cast<bf16_t*>(p->memory_.get_data_handle()));
  return true;
}

bool MatmulRunner::PackInto(const MatView& b, int64_t k, void* buffer, PackedMatrix* p) {
  if (b.dtype != DType::kBF16 || b.col_stride != 1 || b.rows > k || k % 32 != 0 || b.cols % 64 != 0) return false;
  PackedMatrix q;
  q.k_ = k;
  q.n_ = b.cols;
  q.dtype_ = b.dtype;
  try {
    q.desc_ = WeightsDesc(k, b.cols, b.dtype);
    if (!VnniPackable(q)) return false;
    q.vnni64_ = true;
    q.memory_ = memory(q.desc_, engine_, buffer);
  } catch (const dnnl::error&) {
    return false;
  }
  PackVnni64(static_cast<const bf16_t*>(b.data), b.rows, k, b.cols, b.row_stride, 0, static_cast<bf16_t*>(buffer));
  *p = std::move(q);
  return true;
}

bool MatmulRunner::SliceColumns(const PackedMatrix& p, int64_t col0, int64_t n, PackedMatrix* slice) {
  if (!p.vnni64_ || col0 % 64 != 0 || n % 64 != 0 || n <= 0 || col0 < 0 || col0 + n > p.n_) return false;
  try {
    PackedMatrix q;
    q.k_ = p.k_;
    q.n_ = n;
    q.dtype_ = DType::kBF16;
    q.desc_ = WeightsDesc(p.k_, n, DType::kBF16);
    if (!VnniPackable(q)) return false;
    q.vnni64_ = true;
    // Block b of 64 columns starts at element b * 64 * K (PackVnni64).
    bf16_t* base = static_cast<bf16_t*>(p.memory_.get_data_handle());
    q.memory_ = memory(q.desc_, engine_, base + col0 * p.k_);
    *slice = std::move(q);
    return true;
  } catch (const dnnl::error&) {
    return false;
  }
}

bool MatmulRunner::RepackRows(const MatView& b, int64_t row0, PackedMatrix* p) {
  if (!p->vnni64_ || b.dtype != DType::kBF16 || b.row_stride != 1 || b.col_stride % 2 != 0 || b.cols != p->n_ ||
      row0 % 32 != 0 || b.rows % 32 != 0 || row0 + b.rows > p->k_)
    return false;
  PackVnni64Transposed(static_cast<const bf16_t*>(b.data), b.cols, b.rows, b.col_stride, row0, p->k_,
                       static_cast<bf16_t*>(p->memory_.get_data_handle()));
  return true;
}

void MatmulRunner::Repack(const MatView& b, PackedMatrix* p) {
  if (p->empty()) return;
  if (b.cols == p->n_ && RepackColumns(b, 0, p)) return;
  if (b.rows == p->k_ && RepackRows(b, 0, p)) return;
  try {
    // Inside ParallelFor each thread reorders on its own stream (and, as a
    // nested OpenMP call, on that thread only).
    const bool here = parallel_threads_ > 0 && omp_in_parallel();
    dnnl::stream& s = here ? threads_[static_cast<size_t>(omp_get_thread_num())].stream : stream_;
    if ((b.dtype == DType::kBF16 && !bf16_native_) || (b.dtype == DType::kS8 && !int8_native_)) {
      // f32-compute: widen, then reorder the f32 copy into the f32 layout.
      std::vector<float> wide(static_cast<size_t>(b.rows * b.cols));
      WidenBf16(b, wide.data());
      memory src(memory::desc({b.rows, b.cols}, memory::data_type::f32, memory::format_tag::ab), engine_, wide.data());
      dnnl::reorder(src, p->memory_).execute(s, src, p->memory_);
      s.wait();
      return;
    }
    memory src(ViewDesc(b), engine_, const_cast<void*>(b.data));
    dnnl::reorder(src, p->memory_).execute(s, src, p->memory_);
    s.wait();
  } catch (const dnnl::error& err) {
    Fail(std::string("reorder: ") + err.what());
  }
}

}  // namespace moelog::engine::cpu
