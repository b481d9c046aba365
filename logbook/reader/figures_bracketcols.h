// Reader stage figures, a report line that names its columns in brackets
// before its values (vegeta's `report`, and tools printing in its style):
//
//   Latencies  [min, mean, 50, 90, 99, max]  41.2ms, 88.4ms, 80.9ms, 130.5ms, 240.7ms, 1.2s
//
// written as the tool-run reader reads a group of key=value figures (fio's
// "clat (usec): min=591, max=10572"): "Latencies: min=41.2ms, mean=88.4ms,
// p50=80.9ms, ...". A column named by a bare number is that percentile. A
// line whose columns and values differ in number, or whose values are
// `code:count` pairs (`Status Codes [code:count] 200:600`), is left as it is.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_BRACKETCOLS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_BRACKETCOLS_H_

#include <string>

namespace moelog::logbook::reader {

// True when `text` (a printed line, trimmed) is such a line; `out` then
// holds it as above.
bool BracketColumnsForm(const std::string& text, std::string* out);

// A CSV header whose names carry their units in brackets (nvidia-smi's
// `--query-gpu ... --format=csv`: "index, utilization.gpu [%], power.draw
// [W]"), written with the units in parentheses and the query's dots as
// blanks: "index, utilization gpu (%), power draw (W)".
bool BracketUnitHeader(const std::string& text, std::string* out);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_BRACKETCOLS_H_
