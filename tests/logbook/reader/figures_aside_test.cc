// Reader stage figures, printed lines with an aside: "Name: 3.16 ms/op
// (316.5 op/s)" is one row, the aside's figures beside the lead; a name that
// is a setting's value ("Threads=8:") keys the row by that setting.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderAside, ASettingNamedLineKeysItsRowAndKeepsItsAside) {
  const auto figs = ReadEntry("# Solver log\n\n",
                              "## 2026-04-01 — thread sweep\n\n```\n"
                              "Threads=1:  140.2 H/s (baseline, 7.13 ms/hash)\n"  // line 6
                              "Threads=4:  466.0 H/s (3.32x speedup, 2.15 ms/hash)\n"
                              "```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("threads"), "1");
  EXPECT_EQ(figs[1].run.config.at("threads"), "4");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("hashes_per_s"), 466.0);
  EXPECT_EQ(figs[1].run.metrics.size(), 3u);  // the rate, the time per hash and the derived speedup
  EXPECT_TRUE(figs[1].run.derived.count("speedup"));
  EXPECT_EQ(figs[0].run.metrics.size(), 2u);  // "baseline" is a word, no figure
}

TEST(ReaderAside, ANamedLineWithAnAsideOfAnotherMetricIsOneRow) {
  const auto figs = ReadEntry("# Solver log\n\n",
                              "## 2026-04-02 — fused gates\n\n```\n"
                              "Before:  4.02 ms/hash (248.76 H/s) - 40 launches\n"
                              "After:   3.61 ms/hash (277.01 H/s) - 20 launches\n"
                              "```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].run.config.at("metric"), "Before");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("hashes_per_s"), 277.01);
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);  // the launches count after the aside is no figure
}

// "2048 + INT8=0: 120.4 tok/s  <-- winner": a line named by settings, its one
// figure that run's, keyed case=<name>; a name of pairs alone is read as keys.
TEST(ReaderAside, ALineNamedBySettingsIsThatRunsFigure) {
  const auto figs = ReadEntry("# Serving log\n\n", "## 2026-04-03 — threshold sweep\n\n```\n"
                                                   "1024 + FP8=1: 98.2 tok/s\n1024 + FP8=0: 104.6 tok/s  <-- best\n```\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[1].run.config.at("case"), "1024 + FP8=0");
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("tokens_per_s"), 104.6);
}

// "- accuracy: 71.4%", "- 4B score: 80.2%", "82.9% accuracy": a score or
// rate the vocabulary names (percent_metrics) before or after a percentage.
TEST(ReaderAside, APercentageNamedAScoreIsAFigure) {
  const auto figs = ReadEntry("# Eval log\n\n", "## 2026-04-04 — eval\n\n- accuracy: 71.4%\n- 4B score: 80.2%\n"
                                                "- 8B: 84.0% pass rate\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("accuracy_pct"), 71.4);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("score_pct"), 80.2);
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("pass_rate_pct"), 84.0);
}

