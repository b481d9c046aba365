#include "engine/cpu/moe_block.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/cpu/kernels.h"
#include "engine/cpu/reference.h"

namespace moelog::engine::cpu {

Result<BlockConfig> MakeBlockConfig(const BenchConfig& cfg, const std::string& impl) {
  BlockConfig c;
  c.tokens = cfg.tokens;
  c.hidden = cfg.hidden;
  c.mlp_dim = cfg.mlp_dim;
  c.experts = cfg.experts;
  c.shared_dim = cfg.shared_expert_dim;
  c.dtype = DTypeFromName(cfg.dtype);
  c.impl = impl;
  if (impl == "baseline") {
  } else if (impl == "fused_w13") {
    c.fused_w13 = true;
  } else if (impl == "preweight") {
    c.preweight = true;
  } else if (impl == "fused_w13_preweight") {
    c.fused_w13 = c.preweight = true;
  } else if (impl == "scatter") {
    c.scatter = true;
  } else if (impl == "fast") {
    c.fused_w13 = c.scatter = true;
  } else {
    return Status::InvalidArgument("--impl: unknown impl '" + impl + "'");
  }
  c.shared_fused = cfg.shared_fused;
  MOELOG_ASSIGN_OR_RETURN(c.backend, ParseGroupedBackend(cfg.backend));
  MOELOG_ASSIGN_OR_RETURN(c.strategy, ParsePackStrategy(cfg.routing_pack_strategy));
  MOELOG_ASSIGN_OR_RETURN(c.capacity, ParseCapacityPolicy(cfg.EffectiveCapacityPolicy()));
  c.capacity_factor = cfg.capacity_factor;
  MOELOG_ASSIGN_OR_RETURN(c.quant, ParseQuantMode(cfg.quant_mode));
  MOELOG_ASSIGN_OR_RETURN(c.remat, ParseRematMode(cfg.remat_mode));
  c.repeat_sort = cfg.dispatch_permute_mode == "repeat_sort";
  return c;
}

namespace {

constexpr int64_t kFillChunk = 1 << 16;

// Elements [begin, end) of a tensor filled by FillNormal with `key`, written
// to dst[0, end - begin): chunk c of the tensor draws from its own stream, so
// any range can be produced alone (skipping the chunk's earlier draws).
void FillNormalRange(void* dst, DType dt, uint64_t key, double scale, int64_t begin, int64_t end) {
  if (end <= begin) return;
  const int64_t c0 = begin / kFillChunk, c1 = (end - 1) / kFillChunk;
#pragma omp parallel for schedule(dynamic)
  for (int64_t c = c0; c <= c1; ++c) {
    Rng rng(FoldIn(key, static_cast<uint64_t>(c)));
    const int64_t s = c * kFillChunk, a = std::max(begin, s), b = std::min(end, s + kFillChunk);
    for (int64_t i = s; i < a; ++i) rng.Normal();
    for (int64_t i = a; i < b; ++i) StoreF(dst, dt, i - begin, static_cast<float>(rng.Normal() * scale));
  }
}

// Fills t with N(0,1) * scale; chunked so the values do not depend on threads.
void FillNormal(Tensor* t, uint64_t key, double scale) {
  FillNormalRange(t->data(), t->dtype(), key, scale, 0, t->numel());
}

}  // namespace

BlockData GenerateBlockData(int64_t t, int64_t h, int64_t m, int64_t e, int64_t s, DType dt, uint64_t seed) {
  BlockData d;
  d.seed = seed;
  d.x = Tensor(dt, {t, h});
  FillNormal(&d.x, KeyForLabel(seed, "x"), 1.0);
  d.experts.w1 = Tensor(dt, {e, h, m});
  d.experts.w3 = Tensor(dt, {e, h, m});
  d.experts.w2 = Tensor(dt, {e, m, h});
  FillNormal(&d.experts.w1, KeyForLabel(seed, "w1"), 1.0 / std::sqrt(static_cast<double>(h)));
  FillNormal(&d.experts.w3, KeyForLabel(seed, "w3"), 1.0 / std::sqrt(static_cast<double>(h)));
  FillNormal(&d.experts.w2, KeyForLabel(seed, "w2"), 1.0 / std::sqrt(static_cast<double>(m)));
  if (s > 0) {
    d.shared.w1 = Tensor(dt, {h, s});
    d.shared.w3 = Tensor(dt, {h, s});
    d.shared.w2 = Tensor(dt, {s, h});
    FillNormal(&d.shared.w1, KeyForLabel(seed, "shared/w1"), 1.0 / std::sqrt(static_cast<double>(h)));
    FillNormal(&d.shared.w3, KeyForLabel(seed, "shared/w3"), 1.0 / std::sqrt(static_cast<double>(h)));
    FillNormal(&d.shared.w2, KeyForLabel(seed, "shared/w2"), 1.0 / std::sqrt(static_cast<double>(s)));
  }
  return d;
}

namespace {

// Experts [e0, e1)'s w1, w3, w2 as GenerateBlockData makes them, written
// from the start of the given buffers.
void FillExperts(int64_t h, int64_t m, int64_t e0, int64_t e1, DType dt, uint64_t seed, void* w1, void* w3, void* w2) {
  const int64_t n = h * m;
  const double up = 1.0 / std::sqrt(static_cast<double>(h)), down = 1.0 / std::sqrt(static_cast<double>(m));
  FillNormalRange(w1, dt, KeyForLabel(seed, "w1"), up, e0 * n, e1 * n);
  FillNormalRange(w3, dt, KeyForLabel(seed, "w3"), up, e0 * n, e1 * n);
  FillNormalRange(w2, dt, KeyForLabel(seed, "w2"), down, e0 * n, e1 * n);
}

}  // namespace

void GenerateExpertWeights(int64_t h, int64_t m, int64_t e, DType dt, uint64_t seed, void* w1, void* w3, void* w2) {
  FillExperts(h, m, e, e + 1, dt, seed, w1, w3, w2);
}

BlockData GenerateBlockDataShare(int64_t h, int64_t m, int64_t s, DType dt, uint64_t seed, const DataShare& share) {
  BlockData d = GenerateBlockData(0, h, m, 0, s, dt, seed);
  d.share = true;
  d.token_begin = share.token_begin;
  d.expert_begin = share.expert_begin;
  d.x = Tensor(dt, {share.tokens, h});
  FillNormalRange(d.x.data(), dt, KeyForLabel(seed, "x"), 1.0, share.token_begin * h,
                  (share.token_begin + share.tokens) * h);
  d.experts.w1 = Tensor(dt, {share.experts, h, m});
  d.experts.w3 = Tensor(dt, {share.experts, h, m});
  d.experts.w2 = Tensor(dt, {share.experts, m, h});
  FillExperts(h, m, share.expert_begin, share.expert_begin + share.experts, dt, seed, d.experts.w1.data(),
              d.experts.w3.data(), d.experts.w2.data());
  return d;
}

BlockData GenerateBlockDataDeferred(int64_t t, int64_t h, int64_t m, int64_t e, int64_t s, DType dt, uint64_t seed) {
  BlockData d = GenerateBlockData(t, h, 0, 0, s, dt, seed);
  d.deferred_experts = true;
  d.seed = seed;
  (void)m;
  (void)e;
  return d;
}

bool UsesTiledPipeline(const BlockConfig& c) { return c.quant == QuantMode::kNone && !c.repeat_sort; }

double EstimateBytes(const BlockConfig& c, int64_t topk, bool backward, bool check_numerics) {
  const double es = static_cast<double>(DTypeSize(c.dtype));
  const double t = static_cast<double>(c.tokens), h = static_cast<double>(c.hidden);
  const double m = static_cast<double>(c.mlp_dim), e = static_cast<double>(c.experts);
  const double s = static_cast<double>(c.shared_dim);
  double rows = t * static_cast<double>(topk);
  if (c.capacity == CapacityPolicy::kPad)
    rows = std::max(1.0, std::ceil(c.capacity_factor * t * static_cast<double>(topk) / e)) * e;
  rows = std::ceil(rows / kGmmTileRows) * kGmmTileRows;
  const double w_expert = 3 * e * h * m * es, w_shared = 3 * h * s * es;
  if (UsesTiledPipeline(c)) {
    // Weights in one form (prepacked, or plain for training), x, y and one
    // more [T,H] plane, per-thread tiles (whole experts in training, with the
    // backward's transposed and packed operands and transposed weights), plan.
    const double threads = 2.0;
    const double group = std::min(rows, 2.0 * rows / e + kGmmTileRows);
    double bytes = w_expert + w_shared * (5.0 / 3.0) + 3 * t * h * es + rows * 24;
    bytes += threads * (backward ? group * (2 * h + 3 * m + 2 * std::max(h, m)) * es + 8 * h * m * es
                                 : kGmmTileRows * (2 * h + 3 * m) * es);
    // The shared expert's activations, scratch and gradients.
    bytes += SharedExpertBytes(c.tokens, c.hidden, c.shared_dim, c.dtype, c.shared_fused, c.quant, backward);
    if (s > 0) bytes += t * h * 4;  // the f32 sum with the shared expert
    if (backward) {
      bytes += w_expert + w_shared;                 // gradients
      bytes += (3 * rows + 64 * e) * m * es;        // saved gate|up and h^T (tokens padded, PadTokens)
      bytes += t * h * (es + 4);                    // dout, dx f32
    }
    if (check_numerics) bytes += w_expert + 8 * (3 * t * h + 2 * (3 * e * h * m + 3 * h * s));
    return bytes;
  }
  double bytes = w_expert * (5.0 / 3.0) + w_shared * (5.0 / 3.0);  // w1 w2 w3 + w13
  bytes += w_expert;                                               // prepacked / quantized copies
  bytes += t * h * es * 2 + t * h * 4;                             // x, y, f32 accumulator
  bytes += rows * (h * es * 2 + 3 * m * es + 24);                  // rows x, y rows, ab, h, plan
  bytes += SharedExpertBytes(c.tokens, c.hidden, c.shared_dim, c.dtype, c.shared_fused, c.quant, backward);
  if (QuantRouted(c.quant) || c.quant != QuantMode::kNone) bytes += rows * (h + 2 * m * 4) + w_expert / es;
  if (backward) {
    bytes += w_expert * (5.0 / 3.0) + w_shared;  // gradients (+ dw13 scratch)
    bytes += rows * (2 * h * es + 3 * m * es);  // dy rows, dx rows, dh, dab
    bytes += t * h * (es + 4);                  // dout, dx f32
  }
  if (c.repeat_sort) bytes += t * static_cast<double>(topk) * h * es;
  if (check_numerics) bytes += 8 * (3 * t * h + 2 * (3 * e * h * m + 3 * h * s));
  return bytes;
}

double AvailableBytes() {
  std::ifstream f("/proc/meminfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream ss(line.substr(13));
      double kb = 0;
      ss >> kb;
      return kb * 1024.0;
    }
  }
  return 0;
}

