// Expert/data parallelism on simulated devices: for every mode, comm path
// and dispatch, y and every gradient equal the single-device engine
// (--parallel-mode none) within the dtype tolerance, and the bytes the
// devices counted equal the analytic volumes of the plan.
#include <gtest/gtest.h>

#include "engine/bench.h"
#include "engine/cpu/moe_block.h"
#include "engine/parallel/mpi_comm.h"
#include "engine/parallel/parallel_runner.h"

namespace moelog::engine::parallel {
namespace {

struct Case {
  std::string mode, path, dispatch, mesh, impl, dtype, pass;
  int64_t devices = 4, shared = 0;
  double null_frac = 0.0;
};

std::string Name(const Case& c) {
  std::string s = c.mode + "_" + c.path + "_" + c.dispatch + "_" + c.impl + "_" + c.dtype + "_" + c.pass + "_d" +
                  std::to_string(c.devices) + "_s" + std::to_string(c.shared);
  if (!c.mesh.empty()) s += "_mesh" + c.mesh;
  if (c.null_frac > 0) s += "_null";
  for (char& ch : s)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

void PrintTo(const Case& c, std::ostream* os) { *os << Name(c); }

// Runs one case and checks it. Under MPI the numerics exist on rank 0 only.
void CheckCase(const Case& k) {
  std::vector<std::string> args = {"--tokens", "64", "--hidden", "32", "--mlp-dim", "48", "--experts", "8",
                                   "--topk", "2", "--iters", "1", "--warmup", "0", "--distribution", "runs",
                                   "--impl", k.impl, "--dtype", k.dtype, "--bench-pass", k.pass,
                                   "--parallel-mode", k.mode, "--ep-comm-path", k.path, "--ep-dispatch", k.dispatch,
                                   "--devices", std::to_string(k.devices), "--shared-expert-dim",
                                   std::to_string(k.shared), "--check-numerics", "--queue-mode", "full",
                                   "--null-route-frac", std::to_string(k.null_frac)};
  if (!k.mesh.empty()) args.insert(args.end(), {"--mesh", k.mesh});
  auto cfg = ParseBenchArgs(args);
  ASSERT_TRUE(cfg.ok()) << cfg.status().ToString();
  ASSERT_TRUE(cfg->Validate().ok()) << cfg->Validate().ToString();
  auto runs = ExpandRuns(*cfg);
  ASSERT_EQ(runs.size(), 1u);
  Logits lg = GenerateLogits("runs", cfg->tokens, cfg->experts, 0, cfg->run_alpha, cfg->run_noise_scale);
  Routing routing = RoutingForPoint(*cfg, lg, runs[0]);
  cpu::BlockData data = cpu::GenerateBlockData(cfg->tokens, cfg->hidden, cfg->mlp_dim, cfg->experts,
                                               cfg->shared_expert_dim, cpu::DTypeFromName(cfg->dtype), 0);
  auto r = RunParallel(*cfg, runs[0], routing, &data);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const bool root = !LaunchedByMpi() || MpiWorldRankFromEnv() == 0;
  if (LaunchedByMpi()) {
    EXPECT_EQ(r->extra.at("mpi_ranks"), r->devices);
  }
  ASSERT_EQ(r->numerics.empty(), !root);
  for (const NumericsCheck& n : r->numerics)
    EXPECT_TRUE(n.ok) << n.tensor << " max_rel_err " << n.max_rel_err << " > " << n.tolerance;
  const size_t expected_checks = k.pass == "forward" ? 1 : (k.shared > 0 ? 8 : 5);
  if (root) {
    EXPECT_EQ(r->numerics.size(), expected_checks);
  }
  EXPECT_EQ(r->extra.at("comm_counted_equals_analytic"), 1.0);
  MeshShape ms = MeshForConfig(*cfg);
  EXPECT_EQ(r->devices, ms.data * ms.expert);
  const bool no_comm = ms.expert == 1 && (k.pass == "forward" || ms.data == 1);
  if (no_comm) {
    EXPECT_EQ(r->comm.bytes_sent_per_device, 0);
  } else {
    EXPECT_GT(r->comm.bytes_sent_per_device, 0);
  }
  EXPECT_GT(r->time.mean_s, 0);
  EXPECT_GT(r->tflops, 0);
  EXPECT_NEAR(r->tflops_per_device * r->devices, r->tflops, 1e-12);
}

class ParallelRunnerTest : public ::testing::TestWithParam<Case> {};

TEST_P(ParallelRunnerTest, MatchesSingleDeviceAndCountsAnalyticBytes) {
  if (LaunchedByMpi()) GTEST_SKIP() << "simulated devices only";
  CheckCase(GetParam());
}

// The same checks with real ranks: `mpirun -np 4 moelog_tests
// --gtest_filter=ParallelMpi*` (tests/mpi.cmake).
TEST(ParallelMpiRunnerTest, EveryPathMatchesSingleDeviceUnderMpi) {
  if (!LaunchedByMpi()) GTEST_SKIP() << "not launched by mpirun";
  ASSERT_EQ(MpiWorldSizeFromEnv(), 4);
  for (std::string pass : {"forward", "forward_backward"}) {
    for (std::string path : {"compact_psum", "ring_ag_rs", "a2a"}) {
      SCOPED_TRACE(path + " " + pass);
      CheckCase({"ep", path, "compact", "", "fast", "float32", pass, 4, 16});
      CheckCase({"ep", path, "compact", "", "preweight", "bfloat16", pass, 4, 0, 0.25});
    }
    CheckCase({"ep", "compact_psum", "dense_masked", "", "baseline", "float32", pass, 4, 16});
    CheckCase({"dp", "compact_psum", "compact", "", "fast", "bfloat16", pass, 4, 16});
    CheckCase({"ep", "a2a", "compact", "data=2,expert=2", "fast", "float32", pass, 4, 16});
  }
}

std::vector<Case> Cases() {
  std::vector<Case> v;
  for (std::string pass : {"forward", "forward_backward"}) {
    for (std::string path : {"compact_psum", "ring_ag_rs", "a2a"}) {
      v.push_back({"ep", path, "compact", "", "fast", "float32", pass, 4, 16});
      v.push_back({"ep", path, "compact", "", "fused_w13_preweight", "bfloat16", pass, 2, 0, 0.25});
    }
    v.push_back({"ep", "compact_psum", "dense_masked", "", "baseline", "float32", pass, 4, 0});
    v.push_back({"ep", "ring_ag_rs", "dense_masked", "", "scatter", "bfloat16", pass, 2, 16});
    v.push_back({"dp", "compact_psum", "compact", "", "fast", "float32", pass, 4, 16});
    v.push_back({"dp", "compact_psum", "compact", "", "preweight", "bfloat16", pass, 2, 0});
    v.push_back({"ep", "compact_psum", "compact", "data=2,expert=2", "fast", "float32", pass, 4, 16});
    v.push_back({"ep", "a2a", "compact", "data=2,expert=2", "fast", "float32", pass, 4, 16});
    v.push_back({"dp", "ring_ag_rs", "compact", "data=2,expert=4", "baseline", "bfloat16", pass, 8, 0});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Modes, ParallelRunnerTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return Name(info.param); });

}  // namespace
}  // namespace moelog::engine::parallel
