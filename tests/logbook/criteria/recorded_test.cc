#include "logbook/criteria/recorded.h"

#include <gtest/gtest.h>

#include "tests/time_bound.h"

#include <string>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

Logbook Seed(const std::string& name) {
  auto lb = LoadLogbook(std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/" + name);
  EXPECT_TRUE(lb.ok());
  return lb.ok() ? *lb : Logbook{};
}

const Entry* ByLabel(const Logbook& lb, const std::string& needle) {
  for (const auto& e : lb.entries)
    if (e.heading.find(needle) != std::string::npos) return &e;
  return nullptr;
}

std::string Cfg(const StoredRun& r, const std::string& k) {
  auto it = r.config.find(k);
  return it == r.config.end() ? "<none>" : it->second;
}

TEST(Recorded, DumpForDebugging) {
  if (!std::getenv("MOELOG_DUMP_RECORDED")) GTEST_SKIP();
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  for (const auto& r : RecordedRuns(lb)) {
    std::string s = r.id + ":";
    for (const auto& [k, v] : r.config)
      if (k != "tokens" && k != "iters" && k != "warmup") s += " " + k + "=" + v;
    for (const auto& [k, v] : r.metrics) s += " | " + k + "=" + std::to_string(v);
    std::printf("%s\n", s.c_str());
  }
}

// MOELOG_DUMP_FILE=logbook.md: every entry's recorded figures and what is listed.
TEST(Recorded, DumpFileForDebugging) {
  const char* path = std::getenv("MOELOG_DUMP_FILE");
  if (!path) GTEST_SKIP();
  auto lb = LoadLogbook(path);
  ASSERT_TRUE(lb.ok());
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(*lb, &unread);
  for (size_t i = 0; i < figs.size(); ++i) {
    std::printf("== %s (%zu paragraphs, %zu notes, %zu tables)\n", lb->entries[i].id.c_str(),
                lb->entries[i].paragraphs.size(), lb->entries[i].notes.size(), lb->entries[i].tables.size());
    for (const auto& f : figs[i]) {
      std::string s = "  " + std::to_string(f.line) + ":";
      for (const auto& [k, v] : f.run.config) s += " " + k + "=" + v;
      for (const auto& [k, v] : f.run.metrics) s += " | " + k + "=" + std::to_string(v);
      std::printf("%s\n", s.c_str());
    }
    for (const auto& u : unread[i]) std::printf("  - %d: %s: %s\n", u.line, u.text.substr(0, 60).c_str(), u.why.c_str());
  }
}

TEST(Recorded, EpVsNonEpTableFromLoopVariables) {
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  const Entry* e = ByLabel(lb, "EP vs Non-EP");
  ASSERT_NE(e, nullptr);
  auto runs = RecordedRuns(*e);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(Cfg(runs[0], "parallel_mode"), "none");
  EXPECT_EQ(Cfg(runs[0], "topk"), "2");
  EXPECT_EQ(Cfg(runs[0], "experts"), "60");
  EXPECT_EQ(runs[0].metrics.at("tflops"), 192.868);
  EXPECT_EQ(runs[0].metrics.at("tokens_per_s"), 619304);
  EXPECT_EQ(Cfg(runs[3], "parallel_mode"), "ep");
  EXPECT_EQ(Cfg(runs[3], "topk"), "8");
  EXPECT_EQ(runs[3].source, "recorded");
  EXPECT_EQ(runs[3].entry_id, e->id);
}

TEST(Recorded, CategoryWordsAndDeltasInParentheses) {
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  const Entry* e = ByLabel(lb, "Remat Leverage Sweep");
  ASSERT_NE(e, nullptr);
  auto runs = RecordedRuns(*e);
  ASSERT_EQ(runs.size(), 6u);  // 3 remat modes x topk {2, 8}; the % deltas are not figures
  EXPECT_EQ(Cfg(runs[1], "remat_mode"), "expert_mlp");
  EXPECT_EQ(Cfg(runs[1], "topk"), "2");
  EXPECT_DOUBLE_EQ(runs[1].metrics.at("tflops"), 138.346);
  EXPECT_EQ(Cfg(runs[5], "remat_mode"), "combine");
  EXPECT_EQ(Cfg(runs[5], "topk"), "8");
}

TEST(Recorded, NestedParentsAndTokensPerSecond) {
  auto lb = Seed("moe_ep_benchmark_logbook.md");
  const Entry* e = ByLabel(lb, "Top-k Scaling Curve (Compact EP)");
  ASSERT_NE(e, nullptr);
  auto runs = RecordedRuns(*e);
  ASSERT_EQ(runs.size(), 10u);
  EXPECT_EQ(Cfg(runs[0], "shared_expert_dim"), "0");
  EXPECT_EQ(Cfg(runs[9], "shared_expert_dim"), "5632");
  EXPECT_EQ(Cfg(runs[9], "topk"), "8");
  EXPECT_DOUBLE_EQ(runs[0].metrics.at("tokens_per_s"), 1578564);
}

TEST(Recorded, Int8LogbookHasNoFigures) {
  // Its Result fields are prose or pending: no numbers become runs.
  EXPECT_TRUE(RecordedRuns(Seed("moe_ep_int8_logbook.md")).empty());
}


// A sign glued to a word ("1e+00", "EP+2", "topk+1", "k=2+8") once stopped the
// figure scan from stepping on: update looped forever. Each form must return,
// and none of them is a figure.
TEST(Recorded, SignGluedToAWordEndsTheScan) {
  for (const char* line : {"loss 1e+00 after warmup", "EP+2 chips idle", "topk+1 adds a slot", "k=2+8 mix",
                           "a+1+2+3+4+5", "+", "x+", "1e+00: 12.5 TF/s", "e+9e+9e+9"}) {
    const std::string doc = std::string(
                                "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n"
                                "- Command: `python bench_moe_hillclimb.py --topk 2`\n"
                                "- Result:\n  - ") +
                            line + "\n";
    Logbook lb = ParseLogbook(doc, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u) << line;
    auto figures = RecordedFigures(lb.entries[0]);
    for (const auto& f : figures)
      for (const auto& [m, v] : f.run.metrics) EXPECT_NE(v, 0.0) << line;
  }
}

TEST(Recorded, LongRunOfGluedSignsIsLinear) {
  std::string line;
  for (int i = 0; i < 200000; ++i) line += "e+1";
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n- Result:\n  - " + line + "\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  EXPECT_TRUE(RecordedFigures(lb.entries[0]).empty());
}

// Each figure keeps (a bounded cut of) the text it was read from: a long
// bullet or paragraph of many figures costs no copy of itself per figure
// (a 3 MB paragraph took 3 GB and 50 s when each of its 512 figures held it).
TEST(Recorded, FigureTextsOfALongTextAreBounded) {
  std::string bullet, para;
  for (int i = 0; i < 5000; ++i) {
    bullet += "arm" + std::to_string(i) + " measured " + std::to_string(10 + i % 97) + ".5 ms and ";
    para += "arm" + std::to_string(i) + " took " + std::to_string(10 + i % 97) + ".5 ms and ";
  }
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n"
                          "- Command: `python bench/wire.py --impl ring`\n- Result: " + bullet +
                          "done.\n\n### 2025-01-01 11:00 - B\n\n" + para + "done.\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  for (const Entry& e : lb.entries) {
    std::vector<UnreadFigures> unread;
    const auto figs = RecordedFigures(e, "t.md", &unread);
    EXPECT_GT(figs.size(), 100u) << e.id;
    size_t total = 0;
    for (const auto& f : figs) total += f.text.size();
    for (const auto& u : unread) total += u.text.size();
    EXPECT_LT(total, 4u << 20) << e.id << ": " << figs.size() << " figures";
  }
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

Logbook Fixture(const std::string& name) {
  auto lb = LoadLogbook(std::string(MOELOG_TEST_DATA_DIR) + "/golden/" + name + "/input.md");
  EXPECT_TRUE(lb.ok());
  return lb.ok() ? *lb : Logbook{};
}

// The GPU fixture: a harness moelog has no adapter for, its own flag names,
// comma lists, loops, Config lists, the accelerator, ms and M tok/s.
TEST(RecordedAnyHarness, GpuBenchFiguresGetTheirConfiguration) {
  Logbook lb = Fixture("recorded_gpu");
  ASSERT_EQ(lb.entries.size(), 6u);
  EXPECT_TRUE(RecordedRuns(lb.entries[0]).empty());  // the smoke entry states no figure
  auto ab = RecordedRuns(lb.entries[1]);
  ASSERT_EQ(ab.size(), 4u);
  EXPECT_EQ(Cfg(ab[1], "implementations"), "all_to_all");
  EXPECT_EQ(Cfg(ab[1], "pass_mode"), "forward");
  EXPECT_EQ(Cfg(ab[1], "accelerator"), "B200x4");
  EXPECT_EQ(Cfg(ab[1], "harness"), "bench_ep_layer.py");
  EXPECT_EQ(Cfg(ab[1], "num_devices"), "4");
  EXPECT_DOUBLE_EQ(ab[1].metrics.at("time_s"), 0.0387);
  EXPECT_DOUBLE_EQ(ab[1].metrics.at("tokens_per_s"), 850000);
  EXPECT_EQ(ab[1].units.at("time_s"), "ms");
  EXPECT_EQ(ab[1].source, "recorded");
  EXPECT_GT(ab[1].line, 0);
  auto sweep = RecordedRuns(lb.entries[2]);  // for nd in 2 4 8 ... --num-devices "$nd"
  ASSERT_EQ(sweep.size(), 3u);
  EXPECT_EQ(Cfg(sweep[2], "num_devices"), "8");
  EXPECT_EQ(Cfg(sweep[2], "accelerator"), "B200x8");
  auto deep = RecordedRuns(lb.entries[3]);  // derived figures are marked
  ASSERT_EQ(deep.size(), 2u);
  EXPECT_EQ(Cfg(deep[1], "implementations"), "deepep");
  EXPECT_TRUE(deep[1].derived.count("speedup"));
  EXPECT_TRUE(deep[1].derived.count("delta_pct"));
  EXPECT_DOUBLE_EQ(deep[1].metrics.at("delta_pct"), 7.8);
  EXPECT_FALSE(deep[1].derived.count("tokens_per_s"));
  auto bw = RecordedRuns(lb.entries[4]);  // GB/s, and an env assignment as a key
  ASSERT_EQ(bw.size(), 2u);
  EXPECT_DOUBLE_EQ(bw[0].metrics.at("gb_per_s"), 612.4);
  EXPECT_EQ(Cfg(bw[0], "cuda_device_max_connections"), "1");
  auto mfu = RecordedRuns(lb.entries[5]);
  ASSERT_EQ(mfu.size(), 2u);
  EXPECT_DOUBLE_EQ(mfu[1].metrics.at("mfu"), 41.0);
  EXPECT_EQ(Cfg(mfu[1], "accelerator"), "H100x16");
}

TEST(RecordedAnyHarness, TablesListsAndFiguresNothingTellsApart) {
  Logbook lb = Fixture("recorded_fp8");
  auto modes = RecordedRuns(lb.entries[0]);  // | mode | ms/step | speedup | relerr(dx) |
  ASSERT_EQ(modes.size(), 3u);
  EXPECT_EQ(Cfg(modes[1], "modes"), "fp8gemm");
  EXPECT_DOUBLE_EQ(modes[1].metrics.at("time_s"), 0.02035);
  EXPECT_DOUBLE_EQ(modes[1].metrics.at("speedup"), 1.184);
  EXPECT_EQ(Cfg(modes[1], "relerr(dx)"), "<none>");  // a column of another measure is no key
  auto lists = RecordedRuns(lb.entries[1]);  // "ring: bf16 `41.8 ms`, fp8wire `33.0 ms`"
  ASSERT_EQ(lists.size(), 4u);
  EXPECT_EQ(Cfg(lists[3], "impl"), "all_to_all");
  EXPECT_EQ(Cfg(lists[3], "modes"), "fp8wire");
  EXPECT_DOUBLE_EQ(lists[3].metrics.at("time_s"), 0.0399);
  std::vector<UnreadFigures> unread;
  auto twice = RecordedFigures(lb.entries[3], lb.file, &unread);
  EXPECT_EQ(twice.size(), 2u);
  ASSERT_EQ(unread.size(), 1u);  // "both: `1.19 ms` and `1.21 ms`"
  EXPECT_NE(unread[0].text.find("both"), std::string::npos);
}

TEST(RecordedAnyHarness, HillclimbResultsAsWritten) {
  Logbook lb = Fixture("recorded_hillclimb");
  auto perkey = RecordedRuns(lb.entries[0]);  // E=32: topk2 201.7, topk4 262.3, topk8 318.9
  ASSERT_EQ(perkey.size(), 6u);
  EXPECT_EQ(Cfg(perkey[1], "experts"), "32");
  EXPECT_EQ(Cfg(perkey[1], "topk"), "4");
  EXPECT_DOUBLE_EQ(perkey[1].metrics.at("tflops"), 262.3);
  auto shapes = RecordedRuns(lb.entries[1]);  // shape-keyed table, tokens/s @0.1 and @0.9
  ASSERT_EQ(shapes.size(), 8u);
  EXPECT_EQ(Cfg(shapes[2], "mlp_dim"), "1408");
  EXPECT_EQ(Cfg(shapes[2], "topk"), "8");
  EXPECT_EQ(Cfg(shapes[2], "null_route_frac"), "0.1");
  EXPECT_DOUBLE_EQ(shapes[2].metrics.at("tokens_per_s"), 880410);
  auto named = RecordedRuns(lb.entries[2]);  // Non-EP result: / EP result (fused_w13):
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(Cfg(named[0], "parallel_mode"), "none");
  EXPECT_EQ(Cfg(named[1], "parallel_mode"), "ep");
  EXPECT_EQ(Cfg(named[1], "case"), "<none>");
  auto ms = RecordedRuns(lb.entries[3]);  // times in ms; the glued-sign aside gives nothing
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_DOUBLE_EQ(ms[1].metrics.at("time_s"), 0.0389);
}

TEST(RecordedAnyHarness, AcceleratorSpellings) {
  for (const auto& [text, want] : std::vector<std::pair<std::string, std::string>>{
           {"hardware: 4 B200 GPUs", "B200x4"}, {"8x H100, one node", "H100x8"}, {"B200 x8", "B200x8"}, {"(8xB200, 1 node)", "B200x8"},
           {"on a v5p-16 slice", "v5p-16"}, {"four replicas of four GB200 GPUs", "GB200x16"}, {"GB200 x4", "GB200x4"}, {"no accelerator here", "<none>"},
           // Counts written one before the other multiply: two nodes of eight.
           {"cross-node EP16 (2x 8xH100 over IB)", "H100x16"}, {"2 x 8x H100", "H100x16"}, {"4\xC3\x97 4\xC3\x97GB200", "GB200x16"},
           {"2x8xB200", "B200x16"}}) {
    const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n"
                            "- Command: `python scripts/x.py --n 1`\n- Config:\n  - " + text +
                            "\n- Result:\n  - `1.0 ms`\n";
    Logbook lb = ParseLogbook(doc, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u);
    auto runs = RecordedRuns(lb.entries[0]);
    ASSERT_EQ(runs.size(), 1u) << text;
    EXPECT_EQ(Cfg(runs[0], "accelerator"), want) << text;
  }
}

// A heading that names the accelerator and a Config that counts it name one
// machine: the count is kept.
TEST(RecordedAnyHarness, AHeadingsAcceleratorGivesWayToTheConfigsCount) {
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - Kernel A/B on B200\n"
                          "- Command: `python scripts/x.py --n 1`\n- Config:\n  - hardware: 4 B200 GPUs on one node\n"
                          "- Result:\n  - `1.0 ms`\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  auto runs = RecordedRuns(lb.entries[0]);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(Cfg(runs[0], "accelerator"), "B200x4");
}

// A script named test_* run with its own flags is the harness; one a test
// runner runs, or one in a tests folder, checks code and is none.
TEST(RecordedAnyHarness, TestScriptsAreHarnessesUnlessATestRunnerRunsThem) {
  for (const auto& [cmd, want] : std::vector<std::pair<std::string, std::string>>{
           {"python experiments/test_layer.py --tokens 4096 --intermediate 512", "test_layer.py"},
           {"pytest tests/test_layer.py --tokens 4096", "<none>"},
           {"uv run python -m pytest experiments/test_layer.py --tokens 4096", "<none>"},
           {"python tests/test_layer.py --tokens 4096", "<none>"}}) {
    const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n- Command: `" + cmd +
                            "`\n- Result:\n  - `1.0 ms`\n";
    Logbook lb = ParseLogbook(doc, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u);
    auto runs = RecordedRuns(lb.entries[0]);
    ASSERT_EQ(runs.size(), 1u) << cmd;
    EXPECT_EQ(Cfg(runs[0], "harness"), want) << cmd;
    if (want != "<none>") {
      EXPECT_EQ(Cfg(runs[0], "intermediate"), "512") << cmd;
    }
  }
}

// Goals and expectations are no runs: a table whose label column is "goal"
// or "expected", and the other arm of a conditional ("otherwise 30.1 ms").
TEST(RecordedAnyHarness, GoalTablesAndConditionalsAreNoRuns) {
  const std::string doc =
      "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n\n- Command: `python bench/w.py --mode fp8`\n\n"
      "If the change works we should see 18.8 ms; otherwise 30.1 ms.\n\n"
      "| goal | ms/step |\n|---|---|\n| fp8 target | 19.5 |\n| stretch | 16.5 |\n\n"
      "| expected | ms/step |\n|---|---|\n| fp8 | 17.5 |\n\n"
      "Measured: fp8 took 24.12 ms.\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  auto runs = RecordedRuns(lb);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_DOUBLE_EQ(runs[0].metrics.at("time_s"), 0.02412);
}

// A Result's figure that equals an earlier entry's and names that entry
// restates it; the same value without the name stays a run of its own.
TEST(RecordedAnyHarness, AFigureNamingTheEarlierEntryItEqualsRestatesIt) {
  auto runs_of_second = [](const std::string& result) {
    const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - PLN-001: base\n"
                            "- Command: `python bench/w.py --impl ring`\n- Result: bf16 31.42 ms\n\n"
                            "### 2025-01-01 11:00 - PLN-002: again\n- Command: `python bench/w.py --impl ring`\n"
                            "- Result: " + result + "\n";
    Logbook lb = ParseLogbook(doc, "t.md");
    EXPECT_EQ(lb.entries.size(), 2u);
    return LogbookFigures(lb, nullptr).back().size();
  };
  EXPECT_EQ(runs_of_second("bf16 31.42 ms (as in PLN-001); fp8 23.5 ms"), 1u);
  EXPECT_EQ(runs_of_second("bf16 31.42 ms; fp8 23.5 ms"), 2u);
  EXPECT_EQ(runs_of_second("bf16 31.42 ms (PLN-0011 rerun); fp8 23.5 ms"), 2u);
}

// A colon with blanks on both sides before a figure ("ring : 37.28 ms")
// ended the scan for a threshold word in an endless loop.
TEST(RecordedAnyHarness, ASpacedColonBeforeAFigureEnds) {
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n"
                          "- Command: `python bench/w.py --impl ring`\n- Result: ring : 37.28 ms; slower than EP16 :  41.5 ms\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const double start = test::ProcessCpuSeconds();  // CPU time: a loaded machine slows wall time
  RecordedFigures(lb.entries[0], "t.md", nullptr);
  EXPECT_LT((test::ProcessCpuSeconds() - start), test::TimeBound(3.0));
}

// The idioms fixture (tests/golden/recorded_idioms): one entry per form.
TEST(RecordedIdioms, JunkIsNeverAFigure) {
  Logbook lb = Fixture("recorded_idioms");
  const Entry* e = ByLabel(lb, "RID-002");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(RecordedRuns(*e).empty());  // test summary, exit code, fraction, count
}

TEST(RecordedIdioms, ColumnsArmsAndUnitsInCells) {
  Logbook lb = Fixture("recorded_idioms");
  auto arms = RecordedRuns(*ByLabel(lb, "RID-003"));
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_EQ(Cfg(arms[0], "wire_format"), "bf16");  // the row's arm, not the command's first value
  EXPECT_EQ(Cfg(arms[1], "wire_format"), "fp8");
  EXPECT_DOUBLE_EQ(arms[0].metrics.at("time_s"), 1.49);
  EXPECT_DOUBLE_EQ(arms[0].metrics.at("hidden_comm_time_s"), 0.288);
  auto cells = RecordedRuns(*ByLabel(lb, "RID-004"));
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(Cfg(cells[1], "ep"), "4");  // "EP4 two hosts" beside --ep 2
  EXPECT_DOUBLE_EQ(cells[1].metrics.at("fwd_time_s"), 0.00488);
  EXPECT_DOUBLE_EQ(cells[1].metrics.at("fwd_bwd_time_s"), 0.01091);
  auto scaled = RecordedRuns(*ByLabel(lb, "RID-005"));
  ASSERT_EQ(scaled.size(), 2u);
  EXPECT_EQ(Cfg(scaled[1], "ep"), "4");
  EXPECT_EQ(Cfg(scaled[1], "harness"), "probe.layer_step");
  EXPECT_DOUBLE_EQ(scaled[1].metrics.at("tokens_per_s"), 930000);
}

TEST(RecordedIdioms, StatisticsArrowsAndFlagsAsWritten) {
  Logbook lb = Fixture("recorded_idioms");
  auto stats = RecordedRuns(*ByLabel(lb, "RID-006"));
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_DOUBLE_EQ(stats[0].metrics.at("mfu_mean"), 18.42);
  EXPECT_DOUBLE_EQ(stats[0].metrics.at("mfu_p50"), 18.40);
  EXPECT_EQ(Cfg(stats[0], "routing"), "balanced");
  EXPECT_EQ(Cfg(stats[0], "routing_pack_strategy"), "<none>");
  EXPECT_EQ(Cfg(stats[1], "variant"), "baseline");
  EXPECT_DOUBLE_EQ(stats[1].metrics.at("time_s"), 0.0615);  // the unit after the arrow
  auto nested = RecordedRuns(*ByLabel(lb, "RID-007"));
  ASSERT_EQ(nested.size(), 8u);
  EXPECT_EQ(Cfg(nested[7], "distribution"), "runs");
  EXPECT_EQ(Cfg(nested[7], "ep"), "2");
  EXPECT_EQ(Cfg(nested[7], "variant"), "new");
  EXPECT_EQ(Cfg(nested[7], "ep_list"), "<none>");
}

TEST(RecordedIdioms, ResultLinesAndSubHeadings) {
  Logbook lb = Fixture("recorded_idioms");
  auto line = RecordedRuns(*ByLabel(lb, "RID-008"));
  ASSERT_EQ(line.size(), 1u);
  EXPECT_DOUBLE_EQ(line[0].metrics.at("tflops"), 61.3);
  EXPECT_DOUBLE_EQ(line[0].metrics.at("time_s"), 0.00984);
  EXPECT_EQ(Cfg(line[0], "impl"), "fused_w13");
  auto sub = RecordedRuns(*ByLabel(lb, "RID-009"));
  ASSERT_EQ(sub.size(), 2u);
  EXPECT_EQ(Cfg(sub[0], "topk"), "4");
  EXPECT_EQ(Cfg(sub[0], "null_route_frac"), "0.0");
  EXPECT_EQ(Cfg(sub[1], "null_route_frac"), "0.2");
}

// A percentage is MFU only when MFU qualifies it; goals, thresholds and
// other shares are no figures, and a verb is no key.
TEST(RecordedIdioms, OnlyQualifiedPercentagesAreMfu) {
  Logbook lb = Fixture("recorded_idioms");
  auto runs = RecordedRuns(*ByLabel(lb, "RID-012"));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_DOUBLE_EQ(runs[0].metrics.at("mfu"), 27.35);
  EXPECT_EQ(Cfg(runs[0], "variant"), "<none>");
}

// "full `X`, prequeue `Y` TF/s": the unit is every figure's, each keyed by
// the --queue-mode choice it names (the command sits in a sub-bullet).
TEST(RecordedIdioms, CommaListSharesItsUnit) {
  Logbook lb = Fixture("recorded_idioms");
  auto runs = RecordedRuns(*ByLabel(lb, "RID-013"));
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(Cfg(runs[0], "queue_mode"), "full");
  EXPECT_EQ(Cfg(runs[0], "case"), "random");
  EXPECT_DOUBLE_EQ(runs[0].metrics.at("tflops"), 181.402);
  EXPECT_EQ(Cfg(runs[3], "queue_mode"), "prequeue");
  EXPECT_DOUBLE_EQ(runs[3].metrics.at("tflops"), 238.004);
}

// A value written without a unit in an entry that names no metric is
// listed with the reason, never tabled and never dropped silently; a
// parent bullet naming TF/s gives its children their unit.
TEST(RecordedIdioms, UnitlessValuesAreListedOrNamedByTheirParent) {
  Logbook lb = Fixture("recorded_idioms");
  std::vector<UnreadFigures> unread;
  auto runs = RecordedFigures(*ByLabel(lb, "RID-014"), "", &unread, MfuLogbook(lb), TflopsLogbook(lb));
  EXPECT_TRUE(runs.empty());
  ASSERT_EQ(unread.size(), 4u);
  EXPECT_NE(unread[0].why.find("no unit"), std::string::npos);
  auto named = RecordedRuns(*ByLabel(lb, "RID-015"));
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(Cfg(named[1], "quant_mode"), "int8");
  EXPECT_DOUBLE_EQ(named[1].metrics.at("tflops"), 226.310);
}

// A brace list of flag values keys each figure; an entry that says it
// timed its runs and writes no TF/s records no TF/s with bare numbers, even
// for the modeled harness: they are listed.
TEST(RecordedAnyHarness, BraceListsAndTimeBasedEntries) {
  const std::string head = "# L\n\n## Scope\n- Primary metric: TF/s.\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n"
                           "- Command:\n  - `... bench_moe_hillclimb.py --tokens 4096 --quant-mode {none,int8} --topk 2`\n";
  const std::string result = "- Result:\n  - none `0.0212`, int8 `0.0190`\n";
  for (const bool timed : {false, true}) {
    Logbook lb = ParseLogbook(head + (timed ? "- Note: runtime comparison (time-based).\n" : "") + result, "t.md");
    ASSERT_EQ(lb.entries.size(), 1u);
    std::vector<UnreadFigures> unread;
    auto runs = RecordedFigures(lb.entries[0], "", &unread, false, TflopsLogbook(lb));
    if (timed) {
      EXPECT_TRUE(runs.empty());
      ASSERT_EQ(unread.size(), 1u);
      continue;
    }
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(Cfg(runs[0].run, "quant_mode"), "none");
    EXPECT_EQ(Cfg(runs[1].run, "quant_mode"), "int8");
  }
}

// Which keys a predicate may name is the logbook's: reading another
// logbook's figures changes nothing for it.
TEST(RecordedIdioms, RecordedKeysArePerLogbook) {
  Logbook gpu = Fixture("recorded_gpu");
  (void)RecordedRuns(gpu);
  EXPECT_FALSE(RunKeys().Has("num_devices"));
  EXPECT_TRUE(RecordedKeys(gpu).Has("num_devices"));
  EXPECT_FALSE(RecordedKeys(Fixture("recorded_idioms")).Has("num_devices"));
  EXPECT_TRUE(RecordedKeys(Fixture("recorded_idioms")).Has("wire_format"));
}

}  // namespace

