// The update pipeline end to end on copies of the seed documents (target
// v5p: modeled, deterministic) and on broken documents.
#include "logbook/update/session.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/parse_recipe.h"
#include "logbook/doc/regions.h"
#include "logbook/store/run_store.h"
#include "logbook/update/counted_runs.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;
using moelog::testing::SeedPath;
using moelog::testing::Slurp;

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("moelog_session_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Put(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  SessionSummary Run(const std::string& path, SessionOptions o, DocumentKind k = DocumentKind::kLogbook) {
    o.db = (dir_ / "runs.db").string();
    out_.str("");
    err_.str("");
    return RunSession(path, k, o, out_, err_);
  }
  fs::path dir_;
  std::ostringstream out_, err_;
};

TEST_F(SessionTest, Int8SeedUpdatesOncePerRunnableEntryAndIsIdempotent) {
  const std::string seed = Slurp(SeedPath("moe_ep_int8_logbook.md"));
  const std::string p = Put("int8.md", seed);
  SessionOptions o;
  SessionSummary dry = Run(p, [] { SessionOptions d; d.dry_run = true; return d; }());
  EXPECT_EQ(dry.exit_code, 0);
  EXPECT_NE(out_.str().find("[cache miss] moelog bench --target v5p"), std::string::npos) << out_.str();
  EXPECT_EQ(Slurp(p), seed);  // dry run writes nothing

  SessionSummary s = Run(p, o);
  ASSERT_EQ(s.exit_code, 0) << err_.str();
  const std::string once = Slurp(p);
  const RegionScan scan = FindRegions(once, p);
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ(static_cast<int>(scan.regions.size()), s.runnable);
  EXPECT_EQ(s.invocations, s.executed);
  // One table row per planned invocation (each a single sweep point here).
  int rows = 0;
  for (const auto& r : scan.regions)
    for (const auto& l : moelog::testing::Lines(r.content))
      if (l.find("| ") != std::string::npos && l.find("---") == std::string::npos) ++rows;
  EXPECT_EQ(rows - static_cast<int>(scan.regions.size()), s.invocations);  // minus header rows
  // Outside regions, the file is the seed plus the inserted regions only.
  std::string stripped = once;
  for (auto it = scan.regions.rbegin(); it != scan.regions.rend(); ++it)
    stripped.erase(it->begin_offset, it->end_offset - it->begin_offset);
  EXPECT_EQ(stripped, seed);
  // The logbook still parses to the same entries.
  EXPECT_EQ(ParseLogbook(once, p).entries.size(), ParseLogbook(seed, p).entries.size());

  SessionSummary again = Run(p, o);
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(again.executed, 0);
  EXPECT_EQ(again.cache_hits, again.invocations);
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(Slurp(p), once);

  SessionOptions check;
  check.check = true;
  EXPECT_EQ(Run(p, check).exit_code, 0) << out_.str();
}

// A CRLF file stays CRLF and a lone-CR file stays lone-CR: the update is the
// LF update with the file's own line ends, and a second update is a no-op.
TEST_F(SessionTest, LineEndingsAreKept) {
  const std::string seed = Slurp(SeedPath("moe_ep_int8_logbook.md"));
  const std::string lf = Put("lf/int8.md", seed);
  ASSERT_EQ(Run(lf, {}).exit_code, 0) << err_.str();
  const std::string want = Slurp(lf);
  for (const LineEnding e : {LineEnding::kCrLf, LineEnding::kCr}) {
    // Each file in a folder of its own, under one name: the same chart links.
    const std::string p = Put(e == LineEnding::kCr ? "cr/int8.md" : "crlf/int8.md", FromLf(seed, e));
    ASSERT_EQ(DetectLineEnding(Slurp(p)), e);
    SessionSummary s = Run(p, {});
    ASSERT_EQ(s.exit_code, 0) << err_.str();
    EXPECT_GT(s.runnable, 0);  // a lone-CR file is read, not "0 of 0"
    const std::string once = Slurp(p);
    EXPECT_EQ(DetectLineEnding(once), e);
    EXPECT_EQ(ToLf(once, e), want);
    EXPECT_FALSE(Run(p, {}).changed);
    EXPECT_EQ(Slurp(p), once);
  }
}

