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

// The figures an entry's Result states, as RenderRunTable gets them.
std::vector<RecordedFigure> Figures(const std::string& entry_md) {
  const Logbook lb = ParseLogbook("# T\n## Experiment Log\n### 2026-01-01 10:00 - e\n" + entry_md, "t");
  EXPECT_EQ(lb.entries.size(), 1u);
  return lb.entries.empty() ? std::vector<RecordedFigure>{} : RecordedFigures(lb.entries[0]);
}

// "A X vs B Y" on one line states two figures, each for its own row: the gmm
// row gets gmm's figure, not the last number of the line; "2048/2048" names
// the hidden and mlp_dim the commands vary.
TEST(RenderTableTest, ComparedFiguresOnOneLineGoToTheirRows) {
  const std::string md =
      "- Command: `for be in gmm ragged_dot; do python bench_moe_hillclimb.py --hidden 2048 --mlp-dim 2048 "
      "--backend \"$be\"; done; for be in gmm ragged_dot; do python bench_moe_hillclimb.py --hidden 3072 "
      "--mlp-dim 3072 --backend \"$be\"; done`\n"
      "- Result:\n  - `2048/2048`: gmm `275.232` vs ragged_dot `268.852` TF/s (`-2.32%`)\n"
      "  - `3072/3072`: gmm `290.988` vs ragged_dot `288.094` TF/s (`-0.99%`)\n";
  std::vector<TableRow> rows = {Row({{"backend", "gmm"}, {"hidden", "2048"}, {"mlp_dim", "2048"}}, 270),
                                Row({{"backend", "ragged_dot"}, {"hidden", "2048"}, {"mlp_dim", "2048"}}, 265),
                                Row({{"backend", "gmm"}, {"hidden", "3072"}, {"mlp_dim", "3072"}}, 280),
                                Row({{"backend", "ragged_dot"}, {"hidden", "3072"}, {"mlp_dim", "3072"}}, 285)};
  const std::string t = RenderRunTable(rows, Figures(md));
  EXPECT_NE(t.find("| gmm | 2048 | 50.00 | 270.0 | 67.50 | 655,400 | 275.232 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| ragged_dot | 2048 | 50.00 | 265.0 | 66.25 | 655,400 | 268.852 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| gmm | 3072 | 50.00 | 280.0 | 70.00 | 655,400 | 290.988 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| ragged_dot | 3072 | 50.00 | 285.0 | 71.25 | 655,400 | 288.094 |"), std::string::npos) << t;
  EXPECT_EQ(t.find("placed on no row"), std::string::npos) << t;
}

// Several figures on one line ("full X, prequeue Y"), figures in sub-bullets
// under a config label, and tokens/s figures each reach their own row.
TEST(RenderTableTest, EveryRecordedFormReachesItsRow) {
  const std::string md =
      "- Command: `for qm in full prequeue; do for tk in 2 8; do python bench_moe_hillclimb.py --queue-mode \"$qm\" "
      "--topk \"$tk\"; done; done`\n"
      "- Result:\n  - `topk=2`: full `166.367`, prequeue `165.986`\n"
      "  - `topk=8`:\n    - `full`: `150.5 TF/s`, `500,000 tok/s`\n    - `prequeue`: `151.5 TF/s`\n";
  std::vector<TableRow> rows = {Row({{"queue_mode", "full"}, {"topk", "2"}}, 160),
                                Row({{"queue_mode", "prequeue"}, {"topk", "2"}}, 161),
                                Row({{"queue_mode", "full"}, {"topk", "8"}}, 140),
                                Row({{"queue_mode", "prequeue"}, {"topk", "8"}}, 141)};
  const std::string t = RenderRunTable(rows, Figures(md));
  EXPECT_NE(t.find("| 2 | full | 50.00 | 160.0 | 40.00 | 655,400 | 166.367 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| 2 | prequeue | 50.00 | 161.0 | 40.25 | 655,400 | 165.986 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| 8 | full | 50.00 | 140.0 | 35.00 | 655,400 | 150.5 | -7.0% | 500,000 | +31.1% |"),
            std::string::npos) << t;
  EXPECT_NE(t.find("| 8 | prequeue | 50.00 | 141.0 | 35.25 | 655,400 | 151.5 | -6.9% | - | - |"),
            std::string::npos) << t;
}

