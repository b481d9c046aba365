// Reader stage figures, lists named by their label: a label whose
// parenthesis names the values of the items below it ("- Results (final
// avg reward, performance delta, step-2 total time):" over "- GA=1: 0.3960,
// +0.0018, ~12.26s"): each item's comma list gives those values in order,
// each named by its name (a bare number too: `final_avg_reward=0.3960`).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_NAMEDLIST_H_
#define MOELOG_LOGBOOK_READER_FIGURES_NAMEDLIST_H_

#include <string>
#include <vector>

namespace moelog::logbook::reader {

// The names a label's closing parenthesis lists ("Results (final avg
// reward, performance delta, step-2 total time)"): two or more, each of a
// few words with a letter, no `=`; empty for any other label.
std::vector<std::string> ListNames(const std::string& label);

// An item's text after its label (`rest`: " 0.3960, +0.0018, ~12.26s") with
// each value of its comma list named by `names` in order ("final_avg_reward=0.3960,
// step_2_total_time=~12.26s"); a value named as a change (a delta word:
// "performance delta") is a difference of two runs and left out. `rest`
// unchanged when its list does not hold as many values, each a number.
std::string NamedListText(const std::string& rest, const std::vector<std::string>& names);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_NAMEDLIST_H_
