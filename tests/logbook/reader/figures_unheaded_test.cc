// The figures stage on tables whose first column is left unheaded or headed
// in another language: the rows still name the metrics ("| | before | after |"
// over "| p50 read | 80 ms | 21 ms |"), a two-column sheet still holds one
// run's figures ("| | Wert |", "| 指标 | 值 |").
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderUnheaded, AnUnheadedFirstColumnNamesTheMetricsOfRunsByColumn) {
  const auto figs = ReadEntry("# Load tests\n\n",
                              "## 2026-03-02 — pool and index\n\n"
                              "| | before | after |\n|---|---:|---:|\n"  // lines 5, 6
                              "| p50 read | 80 ms | 21 ms |\n"             // 7
                              "| p99 read | 510 ms | 190 ms |\n");         // 8
  std::map<std::string, int> per_variant;
  for (const auto& f : figs) ++per_variant[f.run.config.at("variant")];
  EXPECT_EQ(per_variant, (std::map<std::string, int>{{"after", 2}, {"before", 2}}));  // each column a run's figures
  bool p99 = false;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) p99 = p99 || (f.run.config.at("variant") == "after" && f.line == 8 && std::abs(v - 0.190) < 1e-12);
  EXPECT_TRUE(p99);
}

TEST(ReaderUnheaded, ATwoColumnSheetWithAnUnheadedOrForeignHeaderIsOneRun) {
  for (const std::string header : {"| | Wert |", "| 指标 | 值 |", "| | Значение |"}) {
    const auto figs = ReadEntry("# Load tests\n\n", "## 2026-03-01 — baseline\n\n" + header +
                                                        "\n|---|---|\n| p50 read | 80 ms |\n| p99 write | 730 ms |\n");
    ASSERT_FALSE(figs.empty()) << header;
    EXPECT_NE(OnLine(figs, 7), nullptr) << header;
    EXPECT_NE(OnLine(figs, 8), nullptr) << header;
  }
}

// "| Metric | Value |" over "| RTS | 0.0271 |": a figure with decimals that no
// unit or known name names is its row's, unitless; a whole number of no
// known name stays a setting or a count.
TEST(ReaderUnheaded, ADecimalUnderAnUnknownNameIsAUnitlessFigure) {
  const auto figs = ReadEntry("# Routing study\n\n", "## 2026-03-03 — drift\n\n"
                                                      "| Metric | Value |\n|---|---|\n| RTS | 0.0271 |\n| Tokens seen | 28,100 |\n");
  const RecordedFigure* rts = OnLine(figs, 7);
  ASSERT_NE(rts, nullptr);
  EXPECT_DOUBLE_EQ(rts->run.metrics.at("rts"), 0.0271);
  EXPECT_EQ(rts->run.decimals.at("rts"), 4);
  EXPECT_EQ(OnLine(figs, 8), nullptr);
}

// An entry headed by a sheet's word alone ("## 2.1 硬件", "## 3. Hardware") holds no run.
TEST(ReaderUnheaded, ASheetUnderAHardwareHeadingIsNoRun) {
  for (const std::string heading : {"## 2026-03-04 硬件", "## 2026-03-04 Hardware"}) {
    const auto figs = ReadEntry("# Routing study\n\n", heading + "\n\n| 项目 | 值 |\n|---|---|\n| 内存 | 64 GB |\n");
    EXPECT_TRUE(figs.empty()) << heading;
  }
}

// A table of values by column that names no unit, its cells decimals:
// acronym headers ("RTS", "KLD") are unitless metrics of each row's run;
// headers that name runs ("Baseline", "Tuned") are a run per cell, keyed
// variant, its figure unitless.
TEST(ReaderUnheaded, UnitlessValueColumnsAreMetricsOrRunsByTheirHeaders) {
  const auto metrics = ReadEntry("# Routing study\n\n", "## 2026-03-05 — layers\n\n| Layer | RTS | KLD |\n|---|---|---|\n"
                                                         "| 0 | 0.0061 | 0.0042 |\n| 1 | 0.0019 | 0.0031 |\n");
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(metrics[1].run.metrics.at("rts"), 0.0019);
  EXPECT_EQ(metrics[1].run.metrics.size(), 2u);
  const auto runs = ReadEntry("# Eval log\n\n", "## 2026-03-06 — eval\n\n| Model | Baseline | Tuned |\n|---|---|---|\n"
                                                 "| 2B | 0.612 | 0.587 |\n| 4B | 0.744 | 0.801 |\n");
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[3].run.config.at("variant"), "Tuned");
  EXPECT_DOUBLE_EQ(runs[3].run.metrics.at("value"), 0.801);
}

// "## 실험 3", "## Эксперимент 2": a numbered heading in another language is
// an entry, as "Experiment 3" is.
TEST(ReaderUnheaded, OrdinalWordsOfOtherLanguagesNumberEntries) {
  for (const std::string heading : {"## 실험 3", "## Эксперимент 2", "## 实验 4"}) {
    const auto figs = ReadEntry("# Log\n\nNotes of the week.\n\n", heading + "\n\n- latency: 12.5 ms\n");
    EXPECT_EQ(figs.size(), 1u) << heading;
  }
}

