// The blocks stage on tables written as raw HTML in a Markdown logbook: a
// header row and rows, cells without their tags, each row on its line; and
// the figures of such a table, each on its row's line.
#include <gtest/gtest.h>

#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/blocks_html.h"
#include "logbook/reader/internal.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook {
namespace {

TEST(BlocksHtml, RowsOneALine) {
  const auto tables = HtmlTables(
      "<table>\n"                                                           // line 10
      "<tr><th>kernel</th><th>latency (ms)</th></tr>\n"                    // 11
      "<tr><td><code>naive</code></td><td>0.412</td></tr>\n"               // 12
      "<tr><td>tiled &amp; fused</td><td>0.231&nbsp;</td></tr>\n"          // 13
      "</table>\n",
      10);
  ASSERT_EQ(tables.size(), 1u);
  const HtmlTable& t = tables[0];
  EXPECT_EQ(t.line, 10);
  EXPECT_EQ(t.end_line, 14);
  ASSERT_EQ(t.header.size(), 2u);
  EXPECT_EQ(t.header[1], "latency (ms)");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0][0], "naive");
  EXPECT_EQ(t.rows[1][0], "tiled & fused");
  EXPECT_EQ(t.rows[1][1], "0.231");
  ASSERT_EQ(t.row_lines.size(), 2u);
  EXPECT_EQ(t.row_lines[0], 12);
  EXPECT_EQ(t.row_lines[1], 13);
}

TEST(BlocksHtml, OneTagALineUnderAHead) {
  const auto tables = HtmlTables(
      "<table>\n<thead>\n<tr>\n<th>Config</th>\n<th>Time</th>\n</tr>\n</thead>\n"  // lines 1-7
      "<tbody>\n<tr>\n<td>page=16</td>\n<td>2.84 <b>ms</b></td>\n</tr>\n</tbody>\n</table>\n",  // 8-14
      1);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].header.size(), 2u);
  EXPECT_EQ(tables[0].header[0], "Config");
  ASSERT_EQ(tables[0].rows.size(), 1u);
  EXPECT_EQ(tables[0].rows[0][1], "2.84 ms");
  EXPECT_EQ(tables[0].row_lines[0], 11);  // the line its figure is written on
}

TEST(BlocksHtml, NoHeaderNoTable) {
  EXPECT_TRUE(HtmlTables("<table><tr><td>1</td><td>2</td></tr></table>", 1).empty());
  EXPECT_TRUE(HtmlTables("<div>a < b</div>", 1).empty());
  EXPECT_FALSE(HoldsHtmlTable("<p>the <em>table</em> below</p>"));
  EXPECT_TRUE(HoldsHtmlTable("<TABLE border=1>"));
}

TEST(BlocksHtml, AnEntrysHtmlTableGivesARowOfFiguresALine) {
  const auto figs = reader::ReadEntry(
      "# Decode log\n\n## 2026-03-02 Split-K decode\n\n",  // entry heading: line 3
      "```bash\npython bench_decode.py --seq 4096\n```\n\n"  // 5-7
      "<table>\n"                                                                                  // 9
      "<tr><th>variant</th><th>batch</th><th>latency (ms)</th></tr>\n"                            // 10
      "<tr><td>baseline</td><td>1</td><td>0.412</td></tr>\n"                                      // 11
      "<tr><td>split-k</td><td>8</td><td>1.107</td></tr>\n"                                       // 12
      "</table>\n");
  const RecordedFigure* base = reader::OnLine(figs, 11);
  const RecordedFigure* split = reader::OnLine(figs, 12);
  ASSERT_NE(base, nullptr);
  ASSERT_NE(split, nullptr);
  EXPECT_TRUE(base->table);
  EXPECT_NEAR(base->run.metrics.at("time_s"), 0.412e-3, 1e-12);
  EXPECT_EQ(base->run.units.at("time_s"), "ms");
  EXPECT_EQ(base->run.decimals.at("time_s"), 3);
  EXPECT_EQ(split->run.config.at("batch"), "8");
  EXPECT_NE(base->run.config, split->run.config);
}