// Restated figures of earlier runs are listed, never tabled; a value without
// a unit far from the logbook's own TF/s is listed "no unit"; statistics and
// clause subjects name figures of one metric.
TEST(RecordedProse, RestatedUnitlessAndNamedStatistics) {
  Logbook lb = Fixture("recorded_prose");
  std::vector<UnreadFigures> unread;
  EXPECT_TRUE(RecordedFigures(*ByLabel(lb, "RPR-005"), "", &unread, MfuLogbook(lb), TflopsLogbook(lb),
                              TflopsExample(lb)).empty());
  ASSERT_FALSE(unread.empty());
  EXPECT_NE(unread[0].why.find("restates"), std::string::npos);
  unread.clear();
  EXPECT_DOUBLE_EQ(TflopsExample(lb), 212.4);
  EXPECT_TRUE(RecordedFigures(*ByLabel(lb, "RPR-008"), "", &unread, MfuLogbook(lb), TflopsLogbook(lb),
                              TflopsExample(lb)).empty());
  ASSERT_EQ(unread.size(), 2u);
  EXPECT_NE(unread[0].why.find("no unit"), std::string::npos);
  auto stats = RecordedFigures(*ByLabel(lb, "RPR-001"), "", nullptr, MfuLogbook(lb));
  ASSERT_EQ(stats.size(), 4u);
  EXPECT_EQ(Cfg(stats[2].run, "statistic"), "tail-40 median");
  auto ab = RecordedFigures(*ByLabel(lb, "RPR-004"), "", nullptr, MfuLogbook(lb));
  ASSERT_EQ(ab.size(), 2u);
  EXPECT_EQ(Cfg(ab[0].run, "variant"), "control");
  EXPECT_EQ(Cfg(ab[1].run, "variant"), "treatment");
}

}  // namespace moelog::logbook

