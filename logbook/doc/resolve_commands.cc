#include "logbook/doc/resolve_commands.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "logbook/budgets.h"
#include "logbook/reader/segment.h"
#include "logbook/text.h"

namespace moelog::logbook {

namespace {

// The flags of "`--flag value`" spans: each span only flags and plain words.
bool FlagSpans(const std::vector<std::string>& spans, std::string* flags) {
  for (const std::string& sp : spans) {
    const std::string t = Trim(sp);
    if (t.rfind("--", 0) != 0 || t.size() > 200 || t.find_first_of("|;&<>`$()\\'\"\n") != std::string::npos)
      return false;
    *flags += " " + t;
  }
  return true;
}

// "same as DISP-001", "same v5p no-shared matrix as DISP-001 on a fresh
// host": the ID an entry's Command text refers to ("same", at most six words,
// "as", the ID), or "".
std::string SameAsId(const std::string& text) {
  std::string v = Trim(text);
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v.rfind("same ", 0) != 0) return "";
  std::vector<std::string> words;
  for (size_t i = 0, n = 0; i < text.size() && n < 10; ++n) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t a = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > a) words.push_back(text.substr(a, i - a));
  }
  for (size_t k = 1; k + 1 < words.size() && k <= 7; ++k) {
    std::string w = words[k];
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (w == "as") return IdOfWord(words[k + 1]);
  }
  return "";
}

}  // namespace

// "- Command: same as DISP-001 with `--dispatch-permute-mode repeat_sort`":
// the earlier entry's command (one command line, nothing piped or
// redirected, not ending in a quoted launcher payload), with the flags given appended (the harness's argparse keeps
// the last value of a flag given twice). "same sweep as DISP-001" (in the
// field or its first sub-bullet, no flags): every command of that entry, as
// written there. The entry's own line is the commands'.
void ResolveSameAs(Logbook* lb) {
  // The first entry of each ID among those before entry i (a lookup per
  // reference: linear in the entries, not quadratic).
  std::unordered_map<std::string, size_t> first;
  for (size_t i = 0; i < lb->entries.size(); ++i) {
    if (i > 0) first.emplace(lb->entries[i - 1].id, i - 1);
    Entry& e = lb->entries[i];
    const Field* f = e.FindField("Command");
    if (!e.commands.empty() || f == nullptr) continue;
    const Bullet* said = &f->bullet;
    std::string id = SameAsId(f->value);
    if (id.empty() && Trim(f->value).empty() && !f->bullet.children.empty()) {
      said = &f->bullet.children[0];
      id = SameAsId(said->text);
    }
    if (id.empty()) continue;
    // Flag spans; other spans may only be single words (a host: `codex-b`).
    std::vector<std::string> flag_spans;
    bool other = false;
    for (const std::string& sp : said->code_spans) {
      const std::string t = Trim(sp);
      if (t.rfind("--", 0) == 0) flag_spans.push_back(sp);
      else other = other || t.empty() || t.find_first_of(" \t") != std::string::npos;
    }
    std::string flags;
    if (other || !FlagSpans(flag_spans, &flags)) continue;
    const auto at = first.find(id);
    if (at == first.end() || lb->entries[at->second].commands.empty()) continue;
    const Entry* ref = &lb->entries[at->second];
    if (flags.empty()) {
      for (CommandText c : ref->commands) {
        c.line = c.end_line = said->line;
        c.label.clear();
        e.commands.push_back(std::move(c));
      }
      continue;
    }
    if (ref->commands.size() != 1) continue;
    const CommandText& base = ref->commands[0];
    // The flags go last: the base must end with the harness's own words (not
    // a quoted launcher payload, a pipe or a redirection).
    const std::string& j = base.joined;
    if (j.empty() || j.find_first_of("|;&<>\n") != std::string::npos || j.back() == '\'' || j.back() == '"') continue;
    // A chain of entries each "same as" the one before grows its command by
    // the flags each adds: bounded, so a long chain costs no quadratic copy.
    if (j.size() + flags.size() > static_cast<size_t>(BudgetLimit(BudgetId::kSameAsCommandChars))) {
      lb->diagnostics.push_back({lb->file, said->line,
                                 e.id + ": cannot plan `same as " + id + "`: the command would hold " +
                                     OverBudget(BudgetId::kSameAsCommandChars)});
      continue;
    }
    CommandText c;
    c.text = c.joined = base.joined + flags;
    c.line = c.end_line = said->line;
    e.commands.push_back(std::move(c));
  }
}

namespace {

// The values of a brace list, `body` being what follows its "{" up to and
// including the closing "}": plain words (letters, digits, `_.-:+`; blanks
// between them where `spaces`), at most 32, none empty; false otherwise.
bool BraceValues(std::string_view body, bool spaces, std::vector<std::string>* values) {
  values->clear();
  std::string v;
  for (const char c : body) {
    if (c == ',' || c == '}') {
      if (v.empty() || values->size() >= 32) return false;
      values->push_back(std::move(v));
      v.clear();
    } else if (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_.-:+").find(c) != std::string_view::npos) {
      v.push_back(c);
    } else if (!spaces || c != ' ') {
      return false;
    }
  }
  return !values->empty();
}

// "`q in {none,int8}`": a loop the author wrote beside the command; its name
// and values (plain words, at most 32), or false.
bool LoopSpan(const std::string& span, std::string* name, std::vector<std::string>* values) {
  const std::string t = Trim(span);
  const size_t in = t.find(" in {");
  if (in == std::string::npos || in == 0 || t.size() > 400 || t.back() != '}') return false;
  *name = t.substr(0, in);
  if (!std::all_of(name->begin(), name->end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) ||
      std::isdigit(static_cast<unsigned char>((*name)[0])))
    return false;
  return BraceValues(std::string_view(t).substr(in + 5), /*spaces=*/true, values);
}

// True when `text` reads $name or ${name}.
bool ReadsVariable(const std::string& text, const std::string& name) {
  for (size_t at = text.find('$'); at != std::string::npos; at = text.find('$', at + 1)) {
    size_t b = at + 1 + (at + 1 < text.size() && text[at + 1] == '{' ? 1 : 0);
    if (text.compare(b, name.size(), name) != 0) continue;
    const size_t e = b + name.size();
    if (e == text.size() || !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) return true;
  }
  return false;
}

}  // namespace