// -j N runs plans concurrently (in-process model runs share this process):
// the document and the stored runs must be exactly those of a serial update.
TEST_F(SessionTest, ParallelJobsGiveTheSerialResult) {
  const std::string seed = Slurp(SeedPath("moe_ep_benchmark_logbook.md"));
  std::string docs[2];
  int rows[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const std::string p = Put("j" + std::to_string(k) + "/ep.md", seed);
    SessionOptions o;
    o.jobs = k == 0 ? 1 : 4;
    o.db = (dir_ / ("runs" + std::to_string(k) + ".db")).string();
    out_.str("");
    err_.str("");
    SessionSummary s = RunSession(p, DocumentKind::kLogbook, o, out_, err_);
    ASSERT_EQ(s.exit_code, 0) << err_.str();
    ASSERT_GT(s.executed, 10);
    docs[k] = Slurp(p);
    rows[k] = s.executed;
  }
  EXPECT_EQ(rows[0], rows[1]);
  EXPECT_EQ(docs[0], docs[1]);
}

// Two entries with the same command share its cached runs; both keep their
// table and chart, and a second update changes nothing.
TEST_F(SessionTest, EntriesSharingACommandAreBothComplete) {
  const std::string cmd =
      "- Command: `python bench_moe_hillclimb.py --tokens 1024 --hidden 512 --mlp-dim 256 --experts 16 --topk 2`\n"
      "- Result: pending\n\n";
  const std::string p = Put("twins.md", "# Twins: Research Logbook\n\n## Experiment ID Prefix\n- `TW`\n\n"
                                        "## Experiment Log\n### 2026-04-01 10:00 - first\n" + cmd +
                                        "### 2026-04-01 11:00 - second\n" + cmd);
  ASSERT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  const std::string once = Slurp(p);
  EXPECT_NE(once.find("figures/twins/TW-20260401-1000.svg"), std::string::npos) << once;
  EXPECT_NE(once.find("figures/twins/TW-20260401-1100.svg"), std::string::npos) << once;
  SessionSummary again = Run(p, {});
  EXPECT_EQ(again.executed, 0);
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(Slurp(p), once);
}

