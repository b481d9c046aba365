// The routed SwiGLU expert MLP over packed rows: grouped matmuls (gmm tiles
// or ragged per-group), SiLU*up, down projection, and the backward pass.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "engine/cpu/kernels.h"
#include "engine/cpu/moe_layer.h"
#include "engine/cpu/sliced_up.h"

namespace moelog::engine::cpu {
namespace {

// One B operand: a prepacked matrix or a strided view.
struct BOperand {
  const PackedMatrix* packed = nullptr;
  MatView view;
};

// Integer-to-float dequantization and int8 operands of one grouped matmul.
struct QuantOperands {
  const int8_t* lhs = nullptr;        // [rows, K] s8
  const float* lhs_scale = nullptr;   // [rows]
  const float* rhs_scale = nullptr;   // [groups]
  int32_t* acc = nullptr;             // [rows, N] s32 scratch
};

void Resize(Tensor* t, DType dtype, std::vector<int64_t> shape) {
  if (t->empty() || t->dtype() != dtype || t->shape() != shape) *t = Tensor::Scratch(dtype, std::move(shape));
}

}  // namespace

namespace {

// Experts [g0, g1) of w1|w3, concatenated along the last axis into d
// ([g1 - g0, H, 2M], contiguous).
void ConcatW13(const ExpertWeights& w, int64_t g0, int64_t g1, void* dst) {
  const int64_t h = w.hidden(), m = w.mlp_dim();
  const int64_t es = DTypeSize(w.w1.dtype());
  const char* a = static_cast<const char*>(w.w1.at(g0 * h * m));
  const char* b = static_cast<const char*>(w.w3.at(g0 * h * m));
  char* d = static_cast<char*>(dst);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < (g1 - g0) * h; ++r) {
    std::memcpy(d + (2 * r) * m * es, a + r * m * es, static_cast<size_t>(m * es));
    std::memcpy(d + (2 * r + 1) * m * es, b + r * m * es, static_cast<size_t>(m * es));
  }
}

}  // namespace

void BuildW13(ExpertWeights* w) {
  const int64_t e = w->experts(), h = w->hidden(), m = w->mlp_dim();
  Resize(&w->w13, w->w1.dtype(), {e, h, 2 * m});
  ConcatW13(*w, 0, e, w->w13.data());
}

int64_t W13ChunkExperts(int64_t experts, int64_t hidden, int64_t mlp_dim, DType dtype, int threads) {
  constexpr int64_t kChunkBytes = int64_t{4} << 20;
  const int64_t per = std::max<int64_t>(1, 2 * hidden * mlp_dim * DTypeSize(dtype));
  const int64_t fit = std::max<int64_t>(kChunkBytes / per, 2 * int64_t{std::max(threads, 1)});
  return std::max<int64_t>(1, std::min(experts, fit));
}

// The combine fused into the int8 down projection's epilogue. Every live row
// (r < valid_rows, keep) counts towards its token; the job that completes a
// token's last live row sums the token's rows, in slot order, into out.
struct ExpertMlp::FusedCombine {
  const std::vector<int64_t>* inv = nullptr;
  bool apply_weight = true;
  Tensor* out = nullptr;
  std::vector<int32_t> live;                 // [T] live rows per token
  std::unique_ptr<std::atomic<int32_t>[]> done;  // [T] live rows finished so far
  int64_t tokens = 0;
};

struct ExpertMlp::Impl {
  // Prepacked weights (Prepare): per expert.
  std::vector<PackedMatrix> p1, p3, p2, p13;
  // int8 weights: plain s8 [L, K*N] and one scale per expert.
  std::vector<int8_t> q1, q3, q2, q13;
  std::vector<float> s1, s3, s2, s13;
  std::vector<PackedMatrix> qp1, qp3, qp2, qp13;
  bool prequantized = false;
  // Scratch and saved activations.
  // Gate and up pre-activations. Fused: [rows, 2M] rows of gate|up (ld 2M,
  // up at column M). Split: the gate block [rows, M] then the up block
  // [rows, M] (ld M, up at element rows*M); oneDNN's fast matmuls need
  // contiguous outputs. dab uses the same layout.
  Tensor ab;
  int64_t ld_ab = 0, b_off = 0;
  Tensor h;    // [rows, M]: SiLU(gate) * up (times weight with preweight)
  Tensor dh, dab;
  std::vector<int32_t> acc;
  std::vector<int8_t> hq, dq;
  std::vector<float> hs, ds, xs_scratch;
  // int8 routed: hq/hs were filled by Up's epilogues (h quantized per row
  // right after it was computed), so Down need not quantize h again.
  bool h_quantized = false;
  std::vector<int8_t> xq_scratch;
  bool saved = false;
  FusedCombine combine;
  // Per thread: the scratch tiles of the sliced up projection (sliced_up.h),
  // cache-line aligned like every Tensor (unaligned output rows cost the
  // matmuls about 5%).
  std::vector<Tensor> up_scratch;
};

ExpertMlp::ExpertMlp(MatmulRunner* runner, ExpertMlpOptions options)
    : runner_(runner), options_(options), impl_(std::make_shared<Impl>()) {}