namespace moelog::logbook {

// An entry with no Result field: its table holds the runs; a prose bullet
// after it that repeats one of the table's figures (with a speedup derived
// from it) restates that run and adds no row.
TEST(RecordedProse, ProseRepeatingTheEntrysTableIsNoNewRun) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-05-01 10:00 - TAB-001: kernels\n"
      "- Command: `python tools/probe_bench.py --tokens 4096`\n\n"
      "| kernel | time (ms) |\n|---|---:|\n| plain | 12.40 |\n| pooled | 8.35 |\n\n"
      "- Best: kernel pooled = `8.35 ms`, 1.48x faster than plain.\n"
      "- Also measured: kernel fused = `9.10 ms`.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  std::vector<UnreadFigures> unread;
  auto figs = RecordedFigures(lb.entries[0], "t.md", &unread);
  ASSERT_EQ(figs.size(), 3u);  // plain, pooled (table) and fused (new prose)
  bool listed = false;
  for (const auto& u : unread) listed = listed || u.why.find("restates a figure of this entry's table") != std::string::npos;
  EXPECT_TRUE(listed);
}

}  // namespace moelog::logbook

#include "logbook/reader/prose.h"

namespace moelog::logbook {
namespace {

TEST(RecordedProseText, SentencesLeadsAndNames) {
  const std::string s = "Job `a`: x 1.5 ms vs. y 2.0 ms. The 23.5 ms step; e.g. 3 ms here.";
  const auto sent = prose::Sentences(s);
  ASSERT_EQ(sent.size(), 3u);  // "vs." and "e.g." end none; "23.5" is a decimal
  EXPECT_EQ(s.substr(sent[1].first, sent[1].second - sent[1].first), "The 23.5 ms step;");
  EXPECT_TRUE(prose::NoRunLead("Interpretation:"));
  EXPECT_TRUE(prose::NoRunLead("Profile (xplane, bf16 ring):"));
  EXPECT_TRUE(prose::NoRunLead("Compare summary"));
  EXPECT_FALSE(prose::NoRunLead("Arm A (tip, no code change)."));
  EXPECT_FALSE(prose::NoRunLead("Backend check:"));
  EXPECT_EQ(prose::PlainLead("Interpretation: the GEMMs save 4 ms."), "Interpretation");
  EXPECT_EQ(prose::PlainLead("The GEMMs save 4 ms: a lot."), "");
  const std::string eager = "13.6 s eager vs 27 ms jitted (~500x)";
  EXPECT_EQ(prose::PostfixName(eager, 6), "eager");
  EXPECT_EQ(prose::PostfixName(eager, eager.find("ms") + 2), "jitted");
  EXPECT_EQ(prose::PostfixName("7.1 ms at head", 6), "");         // a preposition
  EXPECT_EQ(prose::PostfixName("7.1 ms also beats it", 6), "");   // a verb follows
  const auto pairs = prose::NounPairs("ragged backend = ");
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], std::make_pair(std::string("impl"), std::string("ragged")));
  EXPECT_TRUE(prose::NounPairs("the backend = ").empty());
}

