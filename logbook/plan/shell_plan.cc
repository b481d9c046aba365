#include "logbook/plan/shell_plan.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>

#include "engine/v5p/hardware.h"
#include "logbook/plan/bench_args.h"
#include "logbook/work_queue.h"

namespace moelog::logbook {
namespace {

// ---------------------------------------------------------------- lexer

struct Token {
  enum Kind { kWord, kOp, kEnd } kind = kEnd;
  std::string text;  // raw word text (quotes kept) or the operator
};

bool IsOpChar(char c) { return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')'; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // Tokenizes everything; an error message on unterminated quotes etc.
  bool Run(std::vector<Token>* out, std::string* error) {
    while (true) {
      SkipBlanks();
      if (i_ >= s_.size()) break;
      char c = s_[i_];
      if (c == '#') {  // comment to end of line
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '\n') {
        out->push_back({Token::kOp, "\n"});
        ++i_;
        continue;
      }
      if (IsOpChar(c)) {
        out->push_back({Token::kOp, ReadOp()});
        continue;
      }
      std::string word;
      if (!ReadWord(&word, error)) return false;
      // "2>&1", "2>file": a digit-only word glued to a redirection.
      if (i_ < s_.size() && (s_[i_] == '>' || s_[i_] == '<') &&
          std::all_of(word.begin(), word.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
        std::string op = ReadOp();
        out->push_back({Token::kOp, word + op});
        continue;
      }
      out->push_back({Token::kWord, word});
    }
    out->push_back({Token::kEnd, ""});
    return true;
  }

 private:
  void SkipBlanks() {
    while (i_ < s_.size()) {
      if (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r') {
        ++i_;
      } else if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
        i_ += 2;  // line continuation
      } else {
        break;
      }
    }
  }

  std::string ReadOp() {
    static const char* kOps[] = {"<<<", "&&", "||", ";;", ">>", "<<", ">&", "&>", ">|", ";", "&", "|", "<", ">", "(", ")"};
    for (const char* op : kOps) {
      std::string_view o(op);
      if (s_.substr(i_, o.size()) == o) {
        i_ += o.size();
        std::string r(o);
        // ">&1", ">&2": keep the fd with the operator.
        if (r == ">&" && i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) r += s_[i_++];
        return r;
      }
    }
    return std::string(1, s_[i_++]);
  }

  bool ReadWord(std::string* w, std::string* error) {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || IsOpChar(c)) break;
      if (c == '\\') {
        if (i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
          i_ += 2;
          continue;
        }
        w->append(s_.substr(i_, std::min<size_t>(2, s_.size() - i_)));
        i_ += 2;
        continue;
      }
      if (c == '\'') {
        size_t e = s_.find('\'', i_ + 1);
        if (e == std::string_view::npos) {
          *error = "unterminated single quote";
          return false;
        }
        w->append(s_.substr(i_, e - i_ + 1));
        i_ = e + 1;
        continue;
      }
      if (c == '"') {
        size_t j = i_ + 1;
        while (j < s_.size() && s_[j] != '"') j += (s_[j] == '\\') ? 2 : 1;
        if (j >= s_.size()) {
          *error = "unterminated double quote";
          return false;
        }
        w->append(s_.substr(i_, j - i_ + 1));
        i_ = j + 1;
        continue;
      }
      if (c == '$' && i_ + 1 < s_.size() && s_[i_ + 1] == '(') {
        // $( ... ): keep balanced text inside the word.
        int depth = 0;
        size_t j = i_ + 1;
        for (; j < s_.size(); ++j) {
          if (s_[j] == '(') ++depth;
          if (s_[j] == ')' && --depth == 0) break;
        }
        if (j >= s_.size()) {
          *error = "unterminated $(";
          return false;
        }
        w->append(s_.substr(i_, j - i_ + 1));
        i_ = j + 1;
        continue;
      }
      if (c == '`') {
        size_t e = s_.find('`', i_ + 1);
        if (e == std::string_view::npos) {
          *error = "unterminated backquote";
          return false;
        }
        w->append(s_.substr(i_, e - i_ + 1));
        i_ = e + 1;
        continue;
      }
      w->push_back(c);
      ++i_;
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// ---------------------------------------------------------------- AST

struct Redir {
  std::string op, target;  // target raw ("" for 2>&1)
};

struct List;

struct Cmd {
  enum Kind { kSimple, kFor, kGroup } kind = kSimple;
  std::vector<std::string> words;  // kSimple: raw words (assignments included)
  std::vector<Redir> redirs;
  std::string var;                 // kFor
  std::vector<std::string> items;  // kFor: raw words
  std::shared_ptr<List> body;      // kFor, kGroup
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

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}

  bool ParseAll(List* out, std::string* error) {
    if (!ParseList(out, {}, error)) return false;
    if (Peek().kind != Token::kEnd) {
      *error = "unexpected '" + Peek().text + "'";
      return false;
    }
    return true;
  }

 private:
  // Groups and loops nest at most this deep: the parse, the tree and the walk
  // over it recurse once per level, and a command is someone else's text.
  static constexpr int kMaxNesting = 64;

  // Enters one level of nesting; false (and `error`) past the limit.
  bool Enter(std::string* error) {
    if (++depth_ <= kMaxNesting) return true;
    *error = "groups and loops nested deeper than " + std::to_string(kMaxNesting) + " levels";
    return false;
  }

  const Token& Peek() const { return t_[p_]; }
  bool IsWord(const char* w) const { return Peek().kind == Token::kWord && Peek().text == w; }
  bool IsOp(const char* o) const { return Peek().kind == Token::kOp && Peek().text == o; }

  void SkipNewlines() {
    while (IsOp("\n")) ++p_;
  }

  // Parses and-or items until end or one of the `stop` words / ")".
  bool ParseList(List* list, const std::set<std::string>& stop, std::string* error) {
    while (true) {
      while (IsOp("\n") || IsOp(";")) ++p_;
      if (Peek().kind == Token::kEnd || IsOp(")")) return true;
      if (Peek().kind == Token::kWord && stop.count(Peek().text)) return true;
      AndOr ao;
      if (!ParseAndOr(&ao, error)) return false;
      list->items.push_back(std::move(ao));
      if (IsOp(";") || IsOp("\n") || IsOp("&")) {
        list->seps.push_back(Peek().text);
        ++p_;
      } else {
        list->seps.push_back("");
      }
    }
  }

  bool ParseAndOr(AndOr* ao, std::string* error) {
    Pipeline p;
    if (!ParsePipeline(&p, error)) return false;
    ao->pipes.push_back(std::move(p));
    while (IsOp("&&") || IsOp("||")) {
      ao->ops.push_back(Peek().text);
      ++p_;
      SkipNewlines();
      Pipeline q;
      if (!ParsePipeline(&q, error)) return false;
      ao->pipes.push_back(std::move(q));
    }
    return true;
  }

  bool ParsePipeline(Pipeline* p, std::string* error) {
    Cmd c;
    if (!ParseCommand(&c, error)) return false;
    p->cmds.push_back(std::move(c));
    while (IsOp("|")) {
      ++p_;
      SkipNewlines();
      Cmd d;
      if (!ParseCommand(&d, error)) return false;
      p->cmds.push_back(std::move(d));
    }
    return true;
  }

  static bool IsRedirOp(const std::string& op) {
    if (op == "<<") return false;
    return op.find('>') != std::string::npos || op == "<" || op == "<<<";
  }

  bool ParseRedirs(Cmd* c, std::string* error) {
    while (Peek().kind == Token::kOp && (IsRedirOp(Peek().text) || Peek().text == "<<")) {
      std::string op = Peek().text;
      if (op == "<<") {
        *error = "here-documents (<<) are not supported";
        return false;
      }
      ++p_;
      Redir r{op, ""};
      bool fd_dup = op.size() >= 3 && op[op.size() - 2] == '&' && std::isdigit(static_cast<unsigned char>(op.back()));
      if (!fd_dup) {
        if (Peek().kind != Token::kWord) {
          *error = "missing target after '" + op + "'";
          return false;
        }
        r.target = Peek().text;
        ++p_;
      }
      c->redirs.push_back(std::move(r));
    }
    return true;
  }

  bool ParseCommand(Cmd* c, std::string* error) {
    static const std::set<std::string> kUnsupported = {"while", "until", "if", "case", "function", "select"};
    if (Peek().kind == Token::kWord && kUnsupported.count(Peek().text)) {
      *error = "cannot plan shell construct '" + Peek().text + "'";
      return false;
    }
    if (IsWord("for")) return ParseFor(c, error);
    if (IsOp("(") || IsWord("{")) {
      bool sub = IsOp("(");
      ++p_;
      c->kind = Cmd::kGroup;
      c->subshell = sub;
      c->body = std::make_shared<List>();
      if (!Enter(error)) return false;
      if (!ParseList(c->body.get(), sub ? std::set<std::string>{} : std::set<std::string>{"}"}, error)) return false;
      --depth_;
      if (sub ? !IsOp(")") : !IsWord("}")) {
        *error = sub ? "missing ')'" : "missing '}'";
        return false;
      }
      ++p_;
      return ParseRedirs(c, error);
    }
    c->kind = Cmd::kSimple;
    while (true) {
      if (Peek().kind == Token::kWord) {
        c->words.push_back(Peek().text);
        ++p_;
      } else if (Peek().kind == Token::kOp && (IsRedirOp(Peek().text) || Peek().text == "<<")) {
        if (!ParseRedirs(c, error)) return false;
      } else {
        break;
      }
    }
    if (c->words.empty() && c->redirs.empty()) {
      *error = Peek().kind == Token::kEnd ? "unexpected end of command" : "unexpected '" + Peek().text + "'";
      return false;
    }
    return true;
  }

  bool ParseFor(Cmd* c, std::string* error) {
    ++p_;  // for
    c->kind = Cmd::kFor;
    if (Peek().kind != Token::kWord) {
      *error = "for: missing variable name";
      return false;
    }
    c->var = Peek().text;
    ++p_;
    if (!IsWord("in")) {
      *error = "for " + c->var + ": only 'for NAME in WORDS' is supported";
      return false;
    }
    ++p_;
    while (Peek().kind == Token::kWord) {
      c->items.push_back(Peek().text);
      ++p_;
    }
    if (!(IsOp(";") || IsOp("\n"))) {
      *error = "for " + c->var + ": expected ';' or newline before 'do'";
      return false;
    }
    ++p_;
    SkipNewlines();
    if (!IsWord("do")) {
      *error = "for " + c->var + ": missing 'do'";
      return false;
    }
    ++p_;
    c->body = std::make_shared<List>();
    if (!Enter(error)) return false;
    if (!ParseList(c->body.get(), {"done"}, error)) return false;
    --depth_;
    if (!IsWord("done")) {
      *error = "for " + c->var + ": missing 'done'";
      return false;
    }
    ++p_;
    return ParseRedirs(c, error);
  }

  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_ = 0;
};

bool ParseScript(std::string_view text, List* list, std::string* error) {
  std::vector<Token> toks;
  Lexer lx(text);
  if (!lx.Run(&toks, error)) return false;
  Parser ps(std::move(toks));
  return ps.ParseAll(list, error);
}

// ---------------------------------------------------------------- expansion

bool IsName(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// NAME=value (raw) -> name; "" when not an assignment.
std::string AssignmentName(const std::string& raw) {
  auto eq = raw.find('=');
  if (eq == std::string::npos || eq == 0) return "";
  std::string name = raw.substr(0, eq);
  return IsName(name) ? name : "";
}

using Vars = std::map<std::string, std::string>;

// Index of the first word that is not a NAME=value prefix.
size_t FirstWord(const struct Cmd& c) {
  size_t i = 0;
  while (i + 1 < c.words.size() && !AssignmentName(c.words[i]).empty()) ++i;
  return i;
}

struct Expansion {
  std::string value;
  std::vector<std::string> unknown;  // variables (or "$(...)") with no static value
  bool had_unquoted_var = false;
  // The word would run code or compute a value in bash: command or arithmetic
  // substitution, backquotes, or a ${...} form other than ${NAME} and
  // ${NAME:-literal}. Such a word has no static meaning.
  bool substitution = false;
};

void ExpandDollar(std::string_view s, size_t* i, const Vars& vars, Expansion* e, bool quoted) {
  // s[*i] == '$'
  size_t j = *i + 1;
  if (j >= s.size()) {
    e->value.push_back('$');
    *i = j;
    return;
  }
  if (s[j] == '(' || s[j] == '`') {
    // Command substitution: no static value.
    int depth = 0;
    size_t k = j;
    for (; k < s.size(); ++k) {
      if (s[k] == '(') ++depth;
      if (s[k] == ')' && --depth == 0) break;
    }
    e->unknown.push_back("$(...)");
    e->substitution = true;
    *i = std::min(k + 1, s.size());
    return;
  }
  std::string name, deflt;
  bool has_default = false;
  if (s[j] == '{') {
    size_t close = s.find('}', j);
    if (close == std::string_view::npos) close = s.size();
    std::string inner(s.substr(j + 1, close - j - 1));
    auto d = inner.find(":-");
    if (d != std::string::npos) {
      name = inner.substr(0, d);
      deflt = inner.substr(d + 2);
      has_default = true;
    } else {
      name = inner;
    }
    // Only ${NAME} and ${NAME:-literal} have a static meaning; any other form
    // (${#X}, ${X/a/b}, ${!X}, ${X:=..}, a default that expands) computes.
    if (close == s.size() || !IsName(name) ||
        (has_default && deflt.find_first_of("$`\\'\"{}") != std::string::npos))
      e->substitution = true;
    *i = std::min(close + 1, s.size());
  } else if (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_') {
    size_t k = j;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_')) ++k;
    name = std::string(s.substr(j, k - j));
    *i = k;
  } else if (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '@' || s[j] == '*' || s[j] == '#' ||
             s[j] == '?' || s[j] == '$' || s[j] == '!') {
    name = std::string(1, s[j]);
    *i = j + 1;
  } else {
    e->value.push_back('$');
    *i = j;
    return;
  }
  if (!quoted) e->had_unquoted_var = true;
  auto it = vars.find(name);
  if (it != vars.end()) {
    e->value += it->second;
  } else if (has_default) {
    e->value += deflt;
  } else {
    e->unknown.push_back("$" + name);
  }
}

Expansion ExpandWord(std::string_view s, const Vars& vars) {
  Expansion e;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\\') {
      if (i + 1 < s.size()) e.value.push_back(s[i + 1]);
      i += 2;
    } else if (c == '\'') {
      size_t end = s.find('\'', i + 1);
      if (end == std::string_view::npos) end = s.size();
      e.value.append(s.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"') {
        if (s[i] == '\\' && i + 1 < s.size() &&
            (s[i + 1] == '$' || s[i + 1] == '`' || s[i + 1] == '"' || s[i + 1] == '\\')) {
          e.value.push_back(s[i + 1]);
          i += 2;
        } else if (s[i] == '$') {
          ExpandDollar(s, &i, vars, &e, true);
        } else if (s[i] == '`') {
          size_t end = s.find('`', i + 1);
          e.unknown.push_back("$(...)");
          e.substitution = true;
          i = end == std::string_view::npos ? s.size() : end + 1;
        } else {
          e.value.push_back(s[i++]);
        }
      }
      ++i;
    } else if (c == '$') {
      ExpandDollar(s, &i, vars, &e, false);
    } else if (c == '`') {
      size_t end = s.find('`', i + 1);
      e.unknown.push_back("$(...)");
      e.substitution = true;
      i = end == std::string_view::npos ? s.size() : end + 1;
    } else {
      e.value.push_back(c);
      ++i;
    }
  }
  return e;
}

std::vector<std::string> SplitFields(const std::string& s, const std::string& ifs) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (ifs.find(c) != std::string::npos) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string Basename(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}

std::string JoinRaw(const std::vector<std::string>& words, size_t from = 0) {
  std::string s;
  for (size_t i = from; i < words.size(); ++i) {
    if (!s.empty()) s += ' ';
    s += words[i];
  }
  return s;
}

bool LooksLikeScript(const std::string& w) {
  auto ends = [&](const char* suf) {
    std::string_view sv(suf);
    return w.size() >= sv.size() && w.compare(w.size() - sv.size(), sv.size(), sv) == 0;
  };
  if (ends(".py") || ends(".sh") || ends(".ipynb")) return true;
  // Relative paths name project scripts; absolute ones (/usr/bin/x) are programs.
  return w.find('/') != std::string::npos && w[0] != '/';
}

// ---------------------------------------------------------------- planner

// A harness argument list, parsed, validated and canonicalized once.
struct ParsedArgs {
  Result<engine::BenchConfig> config;  // ParseBenchArgs
  Status valid;                        // config->Validate() when config is ok
  std::string canonical;               // engine::CanonicalConfigJson when both are ok
};

// Logbooks repeat the same invocations across entries (reruns, copied
// commands), so parsed argument lists are memoized for the process.
std::mutex g_args_mu;
std::map<std::vector<std::string>, std::shared_ptr<const ParsedArgs>> g_args_memo;

std::shared_ptr<const ParsedArgs> CachedParseBenchArgs(const std::vector<std::string>& args) {
  {
    std::lock_guard<std::mutex> lock(g_args_mu);
    auto it = g_args_memo.find(args);
    if (it != g_args_memo.end()) return it->second;
  }
  auto parsed = std::make_shared<ParsedArgs>(ParsedArgs{ParseBenchArgs(args), Status::Ok(), {}});
  if (parsed->config.ok()) {
    parsed->valid = parsed->config->Validate();
    if (parsed->valid.ok()) parsed->canonical = engine::CanonicalConfigJson(*parsed->config);
  }
  std::lock_guard<std::mutex> lock(g_args_mu);
  if (g_args_memo.size() >= 4096) g_args_memo.clear();  // bounded memory
  g_args_memo.emplace(args, parsed);
  return parsed;
}

// True when `word` contains "$name" or "${name}" (without building either).
bool MentionsVariable(std::string_view word, std::string_view name) {
  for (size_t p = word.find('$'); p != std::string_view::npos; p = word.find('$', p + 1)) {
    std::string_view rest = word.substr(p + 1);
    if (rest.substr(0, name.size()) == name) return true;
    if (rest.size() > name.size() + 1 && rest[0] == '{' && rest.substr(1, name.size()) == name &&
        rest[name.size() + 1] == '}')
      return true;
  }
  return false;
}

// The shell words moelog understands without consent. Nothing is ever run for
// them: without --allow-shell there is no shell, and the runner starts only
// moelog itself. They are interpreted (assignments, export, `set -e`, `read
// <<< literal`) or have no effect on the runs (echo, true, cd and mkdir of a
// folder inside the working folder). Anything else needs --allow-shell.
const std::vector<std::string> kDirectWords = {"echo", "true", ":", "set", "export", "unset",
                                               "read", "cd",   "mkdir", "pwd"};

// `set` options with a meaning for the direct runner (errexit) or none.
const std::set<char> kSetFlags = {'e', 'u', 'o'};
const std::set<std::string> kSetOptions = {"errexit", "nounset", "pipefail"};

// Shells whose `-c SCRIPT` is planned (never run) like the text itself.
const std::set<std::string> kShells = {"bash", "sh", "/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/sh"};

// A path that stays inside the working folder: relative, no "..".
bool InsideFolder(const std::string& p) {
  if (p.empty() || p[0] == '/' || p[0] == '~') return false;
  size_t a = 0;
  while (a <= p.size()) {
    size_t b = p.find('/', a);
    if (b == std::string::npos) b = p.size();
    if (p.compare(a, b - a, "..") == 0 && b - a == 2) return false;
    a = b + 1;
  }
  return true;
}

// A document's word quoted in a report (and in the region notes written into
// the document): at most n characters, nothing that Markdown or an HTML
// comment would read as structure.
std::string Short(const std::string& w, size_t n = 40) {
  std::string s = w.size() <= n ? w : w.substr(0, n) + "...";
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || std::string_view("`<>|\\\x7f").find(c) != std::string_view::npos) c = '?';
  return s;
}