namespace {

// Quantizes each expert's [K,N] matrix of a stacked [L,K,N] tensor with one
// scale per expert, and packs the int8 matrices.
void QuantizeExperts(MatmulRunner* mm, const Tensor& w, std::vector<int8_t>* q, std::vector<float>* s,
                     std::vector<PackedMatrix>* packed) {
  const int64_t l = w.dim(0), k = w.dim(1), n = w.dim(2);
  q->resize(static_cast<size_t>(l * k * n));
  s->resize(static_cast<size_t>(l));
  const bool fresh = packed->size() != static_cast<size_t>(l);
  if (fresh) packed->clear();
  for (int64_t e = 0; e < l; ++e) {
    (*s)[e] = QuantizeMatrix(w.at(e * k * n), w.dtype(), k * n, q->data() + e * k * n);
    MatView v = MatView::RowMajor(q->data() + e * k * n, DType::kS8, k, n, n);
    if (fresh) packed->push_back(mm->Pack(v));
    else mm->Repack(v, &(*packed)[e]);
  }
}

void PackExperts(MatmulRunner* mm, const Tensor& w, std::vector<PackedMatrix>* out) {
  out->clear();
  const int64_t l = w.dim(0), k = w.dim(1), n = w.dim(2);
  for (int64_t e = 0; e < l; ++e) out->push_back(mm->Pack(MatView::RowMajor(w.at(e * k * n), w.dtype(), k, n, n)));
}

// The row tiles of a grouped matmul over `groups` (packed rows in group
// order): gmm cuts each group into kGmmTileRows-row tiles, ragged_dot keeps
// each group whole. Empty groups have no tile.
struct GroupTile {
  int64_t g, r0, rows;
};
// Groups [begin, end) of a grouped matmul (end -1: through the last one).
struct GroupRange {
  int64_t begin = 0, end = -1;
  bool Has(int64_t g) const { return g >= begin && (end < 0 || g < end); }
  bool ToLast(size_t groups) const { return end < 0 || end >= static_cast<int64_t>(groups); }
};
std::vector<GroupTile> GroupTiles(GroupedBackend backend, const std::vector<int64_t>& groups,
                                  GroupRange range = {}) {
  std::vector<GroupTile> tiles;
  int64_t r0 = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const int64_t n = groups[g];
    const int64_t tile = backend == GroupedBackend::kGmm ? kGmmTileRows : n;
    if (range.Has(static_cast<int64_t>(g)))
      for (int64_t off = 0; off < n; off += tile)
        tiles.push_back({static_cast<int64_t>(g), r0 + off, std::min(tile, n - off)});
    r0 += n;
  }
  return tiles;
}

// out[rows of group g] = lhs[rows of group g] @ B_g for every group. gmm cuts
// each group into kGmmTileRows-row tiles; ragged_dot runs one matmul per group
// and writes zeros to the rows past the group-size sum. All tiles go to the
// runner as one batch (spread over threads). `epilogue(r0, rows)`, if given,
// runs right after the matmul of rows [r0, r0 + rows) of group g on the same
// thread, while those rows are still in its cache. With a range, only its
// groups' tiles run (the same jobs as in the whole batch); rows past the sum
// are zeroed by the range that ends at the last group.
void Grouped(MatmulRunner* mm, GroupedBackend backend, const std::vector<int64_t>& groups, const MatView& lhs,
             const std::function<BOperand(int64_t)>& rhs, const OutView& out, bool accumulate,
             const std::function<void(int64_t, int64_t, int64_t)>& epilogue = nullptr, bool stream_out = false,
             GroupRange range = {}) {
  const int64_t es = DTypeSize(lhs.dtype), os = DTypeSize(out.dtype);
  std::vector<MatmulJob> jobs;
  int64_t last_group = -1;
  BOperand b;
  for (const GroupTile& t : GroupTiles(backend, groups, range)) {
    if (t.g != last_group) b = rhs(t.g), last_group = t.g;
    const int64_t g = t.g, r = t.r0, m = t.rows;
    MatmulJob j;
    j.a = MatView{static_cast<const char*>(lhs.data) + r * lhs.row_stride * es, lhs.dtype, m, lhs.cols,
                  lhs.row_stride, lhs.col_stride};
    j.c = OutView{static_cast<char*>(out.data) + r * out.ld * os, out.dtype, m, out.cols, out.ld};
    j.packed = b.packed;
    j.b = b.view;
    j.accumulate = accumulate;
    if (epilogue) j.epilogue = [&epilogue, g, r, m] { epilogue(g, r, m); };
    if (stream_out && !accumulate && out.ld == out.cols) {
      // Into the thread's L2 buffer, then streamed to the rows (StreamCopy).
      void* dst = j.c.data;
      const size_t bytes = static_cast<size_t>(m * out.cols * os);
      j.c.data = nullptr;
      j.consume = [dst, bytes](const OutView& c) { StreamCopy(dst, c.data, bytes); };
    }
    jobs.push_back(std::move(j));
  }
  int64_t r0 = 0;
  for (int64_t n : groups) r0 += n;
  mm->RunBatch(jobs);
  if (backend == GroupedBackend::kRaggedDot && !accumulate && range.ToLast(groups.size())) {
    for (int64_t r = r0; r < out.rows; ++r)
      std::memset(static_cast<char*>(out.data) + r * out.ld * os, 0, static_cast<size_t>(out.cols * os));
  }
}

