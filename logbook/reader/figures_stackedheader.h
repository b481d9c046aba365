// Reader stage figures, a printed table whose header is stacked over two or
// three lines, often behind comment marks (nccl-tests' all_reduce_perf and
// its siblings):
//
//   #                                   out-of-place                 in-place
//   #       size   count    time   algbw   busbw #wrong    time   algbw   busbw #wrong
//   #        (B)                   (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
//       1048576  262144   210.4    4.98    9.34      0   208.8    5.02    9.42      0
//
// The names line, the units in parentheses right-aligned under their names,
// and the groups over the columns a second time (a name printed twice, once
// under each group) make one header line of cells two spaces apart, on the
// units line, right above the rows: "size (B)  count  out-of-place time (us)
// ...". The lines it replaces are left blank, so every line keeps its number.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_STACKEDHEADER_H_
#define MOELOG_LOGBOOK_READER_FIGURES_STACKEDHEADER_H_

#include <string>

namespace moelog::logbook::reader {

// `text` (a printed block) with each such header merged; `text` itself when
// it has none.
std::string StackedHeaders(const std::string& text);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_STACKEDHEADER_H_
