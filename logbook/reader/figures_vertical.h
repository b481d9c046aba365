// Reader stage figures, vertical metric tables: a two-column table of one
// run's figures, a figure a row ("| Metric | Value |" over "| **Decode** |
// **31.2 tok/s** |", "| Prefill (ms) | 182 |", "| Peak memory | 4.1 GB |").
// An entry writes one per configuration, named by the sub-heading or the
// caption above it. Each row is read as a printed `Name: value` line is
// (figures_output.cc): the figure keyed metric=<Name>, its unit from the
// cell or from the name's parenthesis; a row of a setting ("| Model |
// llama-3-8b |", "| Batch size | 8 |") keys every figure of the table.
// The words are data: data/reader/vertical_tables.json.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_VERTICAL_H_
#define MOELOG_LOGBOOK_READER_FIGURES_VERTICAL_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

struct EntryCtx;

// Whether `t` is a vertical metric table by its headers: two columns, the
// first named for names (metric, measurement ...) or the second for values
// (value, result ...).
bool VerticalTable(const TableBlock& t);

// The figures of a vertical metric table into `out` (a sheet of
// specifications, settings, goals or estimates into `unread`, no run);
// false, nothing read, when `t` is no such table.
bool VerticalTableFigures(const TableBlock& t, const std::map<std::string, std::string>& context,
                          const EntryCtx& x, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

// A long (tidy) table: a column naming the metric of each row ("Metric":
// long_metric_headers of vertical_tables.json), one holding its value
// ("Value"), the other columns the run's settings ("| Tasks | n-shot | Metric
// | Value | Stderr |"; an empty cell is the one above it). The rows of one
// run's settings are one figure set, each metric by its name (its unit from
// the name's parenthesis or the value cell, else unitless). A spread column
// ("Stderr", "±") is no setting. False, nothing read, for any other table.
bool LongTableFigures(const TableBlock& t, const std::map<std::string, std::string>& context, const EntryCtx& x,
                      std::vector<RecordedFigure>* out);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_VERTICAL_H_
