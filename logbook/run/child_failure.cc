#include "logbook/run/child_failure.h"

#include <signal.h>
#include <string.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace moelog::logbook {
namespace {

// A SIGKILL when the child's peak was within this share of the machine's
// memory is reported as the kernel's out-of-memory kill.
constexpr double kOomShare = 0.80;

std::string Gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", bytes / 1e9);
  return buf;
}

// The engine's own error line ("moelog bench: error: out of memory: ..."),
// the last one in the child's stderr, without the command prefix.
std::string EngineError(const std::string& what, const std::string& err) {
  const std::string tag = what + ": error: ";
  const size_t at = err.rfind(tag);
  if (at == std::string::npos) return "";
  const size_t begin = at + tag.size(), end = err.find('\n', begin);
  return err.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The error's Status, its code read back from the prefix Status::ToString
// gave it (the child's message is kept word for word).
Status FromEngineError(const std::string& msg, int exit_status) {
  struct Prefix {
    const char* text;
    Status (*make)(std::string);
  };
  static const Prefix kPrefixes[] = {{"out of memory: ", Status::OutOfMemory},
                                     {"not supported: ", Status::NotSupported},
                                     {"timeout: ", Status::Timeout},
                                     {"killed: ", Status::Killed},
                                     {"not found: ", Status::NotFound},
                                     {"I/O error: ", Status::IOError},
                                     {"internal error: ", Status::Internal}};
  for (const Prefix& p : kPrefixes)
    if (msg.rfind(p.text, 0) == 0) return p.make(msg.substr(strlen(p.text)));
  if (exit_status == kExitParse) return Status::ParseError(msg);
  return Status::InvalidArgument(msg);  // flags and values: exit 2
}

}  // namespace

std::string SignalName(int sig) {
  switch (sig) {
    case SIGKILL: return "SIGKILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    default: return "signal " + std::to_string(sig);
  }
}

double MemTotalBytes() {
  std::ifstream f("/proc/meminfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("MemTotal:", 0) == 0) return std::atof(line.c_str() + 9) * 1024.0;
  return 0;
}

Status ChildFailure(const std::string& what, const ChildEnd& e) {
  if (e.timed_out) {
    std::ostringstream s;
    s << what << " timed out after " << e.timeout_s << " s and was killed";
    if (e.peak_rss_bytes > 0) s << " (peak memory " << Gb(e.peak_rss_bytes) << " GB)";
    return Status::Timeout(s.str() + "; a longer --timeout lets it finish");
  }
  if (e.term_signal != 0) {
    const std::string sig = SignalName(e.term_signal);
    const bool near_full = e.mem_total_bytes > 0 && e.peak_rss_bytes >= kOomShare * e.mem_total_bytes;
    if (e.term_signal == SIGKILL && near_full)
      return Status::OutOfMemory(what + " was killed by SIGKILL, most likely by the kernel for lack of memory: peak " +
                                 Gb(e.peak_rss_bytes) + " GB of " + Gb(e.mem_total_bytes) +
                                 " GB; a smaller shape, fewer --devices, or --max-memory refuses such runs up front");
    std::string msg = what + " was killed by " + sig;
    if (e.peak_rss_bytes > 0) msg += " (peak memory " + Gb(e.peak_rss_bytes) + " GB of " + Gb(e.mem_total_bytes) + " GB)";
    if (e.term_signal == SIGKILL || e.term_signal == SIGTERM || e.term_signal == SIGINT || e.term_signal == SIGHUP)
      return Status::Killed(msg + ", sent from outside moelog");
    return Status::Internal(msg);  // a crash: moelog's own bug
  }
  const std::string msg = EngineError(what, e.stderr_text);
  if (!msg.empty()) return FromEngineError(msg, e.exit_status);
  return Status::Internal(what + " exited with status " + std::to_string(e.exit_status) + " without an error message");
}

PeakRssWatch::PeakRssWatch(pid_t pid) : pid_(pid) {
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      Sample();
      wake_.wait_for(lock, std::chrono::milliseconds(20), [this] { return stop_; });
    }
  });
}

PeakRssWatch::~PeakRssWatch() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PeakRssWatch::Sample() {
  std::ifstream f("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) {
      const double v = std::atof(line.c_str() + 6) * 1024.0;
      if (v > peak_.load()) peak_ = v;
      return;
    }
}

}  // namespace moelog::logbook
