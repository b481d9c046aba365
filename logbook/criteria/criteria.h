// Stage criteria/: stop criteria (this file), the one pairing rule
// (pairing.h), A/B comparison (compare.h) and the figures a logbook's Result
// text records (recorded.h). Depends on doc/ and store/.
//
// Stop criteria: a small predicate language attached to the bullets of a
// logbook's "Stop Criteria" section, and its evaluation against stored runs.
//
// A bullet carries a predicate in an HTML comment (invisible when rendered)
// or in inline code, anywhere in the bullet:
//
//   - We have one top-k sweep in int8 mode.
//     <!-- moelog: sweep topk in {1,2,4,6,8} where quant_mode=int8 -->
//   - EP vs baseline tables exist `moelog: table parallel_mode {none,ep} x topk {2,8}`
//
// Bullets without a predicate are `manual`. Grammar (keywords are lower case;
// KEY is a run config key such as topk, quant_mode, bench_pass, devices, or
// target/host/entry/source; dashes may be used for underscores; VALUE is a
// word or number; several clauses joined by `;` must all hold):
//
//   pairs KEY=VALUE[,KEY=VALUE...] vs KEY=VALUE[,...] [same KEY,...] [where COND,...] [at least N]
//       At least N (default 1) control settings where a run with the left
//       values and a run with the right values agree on every `same` key
//       (without `same`: on every other config key, ignoring iters, warmup,
//       threads and other output settings).
//   beats KEY=VALUE[,...] vs KEY=VALUE[,...] by N% [on METRIC] [same KEY,...] [where COND,...] [at least N]
//       As pairs, counting only the pairs where the left run's METRIC
//       (default tflops; for mean_s and other times, lower is better) beats
//       the right run's by at least N percent.
//   sweep KEY in {V1,V2,...} [same KEY,...] [where COND,...]
//       One group of runs at identical controls covers every listed value.
//   table KEY {V,...} x KEY {V,...} [x ...] [same KEY,...] [where COND,...]
//       One group of runs at identical controls covers every cell.
//   metric [any|all] METRIC OP NUMBER [where COND,...]
//       Some (any, the default) or every (all) matching run has METRIC OP
//       NUMBER; OP is one of >= > <= < == !=; METRIC is tflops (TF/s),
//       tflops_per_device, tokens_per_s, mean_s (seconds), mfu, ...
//   repeats [at least N] [where COND,...]
//       Some config (every key but iters, warmup and output settings) was
//       run at least N times (default 2): the result is reproducible.
//   entry ID has result
//       The named entry exists and its Result field is filled in (not
//       empty, "pending" or "N/A").
//   entry ID has runs [at least N]
//       The run store holds at least N (default 1) runs of that entry.
//
//   Every clause but `entry ID has result` takes the trailer
//   `accept KIND[,KIND...]`: the kinds of evidence that may meet it.
//   KIND is measured (the CPU engine, a real harness), recorded (a figure
//   written in an entry's Result), modeled (the v5p model's prediction) or
//   any. Without it a clause accepts measured and recorded runs: a clause
//   that only modeled runs would meet is `predicted`, not met.
//
//   COND is KEY=VALUE, KEY!=VALUE or KEY in {V,...}; conditions are
//   separated by commas or `and`. Numbers compare numerically ("2" = "2.0").
#ifndef MOELOG_LOGBOOK_CRITERIA_H_
#define MOELOG_LOGBOOK_CRITERIA_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"
#include "logbook/exit_codes.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

struct Condition {
  enum class Op { kEq, kNe, kIn };
  std::string key;
  Op op = Op::kEq;
  std::vector<std::string> values;  // one for kEq/kNe
};

struct Axis {
  std::string key;
  std::vector<std::string> values;
};

// Where a run's figure comes from. A run of the modeled target (v5p) is a
// prediction whatever else it says; a figure read from a Result is recorded.
enum class EvidenceKind { kMeasured, kRecorded, kModeled };
const char* EvidenceKindName(EvidenceKind kind);  // "measured" | "recorded" | "modeled"
std::optional<EvidenceKind> ParseEvidenceKind(std::string_view word);
EvidenceKind EvidenceKindOf(const StoredRun& run);
// A set of kinds as bits (1 << kind).
using EvidenceKinds = unsigned;
constexpr EvidenceKinds KindBit(EvidenceKind k) { return 1u << static_cast<unsigned>(k); }
constexpr EvidenceKinds kDefaultEvidence = KindBit(EvidenceKind::kMeasured) | KindBit(EvidenceKind::kRecorded);
constexpr EvidenceKinds kAnyEvidence = kDefaultEvidence | KindBit(EvidenceKind::kModeled);
// "measured,recorded" for messages.
std::string EvidenceKindsText(EvidenceKinds kinds);

