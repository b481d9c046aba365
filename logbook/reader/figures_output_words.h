// Reader stage figures, program output: the words it reads printed lines
// with (data/reader/output.json; its "comment" says what each list is).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_WORDS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_WORDS_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/vocabulary.h"

namespace moelog::logbook::reader {

struct OutputWords {
  std::map<std::string, std::string> units;     // lower-case unit -> metric
  std::map<std::string, std::string> suffixes;  // key suffix -> unit
  std::map<std::string, std::string> aliases;   // another spelling -> the vocabulary's unit
  std::map<std::string, std::string> duration_units;
  std::map<std::string, std::string> unit_words;  // a key's word anywhere in it that names its unit  // a log's short duration unit -> the vocabulary's
  std::set<std::string> unitless, counts, duration_names, counters, stat_suffixes;
  std::vector<std::string> unit_phrases;  // "time in " before the unit of a table's figures ("Name (time in us)")
  std::set<std::string> measured_peaks;   // metrics whose "peak" a run measures ("Peak output token throughput")
  std::set<std::string> unit_columns;  // the last word of a printed table's header over its rows' units ("Metric Unit")
  std::set<std::string> measured_prefixes;  // a printed key's first part that makes it a measured figure ("avg_cpu")
};

// The words, read once from the built-in data/reader/output.json.
const OutputWords& OutputVocabulary();

// A number token as printed: "0.672896", "-0.00", "1,295.95", "~0.73"
// (`approx`), "2.1e9"; a unit glued after it ("0.0051ms") goes to `unit`.
bool NumberToken(const std::string& tok, std::string* num, std::string* unit, bool* approx);
// What a unit written in output measures: the reader's vocabulary first,
// then the output words (kept as written, factor 1); "%" is MFU when the
// name says so.
bool OutputUnit(const std::string& unit, const std::string& name, UnitInfo* info);
// A number token with no unit glued to it.
bool IsNumber(const std::string& tok);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_WORDS_H_
