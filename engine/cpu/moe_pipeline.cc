#include "engine/cpu/moe_pipeline.h"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <type_traits>

#include "engine/cpu/kernels.h"
#include "engine/cpu/sliced_up.h"

namespace moelog::engine::cpu {
namespace {

// Per-token-stripe spin locks of the combine (a token's stripe is t % kStripes).
constexpr int64_t kStripes = 4096;

void Grow(Tensor* t, DType dt, int64_t elems) {
  if (t->empty() || t->dtype() != dt || t->numel() < elems) *t = Tensor(dt, {std::max<int64_t>(elems, 1)});
}

MatmulJob Job(const MatView& a, const PackedMatrix* packed, const MatView& b, const OutView& c,
              bool accumulate = false) {
  MatmulJob j;
  j.a = a;
  j.packed = packed;
  j.b = b;
  j.c = c;
  j.accumulate = accumulate;
  return j;
}

// dst [H,2M] = w1_e | w3_e row by row.
void ConcatW13(const void* w1, const void* w3, int64_t h, int64_t m, int64_t es, void* dst) {
  const char* a = static_cast<const char*>(w1);
  const char* b = static_cast<const char*>(w3);
  char* d = static_cast<char*>(dst);
  for (int64_t i = 0; i < h; ++i) {
    std::memcpy(d + 2 * i * m * es, a + i * m * es, static_cast<size_t>(m * es));
    std::memcpy(d + (2 * i + 1) * m * es, b + i * m * es, static_cast<size_t>(m * es));
  }
}

// Rows [r0, r0 + n) of the packed order gathered from x (zero when not kept).
void GatherTile(const Tensor& x, const PackPlan& plan, int64_t r0, int64_t n, void* dst) {
  const int64_t h = x.dim(1), es = DTypeSize(x.dtype());
  const char* src = static_cast<const char*>(x.data());
  char* d = static_cast<char*>(dst);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = r0 + i;
    if (plan.keep[r]) std::memcpy(d + i * h * es, src + int64_t{plan.token[r]} * h * es, static_cast<size_t>(h * es));
    else std::memset(d + i * h * es, 0, static_cast<size_t>(h * es));
  }
}

inline void Lock(std::atomic<uint8_t>* l) {
  while (l->exchange(1, std::memory_order_acquire) != 0) {
    while (l->load(std::memory_order_relaxed) != 0) {
#if defined(__x86_64__)
      __builtin_ia32_pause();
#endif
    }
  }
}
inline void Unlock(std::atomic<uint8_t>* l) { l->store(0, std::memory_order_release); }

// Returns the whole pages inside [p, p + bytes) to the OS (their contents
// become zero). Only for data that is dead: it is rewritten before its next use.
void DiscardPages(void* p, int64_t bytes) {
  static const int64_t page = sysconf(_SC_PAGESIZE);
  const uintptr_t b = reinterpret_cast<uintptr_t>(p);
  const uintptr_t begin = (b + page - 1) / page * page, end = (b + bytes) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

// Returns a buffer's huge pages to the OS as the backward consumes it: each
// page counts the bytes consumed (or never used) in it and is discarded once
// all of it is, so a page shared by two experts waits for both. Thread-safe.
class ConsumedPages {
 public:
  // buf: the buffer (kHugePage-aligned, `size` bytes, a multiple of the
  // page); bytes [used, size) are never consumed and count as done.
  ConsumedPages(void* buf, int64_t size, int64_t used) : base_(static_cast<char*>(buf)) {
    const int64_t page = Tensor::kHugePage;
    pages_ = buf == nullptr ? 0 : size / page;
    done_.reset(new std::atomic<int64_t>[static_cast<size_t>(std::max<int64_t>(pages_, 1))]);
    for (int64_t p = 0; p < pages_; ++p) {
      const int64_t lo = p * page, hi = lo + page;
      done_[p].store(std::max<int64_t>(0, hi - std::max(lo, used)), std::memory_order_relaxed);
    }
  }
  // Marks [p, p + bytes) (inside the used part) consumed.
  void Release(const void* p, int64_t bytes) {
    const int64_t page = Tensor::kHugePage;
    const int64_t begin = static_cast<const char*>(p) - base_, end = begin + bytes;
    for (int64_t pg = begin / page; pg < pages_ && pg * page < end; ++pg)
      Credit(pg, std::min(end, (pg + 1) * page) - std::max(begin, pg * page));
  }

 private:
  void Credit(int64_t pg, int64_t bytes) {
    const int64_t page = Tensor::kHugePage;
    if (done_[pg].fetch_add(bytes, std::memory_order_acq_rel) + bytes == page)
      madvise(base_ + pg * page, static_cast<size_t>(page), MADV_DONTNEED);
  }
  char* base_;
  int64_t pages_ = 0;
  std::unique_ptr<std::atomic<int64_t>[]> done_;
};

// A unit of work: rows [r0, r0 + n) of group g, cut into tiles of `tile` rows.
struct Unit {
  int64_t g, r0, n, tile;
};

}  // namespace

struct TiledMoe::Thread {
  Tensor x, ab, h, y, w13;
  // Training: the in-flight expert's weights, prepacked once per expert and
  // step (oneDNN's matmul on plain weights repacks them on every call).
  PackedMatrix p13, p1, p3, p2;
  // Backward, bf16: a transposed operand ([H or M, tokens]) and a packed
  // right operand (tokens as K) of the weight-gradient matmuls, and the
  // in-flight expert's transposed weights, prepacked (W2^T, W13^T or W1^T
  // and W3^T).
  Tensor tr, pk;
  PackedMatrix p2t, p13t, p1t, p3t;
};

// Where weighted rows are summed per token (see the header).
struct TiledMoe::Accumulator {
  int64_t hidden = 0;
  DType dtype = DType::kF32;   // y dtype
  void* y = nullptr;           // into y
  bf16_t* lo = nullptr;        // bf16 y: lower halves of the f32 sums
  // bf16 y without a lo plane: every contribution is a bf16 value added with
  // scale 1 and no token gets more than two, so the f32 sum of the first
  // (stored exactly in y) and the second is the same as with a full f32 sum.
  bool pair_exact = false;
  float* f32 = nullptr;        // into an f32 buffer (+=)
  // bf16 y: a token with exactly two contributions keeps the first one as it
  // came (a bf16 row, in y) and its scale here; the second then forms the f32
  // sum and rounds it once. Half the traffic of the split planes.
  float* first_scale = nullptr;
  const int32_t* expected = nullptr;
  int32_t* arrived = nullptr;
  std::unique_ptr<std::atomic<uint8_t>[]> locks{new std::atomic<uint8_t>[kStripes]};

