#include "logbook/run/child_groups.h"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace moelog::logbook {
namespace {

// Lock-free slots: the signal handler reads them, so no mutex guards them.
constexpr int kSlots = 256;
std::atomic<pid_t> g_groups[kSlots];

// Async-signal-safe: kill(2), sigaction(2) and raise(3) only.
void KillGroupsAndDie(int sig) {
  for (auto& slot : g_groups) {
    const pid_t g = slot.load(std::memory_order_relaxed);
    if (g > 0) ::kill(-g, SIGKILL);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
}

void InstallHandlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    if (old.sa_handler != SIG_DFL) continue;  // someone else's handler: leave it
    struct sigaction act {};
    act.sa_handler = KillGroupsAndDie;
    sigemptyset(&act.sa_mask);
    ::sigaction(sig, &act, nullptr);
  }
}

}  // namespace

bool WatchChildGroup(pid_t group) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandlers);
  for (auto& slot : g_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, group)) return true;
  }
  return false;
}

void ForgetChildGroup(pid_t group) {
  for (auto& slot : g_groups) {
    pid_t g = group;
    if (slot.compare_exchange_strong(g, 0)) return;
  }
}

}  // namespace moelog::logbook
