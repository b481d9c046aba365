// Reader stage figures: a rate named in words over a table of bare numbers
// (a scaling grid's heading "Number of samples trained per second").
#include "logbook/reader/figures_ratewords.h"

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

std::string RateInWords(const std::string& text) {
  static const std::set<std::string> phrases = DataWords("data/reader/table.json", "rate_phrases");
  std::vector<std::string> words;
  for (std::string w : Words(Lower(text))) {
    while (!w.empty() && std::strchr("(),:;*.`", w.back())) w.pop_back();
    while (!w.empty() && std::strchr("(*`", w.front())) w.erase(w.begin());
    if (!w.empty()) words.push_back(w);
  }
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    if (!phrases.count(words[i] + " " + words[i + 1])) continue;
    for (size_t back = 1; back <= 2 && back <= i; ++back) {
      const std::string unit = words[i - back] + "/s";
      UnitInfo info{};
      if (UnitOf(unit, &info) && !info.derived) return unit;
    }
  }
  return "";
}

}  // namespace moelog::logbook::reader
