// Reader stage table: a cross of runs and statistics in one header row
// ("| Batch | Llama P50 | Llama P95 | Qwen3 P50 | Qwen3 P95 |"). Each
// header is a run's name and a statistic; the same statistics stand under
// two names at least. Each name is a run of its own (variant=Llama), each
// statistic a metric of it, so a row of the table is a row per name, never
// one row holding two models' figures (table_cross.cc).
#ifndef MOELOG_LOGBOOK_READER_TABLE_CROSS_H_
#define MOELOG_LOGBOOK_READER_TABLE_CROSS_H_

#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// A header split into its run's name and its statistic ("Llama P50 (ms)":
// "Llama", "P50", unit "(ms)" kept in `rest`).
struct CrossHeader {
  size_t column = 0;
  std::string name, statistic, rest;
};

// The cross headers of a table (none unless two names or more each head the
// same two statistics or more, and no name is a metric's: "TTFT P50 | TPOT
// P50" are metrics, not runs).
std::vector<CrossHeader> CrossHeaders(const std::vector<std::string>& headers);

// The table with its cross headers given the unit its caption or sub-heading
// names when none of them writes one ("### Per-step decode latency (ms)");
// false when it has no cross headers or they need none.
bool CrossUnitTable(const TableBlock& t, const EntryCtx& x, TableBlock* with_unit);

// Each cross column's metric is its statistic's (in the header's unit, or
// unitless), its scale variant=<name>; its header in `headers` becomes the
// statistic and unit alone, so the metric is named by the statistic.
void CrossColumns(std::vector<std::string>* headers, std::vector<ColumnInfo>* cols);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_CROSS_H_
