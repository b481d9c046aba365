// The first sources of `moelog next`'s proposals, read from the logbook
// alone (no model, any harness): the steps that complete its unmet stop
// criteria, and the untried neighbours of its best recorded figure.
//
// Criteria: each criterion's predicate (or, for a bullet without one, the
// predicate `check --suggest` reads from its prose, marked suggested) is
// evaluated clause by clause; an unmet clause gives the runs that complete
// it, each starting from a run already in the record:
//   table / sweep   each missing cell of the group of runs at identical
//                   controls that covers the most cells, from the run of
//                   that group nearest the cell (the cell's axis values
//                   are the changes);
//   pairs / beats   the missing arm: the other side's values at the
//                   controls of a run of one side (a beats clause with
//                   both arms present but short of the margin is left to
//                   the search for improvement);
//   repeats         the best matching run again (no change).
// Metric thresholds and `entry ...` clauses give no step here (the search
// for improvement serves thresholds).
//
// The record: the best figure of the primary metric, and for each key the
// record varies, the values it ran elsewhere that were never run at the
// best's other controls, each with the ratio its recorded pairs (runs at
// identical controls but that key) showed, as an interval over the pairs.
// All work is bounded: at most `limit` steps, cells enumerated lazily.
#ifndef MOELOG_LOGBOOK_RESEARCH_NEXT_STEPS_H_
#define MOELOG_LOGBOOK_RESEARCH_NEXT_STEPS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "logbook/criteria/criteria.h"
#include "logbook/doc/document.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

struct Step {
  std::string base_run;    // the run the step starts from ("" none)
  std::string base_entry;  // its entry
  std::map<std::string, std::string> base;     // its config
  std::map<std::string, std::string> changes;  // key -> value; empty: run the base again
  std::string what;        // "the missing cell parallel_mode=none, topk=8"
  // Criteria steps:
  std::string criterion;   // the criterion's sentence
  int line = 0;
  bool suggested = false;  // its predicate is the one `check --suggest` reads from the prose
  std::string predicate;
  // Record steps: the figure the record's pairs suggest, and their spread.
  std::string metric;
  double estimate = 0, lo = 0, hi = 0;
  int pairs = 0;
};

// Steps completing the unmet criteria, in criteria order; `criteria` as
// ParseCriteria gives them (bullets without a predicate get the suggested
// one from `text`). At most `limit`.
std::vector<Step> CriteriaSteps(const Logbook& logbook, std::string_view text, const std::vector<StoredRun>& runs,
                                const std::vector<Criterion>& criteria, size_t limit);

// The record's metric: the first of tflops, tokens_per_s, mfu, time_s,
// mean_s most runs have ("" none); *lower_better for times.
std::string RecordMetric(const std::vector<StoredRun>& runs, bool* lower_better);

// Untried neighbours of the best recorded run, best estimate first.
std::vector<Step> RecordSteps(const std::vector<StoredRun>& runs, size_t limit);

// "k=v, k2=v2" ("no change" when empty).
std::string ChangesText(const std::map<std::string, std::string>& changes);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RESEARCH_NEXT_STEPS_H_