  Accumulator() {
    for (int64_t i = 0; i < kStripes; ++i) locks[i].store(0, std::memory_order_relaxed);
  }

  // token t += scale * src[0, hidden). Products are rounded before they are
  // added (no FMA contraction), so that two contributions sum to the same
  // value in either arrival order. Long on purpose: the per-dtype vector
  // loops run under the token's stripe lock, one body the compiler keeps
  // whole (fp-contract=off applies to this function alone).
  template <typename T>
  __attribute__((optimize("fp-contract=off"))) void Add(int64_t t, const T* src, float scale) {
    const int64_t h = hidden;
    std::atomic<uint8_t>* l = &locks[t % kStripes];
    Lock(l);
    if (f32 != nullptr) {
      float* o = f32 + t * h;
#pragma omp simd
      for (int64_t j = 0; j < h; ++j) o[j] += scale * ToF(src[j]);
      Unlock(l);
      return;
    }
    const int32_t n = ++arrived[t];
    const bool first = n == 1, last = n == expected[t];
    if (dtype == DType::kF32) {
      float* o = static_cast<float*>(y) + t * h;
      if (first) {
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) o[j] = 0.0f + scale * ToF(src[j]);
      } else {
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) o[j] += scale * ToF(src[j]);
      }
    } else {
      bf16_t* hi = static_cast<bf16_t*>(y) + t * h;
      bf16_t* lw = lo != nullptr ? lo + t * h : nullptr;  // no low halves kept: none to offset
      if (first && last) {
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) hi[j] = FromF<bf16_t>(0.0f + scale * ToF(src[j]));
      } else if (first_scale != nullptr && expected[t] == 2 && std::is_same_v<T, bf16_t>) {
        if (first) {
          std::memcpy(hi, src, static_cast<size_t>(h) * sizeof(bf16_t));
          first_scale[t] = scale;
        } else {
          PairScaleAddBf16Row(hi, src, first_scale[t], scale, h);
        }
      } else if (pair_exact) {
        PairAddBf16Row(hi, src, first, h);
      } else if (first) {
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) {
          const uint32_t u = std::bit_cast<uint32_t>(0.0f + scale * ToF(src[j]));
          hi[j] = static_cast<bf16_t>(u >> 16);
          lw[j] = static_cast<bf16_t>(u & 0xffffu);
        }
      } else if (last) {
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) {
          const float a = std::bit_cast<float>((static_cast<uint32_t>(hi[j]) << 16) | lw[j]);
          hi[j] = FromF<bf16_t>(a + scale * ToF(src[j]));
        }
      } else {
#pragma omp simd
        for (int64_t j = 0; j < h; ++j) {
          const float a = std::bit_cast<float>((static_cast<uint32_t>(hi[j]) << 16) | lw[j]);
          const uint32_t u = std::bit_cast<uint32_t>(a + scale * ToF(src[j]));
          hi[j] = static_cast<bf16_t>(u >> 16);
          lw[j] = static_cast<bf16_t>(u & 0xffffu);
        }
      }
    }
    Unlock(l);
  }
};

TiledMoe::TiledMoe(MatmulRunner* runner, PipelineOptions options) : runner_(runner), options_(options) {}

void TiledMoe::EnsurePack(PackedMatrix* p, int64_t k, int64_t n, DType dt) {
  // Allocated here, outside the parallel region; the contents are written
  // per expert (Repack). The source only fixes the shape.
  if (!p->empty() && p->k() == k && p->n() == n && p->dtype() == dt) return;
  Tensor src(dt, {k, n});
  src.Zero();
  *p = runner_->Pack(MatView::RowMajor(src.data(), dt, k, n, n));
}

void TiledMoe::PrepareThreadPacks(Thread* th, int64_t h, int64_t m, DType dt) {
  if (options_.fused_w13) {
    EnsurePack(&th->p13, h, 2 * m, dt);
  } else {
    EnsurePack(&th->p1, h, m, dt);
    EnsurePack(&th->p3, h, m, dt);
  }
  EnsurePack(&th->p2, m, h, dt);
}

void TiledMoe::PrepackExpert(int64_t e, int64_t experts, int64_t h, int64_t m, DType dt, const void* w1,
                             const void* w3, const void* w2) {
  if (p2_.size() != static_cast<size_t>(experts)) {
    p13_.clear();
    p1_.clear();
    p3_.clear();
    p2_.assign(static_cast<size_t>(experts), PackedMatrix());
    if (options_.fused_w13) {
      p13_.resize(static_cast<size_t>(experts));
    } else {
      p1_.resize(static_cast<size_t>(experts));
      p3_.resize(static_cast<size_t>(experts));
    }
  }
  const size_t i = static_cast<size_t>(e);
  if (options_.fused_w13) {
    Tensor tmp(dt, {h, 2 * m});
    ConcatW13(w1, w3, h, m, DTypeSize(dt), tmp.data());
    p13_[i] = runner_->Pack(MatView::RowMajor(tmp.data(), dt, h, 2 * m, 2 * m));
  } else {
    p1_[i] = runner_->Pack(MatView::RowMajor(w1, dt, h, m, m));
    p3_[i] = runner_->Pack(MatView::RowMajor(w3, dt, h, m, m));
  }
  p2_[i] = runner_->Pack(MatView::RowMajor(w2, dt, m, h, h));
}

Status TiledMoe::Prepack(const ExpertWeights& w) {
  const int64_t l = w.experts(), h = w.hidden(), m = w.mlp_dim();
  for (int64_t e = 0; e < l; ++e)
    PrepackExpert(e, l, h, m, w.w1.dtype(), w.w1.at(e * h * m), w.w3.at(e * h * m), w.w2.at(e * m * h));
  return runner_->status();
}

void TiledMoe::DiscardGradients(ExpertGrads* grads) {
  for (Tensor* g : {&grads->dw1, &grads->dw3, &grads->dw2})
    if (!g->empty()) DiscardPages(g->data(), g->bytes());
}