// "| Resource | iter-0 | iter-1 |" over "| CPU postgres | 100% (one core) |
// 78% |" and "| RAM | 2.1 GB | 2.7 GB |": a share the row names, and a unit
// of several metrics the row's name tells, are each column's figures.
TEST(ReaderUnheaded, SharesAndContextUnitsUnderNamedRows) {
  const auto figs = ReadEntry("# Load log\n\n", "## 2026-04-22 iteration 1\n\n"
                                                 "| Resource | iter-0 | iter-1 |\n|---|---|---|\n"
                                                 "| CPU postgres | 100% (one core) | 78% |\n| RAM | 2.1 GB | 2.7 GB |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_TRUE(figs[0].run.metrics.count("cpu_postgres_pct"));
  EXPECT_EQ(figs[0].run.units.at("cpu_postgres_pct"), "%");
  EXPECT_TRUE(figs[2].run.metrics.count("memory_mib"));
}

// "| | Value |" over "| Write max RPS | 45 |": the unit the row's name holds
// is its bare number's.
TEST(ReaderUnheaded, ASheetRowsNameGivesItsBareNumberAUnit) {
  const auto figs = ReadEntry("# Load log\n\n", "## 2026-04-22 iteration 0\n\n"
                                                 "| | Value |\n|---|---|\n| Write max RPS | 45 |\n| p50 read | 75 ms |\n");
  ASSERT_FALSE(figs.empty());
  bool rate = false;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) rate = rate || (m.find("per_s") != std::string::npos && v == 45);
  EXPECT_TRUE(rate);
}

// "| 层 | $H$ |" over "| 全层均值 | **4.1444** |", "| 最大值 | 4.1555（第 1 层）|":
// rows of a name and a plain decimal are a sheet whatever the headers say;
// a theoretical bound's row ("理论最大值") is no run.
TEST(ReaderUnheaded, NamedDecimalRowsAreASheet) {
  const auto figs = ReadEntry("# 路由日志\n\n", "## 2026-03-02 C4 参考\n\n"
                                                "| 层 | $H$ |\n|---|---|\n| 全层均值 | **4.1444** |\n"
                                                "| 最大值 | 4.1555（第 1 层） |\n| 理论最大值 | 4.1589 |\n");
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_DOUBLE_EQ(figs[1].run.metrics.begin()->second, 4.1555);
}

// "| eval sims | raw | 1 | 2 |" over "| opt-rate | 0.950 | 0.587 | 0.587 |":
// the headers are values of what the first names, a run each; the row's name
// is its metric.
TEST(ReaderUnheaded, ValueHeadersOverANamedRowAreRuns) {
  const auto figs = ReadEntry("# AZ log\n\n", "## 2026-05-02 baseline\n\n"
                                               "| eval sims | raw | 1 | 2 |\n|---|---|---|---|\n| opt-rate | 0.950 | 0.587 | 0.945 |\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[2].run.config.at("eval_sims"), "2");
  EXPECT_DOUBLE_EQ(figs[2].run.metrics.at("opt_rate"), 0.945);
}

// A table row of bare decimals no stage read is told "not read" all the
// same: every figure gets a fate.
TEST(ReaderUnheaded, AnUnreadRowOfBareDecimalsIsTold) {
  std::map<int, std::string> why;
  KeptLines("# Spark log\n\n## 2026-05-02 phase 2\n\n| Test | base#1 | fp8#2 |\n|---|---|---|\n"
            "| decode | 12.63 | 12.18 |\n| total | 87.20 | 87.40 |\n",
            &why);
  EXPECT_NE(why[7].find("not read"), std::string::npos);
  EXPECT_NE(why[8].find("not read"), std::string::npos);
}

// "| Test | MTP=1 (FP16 KV) | MTP=1 + KV=fp8 | Δ |": columns named by
// settings and words are runs of bare values; the change goes onto the run
// it works out for.
TEST(ReaderUnheaded, RunsNamedBySettingsWithAChangeColumn) {
  const auto figs = ReadEntry("# Spark log\n\n", "## 2026-05-02 phase 2\n\n"
                                                  "| Test | MTP=1 (FP16 KV) | MTP=1 + KV=fp8 | \xCE\x94 |\n|---|---|---|---|\n"
                                                  "| decode c=1 | 12.63 | 12.18 | \xE2\x88\x92" "3.6% |\n| longctx tg | 13.12 | 12.60 | -4.0% |\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[1].run.config.at("variant"), "MTP=1 + KV=fp8");
  EXPECT_EQ(figs[1].run.derived.size(), 1u);
  EXPECT_TRUE(figs[0].run.derived.empty());
}

}  // namespace
}  // namespace moelog::logbook::reader
