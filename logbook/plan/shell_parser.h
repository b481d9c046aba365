// Stage plan/, internal to the command planner (shell_plan.h): the shell
// parser. Builds the syntax tree of the shell subset the planner understands
// (lists, and-or, pipelines, simple commands with redirections, `for NAME in
// WORDS`, { } and ( ) groups) from the lexer's tokens. Words stay raw.
#ifndef MOELOG_LOGBOOK_PLAN_SHELL_PARSER_H_
#define MOELOG_LOGBOOK_PLAN_SHELL_PARSER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook::shell {

struct Redir {
  std::string op, target;  // target raw ("" for 2>&1); a here-document's delimiter word
  std::string body;        // `<<` / `<<-`: the here-document's text
  bool quoted = false;     // `<<` / `<<-`: the delimiter was quoted (the body is literal)
  bool HereDoc() const { return op == "<<" || op == "<<-"; }
};

struct List;

struct Cmd {
  enum Kind { kSimple, kFor, kGroup, kIf } kind = kSimple;
  std::vector<std::string> words;  // kSimple: raw words (assignments included)
  std::vector<Redir> redirs;
  std::string var;                 // kFor
  std::vector<std::string> items;  // kFor: raw words
  std::shared_ptr<List> body;      // kFor, kGroup; kIf: the `then` branch
  std::shared_ptr<List> cond;      // kIf: the condition
  std::shared_ptr<List> orelse;    // kIf: the `else` branch, or null
  bool subshell = false;           // kGroup: ( ) vs { }
};

struct Pipeline {
  std::vector<Cmd> cmds;
};

struct AndOr {
  std::vector<Pipeline> pipes;
  std::vector<std::string> ops;  // "&&" / "||" between pipes
};

struct List {
  std::vector<AndOr> items;
  std::vector<std::string> seps;  // after each item: ";", "\n", "&" or ""
};

// Parses a whole script into `list`. False and `error` on a syntax error or
// a construct the planner does not understand (while, case, elif).
bool ParseScript(std::string_view text, List* list, std::string* error);

}  // namespace moelog::logbook::shell

#endif  // MOELOG_LOGBOOK_PLAN_SHELL_PARSER_H_
