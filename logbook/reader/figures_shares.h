// Reader stage figures, a profiler's share written before the amounts it
// is a share of (pprof's, perf report's, a heap profile's lines pasted into
// prose):
//
//   "ServeHTTP - 45.85% (13.64s / 29.75s)"  ->  "ServeHTTP - 13.64s cumulative (45.85%), 29.75s sampled"
//   "encodeReply: 23.70% (7.05s)"           ->  "encodeReply: 7.05s (23.70%)"
//
// The amounts are what the profile measured (the function's time, and the
// profile's whole after a slash); the share is worked out of them. Each
// amount is then read as any figure is, the share an aside of the first.
// The words naming the part and the whole are data: profile_share of
// data/reader/bench_printouts.json.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_SHARES_H_
#define MOELOG_LOGBOOK_READER_FIGURES_SHARES_H_

#include <string>

namespace moelog::logbook::reader {

// `s` with each such share written as above, into `out`; false (and `out`
// untouched) when `s` has none.
bool ProfileShares(const std::string& s, std::string* out);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_SHARES_H_
