// Parts the table files of render/ share (render_table.h is their public
// face): how a cell prints (table_cells.cc), the rows a run table shows and
// where the entry's recorded figures go on them (table_place.cc), and the
// columns of a table of recorded figures (recorded_columns.cc). Not for use
// outside render/.
#ifndef MOELOG_LOGBOOK_RENDER_TABLE_PARTS_H_
#define MOELOG_LOGBOOK_RENDER_TABLE_PARTS_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "logbook/criteria/recorded.h"
#include "logbook/numbers.h"
#include "logbook/render/render_table.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook::table_parts {

// The order config columns show in (then the others, by name).
inline constexpr const char* kPriority[] = {
    "mlp_path", "parallel_mode", "topk", "routing_pack_strategy", "distribution", "queue_mode", "mode",
    "remat_mode", "quant_mode", "backend", "impl", "bench_pass", "pass", "tokens", "hidden",
    "mlp_dim", "experts", "shared_expert_dim", "shared_fused", "dtype"};

// Appends " TEXT |" (one table cell).
void Cell(std::string* out, const std::string& text);
// A cell's text with "|" escaped and line breaks made spaces.
std::string EscapeCell(std::string s);

// The metric cells of a row as the run table prints them.
std::string MetricCells(const TableRow& r, bool per_device = true);

// The repeats a recorded figure is the median of: " (median of 3,
// 191.837-191.897)"; "" for a single figure.
std::string RepeatsText(const StoredRun& run, const std::string& metric, double scale, int decimals);
// A recorded figure's value at `decimals` (its written ones); the median of
// an even count of repeats (a mean of two) gets one more digit when needed.
std::string MedianText(const StoredRun& run, const std::string& metric, double value, int decimals);
// Seconds per unit of a time as written ("ms": 1e-3); 0 for no time unit.
double TimeUnitSeconds(const std::string& u);
// The decimals a recorded figure keeps when shown at `scale` (stored value
// times scale): its author's, moved by the unit change, so `0.406 s` shows
// as `406` ms, never `406.000`; `fallback` when its digits are unknown.
int ShownDecimals(const StoredRun& run, const std::string& metric, double scale, int fallback);
// Whether `metric` is one of a unit's metric `base` ("p90_time_s" of
// time_s): its figures are stored in that metric's unit.
bool MetricOfUnit(const std::string& metric, const std::string& base);

// A table row as shown: the cells of the varying columns and the runs it
// stands for (several when invocations ran the same configuration).
struct ShownRow {
  std::vector<std::string> cells;
  std::vector<size_t> members;
};

// One row per configuration (table_place.cc says how rows merge); `equal`
// receives the columns the model gives identical figures for ("" marks a
// configuration shown once for several invocations).
std::vector<ShownRow> ShowRows(const std::vector<TableRow>& rows, const std::vector<std::string>& varying,
                               const std::vector<std::string>& model_path, std::set<std::string>* equal);

// The recorded figures of a table: per shown row, the TF/s and tokens/s the
// entry's Result states for it, and the list of figures placed on no row.
struct RecordedCells {
  std::vector<std::optional<double>> tflops, tokens, time;  // time in seconds
  std::vector<std::string> tflops_text, tokens_text, time_text;  // the cells as shown (author's digits, repeats)
  bool any_tflops = false, any_tokens = false, any_time = false;
  std::string unplaced;      // "\n\nRecorded figures placed on no row:\n\n- ...\n" or ""
  std::vector<std::string> where;  // per figure: "row k=v, ..." or "no row (why)"

  // The "recorded" and "delta" cells of `metric` for row `r`.
  static void Append(const TableRow& r, const char* metric, const std::optional<double>& rec, const std::string& shown,
                     std::string* out, const std::string& mark = "") {
    if (!rec) {
      *out += " - | - |";
      return;
    }
    Cell(out, shown);
    auto m = r.metrics.find(metric);
    if (m == r.metrics.end() || *rec == 0) {
      *out += " - |";
      return;
    }
    const double d = (m->second - *rec) / *rec * 100.0;
    std::string delta = d >= 0 ? "+" : "";
    delta.append(Fixed(d, 1)).append("%");
    Cell(out, delta + mark);
  }
};

// Where each recorded figure goes on the shown rows.
RecordedCells PlaceRecorded(const std::vector<TableRow>& rows, const std::vector<std::string>& varying,
                            const std::vector<ShownRow>& shown, const std::vector<RecordedFigure>& figures);

// Per row: "unvalidated (quant_mode=int8)" for a modeled row on a path no
// calibration row measured, "" otherwise.
std::vector<std::string> ModelPaths(const std::vector<TableRow>& rows);

// A recorded metric's column: header and how a value prints.
struct RecordedColumn {
  std::string metric, header;
  double scale = 1;  // stored value -> shown value (time_s in ms: 1e3)
  int decimals = 3;
  std::string unit;  // the unit shown, when it is the unit figures were written in ("ms")
};

// The columns of a table of recorded figures, in order.
std::vector<RecordedColumn> RecordedColumns(const std::vector<RecordedFigure>& figures);
// A figure's digits grouped as `written` (the lines it was read from)
// writes them: "9,118,240" when they are written so, "1306.66" when plain;
// `shown` otherwise.
std::string AsWrittenGrouping(const std::string& written, const std::string& shown);
// A recorded figure's cell in column `c`.
std::string RecordedCell(const RecordedFigure& f, const RecordedColumn& c);

}  // namespace moelog::logbook::table_parts

#endif  // MOELOG_LOGBOOK_RENDER_TABLE_PARTS_H_
