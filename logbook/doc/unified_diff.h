// The unified diff `update --check` prints (Myers' algorithm, dtl).
#ifndef MOELOG_LOGBOOK_DOC_UNIFIED_DIFF_H_
#define MOELOG_LOGBOOK_DOC_UNIFIED_DIFF_H_

#include <string>
#include <string_view>

namespace moelog::logbook {

// A unified diff of two texts by lines ("--- name", "+++ name (moelog)",
// hunks with 3 lines of context); "" when they are equal. Its size follows
// the edits, not the file: two one-line edits far apart give two small hunks.
std::string UnifiedDiff(std::string_view a, std::string_view b, const std::string& name);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOC_UNIFIED_DIFF_H_
