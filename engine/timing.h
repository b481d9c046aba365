// The harness's timing method: one untimed first call, `warmup` untimed calls,
// then `iters` timed calls, each waited on. Reports the mean (as the harness
// does) plus median, min and max.
#ifndef MOELOG_ENGINE_TIMING_H_
#define MOELOG_ENGINE_TIMING_H_

#include <cstdint>
#include <functional>

#include "engine/metrics.h"

namespace moelog::engine {

TimingStats TimeFn(const std::function<void()>& fn, int64_t warmup, int64_t iters);
TimingStats StatsFromSamples(std::vector<double> samples_s);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_TIMING_H_
