// The key stage on a printout's settings set apart above its report
// (`Duration: 10s`, `Rate: 20`, a blank line, then a load tool's report):
// they key the report's figures, so reports that differ only there are
// rows of their own; and the figures stage naming a bracketed report's bare
// values by the unit its label starts with (`Bytes In [total, mean]`).
#include <gtest/gtest.h>

#include <set>

#include <string>

#include "logbook/reader/internal.h"
#include "logbook/reader/key_reportsettings.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const char* kHead = "# T\n\n## Experiment Log\n\n### 2026-04-11 09:30 - sweep\n\n";

TEST(KeyReportSettings, ASettingLineIsANameAndOneValue) {
  std::string key, value;
  ASSERT_TRUE(ReportSettingLine("Rate: 50", &key, &value));
  EXPECT_EQ(key, "rate");
  EXPECT_EQ(value, "50");
  EXPECT_TRUE(ReportSettingLine("Duration: 5s", &key, &value));
  EXPECT_FALSE(ReportSettingLine("Latency: 4.1 ms avg", &key, &value));  // more than one value
  EXPECT_FALSE(ReportSettingLine("Backend: sglang", &key, &value));      // no number
  // A name that names a metric or its unit prints a measurement, no setting.
  EXPECT_FALSE(ReportSettingLine("PPL: 10.22", &key, &value));
  EXPECT_FALSE(ReportSettingLine("Max memory(MiB): 3352.28", &key, &value));
  EXPECT_FALSE(ReportSettingLine("Latency: 41", &key, &value));
}

// Two printouts of one fence, each after its prompted command: the first
// one's last lines are its figures, not settings of the second.
TEST(KeyReportSettings, AMeasurementAtABlocksEndStaysItsFigure) {
  const auto figs = ReadEntry(kHead,
                              "```\n$ python -m quant llama-7b --bits 2\nPPL: 1580.41\nMax memory(MiB): 2580.28\n\n"
                              "$ python -m quant llama-7b --bits 4\nPPL: 5.13\nMax memory(MiB): 4172.28\n```\n");
  std::set<int> lines;
  for (const auto& f : figs) lines.insert(f.line);
  EXPECT_TRUE(lines.count(9) && lines.count(10)) << ::testing::PrintToString(lines);
}

TEST(KeyReportSettings, SettingsBlankedFromTheBlockKeyTheNextOne) {
  FencedBlock b;
  b.text = "Requests  [total, rate]  10, 1.0\nSuccess  [ratio]  100.00%\n\nDuration: 5s\nRate: 5\n";
  std::map<std::string, std::string> leading, trailing;
  const FencedBlock out = WithoutReportSettings(b, true, &leading, &trailing);
  EXPECT_TRUE(leading.empty());
  EXPECT_EQ(trailing.at("rate"), "5");
  EXPECT_EQ(out.text.find("Rate"), std::string::npos);
  // With no block below, the lines stay as they are.
  trailing.clear();
  EXPECT_EQ(WithoutReportSettings(b, false, &leading, &trailing).text, b.text);
}

TEST(KeyReportSettings, ReportsThatDifferOnlyInTheirSettingsAreRowsApart) {
  const auto figs = ReadEntry(kHead,
                              "```\n"                                                      // 7
                              "Rate: 20\n"                                                  // 8
                              "\n"                                                          // 9
                              "Latencies     [min, mean, 50, max]  41.7ms, 77.3ms, 70.1ms, 311.0ms\n"  // 10
                              "Bytes In      [total, mean]         88400, 442.00\n"        // 11
                              "Success       [ratio]               100.00%\n"              // 12
                              "```\n\n"                                                    // 13-14
                              "```\n"                                                      // 15
                              "Rate: 80\n"                                                  // 16
                              "\n"                                                          // 17
                              "Latencies     [min, mean, 50, max]  52.3ms, 640.5ms, 388.2ms, 5.001s\n"  // 18
                              "Bytes In      [total, mean]         352240, 440.30\n"       // 19
                              "Success       [ratio]               99.88%\n"              // 20
                              "```\n");
  const RecordedFigure* first = OnLine(figs, 10);
  const RecordedFigure* second = OnLine(figs, 18);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(first, second);
  EXPECT_EQ(first->run.config.at("rate"), "20");
  EXPECT_EQ(second->run.config.at("rate"), "80");
  EXPECT_EQ(OnLine(figs, 8), nullptr);  // a setting, no figure
  bool bytes = false;
  for (const auto& [m, v] : first->run.metrics) bytes = bytes || (m.find("bytes_in_total") == 0 && v == 88400);
  EXPECT_TRUE(bytes);
}

// Reports pasted one after another in one fence: a label coming again opens
// the next report, its settings above it keying it.
TEST(KeyReportSettings, ReportsInOneFenceAreRowsApart) {
  const auto figs = ReadEntry(kHead,
                              "```\n"                                                        // 7
                              "Rate: 20\n"                                                    // 8
                              "\n"                                                            // 9
                              "Latencies     [min, mean, max]  41.7ms, 77.3ms, 311.0ms\n"    // 10
                              "Success       [ratio]           100.00%\n"                    // 11
                              "\n"                                                            // 12
                              "Rate: 80\n"                                                    // 13
                              "\n"                                                            // 14
                              "Latencies     [min, mean, max]  52.3ms, 640.5ms, 5.001s\n"    // 15
                              "Success       [ratio]           99.88%\n"                     // 16
                              "```\n");
  const RecordedFigure* first = OnLine(figs, 10);
  const RecordedFigure* second = OnLine(figs, 15);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_NE(first, second);
  EXPECT_EQ(first->run.config.at("rate"), "20");
  EXPECT_EQ(second->run.config.at("rate"), "80");
  EXPECT_NEAR(first->run.metrics.at("latencies_min_time_s"), 0.0417, 1e-12);
  EXPECT_NEAR(second->run.metrics.at("latencies_min_time_s"), 0.0523, 1e-12);
}

}  // namespace
}  // namespace moelog::logbook::reader