// out = lhs @ w13_g (transposed: lhs @ w13_g^T) per group, as Grouped over
// the built w13. When w13 is not built (training reads w1 and w3, which
// change every step), a chunk of W13ChunkExperts experts at a time: the
// chunk's w1|w3 are concatenated into one scratch buffer and its groups'
// tiles run as one batch, so only a chunk's w13 exists, never [L, H, 2M];
// every tile is the same job (the same rows against the same bytes) as in
// one batch over the whole w13, so the results are the same bit for bit.
void GroupedW13(MatmulRunner* mm, GroupedBackend backend, const ExpertWeights& w, const std::vector<int64_t>& groups,
                const MatView& lhs, bool transposed, const OutView& out,
                const std::function<void(int64_t, int64_t, int64_t)>& epilogue = nullptr) {
  const int64_t h = w.hidden(), m = w.mlp_dim(), l = w.experts();
  const DType dt = w.w1.dtype();
  auto view = [h, m, dt, transposed](const void* p) {
    MatView v = MatView::RowMajor(p, dt, h, 2 * m, 2 * m);
    return transposed ? v.T() : v;
  };
  if (!w.w13.empty()) {
    Grouped(mm, backend, groups, lhs, [&](int64_t g) { return BOperand{nullptr, view(w.w13.at(g * h * 2 * m))}; },
            out, false, epilogue);
    return;
  }
  const int64_t chunk = W13ChunkExperts(l, h, m, dt, omp_get_max_threads());
  Tensor scratch = Tensor::Scratch(dt, {chunk, h, 2 * m});
  for (int64_t g0 = 0; g0 < l; g0 += chunk) {
    const int64_t g1 = std::min(l, g0 + chunk);
    ConcatW13(w, g0, g1, scratch.data());
    Grouped(mm, backend, groups, lhs,
            [&](int64_t g) { return BOperand{nullptr, view(scratch.at((g - g0) * h * 2 * m))}; }, out, false,
            epilogue, false, GroupRange{g0, g1 == l ? -1 : g1});
  }
}

// Dequantizes acc [rows, n] (s32) into out (x dtype, leading dim ld):
// acc * lhs_scale[row] * rhs_scale[group of row].
void Dequantize(const std::vector<int64_t>& groups, const int32_t* acc, int64_t n, const float* lhs_scale,
                const float* rhs_scale, void* out, DType dtype, int64_t ld) {
  DispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = static_cast<T*>(out);
    int64_t r0 = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      const int64_t cnt = groups[g];
      const float sg = rhs_scale[g];
#pragma omp parallel for schedule(static)
      for (int64_t r = r0; r < r0 + cnt; ++r) {
        const float s = lhs_scale[r] * sg;
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) o[r * ld + j] = FromF<T>(static_cast<float>(acc[r * n + j]) * s);
      }
      r0 += cnt;
    }
  });
}

// Rows per job of the int8 grouped matmuls. Small enough that a job's s32
// output (rows x 2M), its A rows and the expert's int8 weights stay in one
// core's L2 while the job's consumer reads them; a multiple of the 16-row AMX
// tile (oneDNN 2.6's int8 brgemm is much slower on a row tail).
inline constexpr int64_t kInt8TileRows = 128;
inline constexpr int64_t kAmxRows = 16;

// The int8 routed grouped matmul, exact per group (ragged_dot semantics):
// acc = lhs[rows of group g] @ B_g (s8 x s8 -> s32), computed job by job into
// a per-thread buffer and handed to consume(g, r0, rows, acc) on the thread
// that computed it (acc: [rows, n_out], leading dimension n_out). A group's
// last job is extended to a multiple of 16 rows when lhs has those rows (the
// extra rows, the next group's or padding, are computed and thrown away:
// wasted work, but far cheaper than oneDNN's tail path); consume only sees
// the group's own rows. Rows past the group-size sum are never consumed.
void GroupedInt8(MatmulRunner* mm, const std::vector<int64_t>& groups, const MatView& lhs,
                 const std::function<const PackedMatrix*(int64_t)>& rhs, int64_t n_out,
                 const std::function<void(int64_t, int64_t, int64_t, const int32_t*)>& consume) {
  std::vector<MatmulJob> jobs;
  int64_t r0 = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const int64_t n = groups[g];
    if (n == 0) continue;
    const PackedMatrix* b = rhs(static_cast<int64_t>(g));
    for (int64_t off = 0; off < n; off += kInt8TileRows) {
      const int64_t m = std::min(kInt8TileRows, n - off), r = r0 + off;
      const int64_t padded = (m + kAmxRows - 1) / kAmxRows * kAmxRows;
      const int64_t mc = r + padded <= lhs.rows ? padded : m;
      MatmulJob j;
      j.a = MatView{static_cast<const int8_t*>(lhs.data) + r * lhs.row_stride, DType::kS8, mc, lhs.cols,
                    lhs.row_stride, lhs.col_stride};
      j.packed = b;
      j.c = OutView{nullptr, DType::kS32, mc, n_out, n_out};
      const int64_t gi = static_cast<int64_t>(g);
      j.consume = [&consume, gi, r, m](const OutView& c) { consume(gi, r, m, static_cast<const int32_t*>(c.data)); };
      jobs.push_back(std::move(j));
    }
    r0 += n;
  }
  mm->RunBatch(jobs);
}

}  // namespace

Status ExpertMlp::Prepare(const ExpertWeights& w) {
  Impl& s = *impl_;
  if (options_.prepacked && options_.quant == QuantMode::kNone) {
    if (options_.fused_w13) {
      PackExperts(runner_, w.w13, &s.p13);
    } else {
      PackExperts(runner_, w.w1, &s.p1);
      PackExperts(runner_, w.w3, &s.p3);
    }
    PackExperts(runner_, w.w2, &s.p2);
  }
  if (options_.quant == QuantMode::kInt8RoutedPrequant) {
    if (options_.fused_w13) {
      QuantizeExperts(runner_, w.w13, &s.q13, &s.s13, &s.qp13);
    } else {
      QuantizeExperts(runner_, w.w1, &s.q1, &s.s1, &s.qp1);
      QuantizeExperts(runner_, w.w3, &s.q3, &s.s3, &s.qp3);
    }
    QuantizeExperts(runner_, w.w2, &s.q2, &s.s2, &s.qp2);
    s.prequantized = true;
  }
  return runner_->status();
}

