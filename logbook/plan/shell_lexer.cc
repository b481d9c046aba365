#include "logbook/plan/shell_lexer.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

namespace moelog::logbook::shell {
namespace {

Token Tok(Token::Kind kind, std::string text) {
  Token t;
  t.kind = kind;
  t.text = std::move(text);
  return t;
}

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
        out->push_back(Tok(Token::kOp, "\n"));
        ++i_;
        ReadHereBodies(out);
        continue;
      }
      if (IsOpChar(c) && PlaceholderLen() == 0) {
        out->push_back(Tok(Token::kOp, ReadOp()));
        if (out->back().text == "<<" || out->back().text == "<<-") {
          if (!ReadDelimiter(out, error)) return false;
        }
        continue;
      }
      std::string word;
      if (!ReadWord(&word, error)) return false;
      // "2>&1", "2>file": a digit-only word glued to a redirection.
      if (i_ < s_.size() && (s_[i_] == '>' || s_[i_] == '<') &&
          std::all_of(word.begin(), word.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
        std::string op = ReadOp();
        out->push_back(Tok(Token::kOp, word + op));
        continue;
      }
      out->push_back(Tok(Token::kWord, word));
    }
    ReadHereBodies(out);
    out->push_back(Tok(Token::kEnd, ""));
    return true;
  }

 private:
  struct PendingHere {
    size_t token;            // index of the operator token
    std::string delimiter;   // unquoted
    bool strip_tabs;         // <<-
  };

  // The delimiter word after `<<`: pushed as a word; its body is read at
  // the end of the line.
  bool ReadDelimiter(std::vector<Token>* out, std::string* error) {
    SkipBlanks();
    std::string word;
    if (i_ >= s_.size() || s_[i_] == '\n' || IsOpChar(s_[i_]) || !ReadWord(&word, error) || word.empty()) {
      if (error->empty()) *error = "here-document without a delimiter word";
      return false;
    }
    std::string delim;
    bool quoted = false;
    for (char ch : word) {
      if (ch == '\'' || ch == '"' || ch == '\\') quoted = true;
      else delim.push_back(ch);
    }
    Token& op = out->back();
    op.quoted = quoted;
    pending_.push_back({out->size() - 1, delim, op.text == "<<-"});
    out->push_back(Tok(Token::kWord, word));
    return true;
  }

  // The bodies of the here-documents opened on the line just ended, in
  // order: the lines up to each delimiter line. One pass over the text.
  void ReadHereBodies(std::vector<Token>* out) {
    for (const PendingHere& h : pending_) {
      std::string body;
      while (i_ < s_.size()) {
        size_t nl = s_.find('\n', i_);
        size_t end = nl == std::string_view::npos ? s_.size() : nl;
        std::string_view line = s_.substr(i_, end - i_);
        i_ = nl == std::string_view::npos ? s_.size() : nl + 1;
        std::string_view bare = line;
        if (h.strip_tabs)
          while (!bare.empty() && bare.front() == '\t') bare.remove_prefix(1);
        if (!bare.empty() && bare.back() == '\r') bare.remove_suffix(1);
        if (bare == h.delimiter) break;
        body.append(bare);
        body.push_back('\n');
      }
      (*out)[h.token].body = std::move(body);
    }
    pending_.clear();
  }

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
    static const char* kOps[] = {"<<<", "<<-", "&&", "||", ";;", ">>", "<<", ">&", "&>", ">|", ";", "&", "|", "<", ">", "(", ")"};
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

  // The index of the character closing the quoted piece at i_ ('...',
  // "...", $(...), `...`), kept whole inside the word; npos when it is
  // unterminated (*what then says which); nullopt when none starts there.
  std::optional<size_t> QuotedEnd(const char** what) const {
    const char c = s_[i_];
    if (c == '\'') {
      *what = "unterminated single quote";
      return s_.find('\'', i_ + 1);
    }
    if (c == '`') {
      *what = "unterminated backquote";
      return s_.find('`', i_ + 1);
    }
    size_t j = i_ + 1;
    if (c == '"') {
      *what = "unterminated double quote";
      while (j < s_.size() && s_[j] != '"') j += (s_[j] == '\\') ? 2 : 1;
    } else if (c == '$' && i_ + 1 < s_.size() && s_[i_ + 1] == '(') {
      // $( ... ): keep balanced text inside the word.
      *what = "unterminated $(";
      int depth = 0;
      for (; j < s_.size(); ++j) {
        if (s_[j] == '(') ++depth;
        if (s_[j] == ')' && --depth == 0) break;
      }
    } else {
      return std::nullopt;
    }
    return j >= s_.size() ? std::string_view::npos : j;
  }

  // "<job-name>" glued (a name between '<' and '>', nothing blank inside):
  // the author's placeholder for a value, not two redirections. Its length,
  // or 0. At most 64 characters are looked at.
  size_t PlaceholderLen() const {
    if (i_ >= s_.size() || s_[i_] != '<' || i_ + 1 >= s_.size() || !std::isalpha(static_cast<unsigned char>(s_[i_ + 1])))
      return 0;
    size_t j = i_ + 1;
    while (j < s_.size() && j - i_ < 64 &&
           (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_' || s_[j] == '-' || s_[j] == '.'))
      ++j;
    return j < s_.size() && s_[j] == '>' ? j + 1 - i_ : 0;
  }

  bool ReadWord(std::string* w, std::string* error) {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (const size_t n = PlaceholderLen(); n > 0) {
        w->append(s_.substr(i_, n));
        i_ += n;
        continue;
      }
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
      const char* what = "";
      if (const std::optional<size_t> e = QuotedEnd(&what)) {
        if (*e == std::string_view::npos) {
          *error = what;
          return false;
        }
        w->append(s_.substr(i_, *e - i_ + 1));
        i_ = *e + 1;
        continue;
      }
      w->push_back(c);
      ++i_;
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
  std::vector<PendingHere> pending_;
};

}  // namespace

bool Tokenize(std::string_view text, std::vector<Token>* out, std::string* error) {
  Lexer lx(text);
  return lx.Run(out, error);
}

}  // namespace moelog::logbook::shell