// "- Command: `ssh h '... --quant-mode "$q" --topk "$tk"'`" with a sub-bullet
// "`q in {none,int8}`, `tk in {2,8}`": the author's loops, written beside
// the command. A command that reads such a variable and sets no loop of
// that name is planned inside `for q in none int8; do ... done`.
void ResolveLoopSpans(Logbook* lb) {
  for (Entry& e : lb->entries) {
    const Field* f = e.FindField("Command");
    if (f == nullptr || e.commands.empty()) continue;
    std::vector<std::pair<std::string, std::vector<std::string>>> loops;
    std::vector<const Bullet*> bullets = {&f->bullet};
    for (const Bullet& b : f->bullet.children) bullets.push_back(&b);
    for (const Bullet* b : bullets)
      for (const std::string& sp : b->code_spans) {
        std::pair<std::string, std::vector<std::string>> l;
        if (loops.size() < 8 && LoopSpan(sp, &l.first, &l.second)) loops.push_back(std::move(l));
      }
    if (loops.empty()) continue;
    for (CommandText& c : e.commands) {
      std::string head, tail;
      for (const auto& [name, values] : loops) {
        if (!ReadsVariable(c.joined, name) || c.joined.find("for " + name + " in") != std::string::npos) continue;
        head += "for " + name + " in";
        for (const auto& v : values) head += " " + v;
        head += "; do\n";
        tail += "\ndone";
      }
      if (!head.empty()) c.joined = head + c.joined + tail;
    }
  }
}

namespace {

// "{none,int8}" as a whole word: its plain values (2 to 32), or false.
bool BraceList(std::string_view w, std::vector<std::string>* values) {
  if (w.size() < 5 || w.size() > 400 || w.front() != '{' || w.back() != '}') return false;
  return BraceValues(w.substr(1), /*spaces=*/false, values) && values->size() >= 2;
}

}  // namespace

// "--quant-mode {none,int8} --topk {2,8}": a sweep the author wrote as a
// brace list after a flag (the harness takes one value; the shell would pass
// two words). The command is planned inside `for quant_mode in none int8; do
// ... --quant-mode "$quant_mode" ...; done`, one loop per list (at most 8),
// inside single quotes too ('...'"$topk"'...'). One pass over the text.
void ResolveBraceFlags(Logbook* lb) {
  for (Entry& e : lb->entries)
    for (CommandText& c : e.commands) {
      const std::string& t = c.joined;
      if (t.find('{') == std::string::npos || t.find("for ") != std::string::npos) continue;
      std::string out, head, tail, prev;
      std::set<std::string> names;
      bool single = false, dbl = false, ok = true;
      size_t i = 0;
      while (i < t.size() && ok) {
        const char ch = t[i];
        if (std::isspace(static_cast<unsigned char>(ch))) {
          out += ch;
          ++i;
          continue;
        }
        // One word (split at blanks, quoted or not), quotes tracked: a brace
        // list is taken unquoted or as a whole word of a single-quoted payload.
        const size_t a = i;
        const bool s0 = single, d0 = dbl;
        while (i < t.size() && !std::isspace(static_cast<unsigned char>(t[i]))) {
          if (t[i] == '\'' && !dbl) single = !single;
          else if (t[i] == '"' && !single) dbl = !dbl;
          else if (t[i] == '\\' && !single && i + 1 < t.size()) ++i;
          ++i;
        }
        const std::string w = t.substr(a, i - a);
        // "--topk {2,8}'" ends a single-quoted payload: the list, then the quote.
        const bool closes = s0 && !single && w.size() > 1 && w.back() == '\'';
        const std::string core = closes ? w.substr(0, w.size() - 1) : w;
        std::vector<std::string> values;
        if (!d0 && (single == s0 || closes) && prev.size() > 2 && prev.rfind("--", 0) == 0 && BraceList(core, &values)) {
          std::string name;
          for (char x : prev.substr(2)) name += x == '-' ? '_' : x;
          if (!std::all_of(name.begin(), name.end(), [](char x) { return std::isalnum(static_cast<unsigned char>(x)) || x == '_'; }) ||
              !names.insert(name).second || names.size() > 8) {
            ok = false;
            break;
          }
          out += s0 ? "'\"$" + name + "\"'" + (closes ? "'" : "") : "\"$" + name + "\"";
          head += "for " + name + " in";
          for (const auto& v : values) head += " " + v;
          head += "; do\n";
          tail += "\ndone";
        } else {
          out += w;
        }
        prev = w;
        if (prev.rfind("'", 0) == 0) prev = prev.substr(1);
      }
      if (ok && !head.empty()) c.joined = head + out + tail;
    }
}

}  // namespace moelog::logbook