Status ExpertMlp::SlicedUp(const ExpertWeights& w, const PackedRows& rows) {
  Impl& s = *impl_;
  const PackPlan& plan = *rows.plan;
  const int64_t h = w.hidden(), m = w.mlp_dim();
  const float* wt = options_.preweight ? plan.weight.data() : nullptr;
  // The tiles of Grouped (ragged_dot's whole groups: SlicedUpSwiGlu still
  // works through them 512 rows at a time).
  const std::vector<GroupTile> tiles = GroupTiles(options_.backend, plan.group_sizes);
  const size_t nt = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  if (s.up_scratch.size() < nt) s.up_scratch.resize(nt);
  for (auto& b : s.up_scratch)
    if (b.numel() < SlicedUpScratch(m)) b = Tensor(DType::kBF16, {SlicedUpScratch(m)});
  std::atomic<bool> failed{false};
  runner_->ParallelFor(static_cast<int64_t>(tiles.size()), [&](int64_t i) {
    const GroupTile& t = tiles[static_cast<size_t>(i)];
    const size_t tid = static_cast<size_t>(omp_in_parallel() ? omp_get_thread_num() : 0);
    const MatView x = MatView::RowMajor(rows.x.at(t.r0 * h), DType::kBF16, t.rows, h, h);
    const float* scale = wt != nullptr ? wt + t.r0 : nullptr;
    bf16_t* out = s.h.as<bf16_t>() + t.r0 * m;
    const size_t g = static_cast<size_t>(t.g);
    bf16_t* scratch = s.up_scratch[tid].as<bf16_t>();
    const bool ok = options_.fused_w13
                        ? SlicedUpSwiGlu(runner_, x, s.p13[g], 0, s.p13[g], m, m, scale, out, m, scratch)
                        : SlicedUpSwiGlu(runner_, x, s.p1[g], 0, s.p3[g], 0, m, scale, out, m, scratch);
    if (!ok) failed.store(true, std::memory_order_relaxed);
  });
  // CanSliceUp held for expert 0, and every expert has its layout.
  if (failed.load()) return Status::Internal("ExpertMlp::Up: an expert's weights could not be sliced");
  return runner_->status();
}

Status ExpertMlp::Up(const ExpertWeights& w, const PackedRows& rows, bool keep_activations) {
  Impl& s = *impl_;
  const int64_t m = w.mlp_dim(), rn = rows.plan->rows;
  const DType dt = rows.x.dtype();
  // The fused int8 up projection goes straight from the s32 accumulators to
  // the quantized h: ab and h exist only when a backward pass reads them.
  const bool int8_direct = QuantRouted(options_.quant) && options_.fused_w13 && !keep_activations;
  const bool fusedl = options_.fused_w13;
  const bool packed = options_.prepacked && options_.quant == QuantMode::kNone;
  // bf16 forward on prepacked weights: h straight from column slices of the
  // weights (sliced_up.h); the gate|up rows are not formed.
  const bool sliced = packed && !keep_activations && dt == DType::kBF16 && rn > 0 &&
                      (fusedl ? !s.p13.empty() && CanSliceUp(runner_, s.p13[0], 0, s.p13[0], m, m)
                              : !s.p1.empty() && !s.p3.empty() && CanSliceUp(runner_, s.p1[0], 0, s.p3[0], 0, m));
  if (!int8_direct) {
    if (!sliced) Resize(&s.ab, dt, {rn, 2 * m});
    Resize(&s.h, dt, {rn, m});
  }
  s.h_quantized = false;
  s.ld_ab = fusedl ? 2 * m : m;
  s.b_off = fusedl ? m : rn * m;
  if (sliced) return SlicedUp(w, rows);
  if (QuantRouted(options_.quant)) UpInt8(w, rows, keep_activations);
  else UpFloat(w, rows, packed);
  return runner_->status();
}

// h = SiLU(gate) * up (times the routing weight with preweight) for rows
// [r, r + n): the epilogue of the last up matmul, while the tile is hot.
void ExpertMlp::SwiGluTile(const PackPlan& plan, DType dt, int64_t m, int64_t r, int64_t n) {
  Impl& s = *impl_;
  const float* wt = options_.preweight ? plan.weight.data() : nullptr;
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    SwiGluRows(s.ab.as<T>() + r * s.ld_ab, s.ld_ab, s.b_off, n, m, wt != nullptr ? wt + r : nullptr,
               s.h.as<T>() + r * m, m);
  });
}

// gate|up = x W1, x W3 (or x W13) per group in bf16/f32, SwiGLU per tile.
void ExpertMlp::UpFloat(const ExpertWeights& w, const PackedRows& rows, bool packed) {
  Impl& s = *impl_;
  const PackPlan& plan = *rows.plan;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows;
  const DType dt = rows.x.dtype();
  auto swiglu_epi = [&](int64_t, int64_t r, int64_t n) { SwiGluTile(plan, dt, m, r, n); };
  // The expert's weight: its prepacked copy, or the plain [h, cols] one.
  auto weight = [&](const std::vector<PackedMatrix>& pk, const Tensor& plain, int64_t cols) {
    return [&pk, &plain, packed, h, cols, dt](int64_t g) {
      BOperand b;
      if (packed) b.packed = &pk[g];
      else b.view = MatView::RowMajor(plain.at(g * h * cols), dt, h, cols, cols);
      return b;
    };
  };
  MatView x = MatView::RowMajor(rows.x.data(), dt, rn, h, h);
  const auto& groups = plan.group_sizes;
  if (options_.fused_w13) {
    const OutView ab{s.ab.data(), dt, rn, 2 * m, 2 * m};
    if (packed) Grouped(runner_, options_.backend, groups, x, weight(s.p13, w.w13, 2 * m), ab, false, swiglu_epi);
    else GroupedW13(runner_, options_.backend, w, groups, x, false, ab, swiglu_epi);
    return;
  }
  Grouped(runner_, options_.backend, groups, x, weight(s.p1, w.w1, m), OutView{s.ab.data(), dt, rn, m, m}, false);
  Grouped(runner_, options_.backend, groups, x, weight(s.p3, w.w3, m), OutView{s.ab.at(s.b_off), dt, rn, m, m}, false,
          swiglu_epi);
}

