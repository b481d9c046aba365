// Configuration pins (`<!-- moelog: key=value -->`): where they are read,
// what they change in an entry's runs, and their errors with FILE:LINE.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
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

const char kLogbook[] =
    "# Pins: Research Logbook\n"                                            // 1
    "\n"                                                                    // 2
    "## Scope\n"                                                            // 3
    "- Goal: pins.\n"                                                       // 4
    "<!-- moelog: capacity_factor=0 -->\n"                                  // 5 logbook pin
    "\n"                                                                    // 6
    "## Stop Criteria\n"                                                    // 7
    "- Swept. <!-- moelog: sweep topk in {2,8} -->\n"                       // 8 a predicate
    "<!-- moelog: not a pin -->\n"                                          // 9 in Stop Criteria: not read
    "\n"                                                                    // 10
    "## Experiment Log\n"                                                   // 11
    "### 2026-03-01 10:00 - PIN-001 EP before compact dispatch\n"          // 12
    "<!-- moelog: ep_dispatch=dense_masked -->\n"                           // 13 entry pin
    "- Command: `for pm in none ep; do python bench_moe_hillclimb.py --tokens 4096 --hidden 512 --mlp-dim 256 "
    "--experts 16 --topk 2 --parallel-mode $pm; done`\n"                    // 14
    "```markdown\n"                                                         // 15
    "<!-- moelog: ep_dispatch=compact -->\n"                                // 16 in code: not read
    "```\n"                                                                 // 17
    "- Result: pending.\n"                                                  // 18
    "\n"                                                                    // 19
    "### 2026-03-01 11:00 - PIN-002 compact\n"                              // 20
    "- Command: `python bench_moe_hillclimb.py --tokens 4096 --hidden 512 --mlp-dim 256 --experts 16 --topk 2 "
    "--parallel-mode ep`\n"                                                 // 21
    "- Result: pending.\n";                                                 // 22

TEST(Pins, ReadWhereTheyAreAndNowhereElse) {
  const Logbook lb = ParseLogbook(kLogbook, "p.md");
  ASSERT_EQ(lb.pins.size(), 1u);
  EXPECT_EQ(lb.pins[0].key, "capacity_factor");
  EXPECT_EQ(lb.pins[0].line, 5);
  ASSERT_EQ(lb.entries.size(), 2u);
  ASSERT_EQ(lb.entries[0].pins.size(), 1u);
  EXPECT_EQ(lb.entries[0].pins[0].key, "ep_dispatch");
  EXPECT_EQ(lb.entries[0].pins[0].value, "dense_masked");
  EXPECT_EQ(lb.entries[0].pins[0].line, 13);
  EXPECT_TRUE(lb.entries[1].pins.empty());
  EXPECT_TRUE(lb.pin_errors.empty());
  auto args = PinnedBenchArgs(lb, lb.entries[0]);
  ASSERT_TRUE(args.ok()) << args.status().ToString();
  EXPECT_EQ(*args, (std::vector<std::string>{"--capacity-factor", "0", "--ep-dispatch", "dense_masked"}));
  EXPECT_EQ(PinsNote(lb, lb.entries[0]), "capacity_factor=0, ep_dispatch=dense_masked");
}

TEST(Pins, UnknownKeysBadValuesAndMalformedLinesNameTheirLine) {
  auto first_error = [](const std::string& pin_line) {
    std::string text = kLogbook;
    text.replace(text.find("<!-- moelog: ep_dispatch=dense_masked -->"),
                 std::string("<!-- moelog: ep_dispatch=dense_masked -->").size(), pin_line);
    const Logbook lb = ParseLogbook(text, "p.md");
    auto args = PinnedBenchArgs(lb, lb.entries[0]);
    return args.ok() ? std::string() : args.status().message();
  };
  EXPECT_NE(first_error("<!-- moelog: colour=red -->").find("p.md:13: pin 'colour=red': unknown key 'colour'"),
            std::string::npos)
      << first_error("<!-- moelog: colour=red -->");
  const std::string bad = first_error("<!-- moelog: ep_dispatch=sideways -->");
  EXPECT_EQ(bad.rfind("p.md:13: pin 'ep_dispatch=sideways': ", 0), 0u) << bad;
  EXPECT_NE(bad.find("sideways"), std::string::npos) << bad;
  EXPECT_EQ(first_error("<!-- moelog: dense_masked -->").rfind("p.md:13: expected key=value", 0), 0u)
      << first_error("<!-- moelog: dense_masked -->");
  EXPECT_NE(first_error("<!-- moelog: target=cpu -->").find("moelog's command line"), std::string::npos);
}