TEST(RecordedProseText, ArmsAndRanges) {
  const auto arms = prose::DotArms("ring EP4 **21.3% / 12.1 s** \xC2\xB7 a2a EP4 **20.9% / 12.4 s**");
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_EQ(arms[0], "ring EP4: 21.3% / 12.1 s** ");
  EXPECT_EQ(arms[1], "a2a EP4: 20.9% / 12.4 s**");
  EXPECT_TRUE(prose::DotArms("no arms here: 12.1 s").empty());
  const std::string r = "took 119 to 123 seconds";
  EXPECT_TRUE(prose::RangeEnd(r, r.find("123")));
  const std::string c = "fell from 4.73 to 2.14 seconds";  // a change, not a range
  EXPECT_FALSE(prose::RangeEnd(c, c.find("2.14")));
  const std::string d = "at 60\xE2\x80\x93" "81 ms";
  EXPECT_TRUE(prose::RangeEnd(d, d.find("81")));
  EXPECT_TRUE(prose::RangeGap(" to "));  // past the first unit: "17.22% to 17.29%"
  EXPECT_FALSE(prose::RangeGap(" and "));
  const std::string part = "this is 13.3 ms of a 2587 ms step";
  EXPECT_TRUE(prose::PartOf(part, part.find(" of")));
  EXPECT_TRUE(prose::WholeOf(part, part.find("2587")));
}

