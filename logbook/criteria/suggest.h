// Predicates from prose: `moelog check --suggest` reads each Stop Criteria
// bullet that has no predicate and, where the sentence says something runs
// can show, proposes one in the grammar of criteria.h:
//
//   A vs B at identical controls   "direct `quant_mode=none` vs `quant_mode=int8`
//                                   comparisons ... fixed baseline case"  -> pairs
//   a sweep over a list            "one top-k sweep (`1,2,4,6,8`) in int8 mode" -> sweep
//   A vs B tables over a list      "EP vs baseline tables (`topk=2` and `topk=8`)" -> table
//   thresholds                     "at least 300 TF/s at topk=8", "reaches the
//                                   baseline's topk=8 throughput"      -> metric
//   "beats B by N%"                "int8 beats none by 5%"               -> beats
//   repeats                        "reproducible", "replicated 3 times"  -> repeats
//   an entry having a result       "MOE-I8-003 has been run and recorded" -> entry has result
//
// Words the sentence uses for config values (`int8`, `EP`, `baseline`,
// `forward_backward`, "on v5p") become `where` conditions; "identical
// controls", "apples-to-apples" and "fixed baseline case" take their keys
// from the Scope's Constraints ("same shape, backend, impl, ...") when it
// lists them. A sentence asking for a judgement ("we can state whether"),
// or naming nothing moelog can count, stays manual with the reason. The
// reader is a single linear pass over each sentence (no regex, bounded).
#ifndef MOELOG_LOGBOOK_CRITERIA_SUGGEST_H_
#define MOELOG_LOGBOOK_CRITERIA_SUGGEST_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "logbook/doc/document.h"

namespace moelog::logbook {

struct Suggestion {
  int index = 0;         // 1-based position among the criteria (for --only)
  int line = 0;          // the bullet's first line
  int last_line = 0;     // its last line (a comment goes after it)
  int indent = 0;        // column of the bullet's content
  std::string prose;     // the sentence, predicate markup removed
  std::string existing;  // the predicate it already has ("" none)
  std::string predicate; // the proposal ("" when it stays manual)
  std::string reason;    // manual: why the sentence cannot be read
};

// One suggestion per Stop Criteria bullet of `logbook` (parsed from `text`).
std::vector<Suggestion> SuggestPredicates(const Logbook& logbook, std::string_view text);

// `text` with "<!-- moelog: PREDICATE -->" on a new line after each chosen
// bullet that has a proposal and no predicate yet (indented to its content;
// `only`: 1-based indices, empty = all). Nothing else changes: the prose and
// every other line stay byte for byte. `written` receives the count.
std::string InsertSuggestions(std::string_view text, const std::vector<Suggestion>& suggestions,
                              const std::set<int>& only, int* written);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_CRITERIA_SUGGEST_H_