class PinsSession : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("moelog_pins_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// The pinned entry's runs (both modes) take the pinned dispatch; the other
// entry's keep compact. The region says the pin applied; a bad pin fails the
// update with its FILE:LINE and leaves the entry's region alone.
TEST_F(PinsSession, PinnedEntriesRunThePinAndSayIt) {
  const std::string p = (dir_ / "p.md").string();
  std::ofstream(p) << kLogbook;
  SessionOptions o;
  o.db = (dir_ / "runs.db").string();
  std::ostringstream out, err;
  ASSERT_EQ(RunSession(p, DocumentKind::kLogbook, o, out, err).exit_code, 0) << err.str();
  auto store = RunStore::Open(o.db);
  ASSERT_TRUE(store.ok());
  RunQuery q;
  auto rows = (*store)->Query(q);
  ASSERT_TRUE(rows.ok());
  std::set<std::string> dense, compact;  // invocations (cache keys)
  for (const auto& r : *rows) {
    const std::string cfg = r.config_json;
    (cfg.find("\"ep_dispatch\":\"dense_masked\"") != std::string::npos ? dense : compact).insert(r.cache_key);
    EXPECT_NE(cfg.find("\"capacity_factor\":0"), std::string::npos) << cfg;
  }
  EXPECT_EQ(dense.size(), 2u);    // PIN-001: none and ep
  EXPECT_EQ(compact.size(), 1u);  // PIN-002
  const std::string text = moelog::testing::Slurp(p);
  EXPECT_NE(text.find("- Pinned by the logbook: capacity_factor=0, ep_dispatch=dense_masked."), std::string::npos);
  // Idempotent: the note holds no line numbers a region above would move.
  std::ostringstream out2, err2;
  EXPECT_FALSE(RunSession(p, DocumentKind::kLogbook, o, out2, err2).changed) << out2.str();

  std::string broken = kLogbook;
  broken.replace(broken.find("ep_dispatch=dense_masked"), std::string("ep_dispatch=dense_masked").size(),
                 "ep_dispatch=sideways");
  std::ofstream(p, std::ios::trunc) << broken;
  std::ostringstream out3, err3;
  EXPECT_NE(RunSession(p, DocumentKind::kLogbook, o, out3, err3).exit_code, 0);
  EXPECT_NE(err3.str().find(p + ":13: pin 'ep_dispatch=sideways'"), std::string::npos) << err3.str();
}

// The project's copy of the EP seed pins entries 13:40 and 13:44 to the
// dense masked dispatch they measured: their EP rows are modeled slower than
// none, as the logbook recorded; later EP entries stay compact.
TEST_F(PinsSession, EpSeedPinnedEntriesCompareLikeWithLike) {
  const std::string p = (dir_ / "ep.md").string();
  fs::copy_file(moelog::testing::SeedPath("moe_ep_benchmark_logbook.md"), p);
  const Logbook lb = *LoadLogbook(p);
  for (const char* id : {"MOE-EP-BENCHMARK-20260209-1340", "MOE-EP-BENCHMARK-20260209-1344"}) {
    const Entry* e = lb.FindEntry(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_EQ(PinsNote(lb, *e), "ep_dispatch=dense_masked") << id;
  }
  EXPECT_EQ(PinsNote(lb, *lb.FindEntry("MOE-EP-BENCHMARK-20260209-1422")), "");
  SessionOptions o;
  o.db = (dir_ / "runs.db").string();
  std::ostringstream out, err;
  ASSERT_EQ(RunSession(p, DocumentKind::kLogbook, o, out, err).exit_code, 0) << err.str();
  const auto runs = CountedRuns(*LoadLogbook(p), RunStore::Open(o.db)->get(), {"v5p"});
  moelog::testing::ExpectDenseMaskedEntriesSlowerThanNone(runs);
}

}  // namespace
}  // namespace moelog::logbook
