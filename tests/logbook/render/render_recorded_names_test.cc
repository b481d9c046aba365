// A recorded table says what its rows share and names its columns as the
// author did: a key every row holds is said once, whatever its name; a
// column whose name says time is not told "time" again.
#include <gtest/gtest.h>

#include "logbook/reader/recorded.h"
#include "logbook/render/render_table.h"

namespace moelog::logbook {
namespace {

RecordedFigure Timed(const std::string& metric, double ms, const std::string& gemm_m) {
  RecordedFigure f;
  f.run.metrics[metric] = ms / 1e3, f.run.units[metric] = "ms", f.run.decimals[metric] = 1;
  f.run.config = {{"harness", "gemm_bench.py"}, {"threads", "4"}, {"m", gemm_m}};
  return f;
}

// threads=4 in both rows' commands: another harness's setting, said once.
TEST(RenderRecordedNames, AKeyEveryRowSharesIsSaidOnce) {
  const std::string out = RenderRecordedTable({Timed("time_s", 1.2, "1024"), Timed("time_s", 2.1, "2048")});
  EXPECT_NE(out.find("Every figure above: harness=gemm_bench.py, threads=4."), std::string::npos) << out;
}

TEST(RenderRecordedNames, ANameThatSaysTimeIsNotToldItAgain) {
  const std::string out = RenderRecordedTable({Timed("p95_latency_time_s", 12.5, "1024"), Timed("train_time_s", 4.0, "2048")});
  EXPECT_NE(out.find("p95 latency (ms)"), std::string::npos) << out;
  EXPECT_NE(out.find("train time (ms)"), std::string::npos) << out;
  EXPECT_EQ(out.find("time time"), std::string::npos) << out;
  EXPECT_EQ(out.find("latency time"), std::string::npos) << out;
}

// iostat's read rate, written in kB/s and stored as a bandwidth (GB/s):
// its column is headed in the unit its figures were written in, never GB/s
// over cells of kB/s.
TEST(RenderRecordedNames, ANamedBandwidthIsHeadedInTheUnitWritten) {
  std::vector<RecordedFigure> figs;
  for (const auto& [kbs, dev] : {std::pair<double, const char*>{88.73, "nvme0n1"}, {310.69, "nvme1n1"}}) {
    RecordedFigure f;
    f.run.metrics["avg_rkb_gb_per_s"] = kbs * 1e-6, f.run.units["avg_rkb_gb_per_s"] = "kB/s";
    f.run.decimals["avg_rkb_gb_per_s"] = 2;
    f.run.config = {{"device", dev}};
    figs.push_back(f);
  }
  const std::string out = RenderRecordedTable(figs);
  EXPECT_NE(out.find("| avg rkb kB/s |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 88.73 |"), std::string::npos) << out;
  EXPECT_EQ(out.find("GB/s"), std::string::npos) << out;
}

// Criterion's throughput interval [low mid high] in Melem/s: three columns
// told apart by their qualifiers, not three headed "Melem/s".
TEST(RenderRecordedNames, QualifiedRatesKeepTheirQualifiers) {
  RecordedFigure f;
  for (const auto& [m, v] : {std::pair<const char*, double>{"elements_per_s", 826.38},
                             {"ci_high_elements_per_s", 830.98},
                             {"ci_low_elements_per_s", 821.22}})
    f.run.metrics[m] = v * 1e6, f.run.units[m] = "Melem/s", f.run.decimals[m] = 2;
  f.run.config = {{"benchmark", "lookup/hit"}};
  RecordedFigure g = f;
  g.run.config = {{"benchmark", "lookup/miss"}};
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| Melem/s |"), std::string::npos) << out;
  EXPECT_NE(out.find("| ci high Melem/s |"), std::string::npos) << out;
  EXPECT_NE(out.find("| ci low Melem/s |"), std::string::npos) << out;
}

}  // namespace
}  // namespace moelog::logbook
