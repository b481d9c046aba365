// Reader stage classify, cited figures: a paragraph or list item that cites
// a source (an author-year citation, "(Clarifai, 2025)"; a sentence led by
// "Source:" or "According to ...") states that source's figures, and so
// does a table right after it: they are cited, not this entry's runs.
// Words: data/reader/citations.json.
#ifndef MOELOG_LOGBOOK_READER_CLASSIFY_CITED_H_
#define MOELOG_LOGBOOK_READER_CLASSIFY_CITED_H_

#include <string>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {

// Whether `text` carries an author-year citation: a capitalised name (and
// "et al.") and a year of 1900-2099 in one parenthesis or bracket, the name
// and year apart by a comma, or by a space after "et al." ("(Medium, 2024)",
// "(Dao et al. 2023)", "[Smith, 2022]"); a month before a year is a date.
bool AuthorYearCitation(const std::string& text);

// Whether a sentence of `text` opens with a source lead ("Source: ...",
// "According to the vendor, ...", "Nguồn: ...").
bool SourceLead(const std::string& text);

// Lists the entry's figures that it cites (see above) as not tabled, and
// drops them from `out`.
void DropCited(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_CLASSIFY_CITED_H_
