// Stage plan/, internal to the command planner (shell_plan.h): the shell
// lexer. Splits command text into words (quotes, escapes, $(...) and
// backquotes kept inside the word, raw) and operators. One pass, linear in
// the text; nothing is expanded or run.
#ifndef MOELOG_LOGBOOK_PLAN_SHELL_LEXER_H_
#define MOELOG_LOGBOOK_PLAN_SHELL_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook::shell {

struct Token {
  enum Kind { kWord, kOp, kEnd } kind = kEnd;
  std::string text;  // raw word text (quotes kept) or the operator
};

// Tokenizes all of `text`, ending with a kEnd token. False and `error` on an
// unterminated quote, backquote or $(.
bool Tokenize(std::string_view text, std::vector<Token>* out, std::string* error);

}  // namespace moelog::logbook::shell

#endif  // MOELOG_LOGBOOK_PLAN_SHELL_LEXER_H_
