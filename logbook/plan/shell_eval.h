// Stage plan/, internal to the command planner (shell_plan.h): the
// evaluator of shell words. Expands a raw word against static variables the
// way bash would ($VAR, ${VAR}, ${VAR:-literal}, quotes, escapes), and says
// when it cannot: a variable without a static value, or a substitution that
// would compute (command or arithmetic substitution, other ${...} forms).
// Nothing is run.
#ifndef MOELOG_LOGBOOK_PLAN_SHELL_EVAL_H_
#define MOELOG_LOGBOOK_PLAN_SHELL_EVAL_H_

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "logbook/plan/shell_parser.h"

namespace moelog::logbook::shell {

using Vars = std::map<std::string, std::string>;

struct Expansion {
  std::string value;
  std::vector<std::string> unknown;  // variables (or "$(...)") with no static value
  bool had_unquoted_var = false;
  // The word would run code or compute a value in bash: command or arithmetic
  // substitution, backquotes, or a ${...} form other than ${NAME} and
  // ${NAME:-literal}. Such a word has no static meaning.
  bool substitution = false;
  // The value would be longer than the limit ExpandWord was given; `value`
  // holds its first `limit` characters.
  bool too_long = false;
};

// The longest value one word may expand to (a variable's value included).
inline constexpr size_t kMaxWordChars = 64 * 1024;

// One raw word, expanded with `vars` (no field splitting), at most `limit`
// characters of it (Expansion::too_long beyond). Linear in the word and the
// value.
Expansion ExpandWord(std::string_view s, const Vars& vars, size_t limit = kMaxWordChars);

// A shell NAME: [A-Za-z_][A-Za-z0-9_]*.
bool IsName(std::string_view s);

// NAME=value (raw) -> name; "" when not an assignment.
std::string AssignmentName(const std::string& raw);

// Index of the first word that is not a NAME=value prefix.
size_t FirstWord(const Cmd& c);

// Splits on any character of `ifs`, dropping empty fields.
std::vector<std::string> SplitFields(const std::string& s, const std::string& ifs);

std::string Basename(const std::string& p);

// The raw words from `from` on, joined by single spaces.
std::string JoinRaw(const std::vector<std::string>& words, size_t from = 0);

// A project script: *.py, *.sh, *.ipynb, a batch script (*.sbatch, *.slurm), or a relative path.
bool LooksLikeScript(const std::string& w);

// True when `word` contains "$name" or "${name}" (without building either).
bool MentionsVariable(std::string_view word, std::string_view name);

// A path that stays inside the working folder: relative, no "..".
bool InsideFolder(const std::string& p);

// A document's word quoted in a report: at most n characters, on one line
// (control characters as blanks). Region notes escape it for Markdown
// (update/work.h NoteText).
std::string Short(const std::string& w, size_t n = 40);

// The parts joined by `sep`, empty parts after the first skipped (built in
// place: GCC 12 warns falsely on chains of `"literal" + std::string`).
std::string Joined(std::initializer_list<std::string_view> parts, std::string_view sep = " ");

// "--flag WORD: " when args[i] is a flag's value (or "--flag=WORD"), "" otherwise.
std::string FlagOf(const std::vector<std::string>& args, size_t i);

bool IsOutputRedir(const std::string& op);

// Whether bash would compute `word` (Expansion::substitution).
bool HasSubstitution(const std::string& word);

}  // namespace moelog::logbook::shell

#endif  // MOELOG_LOGBOOK_PLAN_SHELL_EVAL_H_