bool IsOutputRedir(const std::string& op) { return op.find('>') != std::string::npos; }

// Whether bash would compute `word` (Expansion::substitution). Every raw word
// of every command is checked, so words without '$' or '`' skip the expansion.
bool HasSubstitution(const std::string& word) {
  return word.find_first_of("$`") != std::string::npos && ExpandWord(word, {}).substitution;
}

struct Rendered {
  std::string rewritten, harness;
};

class Planner {
 public:
  Planner(const PlanOptions& o, Plan* plan)
      : opts_(o), table_(o.launchers ? *o.launchers : DefaultLauncherTable()), plan_(plan) {}

  // Plans `text` (a whole script). Returns the rendered scripts.
  Rendered PlanScript(std::string_view text, Vars vars, int depth) {
    auto list = std::make_shared<List>();
    std::string error;
    if (!ParseScript(text, list.get(), &error)) {
      Invalid("cannot parse command: " + error);
      return {std::string(text), std::string(text)};
    }
    keep_.push_back(list);
    WalkList(*list, &vars, depth);
    return {RenderList(*list, false), RenderList(*list, true)};
  }

  void Invalid(const std::string& why) {
    if (invalid_.empty()) invalid_ = why;
  }
  const std::string& invalid() const { return invalid_; }
  const std::string& no_adapter() const { return no_adapter_; }
  const std::string& not_applicable() const { return not_applicable_; }
  const std::map<std::string, std::string>& exported_env() const { return launcher_env_; }
  const std::string& shell_unplannable() const { return shell_unplannable_; }

