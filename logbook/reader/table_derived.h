// Reader stage table, derived and factor columns. A derived column beside
// a row's runs ("| Batch | Ours (us) | FLA (us) | Speedup |" over "| 1 |
// 7.76 | 30.00 | 3.86x |", "| | iter-0 | iter-1 | Δ |" over "| p50 | 75
// ms | 18 ms | -76% |") compares two of the row's runs; it is shown on the
// row of the run it describes, found by the arithmetic it writes: a speedup
// is the faster run's (a time's ratio has the faster one below the line, a
// rate's above), a change the run it was taken to. A figure no pair of the
// row's runs works out to stays on no row, as a derived figure of no run.
#ifndef MOELOG_LOGBOOK_READER_TABLE_DERIVED_H_
#define MOELOG_LOGBOOK_READER_TABLE_DERIVED_H_

#include <string>
#include <utility>
#include <vector>

#include "logbook/reader/internal.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook::reader {

// Moves each derived metric of `derived` (a figure set of derived figures
// only) onto the one run of `runs` it works out for; the metrics placed
// leave `derived`.
void AttachDerived(StoredRun* derived, const std::vector<StoredRun*>& runs);

// A table row's figure sets (by "@value" or run column): each set of
// derived figures only goes onto the runs of the others (AttachDerived);
// DerivedOnRuns returns the sets so placed.
void AttachDerivedSets(std::vector<std::pair<std::string, StoredRun>>* sets);
std::vector<std::pair<std::string, StoredRun>> DerivedOnRuns(std::vector<std::pair<std::string, StoredRun>> sets);

// Columns of factors and ratios, named before the rows are read:
// - RatioColumns: beside a column of a measured metric, a column headed as
//   a ratio over "x" cells ("| v0.9.51 | v0.9.52 | Ratio |" over "0.76x") or
//   as a comparison ("| vs chunk |" over "0.87x") is a derived speedup, the
//   latter named by what it compares with; a table of ratios alone (a
//   datasheet's ratio of two devices' ratings) is left as it is.
// - FactorColumns: in a table whose columns measure nothing else, the
//   columns of factors ("2.13x") and those headed as a ratio over bare
//   numbers ("| Ratio (Rust/C) |" over "0.70") hold the runs' measurements.
bool FactorCells(const TableBlock& t, size_t c);
// The metric a header names for a column of percentages: its words joined
// ("Peak BW%" -> peak_bw, "OGE Pass@1 (dry)" -> oge_pass_1_dry); "" when it
// has no letter or holds a ratio's slash.
std::string PercentColumnName(const std::string& header);
// Whether every cell of column `c` that holds something is a bare number, and one does.
bool BareColumn(const TableBlock& t, size_t c);
// A header naming a change ("Impact", "Gain", "Improvement";
// change_percent_headers of table.json): its percentages are changes.
bool ChangePercentHeader(const std::string& header);
// "| Component | % of coordinator time |" over "52.4%" with no column of a
// measured metric: the shares are what the run (a profile) measured, each
// row's own figure, not derived from a column of the table.
void SharesAlone(std::vector<ColumnInfo>* cols);
void FactorColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
void RatioColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
// "| Variant | T=1 | T=7 | Sample Mean |" over bare numbers: columns that are
// one scale's values alone hold a figure each, unitless (value) at that
// scale, when two or more such columns do.
void ScaleValueColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);

// "| Phase 6 vs Phase 4 | +32% | +17% |" under rows of runs: a row whose
// label holds a word of change_row_words (table.json) and whose every other
// cell that holds something is a change or a ratio (ComparisonCell) compares
// the rows above it. WithoutChangeRows gives the table with such rows'
// cells blanked (every row keeps its line) and their indexes in `rows`;
// false when it has none, or no other row.
bool ChangeRow(const std::vector<std::string>& row);
bool WithoutChangeRows(const TableBlock& t, TableBlock* out, std::vector<size_t>* rows);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_DERIVED_H_
