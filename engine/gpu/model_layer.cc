// GEMM, streaming and MoE-layer stages of the GPU model, and its JSON.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/gpu/model.h"

namespace moelog::engine::gpu {

Stage DispatchStage(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r, bool dispatch);

namespace {

double DtypeSize(const std::string& d) { return d == "fp8" ? 1 : d == "fp4" ? 0.5 : d == "fp32" ? 4 : 2; }

double MatmulEta(const Hardware& hw, const Params& p, const std::string& dtype) {
  if (hw.vendor == "amd") return p[kEtaMmAmd];
  return dtype == "bf16" || dtype == "fp32" ? p[kEtaMmBf16] : p[kEtaMmFp8];
}

// Tile width n of a GEMM whose groups take `row_tiles` tiles of block M in
// all: the one that finishes soonest (fewest waves times width: wave
// quantization over `sms`), the wider on ties.
int64_t TileN(double row_tiles, int64_t n, int64_t sms, double* waves_out) {
  double best = -1, best_waves = 0;
  int64_t best_bn = 16;
  for (int64_t bn = 16; bn <= 256; bn += 16) {
    const double tiles = row_tiles * std::ceil(static_cast<double>(n) / static_cast<double>(bn));
    const double waves = std::ceil(tiles / static_cast<double>(sms));
    const double cost = waves * static_cast<double>(bn);
    if (best < 0 || cost <= best) best = cost, best_bn = bn, best_waves = waves;
  }
  *waves_out = best_waves;
  return best_bn;
}

}  // namespace

// A (grouped) GEMM on `sms` SMs: rows[g] x k times k x n per group, in DeepGEMM's
// layout (FP8 A and B, BF16 D) and byte count.
Stage GemmStage(const Hardware& hw, const Params& p, const std::vector<double>& rows, int64_t n, int64_t k,
                const std::string& dtype, int64_t sms, const std::string& name) {
  Stage s{name};
  double m = 0, nonempty = 0, max_rows = 0;
  for (double r : rows) m += r, nonempty += r > 0, max_rows = std::max(max_rows, r);
  const double N = static_cast<double>(n), K = static_cast<double>(k), b = DtypeSize(dtype);
  s.flops = 2 * m * N * K;
  s.bytes = m * K * b + nonempty * N * K * b + m * N * 2;
  s.time_s = hw.launch_latency_s;
  if (m <= 0) return s;
  sms = std::max<int64_t>(1, sms);
  const int64_t bm = max_rows <= 64 ? 64 : 128;
  double row_tiles = 0;
  for (double r : rows) row_tiles += std::ceil(r / static_cast<double>(bm));
  double waves = 0;
  const int64_t bn = TileN(row_tiles, n, sms, &waves);
  const double per_sm = hw.PeakFor(dtype) * MatmulEta(hw, p, dtype) / static_cast<double>(hw.sms);
  const double compute = waves * 2.0 * static_cast<double>(bm * bn) * (K + p[kKEpilogue]) / per_sm;
  const double tiles = row_tiles * std::ceil(N / static_cast<double>(bn));
  const double active = std::min<double>(tiles, static_cast<double>(sms));
  const double mem_frac = std::min(1.0, active / (static_cast<double>(hw.sms) * p[kSmMemFrac]));
  const double memory = s.bytes / (hw.hbm_bw * p[kEtaHbm] * mem_frac);
  s.time_s += std::max(compute, memory);
  s.bound = compute >= memory ? "tensor" : "hbm";
  return s;
}

Stage StreamStage(const Hardware& hw, const Params& p, double bytes, const std::string& name) {
  Stage s{name};
  s.bytes = bytes;
  s.time_s = hw.launch_latency_s + bytes / (hw.hbm_bw * p[kEtaHbm]);
  s.bound = "hbm";
  return s;
}

namespace {

// A dense GEMM a generic library runs (cuBLAS-class): the tile model times the
// hardware file's size curve.
Stage DenseStage(const Hardware& hw, const Params& p, double m, int64_t n, int64_t k, const std::string& dtype,
                 int64_t sms, const std::string& name) {
  Stage s = GemmStage(hw, p, {m}, n, k, dtype, sms, name);
  if (s.bound == "tensor") s.time_s /= hw.matmul_size.At(s.flops / 1e9);
  return s;
}

Stage RoutingStage(const Hardware& hw, const Params& p, const Case& c) {
  const double t = static_cast<double>(c.tokens), e = static_cast<double>(c.experts);
  Stage s = DenseStage(hw, p, t, c.experts, c.hidden, "bf16", hw.sms, "routing");
  const Stage topk = StreamStage(hw, p, t * e * 4 + t * static_cast<double>(c.topk) * 8, "topk");
  s.time_s += topk.time_s;
  s.bytes += topk.bytes;
  return s;
}

void Add(Prediction* pr, Stage s) {
  pr->time_s += s.time_s;
  pr->flops += s.flops;
  pr->stages.push_back(std::move(s));
}

// The routed experts' GEMMs and activation of one pass (forward, or
// backward: data gradient and weight gradient, each a GEMM of the same size).
void ExpertStages(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r, bool backward,
                  Prediction* pr) {
  const std::string dt = backward ? "bf16" : c.dtype;
  const int reps = backward ? 2 : 1;
  const char* suffix = backward ? "_bwd" : "";
  double m = 0;
  for (double x : r.local_groups) m += x;
  const double f = static_cast<double>(c.mlp_dim);
  for (int i = 0; i < reps; ++i)
    Add(pr, GemmStage(hw, p, r.local_groups, c.hidden, c.mlp_dim, dt, hw.sms, std::string("gemm_down") + suffix));
  Add(pr, StreamStage(hw, p, m * f * 2 * 3 * reps, std::string("activation") + suffix));
  for (int i = 0; i < reps; ++i)
    Add(pr, GemmStage(hw, p, r.local_groups, 2 * c.mlp_dim, c.hidden, dt, hw.sms, std::string("gemm_up") + suffix));
}

}  // namespace

Result<Prediction> PredictLayer(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r) {
  Prediction pr;
  Add(&pr, RoutingStage(hw, p, c));
  Stage dispatch = DispatchStage(hw, p, c, r, true), combine = DispatchStage(hw, p, c, r, false);
  double comm = dispatch.time_s + combine.time_s;
  pr.bytes += dispatch.bytes + combine.bytes;
  Add(&pr, dispatch);
  Prediction experts;
  ExpertStages(hw, p, c, r, false, &experts);
  std::reverse(experts.stages.begin(), experts.stages.end());  // up, activation, down
  for (auto& s : experts.stages) Add(&pr, s);
  Add(&pr, combine);
  if (c.backward) {
    Case g = c;
    g.dtype = g.combine_dtype = "bf16";  // gradients travel in bf16
    Stage cb = DispatchStage(hw, p, g, r, true), db = DispatchStage(hw, p, g, r, false);
    cb.name = "combine_bwd";
    db.name = "dispatch_bwd";
    comm += cb.time_s + db.time_s;
    pr.bytes += cb.bytes + db.bytes;
    Add(&pr, cb);
    ExpertStages(hw, p, c, r, true, &pr);
    Add(&pr, db);
    Stage rb = RoutingStage(hw, p, c);  // the router's data and weight gradients
    rb.name = "routing_bwd";
    rb.time_s *= 2, rb.flops *= 2, rb.bytes *= 2;
    Add(&pr, rb);
  }
  if (c.shared_mlp_dim > 0) {
    // The shared expert runs beside dispatch and combine on the SMs they leave.
    const int64_t free_sms = std::max<int64_t>(1, hw.sms - std::min<int64_t>(hw.sms - 1, c.sms > 0 ? c.sms : 24));
    const double t = static_cast<double>(c.tokens);
    const int passes = c.backward ? 3 : 1;
    Stage sh{"shared_expert"};
    sh.bound = "tensor";
    for (int i = 0; i < passes; ++i) {
      for (const Stage& s : {DenseStage(hw, p, t, 2 * c.shared_mlp_dim, c.hidden, c.dtype, free_sms, "up"),
                             DenseStage(hw, p, t, c.hidden, c.shared_mlp_dim, c.dtype, free_sms, "down")}) {
        sh.time_s += s.time_s;
        sh.flops += s.flops;
        sh.bytes += s.bytes;
      }
    }
    pr.flops += sh.flops;
    const double exposed = std::max(0.0, sh.time_s - comm);
    sh.bound = exposed > 0 ? "tensor" : "hidden behind dispatch/combine";
    pr.time_s += exposed;
    pr.stages.push_back(sh);
  }
  return pr;
}

std::string JsonString(const std::string& text) { return nlohmann::json(text).dump(); }

std::string PredictionJson(const Case& c, const Hardware& hw, const Prediction& pr) {
  nlohmann::ordered_json j;
  j["target"] = hw.name;
  j["kernel"] = c.kernel;
  j["library"] = c.library;
  j["model"] = kModelVersion;
  j["time_s"] = pr.time_s;
  j["bytes"] = pr.bytes;
  j["flops"] = pr.flops;
  j["bandwidth_gbs"] = pr.time_s > 0 ? pr.bytes / pr.time_s / 1e9 : 0.0;
  j["tflops"] = pr.time_s > 0 ? pr.flops / pr.time_s / 1e12 : 0.0;
  std::string dominant;
  double longest = -1;
  for (const Stage& s : pr.stages) {
    j["stages"].push_back({{"name", s.name}, {"time_s", s.time_s}, {"bytes", s.bytes}, {"flops", s.flops},
                           {"bound", s.bound}});
    if (s.time_s > longest) longest = s.time_s, dominant = s.name;
  }
  j["dominant_stage"] = dominant;
  return j.dump() + "\n";
}

}  // namespace moelog::engine::gpu