// Faults leave no lie behind: a chart cut short is stale for --check and
// redrawn by update; a store that cannot take the runs fails the update and
// the document gets no row it does not hold; a command edited into one that
// no longer plans loses its old table and fails the update.
TEST_F(SessionTest, FaultsAreFailuresNotSilentSuccess) {
  const std::string cmd =
      "- Command: `python bench_moe_hillclimb.py --tokens 1024 --hidden 512 --mlp-dim 256 --experts 16 --topk 2`\n"
      "- Result: pending\n\n";
  const std::string doc = "# F: Research Logbook\n\n## Experiment Log\n### 2026-04-01 10:00 - F-1 one\n" + cmd;
  const std::string p = Put("faults.md", doc);
  ASSERT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  const std::string once = Slurp(p);
  const std::string chart = (dir_ / "figures" / "faults" / "F-1.svg").string();
  const std::string svg = Slurp(chart);
  ASSERT_NE(svg.find("</svg>"), std::string::npos);
  Put("figures/faults/F-1.svg", svg.substr(0, svg.size() / 2));  // a full disk, a kill -9
  SessionOptions check;
  check.check = true;
  EXPECT_EQ(Run(p, check).exit_code, 1);
  EXPECT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  EXPECT_EQ(Slurp(chart), svg);  // redrawn whole
  EXPECT_EQ(Slurp(p), once);
  // A whole SVG that is not the one the region's stamp names (left by a kill
  // after new inputs were written, or replaced by hand): stale, redrawn.
  Put("figures/faults/F-1.svg", std::string(svg).replace(svg.find("<svg"), 4, "<svg data-old='1'"));
  EXPECT_EQ(Run(p, check).exit_code, 1);
  EXPECT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  EXPECT_EQ(Slurp(chart), svg);
  EXPECT_EQ(Slurp(p), once);
  EXPECT_EQ(Run(p, check).exit_code, 0);

  // A store that refuses the rows (its runs table lost columns; a fresh
  // folder, so nothing is cached): the update fails and writes no table.
  const std::string q = Put("broken/faults.md", doc);
  const std::string db = (dir_ / "broken" / ".moelog" / "runs.db").string();
  fs::create_directories(dir_ / "broken" / ".moelog");
  ASSERT_TRUE(RunStore::Open(db).ok());
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h,
                         "DROP TABLE runs; CREATE TABLE runs (id INTEGER PRIMARY KEY, run_id TEXT, cache_key TEXT, "
                         "config_json TEXT, command_rewritten TEXT, point_json TEXT, metrics_json TEXT)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(h);
  SessionOptions on_broken;
  on_broken.db = db;
  out_.str("");
  err_.str("");
  SessionSummary broken = RunSession(q, DocumentKind::kLogbook, on_broken, out_, err_);
  EXPECT_EQ(broken.exit_code, 1) << err_.str();
  EXPECT_NE(err_.str().find("runs.db"), std::string::npos) << err_.str();
  EXPECT_EQ(Slurp(q).find("moelog:begin"), std::string::npos) << Slurp(q);

  // The command edited into one that does not plan.
  std::string bad = once;
  bad.replace(bad.find("--topk 2`"), 9, "--topk 2 --topk-lst 3`");
  Put("faults.md", bad);
  // Reported and said in its region, not a failure (CI reads exit 0: nothing
  // failed); --check right after agrees the document shows the store.
  SessionSummary s = Run(p, {});
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_EQ(s.unplannable, 1);
  SessionOptions check_now;
  check_now.check = true;
  EXPECT_EQ(Run(p, check_now).exit_code, 0) << out_.str();
  const std::string now = Slurp(p);
  EXPECT_EQ(now.find("| random"), std::string::npos) << now;  // no stale table
  EXPECT_NE(now.find("not updated (command 1)"), std::string::npos) << now;
}

TEST_F(SessionTest, CheckFailsOnStaleMissingOrEditedRegions) {
  const std::string seed = Slurp(SeedPath("moe_ep_int8_logbook.md"));
  const std::string p = Put("int8.md", seed);
  SessionOptions check;
  check.check = true;
  EXPECT_EQ(Run(p, check).exit_code, 1);  // nothing stored, no regions
  EXPECT_EQ(Slurp(p), seed);
  EXPECT_FALSE(fs::exists(dir_ / "runs.db"));  // --check creates nothing
  ASSERT_EQ(Run(p, {}).exit_code, 0);
  const std::string good = Slurp(p);
  EXPECT_EQ(Run(p, check).exit_code, 0);
  // A hand edit inside a region.
  std::string edited = good;
  const size_t cell = edited.find("| none |");
  ASSERT_NE(cell, std::string::npos);
  edited.replace(cell, 8, "| NONE |");
  Put("int8.md", edited);
  EXPECT_EQ(Run(p, check).exit_code, 1);
  EXPECT_NE(out_.str().find("--- "), std::string::npos);  // a diff
  EXPECT_EQ(Run(p, {}).exit_code, 1);                     // kept, reported
  EXPECT_EQ(Slurp(p), edited);
  EXPECT_NE(err_.str().find("edited by hand"), std::string::npos);
  SessionOptions overwrite;
  overwrite.overwrite_edits = true;
  EXPECT_EQ(Run(p, overwrite).exit_code, 0);
  EXPECT_EQ(Slurp(p), good);
  EXPECT_NE(err_.str().find("replaced (--overwrite-edits)"), std::string::npos) << err_.str();
  // A removed region is missing again.
  const RegionScan scan = FindRegions(good, p);
  std::string removed = good;
  removed.erase(scan.regions[0].begin_offset, scan.regions[0].end_offset - scan.regions[0].begin_offset);
  Put("int8.md", removed);
  EXPECT_EQ(Run(p, check).exit_code, 1);
}

