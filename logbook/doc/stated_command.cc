#include "logbook/doc/stated_command.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "engine/bench_flags.h"
#include "logbook/doc/command_line.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

constexpr size_t kMaxCommands = 256;
constexpr size_t kMaxSpan = 400;
constexpr size_t kMaxLoops = 8;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!w.empty()) out.push_back(std::move(w));
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

bool PlainValue(const std::string& v) {
  return !v.empty() && v.size() <= 64 && std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_.-:+,/").find(c) != std::string_view::npos;
  });
}

// The harness flag of a run key ("parallel_mode", "mlp-dim", an alias such
// as "pass") -> its spec, or nullptr.
const engine::FlagSpec* FlagOfKey(const std::string& key) {
  std::string k;
  for (char c : key) k += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const engine::FlagSpec* f = engine::FindRunKey(k);
  if (f == nullptr)
    for (const auto& spec : engine::BenchFlags())
      if (*spec.alias && k == spec.alias) f = &spec;
  return f != nullptr && *f->flag ? f : nullptr;
}

const engine::FlagSpec* FlagOfOption(const std::string& flag) {
  for (const auto& f : engine::BenchFlags())
    if (*f.flag && flag == f.flag) return &f;
  return nullptr;
}

bool IsSwitch(const engine::FlagSpec& f) { return std::holds_alternative<bool engine::BenchConfig::*>(f.field); }

// Flags as (key, words): "--tokens 32768" -> {tokens, "--tokens 32768"}; a
// switch is its flag alone. Ordered as stated; a key stated twice keeps the last.
using Flags = std::vector<std::pair<std::string, std::string>>;

void SetFlag(Flags* flags, const std::string& key, const std::string& words) {
  for (auto& [k, w] : *flags)
    if (k == key) {
      w = words;
      return;
    }
  flags->push_back({key, words});
}

// The harness flags of a list of words: `--flag value`, `--switch` and
// `key=value` (a run key with a flag). Other words are skipped; a `--flag`
// the harness does not have sets `*unknown` (another harness: nothing is
// composed).
Flags FlagsOfWords(const std::vector<std::string>& words, bool* unknown) {
  Flags out;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    while (!w.empty() && (w.front() == '\'' || w.front() == '"')) w.erase(w.begin());
    while (!w.empty() && (w.back() == '\'' || w.back() == '"' || w.back() == ',' || w.back() == ';')) w.pop_back();
    if (w.rfind("--", 0) == 0) {
      const engine::FlagSpec* f = FlagOfOption(w);
      if (f == nullptr) {
        *unknown = *unknown || w.size() > 2;
        continue;
      }
      if (IsSwitch(*f)) {
        SetFlag(&out, f->key, w);
        continue;
      }
      if (i + 1 < words.size() && PlainValue(words[i + 1]) && words[i + 1].rfind("--", 0) != 0) {
        SetFlag(&out, f->key, w + " " + words[i + 1]);
        ++i;
      }
      continue;
    }
    const size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const engine::FlagSpec* f = FlagOfKey(w.substr(0, eq));
    const std::string v = w.substr(eq + 1);
    if (f == nullptr || !PlainValue(v)) continue;
    if (IsSwitch(*f)) {
      if (v == "true" || v == "on" || v == "1") SetFlag(&out, f->key, f->flag);
      continue;
    }
    SetFlag(&out, f->key, std::string(f->flag) + " " + v);
  }
  return out;
}

// "`dispatch_permute_mode in {direct_take, repeat_sort}`": a run key's loop;
// per value the flag's words ("" for a switch that is off).
bool StatedLoop(const std::string& span, std::string* key, std::vector<std::string>* words) {
  const std::string t = Trim(span);
  const size_t in = t.find(" in {");
  if (in == std::string::npos || t.size() > kMaxSpan || t.back() != '}') return false;
  const engine::FlagSpec* f = FlagOfKey(Trim(t.substr(0, in)));
  if (f == nullptr) return false;
  *key = f->key;
  words->clear();
  std::string v;
  for (size_t i = in + 5; i < t.size(); ++i) {
    const char c = t[i];
    if (c == ',' || c == '}') {
      v = Trim(v);
      if (!PlainValue(v) || words->size() >= 32) return false;
      if (IsSwitch(*f)) {
        const bool on = v == "on" || v == "true" || v == "yes" || v == "1";
        const bool off = v == "off" || v == "false" || v == "no" || v == "0";
        if (!on && !off) return false;
        words->push_back(on ? f->flag : "");
      } else {
        words->push_back(std::string(f->flag) + " " + v);
      }
      v.clear();
    } else {
      v += c;
    }
  }
  return words->size() >= 2;
}

