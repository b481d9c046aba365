#include "logbook/plan/shell_eval.h"

#include <algorithm>
#include <cctype>

namespace moelog::logbook::shell {

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

// Index of the first word that is not a NAME=value prefix.
size_t FirstWord(const Cmd& c) {
  size_t i = 0;
  while (i + 1 < c.words.size() && !AssignmentName(c.words[i]).empty()) ++i;
  return i;
}

namespace {

// A parameter a `$` names: its name, and the literal default of
// ${NAME:-literal}.
struct ParamRef {
  std::string name, deflt;
  bool has_default = false;
};

// Command substitution at s[j] ('(' or '`'): no static value. Returns where
// it ends.
size_t SkipSubstitution(std::string_view s, size_t j, Expansion* e) {
  int depth = 0;
  size_t k = j;
  for (; k < s.size(); ++k) {
    if (s[k] == '(') ++depth;
    if (s[k] == ')' && --depth == 0) break;
  }
  e->unknown.push_back("$(...)");
  e->substitution = true;
  return std::min(k + 1, s.size());
}

// ${...} with s[j] == '{': the parameter it names; returns where it ends.
size_t ReadBraced(std::string_view s, size_t j, ParamRef* p, Expansion* e) {
  size_t close = s.find('}', j);
  if (close == std::string_view::npos) close = s.size();
  std::string inner(s.substr(j + 1, close - j - 1));
  auto d = inner.find(":-");
  if (d != std::string::npos) {
    p->name = inner.substr(0, d);
    p->deflt = inner.substr(d + 2);
    p->has_default = true;
  } else {
    p->name = inner;
  }
  // Only ${NAME} and ${NAME:-literal} have a static meaning; any other form
  // (${#X}, ${X/a/b}, ${!X}, ${X:=..}, a default that expands) computes.
  if (close == s.size() || !IsName(p->name) ||
      (p->has_default && p->deflt.find_first_of("$`\\'\"{}") != std::string::npos))
    e->substitution = true;
  return std::min(close + 1, s.size());
}

// The special parameters: positional ($1), $@, $*, $#, $?, $$, $!.
bool IsSpecialParam(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) || c == '@' || c == '*' || c == '#' || c == '?' || c == '$' ||
         c == '!';
}

void ExpandDollar(std::string_view s, size_t* i, const Vars& vars, Expansion* e, bool quoted) {
  // s[*i] == '$'
  size_t j = *i + 1;
  if (j >= s.size()) {
    e->value.push_back('$');
    *i = j;
    return;
  }
  if (s[j] == '(' || s[j] == '`') {
    *i = SkipSubstitution(s, j, e);
    return;
  }
  ParamRef p;
  if (s[j] == '{') {
    *i = ReadBraced(s, j, &p, e);
  } else if (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_') {
    size_t k = j;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_')) ++k;
    p.name = std::string(s.substr(j, k - j));
    *i = k;
  } else if (IsSpecialParam(s[j])) {
    p.name = std::string(1, s[j]);
    *i = j + 1;
  } else {
    e->value.push_back('$');
    *i = j;
    return;
  }
  if (!quoted) e->had_unquoted_var = true;
  auto it = vars.find(p.name);
  if (it != vars.end()) {
    e->value += it->second;
  } else if (p.has_default) {
    e->value += p.deflt;
  } else {
    e->unknown.push_back("$" + p.name);
  }
}

}  // namespace

Expansion ExpandWord(std::string_view s, const Vars& vars, size_t limit) {
  Expansion e;
  size_t i = 0;
  while (i < s.size()) {
    if (e.value.size() > limit) {
      e.value.resize(limit);
      e.too_long = true;
      break;
    }
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
  if (e.value.size() > limit) {
    e.value.resize(limit);
    e.too_long = true;
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

std::string JoinRaw(const std::vector<std::string>& words, size_t from) {
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
  if (ends(".py") || ends(".sh") || ends(".ipynb") || ends(".sbatch") || ends(".slurm")) return true;
  // Relative paths name project scripts; absolute ones (/usr/bin/x) are programs.
  return w.find('/') != std::string::npos && w[0] != '/';
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
std::string Short(const std::string& w, size_t n) {
  std::string s = w.size() <= n ? w : w.substr(0, n) + "...";
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') c = ' ';
  return s;
}

std::string Joined(std::initializer_list<std::string_view> parts, std::string_view sep) {
  std::string s;
  bool first = true;
  for (std::string_view p : parts) {
    if (!first && p.empty()) continue;
    if (!first) s.append(sep);
    s.append(p);
    first = false;
  }
  return s;
}

std::string FlagOf(const std::vector<std::string>& args, size_t i) {
  const std::string& w = args[i];
  if (w.rfind("--", 0) == 0 && w.find('=') != std::string::npos) return Short(w) + ": ";
  if (i > 0 && args[i - 1].rfind("-", 0) == 0) return Short(args[i - 1]) + " " + Short(w) + ": ";
  return "";
}

bool IsOutputRedir(const std::string& op) { return op.find('>') != std::string::npos; }

// Whether bash would compute `word` (Expansion::substitution). Every raw word
// of every command is checked, so words without '$' or '`' skip the expansion.
bool HasSubstitution(const std::string& word) {
  return word.find_first_of("$`") != std::string::npos && ExpandWord(word, {}).substitution;
}

}  // namespace moelog::logbook::shell
