// The rows of an entry's table a reader needs: modeled rows the model gives
// identical figures and the entry's Result does not tell apart are one row.
#ifndef MOELOG_LOGBOOK_UPDATE_FOLD_ROWS_H_
#define MOELOG_LOGBOOK_UPDATE_FOLD_ROWS_H_

#include <string>
#include <vector>

#include "logbook/criteria/recorded.h"
#include "logbook/render/render_table.h"

namespace moelog::logbook {

// Folds `rows` in place and gives the notes it owes the reader (one line
// each). Two modeled rows (ok, same target, calibration key and path) with
// identical figures that differ in one config key:
//  - when the Result's figures fit one and not the other, and every figure
//    that fits the first states that key (a Result "(random distribution)"
//    where the harness also ran `runs`), the Result selects the first: the
//    other row goes, and a note names the value left out;
//  - when no figure tells them apart, they are one row whose cell names the
//    folded values ("random, runs").
// Repeated until nothing folds, so several keys fold as their product does.
std::vector<std::string> FoldIndistinctRows(std::vector<TableRow>* rows, const std::vector<RecordedFigure>& figures);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_FOLD_ROWS_H_