// The script of a harness call with flags in `text` ("x/bench.py --a 1"): its
// word, or "". The last such script: a launcher's (dev_tpu.py --config ...)
// comes before the harness it runs.
std::string ScriptWithFlags(const std::string& text) {
  const std::vector<std::string> w = SplitWords(text);
  std::string found;
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    const std::string& s = w[i];
    if (s.size() > 3 && s.compare(s.size() - 3, 3, ".py") == 0 && w[i + 1].rfind("--", 0) == 0 &&
        s.find_first_of("'\"$`") == std::string::npos)
      found = s;
  }
  return found;
}

// A stated configuration names its shape (tokens, hidden, mlp_dim, experts)
// and every setting whose harness default runs several values (`--impl
// both`, `--distribution both`): what it leaves out ("...") would otherwise
// become rows the entry never ran.
bool StatesEnough(const Flags& fixed, const std::vector<Flags>& alternatives, const std::vector<std::string>& looped) {
  auto has = [&](const std::string& k) {
    auto in = [&](const Flags& f) { return std::any_of(f.begin(), f.end(), [&](const auto& x) { return x.first == k; }); };
    return in(fixed) || std::find(looped.begin(), looped.end(), k) != looped.end() ||
           (!alternatives.empty() && std::all_of(alternatives.begin(), alternatives.end(), in));
  };
  for (const char* k : {"tokens", "hidden", "mlp_dim", "experts"})
    if (!has(k)) return false;
  static const engine::BenchConfig defaults{};
  for (const auto& f : engine::BenchFlags())
    if (const auto* m = std::get_if<std::string engine::BenchConfig::*>(&f.field))
      if (*f.flag && defaults.*(*m) == "both" && !has(f.key)) return false;
  return true;
}

// A command that names no script and elides the call (`ssh h '... --q none ...'`).
bool ElidedCall(const CommandText& c) {
  if (!ScriptWithFlags(c.joined).empty()) return false;
  for (const std::string& w : SplitWords(c.joined)) {
    std::string t = w;
    while (!t.empty() && (t.front() == '\'' || t.front() == '"')) t.erase(t.begin());
    if (t == "...") return true;
  }
  return false;
}

// The flags of each `&&`/`;`-separated part of an elided call.
std::vector<Flags> ElidedParts(const std::string& text, bool* unknown) {
  std::vector<Flags> out;
  std::string part;
  auto flush = [&] {
    Flags f = FlagsOfWords(SplitWords(part), unknown);
    if (!f.empty()) out.push_back(std::move(f));
    part.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ';' || (text[i] == '&' && i + 1 < text.size() && text[i + 1] == '&')) {
      flush();
      if (text[i] == '&') ++i;
    } else {
      part += text[i];
    }
  }
  flush();
  return out;
}

void Spans(const Bullet& b, int depth, std::vector<std::string>* out) {
  for (const std::string& s : b.code_spans)
    if (s.size() <= kMaxSpan && out->size() < 64) out->push_back(s);
  if (depth < 4)
    for (const Bullet& c : b.children) Spans(c, depth + 1, out);
}

struct Stated {
  bool unknown = false;  // a flag the harness does not have
  std::vector<std::string> looped;  // keys of the loops
  Flags fixed;
  std::vector<Flags> alternatives;
  std::vector<std::vector<std::string>> loops;  // per loop: the words of each value
  size_t flag_count = 0;
};

