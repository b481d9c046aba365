// Stage render/: result tables (this file), charts (chart.h) and templates
// (templates.h). Depends on doc/, store/ and criteria/.
//
// Deterministic Markdown result tables for owned regions: one row per run,
// the config columns that vary within the entry, then time (ms), TF/s
// (aggregate and per device) and tokens/s; when the entry's Result bullets
// state numbers, a "recorded TF/s" column and the delta of moelog's figure
// to it. No timestamps, fixed number formats, stable column order.
#ifndef MOELOG_LOGBOOK_RENDER_TABLE_H_
#define MOELOG_LOGBOOK_RENDER_TABLE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/store/run_store.h"

namespace moelog::logbook {

struct TableRow {
  std::map<std::string, std::string> config;  // flattened config overlaid with the run's point
  std::map<std::string, double> metrics;      // time_s, tflops, tflops_per_device, tokens_per_s, ...
  std::string status = "ok";                  // ok | failed | timeout | oom
  std::string target;                         // v5p (modeled) | cpu (measured)
};

// Flattens a stored run: canonical config JSON (arrays of one value become
// that value, longer ones "a,b,c"), then the run's point on top.
TableRow RowFromRecord(const RunRecord& record);

// The config columns that vary across `rows`, in display order; columns whose
// values equal an earlier column's on every row are dropped (pass/bench_pass).
std::vector<std::string> VaryingColumns(const std::vector<TableRow>& rows);

// The recorded TF/s a Result bullet states for `row`: the bullet whose label
// ("`none, topk=2`") names only values of the row's varying columns, taking
// its single TF/s number. With one row and one TF/s bullet, that bullet.
std::optional<double> RecordedTflops(const TableRow& row, const std::vector<std::string>& varying,
                                     const std::vector<const Bullet*>& recorded, size_t row_count);

// The table (ends with a newline). `recorded` may be empty.
std::string RenderRunTable(const std::vector<TableRow>& rows, const std::vector<const Bullet*>& recorded);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RENDER_TABLE_H_
