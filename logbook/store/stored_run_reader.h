// Reading StoredRun views out of the run store: RunRecord (run_store.h) ->
// StoredRun (stored_run.h), for criteria, comparisons and charts.
#ifndef MOELOG_LOGBOOK_STORED_RUN_READER_H_
#define MOELOG_LOGBOOK_STORED_RUN_READER_H_

#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/store/run_store.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// The effective per-run config: the canonical config JSON flattened to
// strings (one-element lists become scalars, longer lists are dropped), then
// the run point's values on top under config names (mode -> queue_mode,
// pass -> bench_pass, null_target -> null_route_frac, null_mode ->
// null_routing_mode). Metrics are copied; time_s is also given as mean_s.
// source: the point's "source" if printed, else modeled for v5p and measured
// for cpu. id: run_id (or the row id).
StoredRun ToStoredRun(const RunRecord& record);

// The config key a run point's key stands for ("mode" -> "queue_mode",
// "pass" -> "bench_pass", ...); the key itself for the others.
std::string ConfigKeyOfPoint(const std::string& point_key);

// Every successful (status ok) run of the store at `db_path` matching
// `query`, oldest first. Foreign rows (run_store.h) are dropped unless
// `accept_foreign`; `foreign_ignored`, when given, receives how many.
Result<std::vector<StoredRun>> LoadStoredRuns(const std::string& db_path, const RunQuery& query,
                                              bool accept_foreign = false, int64_t* foreign_ignored = nullptr);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_STORED_RUN_READER_H_
