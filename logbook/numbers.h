// Numbers as moelog reads and prints them: one parser, one formatter.
#ifndef MOELOG_LOGBOOK_NUMBERS_H_
#define MOELOG_LOGBOOK_NUMBERS_H_

#include <optional>
#include <string>
#include <string_view>

#include "engine/format.h"

namespace moelog::logbook {

// A whole token as a finite decimal number: "2", "-0.25", "1e-05", "+3",
// "1,578,564" (thousands commas, correctly grouped). nullopt for anything
// else: "", "2x", "1,2", "inf", "nan", "0x10".
std::optional<double> ParseNumber(std::string_view s);

// A number the way moelog prints config values, keys and chart axes:
// integers without a decimal point, others in the shortest form that reads
// back as the same double ("0.5", "1e-05", "0.1234567"), so distinct values
// never print alike.
std::string FormatValue(double v);

// `v` with exactly `decimals` digits after the point ("%.*f"), for tables
// and reports: Fixed(1.23456, 3) == "1.235" (engine/format.h).
using engine::Fixed;

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_NUMBERS_H_
