// Reader stage figures, a dump of pairs: lines of two fields alone, a
// setting's value or a run's name and a plain decimal (`0.01<TAB>1.3318`,
// `ckpt/model_5.pt 3.0627`), a sweep's results pasted in an output block or
// a paragraph. Each line is one run's row, keyed by the setting the text
// names (or the name's file stem), its decimal the metric the text names.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_DUMPS_H_
#define MOELOG_LOGBOOK_READER_FIGURES_DUMPS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

struct EntryCtx;
using Config = std::map<std::string, std::string>;

// The figures of a dump's lines (PairDumpRows), one row each under
// `context`; a line giving an earlier row of `out` again is listed, not kept.
void DumpFigures(const Entry& e, const std::vector<std::pair<int, std::string>>& rows, const Config& context,
                 const EntryCtx& x, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

// A paragraph that ends in a dump (three lines at least, after at most two
// lines of words: "Here are the learning rates and validation loss:"): its
// dump's figures. False, nothing read, for any other paragraph.
bool DumpParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                   std::vector<UnreadFigures>* unread);

// A paragraph of two lines or more, each of figures alone between marks
// (`⚡ 82.8 µs 🐌 85.0 µs`: a leaderboard's fastest and slowest per shape;
// line_marks of dumps.json name the statistics), the lines alike: a row per
// line, keyed by its place (`line`) and the paragraph's among such
// paragraphs of the entry (`block`). False, nothing read, for any other.
bool MarkedLinesParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                          std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_DUMPS_H_
