// Reader stage figures, bench frameworks' result tables printed to a
// console, where a row is one benchmark case and its columns name the
// case's parameters, its score and the score's statistics:
//  - JMH's `Benchmark  (size)  Mode  Cnt  Score   Error  Units` table: each
//    row one case (its name, its `@Param` values under the parenthesized
//    columns, its mode), the score in the row's unit, `± error` a statistic
//    of that score (error_<metric>), the count no figure;
//  - nvbench's `| T{ct} | Elements{io} | Samples | CPU Time | Noise | GPU
//    Time | Noise | Elem/s |` (printed or pasted as Markdown): each Noise a
//    statistic of the time before it, `23.504G` under `Elem/s` 23.504 Gelem/s.
//  - torch.utils.benchmark's printed Measurement (`<torch.utils.benchmark
//    ...Measurement object at 0x...>`, the statement timed, `setup: ...`,
//    `Median: 412.31 us`, `IQR: 3.20 us (410.55 to 413.75)`): one figure,
//    each statistic by its name, keyed by the statement.
//  - k6's end-of-test summary (`http_req_duration.....: avg=12.41ms
//    min=3.1ms med=10.2ms max=210.5ms p(90)=20.33ms p(95)=28.9ms`,
//    `http_reqs.....: 48211  803.4/s`): one run's figure, each statistic
//    named with its metric (http_req_duration_p95_time_s), a counter's
//    rate (http_reqs_per_s), its count none.
// The words are data: data/reader/bench_printouts.json "framework_tables",
// "framework_columns", "torch_measurement", "k6_summary".
#ifndef MOELOG_LOGBOOK_READER_FIGURES_FRAMEWORKS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_FRAMEWORKS_H_

#include <set>
#include <string>
#include <vector>

#include "logbook/reader/figures_printed.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Whether `word` (lower case) is a JMH benchmark mode ("thrpt", "avgt";
// framework_tables.jmh.modes of bench_printouts.json).
bool JmhMode(const std::string& word);

// The rows of each framework table among `lines`: one figure a row, keyed
// by the entry's `context`, the case's name, its parameters and its mode;
// the lines taken (the header and its rows) go into `read`.
void FrameworkTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread);

// JMH's per-iteration lines (figures_jmh_iterations.cc): samples on the row
// of the result read below them (iteration_N_<metric>), else one row of their
// own; a warm-up iteration listed, no figure. The lines taken go into `read`.
void JmhIterations(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                   std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread);

// triton's perf_report printed tables (figures_perfreport.cc): a figure per
// row and provider column, the sweep's axes and the plot's name keys.
void PerfReportTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                      std::vector<RecordedFigure>* out, std::set<int>* read);

// Go's benchstat tables (`name  old time/op  new time/op  delta`;
// figures_benchstat.cc): a figure per case and run column (variant=old,
// variant=new), the case's GOMAXPROCS suffix a key, the delta listed as
// derived.
void BenchstatTables(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread);

// A framework table's header as the figures stage reads it
// (figures_columns.cc): an axis's name without its type tag (nvbench's
// `Elements{io}`: Elements), a column of a statistic of the column before it
// named with it (nvbench's `GPU Time | Noise`: "GPU Time Noise").
void FrameworkColumns(std::vector<std::string>* head);

// A row's cells that print a magnitude letter under a column named by its
// unit (nvbench's `23.504G` under `Elem/s`) written with the unit they
// make ("23.504 Gelem/s"), when that unit is one the reader knows.
void MagnitudeCells(const std::vector<std::string>& head, std::vector<std::string>* cells);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_FRAMEWORKS_H_
