// `moelog model predict` end to end: the JSON the interface promises, the
// unsupported answer (exit 0), usage errors (exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "logbook/run/runner.h"

namespace moelog::logbook {
namespace {

ProcessResult Predict(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {MOELOG_BINARY, "model", "predict"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = RunProcess(argv, 60);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : ProcessResult{};
}

TEST(ModelPredictCli, JsonHasTimeBytesFlopsAndBoundStages) {
  auto r = Predict({"--target", "h100", "--json", "--kernel", "ep_dispatch", "--tokens", "4096", "--hidden", "7168",
                    "--experts", "256", "--topk", "8", "--ep", "16", "--nodes", "2", "--gpus-per-node", "8",
                    "--dtype", "fp8", "--combine-dtype", "bf16", "--library", "deepep", "--interconnect", "ib"});
  ASSERT_EQ(r.exit_status, 0) << r.stderr_text;
  auto j = nlohmann::json::parse(r.stdout_text);
  EXPECT_GT(j["time_s"].get<double>(), 0);
  EXPECT_GT(j["bytes"].get<double>(), 0);
  EXPECT_TRUE(j.contains("flops"));
  ASSERT_EQ(j["stages"].size(), 1u);
  EXPECT_EQ(j["stages"][0]["name"], "dispatch");
  EXPECT_FALSE(j["stages"][0]["bound"].get<std::string>().empty());
  auto layer = Predict({"--target", "b200", "--json", "--kernel", "moe_layer", "--tokens", "2048", "--hidden", "4096",
                        "--mlp-dim", "1536", "--experts", "64", "--topk", "6", "--ep", "8", "--dtype", "bfloat16"});
  ASSERT_EQ(layer.exit_status, 0) << layer.stderr_text;
  auto l = nlohmann::json::parse(layer.stdout_text);
  EXPECT_GT(l["flops"].get<double>(), 0);
  EXPECT_GE(l["stages"].size(), 6u);
  auto gemm = Predict({"--hardware", std::string(MOELOG_TEST_DATA_DIR) + "/../data/hardware/h800.json", "--json",
                       "--kernel", "grouped_gemm", "--groups", "4", "--m-per-group", "8192", "--n", "4096", "--k",
                       "7168", "--dtype", "fp8"});
  ASSERT_EQ(gemm.exit_status, 0) << gemm.stderr_text;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(gemm.stdout_text)["flops"].get<double>(), 2.0 * 4 * 8192 * 4096 * 7168);
}

TEST(ModelPredictCli, UnsupportedIsJsonWithExitZero) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--target", "h100", "--json", "--kernel", "ep_dispatch", "--dtype", "fp4"},
           {"--target", "h100", "--json", "--kernel", "ep_dispatch", "--ep", "16", "--nodes", "1",
            "--gpus-per-node", "16"},
           {"--target", "mi300x", "--json", "--kernel", "ep_dispatch", "--ep", "16", "--nodes", "2",
            "--interconnect", "xgmi"},
           {"--target", "v5p", "--json", "--kernel", "moe_layer"}}) {
    auto r = Predict(args);
    EXPECT_EQ(r.exit_status, 0) << r.stderr_text;
    auto j = nlohmann::json::parse(r.stdout_text);
    EXPECT_TRUE(j.contains("unsupported")) << r.stdout_text;
  }
}

TEST(ModelPredictCli, BadInputIsAUsageError) {
  EXPECT_EQ(Predict({"--target", "h100", "--kernel", "ep_dispatch", "--dtype", "int3"}).exit_status, 2);
  EXPECT_EQ(Predict({"--target", "no_such_gpu", "--kernel", "ep_dispatch"}).exit_status, 2);
  EXPECT_EQ(Predict({"--target", "h100", "--kernel", "ep_dispatch", "--ep", "16", "--nodes", "3"}).exit_status, 2);
  // Absurd sizes are refused before anything is routed, whatever else is unsupported.
  EXPECT_EQ(Predict({"--target", "h100", "--kernel", "moe_layer", "--dtype", "fp4", "--experts", "1000000000"}).exit_status,
            2);
  EXPECT_EQ(Predict({"--help"}).exit_status, 0);
}

}  // namespace
}  // namespace moelog::logbook
