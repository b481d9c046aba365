// Templates for new logbooks, recipes and entries: plain Markdown with named
// slots `{{name}}`. moelog ships the defaults (the files under templates/ in
// the source tree are the same text); a user directory with logbook.md,
// recipe.md or entry.md overrides the matching default.
#ifndef MOELOG_LOGBOOK_TEMPLATES_H_
#define MOELOG_LOGBOOK_TEMPLATES_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"

namespace moelog::logbook {

// The names of the shipped templates: "entry", "logbook", "recipe".
std::vector<std::string> TemplateNames();

// The shipped text of template `name`; NotFound for other names.
Result<std::string> BuiltinTemplate(const std::string& name);

// `user_dir`/`name`.md when user_dir is non-empty and the file exists, else
// the shipped template.
Result<std::string> LoadTemplate(const std::string& name, const std::string& user_dir);

// Replaces every `{{slot}}` with its value. InvalidArgument naming the
// template and slot when a slot has no value or a `{{` is not closed.
// Values are inserted verbatim (callers check them with CheckSlotValue).
Result<std::string> FillTemplate(const std::string& text, const std::map<std::string, std::string>& values,
                                 const std::string& template_name);

// InvalidArgument unless `value` is one printable line (no newlines or
// control characters, no "{{") of at most `max_bytes` bytes; `what` names the flag.
Status CheckSlotValue(const std::string& what, const std::string& value, size_t max_bytes = 200);

// InvalidArgument unless `prefix` is upper-case words of letters and digits
// joined by dashes ("MOE-I8").
Status CheckIdPrefix(const std::string& prefix);

// The ID prefix of a logbook: the first inline-code or word of the first
// bullet under "## Experiment ID Prefix"; nullopt when the section is missing.
std::optional<std::string> FindIdPrefix(const std::string& markdown);

// The next free entry ID: PREFIX-NNN one above the highest PREFIX-number used
// in any heading (PREFIX-000 when none), zero-padded to at least 3 digits.
std::string NextEntryId(const std::string& markdown, const std::string& prefix);

// Inserts `entry` (ending in a newline) at the end of the "## Experiment Log"
// section, before the next level-1/2 heading or at the end of the document.
// ParseError when the document has no such section.
Result<std::string> InsertEntry(const std::string& markdown, const std::string& entry, const std::string& file);

// `text` as Markdown inline code, with a fence longer than any backtick run
// inside it.
std::string InlineCode(const std::string& text);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_TEMPLATES_H_