// int8 routed: s8 x s8 -> s32, always exact per group (ragged_dot
// semantics, whatever --backend says); each job's s32 tile is consumed on
// the thread that computed it, while it is in that core's L2. The down
// projection's int8 input (hq, hs) is quantized per row while h is hot.
// Long on purpose: the tile consumers are lambdas over this call's buffers,
// written beside the GroupedInt8 call that runs them.
void ExpertMlp::UpInt8(const ExpertWeights& w, const PackedRows& rows, bool keep_activations) {
  Impl& s = *impl_;
  const PackPlan& plan = *rows.plan;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows;
  const DType dt = rows.x.dtype();
  const float* wt = options_.preweight ? plan.weight.data() : nullptr;
  const int8_t* xq = rows.xq.data();
  const float* xs = rows.xq_scale.data();
  if (rows.xq.empty()) {
    s.xq_scratch.resize(static_cast<size_t>(rn * h));
    s.xs_scratch.resize(static_cast<size_t>(rn));
    QuantizeRows(rows.x.data(), dt, rn, h, h, s.xq_scratch.data(), s.xs_scratch.data());
    xq = s.xq_scratch.data();
    xs = s.xs_scratch.data();
  }
  if (!s.prequantized) {  // int8_routed / int8_all: weights quantized in every call
    if (options_.fused_w13) {
      QuantizeExperts(runner_, w.w13, &s.q13, &s.s13, &s.qp13);
    } else {
      QuantizeExperts(runner_, w.w1, &s.q1, &s.s1, &s.qp1);
      QuantizeExperts(runner_, w.w3, &s.q3, &s.s3, &s.qp3);
    }
  }
  MatView xv = MatView::RowMajor(xq, DType::kS8, rn, h, h);
  s.hq.resize(static_cast<size_t>(rn * m));
  s.hs.resize(static_cast<size_t>(rn));
  const auto& groups = plan.group_sizes;
  if (options_.fused_w13) {
    // One pass per row: dequantize gate|up, SwiGLU, quantize h (and keep ab
    // and h for the backward pass if asked).
    auto b = [&s](int64_t g) { return &s.qp13[g]; };
    const bool keep = keep_activations;
    auto consume = [&](int64_t g, int64_t r0, int64_t n, const int32_t* acc) {
      DispatchFloat(dt, [&](auto tag) {
        using T = decltype(tag);
        thread_local std::vector<float> hbuf;
        if (hbuf.size() < static_cast<size_t>(m)) hbuf.resize(static_cast<size_t>(m));
        for (int64_t i = 0; i < n; ++i) {
          const int64_t r = r0 + i;
          const float sc = xs[r] * s.s13[g];
          T* ab = keep ? s.ab.as<T>() + r * s.ld_ab : nullptr;
          s.hs[r] = Int8SwiGluQuantRow<T>(acc + i * 2 * m, acc + i * 2 * m + m, m, sc, sc,
                                          wt != nullptr ? wt[r] : 1.0f, hbuf.data(), s.hq.data() + r * m, ab,
                                          keep ? ab + s.b_off : nullptr, keep ? s.h.as<T>() + r * m : nullptr);
        }
      });
    };
    GroupedInt8(runner_, groups, xv, b, 2 * m, consume);
  } else {
    auto b1 = [&s](int64_t g) { return &s.qp1[g]; };
    auto b3 = [&s](int64_t g) { return &s.qp3[g]; };
    auto dequant = [&](const std::vector<float>& ws, void* out) {
      return [&ws, out, xs, dt, m](int64_t g, int64_t r0, int64_t n, const int32_t* acc) {
        DispatchFloat(dt, [&](auto tag) {
          using T = decltype(tag);
          for (int64_t i = 0; i < n; ++i)
            DequantizeRow<T>(acc + i * m, m, xs[r0 + i] * ws[g], static_cast<T*>(out) + (r0 + i) * m);
        });
      };
    };
    GroupedInt8(runner_, groups, xv, b1, m, dequant(s.s1, s.ab.data()));
    auto up = dequant(s.s3, s.ab.at(s.b_off));
    GroupedInt8(runner_, groups, xv, b3, m, [&](int64_t g, int64_t r0, int64_t n, const int32_t* acc) {
      up(g, r0, n, acc);
      SwiGluTile(plan, dt, m, r0, n);
      QuantizeRows(s.h.at(r0 * m), dt, n, m, m, s.hq.data() + r0 * m, s.hs.data() + r0);
    });
  }
  s.h_quantized = true;
}

Status ExpertMlp::Down(const ExpertWeights& w, const PackedRows& rows, Tensor* y) {
  return DownImpl(w, rows, y, nullptr);
}

Status ExpertMlp::ForwardCombine(const ExpertWeights& w, const PackedRows& rows, const std::vector<int64_t>& inv,
                                 bool apply_weight, Tensor* y_rows, Tensor* out) {
  impl_->saved = false;
  if (!QuantRouted(options_.quant)) return Status::Internal("ForwardCombine: int8 routed modes only");
  MOELOG_RETURN_IF_ERROR(Up(w, rows, false));
  const PackPlan& plan = *rows.plan;
  const int64_t t = plan.tokens, k = plan.topk, h = w.hidden();
  FusedCombine& fc = impl_->combine;
  fc.inv = &inv;
  fc.apply_weight = apply_weight;
  fc.out = out;
  if (fc.tokens != t) {
    fc.live.assign(static_cast<size_t>(t), 0);
    fc.done.reset(new std::atomic<int32_t>[static_cast<size_t>(t)]);
    fc.tokens = t;
  }
  const DType dt = out->dtype();
#pragma omp parallel for schedule(static)
  for (int64_t tok = 0; tok < t; ++tok) {
    int32_t n = 0;
    for (int64_t sl = 0; sl < k; ++sl) {
      const int64_t r = inv[tok * k + sl];
      n += r >= 0 && r < plan.valid_rows && plan.keep[r];
    }
    fc.live[tok] = n;
    fc.done[tok].store(0, std::memory_order_relaxed);
    // A token without live rows sums to zero.
    if (n == 0) std::memset(out->at(tok * h), 0, static_cast<size_t>(h * DTypeSize(dt)));
  }
  return DownImpl(w, rows, y_rows, &fc);
}

