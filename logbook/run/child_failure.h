// Why a child process (a `moelog bench` of the cpu target, mostly) failed,
// in words a user can act on: the engine's own error from its stderr (a
// refused shape names its estimate and the memory available), a signal by
// name with its likely cause (SIGKILL near the machine's memory: out of
// memory, with the peak resident size), a timeout with its length.
// "internal error" is kept for moelog's own bugs.
#ifndef MOELOG_LOGBOOK_RUN_CHILD_FAILURE_H_
#define MOELOG_LOGBOOK_RUN_CHILD_FAILURE_H_

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "engine/status.h"

namespace moelog::logbook {

// How a child ended.
struct ChildEnd {
  int exit_status = 0;        // when it exited
  int term_signal = 0;        // when a signal ended it (0 otherwise)
  bool timed_out = false;     // moelog killed it at its deadline
  double timeout_s = 0;
  double peak_rss_bytes = 0;  // its largest resident size seen (0: unknown)
  double mem_total_bytes = 0; // the machine's memory (MemTotal; 0: unknown)
  std::string stderr_text;
};

// The Status of a failed child (`what` names it: "moelog bench"). REQUIRES:
// it failed (non-zero exit, a signal or a timeout).
Status ChildFailure(const std::string& what, const ChildEnd& end);

// "SIGKILL", "SIGSEGV", ... ("signal N" for others).
std::string SignalName(int sig);

// The machine's MemTotal in bytes (0 when /proc/meminfo cannot be read).
double MemTotalBytes();

// Samples the peak resident size (VmHWM) of a running process every few
// milliseconds until destroyed (the kernel keeps the high-water mark, so a
// sample between peaks loses nothing; what a process reaches in its last
// interval before being killed can be missed).
class PeakRssWatch {
 public:
  explicit PeakRssWatch(pid_t pid);
  ~PeakRssWatch();
  PeakRssWatch(const PeakRssWatch&) = delete;
  PeakRssWatch& operator=(const PeakRssWatch&) = delete;
  // The largest VmHWM read so far, in bytes.
  double peak_bytes() const { return peak_.load(); }

 private:
  void Sample();
  pid_t pid_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;  // guarded by mu_
  std::atomic<double> peak_{0};
  std::thread thread_;
};

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RUN_CHILD_FAILURE_H_