TEST_F(SessionTest, LoopsExpandToOneRowPerIteration) {
  const std::string text =
      "# L\n## Experiment Log\n### 2026-03-01 09:00 - X-1 loop\n- Command:\n"
      "  - `/bin/bash -lc 'for pm in none ep; do for tk in 2 4 8; do .venv/bin/python "
      "lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 2048 --hidden 256 --mlp-dim 128 --experts 8 "
      "--distribution random --backend gmm --impl fused_w13 --topk \"$tk\" --parallel-mode \"$pm\" --iters 1 --warmup 0; done; done'`\n- Result: pending\n";
  const std::string p = Put("l.md", text);
  SessionSummary s = Run(p, {});
  ASSERT_EQ(s.exit_code, 0) << err_.str();
  EXPECT_EQ(s.invocations, 6);
  const RegionScan scan = FindRegions(Slurp(p), p);
  ASSERT_EQ(scan.regions.size(), 1u);
  const auto all = moelog::testing::Lines(scan.regions[0].content);
  // A pending Result: the region opens by saying its figures are a
  // prediction; then header, delimiter, 6 rows, blank line, the chart link.
  ASSERT_GE(all.size(), 11u) << scan.regions[0].content;
  EXPECT_NE(all[0].find("Prediction, not run"), std::string::npos) << scan.regions[0].content;
  const std::vector<std::string> lines(all.begin() + 2, all.end());
  EXPECT_TRUE(lines[8].empty()) << scan.regions[0].content;
  EXPECT_NE(lines[0].find("parallel_mode | topk"), std::string::npos);
  EXPECT_NE(lines[2].find("| none | 2 |"), std::string::npos);
  EXPECT_NE(lines[7].find("| ep | 8 |"), std::string::npos);
}

// A loop's values reach the runs only through the flags they set: a sweep
// over a loop variable meets `sweep` and `pairs` criteria, and no loop
// variable appears as configuration.
TEST_F(SessionTest, LoopSweepsMeetSweepAndPairCriteria) {
  const std::string text =
      "# L\n## Stop Criteria\n- Swept `moelog: sweep topk in {2,8} accept modeled`\n"
      "- Paired `moelog: pairs topk=2 vs topk=8 accept modeled`\n\n## Experiment Log\n### 2026-03-01 09:00 - X-1 loop\n"
      "- Command: `for tk in 2 8; do python bench_moe_hillclimb.py --tokens 2048 --hidden 256 --mlp-dim 128 "
      "--experts 8 --distribution random --impl fused_w13 --topk \"$tk\"; done`\n- Result: pending\n";
  const std::string p = Put("loopcrit.md", text);
  ASSERT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  const std::string now = Slurp(p);
  EXPECT_NE(now.find("Stop criteria status: 2 met, 0 unmet"), std::string::npos) << now;
  EXPECT_EQ(now.find("loop."), std::string::npos) << now;
  EXPECT_EQ(now.find("tk"), now.find("tk in 2 8")) << now;
}