namespace {

// mean(y^2) over the first n elements of y, accumulated in double: the
// training step's loss.
float MeanOfSquares(const Tensor& y, int64_t n) {
  double sum = 0;
  DispatchFloat(y.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* yp = y.as<T>();
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < n; ++i) {
      const float v = ToF(yp[i]);
      sum += static_cast<double>(v) * v;
    }
  });
  return static_cast<float>(sum / static_cast<double>(n));
}

// The expert path both the tiled pipeline and the expert MLP take: grouped
// matmul backend, fused gate|up, pre-weighting, rematerialization.
template <typename Options>
Options ExpertPathOptions(const BlockConfig& c) {
  Options o;
  o.backend = c.backend;
  o.fused_w13 = c.fused_w13;
  o.preweight = c.preweight;
  o.remat = c.remat;
  return o;
}

PipelineOptions TiledOptions(const BlockConfig& c) {
  auto o = ExpertPathOptions<PipelineOptions>(c);
  o.plain_backward = c.plain_backward;
  return o;
}

ExpertMlpOptions MlpOptions(const BlockConfig& c) {
  auto o = ExpertPathOptions<ExpertMlpOptions>(c);
  o.quant = c.quant;
  return o;
}

}  // namespace

MoeBlock::MoeBlock(const BlockConfig& c, BlockData* data, const Routing* routing)
    : c_(c),
      data_(data),
      routing_(routing),
      mlp_(&runner_, MlpOptions(c)),
      tiled_(UsesTiledPipeline(c)),
      pipeline_(&runner_, TiledOptions(c)),
      shared_(&runner_, c.shared_fused, c.quant) {
  pack_options_.strategy = c.strategy;
  pack_options_.capacity = c.capacity;
  pack_options_.capacity_factor = c.capacity_factor;
  pack_options_.pad_rows_to_tile = c.backend == GroupedBackend::kGmm;
  // Forced scatter: capacity pad, and any realized null assignment.
  scatter_ = c.scatter || c.capacity == CapacityPolicy::kPad || routing->null_assignments > 0;
}

