// Progress of long benchmark work (cpu target runs of `update`, `run` and
// `bench`): one line on a terminal's stderr, redrawn in place:
//
//   [runs 12/134] MOE-EP-004 --tokens 32768 ... --parallel-mode ep | 41m07s elapsed, about 6h12m left
//
// The time left is the seconds per FLOP of the runs finished so far times
// the FLOPs of the runs still to do (each run's harness FLOPs times its
// warmup and timed steps), so a sweep of small shapes followed by large ones
// is not predicted from the small ones' count. Only finished runs of about
// the size still to do set the rate: a small run's time is mostly start-up,
// and a smoke test of 1 MFLOP says nothing of a 60 TFLOP run. The run under
// way counts down from its predicted time. Nothing is printed when the
// stream is not a terminal or the user asked for --quiet.
#ifndef MOELOG_LOGBOOK_RUN_PROGRESS_H_
#define MOELOG_LOGBOOK_RUN_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/bench_config.h"

namespace moelog::logbook {

// The work of one `moelog bench` invocation: its runs (sweep points) and
// the FLOPs of all their steps (the first call, warmup and timed iterations).
struct BenchWork {
  int runs = 0;
  double flops = 0;
};
BenchWork WorkOf(const engine::BenchConfig& config);
// One sweep point's share of it.
BenchWork WorkOfPoint(const engine::BenchConfig& config, const engine::RunPoint& point);

// A finished run: its wall seconds and FLOPs.
struct RunTime {
  double seconds = 0, flops = 0;
};
// Seconds per FLOP from the finished runs of at least a tenth of the mean
// FLOPs of the runs left (flops_left over runs_left); 0 when none is that
// large yet (no estimate).
double SecondsPerFlop(const std::vector<RunTime>& done, double flops_left, int runs_left);

// What the line shows, and how it is worded (pure, for tests): elapsed and
// left as "41m07s" / "6h12m"; no estimate before a run of the size still to
// do ends.
struct ProgressState {
  int runs_done = 0, runs_total = 0;
  double flops_done = 0, flops_total = 0;
  double seconds_per_flop = 0;                 // 0: not known yet
  double current_flops = 0, current_elapsed = 0;  // the run under way
  std::string current;  // entry and configuration of the run under way
};
std::string ProgressLine(const ProgressState& s, double elapsed_s, size_t width = 160);
std::string Duration(double seconds);

class RunProgress {
 public:
  // on: draw at all (the caller checks the terminal and --quiet); out:
  // stderr unless a test gives another stream.
  explicit RunProgress(bool on, std::FILE* out = stderr);
  ~RunProgress();
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;
  bool on() const { return on_; }
  // Planned work, added before (or while) it runs.
  void Plan(const BenchWork& w);
  // A run of `flops` starts: `what` names its entry and configuration.
  void Start(const std::string& what, double flops = 0);
  // Work finished (whether it succeeded or not); with erase the line is
  // cleared instead of redrawn (output follows on the same terminal).
  void Finish(const BenchWork& w, bool erase = false);
  // Work that ended without running through (refused, failed): its runs are
  // done, its FLOPs leave the estimate.
  void Skip(const BenchWork& w);

 private:
  void Draw();                        // mu_ held
  void EndRun(double flops, bool ok);  // mu_ held
  bool on_;
  std::FILE* out_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;  // redraws the shown line every second (elapsed time)
  ProgressState s_;
  std::chrono::steady_clock::time_point start_;
  struct Pending {
    std::chrono::steady_clock::time_point start;
    double flops;
  };
  std::vector<Pending> under_way_;  // runs started, not finished (several with --jobs)
  std::vector<RunTime> finished_;
  bool drawn_ = false;
};

// Printable text of a logbook's words (no control byte reaches the terminal).
std::string Printable(const std::string& s);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RUN_PROGRESS_H_
