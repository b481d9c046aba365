#include "logbook/plan/shell_parser.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook {

namespace reader {

// A key of moelog's own runs (the engine's flags). The reader never asks
// which keys other logbooks recorded: what it reads depends on this entry only.
bool IsRunKey(const std::string& key) { return KnownRunKeys().count(key) > 0; }

// A flag of a harness moelog has no adapter for, as the script spells it
// (dashes as underscores, lower case): never mapped to a run key's alias.
std::string SnakeKey(const std::string& key) {
  std::string k;
  for (char c : key) k += c == '-' || c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return k;
}

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)); }

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    // A backslash escapes a quote (`--quant-mode \"$q\"` inside bash -lc "...") or
    // continues a line: never part of a word.
    if (std::isspace(static_cast<unsigned char>(c)) || c == '`' || c == '"' || c == '\'' || c == ';' || c == '\\') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string StripVar(std::string v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](char c) { return c == '$' || c == '{' || c == '}'; }), v.end());
  return v;
}

bool IsBoolFlag(const std::string& key) {
  static const std::set<std::string> k = {"shared_fused", "stage_timing", "use_custom_sort_vjp", "null_route_sweep",
                                          "renormalize_real_after_null", "json", "check_numerics", "staged_parallel"};
  return k.count(key) > 0;
}

// The script a word runs, when it names one: a path ending in .py or .sh
// (the launchers moelog knows, dev_tpu.py and the like, are not harnesses).
std::string ScriptName(const std::string& w) {
  const size_t slash = w.find_last_of('/');
  const std::string base = slash == std::string::npos ? w : w.substr(slash + 1);
  auto ends = [&](const char* ext) {
    const size_t n = std::strlen(ext);
    return base.size() > n && base.compare(base.size() - n, n, ext) == 0;
  };
  const bool script = ends(".py") || ends(".sh") || ends(".sbatch") || ends(".slurm");
  if (!script || base.find('=') != std::string::npos) return "";
  if (base == "conftest.py") return "";
  // Nor a lint or format hook (`./infra/pre-commit.py --files a.py --fix`).
  if (base.rfind("pre-commit", 0) == 0 || base.rfind("precommit", 0) == 0 || base.find("lint") != std::string::npos)
    return "";
  if (DefaultLauncherTable().FindLauncher(w) != nullptr) return "";
  return base;
}

// An environment assignment written before a command ("BENCH_BATCH=8"):
// upper-case name, a static value. Bookkeeping names (log files) aside.
bool EnvAssignment(const std::string& w, std::string* key, std::string* value) {
  const size_t eq = w.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size()) return false;
  for (size_t i = 0; i < eq; ++i)
    if (!(std::isupper(static_cast<unsigned char>(w[i])) || std::isdigit(static_cast<unsigned char>(w[i])) ||
          w[i] == '_'))
      return false;
  *key = w.substr(0, eq);
  *value = w.substr(eq + 1);
  static const std::set<std::string> kBookkeeping = {"OUT", "LOG", "PATH", "HOME", "PYTHONPATH", "RAY_AUTH_MODE",
                                                     "PROC_ID", "LIBTPU_INIT_ARGS"};
  if (kBookkeeping.count(*key) || value->find_first_of("$()/") != std::string::npos) return false;
  *key = NormalizeKey(*key);
  return true;
}

