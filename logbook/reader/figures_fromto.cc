#include "logbook/reader/figures_fromto.h"

#include <cctype>

#include "logbook/reader/internal.h"
#include "logbook/reader/prose.h"

namespace moelog::logbook::reader {

std::string FromToUnit(const std::string& s, size_t start, size_t at) {
  size_t b = 0;
  if (Lower(WordBefore(s, start, &b)) != "from" || prose::SpanVerb(Lower(WordBefore(s, b)))) return "";
  size_t e = at;
  if (Lower(WordAt(s, at, &e)) != "to") return "";
  size_t q = e;
  while (q < s.size() && (s[q] == ' ' || s[q] == '~' || s[q] == '*' || s[q] == '`')) ++q;
  return UnitOfNumberAt(s, q);
}

std::string UnitOfNumberAt(const std::string& s, size_t q) {
  const size_t d = q;
  while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == '.' || s[q] == ',')) ++q;
  if (q == d) return "";
  while (q < s.size() && s[q] == ' ') ++q;
  UnitInfo info{};
  const std::string unit = UnitToken(s, q);
  return UnitOf(unit, &info) && !info.derived ? unit : "";
}

}  // namespace moelog::logbook::reader
