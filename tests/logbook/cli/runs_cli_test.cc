// `moelog runs` end to end: the real binary against a store written here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/bench_config.h"
#include "logbook/store/row_signer.h"
#include "logbook/store/run_store.h"
#include "logbook/run/runner.h"

namespace moelog::logbook {
namespace {

std::string MakeStore() {
  auto dir = std::filesystem::temp_directory_path() / ("moelog_runs_cli_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string db = (dir / "runs.db").string();
  auto store = RunStore::Open(db);
  EXPECT_TRUE(store.ok());
  std::vector<RunRecord> rows;
  for (int64_t tk : {2, 8}) {
    for (const char* impl : {"fused_w13", "baseline"}) {
      RunRecord r;
      r.entry_id = tk == 2 ? "MOE-EP-001" : "MOE-EP-002";
      r.logbook_path = (dir / "log.md").string();
      engine::BenchConfig c;
      c.target = "v5p";
      c.topk = tk;
      r.config_json = engine::CanonicalConfigJson(c);
      r.target = "v5p";
      r.cache_key = CacheKey(c);
      r.point = {{"distribution", "random"}, {"topk", std::to_string(tk)}, {"impl", impl}, {"mode", "full"}};
      r.metrics = {{"time_s", 0.01 * static_cast<double>(tk)}, {"tflops", 10.0 * static_cast<double>(tk)},
                   {"tokens_per_s", 1000}};
      r.command_rewritten = "moelog bench --target v5p --topk " + std::to_string(tk) + " --impl " + impl;
      r.host = RowSigner::Default().host();  // made here: this user's rows
      rows.push_back(r);
    }
  }
  EXPECT_TRUE((*store)->Insert(&rows).ok());
  return db;
}

ProcessResult Runs(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {MOELOG_BINARY, "runs"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = RunProcess(argv, 30);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : ProcessResult{};
}

TEST(RunsCli, FormatsAndFilters) {
  std::string db = MakeStore();
  auto table = Runs({"--db", db});
  EXPECT_EQ(table.exit_status, 0) << table.stderr_text;
  EXPECT_NE(table.stdout_text.find("tflops"), std::string::npos);
  EXPECT_NE(table.stdout_text.find("MOE-EP-002"), std::string::npos);
  auto json = Runs({"--db", db, "--entry", "MOE-EP-002", "--where", "impl=baseline", "--format", "json"});
  ASSERT_EQ(json.exit_status, 0) << json.stderr_text;
  auto j = nlohmann::json::parse(json.stdout_text);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["point"]["impl"], "baseline");
  EXPECT_EQ(j[0]["config"]["target"], "v5p");
  auto csv = Runs({"--db", db, "--where", "tflops>20", "--format", "csv"});
  ASSERT_EQ(csv.exit_status, 0);
  EXPECT_EQ(std::count(csv.stdout_text.begin(), csv.stdout_text.end(), '\n'), 3);  // header + 2 rows
  EXPECT_EQ(Runs({"--db", db, "--format", "xml"}).exit_status, 2);
  EXPECT_EQ(Runs({"--db", db, "--where", "novalue"}).exit_status, 2);
  EXPECT_EQ(Runs({"--db", db + ".missing"}).exit_status, 1);
  EXPECT_FALSE(std::filesystem::exists(db + ".missing"));  // a query never creates a store
  EXPECT_EQ(Runs({"--help"}).exit_status, 0);
}

TEST(RunsCli, InjectionThroughWhereStaysData) {
  std::string db = MakeStore();
  for (const std::string& w : {std::string("impl=x' OR '1'='1"), std::string("impl=baseline'; DROP TABLE runs; --"),
                               std::string("entry_id=x\" OR 1=1 --")}) {
    auto r = Runs({"--db", db, "--where", w, "--format", "json"});
    ASSERT_EQ(r.exit_status, 0) << w << r.stderr_text;
    EXPECT_EQ(nlohmann::json::parse(r.stdout_text).size(), 0u) << w;
  }
  auto key = Runs({"--db", db, "--where", "impl') OR 1=1 --=x"});
  EXPECT_EQ(key.exit_status, 2);  // keys are names, not SQL
  auto all = Runs({"--db", db, "--format", "json"});
  EXPECT_EQ(nlohmann::json::parse(all.stdout_text).size(), 4u);  // the table survived
}

// --kind recorded: the figures a logbook records, read from it, filtered by
// the harness's own keys; no run store needed.
TEST(RunsCli, RecordedRunsOfAHarnessMoelogCannotRun) {
  const std::string log = std::string(MOELOG_TEST_DATA_DIR) + "/golden/recorded_gpu/input.md";
  auto all = Runs({"--kind", "recorded", "--logbook", log, "--format", "csv"});
  ASSERT_EQ(all.exit_status, 0) << all.stderr_text;
  EXPECT_EQ(std::count(all.stdout_text.begin(), all.stdout_text.end(), '\n'), 14);  // header + 13 figures
  auto ring = Runs({"--kind", "recorded", "--logbook", log, "--where", "implementations=ring", "--where",
                    "accelerator=B200x8", "--format", "json"});
  ASSERT_EQ(ring.exit_status, 0) << ring.stderr_text;
  auto j = nlohmann::json::parse(ring.stdout_text);
  ASSERT_EQ(j.size(), 4u);  // the three-point device sweep and the top-8 A/B's ring figure
  EXPECT_EQ(j[0]["kind"], "recorded");
  EXPECT_EQ(j[0]["config"]["harness"], "bench_ep_layer.py");
  EXPECT_EQ(j[0]["units"]["time_s"], "ms");
  EXPECT_GT(j[0]["line"].get<int>(), 0);
  EXPECT_EQ(Runs({"--kind", "recorded"}).exit_status, 2);  // needs --logbook
  EXPECT_EQ(Runs({"--kind", "recorded", "--logbook", log, "--where", "no_such_key=1"}).exit_status, 2);
}

}  // namespace
}  // namespace moelog::logbook