int64_t TiledMoe::HeldBytes() const {
  int64_t b = saved_ab_.bytes() + saved_ht_.bytes() + lo_.bytes();
  for (const auto* v : {&p13_, &p1_, &p3_, &p2_})
    for (const PackedMatrix& p : *v)
      if (!p.empty()) b += static_cast<int64_t>(p.desc().get_size());
  for (const auto& t : threads_) {
    for (const Tensor* x : {&t->x, &t->ab, &t->h, &t->y, &t->w13, &t->tr, &t->pk}) b += x->bytes();
    for (const PackedMatrix* p : {&t->p13, &t->p1, &t->p3, &t->p2, &t->p2t, &t->p13t, &t->p1t, &t->p3t})
      if (!p->empty()) b += static_cast<int64_t>(p->desc().get_size());
  }
  return b;
}

namespace {

// Units of the plan's groups: whole groups (per_expert) or single tiles.
std::vector<Unit> MakeUnits(const PackPlan& plan, GroupedBackend backend, bool per_expert, int64_t* max_tile,
                            int64_t* max_group) {
  std::vector<Unit> units;
  *max_tile = *max_group = 0;
  int64_t r0 = 0;
  for (size_t g = 0; g < plan.group_sizes.size(); ++g) {
    const int64_t n = plan.group_sizes[g];
    if (n > 0) {
      const int64_t tile = backend == GroupedBackend::kGmm ? std::min(kGmmTileRows, n) : n;
      *max_tile = std::max(*max_tile, tile);
      *max_group = std::max(*max_group, n);
      if (per_expert) {
        units.push_back({static_cast<int64_t>(g), r0, n, tile});
      } else {
        for (int64_t off = 0; off < n; off += tile)
          units.push_back({static_cast<int64_t>(g), r0 + off, std::min(tile, n - off), tile});
      }
    }
    r0 += n;
  }
  return units;
}

int ThreadIndex() { return omp_in_parallel() ? omp_get_thread_num() : 0; }

// True when the bf16 backward runs its matmuls on moelog's transposed and
// packed operands (the 64-column blocks of the packed layout).
bool BackwardPacksOperands(DType dt, int64_t h, int64_t m) { return dt == DType::kBF16 && h % 64 == 0 && m % 64 == 0; }

}  // namespace

int64_t PadTokens(int64_t n) {
  const int64_t p = (n + 31) / 32 * 32;
  return p > 0 && p % 512 == 0 ? p + 32 : p;
}

int32_t TiledMoe::AccumulatorTarget(const PackPlan& plan, int64_t t, int64_t h, DType dt, Tensor* out, float* out_f32,
                                    Accumulator* acc) {
  acc->hidden = h;
  acc->dtype = dt;
  if (out_f32 != nullptr) {
    acc->f32 = out_f32;
    return 0;
  }
  if (out->empty() || out->dtype() != dt || out->shape() != std::vector<int64_t>{t, h}) *out = Tensor(dt, {t, h});
  acc->y = out->data();
  expected_.assign(static_cast<size_t>(t), 0);
  arrived_.assign(static_cast<size_t>(t), 0);
  int32_t most = 0;
  for (int64_t r = 0; r < plan.valid_rows; ++r)
    if (plan.keep[r]) most = std::max(most, ++expected_[static_cast<size_t>(plan.token[r])]);
  acc->expected = expected_.data();
  acc->arrived = arrived_.data();
  return most;
}

// One Forward call, by stage. Before the experts run: the buffers the
// backward reads (gate|up rows, h^T), the threads' tiles, the combine target.
// Per unit (an expert in training, a tile otherwise): the expert's packed
// weights, then per tile gate|up and SwiGLU (or the sliced up projection),
// h^T saved, and the down projection added into each token's row.
struct TiledMoe::ForwardPass {
  ForwardPass(TiledMoe* moe_in, const ExpertWeights& w_in, const Tensor& x_in, const PackPlan& plan_in, bool save)
      : moe(*moe_in), w(w_in), x(x_in), plan(plan_in), t(x.dim(0)), h(x.dim(1)),
        m(moe.prepacked() ? moe.p2_[0].k() : w.mlp_dim()), dt(x.dtype()), es(DTypeSize(dt)),
        packed(moe.prepacked()), fused(moe.options_.fused_w13), training(!packed),
        keep_ab(save && moe.options_.remat != RematMode::kExpertMlp),
        // h^T for the backward's dW2 (see saved_ht_): written per tile while
        // h is in cache.
        keep_ht(keep_ab && !moe.options_.plain_backward && BackwardPacksOperands(dt, h, m)),
        wt(moe.options_.preweight ? plan.weight.data() : nullptr), apply_weight(!moe.options_.preweight) {}

  // The weights one unit multiplies by: shared prepacked ones (forward only)
  // or this thread's, packed for the unit.
  struct Packs {
    const PackedMatrix *p13 = nullptr, *p1 = nullptr, *p3 = nullptr, *p2 = nullptr;
  };

  void ReserveSaved();
  void PrepareThreads(const std::vector<Unit>& units);
  void PrepareCombine(Tensor* y, float* out_f32, Tensor* lo_plane);
  Packs PackWeights(int64_t g, Thread& th);
  bool GateUpSwiGlu(Thread& th, const Packs& pk, int64_t r, int64_t n);
  void SaveHt(Thread& th, int64_t g, int64_t r, int64_t n);
  void DownAndCombine(Thread& th, const Packs& pk, int64_t r, int64_t n);
  void RunUnit(const Unit& u);

  TiledMoe& moe;
  const ExpertWeights& w;
  const Tensor& x;
  const PackPlan& plan;
  const int64_t t, h, m;
  const DType dt;
  const int64_t es;
  const bool packed, fused, training, keep_ab, keep_ht;
  const float* wt;          // preweight: the routing weights SwiGLU applies
  const bool apply_weight;  // else the combine applies them
  bool sliced_up = false;   // forward-only bf16: up projection and SwiGLU in column slices
  std::vector<int64_t> group_start;
  Accumulator acc;
  std::atomic<bool> slice_failed{false};
  MatmulRunner* runner() const { return moe.runner_; }
};