 private:
  void WalkList(const List& list, Vars* vars, int depth) {
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (list.seps[i] == "&") Consent("a background job (&)");
      const AndOr& ao = list.items[i];
      for (const auto& op : ao.ops)
        if (op == "||") Consent("'||'");
      for (const Pipeline& p : ao.pipes) {
        const size_t before = plan_->invocations.size();
        WalkCmd(p.cmds[0], vars, depth, p.cmds.size() == 1);
        if (p.cmds.size() == 1) continue;
        // `BENCH | tee [-a] FILE`: the benchmark's output, which moelog
        // captures itself. The file is not written.
        const bool tee = p.cmds.size() == 2 && IsTee(p.cmds[1]) && plan_->invocations.size() > before;
        if (!tee) Consent("a pipeline into " + Short(p.cmds[1].words.empty() ? "(...)" : p.cmds[1].words[0]));
      }
    }
  }

  // `tee FILE` or `tee -a FILE`, no substitution, no redirections.
  static bool IsTee(const Cmd& c) {
    if (c.kind != Cmd::kSimple || !c.redirs.empty() || c.words.empty() || c.words[0] != "tee") return false;
    size_t files = 0;
    for (size_t i = 1; i < c.words.size(); ++i) {
      const std::string& w = c.words[i];
      if (HasSubstitution(w)) return false;
      if (w == "-a" || w == "--append") continue;
      if (w.rfind("-", 0) == 0) return false;
      ++files;
    }
    return files == 1;
  }

  // Every raw word of a command: any substitution needs consent, wherever it is.
  void CheckWords(const std::vector<std::string>& words) {
    for (const auto& w : words)
      if (HasSubstitution(w)) Consent("a substitution in '" + Short(w) + "'");
  }

  void WalkCmd(const Cmd& c, Vars* vars, int depth, bool alone) {
    CheckWords(c.words);
    CheckWords(c.items);
    bool output_redir = false;
    for (const auto& r : c.redirs) {
      CheckWords({r.target});
      if (IsOutputRedir(r.op)) {
        output_redir = true;
        continue;
      }
      // `read ... <<< WORD` is expanded statically; input redirections need bash.
      const bool static_read = r.op == "<<<" && c.kind == Cmd::kSimple && !c.words.empty() &&
                               c.words[FirstWord(c)] == "read";
      if (!static_read) Consent("input redirection " + r.op + " " + Short(r.target));
    }
    const size_t before = plan_->invocations.size();
    WalkCmdBody(c, vars, depth, alone);
    // Output redirections are accepted on benchmarks only: moelog captures
    // their output itself, and the named file is not written.
    if (output_redir && plan_->invocations.size() == before)
      Consent("output redirection of '" + Short(c.words.empty() ? "(...)" : JoinRaw(c.words)) + "'");
  }

  void WalkCmdBody(const Cmd& c, Vars* vars, int depth, bool alone) {
    if (c.kind == Cmd::kGroup) {
      if (c.subshell) {
        Vars inner = *vars;
        WalkList(*c.body, &inner, depth);
      } else {
        WalkList(*c.body, vars, depth);
      }
      return;
    }
    if (c.kind == Cmd::kFor) {
      std::vector<std::string> values;
      for (const auto& item : c.items) {
        auto e = ExpandWord(item, *vars);
        if (!e.unknown.empty()) {
          Invalid("for " + c.var + ": no static value for " + e.unknown.front());
          return;
        }
        if (e.had_unquoted_var) {
          for (auto& f : SplitFields(e.value, " \t\n")) values.push_back(f);
        } else {
          values.push_back(e.value);
        }
      }
      if (!IsName(c.var)) {
        Invalid("for: bad variable name '" + c.var + "'");
        return;
      }
      loop_vars_.push_back(c.var);
      for (const auto& v : values) {
        (*vars)[c.var] = v;
        WalkList(*c.body, vars, depth);
        if (!invalid_.empty()) break;
      }
      loop_vars_.pop_back();
      if (!values.empty()) (*vars)[c.var] = values.back();  // bash keeps the last value
      return;
    }
    WalkSimple(c, vars, depth, alone);
  }

  // Assignments at the front of a simple command.
  size_t SplitAssignments(const Cmd& c, const Vars& vars, std::map<std::string, std::string>* env) {
    size_t i = 0;
    for (; i < c.words.size(); ++i) {
      std::string name = AssignmentName(c.words[i]);
      if (name.empty()) break;
      auto e = ExpandWord(std::string_view(c.words[i]).substr(name.size() + 1), vars);
      (*env)[name] = e.value;
    }
    return i;
  }

  void WalkSimple(const Cmd& c, Vars* vars, int depth, bool alone) {
    std::map<std::string, std::string> env;
    size_t first = SplitAssignments(c, *vars, &env);
    if (first == c.words.size()) {  // plain assignments: shell variables
      for (const auto& [k, v] : env) (*vars)[k] = v;
      Memo(&c, RenderSimpleRaw(c), RenderSimpleRaw(c));
      return;
    }
    std::vector<std::string> words(c.words.begin() + static_cast<long>(first), c.words.end());
    Classify(c, words, env, vars, depth, alone);
  }

  // Words after env prefixes. `c` is the node being rendered (for memo).
  // Dispatches on the program: env, a shell, moelog, an interpreter running
  // a launcher or a harness, or a shell word moelog interprets itself.
  void Classify(const Cmd& c, std::vector<std::string> words, std::map<std::string, std::string> env, Vars* vars,
                int depth, bool alone) {
    const std::string prog = ExpandWord(words[0], *vars).value;
    const std::string base = Basename(prog);
    if (words[0].find_first_of("$`") != std::string::npos)
      return Refuse(c, true, "a program named by expansion " + Short(words[0]));
    if (base == "env" && words.size() > 1) return PlanEnv(c, std::move(words), std::move(env), vars, depth, alone);
    if (base == "bash" || base == "sh") {
      if (!kShells.count(prog)) return Refuse(c, true, "a program given by path " + Short(prog));
      return PlanShellC(c, words, env, vars, depth, alone);
    }
    if (base == "moelog") return PlanMoelog(c, words, env, *vars);
    size_t si = 0;  // the script's word
    if (const InterpreterSpec* in = table_.FindInterpreter(prog)) {
      auto script_at = SkipInterpreter(c, *in, words, base, *vars);
      if (!script_at) return;
      si = *script_at;
    }
    const std::string script = ExpandWord(words[si], *vars).value;
    if (const LauncherSpec* l = table_.FindLauncher(script))
      return PlanLauncher(c, *l, words, si + 1, vars, depth, alone);
    if (const Adapter* h = table_.FindHarness(script)) return PlanHarness(c, *h, words, si, env, *vars);
    const bool allowed = std::find(kDirectWords.begin(), kDirectWords.end(), base) != kDirectWords.end();
    if (si > 0 || (!allowed && LooksLikeScript(script))) {
      NoAdapter("unknown script " + script);
      MemoRaw(&c);
      return;
    }
    if (!allowed) return Refuse(c, false, base);  // a program moelog will not run
    // ./bin/echo, /usr/bin/mkdir: the folder's own programs
    if (prog != base) return Refuse(c, true, "a program given by path " + Short(prog));
    PlanDirectWord(c, words, base, env, vars);
  }

  // Memoizes `c` as written after refusing it: with consent (`consent`, the
  // reason) or never (`what` is not run at all).
  void Refuse(const Cmd& c, bool consent, const std::string& what) {
    if (consent) Consent(what);
    else Disallow(what);
    MemoRaw(&c);
  }

  // env K=V... cmd: the assignments join the command's environment.
  void PlanEnv(const Cmd& c, std::vector<std::string> words, std::map<std::string, std::string> env, Vars* vars,
               int depth, bool alone) {
    size_t i = 1;
    for (; i < words.size(); ++i) {
      std::string name = AssignmentName(words[i]);
      if (name.empty()) break;
      env[name] = ExpandWord(std::string_view(words[i]).substr(name.size() + 1), *vars).value;
    }
    if (i == words.size()) return Refuse(c, false, "env");
    words.erase(words.begin(), words.begin() + static_cast<long>(i));
    Classify(c, words, env, vars, depth, alone);
  }

  // moelog bench ...: a benchmark; any other moelog command is not run.
  void PlanMoelog(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                  const Vars& vars) {
    if (words.size() < 2 || ExpandWord(words[1], vars).value != "bench")
      return Refuse(c, false, "moelog " + (words.size() > 1 ? words[1] : std::string()));
    std::vector<std::string> raw_args(words.begin() + 2, words.end());
    if (auto rewritten = AddBench(c, "moelog", JoinRaw(words), raw_args, env, vars, RenderEnv(c)))
      Memo(&c, *rewritten + RenderRedirs(c), RenderSimpleRaw(c));
  }

  // An interpreter prefix (uv run ..., python ...): its own options skipped,
  // the index of the script it runs. nullopt (refused) when it runs none,
  // or runs code given inline (python -c / -m).
  std::optional<size_t> SkipInterpreter(const Cmd& c, const InterpreterSpec& in, const std::vector<std::string>& words,
                                        const std::string& base, const Vars& vars) {
    auto has = [](const std::vector<std::string>& list, const std::string& w) {
      return std::find(list.begin(), list.end(), w) != list.end();
    };
    size_t i = 1;
    if (!in.subcommand.empty()) {
      if (words.size() < 2 || ExpandWord(words[1], vars).value != in.subcommand) {
        Refuse(c, false, base);
        return std::nullopt;
      }
      i = 2;
    }
    while (i < words.size()) {
      const std::string w = ExpandWord(words[i], vars).value;
      if (has(in.value_options, w)) i += 2;
      else if ((w.rfind("--", 0) == 0 && w.find('=') != std::string::npos) || has(in.switch_options, w)) ++i;
      else break;
    }
    if (in.optional_python && i < words.size()) {
      const std::string w = Basename(ExpandWord(words[i], vars).value);
      if (w == "python" || w == "python3") {
        ++i;
        while (i < words.size() && ExpandWord(words[i], vars).value == "-u") ++i;
      }
    }
    if (i >= words.size()) {
      Refuse(c, false, base);
      return std::nullopt;
    }
    const std::string script = ExpandWord(words[i], vars).value;
    if (script.rfind("-", 0) == 0) {  // python -c / -m: arbitrary code
      Refuse(c, false, base + " " + script);
      return std::nullopt;
    }
    return i;
  }

  // A known harness script: its adapter turns the invocation into one or
  // more `moelog bench` runs, or says why it has none.
  void PlanHarness(const Cmd& c, const Adapter& h, const std::vector<std::string>& words, size_t si,
                   const std::map<std::string, std::string>& env, const Vars& vars) {
    std::vector<std::string> raw_args(words.begin() + static_cast<long>(si) + 1, words.end());
    // The common case, the hillclimb harness as it is today: its words are
    // moelog bench's, nothing to translate.
    const std::map<std::string, std::string> harness_env = HarnessEnv(env, vars);
    const bool env_rules = std::any_of(h.env.begin(), h.env.end(),
                                       [&](const auto& rule) { return harness_env.count(rule.first) > 0; });
    const bool pass_through = h.native_flags && h.flags.empty() && !env_rules && h.defaults.empty() &&
                              h.runs.empty() && h.no_adapter.empty() && h.env_refused.empty();
    if (pass_through && FindRevision(h, opts_.context) == nullptr) {
      if (auto rewritten = AddBench(c, h.name, JoinRaw(words), raw_args, env, vars, RenderEnv(c)))
        Memo(&c, *rewritten + RenderRedirs(c), RenderSimpleRaw(c));
      return;
    }
    std::vector<std::string> expanded;
    for (const auto& raw : raw_args) {
      auto e = ExpandWord(raw, vars);
      if (!e.unknown.empty()) {
        Invalid(JoinRaw(words) + ": no static value for " + e.unknown.front());
        MemoRaw(&c);
        return;
      }
      expanded.push_back(e.value);
    }
    // Run arguments are shell words, expanded per invocation by AddBench: the
    // command's words as written where the adapter passes them on (a loop's
    // `$tk` stays a variable in the rewritten script), else the translation of
    // the expanded words, quoted -- which bash, inside a loop, could not
    // repeat per iteration, nor values taken from the environment.
    std::optional<Adapted> adapted = AdaptAsWritten(h, raw_args, expanded, harness_env);
    if (!adapted) adapted = AdaptExpanded(c, h, words, expanded, harness_env);
    if (!adapted) return;
    if (!loop_vars_.empty())
      for (const auto& [name, rule] : h.env)
        if (harness_env.count(name)) shell_unplannable_ = "harness " + h.name + " configured by " + name + " inside a loop";
    std::vector<std::string> scripts;
    for (const AdaptedRun& run : adapted->runs) {
      auto rewritten =
          AddBench(c, h.name, JoinRaw(words), run.args, env, vars, RenderEnv(c), {run.label, adapted->revision});
      if (!rewritten) return;
      scripts.push_back(*rewritten);
    }
    std::string joined = scripts.size() == 1 ? scripts[0] : "{ ";
    for (size_t k = 0; scripts.size() > 1 && k < scripts.size(); ++k) joined += scripts[k] + "; ";
    Memo(&c, joined + (scripts.size() > 1 ? "}" : "") + RenderRedirs(c), RenderSimpleRaw(c));
  }

  // The adapter's translation of the expanded words, quoted; nullopt after
  // saying why there is none (no adapter, or a flag or value it refuses).
  std::optional<Adapted> AdaptExpanded(const Cmd& c, const Adapter& h, const std::vector<std::string>& words,
                                       const std::vector<std::string>& expanded,
                                       const std::map<std::string, std::string>& harness_env) {
    auto literal = AdaptInvocation(h, expanded, harness_env, opts_.context);
    if (!literal.ok()) {
      if (literal.status().code() == Status::Code::kNotFound) NoAdapter(literal.status().message());
      else Invalid(Short(JoinRaw(words), 80) + ": " + literal.status().message());
      MemoRaw(&c);
      return std::nullopt;
    }
    for (AdaptedRun& run : literal->runs)
      for (std::string& a : run.args) a = ShellQuote(a);
    if (!loop_vars_.empty()) shell_unplannable_ = "harness " + h.name + ": a value it maps given by a loop variable";
    return std::move(*literal);
  }

  // The adapter's translation of the command's words as written, as shell
  // words: each value word is given to the adapter as a placeholder and put
  // back; the adapter's own words are quoted. Nullopt when a flag name is not
  // literal or the adapter must read a value (a value map, a run selection),
  // or the translation fails (the expanded words then say why).
  std::optional<Adapted> AdaptAsWritten(const Adapter& h, const std::vector<std::string>& raw_args,
                                        const std::vector<std::string>& expanded,
                                        const std::map<std::string, std::string>& harness_env) const {
    std::vector<std::string> tokens;
    std::map<std::string, std::string> back;
    for (size_t i = 0; i < raw_args.size(); ++i) {
      if (expanded[i].rfind("--", 0) == 0) {
        if (raw_args[i] != expanded[i]) return std::nullopt;
        tokens.push_back(raw_args[i]);
        continue;
      }
      tokens.push_back("\x01" + std::to_string(i) + "\x01");
      back[tokens.back()] = raw_args[i];
    }
    auto sym = AdaptInvocation(h, tokens, harness_env, opts_.context);
    if (!sym.ok()) return std::nullopt;
    for (AdaptedRun& run : sym->runs)
      for (std::string& w : run.args) {
        auto it = back.find(w);
        w = it != back.end() ? it->second : ShellQuote(w);
      }
    return std::move(*sym);
  }

  // The variables a harness process sees: the command's prefixes, the
  // launcher's -e variables and those the script exported.
  std::map<std::string, std::string> HarnessEnv(const std::map<std::string, std::string>& env, const Vars& vars) const {
    std::map<std::string, std::string> out = launcher_env_;
    for (const auto& name : exported_) {
      auto it = vars.find(name);
      if (it != vars.end()) out[name] = it->second;
    }
    for (const auto& [k, v] : env) out[k] = v;
    return out;
  }

  // A shell word moelog interprets itself (echo, cd, mkdir, read, export,
  // set, ...): folders outside the working folder need consent.
  void PlanDirectWord(const Cmd& c, const std::vector<std::string>& words, const std::string& base,
                      const std::map<std::string, std::string>& env, Vars* vars) {
    if (base == "cd" || base == "mkdir") {
      for (size_t i = 1; i < words.size(); ++i) {
        const std::string w = ExpandWord(words[i], *vars).value;
        if (w == "-p" || w == "--") continue;
        if (!InsideFolder(w)) Consent(base + " " + Short(w) + " (outside the working folder)");
      }
      if (base == "cd" && words.size() < 2) Consent("cd to the home folder");
    }
    if (base == "read") {
      PlanRead(c, words, env, vars);
    } else if (base == "export") {
      for (size_t i = 1; i < words.size(); ++i) {
        if (words[i].rfind("-", 0) == 0) Consent("export " + Short(words[i]));
        std::string name = AssignmentName(words[i]);
        if (!name.empty())
          (*vars)[name] = ExpandWord(std::string_view(words[i]).substr(name.size() + 1), *vars).value;
        exported_.insert(name.empty() ? words[i] : name);
      }
    } else if (base == "set") {
      PlanSet(words, *vars);
    }
    MemoRaw(&c);
  }

  // `set -e` / `set -o errexit` (and their + forms): whether a failing
  // invocation ends the script, which the direct runner must honour too.
  void PlanSet(const std::vector<std::string>& words, const Vars& vars) {
    if (words.size() < 2) Consent("set without arguments");
    for (size_t i = 1; i < words.size(); ++i) {
      const std::string w = ExpandWord(words[i], vars).value;
      if (w.size() < 2 || (w[0] != '-' && w[0] != '+') || w == "--") {
        Consent("set " + Short(w));
        break;
      }
      const bool on = w[0] == '-';
      for (size_t k = 1; k < w.size(); ++k)
        if (!kSetFlags.count(w[k])) Consent("set " + Short(w));
      if (w.find('o', 1) != std::string::npos &&
          (i + 1 >= words.size() || !kSetOptions.count(ExpandWord(words[i + 1], vars).value)))
        Consent("set " + Short(w) + (i + 1 < words.size() ? " " + Short(words[i + 1]) : ""));
      if (w.find('e', 1) != std::string::npos) errexit_ = on;
      if (w.find('o', 1) != std::string::npos && i + 1 < words.size()) {  // -o NAME, -euo NAME
        if (ExpandWord(words[i + 1], vars).value == "errexit") errexit_ = on;
        ++i;
      }
    }
  }

  void PlanRead(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                Vars* vars) {
    const Redir* here = nullptr;
    for (const auto& r : c.redirs)
      if (r.op == "<<<") here = &r;
    std::vector<std::string> names;
    for (size_t i = 1; i < words.size(); ++i) {
      std::string w = ExpandWord(words[i], *vars).value;
      if (w.rfind("-", 0) == 0) continue;  // -r
      names.push_back(w);
    }
    if (here == nullptr) {
      Consent("read without a here-string");
      for (const auto& n : names) vars->erase(n);
      return;
    }
    auto e = ExpandWord(here->target, *vars);
    if (!e.unknown.empty()) {
      for (const auto& n : names) vars->erase(n);
      return;
    }
    std::string ifs = env.count("IFS") ? env.at("IFS") : std::string(" \t\n");
    std::vector<std::string> fields = SplitFields(e.value, ifs);
    for (size_t i = 0; i < names.size(); ++i) {
      std::string v;
      if (i < fields.size()) {
        v = fields[i];
        if (i + 1 == names.size())  // the last name takes the rest of the line
          for (size_t k = i + 1; k < fields.size(); ++k) v += " " + fields[k];
      }
      (*vars)[names[i]] = v;
    }
  }

  void PlanShellC(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                  Vars* vars, int depth, bool alone) {
    size_t i = 1;
    bool has_c = false;
    while (i < words.size()) {
      std::string w = ExpandWord(words[i], *vars).value;
      if (w == "-o" || w == "+o") {
        i += 2;
        continue;
      }
      if (w.size() >= 2 && (w[0] == '-' || w[0] == '+') && w != "--") {
        if (w.find('c') != std::string::npos && w[0] == '-') has_c = true;
        ++i;
        continue;
      }
      if (w == "--") ++i;
      break;
    }
    if (!has_c || i >= words.size() || depth > 8) {
      Disallow(JoinRaw(words));
      MemoRaw(&c);
      return;
    }
    auto e = ExpandWord(words[i], *vars);
    if (!e.unknown.empty()) {
      Invalid(Basename(ExpandWord(words[0], *vars).value) + " -c: no static value for " + e.unknown.front());
      MemoRaw(&c);
      return;
    }
    Vars inner = *vars;
    for (const auto& [k, v] : env) inner[k] = v;
    Rendered r = PlanScript(e.value, inner, depth + 1);
    if (alone && depth == 0 && env.empty() && c.redirs.empty() && whole_command_) {
      // The whole command is `bash -c SCRIPT`: the script is the plan.
      Memo(&c, r.rewritten, r.harness);
    } else {
      std::string head = RenderEnv(c);
      for (size_t k = 0; k < i; ++k) head += words[k] + " ";
      Memo(&c, head + ShellQuote(r.rewritten) + RenderRedirs(c), head + ShellQuote(r.harness) + RenderRedirs(c));
    }
  }

  void PlanLauncher(const Cmd& c, const LauncherSpec& l, const std::vector<std::string>& words, size_t i, Vars* vars,
                    int depth, bool alone) {
    std::map<std::string, std::string> env;
    bool found = false;
    std::string sub;
    for (; i < words.size(); ++i) {
      std::string w = ExpandWord(words[i], *vars).value;
      if (std::find(l.value_options.begin(), l.value_options.end(), w) != l.value_options.end()) {
        ++i;
        continue;
      }
      if (w.rfind("-", 0) == 0) {
        if (w == "--help" || w == "-h") sub = w;
        continue;
      }
      if (w == l.run_subcommand) {
        found = true;
        ++i;
        break;
      }
      if (sub.empty()) sub = w;
    }
    if (!found) {
      NotApplicable("remote launcher " + l.name + (sub.empty() ? "" : " " + sub) + " (no benchmark)");
      MemoRaw(&c);
      return;
    }
    // Options of the run subcommand up to the separator.
    for (; i < words.size(); ++i) {
      std::string w = ExpandWord(words[i], *vars).value;
      if (w == l.separator) {
        ++i;
        break;
      }
      bool is_env = w == l.env_option ||
                    std::find(l.env_option_aliases.begin(), l.env_option_aliases.end(), w) != l.env_option_aliases.end();
      std::string kv;
      if (is_env && i + 1 < words.size()) {
        kv = ExpandWord(words[++i], *vars).value;
      } else if (w.rfind(l.env_option + "=", 0) == 0) {
        kv = w.substr(l.env_option.size() + 1);
      } else if (std::find(l.value_options.begin(), l.value_options.end(), w) != l.value_options.end()) {
        ++i;
        continue;
      } else {
        continue;
      }
      std::string name = AssignmentName(kv);
      if (name.empty()) {
        Invalid("launcher " + l.name + ": bad " + l.env_option + " value '" + kv + "'");
        MemoRaw(&c);
        return;
      }
      env[name] = kv.substr(name.size() + 1);
    }
    if (i >= words.size()) {
      NotApplicable("remote launcher " + l.name + " " + l.run_subcommand + " without a command");
      MemoRaw(&c);
      return;
    }
    std::string payload;
    if (i + 1 == words.size()) {
      auto e = ExpandWord(words[i], *vars);
      payload = e.value;  // a single word is a whole shell command line
    } else {
      payload = JoinRaw(words, i);
    }
    std::string note = "stripped launcher " + l.name;
    for (const auto& [k, v] : env) {
      launcher_env_[k] = v;
      note += " (kept " + k + ")";
    }
    plan_->notes.push_back(note);
    Vars inner = *vars;
    for (const auto& [k, v] : env) inner[k] = v;
    std::map<std::string, std::string> saved = pending_env_;
    for (const auto& [k, v] : env) pending_env_[k] = v;
    bool saved_whole = whole_command_;
    whole_command_ = whole_command_ && alone && c.redirs.empty();
    Rendered r = PlanScript(payload, inner, depth);
    whole_command_ = saved_whole;
    pending_env_ = saved;
    std::string exports;
    for (const auto& [k, v] : env) exports += "export " + k + "=" + ShellQuote(v) + "\n";
    if (alone && depth == 0 && c.redirs.empty()) {
      Memo(&c, exports + r.rewritten, exports + r.harness);
    } else {
      std::string pre;
      for (const auto& [k, v] : env) pre += "export " + k + "=" + ShellQuote(v) + "; ";
      Memo(&c, "{ " + pre + r.rewritten + "; }" + RenderRedirs(c), "{ " + pre + r.harness + "; }" + RenderRedirs(c));
    }
  }

  // What the adapter said of one run: its label and the harness revision.
  struct RunTag {
    std::string label, revision;
  };

  // Adds one invocation; returns its rewritten command (without
  // redirections), or nullopt when the arguments do not check (the command
  // is then invalid and memoized as written).
  std::optional<std::string> AddBench(const Cmd& c, const std::string& harness, const std::string& original,
                                      const std::vector<std::string>& raw_args,
                                      const std::map<std::string, std::string>& env, const Vars& vars,
                                      const std::string& env_prefix, const RunTag& tag = {}) {
    BenchInvocation inv;
    inv.harness = harness;
    inv.original = original;
    inv.label = tag.label;
    inv.revision = tag.revision;
    std::vector<std::string> expanded;
    for (const auto& raw : raw_args) {
      auto e = ExpandWord(raw, vars);
      if (!e.unknown.empty()) {
        Invalid(original + ": no static value for " + e.unknown.front());
        MemoRaw(&c);
        return std::nullopt;
      }
      expanded.push_back(e.value);
    }
    // The target is the user's choice: a command naming another one is a
    // conflict, reported, never obeyed.
    bool has_target = false;
    for (size_t i = 0; i < expanded.size(); ++i) {
      std::string t;
      if (expanded[i] == "--target" && i + 1 < expanded.size()) t = expanded[i + 1];
      else if (expanded[i].rfind("--target=", 0) == 0) t = expanded[i].substr(9);
      else continue;
      has_target = true;
      if (t != opts_.target) {
        Invalid(Short(original, 80) + ": the command asks for --target " + Short(t) + ", this run is --target " +
                opts_.target + " (the target is chosen on moelog's command line)");
        MemoRaw(&c);
        return std::nullopt;
      }
    }
    std::string rewritten = env_prefix + ShellQuote(opts_.moelog) + " bench";
    if (!has_target) {
      inv.args = {"--target", opts_.target};
      rewritten += " --target " + ShellQuote(opts_.target);
    }
    inv.args.insert(inv.args.end(), expanded.begin(), expanded.end());
    for (const auto& raw : raw_args) rewritten += " " + raw;
    for (const auto& x : opts_.extra_bench_args) {
      inv.args.push_back(x);
      rewritten += " " + ShellQuote(x);
    }
    inv.env = pending_env_;
    inv.errexit = errexit_;
    for (const auto& [k, v] : env) inv.env[k] = v;
    for (const auto& name : loop_vars_) {
      auto it = vars.find(name);
      if (it != vars.end()) inv.loop_bindings[name] = it->second;
    }
    // read-assigned variables used in the arguments count as bindings too.
    for (const auto& raw : raw_args)
      if (raw.find('$') != std::string::npos)
        for (const auto& [k, v] : vars)
          if (MentionsVariable(raw, k) && !launcher_env_.count(k)) inv.loop_bindings[k] = v;
    inv.command_line = ShellQuote(opts_.moelog) + " bench";
    for (const auto& a : inv.args) inv.command_line += " " + ShellQuote(a);
    const std::shared_ptr<const ParsedArgs> parsed = CachedParseBenchArgs(inv.args);
    if (!parsed->config.ok()) {
      Invalid(original.substr(0, 80) + (original.size() > 80 ? "...: " : ": ") +
              parsed->config.status().message());
      MemoRaw(&c);
      return std::nullopt;
    }
    if (!parsed->valid.ok()) {
      Invalid(parsed->valid.message());
      MemoRaw(&c);
      return std::nullopt;
    }
    // Model and hardware files are moelog's data, named, never a path the
    // document chooses (a path would let it forge the model's numbers).
    for (const std::string* data : {&parsed->config->model_params, &parsed->config->hardware}) {
      if (engine::v5p::IsDataFilePath(*data)) {
        Invalid(Short(original, 80) + ": '" + Short(*data) +
                "' is a file path; a command may name only moelog's data files (e.g. --hardware v5p)");
        MemoRaw(&c);
        return std::nullopt;
      }
    }
    inv.config = *parsed->config;
    inv.canonical_config = parsed->canonical;
    if (static_cast<int>(plan_->invocations.size()) >= opts_.max_invocations) {
      Invalid("more than " + std::to_string(opts_.max_invocations) + " invocations after loop expansion");
      return std::nullopt;
    }
    plan_->invocations.push_back(std::move(inv));
    return rewritten;
  }

  // Something only bash can do: the plan needs --allow-shell, and then runs
  // under bash. `why` names it for the report.
  void Consent(const std::string& why) {
    if (std::find(plan_->disallowed.begin(), plan_->disallowed.end(), why) == plan_->disallowed.end())
      plan_->disallowed.push_back(why);
    plan_->needs_shell = true;
  }
  void Disallow(const std::string& program) { Consent("runs " + program); }
  void NoAdapter(const std::string& why) {
    if (no_adapter_.empty()) no_adapter_ = why;
  }
  void NotApplicable(const std::string& why) {
    if (not_applicable_.empty()) not_applicable_ = why;
  }

  // ------------------------------------------------------------ rendering
  void Memo(const Cmd* c, std::string rewritten, std::string harness) {
    if (!memo_.count(c)) memo_[c] = {std::move(rewritten), std::move(harness)};
  }
  void MemoRaw(const Cmd* c) { Memo(c, RenderSimpleRaw(*c), RenderSimpleRaw(*c)); }

  static std::string RenderRedirs(const Cmd& c) {
    std::string s;
    for (const auto& r : c.redirs) s += " " + r.op + (r.target.empty() ? "" : " " + r.target);
    return s;
  }
  static std::string RenderEnv(const Cmd& c) {
    std::string s;
    for (const auto& w : c.words) {
      if (AssignmentName(w).empty()) break;
      s += w + " ";
    }
    return s;
  }
  static std::string RenderSimpleRaw(const Cmd& c) { return JoinRaw(c.words) + RenderRedirs(c); }

  std::string RenderCmd(const Cmd& c, bool harness) {
    if (c.kind == Cmd::kFor) {
      std::string s = "for " + c.var + " in";
      for (const auto& it : c.items) s += " " + it;
      return s + "; do " + RenderList(*c.body, harness) + "; done" + RenderRedirs(c);
    }
    if (c.kind == Cmd::kGroup) {
      return (c.subshell ? "( " : "{ ") + RenderList(*c.body, harness) + (c.subshell ? " )" : "; }") +
             RenderRedirs(c);
    }
    auto it = memo_.find(&c);
    if (it == memo_.end()) return RenderSimpleRaw(c);
    return harness ? it->second.harness : it->second.rewritten;
  }

  std::string RenderList(const List& l, bool harness) {
    std::string s;
    for (size_t i = 0; i < l.items.size(); ++i) {
      const AndOr& ao = l.items[i];
      for (size_t p = 0; p < ao.pipes.size(); ++p) {
        if (p > 0) s += " " + ao.ops[p - 1] + " ";
        for (size_t k = 0; k < ao.pipes[p].cmds.size(); ++k) {
          if (k > 0) s += " | ";
          s += RenderCmd(ao.pipes[p].cmds[k], harness);
        }
      }
      const std::string& sep = l.seps[i];
      if (i + 1 < l.items.size()) {
        s += sep == "\n" ? "\n" : sep == "&" ? " & " : "; ";
      } else if (sep == "&") {
        s += " &";
      }
    }
    return s;
  }

  const PlanOptions& opts_;
  const LauncherTable& table_;
  Plan* plan_;
  std::string invalid_, no_adapter_, not_applicable_;
  std::map<const Cmd*, Rendered> memo_;
  std::vector<std::shared_ptr<List>> keep_;
  std::vector<std::string> loop_vars_;
  std::set<std::string> exported_;      // names the script exported
  std::string shell_unplannable_;       // why bash could not be given this plan's rewritten script
  bool errexit_ = false;  // `set -e` in effect
  std::map<std::string, std::string> pending_env_;   // launcher -e variables in scope
  std::map<std::string, std::string> launcher_env_;  // every launcher -e variable seen
  bool whole_command_ = true;
};

