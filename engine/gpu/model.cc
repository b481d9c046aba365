#include "engine/gpu/model.h"

#include <algorithm>
#include <cmath>

namespace moelog::engine::gpu {
namespace {

double DtypeBytes(const std::string& d) {
  if (d == "fp8") return 1;
  if (d == "fp4") return 0.5;
  if (d == "fp32") return 4;
  return 2;
}

bool IsNormalEp(const std::string& lib) {
  return lib != "nccl" && lib != "rccl" && lib != "allgather";
}

std::string Fabric(const Hardware& hw, const Case& c) { return c.interconnect.empty() ? hw.interconnect : c.interconnect; }

// Scale-out bytes/s per GPU at full efficiency on the case's fabric.
double NicRate(const Hardware& hw, const Params& p, const Case& c) {
  const std::string f = Fabric(hw, c);
  double m = 1.0;
  if (f == "roce") m = p[kFabricRoce];
  if (f == "efa") m = p[kFabricEfa];
  if (f == "pcie_rdma") m = p[kFabricPcie];
  if (f == "nvlink") return hw.scaleup_bw;
  return static_cast<double>(hw.nics_per_gpu) * hw.nic_bw * m;
}

// Whether each RDMA write costs host work: on EFA there is no GPU-initiated
// (IBGDA) path, so a host proxy thread posts every write the GPU queues, and
// EFA's SRD provider handles each message in host software (libfabric's
// prov/efa: segmentation, reordering, completions).
bool ProxyPath(const Hardware& hw, const Case& c) { return Fabric(hw, c) == "efa"; }

// Scale-up bytes/s out of one GPU when it sends to `peers` others.
double ScaleupRate(const Hardware& hw, int64_t peers) {
  if (hw.scaleup_peer_bw <= 0 || peers <= 0) return hw.scaleup_bw;
  return std::min(hw.scaleup_bw, hw.scaleup_peer_bw * static_cast<double>(peers));
}

int64_t CommSms(const Hardware& hw, const Case& c) {
  if (c.sms > 0) return std::min<int64_t>(c.sms, hw.sms);
  return c.library == "deepep_v2" ? hw.sms : std::min<int64_t>(24, hw.sms);
}

// Whether the library's normal kernels pair a sending and a receiving SM per
// channel (DeepEP V1's layout: num_channels = num_sms / 2, and the ports of it:
// UCCL-EP, MORI), so only half the SMs push tokens onto the links; Hybrid-EP
// and DeepEP V2 move data on every SM they take.
bool PairedChannels(const Case& c) {
  return c.library != "hybrid_ep" && c.library != "deepep_v2";
}

// Seconds the communication kernel's data-moving SMs need for `tokens` token
// copies of `msg` bytes each: per SM, a per-token cost and the bytes at one
// SM's copy rate.
double SmTime(const Hardware& hw, const Params& p, const Case& c, double tokens, double msg) {
  const double sms = static_cast<double>(CommSms(hw, c));
  const double movers = PairedChannels(c) ? std::max(1.0, std::floor(sms / 2)) : sms;
  return tokens * (p[kSmTokenS] + msg / p[kSmCopyBw]) / movers;
}

// The slowest of named times: the binding one names the stage's bound.
void Bind(Stage* s, std::initializer_list<std::pair<const char*, double>> terms) {
  double best = -1;
  for (const auto& [name, t] : terms)
    if (t > best) best = t, s->bound = name;
  s->time_s += best;
}

Stage NormalComm(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r, bool dispatch) {
  Stage s{dispatch ? "dispatch" : "combine"};
  const double msg = NormalTokenBytes(dispatch ? c.dtype : c.combine_dtype, c.hidden);
  const double g = static_cast<double>(c.gpus_per_node);
  s.time_s = hw.launch_latency_s + p[kNotifyS];
  if (c.nodes == 1) {
    s.bytes = r.distinct_ranks * msg;
    const double nvl = (r.distinct_ranks - r.self_hits) * msg;
    s.time_s += hw.scaleup_latency_s;
    Bind(&s, {{hw.scaleup_kind.c_str(), nvl / (ScaleupRate(hw, c.gpus_per_node - 1) * p[kEtaNvl])}, {"sm", SmTime(hw, p, c, r.distinct_ranks, msg)}});
    return s;
  }
  s.bytes = r.distinct_nodes * msg;
  const double rdma = (r.distinct_nodes - r.own_node_hits) * msg;
  const double fwd = r.distinct_ranks * msg * (g - 1) / g;
  const double eta_rdma = c.library == "deepep_2025_02" ? p[kEtaRdmaV1] : p[kEtaRdma];
  s.time_s += hw.scaleout_latency_s + hw.scaleup_latency_s;
  Bind(&s, {{"rdma", rdma / (NicRate(hw, p, c) * eta_rdma)},
            {hw.scaleup_kind.c_str(), fwd / (ScaleupRate(hw, c.gpus_per_node - 1) * p[kEtaFwd])},
            {"sm", SmTime(hw, p, c, (rdma + fwd) / msg, msg)}});
  return s;
}

Stage LowLatency(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r, bool dispatch) {
  Stage s{dispatch ? "dispatch_ll" : "combine_ll"};
  const double msg = LowLatencyTokenBytes(dispatch ? c.dtype : c.combine_dtype, c.hidden, dispatch);
  s.bytes = r.selections * msg;
  // DeepEP's first release sent every selection through the NIC, the own
  // node's too. (UCCL-EP calls its low-latency kernels "pure RDMA", but its
  // 2-node figures move more than one NIC's line rate: the own node's
  // selections take the scale-up link.)
  const bool pure_rdma = c.library == "deepep_2025_02";
  const double nvl_sel = pure_rdma ? 0 : r.same_node_selections;
  const double rdma = (r.selections - nvl_sel) * msg, nvl = nvl_sel * msg;
  s.time_s = hw.launch_latency_s + p[kLlFixedS] + p[kLlLogS] * std::log2(static_cast<double>(c.ep));
  s.time_s += rdma > 0 ? hw.scaleout_latency_s : hw.scaleup_latency_s;
  // One RDMA write per remote selection; on a proxy path each costs host work
  // per message, which pipelines with the wire, so the slower of the two binds.
  const double wire = rdma / (NicRate(hw, p, c) * p[kEtaLlRdma]);
  const double proxy = ProxyPath(hw, c) ? (r.selections - nvl_sel) * p[kProxyMsgS] : 0.0;
  Bind(&s, {{"rdma", wire}, {"proxy", proxy},
            {hw.scaleup_kind.c_str(), nvl / (ScaleupRate(hw, c.gpus_per_node - 1) * p[kEtaLlNvl])}});
  return s;
}

// NCCL all-to-all of `send` bytes per rank, 1/ep of it to each rank.
Stage AllToAll(const Hardware& hw, const Params& p, const Case& c, double send, const std::string& name) {
  Stage s{name};
  const double R = static_cast<double>(c.ep), G = static_cast<double>(c.gpus_per_node);
  s.bytes = send * (R - 1) / R;
  const double intra = send * (G - 1) / R, inter = send * (R - G) / R;
  s.time_s = hw.launch_latency_s + (inter > 0 ? hw.scaleout_latency_s : hw.scaleup_latency_s);
  Bind(&s, {{hw.scaleup_kind.c_str(), intra / (ScaleupRate(hw, c.gpus_per_node - 1) * p[kEtaNvl] * hw.scaleup_msg.At(send))},
            {"rdma", inter / (NicRate(hw, p, c) * p[kEtaRdma] * hw.scaleout_msg.At(send))}});
  return s;
}

// Ring all-gather (or reduce-scatter) of `per_rank` bytes from every rank.
Stage AllGather(const Hardware& hw, const Params& p, const Case& c, double per_rank, const std::string& name) {
  Stage s{name};
  const double R = static_cast<double>(c.ep), G = static_cast<double>(c.gpus_per_node);
  s.bytes = per_rank * (R - 1);
  const double su = ScaleupRate(hw, c.gpus_per_node - 1) * p[kEtaNvl] * hw.scaleup_msg.At(per_rank * R);
  const double so = G * NicRate(hw, p, c) * p[kEtaRdma] * hw.scaleout_msg.At(per_rank * R);
  s.time_s = hw.launch_latency_s + (R - 1) * (c.nodes > 1 ? hw.scaleout_latency_s : hw.scaleup_latency_s);
  Bind(&s, {{hw.scaleup_kind.c_str(), s.bytes / su}, {"rdma", c.nodes > 1 ? s.bytes / so : 0.0}});
  return s;
}

// Ring all-reduce of `size` bytes per rank (nccl-tests' busbw bytes).
Stage AllReduce(const Hardware& hw, const Params& p, const Case& c, double size) {
  Stage s{"allreduce"};
  const double R = static_cast<double>(c.ep), G = static_cast<double>(c.gpus_per_node);
  s.bytes = size * 2 * (R - 1) / R;
  const double su = ScaleupRate(hw, c.gpus_per_node - 1) * p[kEtaNvl] * hw.scaleup_msg.At(size);
  const double so = G * NicRate(hw, p, c) * p[kEtaRdma] * hw.scaleout_msg.At(size);
  s.time_s = hw.launch_latency_s + 2 * (R - 1) * (c.nodes > 1 ? hw.scaleout_latency_s : hw.scaleup_latency_s);
  Bind(&s, {{hw.scaleup_kind.c_str(), s.bytes / su}, {"rdma", c.nodes > 1 ? s.bytes / so : 0.0}});
  return s;
}

}  // namespace

double NormalTokenBytes(const std::string& dtype, int64_t hidden) {
  const double h = static_cast<double>(hidden);
  if (dtype == "fp8") return h * (1 + 4.0 / 128);  // DeepEP: bf16 bytes x (1 + 4/128) / 2
  if (dtype == "fp4") return h * (0.5 + 1.0 / 16);
  return h * DtypeBytes(dtype);
}

double LowLatencyTokenBytes(const std::string& dtype, int64_t hidden, bool dispatch) {
  const double h = static_cast<double>(hidden);
  if (dtype == "fp8") return h + h / 128 * 4 + (dispatch ? 16 : 0);  // DeepEP test_low_latency.py
  if (dtype == "fp4") return h / 2 + h / 16 + (dispatch ? 16 : 0);
  return h * DtypeBytes(dtype) + (dispatch ? 16 : 0);
}

// (GEMM, elementwise and MoE-layer stages: model_layer.cc.)
Stage GemmStage(const Hardware& hw, const Params& p, const std::vector<double>& rows, int64_t n, int64_t k,
                const std::string& dtype, int64_t sms, const std::string& name);
Stage StreamStage(const Hardware& hw, const Params& p, double bytes, const std::string& name);
Result<Prediction> PredictLayer(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r);

Stage DispatchStage(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r, bool dispatch) {
  if (c.library == "nccl" || c.library == "rccl") {
    const double msg = NormalTokenBytes(dispatch ? c.dtype : c.combine_dtype, c.hidden);
    return AllToAll(hw, p, c, r.selections * msg, dispatch ? "dispatch" : "combine");
  }
  if (c.library == "allgather") {
    const double msg = NormalTokenBytes(dispatch ? c.dtype : c.combine_dtype, c.hidden);
    return AllGather(hw, p, c, static_cast<double>(c.tokens) * msg, dispatch ? "dispatch" : "combine");
  }
  return NormalComm(hw, p, c, r, dispatch);
}

Status CheckCase(const Hardware& hw, const Case& c) {
  if (c.experts > kMaxExperts || c.topk > 4096 || c.ep > (int64_t{1} << 20) || c.hidden > (int64_t{1} << 24) ||
      c.mlp_dim > (int64_t{1} << 24) || c.groups > (int64_t{1} << 20) || c.sms < 0)
    return Status::InvalidArgument("--experts (at most 65536), --topk (4096), --ep, --hidden, --mlp-dim or --groups "
                                   "out of range, or --sms negative");
  for (const std::string& d : {c.dtype, c.combine_dtype})
    if (d != "fp8" && d != "bf16" && d != "fp32" && d != "fp4")
      return Status::InvalidArgument("dtype must be fp8, bf16, fp32 or fp4 (got '" + d + "')");
  if (hw.PeakFor(c.dtype) <= 0) return Status::NotSupported(hw.name + " has no " + c.dtype + " tensor rate");
  const bool gemm = c.kernel == "grouped_gemm" || c.kernel == "dense_gemm";
  if (gemm) {
    if (c.n <= 0 || c.k <= 0 || c.m_per_group <= 0 || (c.kernel == "grouped_gemm" && c.groups <= 0))
      return Status::InvalidArgument(c.kernel + " needs --groups (grouped), --m-per-group, --n and --k > 0");
    return Status::Ok();
  }
  if (c.tokens <= 0 || c.hidden <= 0 || c.topk <= 0 || c.experts <= 0)
    return Status::InvalidArgument("--tokens, --hidden, --topk and --experts must be > 0");
  if (c.nodes <= 0 || c.gpus_per_node <= 0 || c.ep != c.nodes * c.gpus_per_node)
    return Status::InvalidArgument("--ep must equal --nodes x --gpus-per-node");
  if (c.gpus_per_node > hw.scaleup_domain)
    return Status::NotSupported(hw.name + " has " + std::to_string(hw.scaleup_domain) + " GPUs per scale-up domain");
  if (c.experts % c.ep != 0 || c.topk > c.experts)
    return Status::InvalidArgument("--experts must be a multiple of --ep and at least --topk");
  if (Fabric(hw, c) == "xgmi" && c.nodes > 1) return Status::NotSupported("xGMI is no scale-out fabric");
  if (c.kernel == "alltoall" || c.kernel == "allreduce") return Status::Ok();
  if ((c.kernel == "ep_dispatch_ll" || c.kernel == "ep_combine_ll") && !IsNormalEp(c.library))
    return Status::NotSupported("low-latency kernels are EP libraries' (not " + c.library + ")");
  if (c.kernel == "moe_layer" && c.mlp_dim <= 0) return Status::InvalidArgument("--mlp-dim must be > 0");
  return Status::Ok();
}

Result<Prediction> Predict(const Hardware& hw, const Params& p, const Case& c, const RouteCounts& r) {
  static const char* kKernels[] = {"ep_dispatch",  "ep_combine", "ep_dispatch_ll", "ep_combine_ll", "grouped_gemm",
                                   "dense_gemm",   "moe_layer",  "alltoall",       "allreduce"};
  if (std::find(std::begin(kKernels), std::end(kKernels), c.kernel) == std::end(kKernels))
    return Status::NotSupported("kernel '" + c.kernel + "' is not modeled");
  if (Status st = CheckCase(hw, c); !st.ok()) return st;
  Prediction pr;
  const double elem = static_cast<double>(c.tokens) * static_cast<double>(c.hidden) * DtypeBytes(c.dtype);
  if (c.kernel == "moe_layer") return PredictLayer(hw, p, c, r);
  if (c.kernel == "ep_dispatch" || c.kernel == "ep_combine") {
    pr.stages.push_back(DispatchStage(hw, p, c, r, c.kernel == "ep_dispatch"));
  } else if (c.kernel == "ep_dispatch_ll" || c.kernel == "ep_combine_ll") {
    pr.stages.push_back(LowLatency(hw, p, c, r, c.kernel == "ep_dispatch_ll"));
  } else if (c.kernel == "alltoall") {
    pr.stages.push_back(AllToAll(hw, p, c, elem, "alltoall"));
  } else if (c.kernel == "allreduce") {
    pr.stages.push_back(AllReduce(hw, p, c, elem));
  } else {
    const int64_t g = c.kernel == "dense_gemm" ? 1 : c.groups;
    std::vector<double> rows(static_cast<size_t>(g), static_cast<double>(c.m_per_group));
    pr.stages.push_back(GemmStage(hw, p, rows, c.n, c.k, c.dtype, hw.sms, c.kernel));
  }
  pr.time_s = pr.stages[0].time_s;
  pr.bytes = pr.stages[0].bytes;
  pr.flops = pr.stages[0].flops;
  return pr;
}

}  // namespace moelog::engine::gpu
