// Tables of an entry with the same columns but the first, whose header names
// a group ("| solon 1.12.2 | size | QPS |"): one key for the rows' labels,
// the header's text the group's key (table_groups.cc).
#ifndef MOELOG_LOGBOOK_READER_TABLE_GROUPS_H_
#define MOELOG_LOGBOOK_READER_TABLE_GROUPS_H_

#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// Whether `t` is such a table of `e`: `renamed` is `t` with its first header
// the rows' key, `group` the header's text.
bool GroupTable(const Entry& e, const TableBlock& t, const EntryCtx& x, TableBlock* renamed, std::string* group);
// An entry's table read so (TableFigures with the group as a key), else as
// TableFigures does.
void EntryTableFigures(const Entry& e, const TableBlock& t, Config context, const EntryCtx& x,
                       std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_GROUPS_H_
