// A work queue over threads: planning a document's commands and `update -j N`
// both hand out independent items to a few threads.
#ifndef MOELOG_LOGBOOK_WORK_QUEUE_H_
#define MOELOG_LOGBOOK_WORK_QUEUE_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace moelog::logbook {

// Calls fn(i) once for every i in [0, n), on up to `threads` threads (the
// calling thread is one of them). Each thread takes the next index when it is
// free, so one slow item does not hold the others back. If fewer threads can
// be started, the ones running do the rest. REQUIRES: fn is safe to call
// concurrently for different i.
template <typename Fn>
void RunQueue(size_t n, size_t threads, Fn fn) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < std::min(threads, n); ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
  }
  worker();
  for (auto& t : pool) t.join();
}

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_WORK_QUEUE_H_