// The runs that count are what each entry's commands as written resolve to:
// an edited command's old runs stop counting, a cache hit counts for the
// entry that shows it, another logbook's entry with the same ID does not
// lend it runs, and a shared command is one repeat, not several.
TEST_F(SessionTest, RunsThatCountFollowTheCommandsAsWritten) {
  auto doc = [](const std::string& topk, const std::string& second) {
    return "# W\n\n## Stop Criteria\n- k2 `moelog: metric any tflops > 0 where topk=2 accept modeled`\n"
           "- repeated `moelog: repeats at least 2 accept modeled`\n\n## Experiment Log\n"
           "### 2026-03-01 09:00 - W-1 one\n- Command: `python bench_moe_hillclimb.py --tokens 1024 --hidden 256 "
           "--mlp-dim 128 --experts 8 --distribution random --impl fused_w13 --topk " + topk + "`\n- Result: pending\n" +
           second;
  };
  const std::string same_cmd =
      "\n### 2026-03-01 10:00 - W-2 again\n- Command: `python bench_moe_hillclimb.py --tokens 1024 --hidden 256 "
      "--mlp-dim 128 --experts 8 --distribution random --impl fused_w13 --topk 2`\n- Result: pending\n";
  const std::string p = Put("w.md", doc("2", same_cmd));
  ASSERT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  std::string now = Slurp(p);
  EXPECT_NE(now.find("**met**: k2"), std::string::npos) << now;
  // Two entries with one command share one stored run: not two repeats.
  EXPECT_NE(now.find("**unmet**: repeated"), std::string::npos) << now;
  // W-2's run was a cache hit; it counts for W-2 all the same.
  auto lb = ParseLogbook(now, p);
  std::string note;
  auto runs = LogbookRuns(lb, (dir_ / "runs.db").string(), false, &note);
  ASSERT_TRUE(runs.ok());
  std::set<std::string> entries;
  for (const auto& r : *runs) entries.insert(r.entry_id);
  EXPECT_EQ(entries, (std::set<std::string>{"W-1", "W-2"})) << note;
  // The command edited to topk 4 (and W-2 dropped): the topk=2 run no longer counts.
  Put("w.md", doc("4", ""));
  ASSERT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  now = Slurp(p);
  EXPECT_NE(now.find("**unmet**: k2"), std::string::npos) << now;
  // Another logbook in the folder with the same entry ID but another command
  // gets nothing from W-1's runs.
  const std::string q = Put("other.md", doc("8", ""));
  auto other = LogbookRuns(ParseLogbook(Slurp(q), q), (dir_ / "runs.db").string(), false, &note);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->empty()) << note;
}

// The status region counts what an entry's Result records beside the runs
// moelog stored for it: a figure the model does not reach meets a criterion
// that accepts recorded evidence (the default), and not one that accepts
// modeled runs only.
TEST_F(SessionTest, RecordedFiguresCountBesideTheEntrysRuns) {
  const std::string text =
      "# R\n\n## Stop Criteria\n- fast `moelog: metric any tflops >= 400 where topk=2`\n"
      "- fast by the model `moelog: metric any tflops >= 400 where topk=2 accept modeled`\n"
      "- fast as recorded `moelog: metric any tflops >= 400 where topk=2 accept recorded`\n\n## Experiment Log\n"
      "### 2026-03-01 09:00 - R-1 one\n- Command: `python bench_moe_hillclimb.py --tokens 2048 --hidden 256 "
      "--mlp-dim 128 --experts 8 --distribution random --impl fused_w13 --topk 2`\n- Result:\n"
      "  - `topk=2`: 500.0 TF/s\n";
  const std::string p = Put("rec.md", text);
  ASSERT_EQ(Run(p, {}).exit_code, 0) << err_.str();
  const std::string now = Slurp(p);
  // The entry ran (modeled), far below 400 TF/s: only its recorded figure meets.
  EXPECT_NE(now.find("Stop criteria status: 2 met, 1 unmet"), std::string::npos) << now;
  EXPECT_NE(now.find("**met**: fast \u2014"), std::string::npos) << now;
  EXPECT_NE(now.find("**unmet**: fast by the model"), std::string::npos) << now;
  EXPECT_NE(now.find("**met**: fast as recorded"), std::string::npos) << now;
  EXPECT_NE(now.find("R-1#1"), std::string::npos) << now;
}