void TiledMoe::ForwardPass::ReserveSaved() {
  if (keep_ab) {
    moe.saved_rows_ = plan.valid_rows;
    Tensor& ab = moe.saved_ab_;
    if (ab.empty() || ab.dtype() != dt || ab.numel() < moe.saved_rows_ * 2 * m)
      ab = Tensor::HugePages(dt, {std::max<int64_t>(moe.saved_rows_ * 2 * m, 1)});
  } else {
    moe.saved_ab_ = Tensor();
    moe.saved_rows_ = 0;
  }
  const size_t groups = plan.group_sizes.size();
  group_start.assign(groups + 1, 0);
  for (size_t g = 0; g < groups; ++g) group_start[g + 1] = group_start[g] + plan.group_sizes[g];
  moe.saved_ht_off_.assign(groups + 1, 0);
  for (size_t g = 0; g < groups; ++g)
    moe.saved_ht_off_[g + 1] = moe.saved_ht_off_[g] + (keep_ht ? m * PadTokens(plan.group_sizes[g]) : 0);
  if (!keep_ht) {
    moe.saved_ht_ = Tensor();
    return;
  }
  const int64_t elems = std::max<int64_t>(moe.saved_ht_off_.back(), 1);
  if (moe.saved_ht_.empty() || moe.saved_ht_.dtype() != dt || moe.saved_ht_.numel() < elems)
    moe.saved_ht_ = Tensor::HugePages(dt, {elems});
}

void TiledMoe::ForwardPass::PrepareThreads(const std::vector<Unit>& units) {
  int64_t max_tile = 0;
  for (const Unit& u : units) max_tile = std::max(max_tile, u.tile);
  const int nt = std::max(1, omp_get_max_threads());
  while (moe.threads_.size() < static_cast<size_t>(nt)) moe.threads_.push_back(std::make_shared<Thread>());
  // Forward-only bf16 on prepacked weights: the up projection and SwiGLU in
  // column slices (sliced_up.h), with th->ab as the slices' scratch.
  MatmulRunner* run = runner();
  sliced_up = packed && !keep_ab && dt == DType::kBF16 &&
              (fused ? !moe.p13_.empty() && CanSliceUp(run, moe.p13_[0], 0, moe.p13_[0], m, m)
                     : !moe.p1_.empty() && !moe.p3_.empty() && CanSliceUp(run, moe.p1_[0], 0, moe.p3_[0], 0, m));
  for (auto& th : moe.threads_) {
    Grow(&th->x, dt, max_tile * h);
    if (!keep_ab) Grow(&th->ab, dt, sliced_up ? SlicedUpScratch(m) : max_tile * 2 * m);
    Grow(&th->h, dt, max_tile * m);
    Grow(&th->y, dt, max_tile * h);
    if (training && fused) Grow(&th->w13, dt, h * 2 * m);
    if (training) moe.PrepareThreadPacks(th.get(), h, m, dt);
  }
}

// The combine target: an f32 buffer (+=), or y with per-token counts.
void TiledMoe::ForwardPass::PrepareCombine(Tensor* y, float* out_f32, Tensor* lo_plane) {
  const int32_t most = moe.AccumulatorTarget(plan, t, h, dt, y, out_f32, &acc);
  if (out_f32 != nullptr || dt != DType::kBF16) return;
  moe.first_scale_.resize(static_cast<size_t>(t));
  acc.first_scale = moe.first_scale_.data();
  if (most > 2) {
    // Tokens with three or more contributions keep split f32 sums.
    Tensor* plane = lo_plane != nullptr ? lo_plane : &moe.lo_;
    if (plane->empty() || plane->dtype() != DType::kBF16 || plane->numel() < t * h)
      *plane = Tensor(DType::kBF16, {t, h});
    acc.lo = plane->as<bf16_t>();
  }
  if (lo_plane != nullptr || most <= 2) moe.lo_ = Tensor();
}

TiledMoe::ForwardPass::Packs TiledMoe::ForwardPass::PackWeights(int64_t g, Thread& th) {
  const size_t gi = static_cast<size_t>(g);
  Packs pk;
  if (packed) {
    if (fused) pk.p13 = &moe.p13_[gi];
    else pk.p1 = &moe.p1_[gi], pk.p3 = &moe.p3_[gi];
    pk.p2 = &moe.p2_[gi];
    return pk;
  }
  MatmulRunner* run = runner();
  if (fused) {
    // w1 and w3 straight into the two column halves when the layout allows
    // it; otherwise concatenated first.
    const void* w1 = w.w1.at(g * h * m);
    const void* w3 = w.w3.at(g * h * m);
    if (!run->RepackColumns(MatView::RowMajor(w1, dt, h, m, m), 0, &th.p13) ||
        !run->RepackColumns(MatView::RowMajor(w3, dt, h, m, m), m, &th.p13)) {
      ConcatW13(w1, w3, h, m, es, th.w13.data());
      run->Repack(MatView::RowMajor(th.w13.data(), dt, h, 2 * m, 2 * m), &th.p13);
    }
    pk.p13 = &th.p13;
  } else {
    run->Repack(MatView::RowMajor(w.w1.at(g * h * m), dt, h, m, m), &th.p1);
    run->Repack(MatView::RowMajor(w.w3.at(g * h * m), dt, h, m, m), &th.p3);
    pk.p1 = &th.p1;
    pk.p3 = &th.p3;
  }
  run->Repack(MatView::RowMajor(w.w2.at(g * m * h), dt, m, h, h), &th.p2);
  pk.p2 = &th.p2;
  return pk;
}