struct Clause {
  enum class Kind { kPairs, kSweep, kTable, kMetric, kRepeats, kEntryResult, kEntryRuns, kBeats };
  Kind kind = Kind::kPairs;
  std::vector<Condition> left, right;  // pairs: the two sides (kEq conditions)
  std::vector<Axis> axes;              // sweep (one axis) and table
  std::vector<std::string> same;       // pairs/sweep/table: control keys ("" = all others)
  std::vector<Condition> where;
  int at_least = 1;                    // pairs, repeats (default 2), entry runs
  std::string metric, op;              // metric (and beats: the metric compared)
  double by_pct = 0;                   // beats: the margin, percent
  double threshold = 0;
  bool all = false;                    // metric: every matching run (else any)
  std::string entry_id;                // entry
  EvidenceKinds accept = kDefaultEvidence;  // the kinds of run that may meet it (`accept ...`)
};

struct Predicate {
  std::string text;  // as written
  std::vector<Clause> clauses;
};

// Parses predicate text (without the `moelog:` marker). Errors are ParseError
// with message "file:line: message".
// `keys`: the config keys it may name (the logbook's; see RecordedKeys).
Result<Predicate> ParsePredicate(const std::string& text, const std::string& file, int line,
                                 const RunKeys& keys = {});

// The cell of a run in the cross product of the axes (each axis's value
// index), if its values lie in one.
std::optional<std::vector<size_t>> CellOf(const StoredRun& r, const std::vector<Axis>& axes);

// One run filter as `moelog plot --where` takes it: "KEY=VALUE",
// "KEY!=VALUE" or "KEY in {A,B}" (a predicate's condition). ParseError names
// the item and, for an unknown key, the valid ones.
Result<Condition> ParseRunFilter(const std::string& text, const RunKeys& keys = {});
bool MatchesFilters(const StoredRun& run, const std::vector<Condition>& filters);

// One Stop Criteria bullet.
struct Criterion {
  std::string text;                  // the bullet's sentence, predicate markup removed
  int line = 0;                      // 1-based line of the bullet
  std::optional<Predicate> predicate;
};

// A bullet as the document model gives it: full text (all lines of the
// item, list marker removed) and its first line.
struct BulletSource {
  std::string text;
  int line = 0;
};

// Returns the predicate text of a bullet: the inside of `<!-- moelog: ... -->`
// or of inline code `` `moelog: ...` ``, and the line offset (0 = first line of
// the bullet) where it starts; nullopt when the bullet has none.
std::optional<std::pair<std::string, int>> FindPredicateText(const std::string& bullet_text);

// Parses every bullet's predicate. The first parse error is returned.
Result<std::vector<Criterion>> ParseCriteria(const std::vector<BulletSource>& bullets,
                                             const std::string& file, const RunKeys& keys = {});

// The top-level bullets of the logbook's Stop Criteria section as the parse
// (cmark) sees them -- heading matched in any case, fences of any length --
// each with its source lines from `text` (the text the logbook was parsed
// from), so a predicate in a comment or on a continuation line is kept.
// Bullets inside moelog's own regions (the status list) are not criteria.
// Empty when there is no such section.
std::vector<BulletSource> StopCriteriaBullets(const Logbook& logbook, std::string_view text);

// What criteria evaluation knows about the logbook's entries.
struct EntryFacts {
  bool has_result = false;  // Result field present and not empty / pending / N/A
};

struct EvalContext {
  std::vector<StoredRun> runs;                 // in a deterministic order (store order)
  std::map<std::string, EntryFacts> entries;   // entry ID -> facts
};

// kPredicted: every clause holds, but some only with modeled runs its
// `accept` does not take (a prediction, not a measurement). Unmet wins: a
// criterion with one unmet clause is unmet.
enum class CriterionState { kMet, kUnmet, kManual, kPredicted };
const char* StateName(CriterionState state);  // "met" | "unmet" | "manual" | "predicted"

struct CriterionResult {
  CriterionState state = CriterionState::kManual;
  std::string text;                   // the criterion's sentence
  int line = 0;
  std::string predicate;              // predicate text ("" for manual)
  std::string detail;                 // met: what was found; unmet: what is missing
  std::vector<std::string> evidence;  // run IDs that support the verdict
};

CriterionResult Evaluate(const Criterion& criterion, const EvalContext& context);
std::vector<CriterionResult> EvaluateAll(const std::vector<Criterion>& criteria,
                                         const EvalContext& context);

// One line per criterion, as `moelog check` prints it:
//   "file:LINE: met: <sentence> [<detail>; runs r1, r2]"
std::string FormatCheckLine(const std::string& file, const CriterionResult& result);

// kExitOk when every checkable criterion is met (manual ones do not count),
// kExitCriteriaUnmet when some is unmet, else kExitCriteriaPredicted when
// some is only predicted.
int CheckExitCode(const std::vector<CriterionResult>& results);

// The body of the owned status region under the Stop Criteria section:
// a short Markdown list, one bullet per criterion, e.g.
//   "- met — EP path is implemented ... (runs r3, r4)\n". Deterministic for the
// same inputs; ends with a newline; empty criteria give a single line saying so.
std::string RenderCriteriaStatus(const std::vector<CriterionResult>& results);


}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_CRITERIA_H_
