// Reader stage figures: a change written "from A to B unit" ("increased
// from 7227.42 to 7472.93 tokens/sec"): A, written bare, is the figure the
// change started from, in the unit written after B. Each end is a run's
// figure, as "from 41.2 ms to 38.0 ms" (each with its unit) already reads.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_FROMTO_H_
#define MOELOG_LOGBOOK_READER_FIGURES_FROMTO_H_

#include <cstddef>
#include <string>

namespace moelog::logbook::reader {

// The unit of B when the bare number starting at `start` (its digits end at
// `at`) is the A of "from A to B unit"; "" otherwise, and for a span written
// that way ("ranges from 5 to 10 ms", "varies from ...": the ends of one
// spread, not two runs).
std::string FromToUnit(const std::string& s, size_t start, size_t at);

struct FigureScan;
struct Figure;

// "tr 2.7x → 7.3x": speedups on both sides of an arrow are a score against
// a fixed reference, measured before and after (figures_fromto.cc); `f`
// starts at `start`, `before_arrow` when an arrow follows it.
void SpeedupScores(FigureScan& st, size_t start, bool before_arrow, Figure* f);

// "Build time: 25.63s, 21.51s": whether figure `f`, starting at `start`,
// follows the figure read before it with a comma alone between, the same
// unit, neither named apart nor derived (a repeat of it).
bool CommaRepeat(const FigureScan& st, size_t start, const Figure& f);
// "25.63s, 21.51s > 23.57s": whether `f` follows a comma list of repeats
// after a '>' (their mean, as the author worked it out).
bool ListSummary(const FigureScan& st, size_t start, const Figure& f);

// The unit written after the number that starts at `q` (digits, '.' and ','),
// when the vocabulary knows it and it is no derived one; "" otherwise.
std::string UnitOfNumberAt(const std::string& s, size_t q);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_FROMTO_H_
