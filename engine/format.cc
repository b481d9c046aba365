#include "engine/format.h"

#include <charconv>

namespace moelog::engine {
namespace {

// A double's fixed form: at most 309 integer digits, and the decimals asked
// for (bounded here).
constexpr int kMaxDecimals = 60;

std::string ToChars(double v, std::chars_format format, int precision) {
  char buf[400];
  if (precision < 0) precision = 0;
  if (precision > kMaxDecimals) precision = kMaxDecimals;
  const auto r = std::to_chars(buf, buf + sizeof buf, v, format, precision);
  return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string();
}

}  // namespace

std::string Fixed(double v, int decimals) { return ToChars(v, std::chars_format::fixed, decimals); }

std::string General(double v, int digits) { return ToChars(v, std::chars_format::general, digits); }

std::string Scientific(double v, int decimals) { return ToChars(v, std::chars_format::scientific, decimals); }

std::string Hex16(uint64_t v) {
  char buf[16];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return std::string(16 - static_cast<size_t>(r.ptr - buf), '0') + std::string(buf, r.ptr);
}

std::vector<std::string> SplitCsvRecord(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') { cur += '"'; ++i; }
      else if (ch == '"') quoted = false;
      else cur += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (ch != '\r') {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace moelog::engine
