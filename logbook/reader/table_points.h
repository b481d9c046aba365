// Reader stage table, the points of one run: "Initial train/val loss:
// 10.82 / 10.84" over "Final train/val loss: 9.89 / 9.76" are the run at
// two points, a row each (point=initial, point=final), their metrics named
// without the point's word, not one row of four metrics. The words that name
// a point are data: data/reader/table.json point_prefixes.
#ifndef MOELOG_LOGBOOK_READER_TABLE_POINTS_H_
#define MOELOG_LOGBOOK_READER_TABLE_POINTS_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// In an entry's figure sets `figs`: each set every metric of which opens
// with one point's word (`initial_train_loss`, `final_val_loss`), when the
// entry holds sets of two points or more, is keyed point=<word> with its
// metrics named without it (`validation_loss` spelled `val_loss`); so is
// a set whose list item opens with the point's word ("Final observed
// tokens/sec: ..."); a point's sets join into one row, metrics apart.
void SplitPoints(const Entry& e, std::vector<RecordedFigure>* figs);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_POINTS_H_
