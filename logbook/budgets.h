// Budgets: every bound moelog puts on work a document, a store or a traced
// script can make it do, in one table (like the flag registry). A budget
// that is hit stops that piece of work with a message naming it ("cannot
// plan: more than 4096 chained `same as` expansions (budget
// same-as-expansion)"); nothing is silently truncated. docs/reference.md
// lists the table.
#ifndef MOELOG_LOGBOOK_BUDGETS_H_
#define MOELOG_LOGBOOK_BUDGETS_H_

#include <cstdint>
#include <string>

namespace moelog::logbook {

enum class BudgetId {
  kInputFileBytes,        // a file moelog reads (logbook, criteria, adapter, launcher, hardware file)
  kStoreStatementSteps,   // SQLite virtual-machine steps of one statement on the run store
  kResultRowsPerCall,     // RESULT lines one traced call of a consented script may store
  kPredicateCells,        // cells a `table` predicate's grid may name
  kSameAsCommandChars,    // characters of a command `same as ID with ...` resolves to
  kCriterionPairs,        // left x right runs a `pairs` or `beats` criterion compares
  kModelCallsPerCommand,  // v5p model predictions one `next` search makes
};

struct Budget {
  BudgetId id;
  const char* name;   // as the message and docs/reference.md name it
  int64_t limit;
  const char* counts;  // what is counted, plural ("bytes", "RESULT lines in one traced call")
};

inline constexpr Budget kBudgets[] = {
    {BudgetId::kInputFileBytes, "input-file-bytes", int64_t{64} << 20, "bytes in one file read"},
    {BudgetId::kStoreStatementSteps, "store-statement-steps", int64_t{500} * 1000 * 1000,
     "SQLite steps in one statement on the run store"},
    {BudgetId::kResultRowsPerCall, "result-rows-per-call", 4096, "RESULT lines in one traced call"},
    {BudgetId::kPredicateCells, "predicate-cells", 65536, "cells in one table's grid"},
    {BudgetId::kSameAsCommandChars, "same-as-command-chars", 16384, "characters"},
    {BudgetId::kCriterionPairs, "criterion-pairs", 1000000, "run pairs for one criterion"},
    {BudgetId::kModelCallsPerCommand, "model-calls", 100000, "model predictions in one search"},
};

constexpr const Budget& BudgetOf(BudgetId id) {
  for (const Budget& b : kBudgets)
    if (b.id == id) return b;
  return kBudgets[0];  // unreachable: every id has a row (checked by the budgets test)
}
constexpr int64_t BudgetLimit(BudgetId id) { return BudgetOf(id).limit; }

// "more than N <counts> (budget <name>)": the reason a message gives.
inline std::string OverBudget(BudgetId id) {
  const Budget& b = BudgetOf(id);
  return "more than " + std::to_string(b.limit) + " " + b.counts + " (budget " + b.name + ")";
}

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_BUDGETS_H_
