// Reader stage figures: a rate a heading or caption names in words
// ("Number of samples trained per second", "Tokens generated per sec"):
// the unit of a table of bare numbers under it (figures_ratewords.cc).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_RATEWORDS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_RATEWORDS_H_

#include <string>

namespace moelog::logbook::reader {

// The unit (`samples/s`) of the rate `text` names with one of table.json's
// rate_phrases after what it counts (at most two words before it: "samples
// trained per second"), when that makes a unit of the vocabulary; "" else.
std::string RateInWords(const std::string& text);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_RATEWORDS_H_
