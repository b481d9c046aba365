#include "engine/timing.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace moelog::engine {

TimingStats StatsFromSamples(std::vector<double> s) {
  TimingStats t;
  t.samples_s = s;
  if (s.empty()) return t;
  t.mean_s = std::accumulate(s.begin(), s.end(), 0.0) / s.size();
  std::sort(s.begin(), s.end());
  t.min_s = s.front();
  t.max_s = s.back();
  size_t n = s.size();
  t.median_s = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  return t;
}

TimingStats TimeFn(const std::function<void()>& fn, int64_t warmup, int64_t iters) {
  using Clock = std::chrono::steady_clock;
  fn();  // the harness's compile-and-run call
  for (int64_t i = 0; i < warmup; ++i) fn();
  std::vector<double> samples;
  samples.reserve(static_cast<size_t>(iters));
  for (int64_t i = 0; i < iters; ++i) {
    auto t0 = Clock::now();
    fn();
    samples.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return StatsFromSamples(std::move(samples));
}

}  // namespace moelog::engine
