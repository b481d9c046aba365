// Reader stage blocks, bench tools' printouts: the lines of a bench tool
// pasted without the command that printed them, plainly a program's output
// even where a first line would read as a command (`lookup/hit  time: ...`).
//  - Rust criterion: `name   time:   [1.2034 ms 1.2101 ms 1.2177 ms]` (the
//    middle the estimate, the ends its interval), `thrpt:` likewise,
//    `change: [-3.1% -2.4% -1.7%]` a change against the last run (derived),
//    and its chatter (`Performance has improved.`, outlier counts);
//  - Google Benchmark's console table: `BM_Gemm/1024   12.3 ms   12.2 ms
//    57` under `Benchmark  Time  CPU  Iterations` (the time the figure, the
//    CPU time beside it, the iterations no figure), and the machine lines
//    printed before it (`Run on (16 X 3600 MHz CPU s)`);
//  - Rust's libtest `cargo bench`: `test parse_small ... bench:  1,234
//    ns/iter (+/- 56)` (the median, then its spread over the samples).
// The words are data: data/reader/bench_printouts.json. The figures stage
// keeps what a line states (figures_output.cc).
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_BENCHTOOLS_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_BENCHTOOLS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace moelog::logbook {
// One number a bench tool's line prints: its role in the line's run ("" the
// figure; "ci_low"/"ci_high" its interval's ends; "cpu" its CPU time), its
// digits and its unit as printed.
struct BenchValue {
  std::string role, digits, unit;
};

// What one line of a bench tool's printout says.
struct BenchLine {
  enum class Kind { kNone, kFigures, kChange, kChatter };
  Kind kind = Kind::kNone;
  std::string name;   // the benchmark the line names ("": the one above it)
  std::string field;  // criterion's field ("time", "thrpt"), "" for a table row
  std::vector<BenchValue> values;
  // The case's parameters its name prints, taken out of `name`: Go's
  // GOMAXPROCS suffix (`BenchmarkSet-8`: procs=8) and `key=value`
  // sub-benchmarks, Google Benchmark's arguments (`BM_Copy/64`: arg=64,
  // `BM_Copy/size:64`: size=64).
  std::vector<std::pair<std::string, std::string>> keys;
};

// A Go benchmark's name without the parameters it prints, which go to
// `keys` (`BenchmarkGet/size=1024-8`: "BenchmarkGet", size=1024, procs=8).
std::string BenchCaseName(const std::string& name, std::vector<std::pair<std::string, std::string>>* keys);

// The line read (kNone: no bench tool's line).
BenchLine ReadBenchLine(const std::string& line);

// Whether `text` is a bench tool's printout: its first line one of the
// tool's (or a name alone over one), a line of its figures in it, and most
// of its lines the tool's.
bool BenchToolPrintout(std::string_view text);

// A line that prints a statistic named in parentheses, then its value and
// unit: hyperfine's `Time (mean ± σ):   12.3 ms ±  0.4 ms` and `Range (min
// … max): ...`, Julia BenchmarkTools' `Time  (median):  45.0 μs` (first
// words: data, statistic_lines).
bool StatisticLine(std::string_view line);

// A line naming the run the statistic lines below it belong to: a first
// word of run_headers, its number and a colon (`Benchmark 2: ./pack
// --best corpus`, `Benchmark #1: ...`).
bool RunHeaderLine(std::string_view line);

// A console line stamped with the time elapsed when it was printed, then
// what happened (`[10.63s] Insert 2048 authors`, `[ 0.52 ms] warm-up done`):
// the stamp's digits and unit (time_units) and the event's words.
bool ElapsedStamp(std::string_view line, std::string* digits, std::string* unit, std::string* event);

// A profiler's line naming the report whose table follows it (nsys's
// `[6/8] Executing 'cuda_gpu_kern_sum' stats report`, ` ** CUDA GPU Kernel
// Summary (cuda_gpu_kern_sum):`; forms: report_lines): the report's name.
// Each report is a workload of its own (key "report").
bool ReportLine(std::string_view line, std::string* name);
namespace reader {
inline constexpr char kWorkloadKey[] = "report";  // the key a report's name is kept under
}  // namespace reader

// A profiler's count column's key (`num_calls`, `instances`; count_keys):
// a label of a row, never the x axis of a chart of its times.
bool ProfilerCountKey(const std::string& key);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_BENCHTOOLS_H_