// Loops over quoted tuples and the `read` that splits them:
//   for shape in "32768 2048 1408 60" "65536 3072 3072 128"; do
//     read -r TOK H MLP E <<<"$shape"
// give TOK the values {32768, 65536}, H {2048, 3072}, ... One pass over the
// text; each loop's items end at "; do", "do" or a line end.
void TupleLoops(const std::string& cmd, std::map<std::string, std::vector<std::string>>* loops) {
  std::map<std::string, std::vector<std::string>> tuples;  // loop variable -> quoted items
  for (size_t p = cmd.find("for "); p != std::string::npos; p = cmd.find("for ", p + 4)) {
    size_t q = p + 4;
    size_t name_end = q;
    while (name_end < cmd.size() && IsIdentChar(cmd[name_end])) ++name_end;
    if (name_end == q || cmd.compare(name_end, 4, " in ") != 0) continue;
    const std::string name = cmd.substr(q, name_end - q);
    std::vector<std::string> items;
    size_t i = name_end + 4;
    while (i < cmd.size() && cmd[i] != ';' && cmd[i] != '\n') {
      if (cmd[i] == '"' || cmd[i] == '\'') {
        const size_t close = cmd.find(cmd[i], i + 1);
        if (close == std::string::npos) break;
        items.push_back(cmd.substr(i + 1, close - i - 1));
        i = close + 1;
      } else if (cmd.compare(i, 3, "do ") == 0) {
        break;
      } else {
        ++i;
      }
    }
    if (items.size() > 0 && std::any_of(items.begin(), items.end(), [](const std::string& it) {
          return it.find(' ') != std::string::npos;
        }))
      tuples[name] = items;
  }
  if (tuples.empty()) return;
  for (size_t p = cmd.find("read "); p != std::string::npos; p = cmd.find("read ", p + 5)) {
    const size_t here = cmd.find("<<<", p);
    const size_t eol = cmd.find_first_of(";\n", p);
    if (here == std::string::npos || (eol != std::string::npos && eol < here)) continue;
    std::vector<std::string> names;
    for (const auto& w : Words(cmd.substr(p + 5, here - p - 5)))
      if (w != "-r") names.push_back(w);
    size_t v = here + 3;
    std::string src;
    while (v < cmd.size() && (cmd[v] == ' ' || cmd[v] == '"')) ++v;
    while (v < cmd.size() && (IsIdentChar(cmd[v]) || cmd[v] == '$' || cmd[v] == '{' || cmd[v] == '}')) src += cmd[v++];
    auto it = tuples.find(StripVar(src));
    if (it == tuples.end()) continue;
    for (const auto& item : it->second) {
      const auto parts = Words(item);
      for (size_t n = 0; n < names.size() && n < parts.size(); ++n) {
        auto& vals = (*loops)[names[n]];
        if (std::find(vals.begin(), vals.end(), parts[n]) == vals.end()) vals.push_back(parts[n]);
      }
    }
  }
}

// A test file run by a test runner (`pytest tests/test_dispatch.py`,
// `python -m pytest ...`) or kept in a tests folder checks code; it is no
// harness. A script named test_* run with its own flags is one.
bool TestRun(const std::vector<std::string>& w, size_t i) {
  const std::string& word = w[i];
  const size_t slash = word.find_last_of('/');
  const std::string base = slash == std::string::npos ? word : word.substr(slash + 1);
  const bool test_name = base.rfind("test_", 0) == 0 || (base.size() > 8 && base.compare(base.size() - 8, 8, "_test.py") == 0);
  if (!test_name) return false;
  if (word.rfind("tests/", 0) == 0 || word.find("/tests/") != std::string::npos) return true;
  for (size_t k = 0; k < i; ++k)
    if (w[k] == "pytest" || w[k] == "py.test" || (w[k].size() > 7 && w[k].compare(w[k].size() - 7, 7, "/pytest") == 0))
      return true;
  return false;
}

// The script word at `*i` ("bench.py", "python -m experiments.bench"), or "".
std::string ScriptAt(const std::vector<std::string>& w, size_t* i) {
  std::string script = TestRun(w, *i) ? "" : ScriptName(w[*i]);
  // "python -m experiments.bench", "torchrun --nproc_per_node=8 -m
  // scripts.base_train": the module is the harness.
  if (script.empty() && w[*i] == "-m" && *i > 0 && *i + 1 < w.size() && w[*i + 1].rfind("-", 0) != 0) {
    const bool runner = w[*i - 1].find("python") != std::string::npos ||
                        std::any_of(w.begin(), w.begin() + static_cast<long>(*i), [](const std::string& p) {
                          return DefaultLauncherTable().FindLauncher(p) != nullptr;
                        });
    if (runner) script = w[*i + 1] == "pytest" ? "" : w[++*i];
  }
  return script;
}

// The flag at `*i` ("--key value", "--key=value", a switch): kept when it is
// the harness's or one of moelog's run keys.
void FlagAt(const std::vector<std::string>& w, size_t* i, const CommandScan& st, ParsedCommand* pc) {
  std::string key = w[*i].substr(2), value;
  const size_t eq = key.find('=');
  if (eq != std::string::npos) {
    value = key.substr(eq + 1);
    key = key.substr(0, eq);
  }
  key = st.after_script && !st.known_script ? SnakeKey(key) : NormalizeKey(key);
  if (eq == std::string::npos) {
    if (IsBoolFlag(key) || *i + 1 >= w.size() || w[*i + 1].rfind("--", 0) == 0)
      value = "true";
    else value = w[++*i];
  }
  pc->program_flags.emplace_back(SnakeKey(key), value);
  if (!IsRunKey(key) && key != "topk_list" && !st.after_script) return;
  if (st.if_depth > 0) pc->conditional.insert(key);
  if (value.find('$') != std::string::npos) {
    // `--capacity-factor "$factor"`: a label's "factor=1.0" names capacity_factor.
    auto [it, added] = pc->feeds.emplace(NormalizeKey(StripVar(value)), key);
    if (!added && it->second != key) it->second.clear();
  }
  pc->flags.emplace_back(key, value);
}

