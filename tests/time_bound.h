#ifndef MOELOG_TESTS_TIME_BOUND_H_
#define MOELOG_TESTS_TIME_BOUND_H_

// A time bound in a test tells bounded or linear work from quadratic or
// unbounded work (seconds against minutes); it is no benchmark (speed is
// measured in BENCHMARKS.md). Sanitizer builds run many times slower, so
// their bounds are kTimeSlack times wider.

#include <ctime>

namespace moelog::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr double kTimeSlack = 20.0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
inline constexpr double kTimeSlack = 20.0;
#else
inline constexpr double kTimeSlack = 1.0;
#endif
#else
inline constexpr double kTimeSlack = 1.0;
#endif

// `release_seconds`, widened in a sanitizer build.
inline constexpr double TimeBound(double release_seconds) { return release_seconds * kTimeSlack; }

// CPU seconds this process has used: a bound on CPU time holds on a loaded
// machine, where wall time does not.
inline double ProcessCpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace moelog::test

#endif  // MOELOG_TESTS_TIME_BOUND_H_
