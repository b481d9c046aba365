// A record's field that names the unit of the figure beside it ("- value:
// `5868.9`" over "- unit: `GFLOPS`"): the figures stage reads the figure
// with that unit.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_UNITFIELD_H_
#define MOELOG_LOGBOOK_READER_FIGURES_UNITFIELD_H_

#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// `items` as the figures stage reads them: a bare number's item right
// before (else right after) a field named as a unit (unit_field_names in
// vocabulary.json) whose value is a unit gets that unit written after its
// number. `items` itself when no item is such a field; else a copy in
// `*storage`.
const std::vector<Bullet>& WithUnitFields(const std::vector<Bullet>& items, std::vector<Bullet>* storage);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_UNITFIELD_H_
