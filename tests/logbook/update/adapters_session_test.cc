// Harnesses moelog learns from adapter files alone, end to end: a harness
// configured only through the environment that compares two meshes in one
// invocation, and one with its own flag names; schema errors stop the
// session with exit 2 naming the file and key; harness revisions chosen by
// an entry's date.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "logbook/doc/parse_logbook.h"
#include "logbook/store/run_store.h"
#include "logbook/update/session.h"
#include "logbook/update/counted_runs.h"
#include "logbook/update/entry_plans.h"
#include "tests/logbook/seed_docs.h"
#include "tests/logbook/update/ep_seed_checks.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / "adapters";

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class AdaptersSession : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("moelog_adapters_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AdaptersSession, FixtureHarnessesUpdateEndToEnd) {
  const fs::path p = dir_ / "logbook.md";
  fs::copy_file(kFixtures / "logbook.md", p);
  SessionOptions o;
  o.db = (dir_ / "runs.db").string();
  o.adapters = (kFixtures / "adapters").string();
  std::ostringstream out, err;
  ASSERT_EQ(RunSession(p.string(), DocumentKind::kLogbook, o, out, err).exit_code, 0) << err.str() << out.str();
  const std::string text = Slurp(p);
  // Entry 1: one invocation, two meshes, both in the table.
  EXPECT_NE(text.find("data=4,expert=1"), std::string::npos) << text;
  EXPECT_NE(text.find("data=2,expert=2"), std::string::npos) << text;
  // Entry 2: the renamed flags' loop, one row per k.
  LauncherTable table = DefaultLauncherTable();
  ASSERT_TRUE(AddAdapters(o.adapters, &table).ok());
  const auto runs = CountedRuns(*LoadLogbook(p.string()), RunStore::Open(o.db)->get(), {"v5p"}, &table);
  std::set<std::string> meshes, ks;
  for (const auto& r : runs) {
    if (r.entry_id == "MESH-001") {
      meshes.insert(r.config.at("mesh"));
      EXPECT_EQ(r.config.at("tokens"), "16384");
      EXPECT_EQ(r.config.at("bench_pass"), "forward_backward");
    }
    if (r.entry_id == "MESH-002") {
      ks.insert(r.config.at("topk"));
      EXPECT_EQ(r.config.at("tokens"), "8192");
      EXPECT_EQ(r.config.at("backend"), "gmm");
      EXPECT_EQ(r.config.at("bench_pass"), "forward");
    }
  }
  EXPECT_EQ(meshes, (std::set<std::string>{"data=2,expert=2", "data=4,expert=1"}));
  // Entry 3: repeated labels (impl x top-k) and a computed token count.
  std::set<std::string> cells;
  for (const auto& r : runs)
    if (r.entry_id == "MESH-003") {
      cells.insert(r.config.at("impl") + "/" + r.config.at("topk"));
      EXPECT_EQ(r.config.at("tokens"), "8192");
    }
  EXPECT_EQ(cells, (std::set<std::string>{"baseline/2", "baseline/8", "fused_w13/2", "fused_w13/8"}));
  EXPECT_EQ(ks, (std::set<std::string>{"2", "8"}));
  // Without the adapters both entries are skipped, naming the script.
  SessionOptions bare = o;
  bare.adapters.clear();
  bare.check = true;
  const fs::path q = dir_ / "bare.md";
  fs::copy_file(kFixtures / "logbook.md", q);
  std::ostringstream o2, e2;
  RunSession(q.string(), DocumentKind::kLogbook, bare, o2, e2);
  EXPECT_NE((o2.str() + e2.str()).find("unknown script bench/compare_meshes.py"), std::string::npos)
      << o2.str() << e2.str();
}

TEST_F(AdaptersSession, SchemaErrorsExit2NamingFileAndKey) {
  const fs::path adapters = dir_ / "adapters";
  fs::create_directories(adapters);
  std::ofstream(adapters / "broken.json") << R"({"moelog_adapter":1,"name":"b","scripts":["b.py"],
    "flags":{"--batch":{"to":"--tokenz"}}})";
  const fs::path p = dir_ / "logbook.md";
  fs::copy_file(kFixtures / "logbook.md", p);
  const std::string before = Slurp(p);
  SessionOptions o;
  o.db = (dir_ / "runs.db").string();
  o.adapters = adapters.string();
  std::ostringstream out, err;
  EXPECT_EQ(RunSession(p.string(), DocumentKind::kLogbook, o, out, err).exit_code, 2);
  EXPECT_NE(err.str().find((adapters / "broken.json").string() + ": flags.--batch.to:"), std::string::npos)
      << err.str();
  EXPECT_EQ(Slurp(p), before);
  o.adapters = (dir_ / "no_such_folder").string();
  std::ostringstream o2, e2;
  EXPECT_EQ(RunSession(p.string(), DocumentKind::kLogbook, o, o2, e2).exit_code, 2);
}

