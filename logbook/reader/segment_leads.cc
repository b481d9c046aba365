// The segment stage for plain-text sections without a heading or a date: a
// paragraph whose first line numbers it (`1 - Use BTreeMap:`, `2) Frame
// reuse`) in a run of such lines counting up from one, and list items or
// paragraphs led by one label (`* commit: faster filter`) each over its
// table or printout. Which of them head entries is the document's structure
// (doc/outline.cc).
#include <cctype>
#include <string>

#include "logbook/reader/segment.h"
#include "logbook/text.h"

namespace moelog::logbook {

namespace {

// "day 1", "Day3: Tuning the kernel", "Run 2 - fused": a line led by an
// ordinal word and its number, alone or before a colon or a dash and words.
NumberedLine OrdinalLine(const std::string& t) {
  size_t w = 0;
  while (w < t.size() && std::isalpha(static_cast<unsigned char>(t[w]))) ++w;
  if (w == 0 || w > 16 || !IsOrdinalWord(t.substr(0, w))) return {};
  size_t d = w < t.size() && t[w] == ' ' ? w + 1 : w, e = d;
  while (e < t.size() && e - d < 3 && std::isdigit(static_cast<unsigned char>(t[e]))) ++e;
  if (e == d || (e < t.size() && std::isdigit(static_cast<unsigned char>(t[e])))) return {};
  std::string rest = Trim(t.substr(e));
  if (!rest.empty() && (rest[0] == ':' || rest[0] == '-' || rest[0] == '.')) rest = Trim(rest.substr(1));
  else if (!rest.empty()) return {};  // "Run 1 finished in 3 s": a sentence
  if (rest.size() > 60) rest.resize(rest.rfind(' ', 60) == std::string::npos ? 60 : rest.rfind(' ', 60));
  std::string heading = t.substr(0, w) + " " + t.substr(d, e - d);
  if (!rest.empty()) heading += ": " + rest;
  return {std::atoi(t.substr(d, e - d).c_str()), heading};
}

}  // namespace

NumberedLine ReadNumberedLine(std::string_view line) {
  const std::string t = Trim(line);
  if (const NumberedLine ordinal = OrdinalLine(t); ordinal.number > 0) return ordinal;
  size_t e = 0;
  while (e < t.size() && e < 3 && std::isdigit(static_cast<unsigned char>(t[e]))) ++e;
  if (e == 0 || e + 2 >= t.size()) return {};
  size_t w = e;
  if (t.compare(e, 3, " - ") == 0) w = e + 3;
  else if ((t[e] == ')' || t[e] == '.') && t[e + 1] == ' ') w = e + 2;
  else return {};
  std::string words(t.substr(w));
  // "1. After optimizing the decode phase with cuda graph, the time ...": its first clause.
  if (const size_t cut = words.find_first_of(",;:"); cut != std::string::npos && cut >= 12) words.resize(cut);
  if (const size_t stop = words.find(". "); stop != std::string::npos && stop >= 12) words.resize(stop);
  if (words.size() > 60) words.resize(words.rfind(' ', 60) == std::string::npos ? 60 : words.rfind(' ', 60));
  while (!words.empty() && (words.back() == ':' || words.back() == ' ' || words.back() == '.')) words.pop_back();
  // A title or a sentence's first clause: a letter first.
  if (words.empty() || !std::isalpha(static_cast<unsigned char>(words[0]))) return {};
  return {std::atoi(t.substr(0, e).c_str()), t.substr(0, e) + ". " + words};
}

std::string LeadLabel(std::string_view line) {
  const std::string t = Trim(line);
  const size_t colon = t.find(':');
  if (colon == std::string::npos || colon == 0 || colon > 24 || colon + 1 >= t.size() || t[colon + 1] != ' ') return "";
  const std::string label = t.substr(0, colon);
  if (label.find(' ') != std::string::npos || label.find('*') != std::string::npos || label.find('`') != std::string::npos)
    return "";
  return label;
}

}  // namespace moelog::logbook
