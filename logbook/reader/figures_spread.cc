// Reader stage figures: a measurement and its spread (figures_spread.h), as
// a table cell's "12.63 ± 0.31" is read (figures_table.cc).
#include "logbook/reader/figures_spread.h"

#include <cctype>

#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

// The unit written right before position `a` after a number ("428.7 ms"
// before " ± 3.2 ms", markup aside), or "".
std::string UnitBefore(const std::string& t, size_t a) {
  size_t b = a;
  while (b > 0 && t[b - 1] != ' ' && !std::isdigit(static_cast<unsigned char>(t[b - 1]))) --b;
  std::string unit = t.substr(b, a - b);
  while (!unit.empty() && (unit.back() == '*' || unit.back() == '_')) unit.pop_back();
  if (unit.empty() || b == 0) return "";
  size_t d = b;
  if (t[d - 1] == ' ') --d;
  while (d > 0 && (t[d - 1] == '*' || t[d - 1] == '_')) --d;
  UnitInfo info{};
  if (d == 0 || !std::isdigit(static_cast<unsigned char>(t[d - 1])) || !AnyUnit(unit, &info) || info.derived) return "";
  return unit;
}

}  // namespace

bool SpreadsDropped(const std::string& s, std::string* out) {
  bool any = false;
  std::string t = s;
  for (const std::string& mark : OutputVocabulary().spread_marks) {  // "±", "+/-" (output.json spread_marks)
    const std::string pm = " " + mark + " ";
    for (size_t a = t.find(pm); a != std::string::npos; a = t.find(pm, a + 1)) {
      if (a == 0) continue;
      const std::string before = UnitBefore(t, a);  // "428.7 ms ± 3.2 ms": the unit written on both sides
      if (!std::isdigit(static_cast<unsigned char>(t[a - 1])) && before.empty()) continue;
      size_t k = a + pm.size();
      if (DigitsAt(t, &k).empty()) continue;  // a spread is a number
      const size_t cut = k - a;               // " ± 1.3": the spread's bytes
      UnitInfo info{};
      std::string unit = k + 1 < t.size() && t[k] == ' ' ? UnitToken(t, k + 1) : "";
      while (!unit.empty() && (unit.back() == '*' || unit.back() == '_')) unit.pop_back();  // "TFLOPS**"
      if (!before.empty()) {
        if (unit != before) continue;
        t.replace(a, cut + 1 + unit.size(), std::string(cut + 1 + unit.size(), ' '));  // "428.7 ms" and blanks
      } else if (!unit.empty() && AnyUnit(unit, &info) && !info.derived) {
        // "550.8 ± 1.3 TFLOPS" -> "550.8 TFLOPS" and the spread's length in blanks after it.
        t = t.substr(0, a) + t.substr(k, 1 + unit.size()) + std::string(cut, ' ') + t.substr(k + 1 + unit.size());
      } else {
        t.replace(a, cut, std::string(cut, ' '));  // "12.63 ± 0.31 (n=5)": the measurement alone
      }
      any = true;
    }
  }
  if (any) *out = std::move(t);
  return any;
}

}  // namespace moelog::logbook::reader
