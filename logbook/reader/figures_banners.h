// Reader stage figures: a bench tool's printout in sections, each opened by
// a banner naming the operation it ran (redis-benchmark without -q:
// `====== SET ======`, its settings and latency distribution, then
// `51786.64 requests per second`): each section one run of its operation
// (figures_banners.cc; words in data/reader/bench_printouts.json
// section_banners).
#ifndef MOELOG_LOGBOOK_READER_FIGURES_BANNERS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_BANNERS_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "logbook/reader/figures_printed.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Whether `line` is a section's banner: the mark repeated (at least
// section_banners.min_marks times) on both sides of a name of at most
// max_words words; the name into `*name`.
bool SectionBanner(std::string_view line, std::string* name);

// The section of a banner at lines[i]: its rate line (a number, then one of
// labeled_rate_words after what it counts: `73800.74 requests per second`,
// or after a label and a colon: `throughput summary: 73800.74 requests per
// second`) is one figure keyed op=<name>; the section's other lines, up to
// the next banner, state none. The lines taken go into `read`; returns how
// many, 0 when lines[i] is no banner or its section holds no rate line.
size_t BannerSection(const std::vector<PrintedLine>& lines, size_t i, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_BANNERS_H_
