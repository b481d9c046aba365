// Parsing benchmark output: the lines `moelog bench` prints and the lines of
// the original hillclimb harness (versions V1-V5, docs/harness.md §3.3), so the
// same parser serves in-process runs, subprocess runs, shell scripts and runs
// of the real harness.
#ifndef MOELOG_LOGBOOK_OUTPUT_PARSE_H_
#define MOELOG_LOGBOOK_OUTPUT_PARSE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/metrics.h"

namespace moelog::logbook {

// One run (one sweep point x queue mode) recovered from the text.
//
// `point` holds the run's identifying values as printed: distribution, mode
// (queue mode), pass, impl, backend, topk, null_target, null_mode,
// remat_mode, quant_mode, parallel_mode, ep_comm_path, source, devices.
// A key is present only when the output printed it.
//
// `metrics` holds numbers under these names (present only when printed):
//   time_s (mean seconds), time_median_s, time_min_s, time_max_s, tflops
//   (aggregate TF/s), tflops_per_device, tokens_per_s, mfu, null_realized,
//   null_assignments, real_assignments, run_stats_{runs,mean,p95,max},
//   load_stats_{min,max,std,cv}, capacity_{cap,dropped,drop_frac},
//   stage_<name>_s (stage seconds, e.g. stage_pack_s), stage_<name>_pct,
//   oom_estimate_bytes.
struct ParsedRun {
  std::map<std::string, std::string> point;
  std::map<std::string, double> metrics;
  bool oom = false;          // an OOM line (modeled: does not fit)
  bool has_result_line = false;  // a V>=4 / moelog RESULT line was seen
  int section = 0;           // index of the process section (see below)
};

// The whole output. A "section" starts at each `devices=` header line (one
// per harness process); text before the first header is section 0 too.
// Sections let a shell script that ran N invocations be split back into the
// N invocations, in order.
struct ParsedOutput {
  std::vector<ParsedRun> runs;
  int sections = 0;                                   // number of `devices=` headers seen
  std::vector<std::map<std::string, std::string>> shapes;  // the `shape` line of each section
  std::vector<std::string> errors;   // lines that look like failures (Traceback, "error:")
  bool over_budget = false;          // more runs than the reader's max_runs: the rest was not read
};

// Parses harness output. Never fails: unknown lines are ignored. Grouping:
// each `[dist] mode=...` line (the per-mode line of every version) starts a
// run; the following `[dist] timing`, `topk= impl= run_stats/load_stats/
// capacity/null_route`, `[dist] pass=... stage`, `stage_pct`, `stage_bound`
// lines attach to it; a RESULT line attaches to the current run when it names
// the same distribution/mode/impl/topk, otherwise it starts a new run (output
// that has only RESULT lines still gives one run per line).
// At most `max_runs` runs are read; past them the output is over budget
// (ParsedOutput::over_budget) and the rest is not read.
ParsedOutput ParseHarnessOutput(std::string_view text, size_t max_runs = SIZE_MAX);

// What a cpu run ran on, from its first `devices=` line: "isa=avx2
// bf16=f32-compute kernels=avx2" ("" when the line does not say).
std::string CpuIsaOf(std::string_view text);

// Metrics and point values of an in-process result, under the same names as
// ParsedRun (so stored rows look the same whichever path produced them).
ParsedRun RunFromResult(const engine::RunResult& r);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_OUTPUT_PARSE_H_