// h = SwiGLU(x W1, x W3) for rows [r, r + n), gathered into th.x. gate|up go
// to the saved buffer (training) or the thread's tile; false when an
// expert's weights cannot be sliced.
bool TiledMoe::ForwardPass::GateUpSwiGlu(Thread& th, const Packs& pk, int64_t r, int64_t n) {
  MatView xa = MatView::RowMajor(th.x.data(), dt, n, h, h);
  const float* row_scale = wt != nullptr ? wt + r : nullptr;
  if (sliced_up) {
    // Forward only: gate|up exist only as L2 scratch tiles (th.ab).
    return fused ? SlicedUpSwiGlu(runner(), xa, *pk.p13, 0, *pk.p13, m, m, row_scale, th.h.as<bf16_t>(), m,
                                  th.ab.as<bf16_t>())
                 : SlicedUpSwiGlu(runner(), xa, *pk.p1, 0, *pk.p3, 0, m, row_scale, th.h.as<bf16_t>(), m,
                                  th.ab.as<bf16_t>());
  }
  void* ab = keep_ab ? (fused ? moe.saved_ab_.at(r * 2 * m) : moe.saved_ab_.at(r * m)) : th.ab.data();
  const int64_t ld = fused ? 2 * m : m;
  const int64_t boff = fused ? m : keep_ab ? moe.saved_rows_ * m : n * m;
  if (fused) {
    runner()->RunHere(Job(xa, pk.p13, MatView{}, OutView{ab, dt, n, 2 * m, 2 * m}));
  } else {
    runner()->RunHere(Job(xa, pk.p1, MatView{}, OutView{ab, dt, n, m, m}));
    runner()->RunHere(Job(xa, pk.p3, MatView{}, OutView{static_cast<char*>(ab) + boff * es, dt, n, m, m}));
  }
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    SwiGluRows(static_cast<const T*>(ab), ld, boff, n, m, row_scale, th.h.as<T>(), m);
  });
  return true;
}

// Columns [o, o + n) of the expert's h^T; the last tile also writes the zero
// padding.
void TiledMoe::ForwardPass::SaveHt(Thread& th, int64_t g, int64_t r, int64_t n) {
  const size_t gi = static_cast<size_t>(g);
  const int64_t gs = plan.group_sizes[gi], pad = PadTokens(gs), o = r - group_start[gi];
  TransposeBf16(th.h.as<bf16_t>(), n, m, m, o + n == gs ? pad - o : n,
                moe.saved_ht_.as<bf16_t>() + moe.saved_ht_off_[gi] + o, pad);
}

// y rows = h W2, each added into its token's output with the routing weight.
void TiledMoe::ForwardPass::DownAndCombine(Thread& th, const Packs& pk, int64_t r, int64_t n) {
  runner()->RunHere(Job(MatView::RowMajor(th.h.data(), dt, n, m, m), pk.p2, MatView{}, OutView{th.y.data(), dt, n, h, h}));
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* yt = th.y.as<T>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = r + i;
      if (plan.keep[row]) acc.Add(plan.token[row], yt + i * h, apply_weight ? plan.weight[row] : 1.0f);
    }
  });
}

void TiledMoe::ForwardPass::RunUnit(const Unit& u) {
  Thread& th = *moe.threads_[static_cast<size_t>(ThreadIndex())];
  const Packs pk = PackWeights(u.g, th);
  for (int64_t off = 0; off < u.n; off += u.tile) {
    const int64_t r = u.r0 + off, n = std::min(u.tile, u.n - off);
    GatherTile(x, plan, r, n, th.x.data());
    if (!GateUpSwiGlu(th, pk, r, n)) {  // CanSliceUp held for expert 0, and every expert has its layout
      slice_failed.store(true, std::memory_order_relaxed);
      return;
    }
    if (keep_ht) SaveHt(th, u.g, r, n);
    DownAndCombine(th, pk, r, n);
  }
}

namespace {

// Zeroes the rows of `out` (shaped and typed as x) of the tokens that receive
// no contribution (expected[t] == 0: all slots null, dropped or elsewhere).
void ZeroRowsWithoutContribution(const std::vector<int32_t>& expected, const Tensor& x, Tensor* out) {
  const int64_t t = x.dim(0), h = x.dim(1), es = DTypeSize(x.dtype());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < t; ++i)
    if (expected[static_cast<size_t>(i)] == 0) std::memset(out->at(i * h), 0, static_cast<size_t>(h * es));
}

}  // namespace

Status TiledMoe::Forward(const ExpertWeights& w, const Tensor& x, const PackPlan& plan, bool save, Tensor* y,
                         float* out_f32, Tensor* lo_plane) {
  saved_ = false;
  ForwardPass pass(this, w, x, plan, save);
  pass.ReserveSaved();
  // Training reads plain weights; an expert's w13 is concatenated once per
  // job, so a job is a whole expert there. Forward-only jobs are tiles.
  int64_t max_tile = 0, max_group = 0;
  const std::vector<Unit> units = MakeUnits(plan, options_.backend, pass.training, &max_tile, &max_group);
  pass.PrepareThreads(units);
  pass.PrepareCombine(y, out_f32, lo_plane);
  runner_->ParallelFor(static_cast<int64_t>(units.size()),
                       [&](int64_t ui) { pass.RunUnit(units[static_cast<size_t>(ui)]); });
  if (pass.slice_failed.load()) return Status::Internal("TiledMoe::Forward: an expert's weights could not be sliced");
  if (out_f32 == nullptr) ZeroRowsWithoutContribution(expected_, x, y);
  saved_ = save;
  return runner_->status();
}

namespace {

// A plain [rows, cols] weight read transposed.
MatView Transposed(const void* p, DType dt, int64_t rows, int64_t cols) {
  return MatView::RowMajor(p, dt, rows, cols, cols).T();
}

}  // namespace

// One Backward call, by stage. Per expert (RunExpert), in order:
//   weights   the expert's W2^T and W13^T prepacked (bf16) or W13 concatenated
//   gate|up   the forward's saved rows, or recomputed (remat expert_mlp)
//   dy        the routed output gradient rows, and h = SwiGLU(gate, up)
//   dW2       h^T dy
//   dh        dy W2^T, then d(gate), d(up) in place of gate|up
//   dW1, dW3  x^T d(gate), x^T d(up)
//   dx        d(gate|up) W13^T, added into each token's row
// then the saved rows' pages go back to the OS.
struct TiledMoe::BackwardPass {
  BackwardPass(TiledMoe* moe_in, const ExpertWeights& w_in, const Tensor& x_in, const PackPlan& plan_in,
               const Tensor& y_in, float scale, ExpertGrads* grads_in)
      : moe(*moe_in), w(w_in), x(x_in), plan(plan_in), y(y_in), dout_scale(scale), grads(grads_in),
        t(x.dim(0)), h(x.dim(1)), m(w.mlp_dim()), l(w.experts()), dt(x.dtype()), es(DTypeSize(dt)),
        fused(moe.options_.fused_w13), have_ab(moe.saved_rows_ > 0 && !moe.saved_ab_.empty()),
        // bf16 weight gradients as "plain A x packed B" products: the token-major
        // x and h rows transposed, d(gate|up) and dy packed with the tokens as K
        // (oneDNN would transpose and repack them inside every call).
        fast_dw(!moe.options_.plain_backward && BackwardPacksOperands(dt, h, m)),
        have_ht(fast_dw && have_ab && !moe.saved_ht_.empty()),
        wt(moe.options_.preweight ? plan.weight.data() : nullptr), apply_weight(!moe.options_.preweight),
        // The saved gate|up rows in use: [0, valid rows x 2M) elements.
        consumed(have_ab ? moe.saved_ab_.data() : nullptr, have_ab ? moe.saved_ab_.numel() * es : 0,
                 moe.saved_rows_ * 2 * m * es),
        consumed_ht(have_ht ? moe.saved_ht_.data() : nullptr, have_ht ? moe.saved_ht_.numel() * es : 0,
                    have_ht ? moe.saved_ht_off_.back() * es : 0) {}

