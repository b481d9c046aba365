// Reader stage figures: figures worked out rather than measured, a result
// of arithmetic written beside its operands ("6.12 / 8 ≈ 0.77 ms",
// "4096*4096*2 B = 32 MiB", "16 kernels x 3 sizes x 20 s = 16 min").
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// A figure written as the result of arithmetic on numbers before it ("7267
// ops / 6 per cycle = 1211 min cycles", "730us -> 560us = ~170us", "6.12 / 8
// ≈ 0.77 ms"): computed,
// not measured. A conversion of one figure ("12.30 ms = 412.5 TF/s") is none.
// Looks back from `start` over its clause only.
bool ComputedFigure(const std::string& s, size_t start) {
  size_t p = start;
  while (p > 0 && (s[p - 1] == ' ' || s[p - 1] == '~' || s[p - 1] == '*' || s[p - 1] == '`')) --p;
  const bool approx = p >= 3 && s.compare(p - 3, 3, "\xE2\x89\x88") == 0;  // "= ≈ 170", "6.12 / 8 ≈ 0.77"
  if (approx) p -= 3;
  while (p > 0 && s[p - 1] == ' ') --p;
  const bool equals = p >= 2 && s[p - 1] == '=' && s[p - 2] == ' ';  // "time_s=0.05" is a key's value
  if (!equals && !approx) return false;
  const size_t eq = equals ? p - 1 : p, cb = ClauseStart(s, eq, false);
  const std::string left = s.substr(cb, eq - cb);
  for (size_t k = 1; k + 1 < left.size(); ++k) {  // "4096*4096*2 B = 32 MiB", "8192×2 B": a product without spaces
    const size_t n = left[k] == '*' ? 1 : left.compare(k, 2, "\xC3\x97") == 0 ? 2 : 0;
    if (n > 0 && k + n < left.size() && std::isdigit(static_cast<unsigned char>(left[k - 1])) &&
        std::isdigit(static_cast<unsigned char>(left[k + n])))
      return true;
  }
  for (const char* op : {" / ", " * ", " x ", " + ", " - ", " \xC3\x97 ", " \xE2\x88\x92 ", "->", "\xE2\x86\x92"}) {
    const size_t at = left.find(op);
    if (at == std::string::npos) continue;
    const bool digit_before = left.find_first_of("0123456789") < at;
    const bool digit_after = left.find_first_of("0123456789", at) != std::string::npos;
    if (digit_before && digit_after) return true;
  }
  return false;
}

// A factor of a product worked out right after it ("16 kernels x 3 sizes x
// 20 s = 16 min"): `start` the figure's number, `end` past its unit.
bool OperandFigure(const std::string& s, size_t start, size_t end) {
  size_t e = end, b = start;
  while (e < s.size() && s[e] == ' ') ++e;
  while (b > 0 && s[b - 1] == ' ') --b;
  if (e + 1 >= s.size() || s[e] != '=' || s[e + 1] != ' ') return false;
  for (const std::string op : {"x", "*", "\xC3\x97"})
    if (b > op.size() && s.compare(b - op.size(), op.size(), op) == 0 && s[b - op.size() - 1] == ' ') return true;
  return false;
}

}  // namespace moelog::logbook::reader
