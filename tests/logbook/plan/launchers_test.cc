#include "logbook/plan/launchers.h"

#include <gtest/gtest.h>

#include "logbook/file_util.h"

namespace moelog::logbook {
namespace {

// The compiled-in defaults are the shipped data file.
TEST(Launchers, DefaultsMatchDataFile) {
  auto text = ReadFile(std::string(MOELOG_TEST_DATA_DIR) + "/../data/launchers.json");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  auto table = ParseLauncherTable(*text);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  const LauncherTable& d = DefaultLauncherTable();
  ASSERT_EQ(d.launchers.size(), table->launchers.size());
  ASSERT_EQ(d.interpreters.size(), table->interpreters.size());
  EXPECT_TRUE(table->harnesses.empty());  // harnesses are data/adapters/
  EXPECT_EQ(d.harnesses.size(), BuiltinAdapters().size());
  EXPECT_FALSE(d.launchers.empty());
}

TEST(Launchers, MatchingIsPathComponentAligned) {
  const LauncherTable& d = DefaultLauncherTable();
  EXPECT_NE(d.FindHarness("lib/levanter/scripts/bench/bench_moe_hillclimb.py"), nullptr);
  EXPECT_NE(d.FindHarness("bench_moe_hillclimb.py"), nullptr);
  EXPECT_EQ(d.FindHarness("my_bench_moe_hillclimb.py"), nullptr);
  EXPECT_NE(d.FindLauncher("scripts/ray/dev_tpu.py"), nullptr);
  EXPECT_EQ(d.FindLauncher("dev_tpu.py"), nullptr);
  EXPECT_NE(d.FindInterpreter(".venv/bin/python"), nullptr);
  EXPECT_NE(d.FindInterpreter("uv"), nullptr);
  EXPECT_EQ(d.FindInterpreter("perl"), nullptr);
  const Adapter* p = d.FindHarness("lib/levanter/scripts/bench/bench_moe_mlp_profile.py");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->name, "mlp_profile");
  EXPECT_EQ(p->runs.size(), 3u);  // ref_dp, staged_dp, fused_ep
}

TEST(Launchers, SchemaErrorsNameTheKey) {
  auto bad = ParseLauncherTable(R"({"harnesses":[{"name":"x","script":3}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("harnesses[0].script"), std::string::npos);
  EXPECT_FALSE(ParseLauncherTable(R"({"harnesses":[{"name":"x","script":"a.py","action":"run"}]})").ok());
  EXPECT_FALSE(ParseLauncherTable("{not json").ok());
  EXPECT_FALSE(ParseLauncherTable("[]").ok());
}

TEST(Launchers, UserTableExtendsDefaults) {
  std::string path = ::testing::TempDir() + "/moelog_launchers.json";
  ASSERT_TRUE(AtomicWriteFile(path, R"({"harnesses":[{"name":"mine","script":"tools/my_bench.py","action":"bench"}],
    "launchers":[{"name":"slurm","script":"scripts/submit.py","run_subcommand":"run","value_options":["--partition"]}]})")
                  .ok());
  auto t = LoadLauncherTable(path);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_NE(t->FindHarness("tools/my_bench.py"), nullptr);
  EXPECT_TRUE(t->FindHarness("tools/my_bench.py")->native_flags);
  EXPECT_NE(t->FindHarness("bench_moe_hillclimb.py"), nullptr);  // defaults kept
  EXPECT_NE(t->FindLauncher("x/scripts/submit.py"), nullptr);
  EXPECT_FALSE(LoadLauncherTable("/no/such/file.json").ok());
}

}  // namespace
}  // namespace moelog::logbook
