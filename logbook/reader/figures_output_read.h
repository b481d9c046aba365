// Reader stage figures, program output: where one output block's reading
// stands (figures_output.cc reads the block line by line), shared with the
// files that read one family of printed lines each (figures_output_timing.cc:
// hyperfine's and Julia's timing records; figures_output_rates.cc: a
// measurement and the rate it makes after an arrow).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_READ_H_
#define MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_READ_H_

#include <string>
#include <tuple>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader::output_read {

// One figure of a line: metric, unit info, unit as written, digits, approximate.
using Fig = std::tuple<std::string, UnitInfo, std::string, std::string, bool>;

// Where one output block's reading stands.
struct OutputRead {
  const EntryCtx& x;
  Config context;      // the block's: sub-heading, label, its command, settings printed above
  std::string group;   // the title line above the lines read
  std::string group_unit;  // the unit that title names ("Timing (microseconds):")
  std::string command;     // the last `$ ` command of a session read in the block
  WalkScope scope;
  std::vector<RecordedFigure>* out;
  std::vector<UnreadFigures>* unread;
  std::vector<std::string> bench_keys;  // the keys the last "Benchmark N: cmd" line set
  size_t timing;                        // the figure of the last hyperfine "Time" line (out's size: none)
  int sessions = 0;                     // the `$ ` commands of the block
  std::vector<Fig> pending = {};        // a Range printed before its Time line (Julia's), and its line
  int pending_line = 0;
  std::string record = {};              // the title of the record the lines are in ("Serving Benchmark Result")
  size_t record_row = static_cast<size_t>(-1);  // its row in out (none yet: -1)
  // The series a title names for the numbers of each line under it ("Read",
  // "Write" of "IOPS (Read/Write)"), and the metric of its numbers; until a
  // blank line or the next title.
  std::vector<std::string> series = {};
  std::string series_metric = {};
  std::vector<size_t> series_rows = {};  // the rows in out that such lines made
};

// The configuration of a line: the block's, with the title above it (group).
Config LineConfig(const OutputRead& r);
// figures_output_rates.cc.
// The figures of a printed line's parenthesized aside after its lead figure
// ("3.16 ms/hash (316.46 H/s)", "381.7 H/s (1.32× speedup, 2.62 ms/hash)"):
// each item a number and a unit, of a metric `figs` does not hold yet, into
// `figs`; words without a figure ("baseline") are skipped.
void AsideFigures(const std::vector<std::string>& toks, std::vector<Fig>* figs);
// "Batch=8:  381.7 H/s (1.32× speedup, 2.62 ms/hash)", "Original:  3.16
// ms/hash (316.46 H/s) - 32 launches": a named line whose lead figure in a
// unit has an aside in parentheses right after it holding figures of other
// metrics; one row, keyed by the name (a setting's `key=value`, else
// metric=<name>), the aside's figures beside the lead. False, nothing kept,
// for any other line. A line named by settings (a `key=value` among its
// words: "2048 + INT8=0: 120.4 tok/s  <-- winner") whose one figure has at
// most a remark after it is such a row too, keyed case=<its name>.
bool AsideLine(OutputRead& r, const std::string& t, int line);
// One row of a line's figures under `cfg` (none kept when no figure parses).
void KeepFigure(OutputRead& r, int line, const std::string& text, Config cfg, const std::vector<Fig>& figs);
// The unit written right after the number at toks[k]: glued to it, or the next word ("" none).
std::string UnitAfter(const std::vector<std::string>& toks, size_t k, const std::string& glued, const std::string& name);

// figures_output_timing.cc.
// A command keys the lines printed below it: its flags, else (`whole`) its
// words when it has no plain arguments either ("./bench -units 625").
void KeyCommand(OutputRead& r, const std::string& cmd, bool whole);
// hyperfine's "Benchmark 1: ./bin --threads 8": the command keys the lines below it.
bool BenchmarkLine(OutputRead& r, const std::string& t);
// Statistics added to the row of the last "Time" line, each in its metric.
void AddToTimingRow(OutputRead& r, const std::vector<Fig>& figs, int line);
// hyperfine's "Time (mean ± σ): ..." and "Range (min … max): ..." lines, Julia
// BenchmarkTools' trial lines: the lines of one timing record.
bool TimingLine(OutputRead& r, const std::string& t, int line);

// "torch.compile took 102.48 s", "init engine (profile, ...) took 292.22
// seconds", "Model loading took 36.11 GiB memory": what a short subject
// took, in its unit's metric named by the subject (`torch_compile_time_s`).
// False, nothing kept, for any other line.
bool TookLine(OutputRead& r, const std::string& t, int line);

// figures_output_rates.cc: "Mean: 4.803 ± 0.013 ms → 550.8 TFLOPS", a
// measurement (its spread its std) and the rate it makes, one row.
bool ArrowRateLine(OutputRead& r, const std::string& t, int line);

// figures_serieslines.cc: a title naming a metric, its unit and the series
// of the numbers under it ("Bandwidth in KiB/sec (Read/Write)", "IOPS
// (Read/Write)"), and the labelled lines under it ("Random:  438,403 /
// 315,218"): each number the title's metric of the line's label and its series.
bool SeriesTitleLine(OutputRead& r, const std::string& t);
bool SeriesValuesLine(OutputRead& r, const std::string& t, int line);

}  // namespace moelog::logbook::reader::output_read

#endif  // MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_READ_H_