// The down projection; with `fc`, each token's rows are combined on the
// thread that finished its last one. Long on purpose, as UpInt8: the tile
// consumer is a lambda over this call's buffers beside the call running it.
Status ExpertMlp::DownImpl(const ExpertWeights& w, const PackedRows& rows, Tensor* y, FusedCombine* fc) {
  Impl& s = *impl_;
  const PackPlan& plan = *rows.plan;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows;
  const DType dt = rows.x.dtype();
  Resize(y, dt, {rn, h});
  const auto& groups = plan.group_sizes;
  if (!QuantRouted(options_.quant)) {
    const bool packed = options_.prepacked && options_.quant == QuantMode::kNone;
    auto b2 = [&](int64_t g) {
      BOperand b;
      if (packed) b.packed = &s.p2[g];
      else b.view = MatView::RowMajor(w.w2.at(g * m * h), dt, m, h, h);
      return b;
    };
    // The rows are written once and read by the combine much later: streamed
    // past the caches from an L2 tile (measured on one core: 0.90-1.0 of a
    // dense matmul's per-FLOP speed against 0.79-0.82 writing them in place).
    Grouped(runner_, options_.backend, groups, MatView::RowMajor(s.h.data(), dt, rn, m, m), b2,
            OutView{y->data(), dt, rn, h, h}, false, nullptr, /*stream_out=*/packed);
    return runner_->status();
  }
  // int8: h quantized per row on the fly, w2 per expert.
  const int64_t valid = plan.valid_rows;
  if (!s.h_quantized) {
    s.hq.resize(static_cast<size_t>(rn * m));
    s.hs.resize(static_cast<size_t>(rn));
    QuantizeRows(s.h.data(), dt, valid, m, m, s.hq.data(), s.hs.data());
  }
  if (!s.prequantized) QuantizeExperts(runner_, w.w2, &s.q2, &s.s2, &s.qp2);
  auto b2 = [&s](int64_t g) { return &s.qp2[g]; };
  void* yd = y->data();
  auto consume = [&](int64_t g, int64_t r0, int64_t n, const int32_t* acc) {
    DispatchFloat(dt, [&](auto tag) {
      using T = decltype(tag);
      T* yr = static_cast<T*>(yd);
      for (int64_t i = 0; i < n; ++i)
        DequantizeRow<T>(acc + i * h, h, s.hs[r0 + i] * s.s2[g], yr + (r0 + i) * h);
      if (fc == nullptr) return;
      // Publish the rows (release), and finish every token whose last live
      // row this was (acquire: the other rows' writes are visible).
      const int64_t k = plan.topk;
      thread_local std::vector<float> sum;
      if (sum.size() < static_cast<size_t>(h)) sum.resize(static_cast<size_t>(h));
      float* a = sum.data();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t r = r0 + i;
        if (!plan.keep[r]) continue;
        const int64_t tok = plan.token[r];
        if (fc->done[tok].fetch_add(1, std::memory_order_acq_rel) + 1 != fc->live[tok]) continue;
        std::fill(a, a + h, 0.0f);
        for (int64_t sl = 0; sl < k; ++sl) {
          const int64_t rr = (*fc->inv)[tok * k + sl];
          if (rr < 0 || rr >= valid || !plan.keep[rr]) continue;
          const float wt = fc->apply_weight ? plan.weight[rr] : 1.0f;
          const T* src = yr + rr * h;
#pragma omp simd
          for (int64_t j = 0; j < h; ++j) a[j] += wt * ToF(src[j]);
        }
        T* o = fc->out->as<T>() + tok * h;
        StoreRow(a, h, o);
      }
    });
  };
  GroupedInt8(runner_, groups, MatView::RowMajor(s.hq.data(), DType::kS8, rn, m, m), b2, h, consume);
  for (int64_t r = valid; r < rn; ++r) std::memset(y->at(r * h), 0, static_cast<size_t>(h * DTypeSize(dt)));
  return runner_->status();
}

Status ExpertMlp::Forward(const ExpertWeights& w, const PackedRows& rows, Tensor* y, bool save_for_backward) {
  impl_->saved = false;
  // expert_mlp remat keeps nothing: Backward recomputes the up projection.
  const bool keep = save_for_backward && options_.remat != RematMode::kExpertMlp;
  MOELOG_RETURN_IF_ERROR(Up(w, rows, keep));
  MOELOG_RETURN_IF_ERROR(Down(w, rows, y));
  impl_->saved = keep;
  return Status::Ok();
}

void ExpertMlp::ReleaseActivations() {
  Impl& s = *impl_;
  s.ab = Tensor();
  s.h = Tensor();
  s.dh = Tensor();
  s.dab = Tensor();
  std::vector<int32_t>().swap(s.acc);
  std::vector<int8_t>().swap(s.hq);
  std::vector<int8_t>().swap(s.dq);
  std::vector<float>().swap(s.hs);
  std::vector<float>().swap(s.ds);
  s.h_quantized = false;
  s.saved = false;
}

