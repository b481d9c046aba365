// `moelog update --target <GPU hardware file>`: a GPU logbook's DeepEP test
// commands planned through the GPU adapters, modeled, and written beside the
// figures their recorded output states. Golden: tests/golden/gpu_deepep
// (input.md updated with --target h100 must equal expected.md, which must
// update to itself). MOELOG_REGEN_GOLDEN=1 rewrites expected.md and fails.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/gpu/model.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/update/gpu_session.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;
using moelog::testing::Slurp;

void WriteFile(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary);
  out << s;
}

fs::path TempDir(const std::string& name) {
  const fs::path tmp = fs::temp_directory_path() / ("moelog_gpu_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  return tmp;
}

SessionSummary UpdateGpu(const fs::path& p, const std::string& target, std::string* out_text = nullptr) {
  SessionOptions o;
  o.target = target;
  o.write = true;
  std::ostringstream out, err;
  SessionSummary s = RunGpuSession(p.string(), o, out, err);
  if (out_text) *out_text = out.str() + err.str();
  return s;
}

TEST(GpuSession, TargetsNamingGpuHardwareFilesAreGpuTargets) {
  EXPECT_TRUE(IsGpuTarget("h100"));
  EXPECT_TRUE(IsGpuTarget("gb200"));
  EXPECT_FALSE(IsGpuTarget("v5p"));
  EXPECT_FALSE(IsGpuTarget("cpu"));
  EXPECT_FALSE(IsGpuTarget("no_such_machine"));
}

TEST(GpuSession, DeepEpCommandsPlanOnlyOnAGpuTarget) {
  const std::string cmd =
      "WORLD_SIZE=2 python tests/test_internode.py --num-processes 8 --num-tokens 4096 --num-topk 8";
  PlanOptions cpu;
  cpu.target = "v5p";
  const Plan no = PlanCommand(cmd, cpu);
  EXPECT_EQ(no.verdict, PlanVerdict::kNoAdapter) << no.Summary();
  EXPECT_NE(no.reason.find("GPU harness"), std::string::npos) << no.reason;
  PlanOptions gpu;
  gpu.target = "h100";
  gpu.gpu = true;
  const Plan yes = PlanCommand(cmd, gpu);
  ASSERT_EQ(yes.verdict, PlanVerdict::kRunnable) << yes.Summary();
  ASSERT_EQ(yes.invocations.size(), 3u);  // dispatch FP8, dispatch BF16, combine
  const std::vector<std::string>& a = yes.invocations[0].args;
  auto has = [&](const std::string& flag, const std::string& value) {
    for (size_t i = 0; i + 1 < a.size(); ++i)
      if (a[i] == flag && a[i + 1] == value) return true;
    return false;
  };
  EXPECT_TRUE(has("--target", "h100"));
  EXPECT_TRUE(has("--nodes", "2"));
  EXPECT_TRUE(has("--kernel", "ep_dispatch"));
  // A CPU harness is no GPU harness.
  const Plan hill = PlanCommand("python lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 1024", gpu);
  EXPECT_NE(hill.verdict, PlanVerdict::kRunnable) << hill.Summary();
}

TEST(GpuSession, UpdateWritesTheModelBesideTheRecordedFiguresGolden) {
  const fs::path dir = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / "gpu_deepep";
  const fs::path tmp = TempDir("golden");
  const fs::path p = tmp / "logbook.md";
  WriteFile(p, Slurp((dir / "input.md").string()));
  std::string said;
  const SessionSummary s = UpdateGpu(p, "h100", &said);
  ASSERT_EQ(s.exit_code, 0) << said;
  const std::string got = Slurp(p.string());
  const char* regen = std::getenv("MOELOG_REGEN_GOLDEN");
  if (regen != nullptr && std::string(regen) == "1") {
    WriteFile(dir / "expected.md", got);
    ADD_FAILURE() << "regenerated " << (dir / "expected.md") << "; review `git diff` and rerun without it";
    return;
  }
  const std::string expected = Slurp((dir / "expected.md").string());
  ASSERT_FALSE(expected.empty()) << "missing expected.md; run with MOELOG_REGEN_GOLDEN=1";
  EXPECT_EQ(got, expected);
  // The region names the hardware and the model version, and every recorded
  // figure found its row.
  EXPECT_NE(got.find("Modeled on `h100`"), std::string::npos);
  EXPECT_NE(got.find(engine::gpu::kModelVersion), std::string::npos);
  EXPECT_NE(got.find("41.9 GB/s"), std::string::npos);   // EPK-002 dispatch (FP8), RDMA
  EXPECT_NE(got.find("301.4 GB/s"), std::string::npos);  // EPK-001 dispatch (FP8), NVL
  EXPECT_NE(got.find("80.3 GB/s"), std::string::npos);   // EPK-003 combine
  // Each entry's chart draws the model's figures (a prediction, hatched) beside
  // the recorded ones, its subtitle naming the hardware file and model version.
  EXPECT_NE(got.find("![Prediction: bandwidth GB/s vs kernel](figures/logbook/EPK-001.svg)"), std::string::npos);
  const std::string svg = Slurp((tmp / "figures" / "logbook" / "EPK-001.svg").string());
  EXPECT_NE(svg.find("hardware file h100.json"), std::string::npos);
  EXPECT_NE(svg.find(engine::gpu::kModelVersion), std::string::npos);
  // A fixed point: updating again changes nothing.
  EXPECT_EQ(UpdateGpu(p, "h100").exit_code, 0);
  EXPECT_EQ(Slurp(p.string()), expected);
  fs::remove_all(tmp);
}

TEST(GpuSession, AnotherGpuGivesOtherFiguresAndCheckSeesTheDifference) {
  const fs::path dir = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / "gpu_deepep";
  const fs::path tmp = TempDir("b200");
  const fs::path p = tmp / "logbook.md";
  WriteFile(p, Slurp((dir / "expected.md").string()));
  SessionOptions o;
  o.target = "b200";
  o.check = true;
  std::ostringstream out, err;
  EXPECT_EQ(RunGpuSession(p.string(), o, out, err).exit_code, 1) << err.str();  // stale against b200
  EXPECT_EQ(Slurp(p.string()), Slurp((dir / "expected.md").string()));           // --check writes nothing
  EXPECT_EQ(UpdateGpu(p, "b200").exit_code, 0);
  EXPECT_NE(Slurp(p.string()).find("Modeled on `b200`"), std::string::npos);
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace moelog::logbook