Status MoeBlock::Prepare(bool training) {
  training_ = training;
  if (tiled_) {
    // The tile pipeline needs no w13: forward-only runs prepack per expert,
    // training concatenates an expert's w1|w3 while it is in flight.
    if (c_.shared_fused && c_.shared_dim > 0) BuildSharedW13(&data_->shared);
    if (!training && data_->experts.w1.empty()) {
      if (!data_->deferred_experts) return Status::Internal("MoeBlock: the expert weights were released");
      // Each expert's plain weights exist only while it is packed.
      const int64_t h = c_.hidden, m = c_.mlp_dim;
      Tensor w1(c_.dtype, {h, m}), w3(c_.dtype, {h, m}), w2(c_.dtype, {m, h});
      for (int64_t e = 0; e < c_.experts; ++e) {
        GenerateExpertWeights(h, m, e, c_.dtype, data_->seed, w1.data(), w3.data(), w2.data());
        pipeline_.PrepackExpert(e, c_.experts, h, m, c_.dtype, w1.data(), w3.data(), w2.data());
      }
    } else if (!training) {
      MOELOG_RETURN_IF_ERROR(pipeline_.Prepack(data_->experts));
      if (release_plain_) {
        data_->deferred_experts = true;  // regenerated from the seed when needed
        data_->experts.w1 = Tensor();
        data_->experts.w3 = Tensor();
        data_->experts.w2 = Tensor();
        data_->experts.w13 = Tensor();
      }
    }
    return runner_.status();
  }
  if (c_.fused_w13) BuildW13(&data_->experts);
  if (c_.shared_fused && c_.shared_dim > 0) BuildSharedW13(&data_->shared);
  ExpertMlpOptions o = mlp_.options();
  o.prepacked = !training;
  mlp_ = ExpertMlp(&runner_, o);
  MOELOG_RETURN_IF_ERROR(mlp_.Prepare(data_->experts));
  // A forward-only run with prepacked (or prequantized) weights never reads
  // the plain w13 again: drop it (peak memory). The next Prepare rebuilds it.
  if (!training && c_.fused_w13 && (c_.quant == QuantMode::kNone || c_.quant == QuantMode::kInt8RoutedPrequant))
    data_->experts.w13 = Tensor();
  return Status::Ok();
}

