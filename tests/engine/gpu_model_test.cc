// The GPU model's stages: bytes as DeepEP counts them, per-node
// de-duplication, monotonicity in the physical figures, which link binds,
// what is unsupported.
#include <gtest/gtest.h>

#include "engine/gpu/model.h"
#include "engine/gpu/params.h"

namespace moelog::engine::gpu {
namespace {

Hardware Hw(const std::string& name) {
  auto hw = LoadHardware(std::string(MOELOG_TEST_DATA_DIR) + "/../data/hardware/" + name + ".json");
  EXPECT_TRUE(hw.ok()) << hw.status().message();
  return hw.ok() ? *hw : Hardware{};
}

Params P() {
  auto p = LoadParams(std::string(MOELOG_TEST_DATA_DIR) + "/../data/gpu_params.json");
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : Params::Priors();
}

Case Ep(const std::string& kernel, int64_t ep, int64_t tokens = 1024) {
  Case c;
  c.kernel = kernel;
  c.tokens = tokens;
  c.ep = ep;
  c.gpus_per_node = std::min<int64_t>(ep, 8);
  c.nodes = ep / c.gpus_per_node;
  return c;
}

Prediction Model(const Hardware& hw, const Case& c) {
  auto pr = Predict(hw, P(), c, CountRoutes(c));
  EXPECT_TRUE(pr.ok()) << pr.status().message();
  return pr.ok() ? *pr : Prediction{};
}

TEST(GpuModel, TokenBytesAsDeepEPCountsThem) {
  EXPECT_DOUBLE_EQ(NormalTokenBytes("fp8", 7168), 7168 * 2 * (1 + 4.0 / 128) / 2);  // test_intranode fp8_factor
  EXPECT_DOUBLE_EQ(NormalTokenBytes("bf16", 7168), 14336);
  EXPECT_DOUBLE_EQ(LowLatencyTokenBytes("fp8", 7168, true), 7408);  // hidden + hidden/128*4 + 16
  EXPECT_DOUBLE_EQ(LowLatencyTokenBytes("bf16", 7168, false), 14336);
}

TEST(GpuModel, RoutingCountsDeduplicatePerRankAndPerNode) {
  Case c = Ep("ep_dispatch", 32, 2048);
  const RouteCounts r = CountRoutes(c);
  EXPECT_DOUBLE_EQ(r.selections, 2048.0 * 8);
  EXPECT_LT(r.distinct_ranks, r.selections);
  EXPECT_LT(r.distinct_nodes, r.distinct_ranks);
  EXPECT_LE(r.distinct_nodes, 2048.0 * 4);  // DeepEP's test: top-min(nodes, 4) node groups
  c.topk_groups = 1;                         // every token to one node: one RDMA copy each
  EXPECT_DOUBLE_EQ(CountRoutes(c).distinct_nodes, 2048.0);
  EXPECT_TRUE(r.local_groups.empty());  // the experts' groups are a layer's, not a dispatch kernel's
  Case layer = Ep("moe_layer", 32, 2048);
  const RouteCounts rl = CountRoutes(layer);
  EXPECT_DOUBLE_EQ(rl.distinct_ranks, r.distinct_ranks);  // the same routing of the rank's tokens
  double rows = 0;
  for (double g : rl.local_groups) rows += g;
  EXPECT_EQ(rl.local_groups.size(), 8u);  // 256 experts over 32 ranks
  EXPECT_GE(rows, 2048.0 * 8 * 32 / 32);  // the most loaded rank gets at least the mean
}

TEST(GpuModel, IntranodeBytesAreReceivedTokensAndBindNvlink) {
  const Case c = Ep("ep_dispatch", 8, 4096);
  const RouteCounts r = CountRoutes(c);
  const Prediction pr = Model(Hw("h800"), c);
  EXPECT_DOUBLE_EQ(pr.bytes, r.distinct_ranks * NormalTokenBytes("fp8", 7168));
  EXPECT_EQ(pr.stages[0].bound, "nvlink");
  // H100's NVLink is 2.25x H800's: faster, but not more than the link ratio.
  const double h800 = pr.time_s, h100 = Model(Hw("h100"), c).time_s;
  EXPECT_LT(h100, h800);
  EXPECT_GT(h100, h800 / 2.25 * 0.99);
}

TEST(GpuModel, InternodeBindsNvlinkAtEp16AndRdmaAtEp64OnH800) {
  EXPECT_EQ(Model(Hw("h800"), Ep("ep_dispatch", 16, 4096)).stages[0].bound, "nvlink");  // DeepEP#285
  EXPECT_EQ(Model(Hw("h800"), Ep("ep_dispatch", 64, 4096)).stages[0].bound, "rdma");
  Case ib = Ep("ep_dispatch", 64, 4096), roce = ib;
  roce.interconnect = "roce";
  EXPECT_GT(Model(Hw("h800"), roce).time_s, Model(Hw("h800"), ib).time_s);
}

TEST(GpuModel, TimeGrowsWithTokensAndFewerSms) {
  const Hardware hw = Hw("b200");
  double last = 0;
  for (int64_t t : {256, 1024, 4096}) {
    const double now = Model(hw, Ep("ep_combine", 8, t)).time_s;
    EXPECT_GT(now, last);
    last = now;
  }
  Case few = Ep("ep_dispatch", 8, 4096), many = few;
  few.sms = 4, many.sms = 64;
  EXPECT_GT(Model(hw, few).time_s, Model(hw, many).time_s);
  EXPECT_EQ(Model(hw, few).stages[0].bound, "sm");
}

TEST(GpuModel, LowLatencyLeavesNvlinkAsEpGrows) {
  const Hardware hw = Hw("h800");
  const Prediction ep8 = Model(hw, Ep("ep_dispatch_ll", 8, 128)), ep16 = Model(hw, Ep("ep_dispatch_ll", 16, 128));
  EXPECT_EQ(ep8.stages[0].bound, "nvlink");
  EXPECT_EQ(ep16.stages[0].bound, "rdma");
  EXPECT_GT(ep16.time_s, ep8.time_s);
  EXPECT_DOUBLE_EQ(ep8.bytes, 128.0 * 8 * 7408);
  Case v1 = Ep("ep_dispatch_ll", 8, 128);
  v1.library = "deepep_2025_02";  // the first release sent everything through the NIC
  EXPECT_GT(Model(hw, v1).time_s, ep8.time_s);
}

TEST(GpuModel, GemmsCountFlopsAndBytesAndScaleWithSize) {
  const Hardware hw = Hw("h800");
  Case g;
  g.kernel = "grouped_gemm";
  g.groups = 4, g.m_per_group = 8192, g.n = 4096, g.k = 7168;
  const Prediction pr = Model(hw, g);
  EXPECT_DOUBLE_EQ(pr.flops, 2.0 * 4 * 8192 * 4096 * 7168);
  EXPECT_DOUBLE_EQ(pr.bytes, 4.0 * 8192 * 7168 + 4.0 * 4096 * 7168 + 4.0 * 8192 * 4096 * 2);  // DeepGEMM's count
  EXPECT_EQ(pr.stages[0].bound, "tensor");
  g.m_per_group = 64;
  EXPECT_EQ(Model(hw, g).stages[0].bound, "hbm");
  double last = 0;
  for (int64_t m : {64, 128, 1024, 4096}) {
    g.m_per_group = m;
    const double t = Model(hw, g).time_s;
    EXPECT_GE(t, last);
    last = t;
  }
  g.dtype = "bf16";
  g.m_per_group = 4096;
  EXPECT_GT(Model(hw, g).time_s, last);  // half the tensor rate
}

TEST(GpuModel, LayerHasEveryStageAndBackwardCostsMore) {
  Case c = Ep("moe_layer", 16, 4096);
  c.shared_mlp_dim = 2048;
  const Prediction fwd = Model(Hw("h100"), c);
  std::vector<std::string> names;
  for (const auto& s : fwd.stages) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"routing", "dispatch", "gemm_up", "activation", "gemm_down", "combine",
                                             "shared_expert"}));
  c.backward = true;
  const Prediction fb = Model(Hw("h100"), c);
  EXPECT_GT(fb.time_s, 2 * fwd.time_s);
  EXPECT_NEAR(fb.flops, 3 * fwd.flops, 1e-6 * fb.flops);
  c.backward = false;
  c.library = "allgather";  // the baseline moves every token to every rank
  EXPECT_GT(Model(Hw("h100"), c).time_s, fwd.time_s);
}