// Two logbooks in one folder that share an entry ID: each gets its own chart
// file, and the second update warns, naming the first. A --rerun of a modeled
// config stores a new batch but gives no second sample (no "repeats").
TEST_F(SessionTest, SharedIdsKeepTheirOwnChartsAndRerunsOfTheModelAreNoRepeats) {
  const std::string body =
      "# S\n\n## Stop Criteria\n- reproducible `moelog: repeats at least 2`\n\n## Experiment Log\n"
      "### 2026-03-01 09:00 - S-1 sweep\n- Command: `python bench_moe_hillclimb.py --tokens 1024 --hidden 256 "
      "--mlp-dim 128 --experts 8 --distribution random --impl fused_w13 --topk-list 1,2,4`\n- Result: pending\n";
  const std::string a = Put("a.md", body), b = Put("b.md", body);
  ASSERT_EQ(Run(a, {}).exit_code, 0) << err_.str();
  ASSERT_EQ(Run(b, {}).exit_code, 0) << err_.str();
  EXPECT_NE(err_.str().find("b.md:7: warning: entry ID S-1 is also used by"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("a.md"), std::string::npos) << err_.str();
  EXPECT_NE(Slurp(a).find("](figures/a/S-1.svg)"), std::string::npos) << Slurp(a);
  EXPECT_NE(Slurp(b).find("](figures/b/S-1.svg)"), std::string::npos) << Slurp(b);
  EXPECT_TRUE(fs::exists(dir_ / "figures" / "a" / "S-1.svg"));
  EXPECT_TRUE(fs::exists(dir_ / "figures" / "b" / "S-1.svg"));
  SessionOptions rerun;
  rerun.rerun = true;
  ASSERT_EQ(Run(a, rerun).exit_code, 0) << err_.str();
  EXPECT_NE(Slurp(a).find("**unmet**: reproducible"), std::string::npos) << Slurp(a);
}

// A criterion edited into a bad predicate is an error of the update and of
// --check (FILE:LINE on stderr), never a silent success.
TEST_F(SessionTest, BadPredicateFailsUpdateAndCheck) {
  const std::string p = Put("bad.md",
                            "# B\n\n## Stop Criteria\n- big k `moelog: sweep topk in {2,8} where topk=>8`\n\n"
                            "## Experiment Log\n### 2026-03-01 09:00 - B-1 one\n- Command: `python bench_moe_hillclimb.py "
                            "--tokens 1024 --hidden 256 --mlp-dim 128 --experts 8 --topk 2`\n- Result: pending\n");
  EXPECT_EQ(Run(p, {}).exit_code, 1);
  EXPECT_NE(err_.str().find("bad.md:4:"), std::string::npos) << err_.str();
  SessionOptions check;
  check.check = true;
  EXPECT_EQ(Run(p, check).exit_code, 1);
}

TEST_F(SessionTest, RecipeRunsAndWritesRegionsAfterSteps) {
  const std::string seed = Slurp(SeedPath("agent_research_recipe.md"));
  const std::string p = Put("recipe.md", seed);
  SessionOptions o;
  o.write = false;
  o.print_tables = true;
  SessionSummary s = Run(p, o, DocumentKind::kRecipe);
  ASSERT_EQ(s.exit_code, 0) << err_.str();
  EXPECT_EQ(Slurp(p), seed);
  EXPECT_NE(out_.str().find("### RECIPE-STEP-4"), std::string::npos) << out_.str();
  o.write = true;
  s = Run(p, o, DocumentKind::kRecipe);
  ASSERT_EQ(s.exit_code, 0);
  const std::string written = Slurp(p);
  const RegionScan scan = FindRegions(written, p);
  ASSERT_EQ(static_cast<int>(scan.regions.size()), s.runnable);
  const Recipe before = ParseRecipe(seed, p);
  for (const auto& r : scan.regions) {
    const int n = std::stoi(r.id.substr(r.id.rfind('-') + 1));
    // Each region sits right after its step's fenced block (plus one blank line).
    EXPECT_EQ(r.begin_line, before.steps[n - 1].end_line + 2 + 0) << r.id;
    break;  // later regions shift by the earlier ones' length
  }
  EXPECT_EQ(ParseRecipe(written, p).steps.size(), before.steps.size());
}

TEST_F(SessionTest, NastyInputsGiveDiagnosticsAndLeaveTheFileAlone) {
  const std::string seed = Slurp(SeedPath("moe_ep_int8_logbook.md"));
  std::string junk;
  for (int i = 0; i < 3000; ++i) junk += static_cast<char>((i * 7919 + 13) % 256);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nested", "# T\n## Experiment Log\n<!-- moelog:begin id=A hash=0 -->\n<!-- moelog:begin id=B hash=0 -->\n"
                 "<!-- moelog:end -->\n"},
      {"unterminated_region", "# T\n<!-- moelog:begin id=A hash=0 -->\n| a |\n"},
      {"duplicate_region", "<!-- moelog:begin id=A hash=0 -->\n<!-- moelog:end -->\n"
                           "<!-- moelog:begin id=A hash=0 -->\n<!-- moelog:end -->\n"},
  };
  for (const auto& [name, text] : cases) {
    const std::string p = Put(name + ".md", text);
    SessionSummary s = Run(p, {});
    EXPECT_EQ(s.exit_code, 3) << name;
    EXPECT_EQ(Slurp(p), text) << name;
    EXPECT_NE(err_.str().find(p + ":"), std::string::npos) << name << ": " << err_.str();
  }
  // Truncated, binary, unterminated fence, duplicate IDs: diagnostics, no crash.
  const std::vector<std::pair<std::string, std::string>> soft = {
      {"truncated", seed.substr(0, seed.size() / 3)},
      {"junk", junk},
      {"fence", "# T\n## Experiment Log\n### 2026-01-01 10:00 - A-1 x\n```bash\nmoelog bench --tokens 8\n"},
      {"dup_ids", "# T\n## Experiment Log\n### 2026-01-01 10:00 - A-1 x\n- Command: N/A\n"
                  "### 2026-01-01 10:01 - A-1 y\n- Command: N/A\n"},
  };
  for (const auto& [name, text] : soft) {
    const std::string p = Put(name + ".md", text);
    SessionOptions check;
    check.check = true;
    SessionSummary s = Run(p, check);
    EXPECT_TRUE(s.exit_code == 0 || s.exit_code == 1) << name;
    EXPECT_EQ(Slurp(p), text) << name;
  }
  EXPECT_NE(err_.str().find("duplicate entry ID A-1"), std::string::npos) << err_.str();
}

