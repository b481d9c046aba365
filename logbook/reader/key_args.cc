// Reader stage key, a command's plain arguments ("./bench 1000 4" ->
// "1000 4"): what sets a run apart when its command has no flags. The
// command is read by the planner's shell parser (its comments, quotes,
// pipes and `&&` as the shell reads them); the words of data/reader/
// output.json say which programs prepare or feed a run (setup_programs),
// which are a tool whose plain words are its subcommand (subcommand_tools:
// `cargo bench`, `k6 run`) and which profile another program
// (subcommand_programs: `nsys profile ./app`).
#include "logbook/plan/shell_parser.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

std::string BaseName(const std::string& w) {
  const size_t slash = w.find_last_of('/');
  return slash == std::string::npos ? w : w.substr(slash + 1);
}

// A word that is a subcommand or a script's name, no file: "run", "bench".
bool VerbWord(const std::string& w) {
  return !w.empty() && std::isalpha(static_cast<unsigned char>(w[0])) &&
         std::all_of(w.begin(), w.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':';
         });
}

// The program word of a simple command's raw words: after environment
// assignments and the words that run it (`sudo`, `time`; command_prefixes),
// `$(which nsys)` read as nsys. words.size() when none.
size_t ProgramAt(const std::vector<std::string>& w, std::string* prog) {
  const auto& words = OutputVocabulary();
  size_t p = 0;
  while (p < w.size() && (words.command_prefixes.count(w[p]) ||
                          (w[p].find('=') != std::string::npos && w[p][0] != '-' && w[p][0] != '=')))
    ++p;
  if (p >= w.size()) return p;
  *prog = w[p];
  if (*prog == "$(which" && p + 1 < w.size()) {  // "$(which nsys)"
    ++p;
    *prog = w[p].substr(0, w[p].find(')'));
  }
  if (prog->rfind("$(which ", 0) == 0) *prog = prog->substr(8, prog->find(')') - 8);
  *prog = BaseName(PlainWord(*prog));
  return p;
}

// The plain arguments of one simple command after its program `prog` at
// `p`: up to the first flag; after a "--" that ends a launcher's options
// ("cargo run --bin scan -- 10 4"), the program's own. A quoted phrase and
// a word of `name = value` end them; a tool's subcommand words are none.
std::string CommandArgs(const std::vector<std::string>& w, size_t p, const std::string& prog) {
  const auto& words = OutputVocabulary();
  if (words.subcommand_programs.count(prog)) return "";  // "nsys profile ./app": a profiler's subcommand
  const bool tool = words.subcommand_tools.count(prog) > 0;
  const size_t dashes = std::find(w.begin() + static_cast<long>(p), w.end(), "--") - w.begin();
  const size_t first = dashes < w.size() ? dashes + 1 : p + 1;
  std::string out;
  for (size_t i = first; i < w.size() && i < first + 7; ++i) {
    const std::string word = PlainWord(w[i]);
    if (word.empty() || word[0] == '-' || word[0] == '=') break;
    if (word != w[i] && word.find_first_of(" \t\n") != std::string::npos) break;  // "two words": a phrase
    if (tool && dashes >= w.size() && (VerbWord(word) || std::none_of(word.begin(), word.end(), [](char c) {
                                         return std::isalnum(static_cast<unsigned char>(c));
                                       })))
      continue;  // "run", "./...": the tool's subcommand or a package pattern
    if (word.size() <= 16) out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

// The first simple command of `list` that is no setup (`cd build`,
// `echo ... |`); false when none.
bool FirstRun(const shell::List& list, std::vector<std::string>* words) {
  for (const auto& ao : list.items)
    for (const auto& pipe : ao.pipes)
      for (const auto& c : pipe.cmds) {
        if (c.kind == shell::Cmd::kGroup && c.body) {
          if (FirstRun(*c.body, words)) return true;
          continue;
        }
        if (c.kind != shell::Cmd::kSimple) return false;  // a loop's or a branch's runs are read elsewhere
        std::string prog;
        const size_t p = ProgramAt(c.words, &prog);
        if (p >= c.words.size() || OutputVocabulary().setup_programs.count(prog)) continue;
        *words = c.words;
        return true;
      }
  return false;
}

}  // namespace

std::string PositionalArgs(const std::string& cmd) {
  shell::List list;
  std::string error;
  std::vector<std::string> w;
  if (!shell::ParseScript(cmd, &list, &error) || !FirstRun(list, &w)) return "";
  std::string prog;
  const size_t p = ProgramAt(w, &prog);
  return CommandArgs(w, p, prog);
}

}  // namespace moelog::logbook::reader
