// Entry IDs. An entry's ID is the explicit one in its heading
// (`### 2026-02-10 10:43 - MOE-I8-001 Local smoke tests`), else a stable ID
// derived from the logbook's ID prefix and the entry's date-time:
// `<PREFIX>-YYYYMMDD-HHMM` (plus `-2`, `-3`... for entries sharing a minute);
// an undated entry's from its heading's words: `## 2.1 Muon` is
// `<PREFIX>-2-1-MUON` (plus `-2`... when two headings say the same).
// Writing the derived ID into the heading (`moelog ids --write`) leaves the
// ID unchanged, so stored runs stay attached to their entry.
#ifndef MOELOG_LOGBOOK_ENTRY_IDS_H_
#define MOELOG_LOGBOOK_ENTRY_IDS_H_

#include <string>
#include <string_view>

#include "engine/status.h"
#include "logbook/doc/document.h"

namespace moelog::logbook {

// True for an explicit-ID token: uppercase/digit groups joined by '-', the
// first starting with a letter, the last all digits ("MOE-I8-004").
// (Defined with the heading reader, reader/segment.cc.)
bool IsExplicitId(std::string_view token);

// Upper case, every run of non-alphanumerics as one '-', none at the ends:
// "moe ep / v2" -> "MOE-EP-V2". Derived-ID prefixes and recipe step IDs.
std::string Slug(std::string_view s);

// The prefix used for derived IDs: the logbook's Experiment ID Prefix, else
// its title (before any ':') upper-cased with non-alphanumerics as '-',
// else "LOG".
std::string EffectiveIdPrefix(const Logbook& logbook);

// Fills entry.id for every entry; reports duplicate explicit IDs.
void AssignEntryIds(Logbook* logbook);

// Returns `text` with the derived ID inserted into every heading that has
// none; every other byte is unchanged. `added` receives the count.
// REQUIRES: `logbook` was parsed from `text`.
std::string AddMissingIds(const Logbook& logbook, std::string_view text, int* added);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_ENTRY_IDS_H_
