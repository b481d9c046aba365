// Reader stage figures, one field of a `|`-split log line (figures_pipefields.h).
#include "logbook/reader/figures_pipefields.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

bool Alpha(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

std::string PipeFieldForm(const std::string& part) {
  const size_t colon = part.find(": ");
  if (colon == std::string::npos || colon == 0) return part;
  std::string value = parse_detail::Trim(part.substr(colon + 2));
  if (const size_t open = value.find(" ("); open != std::string::npos && value.back() == ')')
    value = parse_detail::Trim(value.substr(0, open));  // "8.78 GF (6N+12LHQT: N=1.3B)"
  const std::vector<std::string> words = SpaceWords(value);
  std::string num, glued;
  bool approx = false;
  if (words.empty() || !NumberToken(words[0], &num, &glued, &approx)) return part;
  std::string name = part.substr(0, colon);
  // "13.53 GB alloc": a number, its unit, and one word that names it.
  UnitInfo info{};
  if (words.size() == 3 && glued.empty() && AnyUnit(words[1], &info) && Alpha(words[2]))
    return words[2] + " " + name + ": " + words[0] + " " + words[1];
  if (words.size() == 2 && !glued.empty() && AnyUnit(glued, &info) && Alpha(words[1]))  // "13.53GB alloc"
    return words[1] + " " + name + ": " + words[0];
  return name + ": " + value;
}

std::string PipeLineForm(const std::string& line) {
  if (line.find(" | ") == std::string::npos || line.size() > 600) return line;
  std::vector<std::string> parts;
  int named = 0;
  for (size_t b = 0;;) {
    const size_t e = line.find('|', b);
    parts.push_back(parse_detail::Trim(line.substr(b, e == std::string::npos ? std::string::npos : e - b)));
    named += parts.back().find(": ") != std::string::npos ? 1 : 0;
    if (e == std::string::npos) break;
    b = e + 1;
  }
  if (named < 2) return line;
  std::string out;
  for (const auto& p : parts) out.append(out.empty() ? "" : " | ").append(PipeFieldForm(p));
  return out;
}

}  // namespace moelog::logbook::reader
