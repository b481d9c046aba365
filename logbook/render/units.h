// How a recorded figure's unit shows in a table: the reader's vocabulary
// (data/reader/vocabulary.json) asked for a unit's factor, whether two
// spellings name one unit, and the header of a column of a metric moelog
// has no header of its own for.
#ifndef MOELOG_LOGBOOK_RENDER_UNITS_H_
#define MOELOG_LOGBOOK_RENDER_UNITS_H_

#include <string>

#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// The factor of a unit of the vocabulary ("GFLOPS": 1e-3 TF/s), or 0.
double WrittenUnitFactor(const std::string& unit);

// Two spellings of one unit ("GB/s", "GB/sec"; "us", "μs").
bool SameWrittenUnit(const std::string& a, const std::string& b);

// The header of a column of `metric` whose figures were written in `unit`
// (a unit of the vocabulary, or "%"): "memory (GB)", "utilization %", a rate
// or a count headed by its unit ("req/s", "cycles"), else the metric's words
// and the unit ("power (W)").
std::string UnitColumnHeader(const std::string& metric, const std::string& unit);

// A recorded figure's number with its author's digits ("55.10", not 55.1;
// "384609.54997", not 384,610; "38.380278798"), when it was written in the
// unit it is stored in (a factor of 1, or a unit the vocabulary does not
// hold) and its decimals are known; `shown` otherwise (a derived figure,
// repeats, no written unit, a unit converted on reading).
std::string WrittenNumber(const StoredRun& run, const std::string& metric, double v, const std::string& shown);

// A figure written in another unit of its metric than its column shows
// ("12.4 TFLOP/s" in a column of GFLOPS): its digits and its unit as
// written ("12.4 TF/s"), never converted; "" when it was written in no
// unit of the vocabulary, its decimals are unknown, or it is a time (times
// are converted keeping their significant digits).
std::string OtherUnitText(const StoredRun& run, const std::string& metric);

// `metric`'s name without the part that names a unit ("bw_avg" of
// bw_avg_kib_per_s in KiB/s, "clat_p99" of clat_p99_time_s, "read_bw" of
// read_bw_gb_per_s in MiB/s, "p50" of time_s_p50): a name that says a unit
// other than the one its figure was written in misleads. The metric itself
// when its name holds no unit.
std::string MetricWithoutUnit(const std::string& metric, const std::string& unit);

// A metric's name as words ("iops avg" of iops_avg, "cache misses").
std::string MetricWords(std::string metric);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RENDER_UNITS_H_