// Backward, by stage: dW2, dh (float, or straight-through int8), d(gate)
// and d(up), dW1/dW3, dx rows (float, or straight-through int8).
Status ExpertMlp::Backward(const ExpertWeights& w, const PackedRows& rows, const Tensor& dy, Tensor* dx_rows,
                           ExpertGrads* grads) {
  Impl& s = *impl_;
  if (!s.saved) MOELOG_RETURN_IF_ERROR(Up(w, rows, true));  // rematerialize ab and h
  const PackPlan& plan = *rows.plan;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows, l = w.experts();
  const DType dt = rows.x.dtype();
  Resize(&grads->dw1, dt, {l, h, m});
  Resize(&grads->dw3, dt, {l, h, m});
  Resize(&grads->dw2, dt, {l, m, h});
  Resize(dx_rows, dt, {rn, h});
  Resize(&s.dh, dt, {rn, m});
  Resize(&s.dab, dt, {rn, 2 * m});
  const bool quant = QuantRouted(options_.quant);
  BackwardDw2(w, plan, dy, grads);
  if (quant) BackwardDhInt8(w, plan, dy);
  else BackwardDh(w, plan, dy);
  // d(gate), d(up) from dh; preweight scales dh by the row weight first.
  const float* wt = options_.preweight ? plan.weight.data() : nullptr;
  DispatchFloat(dt, [&](auto tag) {
    using T = decltype(tag);
    SwiGluBackwardRows(s.ab.as<T>(), s.ld_ab, s.b_off, plan.valid_rows, m, wt, s.dh.as<T>(), m, s.dab.as<T>());
  });
  BackwardDw13(w, rows, grads);
  if (quant) BackwardDxInt8(w, plan, dx_rows);
  else BackwardDx(w, plan, dx_rows);
  for (int64_t r = plan.valid_rows; r < rn; ++r)
    std::memset(dx_rows->at(r * h), 0, static_cast<size_t>(h * DTypeSize(dt)));
  return runner_->status();
}

// dW2_g = h_g^T dy_g (float, also in int8 modes: straight-through). One
// batch: the experts' weight gradients are independent.
void ExpertMlp::BackwardDw2(const ExpertWeights& w, const PackPlan& plan, const Tensor& dy, ExpertGrads* grads) {
  Impl& s = *impl_;
  const int64_t h = w.hidden(), m = w.mlp_dim();
  const DType dt = dy.dtype();
  std::vector<MatmulJob> jobs;
  int64_t r0 = 0;
  for (int64_t g = 0; g < w.experts(); ++g) {
    const int64_t n = plan.group_sizes[g];
    MatmulJob j;
    j.a = MatView::RowMajor(s.h.at(r0 * m), dt, n, m, m).T();
    j.b = MatView::RowMajor(dy.at(r0 * h), dt, n, h, h);
    j.c = OutView{grads->dw2.at(g * m * h), dt, m, h, h};
    jobs.push_back(std::move(j));
    r0 += n;
  }
  runner_->RunBatch(jobs);
}

// dh = dy W2^T.
void ExpertMlp::BackwardDh(const ExpertWeights& w, const PackPlan& plan, const Tensor& dy) {
  Impl& s = *impl_;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows;
  const DType dt = dy.dtype();
  auto b2t = [&](int64_t g) {
    BOperand b;
    b.view = MatView::RowMajor(w.w2.at(g * m * h), dt, m, h, h).T();
    return b;
  };
  Grouped(runner_, options_.backend, plan.group_sizes, MatView::RowMajor(dy.data(), dt, rn, h, h), b2t,
          OutView{s.dh.data(), dt, rn, m, m}, false);
}

// Straight-through dLHS: the upstream gradient quantized per row against the
// transposed int8 weights with the same per-expert scale.
void ExpertMlp::BackwardDhInt8(const ExpertWeights& w, const PackPlan& plan, const Tensor& dy) {
  Impl& s = *impl_;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows, valid = plan.valid_rows;
  const size_t scratch = static_cast<size_t>(rn * std::max(h, 2 * m));
  s.dq.resize(scratch);
  s.ds.resize(static_cast<size_t>(rn));
  if (s.acc.size() < scratch) s.acc.resize(scratch);
  if (s.q2.empty()) QuantizeExperts(runner_, w.w2, &s.q2, &s.s2, &s.qp2);
  QuantizeRows(dy.data(), dy.dtype(), valid, h, h, s.dq.data(), s.ds.data());
  auto b2t = [&](int64_t g) {
    BOperand b;
    b.view = MatView::RowMajor(s.q2.data() + g * m * h, DType::kS8, m, h, h).T();
    return b;
  };
  Grouped(runner_, GroupedBackend::kRaggedDot, plan.group_sizes, MatView::RowMajor(s.dq.data(), DType::kS8, valid, h, h),
          b2t, OutView{s.acc.data(), DType::kS32, valid, m, m}, false);
  Dequantize(plan.group_sizes, s.acc.data(), m, s.ds.data(), s.s2.data(), s.dh.data(), dy.dtype(), m);
}

