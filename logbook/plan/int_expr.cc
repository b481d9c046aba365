#include "logbook/plan/int_expr.h"

#include <cctype>
#include <limits>

namespace moelog::logbook {
namespace {

// Recursive descent over expr := term (('+'|'-') term)*,
// term := unary (('*'|'/') unary)*, unary := '-' unary | atom,
// atom := NUMBER | NAME | '(' expr ')'. Recursion is bounded by kMaxExprDepth
// (parentheses and unary minus both count).
class Parser {
 public:
  Parser(std::string_view s, const NameValue* value_of) : s_(s), value_of_(value_of) {}

  Result<int64_t> Run() {
    if (s_.size() > kMaxExprChars)
      return Status::InvalidArgument("expression longer than " + std::to_string(kMaxExprChars) + " characters");
    int64_t v = 0;
    if (!Expr(&v, 0)) return Status::InvalidArgument(error_);
    Blanks();
    if (i_ < s_.size()) return Status::InvalidArgument(Unexpected());
    return v;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  void Blanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  std::string Unexpected() const {
    if (i_ >= s_.size()) return "unexpected end of expression";
    return "unexpected '" + std::string(1, s_[i_]) + "' at " + std::to_string(i_ + 1);
  }
  bool Fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  static bool Checked(int64_t a, int64_t b, char op, int64_t* out) {
    switch (op) {
      case '+': return !__builtin_add_overflow(a, b, out);
      case '-': return !__builtin_sub_overflow(a, b, out);
      case '*': return !__builtin_mul_overflow(a, b, out);
      default: return false;
    }
  }
  bool Expr(int64_t* v, int depth) {
    if (!Term(v, depth)) return false;
    for (Blanks(); i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-'); Blanks()) {
      const char op = s_[i_++];
      int64_t r = 0;
      if (!Term(&r, depth)) return false;
      if (!Checked(*v, r, op, v)) return Fail("overflow");
    }
    return true;
  }
  bool Term(int64_t* v, int depth) {
    if (!Unary(v, depth)) return false;
    for (Blanks(); i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/'); Blanks()) {
      const char op = s_[i_++];
      int64_t r = 0;
      if (!Unary(&r, depth)) return false;
      if (op == '*') {
        if (!Checked(*v, r, op, v)) return Fail("overflow");
      } else if (r == 0) {
        if (value_of_) return Fail("division by zero");
      } else if (*v == std::numeric_limits<int64_t>::min() && r == -1) {
        return Fail("overflow");
      } else {
        *v /= r;
      }
    }
    return true;
  }
  bool Unary(int64_t* v, int depth) {
    if (depth > kMaxExprDepth) return Fail("nested deeper than " + std::to_string(kMaxExprDepth) + " levels");
    Blanks();
    if (i_ < s_.size() && s_[i_] == '-') {
      ++i_;
      if (!Unary(v, depth + 1)) return false;
      if (*v == std::numeric_limits<int64_t>::min()) return Fail("overflow");
      *v = -*v;
      return true;
    }
    return Atom(v, depth);
  }
  bool Atom(int64_t* v, int depth) {
    Blanks();
    if (i_ >= s_.size()) return Fail(Unexpected());
    const char c = s_[i_];
    if (c == '(') {
      ++i_;
      if (!Expr(v, depth + 1)) return false;
      Blanks();
      if (i_ >= s_.size() || s_[i_] != ')') return Fail("missing ')'");
      ++i_;
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      *v = 0;
      for (; i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])); ++i_)
        if (!Checked(*v, 10, '*', v) || !Checked(*v, s_[i_] - '0', '+', v)) return Fail("overflow");
      return true;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t b = i_;
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
      const std::string name(s_.substr(b, i_ - b));
      names_.push_back(name);
      *v = 1;
      if (!value_of_) return true;
      const std::optional<int64_t> x = (*value_of_)(name);
      if (!x) return Fail("no whole-number value for " + name);
      *v = *x;
      return true;
    }
    return Fail(Unexpected());
  }

  std::string_view s_;
  const NameValue* value_of_;  // null: check the syntax only
  size_t i_ = 0;
  std::string error_;
  std::vector<std::string> names_;
};

}  // namespace

Result<int64_t> EvalIntExpr(std::string_view expr, const NameValue& value_of) {
  Parser p(expr, &value_of);
  return p.Run();
}

Result<std::vector<std::string>> IntExprNames(std::string_view expr) {
  Parser p(expr, nullptr);
  auto r = p.Run();
  if (!r.ok()) return r.status();
  return p.names();
}

}  // namespace moelog::logbook
