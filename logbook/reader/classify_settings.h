// Reader stage classify, a test's settings written as fields: a field whose
// whole name names a setting of the test (`**Duration**: 10 minutes`,
// `- Ramp-up: 10 s`, `Timeout: 30 s`; setting_fields of
// data/reader/vocabulary.json) sets the test up; its whole-number value is
// no run's figure. The rule of SettingFigure (classify_times.cc) for a
// figure right after such a name's colon, and of a list item read as a field.
#ifndef MOELOG_LOGBOOK_READER_CLASSIFY_SETTINGS_H_
#define MOELOG_LOGBOOK_READER_CLASSIFY_SETTINGS_H_

#include <string>

namespace moelog::logbook::reader {

// Whether `name` (markup, a trailing colon and case aside) is the whole name
// of a field that sets a test up: "Duration", "**Ramp-up**", "Load:".
bool SettingFieldName(const std::string& name);

// Whether a field `name: value` sets the test up: its name is a setting
// field's and its value's first number is written whole ("10 minutes",
// "100-500 concurrent users"; "0.2 minutes" reports a time).
bool SettingFieldValue(const std::string& name, const std::string& value);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_CLASSIFY_SETTINGS_H_