// A table written in the Result: each row's figures go to the row its
// label columns name.
TEST(RenderTableTest, TablesInResultReachTheirRows) {
  const std::string md =
      "- Command: `for pm in none ep; do python bench_moe_hillclimb.py --parallel-mode \"$pm\" --topk 2; done`\n"
      "- Result:\n\n  | path | topk | TF/s | tokens/s |\n  |---|---|---:|---:|\n"
      "  | `none` | 2 | 100.0 | 5,000 |\n  | `ep` | 2 | 150.0 | 6,000 |\n";
  std::vector<TableRow> rows = {Row({{"parallel_mode", "none"}, {"topk", "2"}}, 110),
                                Row({{"parallel_mode", "ep"}, {"topk", "2"}}, 120)};
  const std::string t = RenderRunTable(rows, Figures(md));
  EXPECT_NE(t.find("| none | 50.00 | 110.0 | 27.50 | 655,400 | 100.0 | +10.0% | 5,000 |"), std::string::npos) << t;
  EXPECT_NE(t.find("| ep | 50.00 | 120.0 | 30.00 | 655,400 | 150.0 | -20.0% | 6,000 |"), std::string::npos) << t;
}

// A figure that fits no row, or several, is listed under the table with the
// reason, never put on a guessed row.
TEST(RenderTableTest, FiguresThatFitNoRowAreListedNotGuessed) {
  const std::string md =
      "- Command: `for tk in 2 8; do python bench_moe_hillclimb.py --parallel-mode ep --topk \"$tk\"; done`\n"
      "- Result:\n  - `topk=4`: 99.0 TF/s\n  - 98.0 TF/s at both\n  - `topk=2`: 100.0 TF/s\n";
  std::vector<TableRow> rows = {Row({{"topk", "2"}}, 110), Row({{"topk", "8"}}, 120)};
  const std::string t = RenderRunTable(rows, Figures(md));
  EXPECT_NE(t.find("| 2 | 50.00 | 110.0 | 27.50 | 655,400 | 100.0 | +10.0% |"), std::string::npos) << t;
  EXPECT_NE(t.find("| 8 | 50.00 | 120.0 | 30.00 | 655,400 | - | - |"), std::string::npos) << t;
  EXPECT_NE(t.find("- 99.0 TF/s, from \"`topk=4`: 99.0 TF/s\": matches no row"), std::string::npos) << t;
  EXPECT_NE(t.find("matches several rows"), std::string::npos) << t;
}

TEST(RenderTableTest, RecordedColumnAndDeltaFromResultBullets) {
  const std::string md = "- Command: `for pm in none ep; do python bench_moe_hillclimb.py --parallel-mode \"$pm\"; done`\n"
                         "- Result:\n  - `none, topk=2`: 100.0 TF/s\n  - `ep, topk=2`: 150.0 TF/s\n"
                         "  - `ep, topk=8`: 1.0 TF/s\n";
  const auto rec = Figures(md);
  ASSERT_EQ(rec.size(), 3u);
  std::vector<TableRow> rows = {Row({{"parallel_mode", "none"}, {"topk", "2"}}, 110),
                                Row({{"parallel_mode", "ep"}, {"topk", "2"}}, 120)};
  const std::string t = RenderRunTable(rows, rec);
  const auto lines = SplitLines(t);
  ASSERT_GE(lines.size(), 6u);
  // The caption first, what the figures are: these rows have no target, so cpu.
  EXPECT_EQ(lines[0].rfind("Measured by moelog on this machine's CPU", 0), 0u) << lines[0];
  EXPECT_TRUE(lines[1].empty());
  EXPECT_EQ(lines[2], "| parallel_mode | time (ms) | TF/s | TF/s/device | tokens/s | recorded TF/s | measured vs logbook |");
  rows[0].target = rows[1].target = "v5p";
  EXPECT_EQ(SplitLines(RenderRunTable(rows, rec))[0].rfind("Predicted by v5p model", 0), 0u);
  rows[0].target = rows[1].target = "";
  EXPECT_EQ(lines[4], "| none | 50.00 | 110.0 | 27.50 | 655,400 | 100.0 | +10.0% |");
  EXPECT_EQ(lines[5], "| ep | 50.00 | 120.0 | 30.00 | 655,400 | 150.0 | -20.0% |");
  // The topk=8 figure has no row: listed, not placed.
  EXPECT_NE(t.find("- 1.0 TF/s, from \"`ep, topk=8`: 1.0 TF/s\": matches no row"), std::string::npos) << t;
  // Deterministic: same input, same bytes.
  EXPECT_EQ(t, RenderRunTable(rows, rec));
  // The rendered table parses back as a GFM table with one row per run.
  MdDocument d = ParseMarkdown(t);
  int tables = 0;
  for (const auto& n : d.nodes) tables += n.kind == MdKind::kTable;
  EXPECT_EQ(tables, 1);
}