  // One expert's rows on one thread, as the stages leave them.
  struct Rows {
    Rows(const Unit& unit, Thread& thread, const void* gate, const void* up, const void* down)
        : u(unit), th(thread), w1(gate), w3(up), w2(down) {}
    const Unit& u;
    Thread& th;
    const void *w1, *w3, *w2;
    bool packed_t = false;   // th's p2t and p13t (or p1t, p3t) hold the expert's W^T
    bool gathered = false;   // th.x holds the rows of x
    char* ab = nullptr;      // gate|up, then d(gate)|d(up): rows of `ld`, up at `boff` elements
    int64_t ld = 0, boff = 0;
    int64_t pad = 0;         // tokens padded for the packed weight-gradient operands
    PackedMatrix pk;
  };

  void ResizeWeightGradients();
  void PrepareThreads(const std::vector<Unit>& units);
  void PrepareDxAccumulator(Tensor* dx, float* dx_f32);
  void ZeroGradientsOfEmptyExperts();

  void RunExpert(const Unit& u);
  void PackTransposedWeights(Rows* r);
  void Gather(Rows* r);
  void GateUp(Rows* r);
  void OutputGradient(Rows* r);
  void WeightGradientW2(Rows* r);
  void HiddenGradient(Rows* r);
  void WeightGradientsW13(Rows* r);
  void InputGradient(Rows* r);
  void ReleaseSaved(const Rows& r);

  TiledMoe& moe;
  const ExpertWeights& w;
  const Tensor& x;
  const PackPlan& plan;
  const Tensor& y;
  const float dout_scale;
  ExpertGrads* grads;
  const int64_t t, h, m, l;
  const DType dt;
  const int64_t es;
  const bool fused, have_ab, fast_dw, have_ht;
  const float* wt;          // preweight: the routing weights SwiGLU applies
  const bool apply_weight;  // else dy carries them
  Accumulator acc;
  ConsumedPages consumed, consumed_ht;
  MatmulRunner* runner() const { return moe.runner_; }
};

void TiledMoe::BackwardPass::ResizeWeightGradients() {
  for (Tensor* g : {&grads->dw1, &grads->dw3})
    if (g->empty() || g->dtype() != dt || g->shape() != std::vector<int64_t>{l, h, m})
      *g = Tensor::HugePages(dt, {l, h, m});
  if (grads->dw2.empty() || grads->dw2.dtype() != dt || grads->dw2.shape() != std::vector<int64_t>{l, m, h})
    grads->dw2 = Tensor::HugePages(dt, {l, m, h});
}

void TiledMoe::BackwardPass::PrepareThreads(const std::vector<Unit>& units) {
  int64_t max_group = 0;
  for (const Unit& u : units) max_group = std::max(max_group, u.n);
  const int nt = std::max(1, omp_get_max_threads());
  while (moe.threads_.size() < static_cast<size_t>(nt)) moe.threads_.push_back(std::make_shared<Thread>());
  for (auto& th : moe.threads_) {
    Grow(&th->x, dt, max_group * h);
    if (!have_ab) Grow(&th->ab, dt, max_group * 2 * m);
    Grow(&th->h, dt, max_group * m);
    Grow(&th->y, dt, max_group * h);  // dy rows, then dx rows
    if (fused) Grow(&th->w13, dt, h * 2 * m);
    if (!fast_dw) continue;
    Grow(&th->tr, dt, std::max(h, m) * PadTokens(max_group));
    Grow(&th->pk, dt, std::max(h, m) * PadTokens(max_group));
    moe.EnsurePack(&th->p2t, h, m, dt);
    if (fused) {
      moe.EnsurePack(&th->p13t, 2 * m, h, dt);
    } else {
      moe.EnsurePack(&th->p1t, m, h, dt);
      moe.EnsurePack(&th->p3t, m, h, dt);
    }
  }
}

void TiledMoe::BackwardPass::PrepareDxAccumulator(Tensor* dx, float* dx_f32) {
  const int32_t most = moe.AccumulatorTarget(plan, t, h, dt, dx, dx_f32, &acc);
  if (dx_f32 != nullptr || dt != DType::kBF16) return;
  // The row gradients are bf16 values added with scale 1: with at most two
  // per token no low-half plane is needed.
  acc.pair_exact = most <= 2;
  if (!acc.pair_exact) {
    Grow(&moe.lo_, DType::kBF16, t * h);
    acc.lo = moe.lo_.as<bf16_t>();
  }
}

void TiledMoe::BackwardPass::ZeroGradientsOfEmptyExperts() {
  for (int64_t g = 0; g < l; ++g) {
    if (plan.group_sizes[static_cast<size_t>(g)] != 0) continue;
    std::memset(grads->dw1.at(g * h * m), 0, static_cast<size_t>(h * m * es));
    std::memset(grads->dw3.at(g * h * m), 0, static_cast<size_t>(h * m * es));
    std::memset(grads->dw2.at(g * m * h), 0, static_cast<size_t>(m * h * es));
  }
}

