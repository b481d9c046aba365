#include "logbook/numbers.h"

#include <charconv>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <string>

namespace moelog::logbook {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `s` without its thousands separators `sep` (a comma; `_` and `'` as
// programs and Swiss tables write them: "40_977", "26'661"), when they group
// the integer part correctly (1-3 digits, then groups of 3); nullopt otherwise.
std::optional<std::string> WithoutGrouping(std::string_view s, char sep) {
  size_t int_begin = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  size_t int_end = int_begin;
  while (int_end < s.size() && (IsDigit(s[int_end]) || s[int_end] == sep)) ++int_end;
  const std::string_view whole = s.substr(int_begin, int_end - int_begin);
  if (s.find(sep, int_end) != std::string_view::npos) return std::nullopt;
  const size_t first = whole.find(sep);
  if (first == 0 || first > 3) return std::nullopt;
  for (size_t i = first; i < whole.size(); i += 4)
    if (whole[i] != sep || i + 3 >= whole.size() + 0 || !IsDigit(whole[i + 1]) || !IsDigit(whole[i + 2]) ||
        !IsDigit(whole[i + 3]) || (i + 4 < whole.size() && whole[i + 4] != sep))
      return std::nullopt;
  std::string out(s.substr(0, int_begin));
  for (char c : whole)
    if (c != sep) out += c;
  out += s.substr(int_end);
  return out;
}

}  // namespace

std::optional<double> ParseNumber(std::string_view s) {
  std::string ungrouped;
  for (const char sep : {',', '_', '\''})
    if (s.find(sep) != std::string_view::npos) {
      auto u = WithoutGrouping(s, sep);
      if (!u) return std::nullopt;
      ungrouped = std::move(*u);
      s = ungrouped;
      break;
    }
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || !(IsDigit(s[0]) || s[0] == '-' || s[0] == '.')) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string FormatValue(double v) {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) {
    return std::to_string(static_cast<long long>(v));
  }
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

std::string GroupThousands(const std::string& text) {
  const size_t sign = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  size_t end = sign;
  while (end < text.size() && IsDigit(text[end])) ++end;
  if (end == sign || (end < text.size() && text[end] != '.')) return text;
  for (size_t i = end + (end < text.size() ? 1 : 0); i < text.size(); ++i)
    if (!IsDigit(text[i])) return text;
  std::string out = text.substr(0, sign);
  for (size_t i = sign; i < end; ++i) {
    out += text[i];
    const size_t left = end - i - 1;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  return out + text.substr(end);
}

std::string Significant(double v, int digits, bool group) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
  if (v == 0) return "0";
  digits = std::max(1, std::min(digits, 15));
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  std::string s;
  if (e >= digits - 1) {
    // Whole digits past the significant ones are zeros: 608456 -> 608500.
    const double unit = std::pow(10.0, e - digits + 1);
    s = Fixed(std::round(v / unit) * unit, 0);
  } else {
    s = Fixed(v, std::min(digits - 1 - e, 17));
    // Rounding up a digit (9.9996 -> "10.000") keeps one digit too many.
    const size_t dot = s.find('.');
    if (dot != std::string::npos && std::fabs(std::stod(s)) >= std::pow(10.0, e + 1)) s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return group ? GroupThousands(s) : s;
}

std::string Clean(double v) {
  if (!std::isfinite(v)) return FormatValue(v);
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
  std::string s = engine::General(v, 9);
  if (s.find('e') != std::string::npos && std::fabs(v) >= 1e-6 && std::fabs(v) < 1e15) {
    // "%g" turns to exponents below 1e-4: the same digits in plain decimals.
    const int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    s = Fixed(v, std::max(0, 8 - e));
    while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
      const bool dot = s.back() == '.';
      s.pop_back();
      if (dot) break;
    }
  }
  return s;
}

std::string Readable(double v) {
  if (!std::isfinite(v)) return FormatValue(v);
  if (std::fabs(v) >= 1e5) return GroupThousands(Fixed(std::round(v), 0));
  std::string s = Clean(std::stod(engine::General(v, 6)));
  return s == "-0" ? "0" : s;
}

}  // namespace moelog::logbook
