// Reader stage blocks, a dump of pairs: lines of two fields alone, a
// setting's value or a run's name and a plain decimal (`0.01<TAB>1.3318`,
// `ckpt/model_5.pt 3.0627`), a sweep's results pasted in an output block or
// a paragraph. Whether lines are one; figures_dumps.h reads its figures.
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_DUMPS_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_DUMPS_H_

#include <string>
#include <utility>
#include <vector>

namespace moelog::logbook::reader {

// A plain number: digits, one point at most, an exponent ("1e-4", "0.01", "512").
bool DumpNumber(const std::string& t);

// The two fields of a dump's line (false for any other line): the first a
// plain number or a run's name (a path, or an identifier with a digit or an
// underscore: never a plain word), the second a plain decimal.
bool DumpPairLine(const std::string& text, std::string* key, std::string* value);

// How many lines of a dump start at lines[i] (three at least, all keyed by
// numbers or all by names); 0 when none does. `lines`: source line, text.
size_t PairDumpRows(const std::vector<std::pair<int, std::string>>& lines, size_t i);

// Where a paragraph's `lines` turn into a dump that runs to their end, after
// two lines of words at most ("Here are the learning rates and validation
// loss:" over `0.001<TAB>1.4389` lines): that line's index, else npos.
size_t DumpAfterHead(const std::vector<std::pair<int, std::string>>& lines);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_DUMPS_H_