// The expert's transposed weights, prepacked for dh and dx (bf16);
// otherwise oneDNN repacks the plain ones inside every call.
void TiledMoe::BackwardPass::PackTransposedWeights(Rows* r) {
  MatmulRunner* run = runner();
  Thread& th = r->th;
  r->packed_t = fast_dw && run->RepackRows(Transposed(r->w2, dt, m, h), 0, &th.p2t) &&
                (fused ? run->RepackRows(Transposed(r->w1, dt, h, m), 0, &th.p13t) &&
                             run->RepackRows(Transposed(r->w3, dt, h, m), m, &th.p13t)
                       : run->RepackRows(Transposed(r->w1, dt, h, m), 0, &th.p1t) &&
                             run->RepackRows(Transposed(r->w3, dt, h, m), 0, &th.p3t));
  if (fused && (!r->packed_t || !have_ab)) ConcatW13(r->w1, r->w3, h, m, es, th.w13.data());
}

// The expert's x rows, gathered when needed: the recompute and the oneDNN
// weight-gradient path read them; the bf16 one transposes them straight
// from x.
void TiledMoe::BackwardPass::Gather(Rows* r) {
  if (!r->gathered) GatherTile(x, plan, r->u.r0, r->u.n, r->th.x.data());
  r->gathered = true;
}

// gate|up of the expert's rows: saved by the forward, or recomputed.
void TiledMoe::BackwardPass::GateUp(Rows* r) {
  const int64_t r0 = r->u.r0, n = r->u.n;
  r->ld = fused ? 2 * m : m;
  if (have_ab) {
    r->ab = static_cast<char*>(fused ? moe.saved_ab_.at(r0 * 2 * m) : moe.saved_ab_.at(r0 * m));
    r->boff = fused ? m : moe.saved_rows_ * m;
    return;
  }
  Thread& th = r->th;
  r->ab = static_cast<char*>(th.ab.data());
  r->boff = fused ? m : n * m;
  for (int64_t off = 0; off < n; off += r->u.tile) {
    const int64_t tn = std::min(r->u.tile, n - off);
    MatView xa = MatView::RowMajor(static_cast<const char*>(th.x.data()) + off * h * es, dt, tn, h, h);
    if (fused) {
      runner()->RunHere(Job(xa, nullptr, MatView::RowMajor(th.w13.data(), dt, h, 2 * m, 2 * m),
                            OutView{r->ab + off * 2 * m * es, dt, tn, 2 * m, 2 * m}));
    } else {
      runner()->RunHere(
          Job(xa, nullptr, MatView::RowMajor(r->w1, dt, h, m, m), OutView{r->ab + off * m * es, dt, tn, m, m}));
      runner()->RunHere(Job(xa, nullptr, MatView::RowMajor(r->w3, dt, h, m, m),
                            OutView{r->ab + (r->boff + off * m) * es, dt, tn, m, m}));
    }
  }
}

// dy = w * dout[token] with dout = y * scale, then h unless the forward saved
// h^T (recomputed from gate|up; last, so that it is still in cache for dW2).
void TiledMoe::BackwardPass::OutputGradient(Rows* r) {
  const int64_t r0 = r->u.r0, n = r->u.n;
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* yp = y.as<T>();
    T* dy = r->th.y.as<T>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = r0 + i;
      const float s = plan.keep[row] ? (apply_weight ? plan.weight[row] : 1.0f) : 0.0f;
      T* d = dy + i * h;
      if (s == 0.0f) {
        std::memset(d, 0, static_cast<size_t>(h * es));
        continue;
      }
      ScaledGradRow(yp + int64_t{plan.token[row]} * h, dout_scale, s, h, d);
    }
    if (!have_ht)
      SwiGluRows(reinterpret_cast<const T*>(r->ab), r->ld, r->boff, n, m, wt != nullptr ? wt + r0 : nullptr,
                 r->th.h.as<T>(), m);
  });
}

// dW2 = h^T dy (one matmul over the expert's rows).
void TiledMoe::BackwardPass::WeightGradientW2(Rows* r) {
  const int64_t g = r->u.g, r0 = r->u.r0, n = r->u.n;
  Thread& th = r->th;
  r->pad = PadTokens(n);
  const int64_t pad = r->pad;
  const OutView dw2{grads->dw2.at(g * m * h), dt, m, h, h};
  const bf16_t* ht = have_ht ? moe.saved_ht_.as<bf16_t>() + moe.saved_ht_off_[static_cast<size_t>(g)] : nullptr;
  if (fast_dw && !have_ht) TransposeBf16(th.h.as<bf16_t>(), n, m, m, pad, th.tr.as<bf16_t>(), pad);
  if (fast_dw && runner()->PackInto(MatView::RowMajor(th.y.data(), dt, n, h, h), pad, th.pk.data(), &r->pk)) {
    runner()->RunHere(Job(MatView::RowMajor(have_ht ? ht : th.tr.data(), dt, m, pad, pad), &r->pk, MatView{}, dw2));
    if (have_ht) consumed_ht.Release(ht, m * pad * es);
    return;
  }
  if (have_ht) {
    SwiGluRows(reinterpret_cast<const bf16_t*>(r->ab), r->ld, r->boff, n, m, wt != nullptr ? wt + r0 : nullptr,
               th.h.as<bf16_t>(), m);
    consumed_ht.Release(ht, m * pad * es);
  }
  runner()->RunHere(Job(MatView::RowMajor(th.h.data(), dt, n, m, m).T(), nullptr,
                        MatView::RowMajor(th.y.data(), dt, n, h, h), dw2));
}

// Per tile: dh = dy W2^T into h's buffer (h is done), then d(gate), d(up)
// in place of gate|up while dh is still in cache.
void TiledMoe::BackwardPass::HiddenGradient(Rows* r) {
  const int64_t r0 = r->u.r0, n = r->u.n;
  Thread& th = r->th;
  for (int64_t off = 0; off < n; off += r->u.tile) {
    const int64_t tn = std::min(r->u.tile, n - off);
    runner()->RunHere(Job(MatView::RowMajor(th.y.at(off * h), dt, tn, h, h), r->packed_t ? &th.p2t : nullptr,
                          r->packed_t ? MatView{} : Transposed(r->w2, dt, m, h), OutView{th.h.at(off * m), dt, tn, m, m}));
    DispatchFloat(dt, [&](auto tag) {
      using T = decltype(tag);
      T* abt = reinterpret_cast<T*>(r->ab + off * r->ld * es);
      SwiGluBackwardRows(abt, r->ld, r->boff, tn, m, wt != nullptr ? wt + r0 + off : nullptr, th.h.as<T>() + off * m,
                         m, abt);
    });
  }
}

