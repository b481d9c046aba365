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
  std::set<std::string> subcommand_programs;  // a program whose first plain word is its own subcommand ("nsys profile")
  std::set<std::string> repeat_names;  // "pass" of "Pass 1: 41.2ms": a repeat counter
  std::set<std::string> subcommand_tools;     // a tool whose plain words are its subcommand ("cargo bench", "k6 run")
  std::set<std::string> setup_programs;       // a command that prepares or feeds a run ("cd", "echo")
  std::set<std::string> command_prefixes;     // words before a command's program ("sudo", "time")
  std::set<std::string> name_columns;
  std::set<std::string> progress_leads;  // "progress" of "progress: 30.0 s, 11843.2 tps, lat 2.701 ms"
  std::set<std::string> setting_leads;  // "number of" before a count the run was set up with ("number of clients")
  std::set<std::string> outcome_words;  // "processed", "failed": such a count is what the run did
  std::set<std::string> pair_joiners;      // "with", "and" between printed pairs each in a code span
  std::set<std::string> pair_group_words;  // a label's word naming the group of printed pairs after it ("Aggregate")
  std::vector<std::string> rate_arrows;   // between a measurement and the rate it makes ("→")
  std::set<std::string> spread_marks;     // before a measurement's spread ("±")
  std::set<std::string> metric_line_words;  // a printed name's or header's word naming its metric ("latency", "bandwidth")
  std::set<std::string> record_banners;  // marks around a printed title that opens one run's record ("===")  // a printed table's header over cells naming the row's subject ("Name")
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
// A printed name's unit: "(ms)" in it, or its last word or `_` part
// ("avg_step_ms", "tok_s"); `bare` gets the name without it.
std::string PrintedNameUnit(const std::string& name, std::string* bare);
// Whether a printed cell starts with a number.
bool PrintedStartsNumber(const std::string& cell);
// A header of names (two or more, none a number) over a row of as many
// cells with a number.
bool PrintedHeaderOver(const std::vector<std::string>& head, const std::vector<std::string>& row);
// A printed table's column of units (ncu's "Metric Unit"; unit_columns of
// output.json): its index, or npos.
size_t PrintedUnitColumn(const std::vector<std::string>& head);
// One field of a progress line: the word naming it ("lat"; "" none), its
// number and unit as printed.
struct ProgressField {
  std::string name, digits, unit;
  bool approx = false;
};
// A periodic progress line ("progress: 30.0 s, 11843.2 tps, lat 2.701 ms
// stddev 1.220, 0 failed"; progress_leads): its first field, the time it was
// printed at, as written ("30.0 s"), and its other fields with a unit.
bool ProgressFields(const std::string& line, std::string* at, std::vector<ProgressField>* fields);
// "number of clients": a count the run was set up with (setting_count_leads)
// whose whole-number `value` is a key; `key` gets its name ("clients").
bool SettingCountKey(const std::string& name, const std::string& value, std::string* key);
// "number of transactions actually processed", "number of failed
// transactions": a count led so whose words name an outcome of the run
// (outcome_count_words); `metric` gets its name after the lead.
bool OutcomeCountName(const std::string& name, std::string* metric);
// A timing line with its rates in parentheses (llama.cpp's `prompt eval time
// =  312.44 ms /  180 tokens ( 1.74 ms per token, 576.11 tokens per
// second)`): its name ("prompt eval time"), the time, then each rate (named
// by what it is per: "token" of "ms per token"; "tokens per second" is
// tokens/s).
bool RatedFields(const std::string& line, std::string* name, std::vector<ProgressField>* fields);
// A printed name of a peak or a specification ("Peak memory", "theoretical").
bool SpecName(const std::string& bare);
// A printed name holding a count word (count_words: "Successful requests").
bool PrintedCountName(const std::string& bare);
// A number token with no unit glued to it.
bool IsNumber(const std::string& tok);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_OUTPUT_WORDS_H_
