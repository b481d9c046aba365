#include "logbook/render/render_table.h"

#include <gtest/gtest.h>

#include "logbook/doc/markdown.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

TableRow Row(std::map<std::string, std::string> c, double tflops) {
  TableRow r;
  r.config = std::move(c);
  r.config["tokens"] = "32768";
  r.config["iters"] = "3";
  r.metrics = {{"time_s", 0.05}, {"tflops", tflops}, {"tflops_per_device", tflops / 4}, {"tokens_per_s", 655360}};
  return r;
}

TEST(RenderTableTest, VaryingColumnsOnlyAndDedupe) {
  std::vector<TableRow> rows = {Row({{"parallel_mode", "none"}, {"topk", "2"}, {"pass", "fb"}, {"bench_pass", "fb"}}, 100),
                                Row({{"parallel_mode", "ep"}, {"topk", "2"}, {"pass", "f"}, {"bench_pass", "f"}}, 120)};
  auto cols = VaryingColumns(rows);
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[0], "parallel_mode");
  EXPECT_EQ(cols[1], "bench_pass");  // "pass" duplicates it
}

// "A X vs B Y" on one line states two figures, each for its own row: the gmm
// row gets gmm's figure, not the last number of the line.
TEST(RenderTableTest, ComparedFiguresOnOneLineGoToTheirRows) {
  const std::string md = "- Result:\n  - `2048/2048`: gmm `275.232` vs ragged_dot `268.852` TF/s (`-2.32%`)\n"
                         "  - `3072/3072`: gmm `290.988` vs ragged_dot `288.094` TF/s (`-0.99%`)\n";
  const Logbook lb = ParseLogbook("# T\n## Experiment Log\n### 2026-01-01 10:00 - e\n" + md, "t");
  ASSERT_EQ(lb.entries.size(), 1u);
  auto rec = lb.entries[0].RecordedBullets();
  std::vector<TableRow> rows = {Row({{"backend", "gmm"}, {"hidden", "2048"}, {"mlp_dim", "2048"}}, 270),
                                Row({{"backend", "ragged_dot"}, {"hidden", "2048"}, {"mlp_dim", "2048"}}, 265),
                                Row({{"backend", "gmm"}, {"hidden", "3072"}, {"mlp_dim", "3072"}}, 280),
                                Row({{"backend", "ragged_dot"}, {"hidden", "3072"}, {"mlp_dim", "3072"}}, 285)};
  const auto varying = VaryingColumns(rows);
  EXPECT_EQ(RecordedTflops(rows[0], varying, rec, rows.size()), 275.232);
  EXPECT_EQ(RecordedTflops(rows[1], varying, rec, rows.size()), 268.852);
  EXPECT_EQ(RecordedTflops(rows[2], varying, rec, rows.size()), 290.988);
  EXPECT_EQ(RecordedTflops(rows[3], varying, rec, rows.size()), 288.094);
}

TEST(RenderTableTest, RecordedColumnAndDeltaFromResultBullets) {
  const std::string md = "- Result:\n  - `none, topk=2`: 100.0 TF/s\n  - `ep, topk=2`: 150.0 TF/s\n"
                         "  - `ep, topk=8`: 1.0 TF/s\n";
  const Logbook lb = ParseLogbook("# T\n## Experiment Log\n### 2026-01-01 10:00 - e\n" + md, "t");
  ASSERT_EQ(lb.entries.size(), 1u);
  auto rec = lb.entries[0].RecordedBullets();
  ASSERT_EQ(rec.size(), 3u);
  std::vector<TableRow> rows = {Row({{"parallel_mode", "none"}, {"topk", "2"}}, 110),
                                Row({{"parallel_mode", "ep"}, {"topk", "2"}}, 120)};
  const std::string t = RenderRunTable(rows, rec);
  const auto lines = SplitLines(t);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "| parallel_mode | time (ms) | TF/s | TF/s/device | tokens/s | recorded TF/s | delta |");
  // Under the table, what the figures are: these rows have no target, so cpu.
  EXPECT_TRUE(lines[4].empty());
  EXPECT_EQ(lines[5].rfind("Measured by moelog on this machine's CPU", 0), 0u) << lines[5];
  rows[0].target = rows[1].target = "v5p";
  EXPECT_EQ(SplitLines(RenderRunTable(rows, rec))[5].rfind("Predicted by moelog's TPU v5p-8 model", 0), 0u);
  rows[0].target = rows[1].target = "";
  EXPECT_EQ(lines[2], "| none | 50.000 | 110.000 | 27.500 | 655360 | 100.000 | +10.0% |");
  EXPECT_EQ(lines[3], "| ep | 50.000 | 120.000 | 30.000 | 655360 | 150.000 | -20.0% |");
  // Deterministic: same input, same bytes.
  EXPECT_EQ(t, RenderRunTable(rows, rec));
  // The rendered table parses back as a GFM table with one row per run.
  MdDocument d = ParseMarkdown(t);
  int tables = 0;
  for (const auto& n : d.nodes) tables += n.kind == MdKind::kTable;
  EXPECT_EQ(tables, 1);
}

TEST(RenderTableTest, StatusColumnOnlyWhenSomethingFailed) {
  std::vector<TableRow> rows = {Row({{"topk", "2"}}, 1), Row({{"topk", "8"}}, 2)};
  EXPECT_EQ(RenderRunTable(rows, {}).find("status"), std::string::npos);
  rows[1].status = "failed";
  rows[1].metrics.clear();
  const std::string t = RenderRunTable(rows, {});
  EXPECT_NE(t.find("| topk | status |"), std::string::npos);
  EXPECT_NE(t.find("| 8 | failed | - | - | - | - |"), std::string::npos);
}

TEST(RenderTableTest, RowFromRecordFlattensConfigAndOverlaysPoint) {
  RunRecord r;
  r.config_json = R"({"topk":[1,2,4],"backend":"gmm","shared_fused":true,"capacity_factor":1.25})";
  r.point = {{"topk", "4"}};
  r.metrics = {{"tflops", 3}};
  TableRow row = RowFromRecord(r);
  EXPECT_EQ(row.config["topk"], "4");
  EXPECT_EQ(row.config["backend"], "gmm");
  EXPECT_EQ(row.config["shared_fused"], "true");
  EXPECT_EQ(row.config["capacity_factor"], "1.25");
  r.config_json = "not json";
  EXPECT_EQ(RowFromRecord(r).config.size(), 1u);
}

}  // namespace
}  // namespace moelog::logbook
