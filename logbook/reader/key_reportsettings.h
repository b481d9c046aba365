// Reader stage key: a printout's lines of run settings set apart from its
// report by a blank line (a load tool's `Duration: 5s`, `Rate: 50`,
// `Timeout: 10s`, then its report): the settings key every figure of the
// report, so reports that differ only there are different runs, never one
// row, and the settings are no figures.
#ifndef MOELOG_LOGBOOK_READER_KEY_REPORTSETTINGS_H_
#define MOELOG_LOGBOOK_READER_KEY_REPORTSETTINGS_H_

#include <map>
#include <string>

#include "logbook/doc/document.h"

namespace moelog::logbook::reader {

// One such line ("Rate: 50", "Duration: 5s": a name of one or two words, a
// value of one word starting with a digit): its key ("rate") and value.
bool ReportSettingLine(const std::string& line, std::string* key, std::string* value);

// `b` with its settings paragraphs blanked (one to six such lines with a
// blank line between them and the rest): the block's first paragraph keys
// the block (into `leading`); its last, when `next` (a block follows right
// below), keys that block (into `trailing`). A block of settings alone keys
// the next one.
FencedBlock WithoutReportSettings(const FencedBlock& b, bool next, std::map<std::string, std::string>* leading,
                                  std::map<std::string, std::string>* trailing);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_KEY_REPORTSETTINGS_H_
