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

// Parses the CSV ('#' lines are comments); errors name file:line. The file
// must declare its role (see CsvRole).
Result<std::vector<FitRow>> LoadRows(const std::string& path);

// Loads each row's hardware (cached by name) and routes its case once.
Result<std::map<std::string, Hardware>> PrepareRows(std::vector<FitRow>* rows);

// What a measurements CSV is for, declared by a line "# role: fit" or
// "# role: held-out" before its header; a file without one is refused.
enum class Role { kFit, kHeldOut };
Result<Role> CsvRole(const std::string& path);

// The rows the model may be fitted on. Only a CSV declaring "# role: fit"
// loads into one, and Fit takes nothing else, so held-out measurements cannot
// reach a fit (nor the leave-one-out refits) by construction.
class FitSet {
 public:
  static Result<FitSet> Load(const std::string& path);
  const std::vector<FitRow>& rows() const { return rows_; }
  // Loads the rows' hardware and routes them (PrepareRows).
  Result<std::map<std::string, Hardware>> Prepare() { return PrepareRows(&rows_); }
  // The set without one source version (leave-one-source-version-out).
  FitSet Without(const std::string& source_version) const;

 private:
  std::vector<FitRow> rows_;
};

// "source@version": the group a row is left out with.
std::string SourceVersion(const FitRow& r);

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
FitOutcome Fit(const std::map<std::string, Hardware>& hws, const FitSet& set, const Params& start);

struct Summary {
  int n = 0, unsupported = 0;
  double median_abs = 0, p90_abs = 0, mean_abs = 0;
};
Summary Summarize(std::vector<double> errors, int unsupported);

// The validation report: per-row errors, then by source version, kernel
// family and hardware, and a naive peak-spec roofline's errors beside.
std::string ValidationReport(const std::map<std::string, Hardware>& hws, const std::vector<FitRow>& rows,
                             const Params& p);

// Leave-one-source-version-out on the fit set: refit without each version
// (from `p`), predict its rows.
std::string LeaveOneVersionOut(const std::map<std::string, Hardware>& hws, const FitSet& set, const Params& p);

// Median |error| per kernel family (in-sample).
std::map<std::string, Summary> FamilySummaries(const std::map<std::string, Hardware>& hws,
                                               const std::vector<FitRow>& rows, const Params& p);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_FIT_H_