std::string Trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

}  // namespace

const char* VerdictName(PlanVerdict v) {
  switch (v) {
    case PlanVerdict::kRunnable: return "runnable";
    case PlanVerdict::kNeedsConsent: return "needs-consent";
    case PlanVerdict::kNoAdapter: return "no-adapter";
    case PlanVerdict::kNotApplicable: return "n/a";
    case PlanVerdict::kInvalid: return "invalid";
  }
  return "invalid";
}

std::string Plan::Summary() const {
  switch (verdict) {
    case PlanVerdict::kRunnable:
      return "runnable: " + std::to_string(invocations.size()) + " invocation(s)" +
             (needs_shell ? " under bash" : "");
    case PlanVerdict::kNeedsConsent: {
      std::string s = "skipped: needs --allow-shell (";
      for (size_t i = 0; i < disallowed.size(); ++i) s += (i ? "; " : "") + disallowed[i];
      if (!unplannable.empty()) s += "; and cannot be planned: " + unplannable;
      return s + ")";
    }
    case PlanVerdict::kNoAdapter: return "skipped: no adapter (" + reason + ")";
    case PlanVerdict::kNotApplicable: return "skipped: N/A" + (reason.empty() ? "" : " (" + reason + ")");
    case PlanVerdict::kInvalid: return "skipped: cannot plan (" + reason + ")";
  }
  return "";
}