TEST(BlocksHtml, ATagALineTableGivesEachRowsFiguresTheirLine) {
  const auto figs = reader::ReadEntry(
      "# Decode log\n\n## 2026-03-04 Paged variant\n\n",
      "```bash\npython bench_decode.py --seq 8192 --paged\n```\n\n"  // 5-7
      "<table>\n<thead>\n<tr>\n<th>Config</th>\n<th>Time</th>\n</tr>\n</thead>\n"  // 9-15
      "<tbody>\n<tr>\n<td>page=16</td>\n<td>2.84 ms</td>\n</tr>\n"                  // 16-20
      "<tr>\n<td>page=64</td>\n<td>2.51 ms</td>\n</tr>\n</tbody>\n</table>\n");      // 21-26
  const RecordedFigure* p16 = reader::OnLine(figs, 19);
  const RecordedFigure* p64 = reader::OnLine(figs, 23);
  ASSERT_NE(p16, nullptr);
  ASSERT_NE(p64, nullptr);
  EXPECT_NEAR(p16->run.metrics.at("time_s"), 2.84e-3, 1e-12);
  EXPECT_NEAR(p64->run.metrics.at("time_s"), 2.51e-3, 1e-12);
  EXPECT_NE(p16->run.config, p64->run.config);
}

// A blank line inside an HTML table (a generated report's cells) splits it
// into several HTML blocks for Markdown: read on to its end all the same.
TEST(BlocksHtml, ABlankLineInsideTheTableEndsNoTable) {
  const auto figs = reader::ReadEntry(
      "# Router log\n\n## 2026-04-02 Cached router\n\n",
      "```bash\nphp bench.php --filter cached\n```\n\n"      // 5-7
      "<table>\n<thead><th>subject</th><th>mean</th></thead>\n"  // 9, 10
      "<tr><td>benchLast</td><td>0.031 ms\n\n</td></tr>\n"        // 11-13
      "<tr><td>benchAll</td><td>2.402 ms\n\n</td></tr>\n"         // 14-16
      "</table>\n");
  const RecordedFigure* last = reader::OnLine(figs, 11);
  const RecordedFigure* all = reader::OnLine(figs, 14);
  ASSERT_NE(last, nullptr);
  ASSERT_NE(all, nullptr);
  EXPECT_NEAR(all->run.metrics.at("time_s"), 2.402e-3, 1e-12);
  EXPECT_NE(last->run.config, all->run.config);
}

// A two-level header: groups spanning columns over their own headers; each
// column is named by both, a cell spanning both rows by itself.
TEST(BlocksHtml, TwoLevelHeaderNamesEachColumnByItsGroup) {
  const auto tables = HtmlTables(
      "<table>\n"
      "<tr><th rowspan=\"2\">Seq</th><th colspan=\"2\">Forward</th><th colspan=2>Backward</th></tr>\n"
      "<tr><th>us</th><th>GB/s</th><th>us</th><th>GB/s</th></tr>\n"
      "<tr><td>2048</td><td>310</td><td>1204</td><td>655</td><td>1140</td></tr>\n"
      "</table>\n",
      1);
  ASSERT_EQ(tables.size(), 1u);
  const std::vector<std::string> want = {"Seq", "Forward / us", "Forward / GB/s", "Backward / us",
                                         "Backward / GB/s"};
  EXPECT_EQ(tables[0].header, want);
  ASSERT_EQ(tables[0].rows.size(), 1u);
  EXPECT_EQ(tables[0].row_lines[0], 4);
}

TEST(BlocksHtml, TwoLevelHeaderPutsEachFigureUnderItsMetric) {
  const auto figs = reader::ReadEntry(
      "# Attention log\n\n## 2026-05-11 Varlen attention\n\n",  // entry heading: line 3
      "```bash\npython bench_attn.py --varlen\n```\n\n"            // 5-7
      "<table>\n"                                                     // 9
      "<tr><th rowspan=2>Seq</th><th colspan=2>Forward</th><th colspan=2>Backward</th></tr>\n"
      "<tr><th>us</th><th>GB/s</th><th>us</th><th>GB/s</th></tr>\n"
      "<tr><td>2048</td><td>310</td><td>1204</td><td>655</td><td>1140</td></tr>\n"  // 12
      "</table>\n");
  const RecordedFigure* f = reader::OnLine(figs, 12);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->table);
  ASSERT_EQ(f->run.metrics.count("forward_time_s"), 1u);
  EXPECT_NEAR(f->run.metrics.at("forward_time_s"), 310e-6, 1e-12);
  ASSERT_EQ(f->run.metrics.count("backward_time_s"), 1u);
  EXPECT_NEAR(f->run.metrics.at("backward_time_s"), 655e-6, 1e-12);
  EXPECT_EQ(f->run.config.at("seq"), "2048");
}

}  // namespace
}  // namespace moelog::logbook
