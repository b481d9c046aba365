// Reader stage figures, one field of a log line split by `|` (or `│`)
// written as the field reader reads it (figures_output.cc PipeField):
//
//   "FLOPs/token: 8.78 GF (6N+12LHQT: N=1.3B)"  ->  "FLOPs/token: 8.78 GF"
//   "Memory: 13.53 GB alloc"                    ->  "Memory alloc: 13.53 GB"
//
// An aside in parentheses after the value (how it was computed, a share) is
// no part of it; a word after a value's unit names what the value is
// (alloc, peak, reserved), as a word before it would.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_PIPEFIELDS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_PIPEFIELDS_H_

#include <string>

namespace moelog::logbook::reader {

// `part` (trimmed) in that form; `part` itself when it is none of them.
std::string PipeFieldForm(const std::string& part);

// A log line of two `Name: value` fields or more split by ` | `, each field
// in that form ("Tokens/s: 106979 | FLOPs/token: 8.78 GF (6N: N=1.3B)":
// the aside's `N=1.3B` is no setting of the line).
std::string PipeLineForm(const std::string& line);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_PIPEFIELDS_H_