Status MoeBlock::BeginStageTiming() {
  if (staging_) return Status::Ok();
  staging_ = true;
  if (!tiled_) return Status::Ok();
  if (data_->experts.w1.empty())
    return Status::Internal("stage timing needs the plain expert weights (released after prepacking)");
  if (c_.fused_w13) BuildW13(&data_->experts);
  ExpertMlpOptions o = mlp_.options();
  o.prepacked = !training_;
  mlp_ = ExpertMlp(&runner_, o);
  MOELOG_RETURN_IF_ERROR(mlp_.Prepare(data_->experts));
  return runner_.status();
}

Status MoeBlock::Pack() {
  auto plan = PlanPack(*routing_, pack_options_);
  if (!plan.ok()) return plan.status();
  plan_ = std::move(plan).value();
  if (tiled_ && !staging_) return Status::Ok();
  if (c_.repeat_sort && !QuantRouted(c_.quant)) GatherRowsRepeatSort(data_->x, plan_, &repeated_, &rows_);
  // Forward-only int8 runs (prepacked weights) need only the int8 rows.
  else GatherRows(data_->x, plan_, QuantRouted(c_.quant), &rows_, !mlp_.options().prepacked);
  return Status::Ok();
}

Status MoeBlock::Up() {
  if (tiled_) {
    // The separate stages run unfused (stage timing, benchmarks).
    MOELOG_RETURN_IF_ERROR(BeginStageTiming());
    if (rows_.x.empty()) GatherRows(data_->x, plan_, false, &rows_);
  }
  return mlp_.Up(data_->experts, rows_);
}

