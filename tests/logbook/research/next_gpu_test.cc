// `moelog next` on a GPU target: the search over EP degree, nodes x GPUs,
// library, low-latency vs normal kernels, dtype and SMs, ranked by the GPU
// model's time.
#include <gtest/gtest.h>

#include <set>

#include "logbook/research/next_gpu.h"

namespace moelog::logbook {
namespace {

namespace gpu = engine::gpu;

TEST(GpuNext, SearchVariesEveryAxisAndRanksByModeledTime) {
  auto hw = gpu::LoadHardwareByName("h100");
  auto params = gpu::LoadParamsByName("");
  ASSERT_TRUE(hw.ok() && params.ok());
  gpu::Case anchor;
  anchor.kernel = "ep_dispatch";
  anchor.tokens = 128;
  anchor.ep = 16, anchor.nodes = 2, anchor.gpus_per_node = 8;
  int tried = 0;
  const auto ranked = SearchGpuConfigs(*hw, *params, anchor, DefaultGpuAxes(*hw, anchor), &tried);
  ASSERT_GT(ranked.size(), 20u);
  EXPECT_EQ(static_cast<int>(ranked.size()), tried);
  std::set<std::string> kernels, libraries, dtypes;
  std::set<int64_t> eps, splits;
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (i > 0) {
      EXPECT_LE(ranked[i - 1].time_s, ranked[i].time_s);
    }
    kernels.insert(ranked[i].c.kernel), libraries.insert(ranked[i].c.library), dtypes.insert(ranked[i].c.dtype);
    eps.insert(ranked[i].c.ep), splits.insert(ranked[i].c.gpus_per_node);
    EXPECT_EQ(ranked[i].c.ep, ranked[i].c.nodes * ranked[i].c.gpus_per_node);
  }
  EXPECT_EQ(kernels, (std::set<std::string>{"ep_dispatch", "ep_dispatch_ll"}));
  EXPECT_GE(libraries.size(), 3u);
  EXPECT_EQ(dtypes, (std::set<std::string>{"bf16", "fp8"}));
  EXPECT_GE(eps.size(), 4u);
  EXPECT_GE(splits.size(), 3u);
  // Each figure is the model's own for that configuration.
  const GpuCandidate& best = ranked.front();
  auto again = gpu::Predict(*hw, *params, best.c, gpu::CountRoutes(best.c));
  ASSERT_TRUE(again.ok());
  EXPECT_NEAR(again->time_s, best.time_s, 1e-12);
}

TEST(GpuNext, ALayerAnchorHasNoLowLatencyVariant) {
  auto hw = gpu::LoadHardwareByName("b200");
  auto params = gpu::LoadParamsByName("");
  ASSERT_TRUE(hw.ok() && params.ok());
  gpu::Case anchor;  // moe_layer, EP8 on one node
  for (const GpuCandidate& g : SearchGpuConfigs(*hw, *params, anchor, DefaultGpuAxes(*hw, anchor)))
    EXPECT_EQ(g.c.kernel, "moe_layer");
}

}  // namespace
}  // namespace moelog::logbook