// A raw shell word as the reader keys it: quotes and escapes removed.
std::string PlainWord(const std::string& raw) {
  std::string out;
  for (char c : raw)
    if (c != '"' && c != '\'' && c != '\\' && c != '`') out += c;
  return out;
}

// The script a `bash -c '...'` word holds: its quotes removed, escaped
// quotes and backslashes unescaped.
std::string InnerScript(const std::string& raw) {
  std::string out;
  const bool quoted = raw.size() >= 2 && (raw.front() == '"' || raw.front() == '\'') && raw.back() == raw.front();
  const std::string body = quoted ? raw.substr(1, raw.size() - 2) : raw;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size() && (body[i + 1] == '"' || body[i + 1] == '\\')) ++i;
    out += body[i];
  }
  return out;
}

// The command text a quoted word holds, as a script given to `bash -lc`,
// `ssh host` or an assignment (`extra="--ep-comm-path ring"`): a quoted
// word (after a NAME=) with a space inside; "" for any other word.
std::string QuotedScript(const std::string& raw) {
  size_t q = 0;
  if (const size_t eq = raw.find('='); eq != std::string::npos && eq > 0 && IsIdentStart(raw[0]) &&
                                       std::all_of(raw.begin(), raw.begin() + eq, IsIdentChar))
    q = eq + 1;
  if (q >= raw.size() || (raw[q] != '"' && raw[q] != '\'')) return "";
  const std::string inner = InnerScript(raw.substr(q));
  return inner.find(' ') == std::string::npos ? "" : inner;
}

// One simple command's words (quotes removed): environment assignments
// before its script, the script, the harness's flags and moelog's run keys;
// the script of `bash -c '...'` is read as a command of its own.
void SimpleCommand(const std::vector<std::string>& raw, int if_depth, int depth, ParsedCommand* pc) {
  std::vector<std::string> w;
  for (const auto& r : raw) w.push_back(PlainWord(r));
  CommandScan st;
  st.if_depth = if_depth;
  for (size_t i = 0; i < w.size(); ++i) {
    if (const std::string inner = QuotedScript(raw[i]); !inner.empty()) {
      if (depth < 4) ParseCommandAt(inner, if_depth, depth + 1, pc);
      st.after_script = false;
      continue;
    }
    // `ssh host --command "cd x; python bench.py --impl ref"`, `--cmd="..."`:
    // a flag whose value is a script gives the script's flags, never a key
    // whose value is the script's text.
    if (w[i].rfind("--", 0) == 0) {
      const size_t eq = raw[i].find('=');
      const std::string glued = eq == std::string::npos ? "" : InnerScript(raw[i].substr(eq + 1));
      const bool quoted = eq != std::string::npos && eq + 1 < raw[i].size() && (raw[i][eq + 1] == '"' || raw[i][eq + 1] == '\'');
      const std::string next = eq == std::string::npos && i + 1 < raw.size() ? QuotedScript(raw[i + 1]) : "";
      auto script = [](const std::string& t) {
        return t.find(' ') != std::string::npos && (t.find(" --") != std::string::npos || t.find(';') != std::string::npos ||
                                                    t.find(".py") != std::string::npos || t.find(".sh") != std::string::npos);
      };
      if ((quoted && script(glued)) || script(next)) {
        if (depth < 4) ParseCommandAt(next.empty() ? glued : next, if_depth, depth + 1, pc);
        i += next.empty() ? 0 : 1;
        st.after_script = false;
        continue;
      }
    }
    if (const std::string script = ScriptAt(w, &i); !script.empty()) {
      st.after_script = true;
      st.known_script = DefaultLauncherTable().FindHarness(script) != nullptr;
      if (std::find(pc->harnesses.begin(), pc->harnesses.end(), script) == pc->harnesses.end())
        pc->harnesses.push_back(script);
      for (auto& kv : st.env) pc->flags.push_back(kv);
      st.env.clear();
      continue;
    }
    std::string ek, ev;
    if (!st.after_script && EnvAssignment(w[i], &ek, &ev)) st.env.emplace_back(ek, ev);
    else if (w[i].rfind("--", 0) == 0 && w[i].size() >= 3) {
      // `ssh host --command "cd x; python bench.py --impl ref"`: the quoted command runs too.
      if (const std::string inner = i + 1 < raw.size() && w[i].find('=') == std::string::npos ? QuotedScript(raw[i + 1]) : "";
          !inner.empty() && depth < 4)
        ParseCommandAt(inner, if_depth, depth + 1, pc);
      FlagAt(w, &i, st, pc);
    }
  }
}

