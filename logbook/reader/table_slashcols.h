// Reader stage table: columns whose cells each hold a slash list of numbers
// ("88 / 79", "76 / 68 / 61"), the list named by the column's header
// ("decode at 1K / 30K / 57K") or by the sentence right above the table
// ("Median decode tok/s (greedy / sampled)") or by the sub-heading it sits
// under ("### Drafting (greedy code / prose / json)"); under a header that is
// a unit (`tok/s`), the names take it ("code (tok/s)"). Each number is a figure of a
// column of its own ("code greedy", "code sampled"), never one cell read as
// nothing (table_slashcols.cc).
#ifndef MOELOG_LOGBOOK_READER_TABLE_SLASHCOLS_H_
#define MOELOG_LOGBOOK_READER_TABLE_SLASHCOLS_H_

#include <string>
#include <vector>

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// The numbers of a cell written "a / b [/ c ...]" (bold and code marks
// aside; 2 to 6 numbers, no unit), or none.
std::vector<std::string> SlashNumbers(const std::string& cell);

// The names a slash list gives: a header's ("decode at 1K / 30K / 57K":
// "decode at 1K", "decode at 30K", "decode at 57K"), or a parenthetical's
// words, a clause at a time ("(greedy / sampled at the defaults; `x.py`)":
// "greedy", "sampled"; "(Q4, greedy code / prose)": "code", "prose"); none
// unless exactly `n`.
std::vector<std::string> HeaderListNames(const std::string& header, size_t n);
std::vector<std::string> ParentheticalListNames(const std::string& text, size_t n);

// The table with each such column split into one column per name; false
// when it has none that can be named.
bool SplitSlashColumns(const TableBlock& t, const EntryCtx& x, TableBlock* split);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_TABLE_SLASHCOLS_H_
