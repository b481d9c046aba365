// The words the recorded-figures reader knows, as data: units and their
// spellings (data/reader/vocabulary.json, compiled in), statistic, metric and
// count words. Loaded once; the stages ask ReaderLexicon().
#ifndef MOELOG_LOGBOOK_READER_VOCABULARY_H_
#define MOELOG_LOGBOOK_READER_VOCABULARY_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"

namespace moelog::logbook::reader {

// What a unit written after a number measures: the metric, the factor to
// its stored unit (time in seconds), and whether it is derived (a speedup).
// `context`: words of which one must be written before the number (in its
// clause, its column's header or its label) for the unit to name the metric:
// "GB" is memory after "peak", "VRAM" or "memory", else a size of something.
struct UnitInfo {
  UnitInfo() = default;
  UnitInfo(std::string m, double f, bool d) : metric(std::move(m)), factor(f), derived(d) {}
  std::string metric;
  double factor = 1;
  bool derived = false;
  std::vector<std::string> context;
  // `context_after`: words of which one right after the unit names the
  // metric too ("59GB mem", "41 GB peak"), unless a device is named before.
  std::vector<std::string> context_after;
  // `rating`: words of which one in the same clause makes the figure a
  // device's rating or limit rather than a reading ("a power envelope of
  // 75 W", "the slot supplies 25 W").
  std::vector<std::string> rating;
};

struct Lexicon {
  std::map<std::string, UnitInfo> units;  // as written -> what it measures
  // Rates of a word per second in lower case ("tokens/s", "request/s"): a
  // header's "Token/s" or "Request/s" is the same unit. Units of short
  // symbols ("MB/s", "Mb/s", "H/s") are never matched without their case.
  std::map<std::string, UnitInfo> word_rates;
  std::set<std::string> statistic_words, metric_words, count_words, delta_words, goal_words;
  // time_words: words that name a time by themselves ("latency", "TTFT",
  // "elapsed"): a metric named by one needs no "time" added (lower case).
  std::set<std::string> time_words;
  // Marks written right before a figure that make it a bound, not a reading
  // ("<500ms", "≥ 2.5 s", ">= 90 fps"): a claim, a goal or a limit.
  std::set<std::string> bound_marks;
  // A magnitude written right after a number ("630K", "6.44B", "221k"):
  // the number is that many times as large, its digits shown as written.
  std::map<std::string, double> magnitudes;
  // Words naming what a percentage measures ("91.8% load utilization",
  // "MFU 62%", "hit rate 48%") -> the metric ("utilization_pct").
  std::map<std::string, std::string> percent_metrics;
  // Percent metrics worked out from other runs' figures ("90% scaling
  // efficiency"): derived, never a run's own figure.
  std::set<std::string> derived_percent_metrics;
  // reference_words name a run a figure is compared with ("Reference path:",
  // "comparison"): its figure restates an earlier entry's only when it equals
  // one, else it is this entry's own measurement of it. estimate_words make a
  // sentence's figures projections ("estimated", "est.", "projected").
  std::set<std::string> reference_words, estimate_words;
  // no_run_leads: a word of a paragraph's or list item's lead ("Hardware:",
  // "Interpretation:", "Infra notes.") that says it reads, plans, explains or
  // states the machine rather than records a run (prose::NoRunLead), lower case.
  std::set<std::string> no_run_leads;
  // result_lead_nouns: a word after one of summing_up_leads ("Summary
  // metrics:") that makes the lead record a run's figures after all.
  std::set<std::string> summing_up_leads, result_lead_nouns;
  // plan_leads: a word of a line that leads a list or a printed block
  // ("**Expected results after phase 2:**", "Target numbers:") that makes its
  // items what is expected, projected or aimed for, not runs (lower case).
  std::set<std::string> plan_leads;
  // plan_fields: a field's name ("- **Target**: >15 tok/s", "- Goal:",
  // "- Config:") whose value plans, sets up or reads a run: no measurement.
  std::set<std::string> plan_fields;
  // How long something went on or how long ago it happened, not what a run
  // took: duration_leads right before a time ("polled for 4 min", "after 3
  // s"), duration_events right after it ("~6 s later", "3 h 47 m uptime"),
  // duration_nouns after a time written as an adjective ("a 4-second
  // profile", "the 60-second limit").
  // job_duration_leads: the same before a time in seconds or less only ("after
  // 3 s", "succeeded in 40 s"; "reached the target in 3.3 hours" is a run's).
  std::set<std::string> duration_leads, job_duration_leads, duration_events, duration_nouns;
  // setting_nouns: what a figure sets up rather than measures, right after
  // it ("at 250 ms intervals", "a 64 KiB buffer"), right before it
  // ("warmup 10 s", "timeout 30 s"), or before `of` or `size` before it ("a
  // timeout of 30 s", "chunk size 4 MiB"): a setting, no run's figure.
  // setting_qualifiers: a word that may stand between the figure and the
  // noun after it ("a 64 KiB ring buffer").
  std::set<std::string> setting_nouns, setting_qualifiers;
  // delta_leads: a word right before a figure that makes it what a change
  // adds or saves ("adds ~30 us per dispatch", "saves 2 ms"), not a run's.
  std::set<std::string> delta_leads;
  // before_words: the first word of a run's name that makes it the side a
  // comparison starts from (a table's "Before", "Old", "Baseline" column, an
  // arrow's first side): its figure equal to an earlier entry's restates it,
  // even on a row whose other side is this entry's own measurement.
  std::set<std::string> before_words;
  // measured_verbs: a word of a figure's clause before a comparison sign
  // that says the bound was measured ("p99 measured < 1 ms", "stayed under
  // 2 ms"): without one, "p99 < 500ms", ">= 60 tok/s" state a limit.
  std::set<std::string> measured_verbs;
};

// A vocabulary file's text read; an error names the key that is wrong.
Result<Lexicon> ParseLexicon(const std::string& json_text, const std::string& file);

// The built-in vocabulary (data/reader/vocabulary.json), parsed on first use.
const Lexicon& ReaderLexicon();
// A metric's name as the author wrote it with its base metric said once:
// "train_time" + "time_s" is "train_time_s", "decode" + "time_s"
// "decode_time_s", "p95" + "tokens_per_s" "p95_tokens_per_s"
// (metric_names.cc).
std::string QualifiedMetricName(const std::string& qualifier, const std::string& base);
// Whether the words of `name` (split at '_', ' ', '/' and '-') already
// name a time ("p95 latency", "train/step time avg", "TTFT").
bool NamesATime(const std::string& name);
// The text of a built-in data/reader/ file ("data/reader/table.json"), or "".
const char* ReaderDataFile(const std::string& path);

// The unit `unit` names in `lex`: a unit of its table, or one of them per
// device ("TFLOP/s/rank", "GB/s/GPU": metric "<metric>_per_<device>").
bool UnitIn(const Lexicon& lex, const std::string& unit, UnitInfo* info);
// UnitIn, or a rate of a word per second written in another case ("Token/s",
// "Request/s"): for a table's header, which names its unit in its own words.
bool WordRateIn(const Lexicon& lex, const std::string& written, UnitInfo* info);

// A value written in a unit of `factor`, in its metric's stored unit, and
// back: a power of ten divides exactly ("3.12 ms" is 0.00312 s, not
// 0.0031199999999999999 s); other factors (MB -> MiB) multiply.
double ToStored(double written, double factor);
double FromStored(double stored, double factor);

// A unit written with a magnitude before it ("k tokens/s", "M tok/s": as
// stored for "221k tokens/s"): the magnitude's factor and the plain unit.
// 1 and `unit` itself when there is none.
double MagnitudeOf(const Lexicon& lex, const std::string& unit, std::string* plain);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_VOCABULARY_H_
