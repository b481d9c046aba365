// Small text helpers every stage uses: one Trim, one list splitter.
#ifndef MOELOG_LOGBOOK_TEXT_H_
#define MOELOG_LOGBOOK_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

// `s` without leading and trailing white space (std::isspace).
std::string Trim(std::string_view s);

// The pieces of `s` between `sep`s, empty ones left out (not trimmed):
// "a,,b," -> {"a", "b"}.
std::vector<std::string> SplitList(std::string_view s, char sep = ',');

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_TEXT_H_
