// The words the recorded-figures reader knows, as data: units and their
// spellings (data/reader/vocabulary.json, compiled in), statistic, metric and
// count words. Loaded once; the stages ask ReaderLexicon().
#ifndef MOELOG_LOGBOOK_READER_VOCABULARY_H_
#define MOELOG_LOGBOOK_READER_VOCABULARY_H_

#include <map>
#include <set>
#include <string>

#include "engine/status.h"

namespace moelog::logbook::reader {

// What a unit written after a number measures: the metric, the factor to
// its stored unit (time in seconds), and whether it is derived (a speedup).
struct UnitInfo {
  std::string metric;
  double factor = 1;
  bool derived = false;
};

struct Lexicon {
  std::map<std::string, UnitInfo> units;  // as written -> what it measures
  std::set<std::string> statistic_words, metric_words, count_words, delta_words, goal_words;
  // reference_words name a run a figure is compared with ("Reference path:",
  // "comparison"): its figure restates an earlier entry's only when it equals
  // one, else it is this entry's own measurement of it. estimate_words make a
  // sentence's figures projections ("estimated", "est.", "projected").
  std::set<std::string> reference_words, estimate_words;
};

// A vocabulary file's text read; an error names the key that is wrong.
Result<Lexicon> ParseLexicon(const std::string& json_text, const std::string& file);

// The built-in vocabulary (data/reader/vocabulary.json), parsed on first use.
const Lexicon& ReaderLexicon();

// The unit `unit` names in `lex`: a unit of its table, or one of them per
// device ("TFLOP/s/rank", "GB/s/GPU": metric "<metric>_per_<device>").
bool UnitIn(const Lexicon& lex, const std::string& unit, UnitInfo* info);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_VOCABULARY_H_
