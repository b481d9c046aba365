#include "logbook/plan/shell_parser.h"

#include <cctype>
#include <set>
#include <utility>

#include "logbook/plan/shell_lexer.h"

namespace moelog::logbook::shell {
namespace {

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
    return op.find('>') != std::string::npos || op == "<" || op == "<<<" || op == "<<" || op == "<<-";
  }

  bool ParseRedirs(Cmd* c, std::string* error) {
    while (Peek().kind == Token::kOp && IsRedirOp(Peek().text)) {
      std::string op = Peek().text;
      Redir r{op, "", Peek().body, Peek().quoted};
      ++p_;
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
    static const std::set<std::string> kUnsupported = {"while", "until", "case", "function", "select"};
    if (Peek().kind == Token::kWord && kUnsupported.count(Peek().text)) {
      *error = "cannot plan shell construct '" + Peek().text + "'";
      return false;
    }
    if (IsWord("for")) return ParseFor(c, error);
    if (IsWord("if")) return ParseIf(c, error);
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
      } else if (Peek().kind == Token::kOp && IsRedirOp(Peek().text)) {
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

  // Parses the list up to one of `stop` into a new list; false on error.
  bool ParseBranch(std::shared_ptr<List>* out, const std::set<std::string>& stop, std::string* error) {
    *out = std::make_shared<List>();
    if (!Enter(error) || !ParseList(out->get(), stop, error)) return false;
    --depth_;
    return true;
  }

  // if LIST; then LIST; [else LIST;] fi (no elif).
  bool ParseIf(Cmd* c, std::string* error) {
    ++p_;  // if
    c->kind = Cmd::kIf;
    if (!ParseBranch(&c->cond, {"then"}, error)) return false;
    if (!IsWord("then")) {
      *error = "if: missing 'then'";
      return false;
    }
    ++p_;
    if (!ParseBranch(&c->body, {"else", "elif", "fi"}, error)) return false;
    if (IsWord("elif")) {
      *error = "cannot plan shell construct 'elif'";
      return false;
    }
    if (IsWord("else")) {
      ++p_;
      if (!ParseBranch(&c->orelse, {"fi"}, error)) return false;
    }
    if (!IsWord("fi")) {
      *error = "if: missing 'fi'";
      return false;
    }
    ++p_;
    return ParseRedirs(c, error);
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

}  // namespace

bool ParseScript(std::string_view text, List* list, std::string* error) {
  std::vector<Token> toks;
  if (!Tokenize(text, &toks, error)) return false;
  Parser ps(std::move(toks));
  return ps.ParseAll(list, error);
}

}  // namespace moelog::logbook::shell