TEST(RecordedProseText, RestatementsAndEstimates) {
  const std::string a = "plan build is 21x the 13.9 ms device forward";
  EXPECT_TRUE(prose::RestatingAround(a, a.find("13.9"), a.find("ms") + 2));
  const std::string b = "fix 61.8 ms vs baseline 22.3 ms";
  EXPECT_TRUE(prose::RestatingAround(b, b.find("22.3"), b.size()));
  EXPECT_FALSE(prose::RestatingAround(b, b.find("61.8"), b.find(" vs")));
  const std::string c = "and 61.2 ms selected baseline";
  EXPECT_TRUE(prose::RestatingAround(c, c.find("61.2"), c.find(" selected")));
  const std::string d = "baseline `sum` median 0.61 ms";  // a baseline this entry measures
  EXPECT_FALSE(prose::RestatingAround(d, d.find("0.61"), d.size()));
  EXPECT_TRUE(prose::Estimate("so ~35 ms came", 4));
  EXPECT_FALSE(prose::Estimate("so 35 ms came", 3));
  EXPECT_TRUE(prose::SameAsWritten(96.2, 96, 0));
  EXPECT_TRUE(prose::SameAsWritten(26.96, 27, 0));
  EXPECT_FALSE(prose::SameAsWritten(96.2, 96.25, 2));
  EXPECT_FALSE(prose::SameAsWritten(96.2, 96, -1));
}