std::vector<Plan> PlanCommands(const std::vector<std::string_view>& commands, const PlanOptions& options,
                               int threads) {
  std::vector<Plan> plans(commands.size());
  const size_t n = threads > 0 ? static_cast<size_t>(threads)
                               : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  // A plan depends only on the text and the options, so a command written in
  // several entries (a rerun, a baseline repeated) is planned once and copied.
  std::unordered_map<std::string_view, size_t> first;
  first.reserve(commands.size());
  std::vector<size_t> unique, source(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    const auto [it, inserted] = first.try_emplace(commands[i], i);
    source[i] = it->second;
    if (inserted) unique.push_back(i);
  }
  RunQueue(unique.size(), n, [&](size_t u) { plans[unique[u]] = PlanCommand(commands[unique[u]], options); });
  if (unique.size() < commands.size())
    RunQueue(commands.size(), n, [&](size_t i) {
      if (source[i] != i) plans[i] = plans[source[i]];
    });
  return plans;
}

void ClearPlanCache() {
  std::lock_guard<std::mutex> lock(g_args_mu);
  g_args_memo.clear();
}

Plan PlanCommand(std::string_view command_text, const PlanOptions& options) {
  Plan plan;
  plan.original = std::string(command_text);
  plan.needs_shell = false;
  std::string text = Trim(command_text);
  if (text.empty()) {
    plan.verdict = PlanVerdict::kNotApplicable;
    plan.reason = "empty command";
    return plan;
  }
  {
    std::string head = text.substr(0, 3);
    for (auto& ch : head) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (head == "N/A") {
      plan.verdict = PlanVerdict::kNotApplicable;
      std::string rest = Trim(std::string_view(text).substr(3));
      if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')') rest = rest.substr(1, rest.size() - 2);
      plan.reason = rest;
      return plan;
    }
  }
  Planner planner(options, &plan);
  Rendered r = planner.PlanScript(text, Vars{}, 0);
  plan.rewritten_script = r.rewritten;
  plan.harness_script = r.harness;
  if (!planner.invalid().empty() && !plan.disallowed.empty()) {
    // Reported as what it is first: text that needs a shell.
    plan.verdict = PlanVerdict::kNeedsConsent;
    plan.reason = "needs --allow-shell";
    plan.unplannable = planner.invalid();
  } else if (!planner.invalid().empty()) {
    plan.verdict = PlanVerdict::kInvalid;
    plan.reason = planner.invalid();
  } else if (!planner.no_adapter().empty()) {
    plan.verdict = PlanVerdict::kNoAdapter;
    plan.reason = planner.no_adapter();
  } else if (plan.invocations.empty()) {
    plan.verdict = PlanVerdict::kNotApplicable;
    plan.reason = planner.not_applicable().empty() ? "no benchmark invocation" : planner.not_applicable();
    for (const auto& d : plan.disallowed) plan.reason += "; " + d;
  } else if (!plan.disallowed.empty()) {
    plan.verdict = PlanVerdict::kNeedsConsent;
    plan.reason = "needs --allow-shell";
  } else {
    plan.verdict = PlanVerdict::kRunnable;
  }
  if (plan.verdict == PlanVerdict::kNeedsConsent && plan.unplannable.empty() && !planner.shell_unplannable().empty())
    plan.unplannable = planner.shell_unplannable();
  if ((plan.verdict != PlanVerdict::kRunnable && plan.verdict != PlanVerdict::kNeedsConsent) ||
      !plan.unplannable.empty())
    plan.invocations.clear();
  return plan;
}

const std::vector<std::string>& ShellAllowList() { return kDirectWords; }

std::string ShellQuote(std::string_view w) {
  if (w.empty()) return "''";
  bool plain = std::all_of(w.begin(), w.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("_-./,:=+@%").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(w);
  std::string s = "'";
  for (char c : w) {
    if (c == '\'') s += "'\\''";
    else s.push_back(c);
  }
  return s + "'";
}

}  // namespace moelog::logbook