Status MoeBlock::Down() { return mlp_.Down(data_->experts, rows_, &y_rows_); }

Status MoeBlock::Combine(bool with_shared) {
  const int64_t t = c_.tokens, h = c_.hidden;
  const bool weight_in_combine = !c_.preweight;
  const bool direct = !scatter_ && !(with_shared && c_.shared_dim > 0);
  if (!direct) out_f32_.resize(static_cast<size_t>(t * h));
  if (scatter_) {
    std::memset(out_f32_.data(), 0, out_f32_.size() * sizeof(float));
    CombineScatter(y_rows_, plan_, weight_in_combine, out_f32_.data(), h);
  } else {
    inv_ = InversePermutation(plan_);  // inside the timed function, as the harness does
    if (direct) {
      // Nothing else is added: sum straight into y.
      if (y_.empty() || y_.dtype() != c_.dtype) y_ = Tensor(c_.dtype, {t, h});
      CombineInversePermuteInto(y_rows_, plan_, inv_, weight_in_combine, &y_);
      return Status::Ok();
    }
    CombineInversePermute(y_rows_, plan_, inv_, weight_in_combine, out_f32_.data(), h);
  }
  if (with_shared && c_.shared_dim > 0) MOELOG_RETURN_IF_ERROR(shared_.Forward(data_->shared, data_->x, out_f32_.data(), true));
  if (y_.empty() || y_.dtype() != c_.dtype) y_ = Tensor(c_.dtype, {t, h});
  DispatchFloat(c_.dtype, [&](auto tag) { CastScale(out_f32_.data(), y_.as<decltype(tag)>(), t * h); });
  return Status::Ok();
}

Status MoeBlock::TiledForward(bool save) {
  const int64_t t = c_.tokens, h = c_.hidden;
  // Training: dx is not needed until the backward overwrites it, so it holds
  // the low halves of y's sums meanwhile.
  if (c_.shared_dim == 0)
    return pipeline_.Forward(data_->experts, data_->x, plan_, save, &y_, nullptr, save ? &dx_ : nullptr);
  // The shared expert adds into the same f32 sum: one [T,H] f32 buffer.
  out_f32_.assign(static_cast<size_t>(t * h), 0.0f);
  MOELOG_RETURN_IF_ERROR(pipeline_.Forward(data_->experts, data_->x, plan_, save, &y_, out_f32_.data()));
  MOELOG_RETURN_IF_ERROR(shared_.Forward(data_->shared, data_->x, out_f32_.data(), save));
  if (y_.empty() || y_.dtype() != c_.dtype) y_ = Tensor(c_.dtype, {t, h});
  DispatchFloat(c_.dtype, [&](auto tag) { CastScale(out_f32_.data(), y_.as<decltype(tag)>(), t * h); });
  return Status::Ok();
}

