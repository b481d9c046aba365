// Reader stage figures, bench tools' printed lines in a form of their own:
// a unit in square brackets after a number (ApacheBench's "Time per
// request:  6.155 [ms] (mean)", "Requests per second:  8123.45 [#/sec]")
// and a count printed with its rate in parentheses (sysbench's
// "transactions:  12345  (411.45 per sec.)"). Each is written as the output
// readers read a named figure: "Time per request: 6.155 ms (mean)",
// "Requests per second: 8123.45 (mean)", "transactions per sec: 411.45".
#ifndef MOELOG_LOGBOOK_READER_FIGURES_TOOLLINES_H_
#define MOELOG_LOGBOOK_READER_FIGURES_TOOLLINES_H_

#include <string>

namespace moelog::logbook::reader {

// `text` (a printed line, trimmed) in that form; `text` itself when it is
// no such line.
std::string ToolLineForm(const std::string& text);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_TOOLLINES_H_
