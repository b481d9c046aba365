// Fitting and validating the GPU model on published measurements: a CSV of
// rows copied from named tables (DeepEP and DeepGEMM READMEs, matmul ceilings),
// each with its source and version. Errors are on time (a bandwidth figure is
// the library's bytes over its time, so the ratio of bandwidths is the ratio
// of times).
#ifndef MOELOG_ENGINE_GPU_FIT_H_
#define MOELOG_ENGINE_GPU_FIT_H_

#include <map>
#include <string>
#include <vector>

#include "engine/gpu/hardware.h"
#include "engine/gpu/model.h"
#include "engine/gpu/params.h"
#include "engine/status.h"

namespace moelog::engine::gpu {

struct FitRow {
  Case c;
  std::string source, version, table, hardware, metric;  // metric: bandwidth_gbs | time_us | tflops
  double value = 0;
  int line = 0;
  RouteCounts counts;  // filled by PrepareRows
};

// The kernel family a row's error is summarized under.
std::string Family(const std::string& kernel);

// Parses the CSV ('#' lines are comments); errors name file:line.
Result<std::vector<FitRow>> LoadRows(const std::string& path);

// Loads each row's hardware (cached by name) and routes its case once.
Result<std::map<std::string, Hardware>> PrepareRows(std::vector<FitRow>* rows);

// predicted time / measured time - 1; NotSupported when the model has no answer.
Result<double> RowError(const Hardware& hw, const Params& p, const FitRow& row);
// The same for a naive roofline from peak specs (link or peak rate, no efficiency).
double NaiveRowError(const Hardware& hw, const FitRow& row);

struct FitOutcome {
  Params params;
  double objective = 0;
  int sweeps = 0;
};

// Coordinate search of the fitted parameters minimizing the sum of
// |log(predicted/measured)| over the rows.
FitOutcome Fit(const std::map<std::string, Hardware>& hws, const std::vector<FitRow>& rows, const Params& start);

struct Summary {
  int n = 0, unsupported = 0;
  double median_abs = 0, p90_abs = 0, mean_abs = 0;
};
Summary Summarize(std::vector<double> errors, int unsupported);

// The validation report: per-row errors, then by source version, kernel
// family and hardware, leave-one-source-version-out (with `loso`), and a
// naive peak-spec roofline's errors beside.
std::string ValidationReport(const std::map<std::string, Hardware>& hws, const std::vector<FitRow>& rows,
                             const Params& p, bool loso);

// Median |error| per kernel family (in-sample).
std::map<std::string, Summary> FamilySummaries(const std::map<std::string, Hardware>& hws,
                                               const std::vector<FitRow>& rows, const Params& p);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_FIT_H_