// dW1, dW3 (fused: dW13 then split, as w13 was built from w1 and w3). An
// expert's dW13 lands in the computing thread's output buffer and is split
// there at once (MatmulJob::consume): no [L, H, 2M] buffer exists.
void ExpertMlp::BackwardDw13(const ExpertWeights& w, const PackedRows& rows, ExpertGrads* grads) {
  Impl& s = *impl_;
  const int64_t h = w.hidden(), m = w.mlp_dim(), l = w.experts();
  const DType dt = rows.x.dtype();
  const int64_t es = DTypeSize(dt);
  std::vector<MatmulJob> jobs;
  int64_t r0 = 0;
  for (int64_t g = 0; g < l; ++g) {
    const int64_t n = rows.plan->group_sizes[g];
    MatView xv = MatView::RowMajor(rows.x.at(r0 * h), dt, n, h, h).T();
    if (options_.fused_w13) {
      MatmulJob j;
      j.a = xv;
      j.b = MatView::RowMajor(s.dab.at(r0 * 2 * m), dt, n, 2 * m, 2 * m);
      j.c = OutView{nullptr, dt, h, 2 * m, 2 * m};
      char* d1 = static_cast<char*>(grads->dw1.at(g * h * m));
      char* d3 = static_cast<char*>(grads->dw3.at(g * h * m));
      j.consume = [d1, d3, h, m, es](const OutView& c) {
        const char* src = static_cast<const char*>(c.data);
        for (int64_t i = 0; i < h; ++i) {
          std::memcpy(d1 + i * m * es, src + 2 * i * m * es, static_cast<size_t>(m * es));
          std::memcpy(d3 + i * m * es, src + (2 * i + 1) * m * es, static_cast<size_t>(m * es));
        }
      };
      jobs.push_back(std::move(j));
    } else {
      MatmulJob j1, j3;
      j1.a = j3.a = xv;
      j1.b = MatView::RowMajor(s.dab.at(r0 * m), dt, n, m, m);
      j1.c = OutView{grads->dw1.at(g * h * m), dt, h, m, m};
      j3.b = MatView::RowMajor(s.dab.at(s.b_off + r0 * m), dt, n, m, m);
      j3.c = OutView{grads->dw3.at(g * h * m), dt, h, m, m};
      jobs.push_back(std::move(j1));
      jobs.push_back(std::move(j3));
    }
    r0 += n;
  }
  runner_->RunBatch(jobs);
}

// dx_rows = d(gate) W1^T + d(up) W3^T (fused: d(ab) W13^T).
void ExpertMlp::BackwardDx(const ExpertWeights& w, const PackPlan& plan, Tensor* dx_rows) {
  Impl& s = *impl_;
  const int64_t h = w.hidden(), m = w.mlp_dim(), rn = plan.rows;
  const DType dt = dx_rows->dtype();
  const auto& groups = plan.group_sizes;
  auto transposed = [&](const Tensor& weights, int64_t cols) {
    return [&weights, h, cols, dt](int64_t g) {
      BOperand o;
      o.view = MatView::RowMajor(weights.at(g * h * cols), dt, h, cols, cols).T();
      return o;
    };
  };
  const OutView dx{dx_rows->data(), dt, rn, h, h};
  if (options_.fused_w13) {
    GroupedW13(runner_, options_.backend, w, groups, MatView::RowMajor(s.dab.data(), dt, rn, 2 * m, 2 * m), true, dx);
    return;
  }
  Grouped(runner_, options_.backend, groups, MatView::RowMajor(s.dab.data(), dt, rn, m, m), transposed(w.w1, m), dx,
          false);
  Grouped(runner_, options_.backend, groups, MatView::RowMajor(s.dab.at(s.b_off), dt, rn, m, m), transposed(w.w3, m),
          dx, true);
}

// Straight-through int8 dLHS against the transposed int8 up weights. Split
// gate and up gradients are quantized per row separately; each half uses its
// own weight's per-expert scale.
void ExpertMlp::BackwardDxInt8(const ExpertWeights& w, const PackPlan& plan, Tensor* dx_rows) {
  Impl& s = *impl_;
  const int64_t h = w.hidden(), m = w.mlp_dim(), l = w.experts(), valid = plan.valid_rows;
  const DType dt = dx_rows->dtype();
  const auto& groups = plan.group_sizes;
  auto run = [&](const std::vector<int8_t>& q, int64_t cols, int64_t off) {
    QuantizeRows(s.dab.at(off), dt, valid, cols, cols, s.dq.data(), s.ds.data());
    auto b = [&](int64_t g) {
      BOperand o;
      o.view = MatView::RowMajor(q.data() + g * h * cols, DType::kS8, h, cols, cols).T();
      return o;
    };
    Grouped(runner_, GroupedBackend::kRaggedDot, groups, MatView::RowMajor(s.dq.data(), DType::kS8, valid, cols, cols),
            b, OutView{s.acc.data(), DType::kS32, valid, h, h}, false);
  };
  if (options_.fused_w13) {
    if (s.q13.empty()) QuantizeExperts(runner_, w.w13, &s.q13, &s.s13, &s.qp13);
    run(s.q13, 2 * m, 0);
    Dequantize(groups, s.acc.data(), h, s.ds.data(), s.s13.data(), dx_rows->data(), dt, h);
    return;
  }
  if (s.q1.empty()) QuantizeExperts(runner_, w.w1, &s.q1, &s.s1, &s.qp1);
  if (s.q3.empty()) QuantizeExperts(runner_, w.w3, &s.q3, &s.s3, &s.qp3);
  std::vector<float> gate(static_cast<size_t>(valid * h));
  run(s.q1, m, 0);
  Dequantize(groups, s.acc.data(), h, s.ds.data(), s.s1.data(), gate.data(), DType::kF32, h);
  run(s.q3, m, s.b_off);
  int64_t r0 = 0;
  for (int64_t g = 0; g < l; ++g) {
    const float sg = s.s3[g];
    for (int64_t r = r0; r < r0 + groups[g]; ++r) {
      const float sc = s.ds[r] * sg;
      for (int64_t j = 0; j < h; ++j)
        StoreF(dx_rows->data(), dt, r * h + j, gate[r * h + j] + static_cast<float>(s.acc[r * h + j]) * sc);
    }
    r0 += groups[g];
  }
}

}  // namespace moelog::engine::cpu