// dW1 = x^T d(gate), dW3 = x^T d(up).
void TiledMoe::BackwardPass::WeightGradientsW13(Rows* r) {
  const int64_t g = r->u.g, r0 = r->u.r0, n = r->u.n, pad = r->pad;
  Thread& th = r->th;
  const MatView dgate = MatView::RowMajor(r->ab, dt, n, m, r->ld);
  const MatView dup = MatView::RowMajor(r->ab + r->boff * es, dt, n, m, r->ld);
  const OutView dw1{grads->dw1.at(g * h * m), dt, h, m, m}, dw3{grads->dw3.at(g * h * m), dt, h, m, m};
  if (!fast_dw || !runner()->PackInto(dgate, pad, th.pk.data(), &r->pk)) {
    Gather(r);
    const MatView xt = MatView::RowMajor(th.x.data(), dt, n, h, h).T();
    runner()->RunHere(Job(xt, nullptr, dgate, dw1));
    runner()->RunHere(Job(xt, nullptr, dup, dw3));
    return;
  }
  if (r->gathered) {
    TransposeBf16(th.x.as<bf16_t>(), n, h, h, pad, th.tr.as<bf16_t>(), pad);
  } else {
    const bf16_t* xs = x.as<bf16_t>();
    TransposeRowsBf16(
        [&](int64_t i) -> const bf16_t* {
          return i < n && plan.keep[r0 + i] ? xs + int64_t{plan.token[r0 + i]} * h : nullptr;
        },
        pad, h, th.tr.as<bf16_t>(), pad);
  }
  const MatView xt = MatView::RowMajor(th.tr.data(), dt, h, pad, pad);
  runner()->RunHere(Job(xt, &r->pk, MatView{}, dw1));
  if (runner()->PackInto(dup, pad, th.pk.data(), &r->pk)) {
    runner()->RunHere(Job(xt, &r->pk, MatView{}, dw3));
  } else {
    Gather(r);
    runner()->RunHere(Job(MatView::RowMajor(th.x.data(), dt, n, h, h).T(), nullptr, dup, dw3));
  }
}

// Per tile: dx rows = d(gate|up) W13^T into the dy buffer (dy is done),
// then added into dx while they are still in cache.
void TiledMoe::BackwardPass::InputGradient(Rows* r) {
  const int64_t r0 = r->u.r0, n = r->u.n;
  Thread& th = r->th;
  for (int64_t off = 0; off < n; off += r->u.tile) {
    const int64_t tn = std::min(r->u.tile, n - off);
    OutView dxo{th.y.at(off * h), dt, tn, h, h};
    if (fused) {
      runner()->RunHere(Job(MatView::RowMajor(r->ab + off * 2 * m * es, dt, tn, 2 * m, 2 * m),
                            r->packed_t ? &th.p13t : nullptr,
                            r->packed_t ? MatView{} : Transposed(th.w13.data(), dt, h, 2 * m), dxo));
    } else {
      runner()->RunHere(Job(MatView::RowMajor(r->ab + off * m * es, dt, tn, m, m), r->packed_t ? &th.p1t : nullptr,
                            r->packed_t ? MatView{} : Transposed(r->w1, dt, h, m), dxo));
      runner()->RunHere(Job(MatView::RowMajor(r->ab + (r->boff + off * m) * es, dt, tn, m, m),
                            r->packed_t ? &th.p3t : nullptr, r->packed_t ? MatView{} : Transposed(r->w3, dt, h, m),
                            dxo, true));
    }
    DispatchFloat(dt, [&](auto tag) {
      using T = decltype(tag);
      const T* dr = th.y.as<T>();
      for (int64_t i = off; i < off + tn; ++i)
        if (plan.keep[r0 + i]) acc.Add(plan.token[r0 + i], dr + i * h, 1.0f);
    });
  }
}

// The expert's saved gate|up is consumed: its pages go back while the
// gradients' pages fill (peak memory, see DiscardGradients).
void TiledMoe::BackwardPass::ReleaseSaved(const Rows& r) {
  if (!have_ab) return;
  const int64_t n = r.u.n;
  if (fused) {
    consumed.Release(r.ab, n * 2 * m * es);
  } else {
    consumed.Release(r.ab, n * m * es);
    consumed.Release(r.ab + r.boff * es, n * m * es);
  }
}

void TiledMoe::BackwardPass::RunExpert(const Unit& u) {
  const int64_t g = u.g;
  Rows r(u, *moe.threads_[static_cast<size_t>(ThreadIndex())], w.w1.at(g * h * m), w.w3.at(g * h * m),
         w.w2.at(g * m * h));
  PackTransposedWeights(&r);
  if (!have_ab || !fast_dw) Gather(&r);
  GateUp(&r);
  OutputGradient(&r);
  WeightGradientW2(&r);
  HiddenGradient(&r);
  WeightGradientsW13(&r);
  InputGradient(&r);
  ReleaseSaved(r);
}

Status TiledMoe::Backward(const ExpertWeights& w, const Tensor& x, const PackPlan& plan, const Tensor& y,
                          float dout_scale, Tensor* dx, float* dx_f32, ExpertGrads* grads) {
  if (!saved_) return Status::Internal("TiledMoe::Backward without a Forward(save_for_backward)");
  BackwardPass pass(this, w, x, plan, y, dout_scale, grads);
  pass.ResizeWeightGradients();
  int64_t max_tile = 0, max_group = 0;
  const std::vector<Unit> units = MakeUnits(plan, options_.backend, true, &max_tile, &max_group);
  pass.PrepareThreads(units);
  pass.PrepareDxAccumulator(dx, dx_f32);
  pass.ZeroGradientsOfEmptyExperts();
  runner_->ParallelFor(static_cast<int64_t>(units.size()),
                       [&](int64_t ui) { pass.RunExpert(units[static_cast<size_t>(ui)]); });
  if (dx_f32 == nullptr) ZeroRowsWithoutContribution(expected_, x, dx);
  // The saved activations were consumed (SwiGLU backward ran in place); the
  // buffer is kept for the next step.
  saved_ = false;
  return runner_->status();
}

}  // namespace moelog::engine::cpu
