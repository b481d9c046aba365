// Numbers as moelog prints them, in one place: std::to_chars, which writes
// what printf would in the C locale (so outputs do not move) without a
// locale, a format string or a buffer size to get wrong.
#ifndef MOELOG_ENGINE_FORMAT_H_
#define MOELOG_ENGINE_FORMAT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace moelog::engine {

// `v` with exactly `decimals` digits after the point, as "%.*f":
// Fixed(1.23456, 3) == "1.235".
std::string Fixed(double v, int decimals);

// `v` in `digits` significant digits, as "%.*g": General(0.1, 9) == "0.1".
std::string General(double v, int digits = 6);

// `v` in scientific notation with `decimals` digits after the point, as
// "%.*e": Scientific(12345.0, 3) == "1.234e+04".
std::string Scientific(double v, int decimals);

// `v` as 16 lower-case hex digits, as "%016llx".
std::string Hex16(uint64_t v);

// Splits one CSV record (RFC 4180 quoting; no embedded newlines): the data
// files' reader.
std::vector<std::string> SplitCsvRecord(const std::string& line);

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_FORMAT_H_