Status MoeBlock::Forward(bool pack) {
  if (tiled_) {
    if (pack) {
      auto plan = PlanPack(*routing_, pack_options_);
      if (!plan.ok()) return plan.status();
      plan_ = std::move(plan).value();
    }
    return TiledForward(false);
  }
  if (pack) MOELOG_RETURN_IF_ERROR(Pack());
  if (QuantRouted(c_.quant) && !scatter_ && c_.shared_dim == 0) {
    // int8 routed: the combine runs in the down projection's epilogue.
    inv_ = InversePermutation(plan_);
    if (y_.empty() || y_.dtype() != c_.dtype) y_ = Tensor(c_.dtype, {c_.tokens, c_.hidden});
    return mlp_.ForwardCombine(data_->experts, rows_, inv_, !c_.preweight, &y_rows_, &y_);
  }
  MOELOG_RETURN_IF_ERROR(mlp_.Forward(data_->experts, rows_, &y_rows_, false));
  return Combine();
}

Status MoeBlock::TiledTrainStep() {
  const int64_t t = c_.tokens, h = c_.hidden;
  if (c_.shared_fused && c_.shared_dim > 0) BuildSharedW13(&data_->shared);
  // The last step's expert gradients are overwritten by this one.
  TiledMoe::DiscardGradients(&grads_);
  MOELOG_RETURN_IF_ERROR(Pack());
  MOELOG_RETURN_IF_ERROR(TiledForward(true));
  // loss = mean(y^2) in f32; dL/dy = 2 y / (T H), formed per row by the
  // pipeline (and materialized only for the shared expert).
  const float inv_n = 2.0f / static_cast<float>(t * h);
  loss_ = MeanOfSquares(y_, t * h);
  if (c_.shared_dim == 0)
    return pipeline_.Backward(data_->experts, data_->x, plan_, y_, inv_n, &dx_, nullptr, &grads_);
  if (dout_.empty() || dout_.dtype() != c_.dtype) dout_ = Tensor(c_.dtype, {t, h});
  DispatchFloat(c_.dtype, [&](auto tag) {
    using T = decltype(tag);
    CastScale(y_.as<T>(), dout_.as<T>(), t * h, inv_n);
  });
  dx_f32_.assign(static_cast<size_t>(t * h), 0.0f);
  MOELOG_RETURN_IF_ERROR(shared_.Backward(data_->shared, data_->x, dout_, dx_f32_.data(), &shared_grads_));
  MOELOG_RETURN_IF_ERROR(pipeline_.Backward(data_->experts, data_->x, plan_, y_, inv_n, &dx_, dx_f32_.data(), &grads_));
  if (dx_.empty() || dx_.dtype() != c_.dtype) dx_ = Tensor(c_.dtype, {t, h});
  DispatchFloat(c_.dtype, [&](auto tag) { CastScale(dx_f32_.data(), dx_.as<decltype(tag)>(), t * h); });
  return Status::Ok();
}