// An entry's commit and a launcher's LIBTPU_INIT_ARGS are someone else's
// text: a run of 300,000 '=' after "commit" or of digits in the scoped VMEM
// flag is read without recursion (a regex matcher overflowed its stack on
// them), the commit as none, the flag as an invalid invocation.
TEST_F(AdaptersSession, LongRunsInEntryTextAreReadWithoutRecursion) {
  const fs::path p = dir_ / "long.md";
  const std::string digits(300000, '9');
  std::ofstream(p, std::ios::binary)
      << "# Log\n\n## Experiment Log\n\n### 2026-02-09 15:40 - Long runs\n- Config: commit " << std::string(300000, '=')
      << " and Commit: `abcdef1`\n- Command:\n  - `uv run scripts/ray/dev_tpu.py --config x.yaml --tpu-name t execute "
         "-e LIBTPU_INIT_ARGS=\"--xla_tpu_scoped_vmem_limit_kib="
      << digits
      << "\" -- uv run lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 4096 --hidden 256 --mlp-dim 256 "
         "--experts 8 --topk 2 --impl fused_w13 --distribution random`\n";
  const Logbook lb = *LoadLogbook(p.string());
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_EQ(ContextOf(lb.entries[0]).commit, "abcdef1");
  SessionOptions o;
  o.db = (dir_ / "runs.db").string();
  o.dry_run = true;
  std::ostringstream out, err;
  RunSession(p.string(), DocumentKind::kLogbook, o, out, err);
  // Refused by the planner's word limit (64 KiB) before the adapter's
  // pattern limit (1,024 characters) is reached; either is a bounded refusal.
  const std::string all = out.str() + err.str();
  EXPECT_TRUE(all.find("value longer than 1024 characters") != std::string::npos ||
              all.find("expands to more than 65536 characters") != std::string::npos)
      << out.str().substr(0, 2000) << err.str().substr(0, 2000);
}

// Without its pins, the EP seed's entries before the compact dispatch
// (13:40, 13:44) are modeled with the hillclimb adapter's dense-masked
// revision, chosen by their date (13:40 also names its commit), and the
// region says so; the compact entry 14:22 is today's harness.
TEST_F(AdaptersSession, RevisionByDateModelsTheProgramThatRan) {
  const fs::path p = dir_ / "ep.md";
  std::string text = Slurp(moelog::testing::SeedPath("moe_ep_benchmark_logbook.md"));
  text = std::regex_replace(text, std::regex("<!-- moelog: ep_dispatch=dense_masked -->\n"), "");
  std::ofstream(p, std::ios::binary) << text;
  const Logbook lb = *LoadLogbook(p.string());
  EXPECT_EQ(ContextOf(*lb.FindEntry("MOE-EP-BENCHMARK-20260209-1340")).commit, "5b6f53c5d");
  EXPECT_EQ(ContextOf(*lb.FindEntry("MOE-EP-BENCHMARK-20260209-1344")).when, "2026-02-09 13:44");
  SessionOptions o;
  o.db = (dir_ / "runs.db").string();
  o.entries = {"MOE-EP-BENCHMARK-20260209-1340", "MOE-EP-BENCHMARK-20260209-1344", "MOE-EP-BENCHMARK-20260209-1422"};
  std::ostringstream out, err;
  ASSERT_EQ(RunSession(p.string(), DocumentKind::kLogbook, o, out, err).exit_code, 0) << err.str();
  const auto runs = CountedRuns(*LoadLogbook(p.string()), RunStore::Open(o.db)->get(), {"v5p"});
  moelog::testing::ExpectDenseMaskedEntriesSlowerThanNone(runs);
  for (const char* k : {"2", "8"})  // today's harness, compact: faster than the same shape's dense EP
    EXPECT_GT(moelog::testing::EntryTflops(runs, "MOE-EP-BENCHMARK-20260209-1422", "ep", k),
              moelog::testing::EntryTflops(runs, "MOE-EP-BENCHMARK-20260209-1340", "ep", k));
  const std::string after = Slurp(p);
  size_t notes = 0;
  for (size_t at = after.find("- Harness revision: "); at != std::string::npos;
       at = after.find("- Harness revision: ", at + 1))
    ++notes;
  EXPECT_EQ(notes, 2u);
  EXPECT_NE(after.find("hillclimb: dense-masked EP dispatch"), std::string::npos);
}

}  // namespace
}  // namespace moelog::logbook