void WalkList(const shell::List& list, int if_depth, int depth, ParsedCommand* pc);

// A command of the planner's syntax tree: a simple command's words, a `for`
// loop's values (each item's words; a loop over quoted tuples was read by
// TupleLoops) and body, an `if`'s branches (what they set holds for some
// runs only), a group's list.
void WalkCmd(const shell::Cmd& c, int if_depth, int depth, ParsedCommand* pc) {
  switch (c.kind) {
    case shell::Cmd::kSimple: SimpleCommand(c.words, if_depth, depth, pc); break;
    case shell::Cmd::kFor: {
      std::vector<std::string> values;
      for (const auto& item : c.items)
        for (const auto& v : Words(item)) values.push_back(v);
      pc->loops.emplace(c.var, values);
      if (c.body) WalkList(*c.body, if_depth, depth, pc);
      break;
    }
    case shell::Cmd::kIf:
      for (const auto* l : {c.cond.get(), c.body.get(), c.orelse.get()})
        if (l) WalkList(*l, if_depth + 1, depth, pc);
      break;
    case shell::Cmd::kGroup:
      if (c.body) WalkList(*c.body, if_depth, depth, pc);
      break;
  }
}

void WalkList(const shell::List& list, int if_depth, int depth, ParsedCommand* pc) {
  for (const auto& ao : list.items)
    for (const auto& p : ao.pipes)
      for (const auto& c : p.cmds) WalkCmd(c, if_depth, depth, pc);
}

// Every flag occurrence of a command text, read by the planner's shell
// parser (shell_parser.h): the harness's own flags (those after a script
// word, named as the script spells them, dashes as underscores) and
// moelog's run keys wherever they appear; environment assignments written
// before the script; the shell loops `for VAR in a b c`. Text the parser
// does not take (a `while` loop, an unclosed quote, prose around a span) is
// read as simple commands split at the shell's operators.
void ParseCommandAt(const std::string& cmd, int if_depth, int depth, ParsedCommand* pc) {
  TupleLoops(cmd, &pc->loops);
  shell::List list;
  std::string error;
  if (shell::ParseScript(cmd, &list, &error)) return WalkList(list, if_depth, depth, pc);
  std::vector<std::string> words;
  for (const auto& w : Words(cmd)) {
    if (w == "|" || w == "||" || w == "&&" || w == "&") {
      SimpleCommand(words, if_depth, depth, pc);
      words.clear();
    } else {
      words.push_back(w);
    }
  }
  SimpleCommand(words, if_depth, depth, pc);
}

void ParseCommand(const std::string& cmd, ParsedCommand* pc) { ParseCommandAt(cmd, 0, 0, pc); }

// What a "both" value of a flag runs (the engine's expansion).
std::vector<std::string> BothValues(const std::string& key) {
  engine::BenchConfig c;
  c.bench_pass = "forward";  // prequeue exists for the forward pass only
  if (key == "distribution") return c.distribution = "both", c.DistributionValues();
  if (key == "impl") return c.impl = "both", c.ImplValues();
  if (key == "queue_mode") return c.queue_mode = "both", c.QueueModeValues();
  return {"both"};
}

// A harness whose adapter makes several runs of one invocation (one per
// implementation path or mesh): the keys its runs set differently are
// varied, with the values of its runs ("ref_dp", "staged_dp", "fused_ep").
void AdapterRunKeys(const std::string& cmd, Vars* vars) {
  for (const auto& w : Words(cmd)) {
    const Adapter* a = DefaultLauncherTable().FindHarness(w);
    if (a == nullptr || a->runs.size() < 2) continue;
    std::map<std::string, std::vector<std::string>> values;
    for (const auto& run : a->runs)
      for (size_t i = 0; i + 1 < run.args.size(); ++i)
        if (run.args[i].rfind("--", 0) == 0 && run.args[i + 1].rfind("--", 0) != 0) {
          auto& v = values[NormalizeKey(run.args[i].substr(2))];
          if (std::find(v.begin(), v.end(), run.args[i + 1]) == v.end()) v.push_back(run.args[i + 1]);
        }
    for (const auto& [k, v] : values)
      if (v.size() > 1 && !vars->count(k)) (*vars)[k] = v;
  }
}

bool IsUpperOrDigit(char c) { return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace reader

}  // namespace moelog::logbook