Status MoeBlock::TrainStep() {
  if (tiled_) return TiledTrainStep();
  const int64_t t = c_.tokens, h = c_.hidden;
  // w13 = concat(w1, w3) and the shared w13 are rebuilt inside every step.
  if (c_.fused_w13) BuildW13(&data_->experts);
  if (c_.shared_fused && c_.shared_dim > 0) BuildSharedW13(&data_->shared);
  MOELOG_RETURN_IF_ERROR(Pack());
  MOELOG_RETURN_IF_ERROR(mlp_.Forward(data_->experts, rows_, &y_rows_, true));
  MOELOG_RETURN_IF_ERROR(Combine());
  // loss = mean(y^2) in f32; dL/dy = 2 y / (T H).
  const float inv_n = 2.0f / static_cast<float>(t * h);
  if (dout_.empty() || dout_.dtype() != c_.dtype) dout_ = Tensor(c_.dtype, {t, h});
  loss_ = MeanOfSquares(y_, t * h);
  DispatchFloat(c_.dtype, [&](auto tag) {
    using T = decltype(tag);
    CastScale(y_.as<T>(), dout_.as<T>(), t * h, inv_n);
  });
  dx_f32_.assign(static_cast<size_t>(t * h), 0.0f);
  if (c_.shared_dim > 0)
    MOELOG_RETURN_IF_ERROR(shared_.Backward(data_->shared, data_->x, dout_, dx_f32_.data(), &shared_grads_));
  const bool weight_in_combine = !c_.preweight;
  if (scatter_) {
    CombineBackward(dout_, plan_, weight_in_combine, &dy_rows_);
  } else {
    // combine remat: the inverse permutation is recomputed instead of kept.
    if (c_.remat == RematMode::kCombine) inv_ = InversePermutation(plan_);
    CombineBackwardInverse(dout_, plan_, inv_, weight_in_combine, &dy_rows_);
  }
  MOELOG_RETURN_IF_ERROR(mlp_.Backward(data_->experts, rows_, dy_rows_, &dx_rows_, &grads_));
  ScatterAddRows(dx_rows_, plan_, dx_f32_.data(), h);
  if (dx_.empty() || dx_.dtype() != c_.dtype) dx_ = Tensor(c_.dtype, {t, h});
  DispatchFloat(c_.dtype, [&](auto tag) { CastScale(dx_f32_.data(), dx_.as<decltype(tag)>(), t * h); });
  return Status::Ok();
}

double NumericsTolerance(DType dtype, QuantMode quant, bool gradient) {
  if (quant != QuantMode::kNone) return gradient ? 8e-2 : 5e-2;
  if (dtype == DType::kBF16) return gradient ? 4e-2 : 3e-2;
  return 1e-4;
}

std::vector<NumericsCheck> MoeBlock::CheckNumerics(bool gradients) {
  ReferenceInputs in;
  in.tokens = c_.tokens;
  in.hidden = c_.hidden;
  in.mlp_dim = c_.mlp_dim;
  in.experts = c_.experts;
  in.shared_dim = c_.shared_dim;
  in.x = data_->x.ToDouble();
  in.w1 = data_->experts.w1.ToDouble();
  in.w3 = data_->experts.w3.ToDouble();
  in.w2 = data_->experts.w2.ToDouble();
  if (c_.shared_dim > 0) {
    in.sw1 = data_->shared.w1.ToDouble();
    in.sw3 = data_->shared.w3.ToDouble();
    in.sw2 = data_->shared.w2.ToDouble();
  }
  in.routing = routing_;
  in.cap = plan_.cap;
  ReferenceOutputs ref = ReferenceMoe(in, gradients);
  std::vector<NumericsCheck> out;
  auto add = [&](const std::string& name, const Tensor& got, const std::vector<double>& want) {
    NumericsCheck n;
    n.tensor = name;
    n.max_rel_err = MaxRelErr(got.ToDouble(), want);
    n.tolerance = NumericsTolerance(c_.dtype, c_.quant, name != "y");
    n.ok = n.max_rel_err <= n.tolerance;
    out.push_back(n);
  };
  add("y", y_, ref.y);
  if (gradients) {
    add("dx", dx_, ref.dx);
    add("dw1", grads_.dw1, ref.dw1);
    add("dw2", grads_.dw2, ref.dw2);
    add("dw3", grads_.dw3, ref.dw3);
    if (c_.shared_dim > 0) {
      add("shared_dw1", shared_grads_.dw1, ref.dsw1);
      add("shared_dw2", shared_grads_.dw2, ref.dsw2);
      add("shared_dw3", shared_grads_.dw3, ref.dsw3);
    }
  }
  return out;
}

}  // namespace moelog::engine::cpu
