#include "logbook/numbers.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace moelog::logbook {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `s` without its thousands commas, when they group the integer part
// correctly (1-3 digits, then groups of 3); nullopt otherwise.
std::optional<std::string> WithoutGrouping(std::string_view s) {
  size_t int_begin = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  size_t int_end = int_begin;
  while (int_end < s.size() && (IsDigit(s[int_end]) || s[int_end] == ',')) ++int_end;
  const std::string_view whole = s.substr(int_begin, int_end - int_begin);
  if (s.find(',', int_end) != std::string_view::npos) return std::nullopt;
  const size_t first = whole.find(',');
  if (first == 0 || first > 3) return std::nullopt;
  for (size_t i = first; i < whole.size(); i += 4)
    if (whole[i] != ',' || i + 3 >= whole.size() + 0 || !IsDigit(whole[i + 1]) || !IsDigit(whole[i + 2]) ||
        !IsDigit(whole[i + 3]) || (i + 4 < whole.size() && whole[i + 4] != ','))
      return std::nullopt;
  std::string out(s.substr(0, int_begin));
  for (char c : whole)
    if (c != ',') out += c;
  out += s.substr(int_end);
  return out;
}

}  // namespace

std::optional<double> ParseNumber(std::string_view s) {
  std::string ungrouped;
  if (s.find(',') != std::string_view::npos) {
    auto u = WithoutGrouping(s);
    if (!u) return std::nullopt;
    ungrouped = std::move(*u);
    s = ungrouped;
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

}  // namespace moelog::logbook