// Paragraphs of entries without a Result field: a figure beside the
// entry's table named by a value of its columns and a "X backend" noun; a
// plan's targets and expectations are no runs; an earlier entry's figure
// restated ("its 88 ms pathology") is listed, not recorded again.
// A restated figure names the LATEST earlier entry that recorded it; and
// comparing with earlier entries stays cheap when thousands of figures
// restate each other (each prose figure is compared with up to 4,096
// earlier values, searched from the latest: 1,000 such entries took 23 s).
// Past the figure cap of an entry nothing more is read: 2,000 bullets of 200
// figures (6 MB) were all read into 400,000 figures (15 s, 2 GB) to keep 512.
TEST(Recorded, AnEntryOfMoreFiguresThanTheCapStopsReadingAtTheCap) {
  std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n- Command: `python bench/wire.py`\n- Result:\n";
  for (int r = 0; r < 400; ++r) {
    doc += "  - b" + std::to_string(r) + ":";
    for (int i = 0; i < 100; ++i) doc += " arm" + std::to_string(i) + " " + std::to_string(10 + i) + ".5 ms,";
    doc += "\n";
  }
  doc += "\n| mode | ms/step |\n|---|---|\n";
  for (int r = 0; r < 20000; ++r) doc += "| m" + std::to_string(r) + " | " + std::to_string(10 + r % 90) + ".5 |\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  std::vector<UnreadFigures> unread;
  const double start = test::ProcessCpuSeconds();  // CPU time: a loaded machine slows wall time
  const auto figs = RecordedFigures(lb.entries[0], "t.md", &unread);
  const double s = (test::ProcessCpuSeconds() - start);
  EXPECT_EQ(figs.size(), 512u);
  bool said = false;
  for (const auto& u : unread) said = said || u.why.find("more than 512 figures") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_LT(s, test::TimeBound(3.0));
}

