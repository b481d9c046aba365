// GPU hardware files: the shipped ones load, TPU files stay TPU files, and a
// broken file is refused with a message naming the file and the key.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "engine/gpu/hardware.h"

namespace moelog::engine::gpu {
namespace {

std::string DataDir() { return std::string(MOELOG_TEST_DATA_DIR) + "/../data/hardware/"; }

std::string Write(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / ("moelog_gpuhw_" + std::to_string(::getpid()) + name);
  std::ofstream(p) << text;
  return p.string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(GpuHardware, ShippedFilesLoadWithTheirFigures) {
  for (const char* name : {"h800", "h100", "h200", "b200", "gb200", "mi300x"}) {
    auto hw = LoadHardware(DataDir() + name + ".json");
    ASSERT_TRUE(hw.ok()) << hw.status().message();
    EXPECT_EQ(hw->name, name);
    EXPECT_GT(hw->peak_fp8, hw->peak_bf16);
    EXPECT_GT(hw->scaleup_bw, hw->nic_bw);
    EXPECT_GT(hw->sms, 0);
  }
  EXPECT_EQ(LoadHardware(DataDir() + "gb200.json")->scaleup_domain, 72);
  EXPECT_DOUBLE_EQ(LoadHardware(DataDir() + "h800.json")->scaleup_bw, 2.0e11);  // 400 GB/s bidirectional
  EXPECT_DOUBLE_EQ(LoadHardware(DataDir() + "h100.json")->peak_fp4, 0.0);       // no FP4 on Hopper
}

TEST(GpuHardware, TpuFilesAreTpuClass) {
  for (const char* name : {"v5p", "v5e", "v6e"}) EXPECT_EQ(*HardwareClass(DataDir() + name + ".json"), "tpu");
  EXPECT_EQ(*HardwareClass(DataDir() + "h100.json"), "gpu");
  EXPECT_FALSE(LoadHardware(DataDir() + "v5p.json").ok());
}

TEST(GpuHardware, SchemaErrorsNameTheFileAndTheKey) {
  const nlohmann::json good = nlohmann::json::parse(ReadFile(DataDir() + "h100.json"));
  struct Case { std::function<void(nlohmann::json&)> edit; std::string expect; };
  const Case cases[] = {
      {[](nlohmann::json& j) { j["constants"].erase("sms"); }, "constant \"sms\" is missing"},
      {[](nlohmann::json& j) { j["constants"]["scaleup_bw"]["value"] = -1; },
       "constant \"scaleup_bw\" must be a finite number > 0"},
      {[](nlohmann::json& j) { j["constants"]["nic_bw"].erase("source"); }, "constant \"nic_bw\" has no \"source\""},
      {[](nlohmann::json& j) { j["constants"]["hbm_bw"] = 3.35e12; }, "constant \"hbm_bw\" must be {\"value\""},
      {[](nlohmann::json& j) { j["constants"]["sms"]["value"] = 13.5; }, "must be whole numbers"},
      {[](nlohmann::json& j) { j["class"] = "fpga"; }, "\"class\" must be"},
      {[](nlohmann::json& j) { j["vendor"] = "intel"; }, "\"vendor\" must be"},
      {[](nlohmann::json& j) { j.erase("efficiency_source"); }, "efficiency_source"},
      {[](nlohmann::json& j) { j["curves"]["scaleup_message_bytes"]["points"][2][0] = 1; }, "x must ascend"},
      {[](nlohmann::json& j) { j["curves"]["matmul_size_gflop"]["points"][0][1] = 1.5; }, "must be in (0, 1]"},
      {[](nlohmann::json& j) { j["curves"].erase("scaleout_message_bytes"); },
       "curve \"scaleout_message_bytes\" is missing"},
  };
  for (const Case& c : cases) {
    nlohmann::json j = good;
    c.edit(j);
    const std::string path = Write("bad.json", j.dump(2));
    auto cls = HardwareClass(path);
    auto hw = LoadHardware(path);
    const std::string msg = cls.ok() ? hw.status().message() : cls.status().message();
    EXPECT_FALSE(hw.ok()) << c.expect;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
    EXPECT_EQ(msg.rfind(path, 0), 0u) << msg;  // starts with the file's name
  }
  EXPECT_TRUE(LoadHardware(Write("good.json", good.dump(2))).ok());
  EXPECT_FALSE(LoadHardware(Write("notjson.json", "{ not json")).ok());
}

TEST(GpuHardware, CurvesInterpolateAndClamp) {
  Curve c{{{0, 0.1}, {10, 0.5}, {20, 1.0}}};
  EXPECT_DOUBLE_EQ(c.At(-5), 0.1);
  EXPECT_DOUBLE_EQ(c.At(5), 0.3);
  EXPECT_DOUBLE_EQ(c.At(15), 0.75);
  EXPECT_DOUBLE_EQ(c.At(99), 1.0);
}

}  // namespace
}  // namespace moelog::engine::gpu
