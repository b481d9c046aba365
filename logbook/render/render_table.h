// Stage render/: result tables (this file), charts (chart.h) and templates
// (templates.h). Depends on doc/, store/ and criteria/.
//
// Deterministic Markdown result tables for owned regions: one row per run,
// the config columns that vary within the entry, then time (ms), TF/s
// (aggregate and per device) and tokens/s; when the entry's Result bullets
// state figures, "recorded" columns and the delta of moelog's figure to
// them. No timestamps, fixed number formats, stable column order.
#ifndef MOELOG_LOGBOOK_RENDER_TABLE_H_
#define MOELOG_LOGBOOK_RENDER_TABLE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "logbook/criteria/recorded.h"
#include "logbook/render/calibration.h"
#include "logbook/doc/document.h"
#include "logbook/store/run_store.h"

namespace moelog::logbook {

struct TableRow {
  std::map<std::string, std::string> config;  // flattened config overlaid with the run's point
  std::map<std::string, double> metrics;      // time_s, tflops, tflops_per_device, tokens_per_s, ...
  std::string status = "ok";                  // ok | failed | timeout | oom
  std::string target;                         // v5p (modeled) | cpu (measured)
  std::string cal_key;                        // modeled: what calibration groups it by (calibration.h)
  std::string version;                        // moelog's version that made the figures ("" unknown)
};

// Flattens a stored run: canonical config JSON (arrays of one value become
// that value, longer ones "a,b,c"), then the run's point on top.
TableRow RowFromRecord(const RunRecord& record);

// The config columns that vary across `rows`, in display order; columns whose
// values equal an earlier column's on every row are dropped (pass/bench_pass).
std::vector<std::string> VaryingColumns(const std::vector<TableRow>& rows);

// The table (ends with a newline). When `figures` (the entry's Result,
// recorded.h) place on rows, "recorded TF/s"/"recorded tokens/s" columns and
// moelog's delta to them are added; figures placed on no row are listed under
// the table with the reason, never put on a guessed row. Modeled rows on a
// path no calibration row covers say "unvalidated"; modeled rows with
// identical figures that differ in one column are merged, with a note.
//
// With `model` (calibration.h): each modeled row on a validated path shows
// its band ("TF/s p10-p90", from the model's past errors on that path) and,
// when the logbook's earlier entries recorded figures its calibration
// learns from, the calibrated figures with the uncalibrated TF/s beside them
// and a note saying what the factor was learned from. `when` is the entry's
// time: only figures of entries strictly before it count.
// The table comes under its caption, one line (at most ~200 characters):
// `lead` first when given ("Prediction, not run:"), then what the figures
// are (predicted by the model of a hardware file at a moelog version, or
// measured), the calibration factor, and where the terms are defined
// (`moelog help regions`). Notes only some tables need follow the table,
// one line each (at most kNoteChars).
std::string RenderRunTable(const std::vector<TableRow>& rows, const std::vector<RecordedFigure>& figures,
                           const ModelView* model = nullptr, const std::string& when = "",
                           const std::string& lead = "");

// Where each recorded figure goes on the table of `rows` (laid out once for
// both readers below), in document order: "row parallel_mode=none, topk=2",
// or "no row (matches no row)" for a figure listed under the table.
std::vector<std::string> RecordedPlaces(const std::vector<TableRow>& rows, const std::vector<RecordedFigure>& figures);

// Where each recorded figure went, one line per figure in document order:
//   "line 57: 192.868 TF/s, 619304 tokens/s -> row parallel_mode=none, topk=2"
//   "line 160: 192.707 TF/s -> no row (matches no row)"
std::string ExplainRecorded(const std::vector<std::string>& places, const std::vector<RecordedFigure>& figures);

// Figures as the logbook states them: "192.868 TF/s, 619304 tokens/s".
std::string FigureValuesText(const std::map<std::string, double>& metrics);
// A recorded run's figures in the units and digits they were written in
// where those differ from the stored unit ("4204 MB", "4.10 ms").
std::string RecordedValuesAsWritten(const StoredRun& run);
// The same, each number's digits grouped as the lines the figure was read
// from write them ("103602.71", not 103,602.71; "18,234,561").
std::string RecordedValuesAsWritten(const RecordedFigure& f);
// The figures of `f` a line it joined (RecordedFigure::joined_lines) writes:
// those of its values whose number `line_text` holds as a number of its own
// ("88.38 ms (latency_p50)" of "50%   88.38ms"), as RecordedValuesAsWritten
// shows them; "" when it writes none.
std::string JoinedLineValues(const RecordedFigure& f, const std::string& line_text);

// Whether each recorded figure is on a row of the table (false: it is listed
// under the table).
std::vector<bool> FiguresOnTable(const std::vector<std::string>& places);

// The region of an entry moelog ran nothing for, whose Result records
// figures: "Recorded in this logbook; moelog ran nothing.", the keys every
// figure shares, then one row per figure (its line, the keys that differ,
// its metrics in the units written: TF/s, tokens/s, time, GB/s, MFU, and
// the derived speedups and deltas marked so). Figures whose configurations
// cannot be told apart are listed under the table with their lines.
std::string RenderRecordedTable(const std::vector<RecordedFigure>& figures);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RENDER_TABLE_H_
