// Small text helpers every stage uses: one Trim.
#ifndef MOELOG_LOGBOOK_TEXT_H_
#define MOELOG_LOGBOOK_TEXT_H_

#include <string>
#include <string_view>

namespace moelog::logbook {

// `s` without leading and trailing white space (std::isspace).
std::string Trim(std::string_view s);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_TEXT_H_