// What the entry's Command and Config fields state.
Stated StatedOf(const Entry& e, const std::vector<Flags>& elided, bool unknown) {
  Stated st;
  st.unknown = unknown;
  std::vector<std::string> spans;
  for (const char* name : {"Command", "Config"})
    if (const Field* f = e.FindField(name)) Spans(f->bullet, 0, &spans);
  std::vector<Flags> sets = elided;
  std::map<std::string, bool> looped;
  for (const std::string& sp : spans) {
    if (LooksLikeCommandLine(sp)) continue;  // the elided call itself: read as its parts
    std::string key;
    std::vector<std::string> words;
    if (StatedLoop(sp, &key, &words)) {
      if (!looped.count(key) && st.loops.size() < kMaxLoops) {
        looped[key] = true;
        st.looped.push_back(key);
        st.loops.push_back(std::move(words));
        ++st.flag_count;
      }
      continue;
    }
    Flags f = FlagsOfWords(SplitWords(sp), &st.unknown);
    if (!f.empty()) sets.push_back(std::move(f));
  }
  // Keys stated with different values by different sets make those sets
  // alternatives; the other sets are fixed. One pass: per key its first
  // words and whether other words were stated (linear in the sets).
  std::map<std::string, std::pair<std::string, bool>> values;
  for (const Flags& s : sets)
    for (const auto& [k, w] : s)
      if (auto [it, fresh] = values.emplace(k, std::make_pair(w, false)); !fresh && it->second.first != w)
        it->second.second = true;
  for (const Flags& s : sets) {
    bool alt = false;
    for (const auto& [k, w] : s) alt = alt || values[k].second;
    st.flag_count += s.size();
    if (alt) {
      st.alternatives.push_back(s);
    } else {
      for (const auto& [k, w] : s)
        if (!looped.count(k)) SetFlag(&st.fixed, k, w);
    }
  }
  return st;
}

std::string Join(const Flags& f) {
  std::string out;
  for (const auto& [k, w] : f)
    if (!w.empty()) out += " " + w;
  return out;
}

// Every combination of the loops, each as the words it adds.
std::vector<std::string> LoopCombinations(const std::vector<std::vector<std::string>>& loops) {
  std::vector<std::string> out = {""};
  for (const auto& l : loops) {
    std::vector<std::string> next;
    for (const std::string& head : out)
      for (const std::string& w : l) {
        if (next.size() >= kMaxCommands) return {};
        next.push_back(w.empty() ? head : head + " " + w);
      }
    out = std::move(next);
  }
  return out;
}

}  // namespace

void ResolveStatedCommands(Logbook* lb) {
  std::string script;  // the harness the earlier entries call with flags
  for (Entry& e : lb->entries) {
    const Field* cmd = e.FindField("Command");
    const bool elided = !e.commands.empty() && std::all_of(e.commands.begin(), e.commands.end(), ElidedCall);
    if (cmd != nullptr && !script.empty() && (e.commands.empty() || elided)) {
      std::vector<Flags> parts;
      bool unknown = false;
      for (const CommandText& c : e.commands)
        for (Flags& f : ElidedParts(c.joined, &unknown)) parts.push_back(std::move(f));
      const Stated st = StatedOf(e, parts, unknown);
      const std::vector<std::string> combos = LoopCombinations(st.loops);
      const size_t alts = std::max<size_t>(1, st.alternatives.size());
      if (!st.unknown && st.flag_count >= 3 && StatesEnough(st.fixed, st.alternatives, st.looped) && !combos.empty() && alts * combos.size() <= kMaxCommands) {
        std::string how = elided ? "the command as written elides the harness call" : "the Command field states flags, not a command line";
        how += "; " + std::to_string(alts * combos.size()) + " command(s): " +
               script.substr(script.find_last_of('/') == std::string::npos ? 0 : script.find_last_of('/') + 1) +
               Join(st.fixed);
        if (!st.alternatives.empty()) {
          how += ", each with one of";
          for (size_t a = 0; a < st.alternatives.size(); ++a) how += (a ? " |" : "") + Join(st.alternatives[a]);
        }
        if (!st.loops.empty()) how += ", over " + std::to_string(combos.size()) + " loop combination(s)";
        std::vector<CommandText> out;
        for (size_t a = 0; a < alts; ++a)
          for (const std::string& loop : combos) {
            CommandText c;
            c.joined = "python " + script + Join(st.fixed) +
                       (st.alternatives.empty() ? "" : Join(st.alternatives[a])) + loop;
            c.text = c.joined;
            c.line = c.end_line = cmd->bullet.line;
            c.planned = Lower(cmd->qualifier).find("planned") != std::string::npos;
            c.composed = how;
            out.push_back(std::move(c));
          }
        e.commands = std::move(out);
      }
    }
    for (const CommandText& c : e.commands)
      if (c.composed.empty())
        if (std::string s = ScriptWithFlags(c.joined); !s.empty()) script = s;
  }
}

}  // namespace moelog::logbook