TEST_F(SessionTest, BadOptionsAreUsageErrors) {
  const std::string p = Put("x.md", "# T\n");
  SessionOptions o;
  o.target = "tpu";
  EXPECT_EQ(Run(p, o).exit_code, 2);
  o = {};
  o.entries = {"NOPE-1"};
  EXPECT_EQ(Run(p, o).exit_code, 2);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// The EP seed: a later entry's table is calibrated by the earlier entries'
// recorded figures, with the model's figure beside it; --no-calibrate shows
// the model alone; the store keeps the model's figures either way; --entry
// gives the entry the same calibration (the other entries' figures count).
TEST_F(SessionTest, CalibrationComesFromEarlierEntriesAndLeavesTheStoreAlone) {
  const std::string p = Put("ep.md", Slurp(SeedPath("moe_ep_benchmark_logbook.md")));
  ASSERT_EQ(Run(p, SessionOptions{}).exit_code, 0) << err_.str();
  const std::string calibrated = Slurp(p);
  const size_t at = calibrated.find("id=MOE-EP-BENCHMARK-20260209-1456");
  ASSERT_NE(at, std::string::npos);
  const std::string region = calibrated.substr(at, calibrated.find("moelog:end", at) - at);
  // x0.985: the caption's factor says it; no column for a move under 2%.
  EXPECT_NE(region.find(", calibrated x0.985 ± 0.022 (22 figures)"), std::string::npos) << region;
  EXPECT_EQ(region.find("TF/s uncalibrated"), std::string::npos) << region;
  // x0.979 (2.1% off): the model's own figures beside the calibrated ones.
  const size_t at_remat = calibrated.find("id=MOE-EP-BENCHMARK-20260209-1451");
  ASSERT_NE(at_remat, std::string::npos);
  const std::string remat = calibrated.substr(at_remat, calibrated.find("moelog:end", at_remat) - at_remat);
  EXPECT_NE(remat.find("TF/s uncalibrated"), std::string::npos) << remat;
  EXPECT_NE(remat.find(", calibrated x0.979"), std::string::npos) << remat;
  // The first entry has nothing before it.
  const size_t first = calibrated.find("id=MOE-EP-BENCHMARK-20260209-1340");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(calibrated.substr(first, calibrated.find("moelog:end", first) - first).find("uncalibrated"),
            std::string::npos);
  auto store = RunStore::Open((dir_ / "runs.db").string());
  ASSERT_TRUE(store.ok());
  auto before = (*store)->ByEntry("MOE-EP-BENCHMARK-20260209-1456");
  ASSERT_TRUE(before.ok());

  // One entry alone: the same table.
  const std::string q = Put("ep2.md", Slurp(SeedPath("moe_ep_benchmark_logbook.md")));
  SessionOptions one;
  one.entries = {"MOE-EP-BENCHMARK-20260209-1456"};
  ASSERT_EQ(Run(q, one).exit_code, 0) << err_.str();
  const std::string alone = Slurp(q);
  const size_t at2 = alone.find("id=MOE-EP-BENCHMARK-20260209-1456");
  ASSERT_NE(at2, std::string::npos);
  const std::string region2 = alone.substr(at2, alone.find("moelog:end", at2) - at2);
  auto table = [](const std::string& r) { return r.substr(r.find('|'), r.find("![") - r.find('|')); };
  EXPECT_EQ(table(region2), table(region));

  SessionOptions off;
  off.calibrate = false;
  off.overwrite_edits = true;
  ASSERT_LE(Run(p, off).exit_code, 1) << err_.str();
  const std::string plain = Slurp(p);
  EXPECT_EQ(plain.find("uncalibrated"), std::string::npos);
  EXPECT_EQ(plain.find("calibrated on "), std::string::npos);
  auto after = (*store)->ByEntry("MOE-EP-BENCHMARK-20260209-1456");
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(before->size(), after->size());
  for (size_t i = 0; i < before->size(); ++i) EXPECT_EQ((*before)[i].metrics, (*after)[i].metrics);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// Lean regions: the updated EP seed stays at most 70,000 bytes (87,862 with
// captions of up to 1,100 characters in every region; 40,097 as written)
// and no line moelog writes into a region is longer than 300 characters;
// each region opens with one short caption (at most 200).
TEST_F(SessionTest, UpdatedEpSeedIsLeanAndItsRegionLinesAreShort) {
  const std::string p = Put("ep.md", Slurp(SeedPath("moe_ep_benchmark_logbook.md")));
  ASSERT_EQ(Run(p, SessionOptions{}).exit_code, 0) << err_.str();
  const std::string text = Slurp(p);
  EXPECT_LE(text.size(), 70000u) << "updated EP seed: " << text.size() << " bytes";
  bool inside = false, first = false;
  size_t regions = 0;
  for (size_t pos = 0, nl; (nl = text.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    const std::string line = text.substr(pos, nl - pos);
    if (line.find("<!-- moelog:begin") != std::string::npos) inside = first = true, ++regions;
    else if (line.find("<!-- moelog:end") != std::string::npos) inside = false;
    else if (inside && line.find('|') == std::string::npos && line.find("![") == std::string::npos) {
      EXPECT_LE(line.size(), 300u) << line;
      if (first && line.find_first_not_of(' ') != std::string::npos) {
        EXPECT_LE(line.size(), 202u) << "caption: " << line;
        first = false;
      }
    }
  }
  EXPECT_GE(regions, 20u);
}

}  // namespace
}  // namespace moelog::logbook
