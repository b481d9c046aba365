// The numbers a logbook's text states ("4.2 ms", "1.8x", "8 GPUs"): where
// each starts and ends, its value and the unit written after it.
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {

namespace {
// ASCII classes (the C locale's isdigit/isalnum, without the calls).
inline bool IsDigitChar(char c) { return c >= '0' && c <= '9'; }
inline bool IsWordChar(char c) {
  return IsDigitChar(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
}  // namespace

namespace {

// True when the digits at `start` continue a word, a version or a value
// ("v5p", "x=8", "1.2.3", "4-8", "10:30", "3/4", "1,2"): no number.
bool GluedBefore(std::string_view t, size_t start) {
  const char prev = start > 0 ? t[start - 1] : ' ';
  return IsWordChar(prev) || prev == '=' || prev == '.' ||
         ((prev == '-' || prev == ':' || prev == '/' || prev == ',') && start > 1 && IsDigitChar(t[start - 2]));
}

// The end of the number whose digits start at i: digits, thousands groups
// and a fraction.
size_t NumberEnd(std::string_view t, size_t i) {
  const size_t n = t.size();
  size_t j = i;
  while (j < n) {
    if (IsDigitChar(t[j])) { ++j; continue; }
    // A thousands group: ",ddd" not followed by a fourth digit.
    if (t[j] == ',' && j + 3 < n && IsDigitChar(t[j + 1]) && IsDigitChar(t[j + 2]) && IsDigitChar(t[j + 3]) &&
        (j + 4 >= n || !IsDigitChar(t[j + 4]))) {
      j += 4;
      continue;
    }
    break;
  }
  if (j + 1 < n && t[j] == '.' && IsDigitChar(t[j + 1])) {
    ++j;
    while (j < n && IsDigitChar(t[j])) ++j;
  }
  return j;
}

// The unit after a number ending at j: directly attached or after up to two
// spaces / closing backticks. *k is where the unit ends (j without one).
std::string_view UnitAt(std::string_view t, size_t j, size_t* k) {
  static constexpr std::string_view kUnits[] = {"TF/s", "tokens/s", "tok/s", "GB/s", "MiB", "GiB",
                                                "ms",   "s",        "%",     "x"};
  const size_t n = t.size();
  size_t max_skip = 0;
  if (j < n && (t[j] == ' ' || t[j] == '`')) max_skip = (j + 1 < n && (t[j + 1] == ' ' || t[j + 1] == '`')) ? 2 : 1;
  *k = j;
  for (std::string_view u : kUnits) {
    for (size_t skip = 0; skip <= max_skip; ++skip) {
      const size_t p = j + skip;
      if (p + u.size() > n || t[p] != u[0] || t.compare(p, u.size(), u) != 0) continue;
      if (p + u.size() < n && IsWordChar(t[p + u.size()])) continue;
      *k = p + u.size();
      return u;
    }
  }
  return {};
}

// The value of the digits t[i, j), without thousands separators.
double DigitsValue(std::string_view t, size_t i, size_t j) {
  // NUL-terminated for strtod.
  char small[64];
  std::string large;
  char* digits = small;
  if (j - i >= sizeof small) {
    large.resize(j - i + 1);
    digits = large.data();
  }
  size_t m = 0;
  for (size_t q = i; q < j; ++q)
    if (t[q] != ',') digits[m++] = t[q];
  digits[m] = '\0';
  return std::strtod(digits, nullptr);
}

}  // namespace

std::vector<StatedNumber> ExtractNumbers(std::string_view t) {
  std::vector<StatedNumber> out;
  const size_t n = t.size();
  size_t i = 0;
  while (i < n) {
    if (!IsDigitChar(t[i])) { ++i; continue; }
    size_t start = i;
    const char prev = start > 0 ? t[start - 1] : ' ';
    const bool glued = GluedBefore(t, start);
    bool neg = false;
    if (!glued && (prev == '-' || prev == '+')) {
      neg = prev == '-';
      --start;
    }
    const size_t j = NumberEnd(t, i);
    size_t k = j;
    const std::string_view unit = UnitAt(t, j, &k);
    const bool attached_word = unit.empty() && j < n && IsWordChar(t[j]);
    if (!glued && !attached_word) {
      StatedNumber num;
      num.value = DigitsValue(t, i, j) * (neg ? -1 : 1);
      num.unit = std::string(unit);
      num.text = std::string(t.substr(start, j - start));
      out.push_back(std::move(num));
    }
    i = std::max(k, j);
    while (i < n && IsWordChar(t[i])) ++i;  // skip the rest of a glued token ("5b6f53c")
  }
  return out;
}

}  // namespace moelog::logbook
