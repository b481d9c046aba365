// Metric names say the unit's metric once: what the author named a figure,
// with the base metric added only when the name does not already say it.
#include <gtest/gtest.h>

#include "logbook/reader/vocabulary.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderMetricNames, ANameEndingInTheBasesWordSaysItOnce) {
  EXPECT_EQ(QualifiedMetricName("train_time", "time_s"), "train_time_s");
  EXPECT_EQ(QualifiedMetricName("time", "time_s"), "time_s");
  EXPECT_EQ(QualifiedMetricName("decode", "time_s"), "decode_time_s");
  EXPECT_EQ(QualifiedMetricName("p95_latency", "time_s"), "p95_latency_time_s");
  EXPECT_EQ(QualifiedMetricName("prefill_tokens", "tokens_per_s"), "prefill_tokens_per_s");
  EXPECT_EQ(QualifiedMetricName("", "gb_per_s"), "gb_per_s");
}

// A percentile is a statistic by its form, any rank ("p99.9", "p999"),
// never a device ("p100", "p4").
TEST(ReaderMetricNames, APercentileIsAStatisticByItsForm) {
  for (const char* w : {"p50", "p75", "p99.9", "p99.99", "p999", "p9999"}) EXPECT_TRUE(StatWord(w)) << w;
  for (const char* w : {"p4", "p100", "p00", "p99.", "p9x", "pp99", "p999.9"}) EXPECT_FALSE(StatWord(w)) << w;
}

TEST(ReaderMetricNames, WordsThatNameATime) {
  EXPECT_TRUE(NamesATime("p95 latency"));
  EXPECT_TRUE(NamesATime("train/step time avg"));
  EXPECT_TRUE(NamesATime("TTFT"));
  EXPECT_FALSE(NamesATime("decode"));
  EXPECT_FALSE(NamesATime("timeline"));
}

// A table's column already naming its metric keeps its name.
TEST(ReaderMetricNames, AColumnNamingItsMetricIsNotNamedAgain) {
  const auto figs = ReadEntry("# Fit log\n\n## 2026-02-11 fit\n\n",
                              "| seed | step_time (ms) | fwd_time (ms) | tok/s |\n"
                              "|---|---|---|---|\n"
                              "| 1 | 40.2 | 11.0 | 9100 |\n");
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_EQ(m.find("time_time"), std::string::npos) << m;
}

// A printed progress line's key that names its metric keeps its name.
TEST(ReaderMetricNames, APrintedKeyNamingItsMetricIsNotNamedAgain) {
  const auto figs = ReadEntry("# Fit log\n\n## 2026-02-11 fit\n\n",
                              "```\npython fit.py --epochs 3\n```\n\n```\n"
                              "epoch 3/3 | loss 0.412 | fit_time 5120ms | batch_time 41.2ms\n```\n");
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics) EXPECT_EQ(m.find("time_time"), std::string::npos) << m;
}

}  // namespace
}  // namespace moelog::logbook::reader
