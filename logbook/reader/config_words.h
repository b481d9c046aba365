// "key=value" words written in text, the one reading of them the reader's
// key stage and `moelog compare`'s baseline share.
#ifndef MOELOG_LOGBOOK_READER_CONFIG_WORDS_H_
#define MOELOG_LOGBOOK_READER_CONFIG_WORDS_H_

#include <map>
#include <string>

#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// "key=value" pairs written in text: words like `topk=2`, `parallel=ep`,
// with keys normalized and restricted to `keys`; values trimmed of trailing
// punctuation.
std::map<std::string, std::string> ConfigWords(const std::string& text, const RunKeys& keys = {});

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_CONFIG_WORDS_H_
