// Reader stage table, a ledger of changes: a table of what was tried, one
// row each, whose figures are the changes each made, written in a column of
// their own ("| # | Optimization | Measured Impact | Status |" over "| 1 |
// I/O overlap | +8.1% decode | DONE |", "| J2 | NativeAOT | -14% p99, -60%
// RSS |", "| BLOCK_K=128 | +2% to +9% worse |"). Each row is its change's
// record: the changes are derived figures named by the words after them
// (`decode_change_pct`, `p99_change_pct`), a span's two ends apart
// (`change_from_pct`, `change_to_pct`). The direction words are data: data/reader/table.json
// change_directions.
#ifndef MOELOG_LOGBOOK_READER_TABLE_LEDGER_H_
#define MOELOG_LOGBOOK_READER_TABLE_LEDGER_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

struct EntryCtx;
struct ColumnInfo;
using Config = std::map<std::string, std::string>;

// One change a cell states: its value as written (sign kept), its unit
// ("%", "x", "ms", or ""), the name the words after it give ("" for none),
// and whether it is the far end of a span ("+2% to +9%").
struct ChangeItem {
  double value = 0;
  std::string digits, unit, name;
  int end = 0;  // 0: a change alone; 1, 2: a span's near and far end
};

// The changes a cell states ("-14% p99, -60% RSS", "+2% to +9% worse",
// "12% regression", "+70 final, -1ms p99"); empty for a cell that is no
// change (an unsigned share "95.3%" with no direction word, a remark).
std::vector<ChangeItem> ChangeItems(const std::string& cell);

// The metric a change is stored under (`p99_change_pct`, `change_x`,
// `final_change`, `large_change_to_pct`).
std::string ChangeMetric(const ChangeItem& item);

// Whether `metric` names a ledger's change (ChangeMetric: `change_pct`,
// `p99_change_pct`): a derived figure, charted never.
bool LedgerChangeMetric(const std::string& metric);

// Whether a figure set's metrics are a ledger's changes alone (its row's record).
bool LedgerChanges(const StoredRun& run);

// The rows of `t` when it is such a ledger (no column names a metric; one
// column holds a change in most of its cells): a run each, keyed by its
// other cells, with its changes; the decimals of other columns, which name
// no metric, listed row by row in `unread`. False, nothing read, for any
// other table.
bool LedgerTableFigures(const TableBlock& t, const std::vector<ColumnInfo>& cols, const Config& context,
                        const EntryCtx& x, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_LEDGER_H_