TEST(GpuModel, WhatIsNotModeledIsUnsupported) {
  Case c = Ep("ep_dispatch", 8);
  c.dtype = "fp4";
  auto pr = Predict(Hw("h100"), P(), c, CountRoutes(c));
  ASSERT_FALSE(pr.ok());
  EXPECT_EQ(pr.status().code(), Status::Code::kNotSupported);
  c.dtype = "fp8";
  c.gpus_per_node = 16, c.nodes = 1, c.ep = 16;
  EXPECT_EQ(Predict(Hw("h100"), P(), c, CountRoutes(c)).status().code(), Status::Code::kNotSupported);
  EXPECT_TRUE(Predict(Hw("gb200"), P(), c, CountRoutes(c)).ok());  // NVL72: 16 GPUs in one domain
  c.kernel = "ep_transpose";
  EXPECT_EQ(Predict(Hw("h100"), P(), c, CountRoutes(c)).status().code(), Status::Code::kNotSupported);
  Case bad = Ep("ep_dispatch", 16);
  bad.nodes = 3;
  EXPECT_EQ(Predict(Hw("h100"), P(), bad, CountRoutes(bad)).status().code(), Status::Code::kInvalidArgument);
}

TEST(GpuModel, DeepEpPairsItsSmsAndHybridEpMovesDataOnEvery) {
  // DeepEP's normal kernels pair a sending and a receiving SM per channel;
  // Hybrid-EP moves tokens on every SM it takes: at the same SM count (few
  // enough to bind), DeepEP's kernel takes about twice as long.
  const Hardware hw = Hw("b200");
  Case deepep = Ep("ep_dispatch", 8, 4096), hybrid = deepep;
  deepep.sms = hybrid.sms = 16;
  hybrid.library = "hybrid_ep";
  const Prediction d = Model(hw, deepep), h = Model(hw, hybrid);
  EXPECT_EQ(d.stages[0].bound, "sm");
  EXPECT_NEAR(d.time_s / h.time_s, 2.0, 0.2);
}