// One row per configuration: modeled rows with identical figures keep their
// rows (equal figures are a finding, said under the table); an uncalibrated
// path is marked unvalidated; invocations of one configuration are one row.
TEST(RenderTableTest, EqualModeledFiguresKeepTheirRowsAndUnvalidatedPathsSaySo) {
  std::vector<TableRow> rows = {Row({{"distribution", "random"}, {"quant_mode", "none"}}, 100),
                                Row({{"distribution", "runs"}, {"quant_mode", "none"}}, 100),
                                Row({{"distribution", "random"}, {"quant_mode", "int8"}}, 90)};
  for (auto& r : rows) r.target = "v5p";
  const std::string t = RenderRunTable(rows, {});
  EXPECT_EQ(t.find(" / "), std::string::npos) << t;
  EXPECT_NE(t.find("| random | none |"), std::string::npos) << t;
  EXPECT_NE(t.find("| runs | none |"), std::string::npos) << t;
  EXPECT_NE(t.find("Rows that differ only in distribution have identical modeled figures"), std::string::npos) << t;
  EXPECT_NE(t.find("| unvalidated (quant_mode=int8) |"), std::string::npos) << t;
  EXPECT_NE(t.find("| validated |"), std::string::npos) << t;
  // A figure naming no distribution fits both rows: listed, with what it leaves unnamed.
  RecordedFigure f;
  f.run.config = {{"quant_mode", "none"}};
  f.run.metrics = {{"tflops", 101}};
  f.text = "none 101 TF/s";
  const std::string listed = RenderRunTable(rows, {f});
  EXPECT_NE(listed.find("matches several rows (names no distribution: random, runs; the model gives each 100.0 TF/s, -1.0% vs this figure)"), std::string::npos) << listed;
  // The same configuration twice (a repeated run) is one row.
  rows.push_back(rows[0]);
  const std::string once = RenderRunTable(rows, {});
  EXPECT_EQ(once.find("| random | none |", once.find("| random | none |") + 1), std::string::npos) << once;
  EXPECT_NE(once.find("shown once"), std::string::npos) << once;
  // Measured rows never merge: two equal measurements are two measurements.
  for (auto& r : rows) r.target = "cpu";
  const std::string cpu = RenderRunTable(rows, {});
  EXPECT_NE(cpu.find("| random | none |", cpu.find("| random | none |") + 1), std::string::npos) << cpu;
}

