// Reader stage figures, printed tables: the lines of a table a program
// prints into its output (a header, a rule under it, rows), with columns
// split by `|` or by runs of spaces:
//
//      shape (B,D) |  fused (us/call) |  eager (us/call)
//   ------------------------------------------------------
//        (1, 256) |             1.73 |             2.06
#ifndef MOELOG_LOGBOOK_READER_FIGURES_PRINTED_H_
#define MOELOG_LOGBOOK_READER_FIGURES_PRINTED_H_

#include <string>
#include <vector>

namespace moelog::logbook::reader {

// A rule of a printed table: dashes or equals signs, with the `+`, `|`, `:`
// and spaces of its column borders ("------", "|---:|---|", "-----  ----",
// "+-----+-----+"); at least three dashes or equals signs.
bool PrintedRule(const std::string& line);

// A printed table's cells split by `|`: each trimmed; the empty cells that
// borders at the line's start and end leave are dropped.
std::vector<std::string> PipeCells(const std::string& line);

// A printed line's cells: CSV fields, or runs of text between two spaces or
// more (or a tab), or words when the line has no such gap.
std::vector<std::string> LineCells(const std::string& t);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_PRINTED_H_
