// Recipe parsing: Markdown -> Recipe (document.h). Steps are the numbered
// list items of the document, in order (a fenced shell block right after an
// item belongs to it, even when not indented under it); a document without
// numbered steps uses each heading followed by shell blocks as a step.
#ifndef MOELOG_LOGBOOK_PARSE_RECIPE_H_
#define MOELOG_LOGBOOK_PARSE_RECIPE_H_

#include <string>
#include <string_view>

#include "engine/status.h"
#include "logbook/doc/document.h"

namespace moelog::logbook {

// Never fails on content; problems are diagnostics.
Recipe ParseRecipe(std::string_view text, const std::string& file);

// IOError when the file cannot be read.
Result<Recipe> LoadRecipe(const std::string& path);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_PARSE_RECIPE_H_