// A unit is read from the word after a number: a word of 30,000 numbers
// joined by dashes ("1–2–3–...–30000 ms") was read to its end after each of
// them (13 s; 100,000: 140 s).
TEST(Recorded, ALongWordAfterEachNumberIsReadOnce) {
  std::string chain;
  for (int i = 1; i <= 30000; ++i) chain += (i > 1 ? "\xE2\x80\x93" : "") + std::to_string(i);
  const std::string doc = "# L\n\n## Experiment Log\n\n### 2025-01-01 10:00 - A\n- Command: `python bench/wire.py`\n"
                          "- Result: " + chain + " ms; ring 31.4 ms\n";
  Logbook lb = ParseLogbook(doc, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const double start = test::ProcessCpuSeconds();  // CPU time: a loaded machine slows wall time
  RecordedFigures(lb.entries[0], "t.md", nullptr);
  EXPECT_LT((test::ProcessCpuSeconds() - start), test::TimeBound(3.0));
}

TEST(RecordedProse, RestatedFiguresNameTheLatestEarlierEntry) {
  std::string text = "# T\n\n## Log\n\n";
  for (int e = 0; e < 300; ++e) {  // figures of their own (none restates another)
    text += "### 2026-05-01 10:" + std::to_string(10 + e % 50) + " - RST-" + std::to_string(100 + e) + ": t\n\n";
    for (int j = 0; j < 12; ++j) text += "mode" + std::to_string(j) + " took " + std::to_string(1000 + e * 12 + j) + ".25 ms. ";
    text += "\n\n";
  }
  text += "### 2026-05-02 10:00 - RST-901: t\n\nring took 40.26 ms.\n\n";
  text += "### 2026-05-02 11:00 - RST-902: t\n\nring took 40.34 ms.\n\n";
  text += "### 2026-05-02 12:00 - RST-903: t\n\nring took 40.3 ms, as before.\n\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 303u);
  std::vector<std::vector<UnreadFigures>> unread;
  const double start = test::ProcessCpuSeconds();  // CPU time: a loaded machine slows wall time
  const auto figs = LogbookFigures(lb, &unread);
  const double s = (test::ProcessCpuSeconds() - start);
  EXPECT_EQ(figs[299].size(), 12u);
  EXPECT_EQ(figs[301].size(), 1u);
  EXPECT_TRUE(figs[302].empty());  // 40.3 is 40.26 (RST-901) and 40.34 (RST-902) as written: the latest
  ASSERT_FALSE(unread[302].empty());
  EXPECT_NE(unread[302][0].why.find("restates a figure of RST-902,"), std::string::npos) << unread[302][0].why;
  EXPECT_LT(s, test::TimeBound(10.0));
}

TEST(RecordedProse, ParagraphsOfEntriesWithoutAResult) {
  const std::string text =
      "# T\n\n## Log\n\n### 2026-05-01 09:00 - PAR-000: kickoff\n\n"
      "Plan: target < 20 ms per step; we expect ~2x and the fused path should reach 15 ms.\n\n"
      "### 2026-05-01 10:00 - PAR-001: modes\n\n"
      "| mode | ms/step |\n|---|---|\n| bf16 | 31.42 |\n| fp8wire | 26.88 |\n\n"
      "**Interpretation:** the GEMMs save 4.4 ms of the 31.4 ms step.\n\n"
      "**Backend check:** ragged backend = **88.4 ms/step bf16** (2.8x slower than\nring).\n\n"
      "### 2026-05-01 11:00 - PAR-002: wire\n\n"
      "Same point: bf16 87.9 -> fp8wire 52.3 ms. Its single-node 88 ms pathology\nis the transpose.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 3u);
  std::vector<std::vector<UnreadFigures>> unread;
  const auto figs = LogbookFigures(lb, &unread);
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_TRUE(figs[0].empty());
  ASSERT_EQ(figs[1].size(), 3u);
  EXPECT_EQ(Cfg(figs[1][2].run, "mode"), "bf16");
  EXPECT_EQ(Cfg(figs[1][2].run, "impl"), "ragged");
  EXPECT_EQ(figs[1][2].line, 18);
  EXPECT_FALSE(figs[1][2].run.metrics.count("speedup"));  // "2.8x slower" is no speedup
  ASSERT_EQ(figs[2].size(), 2u);
  // "bf16 87.9 -> fp8wire 52.3 ms": each named by its word, a value of PAR-001's "mode".
  EXPECT_EQ(Cfg(figs[2][0].run, "mode"), "bf16");
  EXPECT_EQ(Cfg(figs[2][1].run, "mode"), "fp8wire");
  bool restated = false;
  for (const auto& u : unread[2]) restated = restated || u.why.find("restates a figure of PAR-001") != std::string::npos;
  EXPECT_TRUE(restated);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// In a logbook that measures MFU, percentages under a label that names
// shares ("by share of GPU kernel time") are no MFU; a plain percentage is.
TEST(RecordedProse, SharesOfAProfileAreNoMfu) {
  const std::string text =
      "# MFU probes\n\n## Scope\n- Primary metric: MFU.\n\n## Log\n\n"
      "### 2026-05-01 10:00 - SHR-001: profile\n"
      "- Command: `python bench/train_probe.py --steps 20`\n"
      "- Top kernels by share of GPU kernel time:\n  - `all-gather`: 23.4%\n  - `fusion.12`: 12.1%\n"
      "- Steady state: the run reached 21.3%.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", nullptr, MfuLogbook(lb));
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("mfu"), 21.3);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// "≈ 21.4→22.9 % peak" is a share of a peak, never MFU (it was put on the
// after row as MFU in an MFU logbook).
TEST(RecordedProse, PercentOfPeakIsNoMfu) {
  const std::string text =
      "# MFU gates\n\n## Scope\n- Primary metric: MFU.\n\n## Log\n\n"
      "### 2026-05-01 10:00 - PK-001: peak\n"
      "- Command: `python bench/train_probe.py --steps 20`\n"
      "- Gated: gated fwd d2048 201.3→214.8 TF/s ≈ 21.4→22.9 % peak.\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto figs = RecordedFigures(lb.entries[0], "t.md", nullptr, MfuLogbook(lb));
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) EXPECT_FALSE(f.run.metrics.count("mfu"));
}

}  // namespace
}  // namespace moelog::logbook
