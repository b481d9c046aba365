// Reader stage key, a record's fields and settings lists: a label that names
// a field of the record (`**Change**:`, `**結果**:`) names no run, and a list
// of settings (`- **params**:` over `- block_k: 256`) keys the entry's
// figures instead of being read for figures. Words: data/reader/fields.json.
#ifndef MOELOG_LOGBOOK_READER_KEY_FIELDS_H_
#define MOELOG_LOGBOOK_READER_KEY_FIELDS_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/doc/document.h"

namespace moelog::logbook::reader {

// Whether a label (markup and a trailing colon aside) is the name of a
// record's field (field_labels): "Change", "**結果**", "Next step".
bool FieldLabel(const std::string& label);

// One item of a settings list, "name: value" (`matrix_size: `1000``,
// "compile flags: `-O3 -march=native`", "BLOCK_K: 64"): a name of at most
// three words and a value that is a code span (at most 80 characters) or one
// token (at most 40), never a sentence nor a figure with its unit written
// apart ("peak: 900 GB/s").
bool SettingsItem(const std::string& text, std::string* key, std::string* value);

// Whether a bullet is a settings list: a label of setting_lists with no
// text after it, and sub-items that are all settings items.
bool SettingsList(const Bullet& b);

// The items of the entry's settings lists as fixed keys of its runs (a key
// the entry's commands vary stays theirs); a name given two values by two
// lists keys nothing (which list is whose run is not written).
void SettingsListConfig(const Entry& entry, const std::map<std::string, std::vector<std::string>>& vars,
                        std::map<std::string, std::string>* fixed);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_KEY_FIELDS_H_
