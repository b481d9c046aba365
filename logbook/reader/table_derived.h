// Reader stage table: a derived column beside a row's runs ("| Batch | Ours
// (us) | FLA (us) | Speedup |" over "| 1 | 7.76 | 30.00 | 3.86x |", "| |
// iter-0 | iter-1 | Δ |" over "| p50 | 75 ms | 18 ms | -76% |"). The
// derived figure compares two of the row's runs; it is shown on the row of
// the run it describes, found by the arithmetic it writes: a speedup is the
// faster run's (a time's ratio has the faster one below the line, a rate's
// above), a change the run it was taken to. A figure no pair of the row's
// runs works out to stays on no row, as a derived figure of no run.
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
// derived figures only goes onto the runs of the others (AttachDerived).
void AttachDerivedSets(std::vector<std::pair<std::string, StoredRun>>* sets);
// A column of ratios beside columns of a measured metric ("| v0.9.51 |
// v0.9.52 | Ratio |" over "| 7.90s | 10.41s | 0.76x |"): its header says
// ratio and every cell is written with an "x". Read as a derived speedup
// only beside a column of a measured metric; a table of ratios alone (a
// datasheet's "ratio" of two devices' ratings) is left as it is.
// A table of factors only: its factor columns ("2.13x") and its ratio
// columns over bare numbers are the runs' measurements (FactorColumns).
bool FactorCells(const TableBlock& t, size_t c);
void FactorColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
void RatioColumns(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
std::vector<std::pair<std::string, StoredRun>> DerivedOnRuns(std::vector<std::pair<std::string, StoredRun>> sets);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_DERIVED_H_