// What bounds a stage in the model's output (--stage-timing) is no setting:
// never a column, even when it differs between rows.
TEST(RenderTableTest, StageBoundIsNoColumn) {
  std::vector<TableRow> rows = {Row({{"shared_expert_dim", "0"}}, 100), Row({{"shared_expert_dim", "5632"}}, 120)};
  rows[1].config["stage_bound_shared"] = "MXU";
  const std::string t = RenderRunTable(rows, {});
  EXPECT_EQ(t.find("stage_bound"), std::string::npos) << t;
  EXPECT_NE(t.find("| shared_expert_dim |"), std::string::npos) << t;
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

namespace moelog::logbook {
namespace {

// A region opens with one caption line of at most ~200 characters (the
// terms are in `moelog help regions`); moelog's figures in significant
// digits with grouped tokens/s; a recorded time keeps its author's digits.
TEST(LeanRegions, OneShortCaptionLineThenTheTable) {
  std::vector<TableRow> rows = {Row({{"parallel_mode", "none"}}, 189.4897), Row({{"parallel_mode", "ep"}}, 149.0741)};
  for (auto& r : rows) r.target = "v5p", r.version = "0.1.0";
  const std::string md = "- Command: `python bench_moe_hillclimb.py --parallel-mode none`\n"
                         "- Result:\n  - `none`: step 0.406 s\n";
  const std::string t = RenderRunTable(rows, Figures(md));
  const std::string first = t.substr(0, t.find('\n'));
  EXPECT_LE(first.size(), 200u) << first;
  EXPECT_EQ(first.rfind("Predicted by v5p model (v5p.json, moelog 0.1.0)", 0), 0u) << first;
  EXPECT_NE(first.find("moelog help regions"), std::string::npos) << first;
  EXPECT_EQ(t.substr(t.find('\n'), 3), "\n\n|") << t;
  for (size_t pos = 0, nl; (nl = t.find('\n', pos)) != std::string::npos; pos = nl + 1)
    if (t[pos] != '|') {
      EXPECT_LE(nl - pos, 300u) << t.substr(pos, nl - pos);
    }
  EXPECT_NE(t.find("| 50.00 | 189.5 | 47.37 | 655,400 |"), std::string::npos) << t;
  EXPECT_EQ(t.find("189.490"), std::string::npos) << t;
  EXPECT_EQ(t.find("406.000"), std::string::npos) << t;
  if (t.find("recorded time (ms)") != std::string::npos) {
    EXPECT_NE(t.find("| 406 |"), std::string::npos) << t;
  }
}

TEST(LeanRegions, APredictionSaysSoFirst) {
  std::vector<TableRow> rows = {Row({{"quant_mode", "none"}}, 100), Row({{"quant_mode", "int8"}}, 150)};
  for (auto& r : rows) r.target = "v5p";
  const std::string t = RenderRunTable(rows, {}, nullptr, "", "Prediction, not run:");
  EXPECT_EQ(t.rfind("Prediction, not run: predicted by v5p model", 0), 0u) << t;
  EXPECT_LE(t.find('\n'), 200u);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// A recorded figure is shown as written: a memory figure in the unit its
// author wrote it in, a run's wall time in minutes, never converted to a
// unit the author did not write.
TEST(RenderRecordedTable, FiguresAreShownInTheUnitWritten) {
  RecordedFigure mem, wall;
  mem.run.metrics["memory_mib"] = 12.3 * 1024, mem.run.units["memory_mib"] = "GiB", mem.run.decimals["memory_mib"] = 1;
  mem.run.config["step"] = "1";
  wall.run.metrics["wall_time_s"] = 960, wall.run.units["wall_time_s"] = "minutes", wall.run.decimals["wall_time_s"] = 0;
  wall.run.config["step"] = "2";
  const std::string out = RenderRecordedTable({mem, wall});
  EXPECT_NE(out.find("memory (GiB)"), std::string::npos) << out;
  EXPECT_NE(out.find("| 12.3 |"), std::string::npos) << out;
  EXPECT_NE(out.find("wall time (minutes)"), std::string::npos) << out;
  EXPECT_NE(out.find("| 16 |"), std::string::npos) << out;
}


// A configuration value holding '|' ("Store||XOR") stays one cell: the
// pipe is escaped, never a new column that shifts the row.
TEST(RenderRecordedTable, APipeInAValueIsEscaped) {
  RecordedFigure a, b;
  a.run.metrics["cycles"] = 5118, a.run.units["cycles"] = "cycles", a.run.decimals["cycles"] = 0;
  a.run.config["case"] = "Store||XOR";
  b.run.metrics["cycles"] = 4991, b.run.units["cycles"] = "cycles", b.run.decimals["cycles"] = 0;
  b.run.config["case"] = "Triple";
  const std::string out = RenderRecordedTable({a, b});
  EXPECT_NE(out.find("| Store\\|\\|XOR |"), std::string::npos) << out;
  EXPECT_EQ(out.find("Store||XOR"), std::string::npos) << out;
}

// Figures written in GFLOPS (stored as TF/s), with a magnitude ("221k"), in
// cycles or as a utilization are shown as written under their unit.
TEST(RenderRecordedTable, OtherUnitsAndMagnitudesAreShownAsWritten) {
  RecordedFigure a, b;
  a.run.metrics["tflops"] = 0.2351, a.run.units["tflops"] = "GFLOPS", a.run.decimals["tflops"] = 1;
  a.run.metrics["tokens_per_s"] = 221000, a.run.units["tokens_per_s"] = "k tokens/s", a.run.decimals["tokens_per_s"] = 0;
  a.run.config["kernel"] = "tiled";
  b.run.metrics["cycles"] = 14410, b.run.units["cycles"] = "cycles", b.run.decimals["cycles"] = 0;
  b.run.metrics["utilization_pct"] = 91.8, b.run.units["utilization_pct"] = "%", b.run.decimals["utilization_pct"] = 1;
  b.run.config["kernel"] = "packed";
  const std::string out = RenderRecordedTable({a, b});
  EXPECT_NE(out.find("| GFLOPS |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 235.1 |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 221k |"), std::string::npos) << out;
  EXPECT_NE(out.find("| cycles |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 14,410 |"), std::string::npos) << out;
  EXPECT_NE(out.find("utilization %"), std::string::npos) << out;
  EXPECT_NE(out.find("| 91.8 |"), std::string::npos) << out;
}

// A column of GFLOPS beside a figure written in TFLOP/s: each shown as
// written, the other unit's figure with its unit ("12.4 TF/s"), never
// converted to the column's ("12400.000").
TEST(RenderRecordedTable, AFigureInAnotherUnitOfItsColumnKeepsItsUnit) {
  RecordedFigure a, b, c;
  a.run.metrics["tflops"] = 0.303, a.run.units["tflops"] = "GFLOPS", a.run.decimals["tflops"] = 1;
  a.run.config["kernel"] = "naive";
  b.run.metrics["tflops"] = 1.25, b.run.units["tflops"] = "GFLOPS", b.run.decimals["tflops"] = 0;
  b.run.config["kernel"] = "tiled";
  c.run.metrics["tflops"] = 12.4, c.run.units["tflops"] = "TF/s", c.run.decimals["tflops"] = 1;
  c.run.config["kernel"] = "wmma";
  const std::string out = RenderRecordedTable({a, b, c});
  EXPECT_NE(out.find("| GFLOPS |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 303.0 |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 12.4 TF/s |"), std::string::npos) << out;
  EXPECT_EQ(out.find("12400"), std::string::npos) << out;
}

// A figure stored as written under a metric of its own name ("Before:
// 219MB" read as before_mb, not converted to MiB) is shown as written, in
// its table cell and in its fate line.
TEST(RenderRecordedTable, AFigureStoredAsWrittenIsNotConvertedAgain) {
  RecordedFigure a;
  a.run.metrics["before_mb"] = 219, a.run.units["before_mb"] = "MB", a.run.decimals["before_mb"] = 0;
  a.run.metrics["after_mb"] = 276, a.run.units["after_mb"] = "MB", a.run.decimals["after_mb"] = 0;
  const std::string out = RenderRecordedTable({a});
  EXPECT_NE(out.find("| 276 | 219 |"), std::string::npos) << out;
  // Named without the unit its name spells: the figure says it.
  EXPECT_EQ(RecordedValuesAsWritten(a.run), "276 MB (after), 219 MB (before)");
}

TEST(FigureValues, ADerivedOnlyFigureIsStillNamed) {
  // --show-recorded names every figure: one of a speedup alone is no empty list.
  EXPECT_EQ(FigureValuesText({{"speedup", 6.41}}), "6.41 speedup");
  EXPECT_EQ(FigureValuesText({{"speedup", 2}, {"time_s", 0.5}}), "0.5 s");  // beside a measurement, as before
}

TEST(FigureValues, RecordedFiguresAreNamedAsWritten) {
  // "4204 MB" is stored as 4009.25 MiB and "4.10 ms" as 0.0041 s; the fate
  // line names them in the author's unit and digits.
  StoredRun run;
  // A statistic after the metric ("p50 latency 182 ms": time_s_p50) is one too.
  run.metrics = {{"memory_mib", 4204 * 0.95367431640625}, {"time_s", 0.0041}, {"p90_time_s", 0.0123},
                 {"time_s_p50", 0.182}};
  run.units = {{"memory_mib", "MB"}, {"time_s", "ms"}, {"p90_time_s", "ms"}, {"time_s_p50", "ms"}};
  run.decimals = {{"memory_mib", 0}, {"time_s", 2}, {"p90_time_s", 1}, {"time_s_p50", 0}};
  // The name of a figure written in ms says no unit of its own ("p90", not p90_time_s).
  EXPECT_EQ(RecordedValuesAsWritten(run), "4204 MB, 12.3 ms (p90), 4.10 ms, 182 ms (p50)");
  run.units.erase("memory_mib");  // no written unit: as stored
  EXPECT_EQ(RecordedValuesAsWritten(run), "4009.25 memory_mib, 12.3 ms (p90), 4.10 ms, 182 ms (p50)");
}

}  // namespace
}  // namespace moelog::logbook
