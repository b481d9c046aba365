#include "logbook/reader/figures_output_words.h"

#include "logbook/reader/internal.h"
#include "logbook/reader/data_words.h"

namespace moelog::logbook::reader {

const OutputWords& OutputVocabulary() {
  static const OutputWords words = [] {
    OutputWords w;
    const char* file = "data/reader/output.json";
    auto map = [&](const char* key, std::map<std::string, std::string>* into) { *into = DataWordMap(file, key); };
    auto set = [&](const char* key, std::set<std::string>* into) { *into = DataWords(file, key); };
    map("units", &w.units);
    map("key_suffixes", &w.suffixes);
    map("unit_aliases", &w.aliases);
    set("unitless_metrics", &w.unitless);
    set("count_words", &w.counts);
    map("duration_units", &w.duration_units);
    map("unit_words", &w.unit_words);
    set("duration_names", &w.duration_names);
    set("counter_names", &w.counters);
    set("statistic_suffixes", &w.stat_suffixes);
    std::set<std::string> phrases;
    set("unit_phrases", &phrases);
    set("measured_peak_metrics", &w.measured_peaks);
    set("statistic_prefixes", &w.measured_prefixes);
    set("unit_columns", &w.unit_columns);
    w.unit_phrases.assign(phrases.begin(), phrases.end());
    return w;
  }();
  return words;
}

}  // namespace moelog::logbook::reader
