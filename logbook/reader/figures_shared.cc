// Reader stage figures: a figure written once for two things, in
// parentheses with a word saying so right after it (`the two kernels tie
// (0.057ms both)`, `(3.1 GB each)`): the sentence's measurement, not an
// aside. The words are data: vocabulary.json shared_words.
#include <cctype>
#include <set>
#include <string>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

bool SharedAside(const std::string& s, size_t end) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "shared_words"));
  size_t p = end;
  while (p < s.size() && s[p] == ' ') ++p;
  size_t q = p;
  while (q < s.size() && std::isalpha(static_cast<unsigned char>(s[q]))) ++q;
  return q > p && q < s.size() && s[q] == ')' && words->count(Lower(s.substr(p, q - p))) > 0;
}

}  // namespace moelog::logbook::reader
