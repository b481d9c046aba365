#include "logbook/render/calibration.h"

#include <cmath>

#include <gtest/gtest.h>

#include "logbook/render/render_table.h"

namespace moelog::logbook {
namespace {

std::vector<CalibrationSample> Samples() {
  // Entry A at 10:00 reads 8% below the model, entry B at 11:00 12% below,
  // entry C at 12:00 (another revision) 20% above.
  return {{"A", "2026-02-09 10:00", "h: d", std::log(0.92), ""}, {"A", "2026-02-09 10:00", "h: d", std::log(0.92), ""},
          {"B", "2026-02-09 11:00", "h: d", std::log(0.88), ""}, {"C", "2026-02-09 12:00", "h: r", std::log(1.2), ""}};
}

TEST(Calibration, NeverTheEntryItselfNorLaterOnes) {
  const engine::v5p::ShrinkagePrior prior;
  // Entry A itself: nothing before it.
  EXPECT_FALSE(CalibrateFor(Samples(), "h: d", "2026-02-09 10:00", prior).applied());
  // Entry B: A's figures only.
  const Calibration b = CalibrateFor(Samples(), "h: d", "2026-02-09 11:00", prior);
  EXPECT_EQ(b.n, 2);
  EXPECT_EQ(b.up_to, "2026-02-09 10:00");
  EXPECT_LT(b.factor, 1.0);
  EXPECT_GT(b.factor, 0.92);  // shrunk toward 1
  // A later entry: A and B, not C (another key).
  const Calibration later = CalibrateFor(Samples(), "h: d", "2026-02-09 13:00", prior);
  EXPECT_EQ(later.n, 3);
  EXPECT_EQ(later.entries, 2);
  EXPECT_LT(later.factor, b.factor);
  // An undated entry is not calibrated.
  EXPECT_FALSE(CalibrateFor(Samples(), "h: d", "", prior).applied());
}

TEST(Calibration, ModeledFigureAndText) {
  Calibration c;
  c.factor = 0.93;
  c.n = 12;
  c.entries = 3;
  c.key = "hillclimb: 2026-02-09";
  c.up_to = "2026-02-09 14:51";
  c.log_sd = 0.02;
  engine::v5p::ErrorBand band{true, 0.9, 1.1, 10, "p", "m"};
  const ModeledFigure f = Calibrated(100.0, c, band);
  EXPECT_DOUBLE_EQ(f.uncalibrated, 100.0);
  EXPECT_DOUBLE_EQ(f.value, 93.0);
  EXPECT_TRUE(f.has_band);
  EXPECT_NEAR(f.lo, 83.7, 1e-9);
  EXPECT_NEAR(f.hi, 102.3, 1e-9);
  EXPECT_FALSE(Calibrated(100.0, c, engine::v5p::ErrorBand{}).has_band);
  EXPECT_EQ(CalibrationText(c),
            "calibrated on 12 recorded figures of entries up to 2026-02-09 14:51: x0.930 \xC2\xB1 0.019 (3 entries, "
            "hillclimb: 2026-02-09)");
}

// A recorded 183.9 TF/s where the model reads 145.5 in a band of 134-153
// (further out than the band is wide) moves no calibration alone; a second
// figure that agrees with it does. Figures inside or near the band count.
TEST(Calibration, AFigureFarOutsideItsBandWaitsForASecond) {
  const engine::v5p::ShrinkagePrior prior;
  auto sample = [](const std::string& entry, const std::string& when, double ratio) {
    CalibrationSample s{entry, when, "h: d", std::log(ratio), ""};
    s.band_lo = std::log(134.0 / 145.5);
    s.band_hi = std::log(153.0 / 145.5);
    return s;
  };
  std::vector<CalibrationSample> far = {sample("A", "2026-02-09 10:00", 183.9 / 145.5)};
  const Calibration alone = CalibrateFor(far, "h: d", "2026-02-09 11:00", prior);
  EXPECT_FALSE(alone.applied());
  EXPECT_EQ(alone.held, 1);
  EXPECT_DOUBLE_EQ(alone.factor, 1.0);
  EXPECT_NE(CalibrationText(alone).find("1 earlier recorded figure further outside"), std::string::npos)
      << CalibrationText(alone);
  far.push_back(sample("B", "2026-02-09 10:30", 180.2 / 145.5));
  const Calibration agreed = CalibrateFor(far, "h: d", "2026-02-09 11:00", prior);
  EXPECT_EQ(agreed.n, 2);
  EXPECT_EQ(agreed.held, 0);
  EXPECT_GT(agreed.factor, 1.1);
  // Just outside the band (150 -> 160): counted at once, and moved little.
  const Calibration near = CalibrateFor({sample("A", "2026-02-09 10:00", 160.0 / 145.5)}, "h: d", "2026-02-09 11:00", prior);
  EXPECT_EQ(near.n, 1);
  EXPECT_GT(near.log_sd, 0.0);
  EXPECT_LT(near.log_sd, 0.1);
}

TableRow ModeledRow(const std::string& topk, double tflops) {
  TableRow r;
  r.target = "v5p";
  r.config = {{"topk", topk}, {"parallel_mode", "ep"}, {"quant_mode", "none"}};
  r.metrics = {{"time_s", 0.1}, {"tflops", tflops}, {"tflops_per_device", tflops / 4}, {"tokens_per_s", 1000}};
  r.cal_key = "hillclimb: 2026-02-09";
  return r;
}

TEST(Calibration, TableShowsCalibratedBesideUncalibratedAndTheStoreRowIsUntouched) {
  ModelView view;
  view.samples["E1"] = {{"E1", "2026-02-09 10:00", "hillclimb: 2026-02-09", std::log(0.9), ""}};
  view.have_bands = true;
  view.bands.all = {true, 0.95, 1.05, 50, "all", "chronological"};
  const std::vector<TableRow> rows = {ModeledRow("2", 100), ModeledRow("8", 200)};
  const std::string t = RenderRunTable(rows, {}, &view, "2026-02-09 11:00");
  EXPECT_NE(t.find("TF/s uncalibrated"), std::string::npos) << t;
  EXPECT_NE(t.find("| 100.0 |"), std::string::npos) << t;  // the model's figure beside
  EXPECT_NE(t.find("TF/s p10–p90"), std::string::npos) << t;
  EXPECT_NE(t.find(", calibrated x0.911 ± 0.031 (1 figure)"), std::string::npos) << t;
  EXPECT_EQ(rows[0].metrics.at("tflops"), 100.0);
  // --no-calibrate: the model alone, the band still shown.
  view.calibrate = false;
  const std::string plain = RenderRunTable(rows, {}, &view, "2026-02-09 11:00");
  EXPECT_EQ(plain.find("uncalibrated"), std::string::npos) << plain;
  EXPECT_NE(plain.find("| 100.0 |"), std::string::npos) << plain;
  EXPECT_NE(plain.find("95.0–105"), std::string::npos) << plain;
  // The entry's own figures never calibrate it.
  view.calibrate = true;
  EXPECT_EQ(RenderRunTable(rows, {}, &view, "2026-02-09 10:00").find("uncalibrated"), std::string::npos);
}

RecordedFigure Figure(const std::map<std::string, std::string>& config, double tflops) {
  RecordedFigure f;
  f.run.config = config;
  f.run.metrics = {{"tflops", tflops}};
  f.run.source = "recorded";
  return f;
}

TEST(Calibration, FiguresNamingRowsOfIdenticalModeledFiguresAreEachASample) {
  // Two rows the model does not tell apart (identical figures), one figure
  // naming each: two samples, each against that row.
  std::vector<TableRow> rows = {ModeledRow("2", 100), ModeledRow("2", 100)};
  rows[0].config["distribution"] = "random";
  rows[1].config["distribution"] = "runs";
  const std::vector<RecordedFigure> named = {Figure({{"topk", "2"}, {"distribution", "random"}}, 90),
                                             Figure({{"topk", "2"}, {"distribution", "runs"}}, 95)};
  const std::vector<CalibrationSample> s = TableSamples(rows, named, "E", "2026-02-09 10:00");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NEAR(s[0].log_ratio, std::log(0.9), 1e-12);
  EXPECT_NEAR(s[1].log_ratio, std::log(0.95), 1e-12);
  // A figure that fits both rows is a figure of their group.
  EXPECT_EQ(TableSamples(rows, {Figure({{"topk", "2"}}, 90)}, "E", "2026-02-09 10:00").size(), 1u);
  // Two figures both fitting the group: neither is told apart, no sample.
  EXPECT_TRUE(
      TableSamples(rows, {Figure({{"topk", "2"}}, 90), Figure({{"topk", "2"}}, 95)}, "E", "2026-02-09 10:00").empty());
}

TEST(Calibration, UnvalidatedPathsAreCalibratedOnlyByTheirOwnPathsFigures) {
  // A row on an unchecked path (impl=fused_w13_preweight): its recorded
  // figure is a sample of its path, not of the key.
  TableRow pre = ModeledRow("2", 100);
  pre.config["impl"] = "fused_w13_preweight";
  const std::string path = UnvalidatedPathKey(pre.config);
  ASSERT_FALSE(path.empty());
  const std::vector<CalibrationSample> s = TableSamples({pre}, {Figure({{"topk", "2"}}, 93)}, "P", "2026-02-09 10:00");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].path, path);
  const engine::v5p::ShrinkagePrior prior;
  const std::string key = "hillclimb: 2026-02-09";
  // The key's factor alone (validated figures, x0.9 recorded) never moves it.
  std::vector<CalibrationSample> all = {{"V", "2026-02-09 09:00", key, std::log(0.9), ""}};
  const Calibration day = CalibrateFor(all, key, "2026-02-09 11:00", prior);
  EXPECT_TRUE(day.applied());
  EXPECT_FALSE(CalibrateFor(all, key, "2026-02-09 11:00", prior, path).applied());
  // Its own path's figures do, and never the key's factor.
  all.insert(all.end(), s.begin(), s.end());
  const Calibration own = CalibrateFor(all, key, "2026-02-09 11:00", prior, path);
  ASSERT_TRUE(own.applied());
  EXPECT_EQ(own.n, 1);
  EXPECT_EQ(own.path, path);
  EXPECT_LT(own.factor, 1.0);
  EXPECT_NEAR(CalibrateFor(all, key, "2026-02-09 11:00", prior).factor, day.factor, 1e-12);
  // Not the entry itself: at 10:00 the path has no earlier figure.
  EXPECT_FALSE(CalibrateFor(all, key, "2026-02-09 10:00", prior, path).applied());
  EXPECT_NE(CalibrationText(own).find("of this path (" + path + ") in entries up to 2026-02-09 10:00"),
            std::string::npos)
      << CalibrationText(own);
  // The table calibrates the unchecked row, keeping the model's figure beside.
  ModelView view;
  view.samples["P"] = s;
  const std::string table = RenderRunTable({pre}, {}, &view, "2026-02-09 11:00");
  EXPECT_NE(table.find("TF/s uncalibrated"), std::string::npos) << table;
  EXPECT_NE(table.find("| 100.0 |"), std::string::npos) << table;
  EXPECT_NE(table.find("(1 figure, impl=fused_w13_preweight)"), std::string::npos) << table;
  // A validated row beside it at the same time is not moved by the path's figures.
  EXPECT_EQ(RenderRunTable({ModeledRow("8", 200)}, {}, &view, "2026-02-09 11:00").find("uncalibrated"),
            std::string::npos);
}

}  // namespace
}  // namespace moelog::logbook
