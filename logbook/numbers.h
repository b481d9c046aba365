// Numbers as moelog reads and prints them: one parser, one formatter.
#ifndef MOELOG_LOGBOOK_NUMBERS_H_
#define MOELOG_LOGBOOK_NUMBERS_H_

#include <optional>
#include <string>
#include <string_view>

#include "engine/format.h"

namespace moelog::logbook {

// A whole token as a finite decimal number: "2", "-0.25", "1e-05", "+3",
// "1,578,564" (thousands commas, correctly grouped; "40_977" and "26'661"
// likewise, one kind of separator a number). nullopt for anything
// else: "", "2x", "1,2", "inf", "nan", "0x10".
std::optional<double> ParseNumber(std::string_view s);

// A number the way moelog prints config values, keys and chart axes:
// integers without a decimal point, others in the shortest form that reads
// back as the same double ("0.5", "1e-05", "0.1234567"), so distinct values
// never print alike.
std::string FormatValue(double v);

// A figure moelog computed (a prediction, a measurement) as tables, notes
// and reports print it: `digits` significant digits, no exponent, no float
// noise; thousands grouped by commas when `group` (tokens/s: "619,300").
// Significant(189.4897) == "189.5", Significant(0.0150123) == "0.01501",
// Significant(608456, 4, true) == "608,500".
std::string Significant(double v, int digits = 4, bool group = false);

// A stored figure without the float noise of its unit conversion: at most 9
// significant digits, no exponent for ordinary magnitudes ("0.00097", not
// "0.0009699999999999999"; "11485000", not "1.1485e+07").
std::string Clean(double v);

// A stored figure in a report (`compare`, `runs`, `check`): at most 6
// significant digits, thousands grouped from 100,000 up, no float noise, no
// exponent: 0.0009699999999999999 -> "0.00097", 11485000 -> "11,485,000",
// 192.868 -> "192.868".
std::string Readable(double v);

// The integer part of a decimal text grouped by commas: "1234567.5" ->
// "1,234,567.5" (a text that is no plain decimal is returned as it is).
std::string GroupThousands(const std::string& text);

// `v` with exactly `decimals` digits after the point ("%.*f"), for tables
// and reports: Fixed(1.23456, 3) == "1.235" (engine/format.h).
using engine::Fixed;

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_NUMBERS_H_
