// Timing helpers shared by the benchmark programs: wall time of one call, and
// the median and minimum of a set of samples.
#ifndef MOELOG_TESTS_BENCH_BENCH_TIMING_H_
#define MOELOG_TESTS_BENCH_BENCH_TIMING_H_

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace moelog::bench {

// Seconds one call of fn takes (steady clock).
inline double Seconds(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Median (the mean of the middle two for an even count); 0 when empty.
inline double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double Min(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

}  // namespace moelog::bench

#endif  // MOELOG_TESTS_BENCH_BENCH_TIMING_H_