TEST(GpuModel, SmBoundKernelsPayPerTokenSoFp8MovesFewerBytesPerSecond) {
  // An SM-bound kernel spends a per-token cost beside the bytes: FP8 tokens
  // (half the bytes) take more than half the time, so their counted
  // bandwidth is lower than BF16's.
  const Hardware hw = Hw("b200");
  Case fp8 = Ep("ep_dispatch", 8, 4096), bf16 = fp8;
  fp8.sms = bf16.sms = 16;
  fp8.dtype = "fp8";
  bf16.dtype = "bf16";
  const Prediction a = Model(hw, fp8), b = Model(hw, bf16);
  ASSERT_EQ(a.stages[0].bound, "sm");
  EXPECT_LT(a.bytes / a.time_s, 0.9 * b.bytes / b.time_s);
}

TEST(GpuModel, UcclLowLatencyKeepsTheOwnNodesSelectionsOnTheScaleUpLink) {
  // Two nodes' low-latency dispatch cannot move more than one NIC's line
  // rate if every selection crossed the NIC; the own node's go over NVLink
  // (xGMI), unlike DeepEP's first release which sent everything by RDMA.
  const Hardware hw = Hw("mi300x");
  Case uccl = Ep("ep_dispatch_ll", 16, 128), v1 = uccl;
  uccl.library = "uccl_ep";
  v1.library = "deepep_2025_02";
  const Prediction u = Model(hw, uccl), all_rdma = Model(hw, v1);
  EXPECT_LT(u.time_s, 0.8 * all_rdma.time_s);
}

TEST(GpuModel, EfaLowLatencyPaysHostWorkPerMessage) {
  // On EFA every remote selection is one RDMA write a host proxy posts: with
  // 7 KB messages the per-message work binds, not the wire; the same case on
  // InfiniBand (GPU-initiated) is wire-bound and faster.
  const Hardware hw = Hw("b200");
  Case efa = Ep("ep_dispatch_ll", 32, 128), ib = efa;
  efa.library = ib.library = "uccl_ep";
  efa.interconnect = "efa";
  const RouteCounts r = CountRoutes(efa);
  const Prediction e = Model(hw, efa), i = Model(hw, ib);
  EXPECT_EQ(e.stages[0].bound, "proxy");
  EXPECT_EQ(i.stages[0].bound, "rdma");
  EXPECT_GE(e.time_s, (r.selections - r.same_node_selections) * P()[kProxyMsgS]);
  EXPECT_GT(e.time_s, 1.5 * i.time_s);
  EXPECT_DOUBLE_EQ(e.bytes, i.bytes);  // the bytes as the library counts them do not change
}

}  // namespace
}  // namespace moelog::engine::gpu