// "val/acc/mean@1 = 8.11%", "val_acc = 9.02%": a printed key names its
// percentage by one of its parts (the last that is a name); each step's its row.
TEST(ReaderAside, APrintedKeyNamesItsPercentageByAPart) {
  const auto figs = ReadEntry("# Eval log\n\n", "## 2026-04-05 — quantized eval\n\n**Results**:\n"
                                                "- Step 0: val/acc/mean@1 = 8.11%\n- Step 20: val_acc = 9.02%\n"
                                                "- Step 40: val/mean@1 = 9.50%\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("accuracy_pct"), 8.11);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("accuracy_pct"), 9.02);
  EXPECT_EQ(figs[1].run.config.at("step"), "20");
}

// "current CPU hit ~44.30%", "hit rate ≈ 61%": a cache's hit share.
TEST(ReaderAside, AHitShareIsAFigure) {
  const auto figs = ReadEntry("# Offload log\n\n", "## 2026-04-05 — placement\n\n```\ncurrent CPU hit ~44.30%\n```\n\n"
                                                    "- hit rate ≈ 61% on search\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("hit_rate_pct"), 44.30);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("hit_rate_pct"), 61);
}


// "max abs diff 0.002", "max error: 24.01": a kernel's numerical error is a
// figure by its two words' name; "error 404" names none.
TEST(ReaderAside, AKernelsNumericalErrorIsAFigureByItsName) {
  const auto figs = ReadEntry("# Kernel log\n\n", "## 2026-04-05 · tiled\n\n- max abs diff 0.002, 1.2 ms\n"
                                                  "- mean relative error: 0.31\n- got error 404 twice\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("abs_diff"), 0.002);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("relative_error"), 0.31);
}

// "Correctness failure (max error 14.28)": a quality in an aside no figure
// before it takes is listed with its fate, never dropped unseen.
TEST(ReaderAside, AQualityInAnAsideGetsAFate) {
  std::map<int, std::string> why;
  const auto kept = KeptLines("# Kernel log\n\n## 2026-04-06 · split-K\n\n- Result: Correctness failure (max error 14.28)\n", &why);
  EXPECT_FALSE(kept.count(5));
  EXPECT_NE(why[5].find("aside"), std::string::npos) << why[5];
}

// "Reference path: 2.538 ms. New path: 1.106 ms": a plain lead refers its
// own sentence to a reference; measured beside the new path, both are rows.
TEST(ReaderAside, AReferenceMeasuredBesideTheNewPathIsARow) {
  const auto figs = ReadEntry("# Kernel log\n\n", "## 2026-04-07 · fused\n\nReference path: 2.538 ms. New path: 1.106 ms (2.3x faster).\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("time_s"), 2.538e-3);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.at("time_s"), 1.106e-3);
  std::map<int, std::string> why;  // alone, a reference restates earlier work
  EXPECT_FALSE(KeptLines("# Kernel log\n\n## 2026-04-08 · note\n\nReference path: 2.538 ms.\n", &why).count(5));
}


// "Best Val Loss: 2.6557；Final Val Loss: 2.6560": the run's best and its
// last value are two figures, best_val_loss beside val_loss, never a clash.
TEST(ReaderAside, ABestQualityBesideTheFinalOneIsAFigureOfItsOwn) {
  const auto figs = ReadEntry("# Train log\n\n", "## 2026-04-09 · refiner\n\n"
                                                 "- Metrics: Best Val Loss: 2.6557\xEF\xBC\x9B" "Final Val Loss: 2.6560\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("best_val_loss"), 2.6557);
  EXPECT_DOUBLE_EQ(figs[0].run.metrics.at("val_loss"), 2.6560);
}


// "max diff: 1.71e-03, mean diff: 1.05e-04" and the same in Korean: each
// label's value is its own figure (a number opening a text before a colon is
// no run's name), an exponent after an error's name a figure too.
TEST(ReaderAside, EachLabelOfANumericsListNamesItsValue) {
  const auto en = ReadEntry("# Agent log\n\n", "## 2026-04-11 · v1 check\n\n- max diff: 1.71e-03, mean diff: 1.05e-04\n");
  ASSERT_EQ(en.size(), 1u);
  EXPECT_DOUBLE_EQ(en[0].run.metrics.at("max_diff"), 1.71e-03);
  EXPECT_DOUBLE_EQ(en[0].run.metrics.at("mean_diff"), 1.05e-04);
  const auto ko = ReadEntry("# Agent log\n\n", "## 2026-04-12 · v2 check\n\n"
                                               "- \xEC\xB5\x9C\xEB\x8C\x80 \xEC\xB0\xA8\xEC\x9D\xB4: 0.00171, "
                                               "\xED\x8F\x89\xEA\xB7\xA0 \xEC\xB0\xA8\xEC\x9D\xB4: 0.000105\n");
  ASSERT_EQ(ko.size(), 1u);
  EXPECT_EQ(ko[0].run.metrics.size(), 2u);
}


// A check's figures in prose ("max diff: 0.00171, ...") are no run's
// measurement, and still get a fate.
TEST(ReaderAside, ACheckInProseGetsAFate) {
  std::map<int, std::string> why;
  const auto kept = KeptLines("# Kernel log\n\n## 2026-04-13 · tiled\n\nmax diff: 0.00171, mean diff: 0.000105\n", &why);
  EXPECT_FALSE(kept.count(5));
  EXPECT_NE(why[5].find("a check of the run"), std::string::npos) << why[5];
}

}  // namespace
}  // namespace moelog::logbook::reader
