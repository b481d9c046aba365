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
  // A here-document operator (`<<`, `<<-`): its text, the lines after the
  // command's line up to the delimiter line (each with its newline).
  std::string body;
  bool quoted = false;  // the delimiter was quoted: the body is literal
};

// Tokenizes all of `text`, ending with a kEnd token. False and `error` on an
// unterminated quote, backquote or $(, or a here-document operator without a
// delimiter word. A here-document's body is read at the end of its line (a
// body without its delimiter line runs to the end of the text, as in bash).
bool Tokenize(std::string_view text, std::vector<Token>* out, std::string* error);

}  // namespace moelog::logbook::shell

#endif  // MOELOG_LOGBOOK_PLAN_SHELL_LEXER_H_
