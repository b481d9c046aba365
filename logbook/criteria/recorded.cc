#include "logbook/criteria/recorded.h"

#include "logbook/plan/launchers.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "engine/bench_config.h"
#include "engine/bench_flags.h"
#include "logbook/criteria/compare.h"
#include "logbook/criteria/pairing.h"
#include "logbook/criteria/recorded_prose.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

using Config = std::map<std::string, std::string>;
using Vars = std::map<std::string, std::vector<std::string>>;  // varied key -> values

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

// Words that end one simple command of a shell line.
bool IsCommandBreak(const std::string& w) {
  return w == "|" || w == "||" || w == "&&" || w == "&" || w == "do" || w == "done" || w == "then" ||
         w == "fi" || w == "else" || w == "-c" || w == "-lc";
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

struct ParsedCommand {
  std::vector<std::pair<std::string, std::string>> flags;  // key, value ("$VAR" kept)
  std::map<std::string, std::vector<std::string>> loops;   // for VAR in a b c
  std::vector<std::string> harnesses;                      // scripts it runs, by name
  std::map<std::string, std::string> feeds;                // loop variable -> the flag it feeds ("" if several)
  std::set<std::string> conditional;                       // flags written inside `if ... fi` only
};

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

// Where a scan of one command line stands: after a script word (its flags
// are the harness's), inside an `if` (what it sets holds for some runs
// only), and the environment assignments written before the script.
struct CommandScan {
  bool after_script = false, known_script = false;
  int if_depth = 0;
  std::vector<std::pair<std::string, std::string>> env;
};

// `for VAR in a b c; do`: the loop's values (a loop over quoted tuples was
// read by TupleLoops).
void ShellLoop(const std::vector<std::string>& w, size_t i, ParsedCommand* pc) {
  std::vector<std::string> values;
  for (size_t j = i + 3; j < w.size() && w[j] != "do"; ++j) {
    std::string v = w[j];
    if (!v.empty() && v.back() == ';') v.pop_back();
    if (!v.empty()) values.push_back(v);
  }
  if (!pc->loops.count(w[i + 1])) pc->loops[w[i + 1]] = values;
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
  if (script.empty() && w[*i] == "-m" && *i > 0 && w[*i - 1].find("python") != std::string::npos &&
      *i + 1 < w.size() && w[*i + 1].rfind("-", 0) != 0)
    script = w[*i + 1] == "pytest" ? "" : w[++*i];  // "python -m experiments.bench": the module is the harness
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
    if (IsBoolFlag(key) || *i + 1 >= w.size() || w[*i + 1].rfind("--", 0) == 0 || IsCommandBreak(w[*i + 1]))
      value = "true";
    else value = w[++*i];
  }
  if (!IsRunKey(key) && key != "topk_list" && !st.after_script) return;
  if (st.if_depth > 0) pc->conditional.insert(key);
  if (value.find('$') != std::string::npos) {
    // `--capacity-factor "$factor"`: a label's "factor=1.0" names capacity_factor.
    auto [it, added] = pc->feeds.emplace(NormalizeKey(StripVar(value)), key);
    if (!added && it->second != key) it->second.clear();
  }
  pc->flags.emplace_back(key, value);
}

// Every flag occurrence of a command line: the harness's own flags (those
// after a script word, named as the script spells them, dashes as
// underscores) and moelog's run keys wherever they appear; environment
// assignments written before the script; the shell loops `for VAR in a b c;`.
void ParseCommand(const std::string& cmd, ParsedCommand* pc) {
  TupleLoops(cmd, &pc->loops);
  const auto w = Words(cmd);
  CommandScan st;
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "if") ++st.if_depth;
    else if (w[i] == "fi" && st.if_depth > 0) --st.if_depth;
    if (IsCommandBreak(w[i])) {
      st.after_script = false;
      st.env.clear();
      continue;
    }
    if (w[i] == "for" && i + 2 < w.size() && w[i + 2] == "in") {
      ShellLoop(w, i, pc);
      continue;
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
    else if (w[i].rfind("--", 0) == 0 && w[i].size() >= 3) FlagAt(w, &i, st, pc);
  }
}

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

// Word helpers defined with the figure reader below.
std::string Lower(std::string w);
std::string WordAt(const std::string& s, size_t p, size_t* end);
std::string WordBefore(const std::string& s, size_t at, size_t* begin);

// A count written as digits or a small number word ("8", "eight") ending
// at `e` (exclusive), or 0; *b is where it starts.
int CountBefore(const std::string& text, size_t e, size_t* b) {
  size_t d = e;
  while (d > 0 && std::isdigit(static_cast<unsigned char>(text[d - 1]))) --d;
  if (d < e && e - d <= 5) {
    *b = d;
    return std::atoi(text.substr(d, e - d).c_str());
  }
  static const std::map<std::string, int> kWords = {{"one", 1}, {"two", 2},   {"four", 4},     {"eight", 8},
                                                    {"sixteen", 16}, {"thirty-two", 32}, {"sixty-four", 64}};
  d = e;
  while (d > 0 && e - d < 12 && (std::isalpha(static_cast<unsigned char>(text[d - 1])) || text[d - 1] == '-')) --d;
  auto it = kWords.find(Lower(text.substr(d, e - d)));
  if (it == kWords.end()) return 0;
  *b = d;
  return it->second;
}

// The GPUs per node a text states ("4 GPUs per node", "eight H100s each",
// "16 GPUs total": *total set), or 0.
int PerNodeGpus(const std::string& text, bool* total) {
  for (size_t p = text.find("GPU"); p != std::string::npos; p = text.find("GPU", p + 1)) {
    size_t e = p, b = 0;
    while (e > 0 && text[e - 1] == ' ') --e;
    if (e > 0 && text[e - 1] == '-') --e;  // "4-GPU nodes"
    const int n = CountBefore(text, e, &b);
    if (n <= 0) continue;
    size_t q = p + 3;
    if (q < text.size() && text[q] == 's') ++q;
    size_t w = q;
    const std::string next = Lower(WordAt(text, q, &w));
    *total = next == "total" || next == "in";
    if (*total || next == "per" || next == "each" || next == "nodes" || next == "node") return n;
  }
  return 0;
}

// "B200 x8", "B200 80GB x 8", "B200 (8 GPUs)": the count written after the
// name ending at `q`, or 0.
int CountAfter(const std::string& text, size_t q) {
  while (q < text.size() && text[q] == ' ') ++q;
  // A memory or form factor between name and count: "80GB", "-80GB", "SXM5", "PCIe".
  size_t m = q + (q < text.size() && text[q] == '-' ? 1 : 0), e = m;
  while (e < text.size() && std::isalnum(static_cast<unsigned char>(text[e]))) ++e;
  const std::string tok = Lower(text.substr(m, e - m));
  if (e > m && (tok.rfind("sxm", 0) == 0 || tok == "pcie" || (tok.size() > 2 && tok.compare(tok.size() - 2, 2, "gb") == 0)))
    for (q = e; q < text.size() && text[q] == ' ';) ++q;
  if (q < text.size() && text[q] == '(') ++q;
  if (text.compare(q, 2, "\xC3\x97") == 0) q += 1;  // "×" (two bytes)
  const bool x = q < text.size() && (text[q] == 'x' || text[q] == 'X' || text[q] == '\x97');
  size_t d = q + (x ? 1 : 0);
  while (d < text.size() && text[d] == ' ') ++d;
  size_t e2 = d;
  while (e2 < text.size() && std::isdigit(static_cast<unsigned char>(text[e2]))) ++e2;
  if (e2 == d || e2 - d > 5 || (e2 < text.size() && std::isalnum(static_cast<unsigned char>(text[e2])))) return 0;
  // "x8" or "(8 GPUs)".
  size_t w = e2;
  if (!x && Lower(WordAt(text, e2, &w)).rfind("gpu", 0) != 0) return 0;
  return std::atoi(text.substr(d, e2 - d).c_str());
}

// The nodes a text counts ("16 workers", "2 nodes", "four hosts"), or 0.
int NodeCount(const std::string& text) {
  for (const char* unit : {"nodes", "workers", "hosts", "machines"})
    for (size_t p = text.find(unit); p != std::string::npos; p = text.find(unit, p + 1)) {
      size_t e = p, b = 0;
      while (e > 0 && text[e - 1] == ' ') --e;
      if (const int n = e < p ? CountBefore(text, e, &b) : 0; n > 0) return n;
    }
  return 0;
}

// The digits of "2x" (or "2 x", "2×") ending at *b, the count of groups
// the count that starts at *b is one of; *b moves to their start. 0 (and
// *b unchanged) when none is written.
int GroupsBefore(const std::string& text, size_t* b) {
  size_t q = *b;
  while (q > 0 && text[q - 1] == ' ') --q;
  if (q >= 2 && text.compare(q - 2, 2, "\xC3\x97") == 0) q -= 2;
  else if (q > 0 && (text[q - 1] == 'x' || text[q - 1] == 'X')) --q;
  else return 0;
  while (q > 0 && text[q - 1] == ' ') --q;
  size_t d = q;
  while (d > 0 && q - d < 4 && std::isdigit(static_cast<unsigned char>(text[d - 1]))) --d;
  if (d == q || (d > 0 && (std::isalnum(static_cast<unsigned char>(text[d - 1])) || text[d - 1] == '.'))) return 0;
  const int groups = std::atoi(text.substr(d, q - d).c_str());
  if (groups <= 0) return 0;
  *b = d;
  return groups;
}

// The count written before the GPU name at `p`: "8 B200", "8x B200",
// "8×B200", "eight H100s"; nodes ("2 nodes of 8xH100", "4 GB200 nodes, 4
// GPUs per node") multiply. 0 when none; -1 when the name counts nodes
// whose GPUs the text does not say.
int CountBeforeName(const std::string& text, size_t p, size_t n) {
  size_t b = p;
  while (b > 0 && text[b - 1] == ' ') --b;
  if (b >= 2 && text.compare(b - 2, 2, "\xC3\x97") == 0) b -= 2;
  else if (b > 0 && (text[b - 1] == 'x' || text[b - 1] == 'X')) --b;
  while (b > 0 && text[b - 1] == ' ') --b;  // "8 x A100"
  const size_t e = b;
  int count = CountBefore(text, e, &b);
  // "2x 8xH100", "2x8xB200", "4× 4×GB200": a count of groups before the count multiplies it.
  if (const int groups = count > 0 ? GroupsBefore(text, &b) : 0; groups > 0) count *= groups;
  // The digits ending an ID ("CC-002 B200 canary") or a version ("v1.8 B200") count nothing.
  if (count > 0 && b > 0 && (text[b - 1] == '-' || text[b - 1] == '_' || text[b - 1] == '.' || text[b - 1] == '/' ||
                             std::isalnum(static_cast<unsigned char>(text[b - 1]))))
    count = 0;
  size_t w = p + n;
  if (w < text.size() && text[w] == 's') ++w;  // "H100s"
  std::string after = Lower(WordAt(text, w, &w));
  if (after == "gpus" || after == "gpu") after = Lower(WordAt(text, w, &w));
  if (count > 0 && (after == "each" || after == "per")) {
    // "16 workers with four GB200 GPUs each": per node, times the nodes.
    const int nodes = NodeCount(text);
    return nodes > 0 ? count * nodes : -1;
  }
  if (count > 0 && (after == "node" || after == "nodes" || after == "hosts" || after == "workers" || after == "machines")) {
    bool total = false;
    const int per = PerNodeGpus(text, &total);
    return per == 0 ? -1 : total ? per : count * per;
  }
  // "2 nodes of 8xH100", "four replicas of four GB200 GPUs": the groups
  // before the count.
  size_t of = b;
  if (count > 0 && Lower(WordBefore(text, b, &of)) == "of") {
    size_t nb = of;
    const std::string nodes = Lower(WordBefore(text, of, &nb));
    size_t cb = 0;
    const int k = (nodes == "nodes" || nodes == "hosts" || nodes == "workers" || nodes == "machines" ||
                   nodes == "replicas") ? CountBefore(text, [&] {
      size_t t = nb;
      while (t > 0 && text[t - 1] == ' ') --t;
      return t;
    }(), &cb) : 0;
    if (k > 0) count *= k;
  }
  return count;
}

// The accelerator a text names, with its count: "B200x8" for "8 B200 GPUs",
// "8x B200", "B200 x8", "B200 (8 GPUs)", "eight B200s", "2 nodes of 8xH100"
// (x16); "v5p-8" for "v5p-8"; the name alone ("H100") when no count is
// written. "" when it names none.
std::string AcceleratorIn(const std::string& text) {
  static const char* kGpus[] = {"GB200", "B200", "H100", "H200", "A100", "MI300X", "MI250X", "L40S"};
  static const char* kTpus[] = {"v4-", "v5p-", "v5e-", "v5litepod-", "v6e-"};
  auto word_start = [&](size_t p) { return p == 0 || !std::isalnum(static_cast<unsigned char>(text[p - 1])); };
  for (const char* t : kTpus) {
    for (size_t p = text.find(t); p != std::string::npos; p = text.find(t, p + 1)) {
      if (!word_start(p)) continue;
      size_t e = p + std::strlen(t);
      size_t d = e;
      while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
      if (d > e) return text.substr(p, d - p);
    }
  }
  std::string bare;
  for (const char* g : kGpus) {
    const size_t n = std::strlen(g);
    for (size_t p = text.find(g); p != std::string::npos; p = text.find(g, p + 1)) {
      // "8xB200": a count glued by 'x' is read as "8x B200" is.
      const bool counted = p >= 2 && (text[p - 1] == 'x' || text[p - 1] == 'X' || text[p - 1] == '\x97') &&
                           (std::isdigit(static_cast<unsigned char>(text[p - 2])) || text[p - 2] == '\xC3');
      if ((!word_start(p) && !counted) || (p + n < text.size() && IsUpperOrDigit(text[p + n]))) continue;
      int count = CountAfter(text, p + n);
      if (count == 0) count = CountBeforeName(text, p, n);
      if (count > 0) return std::string(g) + "x" + std::to_string(count);
      if (bare.empty()) bare = g;
    }
  }
  return bare;
}

// The one accelerator an entry names (heading, Config, commands), or "".
std::string EntryAccelerator(const Entry& e) {
  std::set<std::string> found;
  auto look = [&](const std::string& t) {
    if (std::string a = AcceleratorIn(t); !a.empty()) found.insert(a);
  };
  look(e.heading);
  if (const Field* f = e.FindField("Command")) look(f->bullet.text);
  // Fields that say what it ran on: "Config", "Hardware", "Hardware and topology", "Resources".
  for (const char* name : {"Config", "Hardware", "Hardware and topology", "Resources", "Cluster", "Setup"})
    if (const Field* f = e.FindField(name)) {
      look(f->bullet.text);
      for (const auto& c : f->bullet.children) look(c.text);
    }
  for (const auto& c : e.commands) look(c.joined);
  // "on B200" in the heading and "4 B200 GPUs" in the Config name one
  // machine: the name alone gives way to a count of it.
  for (auto it = found.begin(); it != found.end();) {
    const std::string counted = *it + "x";
    const bool has_count = std::any_of(found.begin(), found.end(), [&](const std::string& o) {
      return o.size() > counted.size() && o.compare(0, counted.size(), counted) == 0 &&
             std::all_of(o.begin() + static_cast<long>(counted.size()), o.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    });
    it = has_count ? found.erase(it) : std::next(it);
  }
  return found.size() == 1 ? *found.begin() : "";
}

// The run key of the modeled harness one of whose documented choices is
// `word` ("random" -> distribution, "compact_psum" -> ep_comm_path), when
// exactly one key has it. "" otherwise.
std::string ChoiceKey(const std::string& word) {
  std::string found;
  for (const auto& f : engine::BenchFlags())
    if (std::find(f.choices.begin(), f.choices.end(), word) != f.choices.end()) {
      if (!found.empty() && found != f.key) return "";
      found = f.key;
    }
  return found;
}

// A Config bullet "name: `a`, `b`" (a list of values) or "name: `a`": its
// key (the name in snake case; "kernels" is the harness's "kernel" when the
// entry's commands pass --kernel) and values. False for any other bullet.
bool ConfigList(const Bullet& b, const std::set<std::string>& flag_keys, std::string* key,
                std::vector<std::string>* values) {
  size_t colon = b.text.find(':');
  if (colon == std::string::npos || colon == 0 || b.code_spans.empty()) return false;
  std::string name = parse_detail::Trim(b.text.substr(0, colon));
  if (name.empty() || name.find('`') != std::string::npos || name.size() > 40) return false;
  for (char& c : name) c = c == ' ' ? '_' : c;
  *key = NormalizeKey(name);
  if (!flag_keys.count(*key) && key->size() > 1 && key->back() == 's' && flag_keys.count(key->substr(0, key->size() - 1)))
    key->pop_back();
  values->clear();
  for (const auto& span : b.code_spans) {
    if (span.empty() || span.find_first_of(" =") != std::string::npos) return false;
    values->push_back(span);
  }
  return true;
}

// Flags written alone in the Command field's prose, "the same with
// `--fp8-wire off`", "same as DISP-001 with `--dispatch-permute-mode
// repeat_sort`": each span one more invocation's flag (so a key the command
// sets and a span sets again is varied).
std::vector<std::pair<std::string, std::string>> FlagSpans(const Entry& e, const ParsedCommand& parsed) {
  std::vector<std::pair<std::string, std::string>> out;
  const ParsedCommand* pc = &parsed;
  const Field* f = e.FindField("Command");
  if (f == nullptr) return out;
  for (const auto& span : f->bullet.code_spans) {
    const auto w = Words(span);
    if (w.size() < 1 || w.size() > 2 || w[0].rfind("--", 0) != 0 || w[0].size() < 3) continue;
    std::string key = w[0].substr(2), value = w.size() == 2 ? w[1] : "true";
    if (size_t eq = key.find('='); eq != std::string::npos) value = key.substr(eq + 1), key = key.substr(0, eq);
    const bool known = std::any_of(pc->harnesses.begin(), pc->harnesses.end(), [](const std::string& h) {
      return DefaultLauncherTable().FindHarness(h) != nullptr;
    });
    out.emplace_back(pc->harnesses.empty() || known ? NormalizeKey(key) : SnakeKey(key), value);
  }
  return out;
}

// The entry's commands, read for flags: its command lines, and a Command
// written in a form the planner does not take for one.
ParsedCommand EntryCommands(const Entry& e) {
  ParsedCommand pc;
  for (const auto& c : e.commands) ParseCommand(c.joined, &pc);
  // A Command written in a form the planner does not take for a command line
  // (`sbatch job.sbatch`, a launcher it does not know) still names the
  // harness and its flags; the reader only reads it, nothing runs it.
  const Field* command = e.FindField("Command");
  // Its sub-bullets ("- Command(s):" over "- Non-EP: `... --queue-mode
  // both`") are read the same way.
  if (command != nullptr && e.commands.empty()) {
    std::vector<const Bullet*> todo = {&command->bullet};
    while (!todo.empty()) {
      const Bullet* b = todo.back();
      todo.pop_back();
      for (const auto& span : b->code_spans)
        if ((Words(span).size() >= 2 || !ScriptName(span).empty()) && span.rfind("--", 0) != 0)
          ParseCommand(span, &pc);  // "ran `bench_fp8.py` through the wrapper": the script names the harness
      for (const auto& c : b->children) todo.push_back(&c);
    }
  }
  if (command != nullptr && e.commands.size() <= 1) {
    // "`X=1 sbatch job.sbatch` vs default": the one command written is one
    // side of a comparison; its settings are not every figure's. Only the
    // harness is named.
    std::string prose;
    bool in_code = false;
    for (char ch : command->bullet.text) {
      if (ch == '`') in_code = !in_code;
      else if (!in_code) prose += ch;
    }
    if (prose.find(" vs ") != std::string::npos || prose.find(" vs. ") != std::string::npos) pc.flags.clear();
  }
  return pc;
}

// Each flag's literal values across the entry's commands and spans (with how
// many invocations give it); loop variables, brace lists go to `vars`.
struct FlagValues {
  std::map<std::string, std::vector<std::string>> values;  // key -> distinct literal values
  std::map<std::string, size_t> count;
  std::set<std::string> flag_keys;
  size_t invocations = 0;
  std::set<std::string> commands_vary;  // keys the entry's commands set to different literal values
};
FlagValues CollectFlagValues(const ParsedCommand& pc, const std::vector<std::pair<std::string, std::string>>& spans,
                             Vars* vars) {
  FlagValues fv;
  auto& values = fv.values;
  auto& count = fv.count;
  auto& invocations = fv.invocations;
  const auto& flags = pc.flags;
  const auto& loops = pc.loops;
  for (const auto& [k, v] : flags) invocations = std::max(invocations, ++count[k]), fv.flag_keys.insert(k);
  for (const auto& [k, v] : flags) {
    if (v.find('$') != std::string::npos) {
      auto it = loops.find(StripVar(v));
      if (it != loops.end()) (*vars)[k] = it->second;
      continue;
    }
    if (v.size() > 2 && v.front() == '{' && v.back() == '}' && v.find(',') != std::string::npos) {
      // "--quant-mode {none,int8}": a shell brace list, one run per value.
      std::vector<std::string> list;
      size_t p = 1;
      for (size_t c; (c = v.find(',', p)) != std::string::npos && c < v.size() - 1; p = c + 1) list.push_back(v.substr(p, c - p));
      list.push_back(v.substr(p, v.size() - 1 - p));
      (*vars)[k] = list;
      continue;
    }
    auto& vals = values[k];
    if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
  }
  for (const auto& [k, v] : spans) {
    auto it = values.find(k);
    if (it != values.end() && std::find(it->second.begin(), it->second.end(), v) == it->second.end())
      it->second.push_back(v);  // the command's value and the span's: one run each
    else if (flags.empty() && !values.count(k))
      values[k] = {v}, count[k] = invocations = 1;  // no command: the span is the run's flag
  }
  return fv;
}

// Which flags are fixed (one value, every invocation) and which vary.
void SortFlagValues(const ParsedCommand& pc, bool generic, FlagValues* fv, Config* fixed, Vars* vars) {
  auto& count = fv->count;
  const size_t invocations = fv->invocations;
  for (const auto& [k, vals] : fv->values) {
    if (vals.size() == 1 && vals.front() == "both" && !vars->count(k)) {
      (*vars)[k] = BothValues(k);  // one invocation sweeps the key itself
      continue;
    }
    if (IsBoolFlag(k) && count[k] < invocations) {
      (*vars)[k] = {"false", "true"};  // given to some invocations only
      continue;
    }
    if (k.size() > 5 && k.compare(k.size() - 5, 5, "_list") == 0 && vals.size() == 1) {
      // --topk-list 1,2,4, --ep-list 1,2,4: one run per value of the key.
      const std::string base = k.substr(0, k.size() - 5);
      if (!vars->count(base)) (*vars)[base] = SplitList(vals.front());
    } else if (k == "null_route_sweep") {
      if (!vars->count("null_route_frac"))
        (*vars)["null_route_frac"] = {"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"};
    } else if (vars->count(k)) {
      continue;
    } else if (pc.conditional.count(k)) {
      // `if [ "$pm" = ep ]; then extra="--ep-comm-path ring_ag_rs"; fi`: the
      // runs of one branch only; a figure names it ("EP ring") or leaves it open.
      (*vars)[k] = vals;
    } else if (generic && vals.size() == 1 && vals.front().find(',') != std::string::npos) {
      (*vars)[k] = SplitList(vals.front());  // "--modes bf16,fp8gemm": one run per value
    } else if (vals.size() == 1 && count[k] == invocations) {
      (*fixed)[k] = vals.front();
    } else if (vals.size() > 1) {
      (*vars)[k] = vals;  // in the order the commands give them: the first command's first
      fv->commands_vary.insert(k);
    }
  }
}

std::string Lower(std::string w) {
  for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w;
}

// Words that tell a sentence restates a figure of earlier work, or derives
// one, rather than recording this entry's run: "v143 remains the stable
// reference at 22.3%", "sealed baseline", "comparison point", "from the
// previous section", "baseline for context", "implied bandwidth".
bool RestatingWord(const std::string& w) {
  static const std::set<std::string> k = {"remains", "remained", "stays", "stayed", "sealed", "comparison",
                                          "reference", "earlier", "previous", "prior", "restated", "historical",
                                          "context", "implied", "projected", "projection", "estimated"};
  return k.count(Lower(w)) > 0;
}

// A Config bullet's keys ("tokens=32768", "routing distributions tested:
// `random`, `runs`") that the commands do not vary.
void ConfigBullet(const Bullet& b, bool generic, const std::set<std::string>& flag_keys, Config* fixed, Vars* vars) {
  for (const auto& w : Words(b.text))
    if (RestatingWord(w)) return;  // "comparison against the sealed baseline with `shared=2048`"
  RunKeys keys;
  keys.any = generic;
  keys.recorded = flag_keys;
  for (auto [key, v] : ConfigWords(b.text, keys)) {
    std::string k = key;
    k.erase(0, k.find_first_not_of('_'));  // "--xla_flag=false" written as a Config word
    if (k.empty()) continue;
    if (vars->count(k)) continue;
    if (std::vector<std::string> both = BothValues(k); v == "both" && both.size() > 1) (*vars)[k] = both;
    else (*fixed)[k] = v;
  }
  std::string key;
  std::vector<std::string> list;
  if (!ConfigList(b, flag_keys, &key, &list)) return;
  if (!generic && !IsRunKey(key)) {
    // "routing distributions tested: `random`, `runs`": the run key whose
    // documented choices they are.
    std::string ck = list.empty() ? "" : ChoiceKey(list.front());
    for (const auto& v : list)
      if (ChoiceKey(v) != ck) ck.clear();
    if (ck.empty()) return;
    key = ck;
  }
  if (vars->count(key) || fixed->count(key)) return;  // the command says it
  if (list.size() == 1) (*fixed)[key] = list.front();
  else (*vars)[key] = list;
}

// Keys a Command bullet gives to some arms of an arrow chain and not to
// others ("control → `fused=true` → `fused=true` + `NCCL_ALGO=ring`"): they
// tell the arms apart, so no figure of the entry has them all along. Short
// spans and words are read; a whole command line in a span is not an arm.
std::set<std::string> ArmChainKeys(const Entry& e) {
  std::set<std::string> varied;
  const Field* f = e.FindField("Command");
  if (f == nullptr) return varied;
  std::string t = f->bullet.text;
  for (const char* arrow : {"\xE2\x86\x92", "->"})
    for (size_t p = t.find(arrow); p != std::string::npos; p = t.find(arrow, p + 1)) t.replace(p, std::strlen(arrow), "\x01");
  std::vector<std::set<std::string>> arms;
  for (const std::string& seg : SplitList(t, '\x01')) {
    std::set<std::string> keys;
    bool in_code = false;
    std::string span;
    for (char c : seg + "`") {
      if (c != '`') { span += c; continue; }
      const auto w = Words(span);
      if (!in_code || w.size() <= 2)
        for (const auto& word : w) {
          std::string key = word.substr(0, std::min(word.find('='), word.size()));
          key.erase(0, key.find_first_not_of('-'));  // "--fused=true", "fused=true", "--fused"
          if (!key.empty() && (word.find('=') != std::string::npos || word.rfind("--", 0) == 0)) keys.insert(NormalizeKey(key));
        }
      span.clear();
      in_code = !in_code;
    }
    arms.push_back(keys);
  }
  if (arms.size() < 2) return varied;
  for (const auto& a : arms)
    for (const auto& k : a)
      if (std::any_of(arms.begin(), arms.end(), [&](const std::set<std::string>& o) { return !o.count(k); }))
        varied.insert(k);
  return varied;
}

// Fixed config and varied keys of an entry from its commands and Config
// field. A flag is fixed when every invocation gives it the same value.
// `generic` is set when the entry runs scripts moelog has no adapter for:
// their flags are read as the script spells them.
// `feeds`: the loop variables that feed one flag each (`for factor in ...;
// --capacity-factor "$factor"` gives factor -> capacity_factor).
void EntryConfig(const Entry& e, Config* fixed, Vars* vars, bool* generic, bool* known_harness, Config* feeds,
                 std::set<std::string>* commands_vary) {
  ParsedCommand pc = EntryCommands(e);
  const auto spans = FlagSpans(e, pc);
  for (const auto& [var, key] : pc.feeds)
    if (!key.empty()) (*feeds)[var] = key;
  bool known = false;
  for (const auto& h : pc.harnesses) known = known || DefaultLauncherTable().FindHarness(h) != nullptr;
  // A harness moelog has no adapter for, or none named at all (`sbatch
  // job.sbatch`, a job number): the entry's own words name its keys.
  *generic = !known;
  *known_harness = known;
  FlagValues fv = CollectFlagValues(pc, spans, vars);
  SortFlagValues(pc, *generic, &fv, fixed, vars);
  *commands_vary = fv.commands_vary;
  for (const auto& c : e.commands) AdapterRunKeys(c.joined, vars);
  for (const auto& [k, v] : *vars) fixed->erase(k);
  if (const Field* f = e.FindField("Config")) {
    ConfigBullet(f->bullet, *generic, fv.flag_keys, fixed, vars);
    for (const auto& c : f->bullet.children) ConfigBullet(c, *generic, fv.flag_keys, fixed, vars);
  }
  for (const std::string& k : ArmChainKeys(e))
    for (auto it = fixed->begin(); it != fixed->end();) it = NormalizeKey(it->first) == k ? fixed->erase(it) : std::next(it);
  if (*generic && pc.harnesses.size() == 1) (*fixed)["harness"] = pc.harnesses.front();
  if (std::string a = EntryAccelerator(e); !a.empty()) (*fixed)["accelerator"] = a;
}

// The key whose varied values include `word`, if exactly one.
std::string KeyOfValue(const Vars& vars, const std::string& word) {
  std::string found;
  for (const auto& [k, vals] : vars)
    for (const auto& v : vals)
      if (v == word) {
        if (!found.empty() && found != k) return "";
        found = k;
      }
  return found;
}

// The varied value `word` names for `key`: itself, or the one value whose
// first part it is ("ref" for "ref_dp", "staged" for "staged_dp"), when
// exactly one value of one key starts so.
bool ShortValue(const Vars& vars, const std::string& word, std::string* key, std::string* value) {
  if (!KeyOfValue(vars, word).empty() || word.size() < 3) return false;
  int hits = 0;
  for (const auto& [k, vals] : vars)
    for (const auto& v : vals)
      if (v.size() > word.size() + 1 && v.compare(0, word.size(), word) == 0 && v[word.size()] == '_')
        ++hits, *key = k, *value = v;
  return hits == 1;
}

// `topk8` -> {topk, 8}.
bool KeyDigits(const std::string& w, const Vars& vars, std::string* key, std::string* value,
               const Config* fixed = nullptr) {
  size_t d = w.size();
  while (d > 0 && std::isdigit(static_cast<unsigned char>(w[d - 1]))) --d;
  if (d == 0 || d == w.size()) return false;
  std::string k = NormalizeKey(w.substr(0, d));
  // "EP8" names ep=8 when the entry varies ep, or sets it (a row of a table
  // may name another value than the command: "EP8 2 nodes" beside --ep 4).
  if (!vars.count(k) && k != "topk" && !(fixed && fixed->count(k))) return false;
  *key = k;
  *value = w.substr(d);
  return true;
}

// "2048/2048": numbers joined by '/' name shape keys in the order a shape is
// written (tokens, hidden, mlp_dim, experts, topk, shared), each part a value
// the entry runs for its key, when exactly one assignment fits. Empty
// otherwise ("3072/3072" in an entry that only runs 2048 is a case name).
Config ShapeLabel(const std::string& w, const Vars& vars, const Config& fixed) {
  std::vector<std::string> parts;
  // "2048/2048" or "32768x2048x1408x60".
  const char sep = w.find('/') != std::string::npos ? '/' : 'x';
  std::stringstream ss(w);
  for (std::string p; std::getline(ss, p, sep);) {
    if (p.empty() || !std::all_of(p.begin(), p.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return {};
    parts.push_back(p);
  }
  if (parts.size() < 2) return {};
  std::vector<std::string> keys;
  Vars values;  // shape key -> the values the entry runs (varied or fixed)
  for (const char* k : {"tokens", "hidden", "mlp_dim", "experts", "topk", "shared_expert_dim"}) {
    if (vars.count(k)) values[k] = vars.at(k);
    else if (fixed.count(k)) values[k] = {fixed.at(k)};
    else continue;
    keys.push_back(k);
  }
  // Every way to give the parts, in order, to varied keys holding them: one way only.
  std::vector<Config> ways;
  std::function<void(size_t, size_t, Config)> assign = [&](size_t part, size_t from, Config cfg) {
    if (part == parts.size()) {
      ways.push_back(cfg);
      return;
    }
    for (size_t k = from; k < keys.size(); ++k) {
      const auto& vals = values.at(keys[k]);
      if (std::find(vals.begin(), vals.end(), parts[part]) == vals.end()) continue;
      Config next = cfg;
      next[keys[k]] = parts[part];
      assign(part + 1, k + 1, next);
    }
  };
  assign(0, 0, {});
  return ways.size() == 1 ? ways[0] : Config{};
}

// "shared-fused" names the boolean flag shared_fused when the entry varies
// it: true; "non-fused" / "no-shared-fused": false.
// "custom_vjp" names use_custom_sort_vjp: the word's '_' parts (two or
// more) appear in the key's parts in order, the last parts equal.
bool PartsName(const std::string& w, const std::string& k) {
  auto parts = [](const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s) {
      if (c == '_') out.emplace_back();
      else out.back().push_back(c);
    }
    return out;
  };
  const std::vector<std::string> a = parts(w), b = parts(k);
  if (a.size() < 2 || a.size() > b.size() || a.back() != b.back() || a.back().empty()) return false;
  size_t j = 0;
  for (const std::string& p : b)
    if (j < a.size() && !a[j].empty() && p == a[j]) ++j;
  return j == a.size();
}

bool BoolWord(const std::string& word, const Vars& vars, std::string* key, std::string* value) {
  std::string w = NormalizeKey(word);
  bool negated = false;
  for (const char* p : {"non_", "no_", "without_"})
    if (w.rfind(p, 0) == 0) {
      w = w.substr(std::strlen(p));
      negated = true;
      break;
    }
  std::string found;
  for (const auto& [k, vals] : vars) {
    if (!IsBoolFlag(k)) continue;
    const bool names = k == w || (k.size() > w.size() && k.compare(k.size() - w.size(), w.size(), w) == 0 &&
                                  k[k.size() - w.size() - 1] == '_') ||
                       PartsName(w, k);
    if (!names) continue;
    if (!found.empty()) return false;
    found = k;
  }
  if (found.empty()) return false;
  *key = found;
  *value = negated ? "false" : "true";
  return true;
}

// Config from a bullet label: k=v words, bare varied values, topk8 words,
// anything else as "case".
// A word that repeats a value every run of the entry has ("forward" when the
// entry runs --bench-pass forward only) names no variant.
bool IsFixedValue(const Config& fixed, const std::string& word) {
  for (const auto& [k, v] : fixed)
    if (v == word) return true;
  return false;
}

// A label's k=v words: run keys, keys the entry's commands vary or fix,
// and any key of a harness moelog has no adapter for. The one-letter names
// researchers write for shape keys (E=64, K=4, T=32768) stand for experts,
// topk and tokens when the entry has that key.
Config LabelWords(const std::string& label, const Vars& vars, const Config& fixed, bool generic,
                  const Config* feeds = nullptr) {
  Config out;
  std::string t;
  for (char ch : SplitJoinedPairs(label)) t += (ch == '`' || ch == '(' || ch == ')' || ch == ',' || ch == ';') ? ' ' : ch;
  static const std::map<std::string, std::string> kShort = {{"e", "experts"}, {"k", "topk"}, {"t", "tokens"}};
  for (const auto& w : Words(t)) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size()) continue;
    std::string key = NormalizeKey(w.substr(0, eq));
    std::string value = w.substr(eq + 1);
    while (!value.empty() && (value.back() == '.' || value.back() == ':')) value.pop_back();
    if (value.empty()) continue;
    if (auto it = kShort.find(key); it != kShort.end() && (vars.count(it->second) || fixed.count(it->second)))
      key = it->second;
    if (feeds != nullptr && !IsRunKey(key) && !vars.count(key) && !fixed.count(key))
      if (auto it = feeds->find(key); it != feeds->end()) key = it->second;  // "factor=1.0": the loop variable's flag
    if (IsRunKey(key) || vars.count(key) || fixed.count(key) || generic) out[key] = value;
  }
  return out;
}

// The varied value a word names, ignoring case ("EP" for "ep"); a "Non-"
// word names the other value of a two-valued key whose other value is
// "none" ("Non-EP" when parallel_mode runs none and ep).
bool LooseValue(const Vars& vars, const std::string& word, std::string* key, std::string* value) {
  std::string w;
  for (char c : word) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool negated = false;
  for (const char* p : {"non-", "non_", "no-"})
    if (w.rfind(p, 0) == 0 && w.size() > std::strlen(p)) {
      w = w.substr(std::strlen(p));
      negated = true;
      break;
    }
  std::string k = KeyOfValue(vars, w);
  if (k.empty()) return false;
  if (!negated) {
    *key = k;
    *value = w;
    return true;
  }
  const auto& vals = vars.at(k);
  if (vals.size() != 2 || std::find(vals.begin(), vals.end(), "none") == vals.end() || w == "none") return false;
  *key = k;
  *value = "none";
  return true;
}

// Words of a label that say nothing about the configuration.
bool FillerWord(const std::string& w) {
  static const std::set<std::string> k = {"result", "results", "Result", "Results", "run",
                                          "measured", "numbers", "total", "Total", "overall"};
  return k.count(w) > 0;
}

Config LabelConfig(const std::string& label, const Vars& vars, const Config& fixed, bool generic = false,
                   const Config* feeds = nullptr) {
  Config cfg = LabelWords(label, vars, fixed, generic, feeds);
  std::vector<std::string> rest, kept;
  std::string t;
  for (char c : label) t += (c == ',' || c == '(' || c == ')') ? ' ' : c;
  const std::vector<std::string> words = Words(t);
  for (size_t wi = 0; wi < words.size(); ++wi) {
    const std::string& w = words[wi];
    if (w.find('=') != std::string::npos) continue;
    std::string key, value;
    if (FillerWord(w)) continue;
    if (std::string k = KeyOfValue(vars, w); !k.empty()) {
      cfg[k] = w;
    } else if (std::string ck = generic ? "" : ChoiceKey(w);
               !ck.empty() && wi + 1 < words.size() && NormalizeKey(words[wi + 1]) == ck) {
      cfg[ck] = w;  // "random distribution": a choice of the flag its next word names
      ++wi;
    } else if (KeyDigits(w, vars, &key, &value, &fixed) || BoolWord(w, vars, &key, &value) ||
               ShortValue(vars, w, &key, &value)) {
      cfg[key] = value;
    } else if (std::string ck = generic || words.size() > 2 ? "" : ChoiceKey(w);
               !ck.empty() && fixed.count(ck) && !IsFixedValue(fixed, w)) {
      cfg[ck] = w;  // "prequeue:"; in a longer phrase ("same traced runs") the word is prose
    } else if (Config shape = ShapeLabel(w, vars, fixed); !shape.empty()) {
      cfg.insert(shape.begin(), shape.end());
    } else if (w.find('/') != std::string::npos) {
      // "random/full": every part a varied value, else a case name.
      std::vector<std::string> parts;
      std::stringstream ss(w);
      std::string p;
      bool all = true;
      Config sub;
      while (std::getline(ss, p, '/')) {
        std::string k = KeyOfValue(vars, p);
        if (k.empty()) all = false;
        else sub[k] = p;
      }
      if (all) cfg.insert(sub.begin(), sub.end());
      else rest.push_back(w);
    } else if (LooseValue(vars, w, &key, &value)) {
      cfg[key] = value;
    } else if (IsFixedValue(fixed, w) || std::none_of(w.begin(), w.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); })) {
      kept.push_back(w);  // "(ring_ag_rs)" when every run uses it, a joiner "+": a case only beside other words
    } else {
      rest.push_back(w);
      kept.push_back(w);
    }
  }
  if (!rest.empty()) {
    std::string c;
    for (const auto& r : kept) c += (c.empty() ? "" : " ") + r;
    cfg["case"] = c;
  }
  return cfg;
}

struct Figure {
  double value = 0;
  std::string metric;
  std::string unit;      // as written ("TF/s", "ms", "x", "%")
  bool derived = false;  // a speedup or a delta
  std::string word;      // identifier right before the number ("" if none)
  std::map<std::string, std::string> named;  // keys the text pairs with it ("at EP2/4/8", "a -> b")
  bool restated = false;  // its sentence restates earlier work ("v143 remains ... at 22.3%")
  std::string run_tag;    // the run its sentence starts with ("v156 measures 9.5 s"), if a tag
  size_t sentence = 0;    // where its sentence starts in the text
  bool subject = false;   // `word` is its clause's subject ("treatment was 22.9%")
  int decimals = -1;      // decimals as written in its unit (-1: not as written, "3.5M")
  const char* not_run = nullptr;  // why it is no run's figure though it has a unit (a range, an estimate ...)
  int list = -1;                   // the " / " list it was written in ("13.2 / 13.1 / 12.8 %"), numbered per text
};

// The decimals a number is written with ("0.027212" -> 6, "1,832,938" -> 0).
int WrittenDecimals(const std::string& num) {
  const size_t dot = num.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(num.size() - dot - 1);
}

// What a unit written after a number measures: the metric, the factor to
// its stored unit (time in seconds), and whether it is derived. `scale` is a
// multiplier glued to the number ("11.485M tok/s"). False for words that are
// no unit of a figure (GiB, steps, dropped ...).
struct UnitInfo {
  std::string metric;
  double factor;
  bool derived;
};
bool UnitOf(const std::string& unit, UnitInfo* info) {
  static const std::map<std::string, UnitInfo> k = {
      {"TF/s", {"tflops", 1, false}},         {"TFLOP/s", {"tflops", 1, false}},
      {"TFLOPs/s", {"tflops", 1, false}},     {"TFLOPS", {"tflops", 1, false}},
      {"tokens/s", {"tokens_per_s", 1, false}}, {"tok/s", {"tokens_per_s", 1, false}},
      {"tokens/sec", {"tokens_per_s", 1, false}}, {"tok/sec", {"tokens_per_s", 1, false}},
      {"ms", {"time_s", 1e-3, false}},        {"ms/step", {"time_s", 1e-3, false}},
      {"ms/iter", {"time_s", 1e-3, false}},   {"s", {"time_s", 1, false}},
      {"sec", {"time_s", 1, false}},          {"s/step", {"time_s", 1, false}},
      {"second", {"time_s", 1, false}},       {"seconds", {"time_s", 1, false}},
      {"secs", {"time_s", 1, false}},         {"tokens/second", {"tokens_per_s", 1, false}},
      {"tok/second", {"tokens_per_s", 1, false}},
      {"us", {"time_s", 1e-6, false}},        {"\xC2\xB5s", {"time_s", 1e-6, false}},
      {"GB/s", {"gb_per_s", 1, false}},       {"TB/s", {"gb_per_s", 1000, false}},
      // Time summed over devices ("7.4 device-seconds"): its own metric.
      {"device-seconds", {"device_time_s", 1, false}}, {"device-s", {"device_time_s", 1, false}},
      {"device-second", {"device_time_s", 1, false}},
      {"x", {"speedup", 1, true}},            {"X", {"speedup", 1, true}},
      {"\xC3\x97", {"speedup", 1, true}}};
  auto it = k.find(unit);
  if (it != k.end()) {
    *info = it->second;
    return true;
  }
  // "TFLOP/s/rank", "GB/s/GPU": a figure per device.
  for (const char* d : {"rank", "gpu", "GPU", "device", "chip"}) {
    const std::string suffix = std::string("/") + d;
    if (unit.size() <= suffix.size() || unit.compare(unit.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    auto base = k.find(unit.substr(0, unit.size() - suffix.size()));
    if (base == k.end() || base->second.derived) return false;
    *info = base->second;
    info->metric += std::string("_per_") + (d[0] == 'G' ? "gpu" : d);
    return true;
  }
  return false;
}

// The unit token after a number: up to a space, backtick, comma, ';' or ')'
// (a trailing '.' or ':' is punctuation).
std::string UnitToken(const std::string& s, size_t k) {
  // No unit is longer than this: a longer word is cut (and names no unit), so
  // a word of thousands of dash-joined numbers is not read again after each.
  constexpr size_t kMaxUnitChars = 64;
  size_t e = k;
  while (e < s.size() && e - k < kMaxUnitChars && !std::isspace(static_cast<unsigned char>(s[e])) && s[e] != '`' &&
         s[e] != ',' && s[e] != ';' && s[e] != ')' && s[e] != '(' && s[e] != '|')
    ++e;
  std::string u = s.substr(k, e - k);
  while (!u.empty() && (u.back() == '.' || u.back() == ':')) u.pop_back();
  return u;
}

// The word (letters, digits, '-', '_') starting at p after spaces, backticks
// and '*', and where it ends. At most 24 characters are read.
std::string WordAt(const std::string& s, size_t p, size_t* end) {
  while (p < s.size() && (s[p] == ' ' || s[p] == '`' || s[p] == '*')) ++p;
  size_t e = p;
  while (e < s.size() && e - p < 24 && IsIdentChar(s[e])) ++e;
  *end = e;
  return s.substr(p, e - p);
}

// A word that may stand between a percentage and the "MFU" it is
// ("21.8% median MFU", "22.3% tail-30 median MFU", "19% steady BF16 MFU").
bool MfuQualifier(const std::string& w) {
  static const std::set<std::string> k = {"mean", "median", "avg", "average", "p10", "p50", "p90", "p95", "p99",
                                          "min", "max", "best", "worst", "steady", "steady-state", "full-run",
                                          "BF16", "bf16", "FP8", "fp8", "GB200", "B200", "H100", "model", "hardware"};
  return k.count(w) > 0 || w.rfind("tail", 0) == 0;
}

// True when "MFU" qualifies the percentage written at [from, to): right
// after it, past at most three qualifier words ("21.8% median MFU"), or
// right before it ("MFU 21.8%", "MFU: 21.8%", "p50 MFU was 21.05%").
// Bounded: a few short words either side are looked at.
bool MfuQualifies(const std::string& s, size_t from, size_t to) {
  size_t p = to;
  for (int n = 0; n < 4; ++n) {
    size_t e = p;
    const std::string w = WordAt(s, p, &e);
    if (w == "MFU") return true;
    if (!MfuQualifier(w)) break;
    p = e;
  }
  size_t b = from;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*' || s[b - 1] == ':' || s[b - 1] == '=' ||
                   s[b - 1] == '~'))
    --b;
  if (b >= 3 && s.compare(b - 3, 3, "MFU") == 0) return true;
  size_t w = b;
  while (w > 0 && b - w < 24 && IsIdentChar(s[w - 1])) --w;
  static const std::set<std::string> link = {"was", "is", "of", "at", "reached", "hit", "stays", "stayed", "remains"};
  if (link.count(s.substr(w, b - w))) {
    size_t m = w;
    while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '`' || s[m - 1] == '*')) --m;
    if (m >= 3 && s.compare(m - 3, 3, "MFU") == 0) return true;
  }
  // "Two MFU samples had a 6.70% median": MFU is the subject of the clause
  // the percentage ends, and no other number stands between them.
  for (size_t c = from, lim = from > 60 ? from - 60 : 0; c > lim; --c) {
    const char ch = s[c - 1];
    if (ch == ',' || ch == ';' || ch == ':' || std::isdigit(static_cast<unsigned char>(ch)) ||
        (ch == '.' && c < s.size() && s[c] == ' '))
      return false;
    if (c >= 3 && s.compare(c - 3, 3, "MFU") == 0 && (c - 3 == 0 || !IsIdentChar(s[c - 4]))) return true;
  }
  return false;
}

// A goal or threshold names the number after it, it records no run: "at
// least 30%", "at or below 3%", "within 1% of control", "target 30%",
// "goal of 30%". Looks at the two words before `at`.
bool ThresholdBefore(const std::string& s, size_t at) {
  static const std::set<std::string> k = {"least", "most",   "below",  "above",   "within", "under",
                                          "target", "targets", "goal", "goals",  "threshold", "than",
                                          "exceed", "exceeds", "reach", "Reach", "budget", "cap"};
  size_t b = at;
  bool colon = false;  // "slower than EP16: 37.28 ms": past a colon only the word before it ("target: 20 ms") counts
  for (int n = 0; n < 2; ++n) {
    while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*' || s[b - 1] == ':' || s[b - 1] == '~')) {
      --b;
      if (s[b] == ':') colon = true;
    }
    size_t w = b;
    while (w > 0 && b - w < 24 && IsIdentChar(s[w - 1])) --w;
    if (w == b) return false;
    if (k.count(s.substr(w, b - w))) return true;
    if (colon) return false;
    b = w;
  }
  return false;
}

// In a logbook that measures MFU, a bare percentage ending its clause
// ("mean was 21.067%,") is MFU unless its sentence names another share
// ("drop was 1.784%", "contributed 23.20%", "84% JAX memory fraction").
bool PercentClauseIsMfu(const std::string& s, size_t from, size_t to) {
  size_t p = to;
  while (p < s.size() && (s[p] == ' ' || s[p] == '`' || s[p] == '*')) ++p;
  if (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p]))) {
    // "84% JAX memory fraction" names what it is a share of; "13.2 % at EP2"
    // and "21.1% vs 20.9%" end the figure.
    size_t e = p;
    static const std::set<std::string> ends = {"at", "vs", "and", "on", "in", "with", "for", "after", "then"};
    if (!ends.count(WordAt(s, p, &e))) return false;
  }
  const size_t a = from > 40 ? from - 40 : 0;
  size_t c = from;  // back to the start of the clause, at most 40 characters
  while (c > a && s[c - 1] != ',' && s[c - 1] != ';' && s[c - 1] != '.' && s[c - 1] != ':') --c;
  const std::string clause = s.substr(c, from - c);
  for (const char* w : {"drop", "fraction", "share", "contribut", "loss", "of ", "retries", "utili"})
    if (clause.find(w) != std::string::npos) return false;
  return true;
}

// The word right before position `at` (spaces, backticks and '*' skipped),
// and where it starts.
std::string WordBefore(const std::string& s, size_t at, size_t* begin = nullptr) {
  size_t b = at;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*')) --b;
  const size_t e = b;
  while (b > 0 && IsIdentChar(s[b - 1])) --b;
  if (begin) *begin = b;
  return s.substr(b, e - b);
}

// "->" or "→" at p: its length, else 0.
size_t ArrowAt(const std::string& s, size_t p) {
  if (s.compare(p, 2, "->") == 0) return 2;
  if (s.compare(p, 3, "\xE2\x86\x92") == 0) return 3;
  return 0;
}

// The unit of the number after an arrow ("96.1 -> fp8wire 56.5 ms"): what a
// bare number before the arrow is measured in. "" when none. Bounded: one
// word and one number are looked at.
std::string ArrowUnit(const std::string& s, size_t p) {
  const size_t a = ArrowAt(s, p);
  if (a == 0) return "";
  size_t q = p + a;
  auto skip = [&] { while (q < s.size() && (s[q] == ' ' || s[q] == '`' || s[q] == '*')) ++q; };
  skip();
  if (q < s.size() && IsIdentStart(s[q])) {
    while (q < s.size() && IsIdentChar(s[q])) ++q;
    skip();
  }
  const size_t d = q;
  while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == '.' || s[q] == ',')) ++q;
  if (q == d) return "";
  skip();
  std::string unit = UnitToken(s, q);
  // "14.71→14.82 (+0.11 pp)": percentage points say both are percentages.
  if (unit.empty() && q < s.size() && s[q] == '(') {
    size_t r = q + 1;
    if (r < s.size() && (s[r] == '+' || s[r] == '-')) ++r;
    while (r < s.size() && (std::isdigit(static_cast<unsigned char>(s[r])) || s[r] == '.')) ++r;
    while (r < s.size() && s[r] == ' ') ++r;
    if (s.compare(r, 2, "pp") == 0) return "%";
  }
  return unit;
}

// Right after a list of figures' unit: "at EP2/4/8" pairs each with a value
// of one key (ep=2, ep=4, ep=8). Empty unless there are exactly `n` values.
std::vector<std::pair<std::string, std::string>> AtList(const std::string& s, size_t p, size_t n) {
  while (p < s.size() && (s[p] == ' ' || s[p] == '`')) ++p;
  if (s.compare(p, 3, "at ") != 0) return {};
  p += 3;
  while (p < s.size() && (s[p] == ' ' || s[p] == '`')) ++p;
  size_t k = p;
  while (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k]))) ++k;
  const std::string key = s.substr(p, k - p);
  if (key.empty() || key.size() > 16) return {};
  std::vector<std::pair<std::string, std::string>> out;
  while (k < s.size() && out.size() <= n) {
    const size_t d = k;
    while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
    if (k == d) return {};
    out.emplace_back(NormalizeKey(key), s.substr(d, k - d));
    if (k >= s.size() || s[k] != '/') break;
    ++k;
  }
  if (out.size() != n) return {};
  return out;
}

// A number ending at `j` is followed by " / " and another number: one of
// a list of figures sharing the last one's unit ("13.2 / 13.1 / 12.8 %").
// Where the next number starts, or npos. "33/64" (no space) is a fraction.
size_t ListNext(const std::string& s, size_t j) {
  size_t k = j;
  while (k < s.size() && s[k] == ' ') ++k;
  if (k >= s.size() || s[k] != '/') return std::string::npos;
  size_t r = k + 1;
  const bool spaced = k > j || (r < s.size() && s[r] == ' ');
  while (r < s.size() && s[r] == ' ') ++r;
  if (!spaced || r >= s.size() || !std::isdigit(static_cast<unsigned char>(s[r]))) return std::string::npos;
  return r;
}

// Words before a bare number that make it no figure: an exit code, a job
// number, a count ("exit code `0`", "job `50102`", "count: `4301`").
bool CountWord(const std::string& w) {
  static const std::set<std::string> k = {"code", "exit", "job", "Job", "count", "rank", "attempt", "id", "ID",
                                          "pid", "seed", "issue", "PR", "commit", "worker", "workers", "line", "lines"};
  return k.count(w) > 0;
}

// A statistic named before a metric word ("mean MFU 20.21%", "p50 MFU").
bool StatWord(const std::string& w) {
  static const std::set<std::string> k = {"mean", "median", "avg", "average", "p10", "p50", "p90", "p95", "p99",
                                          "min", "max", "best", "worst", "steady"};
  return k.count(w) > 0;
}
bool MetricWord(const std::string& w) {
  static const std::set<std::string> k = {"MFU", "mfu", "TF", "TFLOPS", "throughput", "time", "latency", "tokens"};
  return k.count(w) > 0;
}

// Whether a bullet or its sub-bullets name TF/s.
bool NamesTflops(const Bullet& b) {
  if (b.text.find("TF/s") != std::string::npos || b.text.find("TFLOP") != std::string::npos ||
      b.text.find("tflops") != std::string::npos)
    return true;
  for (const auto& c : b.children)
    if (NamesTflops(c)) return true;
  return false;
}

// Whether a bullet or its sub-bullets contain `word`.
bool BulletHas(const Bullet& b, const char* word) {
  if (b.text.find(word) != std::string::npos) return true;
  for (const auto& c : b.children)
    if (BulletHas(c, word)) return true;
  return false;
}

// The metric of a figure written without a unit whose entry has no harness
// moelog knows ("none `252.091`"): never tabled as such.
const char kNoUnit[] = "no_unit";
// A prose number without a unit after a figure with one (ScanMode::carry).
const char kCarried[] = "carried";

// Connectives, verbs and adverbs are no names ("had 21.8%", "about 64.7M
// tok/s"): no key rather than a junk one.
bool NoName(const std::string& w) {
  static const std::set<std::string> kStop = {
        "vs",     "and",     "or",      "at",      "with",     "to",        "of",       "is",     "from",
        "was",    "by",      "least",   "most",    "below",    "above",     "within",   "about",  "around",
        "roughly", "approximately", "nearly", "almost", "only", "just", "had", "has", "have", "were", "are",
        "be",     "been",    "contributed", "reached", "gave", "gives", "got", "hit", "showed", "shows",
        "measured", "The",   "the",     "a",       "an",       "A",         "An",       "independent", "totaled",
        "still",  "now",     "then",    "also",    "over",     "under",     "than",     "remains", "remained",
        "stays",  "stayed",  "became",  "yields",  "yielded",  "reaches",   "hits",     "in",     "on",
        "for",    "after",   "before",  "as",      "into",     "across",    "per",      "each",   "every",
        "averaged", "reported", "recorded", "logged", "measures", "took", "takes", "ran", "runs",
        "versus", "against", "it", "this", "these", "we", "they", "which", "its", "their", "our"};
  return w.empty() || !IsIdentStart(w[0]) || kStop.count(w) > 0 ||
         (std::isupper(static_cast<unsigned char>(w[0])) && kStop.count(Lower(w)) > 0);
}

// Figures in the text after a bullet's label. A number followed by a unit
// is a figure of that unit's metric; a bare number is TF/s when
// `bare_is_tflops` (the modeled harness prints TF/s), else no figure.
// Signed percentages are deltas and "1.8x" speedups (both derived);
// "42% MFU" is MFU. Inside parentheses only derived figures count (they
// qualify the figure before them). Not figures: fractions ("33/64"),
// numbers named as counts or codes ("exit code `0`"), a test run's time.
// "a -> b unit": both in the unit, named by their words, else "before" and
// "after". A statistic word names the metric ("mean MFU" -> mfu_mean).
// Linear: every branch steps past what it reads.
// The unit a `key=value` figure's key names ("time_s=0.0179", "tokens_per_s=1,832,938",
// "tflops=238.6"); empty for other keys ("pack=0.0042", "k=2": no figure).
// A key that sets a bound or a schedule ("timeout", "max_wait_s",
// "warmup"): its value is no measurement.
bool SettingKey(const std::string& key) {
  const std::string k = Lower(key);
  for (const char* w : {"timeout", "limit", "budget", "interval", "warmup", "sleep", "deadline", "wait", "max", "min"})
    if (k.find(w) != std::string::npos) return true;
  return false;
}

std::string KeyUnit(const std::string& key) {
  static const std::map<std::string, std::string> k = {
      {"time_s", "s"},          {"time_ms", "ms"},      {"time_us", "us"},       {"step_time_s", "s"},
      {"tokens_per_s", "tokens/s"}, {"tok_per_s", "tokens/s"}, {"tokens_s", "tokens/s"}, {"tok_s", "tokens/s"},
      {"tokens_per_sec", "tokens/s"}, {"tflops", "TF/s"}, {"tf_s", "TF/s"}};
  auto it = k.find(NormalizeKey(key));
  return it == k.end() ? "" : it->second;
}

// The digits of a number from `*j` on, with its thousands separators and
// decimal point ("1,832,938", "0.0179"); `*j` moves past them.
std::string DigitsAt(const std::string& s, size_t* j) {
  std::string num;
  while (*j < s.size() && (std::isdigit(static_cast<unsigned char>(s[*j])) || s[*j] == ',' || s[*j] == '.')) {
    if ((s[*j] == ',' || s[*j] == '.') && !(*j + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[*j + 1]))))
      break;
    num += s[(*j)++];
  }
  return num;
}

// "full `210.201`, prequeue `277.222` TF/s": after a number ending at `j`, a
// comma and a word and the next number: where that number starts, else npos.
size_t CommaListNext(const std::string& s, size_t j) {
  size_t k = j;
  while (k < s.size() && (s[k] == ' ' || s[k] == '`')) ++k;
  if (k >= s.size() || s[k] != ',') return std::string::npos;
  size_t e = k + 1;
  // "`88.412`, `88.440`, `88.397` ms": numbers alone, the unit after the last.
  for (size_t d = e; k + 1 < s.size() && s[k + 1] == ' ' && d < s.size() && d < k + 8; ++d)
    if (std::isdigit(static_cast<unsigned char>(s[d]))) return d;
    else if (s[d] != ' ' && s[d] != '`' && s[d] != '*') break;
  const std::string w = WordAt(s, k + 1, &e);
  while (e < s.size() && (s[e] == ' ' || s[e] == '`' || s[e] == '*')) ++e;
  if (w.empty() || !IsIdentStart(w[0]) || e >= s.size() || !std::isdigit(static_cast<unsigned char>(s[e])))
    return std::string::npos;
  return e;
}

// A number of a list waiting for its unit: its value, the word naming it,
// the decimals it is written with.
struct Listed {
  double value = 0;
  std::string word;
  int decimals = -1;
};

// "ring 13.2 / 13.1 / 12.8 % at EP2/4/8": the numbers `listed` before the
// figure `f` (read as `value`) take its unit, each paired with its value of
// the key after "at" (if as many); a comma list's numbers keep their words.
void ShareListUnit(const std::string& s, size_t i, double value, bool comma_list,
                   const std::vector<Listed>& listed, Figure* f, std::vector<Figure>* out) {
  const auto at = AtList(s, i, listed.size() + 1);
  const double ratio = f->value / value;
  const std::string first = listed.front().word;
  for (size_t n = 0; n < listed.size(); ++n) {
    Figure m = *f;
    m.value = listed[n].value * ratio;
    m.decimals = f->decimals < 0 ? -1 : listed[n].decimals;  // "13.2 / 13.1 %": as written
    m.list = f->list;
    m.word = comma_list ? listed[n].word : MetricWord(first) || NoName(first) ? "" : first;
    if (!at.empty()) m.named[at[n].first] = at[n].second;
    out->push_back(m);
  }
  if (!at.empty()) f->named[at.back().first] = at.back().second;
  if (f->word.empty() && !MetricWord(first) && !NoName(first) && !comma_list) f->word = first;
}

// "`time_s=0.017877`": the figure a key=value word states in the unit its key
// names (thousands separators read), or false. `eq` is the '=' before the number.
bool KeyValueFigure(const std::string& s, size_t eq, size_t* end, Figure* f) {
  size_t b = eq;
  while (b > 0 && IsIdentChar(s[b - 1])) --b;
  const std::string key = s.substr(b, eq - b);
  std::string unit = KeyUnit(key);
  size_t j = eq + 1;
  const std::string num = DigitsAt(s, &j);
  // "`steady_state_time=0.0341s`", "`latency=3.2ms`": the unit glued to the
  // value names it, unless the key is a setting ("timeout=60s").
  if (UnitInfo glued{}; unit.empty() && j < s.size() && IsIdentStart(s[j]) && !SettingKey(key) &&
                        UnitOf(UnitToken(s, j), &glued) && !glued.derived) {
    unit = UnitToken(s, j);
    j += unit.size();
  }
  *end = j;
  UnitInfo info{};
  const auto v = ParseNumber(num);
  if (unit.empty() || !v || (j < s.size() && IsIdentChar(s[j])) || !UnitOf(unit, &info)) return false;
  f->metric = info.metric, f->unit = unit, f->derived = false;
  f->value = info.factor < 1 ? *v / std::round(1 / info.factor) : *v * info.factor;
  f->decimals = WrittenDecimals(num);
  return true;
}

// What a number read at [start, j) is: its metric, unit and value from the
// unit after it (or the arrow's, or none), into `f`; false when it is no
// figure. `i` moves past what was read; `unit_out` and `before_arrow` tell
// the caller whether an arrow follows.
struct ScanMode {
  bool bare_is_tflops = true, percent_is_mfu = false;
  bool prose = false;  // a paragraph's sentence: "~36 ms" is an estimate
  std::string carry;   // prose: the unit of the paragraph's last figure ("... 96.2 ms/step bf16; fp8gemm 92.2")
};

// The unit written after a number ending at `j`, as the reader sees it: a
// multiplier glued to the number ("11.485M tok/s"), a unit joined by a hyphen
// ("10.046-second"), a statistic between number and unit ("417,517 median
// tokens/s": the statistic names the figure), or the unit of the number after
// an arrow ("96.1 -> fp8wire 56.5 ms").
struct UnitRead {
  double scale = 1;
  bool glued = false, before_arrow = false, own = false;
  size_t at = 0, len = 0;  // where the unit token starts, how much of it is consumed
  std::string unit, statistic;
};
UnitRead ReadUnit(const std::string& s, size_t j) {
  UnitRead u;
  size_t k = j;
  if (k < s.size() && (s[k] == 'M' || s[k] == 'K' || s[k] == 'k' || s[k] == 'B') &&
      (k + 1 >= s.size() || s[k + 1] == ' ' || s[k + 1] == '`')) {
    u.scale = s[k] == 'M' ? 1e6 : s[k] == 'B' ? 1e9 : 1e3;
    ++k;
  }
  UnitInfo probe{};
  if (k + 1 < s.size() && s[k] == '-' && IsIdentStart(s[k + 1]) && UnitOf(UnitToken(s, k + 1), &probe)) ++k;
  u.glued = k < s.size() && IsIdentChar(s[k]);
  while (k < s.size() && (s[k] == ' ' || s[k] == '`')) ++k;
  u.unit = UnitToken(s, k);
  if (StatWord(u.unit)) {
    size_t n = k + u.unit.size();
    while (n < s.size() && (s[n] == ' ' || s[n] == '`')) ++n;
    if (UnitOf(UnitToken(s, n), &probe)) u.statistic = u.unit, k = n, u.unit = UnitToken(s, n);
  }
  u.at = k;
  u.len = u.unit.size();
  u.before_arrow = ArrowAt(s, k) > 0;
  u.own = (!u.unit.empty() && u.unit[0] == '%') || UnitOf(u.unit, &probe);
  return u;
}

// A number right after an arrow ("14.71→14.82") takes the unit of the
// figure before the arrow.
bool AfterArrow(const std::string& s, size_t start) {
  size_t a = start;
  while (a > 0 && s[a - 1] == ' ') --a;
  return (a >= 2 && ArrowAt(s, a - 2) == 2) || (a >= 3 && ArrowAt(s, a - 3) == 3);
}

// A percentage written as a change ("improves by 21.3%", "28.8% relative",
// "12.7% faster"): a delta, never the metric itself.
bool ChangeOf(const std::string& s, size_t start, size_t end) {
  if (Lower(WordBefore(s, start)) == "by") return true;
  static const std::set<std::string> after = {"relative", "faster", "slower", "higher", "lower", "better",
                                              "worse",    "more",   "less",   "gain",   "improvement", "regression"};
  size_t e = end;
  return after.count(Lower(WordAt(s, end, &e))) > 0;
}

// A percentage: a delta when signed, MFU when MFU qualifies it (or the
// logbook measures MFU and its clause names no other share), else no figure.
// "21.4→22.9 % peak", "48% of peak": a share of a peak, no MFU. Looks at
// the first '%' within 40 characters after `start` and the words after it.
bool PercentOfPeak(const std::string& s, size_t start) {
  const size_t pct = s.find('%', start);
  if (pct == std::string::npos || pct > start + 40) return false;
  size_t e = 0;
  std::string w = Lower(WordAt(s, pct + 1, &e));
  if (w == "of") w = Lower(WordAt(s, e, &e));
  return w == "peak";
}

bool PercentFigure(const std::string& s, size_t start, const UnitRead& u, double value, bool sign, bool negative,
                   const ScanMode& mode, size_t* i, Figure* f) {
  *i = std::max(*i, u.at + 1);
  if (!sign && PercentOfPeak(s, start)) return false;
  if (sign || ChangeOf(s, start, u.at + u.unit.size())) {
    f->metric = "delta_pct", f->unit = "%", f->derived = true;
  } else if (ThresholdBefore(s, start)) {
    return false;
  } else if (MfuQualifies(s, start, u.at + u.unit.size()) ||
             (mode.percent_is_mfu && PercentClauseIsMfu(s, start, u.at + u.unit.size()))) {
    f->metric = "mfu", f->unit = "%";
  } else {
    return false;
  }
  f->value = (negative ? -1 : 1) * value;
  return true;
}

// A duration a job or test run took ("succeeded in 40.12 seconds", "33
// passed in 10.41s", "after 3 s", "parent duration `195006ms`") or a limit
// ("times out at 60 seconds") is no benchmark figure.
bool JobDuration(const std::string& s, size_t start) {
  size_t b = start;
  const std::string w = Lower(WordBefore(s, start, &b));
  if (w == "after" || w == "in") return true;
  if (w == "at" && Lower(WordBefore(s, b)) == "out") return true;  // "times out at 60 seconds": a limit
  // "compile `148.4s`", "compilation took 85 s": the compiler's time, not the benchmark's.
  if (w == "compile" || w == "compilation" || (w == "took" && Lower(WordBefore(s, b)).rfind("compil", 0) == 0))
    return true;
  // "parent duration `195006ms`", "job duration 3 s", "wall time 41 s", "task duration 107946 ms", "compile time 85 s".
  static const std::set<std::string> whole = {"parent", "job", "wall", "total", "elapsed", "wall-clock", "task", "test", "compile"};
  return (w == "duration" || w == "time") && whole.count(Lower(WordBefore(s, b))) > 0;
}

// A time written as an adjective before what it bounds or measures of a job
// ("a 5,400-second execution window", "the 60-second test limit", "an
// 8-minute 16-second task duration"): a setting or a job's duration, no figure.
bool DurationAdjective(const std::string& s, const UnitRead& u) {
  if (u.at == 0 || s[u.at - 1] != '-') return false;
  // What a setting bounds, or whose duration it is (a job's, not a step's:
  // "an 8.4-second median duration" is a figure).
  static const std::set<std::string> nouns = {"window", "limit",   "timeout", "budget", "interval",  "cadence", "wait",
                                              "delay",  "deadline", "cap",    "task",   "job",       "test",    "execution",
                                              "queue",  "coordinator"};
  size_t e = u.at + u.len;
  return nouns.count(Lower(WordAt(s, u.at + u.len, &e))) > 0;
}

// A number followed by a unit moelog knows ("3.12 ms", "1.2M tok/s").
bool UnitFigure(const std::string& s, size_t start, const UnitRead& u, const UnitInfo& info, double value,
                size_t* i, Figure* f) {
  if (u.scale != 1 && info.metric != "tokens_per_s") return false;
  f->metric = info.metric, f->unit = u.unit, f->derived = info.derived;
  if (u.scale != 1) f->decimals = -2;  // "3.5M tok/s": not the value as written
  // ms and us divide by an exact power of ten ("3.12 ms" is 0.00312 s).
  f->value = info.factor < 1 ? value / std::round(1 / info.factor) : value * u.scale * info.factor;
  *i = u.at + u.len;
  if (f->metric == "time_s" && (JobDuration(s, start) || DurationAdjective(s, u))) return false;
  if (ThresholdBefore(s, start)) return false;  // "a budget of 3 ms", "at least 500 TF/s"
  if (!u.statistic.empty()) f->named["statistic"] = u.statistic;
  return true;
}

// A number with no unit after it: TF/s where the harness prints TF/s, a
// reported value whose unit the caller decides ("none `252.091`"), or none.
bool BareFigure(const std::string& s, size_t start, size_t j, const UnitRead& u, double value, const ScanMode& mode,
                size_t* i, Figure* f) {
  if (u.glued || u.scale != 1) {
    while (*i < s.size() && IsIdentChar(s[*i])) ++*i;  // "4GiB", "128MiB"
    return false;
  }
  if (!u.unit.empty() && std::isalpha(static_cast<unsigned char>(u.unit[0])) && u.unit != "vs")
    return false;  // another word (GiB, steps, dropped ...): no figure
  if (mode.bare_is_tflops && !CountWord(WordBefore(s, start))) {
    f->metric = "tflops", f->value = value;
    return true;
  }
  if (start > 0 && s[start - 1] == '`' && j < s.size() && s[j] == '`' && !CountWord(WordBefore(s, start)) &&
      !ThresholdBefore(s, start)) {
    // "none `252.091`": a reported value written without a unit. The
    // caller names its metric or lists it ("no unit").
    f->metric = kNoUnit, f->value = value;
    return true;
  }
  if ((u.before_arrow || AfterArrow(s, start)) && !CountWord(WordBefore(s, start)) &&
      (!mode.prose || mode.carry.empty())) {
    // "d2048 14.71→14.82" with no unit anywhere: a change of something, listed "no unit".
    f->metric = kNoUnit, f->value = value;
    return true;
  }
  if (mode.prose && !mode.carry.empty() && !CountWord(WordBefore(s, start)) && !ThresholdBefore(s, start)) {
    // "fp8gemm 92.2": perhaps in the unit of the figure before it; the
    // caller keeps it only when a value of the entry's keys names it.
    f->metric = kCarried, f->unit = mode.carry, f->value = value;
    return true;
  }
  return false;
}

bool FigureUnit(const std::string& s, size_t start, size_t j, double value, bool sign, bool negative,
                const ScanMode& mode, int arrow_left, const std::string& arrow_unit, size_t* i, Figure* f,
                std::string* unit_out, bool* before_arrow) {
  UnitRead u = ReadUnit(s, j);
  *before_arrow = u.before_arrow;
  if (u.before_arrow && !u.own) {
    u.unit = ArrowUnit(s, u.at);  // "96.1 -> fp8wire 56.5 ms": ms
    u.len = 0;
  } else if (!u.own && arrow_left >= 0 && !sign && !arrow_unit.empty() && AfterArrow(s, start)) {
    u.unit = arrow_unit;  // "14.71→14.82 (+0.11 pp)": the unit of the figure before the arrow
    u.len = 0;
  }
  *unit_out = u.unit.empty() && mode.prose ? mode.carry : u.unit;
  if (!u.unit.empty() && u.unit[0] == '%') return PercentFigure(s, start, u, value, sign, negative, mode, i, f);
  if (sign) return false;  // a signed number that is no percentage
  UnitInfo info{};
  if (!u.unit.empty() && UnitOf(u.unit, &info)) return UnitFigure(s, start, u, info, value, i, f);
  return BareFigure(s, start, j, u, value, mode, i, f);
}

// The word that names a figure (the identifier before it, unless it names a
// metric or nothing), and its side of an arrow ("bf16 96.1 -> fp8wire 56.5").
bool NameFigure(const std::string& s, size_t start, int arrow_left, std::vector<Figure>* out, Figure* f) {
  size_t b = start;
  std::string word = WordBefore(s, start, &b);
  bool stat_named = false;
  if (StatWord(Lower(word)) && !f->derived && !f->named.count("statistic")) {
    // "`xla_sum` median 0.48 ms": the statistic names the figure's metric
    // statistic, the word before it the run.
    f->named["statistic"] = Lower(word);
    word = WordBefore(s, b, &b);
  }
  if (MetricWord(word)) {
    // "mean MFU 20.21%": the statistic names the metric, not a run.
    const std::string stat = WordBefore(s, b);
    if (StatWord(stat) && !f->derived) f->metric += "_" + stat, stat_named = true;
    word.clear();
  }
  if (!f->derived && !NoName(word) && (b == 0 || s[b - 1] != '/'))
    f->word = word;
  size_t q = word.empty() ? start : b;
  while (q > 0 && (s[q - 1] == ' ' || s[q - 1] == '`' || s[q - 1] == '*')) --q;
  const bool after_arrow = (q >= 2 && ArrowAt(s, q - 2) == 2) || (q >= 3 && ArrowAt(s, q - 3) == 3);
  if (after_arrow && arrow_left >= 0 && !f->derived) {
    // "bf16 96.1 -> fp8wire 56.5": their words; "d2560 14.71→14.82": the
    // word names both, the arrow's sides tell them apart.
    Figure& left = (*out)[static_cast<size_t>(arrow_left)];
    if (f->word.empty() || left.word.empty()) {
      if (f->word.empty()) f->word = left.word;
      left.named["arrow"] = "before", f->named["arrow"] = "after";
    }
  }
  return stat_named;
}

// Where the clause (`sentence`: the sentence) holding position `at` starts:
// after the previous ", ", ';', ':' (a sentence: ". " or ';'), at most
// 200 characters back. Bounded, so the scan stays linear.
size_t ClauseStart(const std::string& s, size_t at, bool sentence) {
  const size_t lim = at > 200 ? at - 200 : 0;
  size_t c = at;
  for (; c > lim; --c) {
    const char ch = s[c - 1];
    const bool spaced = c < s.size() && s[c] == ' ';
    if ((ch == '.' && spaced) || ch == ';') break;
    if (!sentence && ((ch == ',' && spaced) || ch == ':')) break;
  }
  return c;
}

// A statistic's word: "mean", "median", "p50", "tail-100".
bool StatisticWord(const std::string& w) {
  const std::string l = Lower(w);
  return StatWord(l) || (l.rfind("tail-", 0) == 0 && l.size() > 5 && std::isdigit(static_cast<unsigned char>(l[5])));
}

// A run's version tag as researchers name runs in prose ("v156"): 'v'
// and at least two digits ("h1024" is a shape, "v5" a harness version).
bool RunTag(const std::string& w) {
  return w.size() >= 4 && w[0] == 'v' &&
         std::all_of(w.begin() + 1, w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A clause's word that names no run: verbs, statistics, metric and window
// words ("control median MFU over steps 5-19 was" leaves "control").
bool SubjectFiller(const std::string& w, bool prose = false) {
  // In prose a number format names a run ("With fp8 the step takes 27.7 ms").
  static const std::set<std::string> dtype = {"bf16", "fp8", "fp16", "fp32", "int8", "int4"};
  if (prose && dtype.count(Lower(w))) return false;
  static const std::set<std::string> k = {"steps", "step", "window", "averaged", "over", "final", "runs", "takes",
                                          "ran", "median", "full-run", "samples", "sample", "two", "both", "run",
                                          "went", "dropped", "fell", "rose", "improved", "moved", "changed", "grew",
                                          "increased", "decreased", "goes", "time"};
  UnitInfo unit{};
  return NoName(w) || StatisticWord(w) || MetricWord(w) || MfuQualifier(Lower(w)) || k.count(Lower(w)) > 0 ||
         !IsIdentStart(w[0]) || UnitOf(w, &unit) || !std::all_of(w.begin(), w.end(), IsIdentChar);
}

// What the words around a figure name beyond the word before it: the
// statistic of its clause ("mean was 21.067%", "25.5% tail-100 median MFU"),
// the step window of its sentence ("Steps 60-79 averaged ..."), the run its
// clause is about ("treatment was 22.865%", "`dw13` at 7.23 ms"), and
// whether its sentence restates earlier work. `end`: past the figure's unit.
void ClauseNames(const std::string& s, size_t start, size_t end, bool stat_named, Figure* f, bool prose = false) {
  const size_t cb = ClauseStart(s, start, false);
  std::vector<std::string> clause = Words(s.substr(cb, start - cb));
  // "19.1% tail-40 median MFU and 19.0% ...": the words after the last figure.
  for (size_t n = clause.size(); n > 0; --n)
    if (std::isdigit(static_cast<unsigned char>(clause[n - 1][0])) &&
        (clause[n - 1].find('.') != std::string::npos || clause[n - 1].back() == '%')) {
      clause.erase(clause.begin(), clause.begin() + static_cast<std::ptrdiff_t>(n));
      UnitInfo unit{};  // and the words that qualify that figure ("tail-40 median MFU")
      while (!clause.empty() && (StatisticWord(clause[0]) || MfuQualifier(clause[0]) || MetricWord(clause[0]) ||
                                 UnitOf(clause[0], &unit)))
        clause.erase(clause.begin());
      if (clause.size() >= 2 && clause[0] == "at") clause.erase(clause.begin(), clause.begin() + 2);  // "... at EP8 and"
      break;
    }
  std::string stat;
  for (const auto& w : clause)
    if (StatisticWord(w)) stat += (stat.empty() ? "" : " ") + Lower(w);
  const bool clause_stat = !stat.empty();
  for (size_t p = end, n = 0; !clause_stat && n < 3; ++n) {  // "25.5% tail-100 median MFU"
    size_t e = p;
    const std::string w = WordAt(s, p, &e);
    if (w.empty() || !(StatisticWord(w) || MfuQualifier(w))) break;
    if (StatisticWord(w)) stat += (stat.empty() ? "" : " ") + Lower(w);
    p = e;
  }
  if (!stat.empty() && !stat_named && !f->derived && !f->named.count("statistic")) f->named["statistic"] = stat;
  const size_t sb = ClauseStart(s, start, true);
  f->sentence = sb;
  const std::vector<std::string> sentence = Words(s.substr(sb, start - sb));
  if (!sentence.empty() && RunTag(sentence[0])) f->run_tag = sentence[0];
  for (size_t n = 0; n < sentence.size(); ++n) {
    if (RestatingWord(sentence[n])) f->restated = true;
    if (prose && prose::HypotheticalWord(sentence[n])) f->not_run = "hypothetical (would, if, ideal ...), not a run";
    std::string w = sentence[n];
    if (Lower(w) == "steps" && n + 1 < sentence.size()) {
      std::string r = sentence[n + 1];
      while (!r.empty() && (r.back() == ',' || r.back() == ':')) r.pop_back();
      const size_t dash = r.find('-');
      if (dash != std::string::npos && dash > 0 && dash + 1 < r.size() &&
          std::all_of(r.begin(), r.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '-'; }))
        f->named["steps"] = r;
    }
  }
  if (!f->word.empty() || f->derived) return;
  static const std::set<std::string> link = {"at", "was", "is", "were", "had", "took"};
  if (clause.size() >= 2 && link.count(clause.back()) && !SubjectFiller(clause[clause.size() - 2], prose)) {
    f->word = clause[clause.size() - 2];  // "`dw13` at 7.23 ms"
    f->subject = true;
    return;
  }
  std::vector<std::string> names;
  for (const auto& w : clause) {
    std::string c = w;
    while (!c.empty() && (c.back() == ',' || c.back() == ':' || c.back() == '.')) c.pop_back();
    if (!c.empty() && !SubjectFiller(c, prose)) names.push_back(c);
  }
  if (names.size() == 1 && names[0].size() <= 24) f->word = names[0], f->subject = true;
  // "P1 finished at loss 5.14, gradient norm 0.49, and 192,583 tok/s": the
  // sentence's subject, the word before its first verb of a run's outcome.
  static const std::set<std::string> outcome = {"finished", "ran", "reached", "completed", "ended", "achieved"};
  for (size_t n = 1; f->word.empty() && n < sentence.size() && n < 12; ++n)
    if (outcome.count(Lower(sentence[n]))) {
      std::string w = sentence[n - 1];
      while (!w.empty() && (w.back() == ',' || w.back() == ':')) w.pop_back();
      if (!w.empty() && w.size() <= 24 && !SubjectFiller(w, prose) && std::all_of(w.begin(), w.end(), IsIdentChar))
        f->word = w, f->subject = true;
      break;
    }
}

// At most this many figures are read from one entry (one text likewise):
// past it, what reads them (naming, placing, telling apart) would grow with
// the square of their number.
constexpr size_t kMaxFiguresPerEntry = 512;

// The text a figure keeps of where it was read (to name it, list it, tell
// its labels): at most this much, so a long text of many figures is not
// copied whole into each of them (memory and time would grow with the text's
// length times its figures). Cut at a character's start.
constexpr size_t kMaxFigureText = 4096;
std::string FigureText(const std::string& text) {
  if (text.size() <= kMaxFigureText) return text;
  size_t n = kMaxFigureText;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

// The state of one scan of a text for figures (Figures).
struct FigureScan {
  explicit FigureScan(const std::string& text) : s(text) {}
  const std::string& s;
  ScanMode mode;
  std::vector<Figure> out;
  int depth = 0;
  size_t i = 0;
  int arrow_left = -1;     // index in `out` of a figure written before an arrow
  std::string arrow_unit;  // the unit the figure before the arrow was read in
  std::vector<Listed> listed;  // numbers of a " / " list waiting for its unit, their words
  size_t list_next = std::string::npos;                // where the list's next number starts
  bool comma_list = false;  // the list is "a X, b Y unit": each number has its own word
  size_t last_end = std::string::npos;  // past the unit of the last figure kept
  int from_figure = -1;  // index in `out` of a figure written after "from" (prose: "from 31.2 ms to 27.9 ms")
  int lists = 0;         // " / " lists read so far (Figure::list)
};

// A number glued to a word or '=' ("topk8", "v5p", "k=2", "1e+00") is no
// figure, unless a key names its unit ("time_s=0.0179"). True when the
// number at `st.i` was such and the scan stepped past it. The scan always
// steps past the character it stands on ('+' is no identifier character),
// so every loop here is linear.
bool GluedNumber(FigureScan& st, bool sign) {
  const std::string& s = st.s;
  size_t& i = st.i;
  if (Figure kv; !sign && i > 0 && s[i - 1] == '=' && st.depth == 0) {
    size_t end = i + 1;
    if (KeyValueFigure(s, i - 1, &end, &kv)) {
      st.listed.clear(), st.comma_list = false, st.list_next = std::string::npos, st.arrow_left = -1;
      st.out.push_back(kv);  // named by its key, not by the word before it
    }
    i = std::max(i + 1, end);
    while (i < s.size() && (IsIdentChar(s[i]) || s[i] == '.')) ++i;
    return true;
  }
  if (i > 0 && (IsIdentChar(s[i - 1]) || s[i - 1] == '=' || s[i - 1] == '.' || s[i - 1] == '/' || s[i - 1] == '@')) {
    ++i;
    while (i < s.size() && (IsIdentChar(s[i]) || s[i] == '.')) ++i;
    return true;
  }
  return false;
}

// A number that waits for a unit written after a later one: "13.2 / 13.1 /
// 12.8 %", "full `210.201`, prequeue `277.222` TF/s" (each named by its own
// word). True when it was listed and the scan moved to the next number.
bool ListedNumber(FigureScan& st, size_t start, size_t j, double value, bool sign) {
  const std::string& s = st.s;
  if (start != st.list_next) st.listed.clear(), st.comma_list = false;  // the list ended without a unit: no figures
  st.list_next = std::string::npos;
  if (const size_t next = sign ? std::string::npos : ListNext(s, j); next != std::string::npos && st.depth == 0) {
    if (st.comma_list) st.listed.clear(), st.comma_list = false;
    st.listed.push_back({value, st.listed.empty() ? WordBefore(s, start) : "", WrittenDecimals(s.substr(start, j - start))});
    st.list_next = st.i = next;
    return true;
  }
  if (const size_t e = !sign && st.depth == 0 ? CommaListNext(s, j) : std::string::npos;
      e != std::string::npos && (st.listed.empty() || st.comma_list)) {
    const std::string named = WordBefore(s, start);
    st.listed.push_back({value, NoName(named) ? "" : named, WrittenDecimals(s.substr(start, j - start))});
    st.comma_list = true;
    st.list_next = st.i = e;
    return true;
  }
  return false;
}

// An arrow right after a figure's unit ("12.3 ms -> 10.1 ms"); `at` is past the unit.
bool ArrowAfterUnit(const std::string& s, size_t at) {
  while (at < s.size() && (s[at] == ' ' || s[at] == '`' || s[at] == '*')) ++at;
  return at < s.size() && ArrowAt(s, at) > 0;
}

// What prose says of a figure beyond the words before it: a name after its
// unit ("13.6 s eager", "27.6 ms (fp8)", "31.3 ms in bf16") where none before
// it names it, an estimate ("~36 ms"), what a clause says it is a value of
// ("ragged backend = 96.2 ms"), and "from 31.2 ms to 27.9 ms" as before/after.
void ProseNames(FigureScan& st, size_t start, Figure* f) {
  const std::string& s = st.s;
  UnitInfo probe{};
  if (!f->word.empty() && SubjectFiller(f->word, true)) f->word.clear();  // "Throughput step 12.3 ms"
  if (f->word.empty() || f->subject)
    if (std::string post = prose::PostfixName(s, st.i);
        !post.empty() && !NoName(post) && !MetricWord(post) && !StatisticWord(post) && !UnitOf(post, &probe))
      f->word = post, f->subject = false;
  if (prose::Estimate(s, start)) f->not_run = "an estimate (\"~\"), not a measurement";
  if (prose::PartOf(s, st.i) || prose::WholeOf(s, start))
    f->not_run = "a part of a whole (\"X ms of a Y ms step\"), not a run";
  const size_t cb = ClauseStart(s, start, false);
  for (const auto& [k, v] : prose::NounPairs(s.substr(cb, start - cb))) f->named.emplace(k, v);
  const std::string before = Lower(WordBefore(s, start));
  if (before == "from") st.from_figure = static_cast<int>(st.out.size());
  if (before != "to" || st.from_figure < 0 || static_cast<size_t>(st.from_figure) >= st.out.size()) return;
  Figure& from = st.out[static_cast<size_t>(st.from_figure)];
  st.from_figure = -1;
  if (from.metric != f->metric || from.sentence != f->sentence) return;
  if (f->word.empty() || f->word == from.word) f->word = from.word, f->subject = from.subject;
  from.named["arrow"] = "before", f->named["arrow"] = "after";
}

// A figure read: named by its words, paired with the list waiting for its
// unit or with the key values after it ("0.95 % at EP2"), and kept.
void KeepFigure(FigureScan& st, Figure f, size_t start, double value, const std::string& unit, bool before_arrow,
                const std::string& num) {
  const std::string& s = st.s;
  f.decimals = f.decimals == -2 ? -1 : WrittenDecimals(num);
  ClauseNames(s, start, st.i, NameFigure(s, start, st.arrow_left, &st.out, &f), &f, st.mode.prose);
  // The last number of a " / " list: its clause's subject names no one number of it.
  if (f.subject && !st.listed.empty() && !f.derived) f.word.clear(), f.subject = false;
  if (!f.derived) f.restated = f.restated || prose::RestatingAround(s, start, st.i);  // "the 13.9 ms forward"
  if (st.mode.prose && !f.derived) ProseNames(st, start, &f);
  if (UnitInfo u{}; st.mode.prose && !f.derived && f.metric != kCarried && UnitOf(f.unit, &u)) st.mode.carry = f.unit;
  // "12.3 ms -> 10.1 ms": an arrow after the unit pairs it with the next figure.
  before_arrow = before_arrow || ArrowAfterUnit(s, st.i);
  st.last_end = st.i;
  st.arrow_left = before_arrow && !f.derived ? static_cast<int>(st.out.size()) : -1;
  st.arrow_unit = before_arrow && !f.derived ? unit : "";
  if (!st.listed.empty() && !f.derived && value != 0) {
    f.list = st.lists++;
    ShareListUnit(s, st.i, value, st.comma_list, st.listed, &f, &st.out);
    st.listed.clear();
    st.comma_list = false;
  } else if (!f.derived) {
    for (const auto& [k, v] : AtList(s, st.i, 1)) f.named[k] = v;
  }
  st.out.push_back(f);
}

// "4.1x slower than ring", "2.7x off the floor": a factor that is no
// speedup of the run it follows.
bool SpeedupOfNoRun(const std::string& s, size_t at) {
  size_t e = 0;
  const std::string w = Lower(WordAt(s, at, &e));
  return w == "slower" || w == "off" || w == "short" || w == "away" || w == "behind";
}

// "0.5852 ms (1433 GB/s)": a figure of another metric opening the
// parentheses right after a figure is the same run's, named as it is.
bool ParenCompanion(FigureScan& st, size_t start, Figure f, const std::string& num) {
  if (st.out.empty() || st.last_end == std::string::npos || st.last_end > start || st.depth != 1) return false;
  const Figure& prev = st.out.back();
  if (prev.derived || prev.metric == f.metric || f.metric == kNoUnit || prev.metric == kNoUnit) return false;
  int parens = 0;
  for (size_t k = st.last_end; k < start; ++k) {
    if (st.s[k] == '(') ++parens;
    else if (st.s[k] != ' ' && st.s[k] != '`' && st.s[k] != '*') return false;
  }
  if (parens != 1) return false;
  f.word = prev.word, f.named = prev.named, f.subject = prev.subject, f.sentence = prev.sentence;
  f.restated = prev.restated, f.run_tag = prev.run_tag, f.not_run = prev.not_run;
  f.decimals = f.decimals == -2 ? -1 : WrittenDecimals(num);
  st.out.push_back(f);
  return true;
}

std::vector<Figure> Figures(const std::string& s, bool bare_is_tflops = true, bool percent_is_mfu = false,
                            bool prose = false, const std::string& carry = "") {
  FigureScan st(s);
  st.mode.bare_is_tflops = bare_is_tflops, st.mode.percent_is_mfu = percent_is_mfu, st.mode.prose = prose;
  st.mode.carry = prose ? carry : "";
  size_t& i = st.i;
  while (i < s.size() && st.out.size() < kMaxFiguresPerEntry) {
    const char c = s[i];
    if (c == '(' || c == ')') {
      st.depth = c == '(' ? st.depth + 1 : std::max(0, st.depth - 1);
      ++i;
      continue;
    }
    const bool sign = (c == '+' || c == '-') && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]));
    if (!std::isdigit(static_cast<unsigned char>(c)) && !sign) { ++i; continue; }
    if (GluedNumber(st, sign)) continue;
    size_t j = i + (sign ? 1 : 0);
    const std::string num = DigitsAt(s, &j);
    const size_t start = i;
    i = j;
    // "33/64", "455/455": a fraction, no figure.
    if (j + 1 < s.size() && s[j] == '/' && std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
      i = j + 1;
      while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      continue;
    }
    const auto v = ParseNumber(num);
    if (!v || ListedNumber(st, start, j, *v, sign)) continue;
    Figure f;
    std::string unit;
    bool before_arrow = false;
    if (!FigureUnit(s, start, j, *v, sign, c == '-', st.mode, st.arrow_left, st.arrow_unit, &i, &f, &unit,
                    &before_arrow))
      continue;
    if (f.metric == "speedup" && SpeedupOfNoRun(s, i)) continue;
    if (!f.derived && prose::RangeEnd(s, start)) {  // "119 to 123 seconds", "60–81 ms": neither end is a run's
      f.not_run = "a range, not one run's figure";
      if (!st.out.empty() && st.last_end != std::string::npos && st.last_end <= start &&
          prose::RangeGap(s.substr(st.last_end, start - st.last_end)))
        st.out.back().not_run = f.not_run;  // its lower end: "17.22% to 17.29%"
    }
    // Asides, but for another metric of the figure before them, and for a
    // change written in parentheses ("MFU rose (19.41% -> 20.87%)").
    const bool paren_change = st.depth > 0 && (before_arrow || ArrowAfterUnit(s, i) ||
                                               (st.arrow_left >= 0 && AfterArrow(s, start)));
    if (st.depth > 0 && !f.derived && !paren_change) {
      if (ParenCompanion(st, start, f, num)) st.last_end = i;
      continue;
    }
    KeepFigure(st, f, start, *v, unit, before_arrow, num);
  }
  return std::move(st.out);
}

// What an entry's commands and Config say, for reading its Result.
struct EntryCtx {
  Config fixed;
  Vars vars;
  Config feeds;          // loop variable -> the flag it feeds
  bool generic = false;  // a harness moelog has no adapter for
  bool known = false;    // a harness moelog has an adapter for (bare numbers are its TF/s)
  bool mfu = false;      // the logbook measures MFU: a percentage is MFU
  bool tflops = false;   // the entry's Command or Config names TF/s: a bare figure is TF/s
  bool tflops_logbook = false;  // the logbook's Scope or Baseline names TF/s
  double tflops_example = 0;    // a TF/s figure the logbook writes there (0: none)
  std::set<std::string> own_text;  // words of the entry's heading and run fields (Command, Run, Runs, Run ID)
  std::map<std::string, Config> command_labels;  // "shared off" -> what its command sets apart from the others
  std::set<std::string> commands_vary;  // keys the commands set to different literal values (--hidden 2048 / 3072)
  bool names_time = false;  // the entry names a time measure and no TF/s ("time-based"): a bare figure is no TF/s
  std::string entry_id, file;
  // The entry's prose (paragraphs, then bullets), by line: what names the
  // unit of a table whose columns are values ("(ms/step)" in its caption,
  // "37.28 ms" in a sentence beside a cell 37.28).
  struct Text {
    int line = 0, end_line = 0;
    std::string text;
  };
  std::vector<Text> prose;
  bool repeats = false;  // the entry's commands repeat runs ("for rep in 1 2", "--repeats 3")
};

StoredRun NewRecorded(const EntryCtx& x, const Config& context, int line) {
  StoredRun r;
  r.config = x.fixed;
  for (const auto& [k, v] : context) r.config[k] = v;
  r.entry_id = x.entry_id;
  r.source = "recorded";
  r.file = x.file;
  r.line = line;
  return r;
}

// Whether a point has a figure of its own (not only speedups or deltas).
bool HasBaseMetric(const StoredRun& r) {
  for (const auto& [m, v] : r.metrics)
    if (!r.derived.count(m)) return true;
  return false;
}

// A column that checks a run rather than naming or measuring it
// ("Checksum", "Max abs diff", "Mismatches"): neither key nor figure.
bool CheckColumn(const std::string& header) {
  const std::string h = Lower(header);
  for (const char* w : {"checksum", "hash", "digest", "abs diff", "max diff", "mismatch", "error"})
    if (h.find(w) != std::string::npos) return true;
  return false;
}

// A label's plain words, lower case, without code spans or parentheses
// ("shared off (`topk=8`, forward)" -> "shared off").
std::string PlainLabel(const std::string& label) {
  std::string out;
  int depth = 0;
  bool code = false;
  for (char c : label) {
    if (c == '`') code = !code;
    else if (c == '(') ++depth;
    else if (c == ')') depth = std::max(0, depth - 1);
    else if (!code && depth == 0) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return parse_detail::Trim(out);
}

// Where a bullet's label ends: the first colon outside code that is
// followed by a space (or ends the text) after a short name ("`topk=2`:",
// "Non-EP result:"). A colon in a URL or a time ("03:06"), or after a
// sentence ("... succeeded. Steps 60-79: ..."), ends no label. npos if none.
size_t LabelEnd(const std::string& text) {
  bool in_code = false;
  int words = 0, depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`') in_code = !in_code;
    if (in_code) continue;
    // "fused 12.3 ms = 412 TF/s (comparison: 380 TF/s)": a colon in parentheses ends no label.
    if (c == '(' || c == ')') depth = c == '(' ? depth + 1 : std::max(0, depth - 1);
    if (depth > 0) continue;
    if (c == ' ' && i > 0 && text[i - 1] != ' ' && ++words > 8) return std::string::npos;
    if (c == '.' && i + 1 < text.size() && text[i + 1] == ' ') return std::string::npos;
    if (c == ':') return i + 1 >= text.size() || text[i + 1] == ' ' ? i : std::string::npos;
  }
  return std::string::npos;
}

// A label that says its percentages are shares of something ("Top kernels
// by share of GPU kernel time:", "Profile breakdown:"), not MFU.
bool NamesShares(const std::string& label) {
  const std::string l = Lower(label);
  for (const char* w : {"share", "fraction", "breakdown", "profile", "% of", "of gpu", "kernel time", "device time"})
    if (l.find(w) != std::string::npos) return true;
  return false;
}

// What a walk down a Result's bullets carries: the config its labels name,
// whether a label names TF/s ("forward TF/s:") and whether one says its
// figures restate earlier work ("Reference at ...:", "(from previous section)").
struct WalkScope {
  Config context;
  bool tflops = false, restated = false;
  bool check = false;  // a label names a correctness check ("Max abs diff:", "Correctness:")
  bool repeats = false;  // a bullet above says its runs repeat ("paired repeats ... were stable:")
  bool prose = false;  // a sentence of a paragraph, not a bullet
  bool loose = false;  // a paragraph's sentence or a bullet that is no field
  bool share = false;  // a label names shares ("Share of GPU kernel time:"): a percentage is no MFU
  std::string* carry = nullptr;  // a paragraph's last figure's unit, across its sentences (ScanMode::carry)
};

// The metric a figure written without a unit is in: TF/s where a label
// above it, the entry or (at the scale of its own TF/s figures) the logbook
// names TF/s and nothing nearer names time; "" when nothing names it.
bool BareIsTflops(const Figure& f, const EntryCtx& x, const WalkScope& w) {
  if (w.tflops) return true;
  if (x.names_time) return false;
  if (x.tflops) return true;
  if (!x.tflops_logbook) return false;
  return x.tflops_example <= 0 || (f.value >= x.tflops_example / 100 && f.value <= x.tflops_example * 100);
}

// The config the word before a figure names: a varied value, `topk8`, a
// boolean word, a short value; a choice of a flag the command sets;
// otherwise a variant of its own.
Config WordConfig(const Figure& f, const EntryCtx& x) {
  Config named;
  std::string key, value;
  if (!f.word.empty() && (KeyDigits(f.word, x.vars, &key, &value) || BoolWord(f.word, x.vars, &key, &value) ||
                          ShortValue(x.vars, f.word, &key, &value) || LooseValue(x.vars, f.word, &key, &value))) {
    named[key] = value;
  } else if (!f.word.empty() && !IsFixedValue(x.fixed, f.word)) {
    std::string k = KeyOfValue(x.vars, f.word);
    // A choice of a flag the command sets ("full" with `--queue-mode both`),
    // also when the command is elided (`... --queue-mode both`).
    if (k.empty() && x.fixed.count(ChoiceKey(f.word))) k = ChoiceKey(f.word);
    named[k.empty() ? "variant" : k] = f.word;
  }
  for (const auto& [k, v] : f.named) named[k] = v;  // "at EP2/4/8", an arrow's sides
  return named;
}

// "rows=2048/4096/8192: 210.5 / 305.1 / 388.7 TF/s": a label's value list
// with as many values as the bullet has unnamed figures of one metric (and no
// others of it) names each in order.
void SlashLabelList(const Config& context, const std::string& text, std::vector<Figure>* figures) {
  // Unnamed figures by metric (all of them), and each " / " list's when all of its are unnamed.
  std::map<std::string, std::vector<size_t>> unnamed;
  std::map<std::string, size_t> all;
  std::map<int, std::vector<size_t>> list;
  std::set<int> named_list;
  for (size_t i = 0; i < figures->size(); ++i) {
    const Figure& f = (*figures)[i];
    if (f.derived || f.not_run || f.restated) continue;
    ++all[f.metric];
    const bool free = f.word.empty() && f.named.empty();
    if (free) unnamed[f.metric].push_back(i);
    if (f.list >= 0) (free ? list[f.list].push_back(i) : (void)named_list.insert(f.list));
  }
  for (const auto& [id, idx] : list)
    if (!named_list.count(id)) unnamed["list " + std::to_string(id)] = idx, all["list " + std::to_string(id)] = idx.size();
  Config lists = context;
  // "... for low / center / high": the bullet's word list names a list of as many figures.
  if (const auto words = prose::ForWordList(text); !words.empty()) {
    std::string joined;
    for (const auto& w : words) joined += (joined.empty() ? "" : "/") + w;
    lists["variant"] = joined;
  }
  for (const auto& [k, v] : lists) {
    const std::vector<std::string> parts = SplitList(v, '/');
    if (parts.size() < 2 || parts.size() > 64 || v.find("//") != std::string::npos) continue;
    for (const auto& [metric, idx] : unnamed) {
      if (idx.size() != parts.size() || all[metric] != idx.size()) continue;
      for (size_t n = 0; n < idx.size(); ++n) (*figures)[idx[n]].named[k] = parts[n];
      return;
    }
  }
}

// A prose number in the unit of the figure before it ("ragged backend =
// 96.2 ms/step bf16; fp8gemm 92.2"): kept when a value of the entry's keys
// names it (its commands', its tables' columns), in that unit.
bool CarriedFigure(const EntryCtx& x, Figure* f) {
  std::string key, value;
  // "causal 2.880 -> 2.464": a change written in the paragraph's unit is one too.
  static const std::set<std::string> outcome = {"loss", "norm", "grad", "accuracy", "acc", "perplexity", "ppl",
                                                "drops", "dropped", "errors", "error", "count", "overflow", "step",
                                                "steps", "epoch", "lr", "rows", "tokens", "batch"};
  if (outcome.count(Lower(f->word))) return false;  // "loss 5.31 -> 5.02": no time, whatever came before
  const bool change = f->named.count("arrow") > 0 && !f->word.empty();
  if (!change && (f->word.empty() || (KeyOfValue(x.vars, f->word).empty() && !ShortValue(x.vars, f->word, &key, &value) &&
                                      !LooseValue(x.vars, f->word, &key, &value))))
    return false;
  UnitInfo info{};
  if (!UnitOf(f->unit, &info) || info.derived) return false;
  f->metric = info.metric;
  f->value = info.factor < 1 ? f->value / std::round(1 / info.factor) : f->value * info.factor;
  return true;
}

// A bullet's figures grouped into points: a figure that names something
// starts a new point; two figures of one metric in one point clash.
struct Point {
  Config cfg;
  StoredRun run;
  bool clash = false;
};

// Words that say figures repeat one configuration ("paired repeats",
// "`for rep in 1 2`", "--repeats 3", "3 trials").
bool SaysRepeats(const std::string& text) {
  const std::string l = Lower(text);
  for (const char* w : {"repeat", "for rep ", "for r in", "trials", "for trial", "reruns", "seeds"})
    if (l.find(w) != std::string::npos) return true;
  return false;
}

// Two or more unnamed figures of one metric in one point ("no_vjp: 191.837,
// 191.861, 191.897 TF/s"), where the text says runs repeat and the values lie
// within 5% of their median: repeats of the point's configuration. Its
// figure becomes their median, the repeats kept beside it; otherwise the
// point clashes (nothing tells its figures apart).
void KeepRepeats(const std::string& metric, std::vector<double> later, Point* p) {
  StoredRun* run = &p->run;
  std::vector<double> values = std::move(later);
  values.insert(values.begin(), run->metrics[metric]);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (median <= 0 || (sorted.back() - sorted.front()) > 0.05 * median) {
    p->clash = true;
    return;
  }
  run->metrics[metric] = median;
  run->repeats[metric] = std::move(values);
}
// A figure into its point: a metric of its own, or a second figure of one:
// two deltas tell nothing apart, a repeat (`may_repeat`) waits in `repeats`
// for KeepRepeats, anything else clashes.
void AddToPoint(const Figure& f, bool may_repeat, Point* p, std::vector<double>* repeats) {
  if (p->run.metrics.count(f.metric)) {
    if (f.derived) {
      p->run.metrics.erase(f.metric);
    } else if (may_repeat) {
      repeats->push_back(f.value);
      if (f.decimals >= 0) p->run.decimals.emplace(f.metric, f.decimals);  // a list's unit is written last
    } else {
      p->clash = true;
    }
    return;
  }
  p->run.metrics[f.metric] = f.value;
  p->run.units[f.metric] = f.unit.empty() ? "TF/s" : f.unit;
  if (f.decimals >= 0) p->run.decimals[f.metric] = f.decimals;
  if (f.derived) p->run.derived.insert(f.metric);
}

std::vector<Point> BulletPoints(const std::string& rest, const EntryCtx& x, const WalkScope& w, int line,
                                const std::string& text, std::vector<UnreadFigures>* unread) {
  std::vector<Point> points;
  bool no_unit = false, restated = false, unnamed = false;
  std::set<std::string> not_run;
  size_t sentence = 0;
  std::vector<Figure> figures =
      Figures(rest, x.known && !x.names_time, x.mfu && !w.share, w.prose, w.carry ? *w.carry : std::string());
  UnitInfo carried{};
  for (const auto& f : figures)
    if (w.carry && !f.derived && f.metric != kCarried && UnitOf(f.unit, &carried)) *w.carry = f.unit;
  SlashLabelList(w.context, rest, &figures);
  std::map<std::string, int> per_metric;
  for (const auto& f : figures) ++per_metric[f.metric];
  std::map<size_t, std::map<std::string, std::vector<double>>> repeats;  // point -> metric -> later values
  for (Figure f : figures) {
    if (f.metric == kCarried && !CarriedFigure(x, &f)) continue;  // prose numbers nothing names: no figures
    // A clause's subject names a figure only where it tells figures of one
    // metric apart ("control ... was 23.0%; treatment was 22.9%").
    if (f.subject && per_metric[f.metric] < 2) f.word.clear();
    if (f.restated || w.restated || (!f.run_tag.empty() && !x.own_text.count(f.run_tag))) {
      restated = restated || !f.derived;
      continue;
    }
    if (f.not_run) {
      not_run.insert(f.not_run);
      continue;
    }
    if (f.metric == kNoUnit) {
      if (f.value == 0) continue;  // "mismatches: `0`": a count, no run measures 0
      if (!BareIsTflops(f, x, w)) {
        no_unit = true;
        continue;
      }
      f.metric = "tflops";
    }
    Config named = WordConfig(f, x);
    if (named.empty() && !points.empty() && f.sentence != sentence && !f.derived) {
      unnamed = true;  // "...; corrected kernel takes 4.68 ms": not the named point's before it
      continue;
    }
    sentence = f.sentence;
    // "Steps 5-19 had 21.8% median MFU, 10.0-second median duration": the
    // same names over another metric add to the point.
    const bool joins = !points.empty() && points.back().cfg == named && !points.back().run.metrics.count(f.metric);
    if (!named.empty() && !joins) points.push_back({named, {}, false});
    else if (points.empty()) points.push_back({});
    AddToPoint(f, named.empty() && (w.repeats || x.repeats), &points.back(), &repeats[points.size() - 1][f.metric]);
  }
  for (auto& [i, by_metric] : repeats)
    for (auto& [metric, later] : by_metric)
      if (!later.empty()) KeepRepeats(metric, std::move(later), &points[i]);
  if (!unread) return points;
  if (no_unit) unread->push_back({line, text, "no unit, and nothing in the entry names its metric"});
  if (restated) unread->push_back({line, text, "restates earlier work (reference, comparison, remains ...), not this entry's run"});
  if (unnamed) unread->push_back({line, text, "a figure of a later sentence that nothing names"});
  for (const auto& why : not_run) unread->push_back({line, text, why});
  return points;
}

void Walk(const Bullet& b, WalkScope scope, const EntryCtx& x, std::vector<RecordedFigure>* out,
          std::vector<UnreadFigures>* unread, const std::string& text_override = "") {
  if (out->size() > kMaxFiguresPerEntry) return;  // past the entry's cap nothing more is kept: read no more
  const std::string& text = text_override.empty() ? b.text : text_override;
  if (const auto arms = prose::DotArms(text); !arms.empty()) {  // "ring EP4 21.3% / 12.1 s · a2a EP4 ..."
    Bullet one = b;
    one.children.clear();
    for (const auto& arm : arms) Walk(one, scope, x, out, unread, arm);
    if (text_override.empty())
      for (const auto& c : b.children) Walk(c, scope, x, out, unread);
    return;
  }
  const size_t colon = LabelEnd(text);
  std::string label = colon == std::string::npos ? "" : text.substr(0, colon);
  std::string rest = colon == std::string::npos ? text : text.substr(colon + 1);
  if (colon == std::string::npos && !b.children.empty() && Figures(text, x.known && !x.names_time).empty()) {
    label = text;  // "- `random`" over its figures' bullets names them all
    rest.clear();
  }
  Config own = LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds);
  // A parent written as sentences ("Initial matrix was noisy. Paired repeats
  // (`iters=5`) were stable:") names the keys in it, not a case.
  if (colon == std::string::npos && Words(label).size() > 8) own.erase("case");
  if (scope.prose) {  // a sentence's lead ("Job `...`:", "Target `k`:") is no run's name, "a2a impl:" is
    // "bf16: 31.4 ms; fp8: 27.8 ms": a short plain label names its figures.
    if (label.find('`') != std::string::npos || Words(label).size() > 2) own.erase("case");
    for (const auto& [k, v] : prose::NounPairs(label)) own.emplace(k, v);
  }
  if (auto it = x.command_labels.find(PlainLabel(label)); it != x.command_labels.end() && own.count("case")) {
    own.erase("case");  // "shared off (`topk=8`):" names the command labelled "shared off"
    for (const auto& [k, v] : it->second) own[k] = v;
  }
  if (own.count("case") && scope.context.count("case")) {
    // A nested case names a variant of its parent's case.
    own["variant"] = own["case"];
    own.erase("case");
  }
  for (const auto& [k, v] : own) scope.context[k] = v;
  // "forward TF/s:" over its figures' bullets names their unit.
  scope.tflops = scope.tflops || label.find("TF/s") != std::string::npos || label.find("TFLOP") != std::string::npos;
  for (const auto& w : Words(label)) scope.restated = scope.restated || RestatingWord(w);
  scope.check = scope.check || CheckColumn(label) || Lower(label).find("correctness") != std::string::npos;
  scope.repeats = scope.repeats || SaysRepeats(text);
  scope.share = scope.share || NamesShares(label);
  const std::string kept = FigureText(text);
  for (auto& p : scope.check ? std::vector<Point>{} : BulletPoints(rest, x, scope, b.line, kept, unread)) {
    if (p.clash && unread)
      unread->push_back({b.line, kept, "two figures of one metric and nothing naming each"});
    if (p.clash || !HasBaseMetric(p.run)) continue;
    StoredRun r = NewRecorded(x, scope.context, b.line);
    for (const auto& [k, v] : p.cfg) r.config[k] = v;
    r.metrics = std::move(p.run.metrics);
    r.units = std::move(p.run.units);
    r.derived = std::move(p.run.derived);
    r.decimals = std::move(p.run.decimals);
    r.repeats = std::move(p.run.repeats);
    out->push_back({std::move(r), b.line, kept, scope.loose});
  }
  if (!text_override.empty()) return;
  for (const auto& c : b.children) Walk(c, scope, x, out, unread);
}

// A Result's printed output block ("```text" with "current: 0.0374 s,
// 3,502,411 tok/s" lines under "shared_expert_dim=0:"), read as bullets:
// a line's deeper-indented lines below it are its children. RESULT lines
// are read by ResultLines. Linear: each line is visited once.
std::vector<Bullet> OutputBullets(const std::vector<std::pair<int, std::string>>& lines, size_t* i, int indent,
                                  int first_line) {
  std::vector<Bullet> out;
  while (*i < lines.size() && lines[*i].first >= indent) {
    Bullet b;
    b.text = lines[*i].second;
    b.line = first_line + static_cast<int>(*i);
    const int own = lines[*i].first;
    ++*i;
    if (*i < lines.size() && lines[*i].first > own) b.children = OutputBullets(lines, i, lines[*i].first, first_line);
    out.push_back(std::move(b));
  }
  return out;
}
std::vector<Bullet> OutputBullets(const FencedBlock& block) {
  std::vector<std::pair<int, std::string>> lines;  // indent, text
  std::vector<int> at;                              // each kept line's number in the block
  std::stringstream ss(block.text);
  int n = 0;
  for (std::string line; std::getline(ss, line); ++n) {
    const size_t ind = line.find_first_not_of(' ');
    if (ind == std::string::npos || line.compare(ind, 7, "RESULT ") == 0) continue;
    lines.emplace_back(static_cast<int>(ind), line.substr(ind));
    at.push_back(n);
  }
  size_t i = 0;
  std::vector<Bullet> out;
  while (i < lines.size()) {
    auto top = OutputBullets(lines, &i, lines[i].first, 0);
    out.insert(out.end(), top.begin(), top.end());
  }
  std::function<void(Bullet&)> renumber = [&](Bullet& b) {
    b.line = block.line + 1 + at[static_cast<size_t>(b.line)];
    for (auto& c : b.children) renumber(c);
  };
  for (auto& b : out) renumber(b);
  return out;
}

// The metric a table column holds, from its header: "TF/s", "tokens/s",
// "tok/s", "ms/step", "time (ms)", "s", "GB/s", "MFU", "speedup", and deltas
// ("delta tokens/s", "gain", "Δ"). "" for other columns.
struct ColumnInfo {
  std::string metric, unit, at;  // at: "0.1" for "tokens/s @0.1"
  double factor = 1;
  bool derived = false;
};
bool HasWord(const std::string& h, const std::string& w) {
  for (size_t p = h.find(w); p != std::string::npos; p = h.find(w, p + 1)) {
    const bool left = p == 0 || !std::isalnum(static_cast<unsigned char>(h[p - 1]));
    const size_t e = p + w.size();
    const bool right = e >= h.size() || !std::isalnum(static_cast<unsigned char>(h[e]));
    if (left && right) return true;
  }
  return false;
}
ColumnInfo ColumnMetric(const std::string& raw) {
  ColumnInfo c;
  std::string h = raw;
  if (size_t at = h.find('@'); at != std::string::npos) {
    size_t e = at + 1;
    while (e < h.size() && (std::isalnum(static_cast<unsigned char>(h[e])) || h[e] == '.' || h[e] == '_')) ++e;
    c.at = h.substr(at + 1, e - at - 1);
    h = h.substr(0, at) + h.substr(e);
  }
  std::string lower;
  for (char ch : h) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // "tok/s/GPU", "TFLOP/s/rank", "tokens/s per GPU": a figure per device.
  std::string per;
  for (const char* d : {"gpu", "rank", "device", "chip"})
    for (const std::string& form : {std::string("/") + d, std::string(" per ") + d})
      if (size_t at = lower.find(form); at != std::string::npos && per.empty()) {
        per = d;
        lower.erase(at, form.size());
        h.erase(at, form.size());
      }
  const bool delta = HasWord(lower, "delta") || HasWord(lower, "gain") || lower.find("\xCE\x94") != std::string::npos ||
                     HasWord(lower, "change") || lower.find("vs ") != std::string::npos;
  std::string base;
  if (h.find("TF/s") != std::string::npos || HasWord(lower, "tflops") || lower.find("tflop/s") != std::string::npos)
    base = "tflops", c.unit = "TF/s";
  else if (lower.find("tokens/s") != std::string::npos || lower.find("tok/s") != std::string::npos) base = "tokens_per_s", c.unit = "tokens/s";
  else if (lower.find("gb/s") != std::string::npos) base = "gb_per_s", c.unit = "GB/s";
  else if (HasWord(lower, "mfu")) base = "mfu", c.unit = "%";
  else if (HasWord(lower, "ms") || lower.find("(ms)") != std::string::npos || lower.rfind("ms/", 0) == 0)
    base = "time_s", c.unit = "ms", c.factor = 1e-3;
  else if (HasWord(lower, "us") || HasWord(lower, "\xC2\xB5s")) base = "time_s", c.unit = "us", c.factor = 1e-6;
  else if (lower == "s" || lower == "time (s)" || lower == "time_s" || lower == "seconds" || lower == "s/step")
    base = "time_s", c.unit = "s";
  else if (const auto w = Words(lower); !w.empty() && (w.back() == "s" || w.back() == "sec" || w.back() == "seconds" ||
                                                         w.back() == "s/step" || w.back() == "s/iter"))
    base = "time_s", c.unit = "s";  // "P50 step s", "median s/step"
  if (lower.rfind('%', 0) == 0) {
    // "% of 2587 ms step": a share of what the header names, not that unit.
    c.metric = "share_pct", c.unit = "%", c.factor = 1, c.derived = true;
    return c;
  }
  if (delta) {
    c.metric = base.empty() ? "delta_pct" : base + "_delta_pct";
    c.unit = "%";
    c.factor = 1;
    c.derived = true;
  } else if (HasWord(lower, "speedup")) {
    c.metric = "speedup", c.unit = "x", c.derived = true, c.factor = 1;
  } else {
    c.metric = base;
  }
  if (!per.empty() && !c.metric.empty() && !c.derived) {
    c.metric += "_per_" + per;
    c.unit += "/" + std::string(per == "gpu" ? "GPU" : per);
  }
  return c;
}

std::string Unticked(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char ch) { return ch == '`' || ch == '*'; }), s.end());
  return parse_detail::Trim(s);
}

// A cell's number as written: its value in the column's metric, the
// decimals it is written with when its unit is the column's (-1: "1.21M",
// "1.2 s" under ms), and whether the author wrote it as approximate.
struct CellValue {
  double value = 0;
  int decimals = -1;
  bool approximate = false;
};

// A cell's words around its number: an approximation mark before it ("~",
// "≈", "about", "approx.") and a parenthesis after it ("20.33 (1.153x)":
// the figure's derived speedup beside it) are the author's, not the number's.
std::string CellCore(std::string cell, bool* approximate) {
  *approximate = false;
  for (const char* mark : {"~", "\xE2\x89\x88", "about ", "approx. ", "approx ", "ca. "})
    if (cell.rfind(mark, 0) == 0) {
      cell = parse_detail::Trim(cell.substr(std::string(mark).size()));
      *approximate = true;
      break;
    }
  if (const size_t open = cell.find(" ("); open != std::string::npos && open > 0 && cell.back() == ')')
    cell = parse_detail::Trim(cell.substr(0, open));
  return cell;
}

// A cell's number: "1,572,435", "+27.29%", "1.182x", "23.51 ms", "~17.5",
// "0.069120s", "1.21M", "20.33 (1.153x)"; nullopt for "—", "n/a" and
// words. A unit written in the cell (a known one) converts the number to the
// column's metric.
std::optional<CellValue> CellNumber(std::string cell, const ColumnInfo& col) {
  CellValue out;
  cell = CellCore(std::move(cell), &out.approximate);
  if (!cell.empty() && cell.back() == '%') cell.pop_back();
  // "17.29% after growth": words after a percentage qualify it.
  if (const size_t pct = cell.find("% "); col.unit == "%" && pct != std::string::npos) cell.erase(pct);
  if (!cell.empty() && (cell.back() == 'x' || cell.back() == 'X') && col.metric == "speedup") cell.pop_back();
  size_t n = 0;
  while (n < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[n])) || cell[n] == '.' || cell[n] == ',' ||
                             (n == 0 && (cell[n] == '+' || cell[n] == '-'))))
    ++n;
  auto v = ParseNumber(cell.substr(0, n));
  if (!v) return std::nullopt;
  std::string unit = parse_detail::Trim(cell.substr(n));
  double scale = 1;
  if (!unit.empty() && (unit[0] == 'M' || unit[0] == 'k' || unit[0] == 'K' || unit[0] == 'B') &&
      (unit.size() == 1 || unit[1] == ' ')) {
    scale = unit[0] == 'M' ? 1e6 : unit[0] == 'B' ? 1e9 : 1e3;
    unit = parse_detail::Trim(unit.substr(1));
  }
  double factor = col.factor;
  UnitInfo info{};
  // "191.0k tok/s after growth": words after the unit qualify the figure.
  if (const size_t sp = unit.find(' '); sp != std::string::npos && UnitOf(unit.substr(0, sp), &info))
    unit = unit.substr(0, sp);
  if (!unit.empty() && UnitOf(unit, &info)) {
    const std::string m = info.metric;
    if (col.metric.size() < m.size() || col.metric.compare(col.metric.size() - m.size(), m.size(), m) != 0)
      return std::nullopt;  // a unit the column's metric is not measured in
    factor = info.factor;
  } else if (!unit.empty() && scale == 1) {
    return std::nullopt;  // "3 steps", "n/a"
  }
  out.value = factor < 1 ? *v * scale / std::round(1 / factor) : *v * scale * factor;
  // As written when no multiplier is glued to it and its unit is the column's.
  if (scale == 1 && (unit.empty() || factor == col.factor)) out.decimals = WrittenDecimals(cell.substr(0, n));
  return out;
}

// The metric a column without one in its header holds, from the units its
// cells are written in ("4.21 ms", "0.069120s"; "14.2%" beside a header
// "roofline": metric roofline in %). Empty when the cells say none.
ColumnInfo CellUnitMetric(const TableBlock& t, size_t c, const std::string& header) {
  ColumnInfo out;
  std::string unit;
  for (const auto& row : t.rows) {
    if (c >= row.size()) continue;
    bool approximate = false;
    std::string cell = CellCore(Unticked(row[c]), &approximate);
    if (cell.empty() || cell == "\xE2\x80\x94" || cell == "-") continue;
    // "62.9 -> 63.2 ms": the unit after the arrow is both sides'.
    for (size_t p = 0; p < cell.size(); ++p)
      if (size_t a = ArrowAt(cell, p); a > 0) {
        cell = CellCore(parse_detail::Trim(cell.substr(p + a)), &approximate);
        break;
      }
    size_t n = 0;
    while (n < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[n])) || cell[n] == '.' || cell[n] == ','))
      ++n;
    if (n == 0) return {};
    std::string u = parse_detail::Trim(cell.substr(n));
    // "189.6k tok/s", "191.0k tok/s after growth": a multiplier glued to the
    // number, words after the unit.
    if (u.size() > 2 && std::strchr("kKMB", u[0]) && u[1] == ' ') u = parse_detail::Trim(u.substr(1));
    if (const size_t sp = u.find(' '); sp != std::string::npos && u != "%") {
      UnitInfo probe{};
      if (UnitOf(u.substr(0, sp), &probe)) u = u.substr(0, sp);
    }
    if (u.empty() || (!unit.empty() && u != unit)) return {};
    unit = u;
  }
  UnitInfo info{};
  if (unit == "%") {
    std::string lower = SnakeKey(header);
    if (lower.empty() || !std::all_of(lower.begin(), lower.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        }))
      return {};
    out.metric = lower.find("mfu") != std::string::npos ? "mfu" : lower, out.unit = "%";
  } else if (!unit.empty() && UnitOf(unit, &info) && !info.derived) {
    out.metric = info.metric, out.unit = unit, out.factor = info.factor;
  }
  return out;
}

// Header words beside a metric's unit ("exposed collective ms/step" ->
// "exposed_collective"), for naming one of two columns of one metric.
std::string Qualifier(const std::string& header) {
  std::string q;
  for (const auto& w : Words(header)) {
    std::string lw = SnakeKey(w);
    UnitInfo info{};
    if (UnitOf(w, &info) || lw == "time" || lw == "(ms)" || lw == "(s)" || lw == "(us)" || lw == "tokens/s" ||
        lw == "tf/s" || lw == "mfu" || lw == "step" || lw == "per" || lw.find('/') != std::string::npos)
      continue;  // units ("TFLOP/s/rank", "ms/step") are the metric's, not its name
    std::string clean;
    for (char ch : lw) clean += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    while (!clean.empty() && clean.back() == '_') clean.pop_back();
    while (!clean.empty() && clean.front() == '_') clean.erase(clean.begin());
    if (!clean.empty()) q += (q.empty() ? "" : "_") + clean;
  }
  return q;
}

// Every column its own metric: when two columns hold one metric at one
// "@value", each but the plainest is named by its header's other words
// ("exposed_collective_time_s" beside "ms/step").
void NameColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> same;
  for (size_t c = 0; c < cols->size(); ++c)
    if (!(*cols)[c].metric.empty()) same[{(*cols)[c].metric, (*cols)[c].at}].push_back(c);
  for (const auto& [key, idx] : same) {
    if (idx.size() < 2) continue;
    size_t plain = idx.size();
    for (size_t i = 0; i < idx.size(); ++i)
      if (Qualifier(headers[idx[i]]).empty()) plain = i;
    for (size_t i = 0; i < idx.size(); ++i) {
      if (i == plain) continue;
      const std::string q = Qualifier(headers[idx[i]]);
      (*cols)[idx[i]].metric = (q.empty() ? "column" + std::to_string(idx[i] + 1) : q) + "_" + key.first;
    }
  }
}

// Keys that say nothing a row could confirm: derived ones, repetition and
// output settings.
bool NeutralKeyName(const std::string& k) { return !FollowedKey(k).empty() || IsIgnoredForPairing(k); }

// A table whose every metric column is a statistic over repeats, with
// their range ("Median (ms)", "Min-max (ms)", "Median useful TFLOP/s")
// summarizes figures written elsewhere: derived, not tabled. (Per-run
// statistics over steps, "Mean tok/s | P50 step s", give no range.)
bool SummaryTable(const std::vector<std::string>& headers, const std::vector<ColumnInfo>& cols) {
  bool range = false;
  for (size_t c = 0; c < cols.size(); ++c) {
    if (cols[c].metric.empty()) continue;
    const auto w = Words(Lower(headers[c]));
    const bool is_range = !w.empty() && (w[0].rfind("min-max", 0) == 0 || w[0] == "range");
    if (w.empty() || !(StatisticWord(w[0]) || is_range)) return false;
    range = range || is_range;
  }
  return range;
}

// A statistic of a metric's spread or tail ("p90", "p99", "max", "std"):
// beside the central figure (median, mean), never the figure itself.
bool SpreadStatistic(const std::string& w) {
  static const std::set<std::string> k = {"p1",  "p5",  "p10", "p25", "p75", "p90",    "p95",    "p99", "p999",
                                          "min", "max", "std", "stdev", "stddev", "sd", "iqr", "worst"};
  return k.count(Lower(w)) > 0;
}

// Statistic columns ("median ms | p90", "mean tok/s | max"): a header that
// is a statistic alone holds the metric (and unit) of the nearest metric
// column before it, else after it; a spread statistic names its column's
// metric ("p90_time_s"), so the tail is never read as the central figure
// nor as a configuration key.
void StatisticColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  auto base = [&](size_t c) -> const ColumnInfo* {
    for (size_t d = c; d-- > 0;)
      if (!(*cols)[d].metric.empty() && !(*cols)[d].derived) return &(*cols)[d];
    for (size_t d = c + 1; d < cols->size(); ++d)
      if (!(*cols)[d].metric.empty() && !(*cols)[d].derived) return &(*cols)[d];
    return nullptr;
  };
  std::vector<ColumnInfo> out = *cols;
  for (size_t c = 0; c < cols->size(); ++c) {
    const auto w = Words(Lower(headers[c]));
    if (w.empty() || !(StatisticWord(w[0]) || SpreadStatistic(w[0]))) continue;
    if (out[c].metric.empty() && w.size() == 1) {
      const ColumnInfo* b = base(c);
      if (b == nullptr) continue;
      out[c] = *b;
    }
    if (!out[c].metric.empty() && !out[c].derived && SpreadStatistic(w[0])) out[c].metric = w[0] + "_" + out[c].metric;
  }
  *cols = std::move(out);
}

// The metric each column of a table holds (from its header, else from the
// units its cells are written in), every column its own metric.
std::vector<ColumnInfo> TableColumns(const TableBlock& t, std::vector<std::string>* headers) {
  std::vector<ColumnInfo> cols;
  for (size_t c = 0; c < t.header.size(); ++c) {
    headers->push_back(Unticked(t.header[c]));
    cols.push_back(ColumnMetric(headers->back()));
    if (cols.back().metric.empty()) cols.back() = CellUnitMetric(t, c, headers->back());
  }
  StatisticColumns(*headers, &cols);
  NameColumns(*headers, &cols);
  return cols;
}

// The key the "@value" columns name: one the entry varies with such a
// value, else one it sets to one of them ("tokens/s @0.0 | tokens/s @0.1"
// beside --null-route-frac 0.0). Every "@" column of a table names one key.
std::string AtKey(const std::vector<ColumnInfo>& cols, const EntryCtx& x) {
  std::string at_key;
  for (const auto& c : cols)
    if (!c.at.empty() && at_key.empty()) at_key = KeyOfValue(x.vars, c.at);
  for (const auto& c : cols)
    for (const auto& [k, v] : x.fixed)
      if (!c.at.empty() && at_key.empty() && !NeutralKeyName(k) && ValuesEqual(v, c.at)) at_key = k;
  return at_key;
}

// A column of what a run came out with other than its speed: what it
// dropped or overflowed ("dropped", "overflows") or the model's quality
// ("final loss", "accuracy", "grad norm"). Neither its configuration nor a
// performance figure.
bool OutcomeCount(const std::string& header) {
  const auto w = Words(Lower(header));
  if (w.empty()) return false;
  static const std::set<std::string> k = {"dropped", "drops", "drop", "overflow", "overflows", "overflowed", "skipped"};
  static const std::set<std::string> quality = {"loss", "accuracy", "acc", "perplexity", "ppl", "norm", "eval"};
  for (const auto& word : w)
    if (quality.count(word)) return true;
  // "Boundary step", "common step": where in a training run, not what ran.
  if (w.size() >= 2 && (w.back() == "step" || w.back() == "update" || w.back() == "epoch")) return true;
  return k.count(w[0]) > 0 || k.count(w.back()) > 0;
}

// A column of remarks ("Notes", "Comment"): the author's prose about the
// row, not its configuration.
bool RemarkColumn(const std::string& header) {
  static const std::set<std::string> k = {"notes", "note", "comment", "comments", "remarks", "remark", "observations"};
  return k.count(Lower(parse_detail::Trim(header))) > 0;
}

// A label cell of a row: a varied value, a key's column, a generic
// harness's column word (and the keys it names), else part of the label.
void LabelCell(const std::string& header, std::string cell, const EntryCtx& x, Config* cfg, std::string* label) {
  if (cell.empty() || cell == "\xE2\x80\x94" || cell == "-" || CheckColumn(header) || OutcomeCount(header) ||
      RemarkColumn(header))
    return;
  // "— send/recv metadata": a part of the row above, named by its words.
  for (const char* dash : {"\xE2\x80\x94 ", "\xE2\x80\x93 ", "- "})
    if (cell.rfind(dash, 0) == 0) cell = parse_detail::Trim(cell.substr(std::string(dash).size()));
  // "9.0e-2" under "relfrob(dx)": a quantity of no metric moelog knows,
  // not a name of the run.
  if (char* end = nullptr; cell.find_first_of("eE") != std::string::npos &&
                           std::isdigit(static_cast<unsigned char>(cell[0])) &&
                           (std::strtod(cell.c_str(), &end), end == cell.c_str() + cell.size()))
    return;
  const std::string key = NormalizeKey(Unticked(header));
  if (std::string k = KeyOfValue(x.vars, cell); !k.empty()) {
    (*cfg)[k] = cell;
  } else if (IsRunKey(key) || x.vars.count(key) || x.fixed.count(key)) {
    (*cfg)[key] = cell;
  } else if (x.generic && !key.empty() && std::all_of(key.begin(), key.end(), [](char ch) {
               return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
             })) {
    (*cfg)[key] = cell;  // "arm: EP8 2 nodes": the column's word, and the keys it names
    Config named = LabelConfig(cell, x.vars, x.fixed, x.generic, &x.feeds);
    named.erase("case");
    for (const auto& [k, v] : named) (*cfg)[k] = v;
  } else {
    *label += (label->empty() ? "" : ", ") + cell;
  }
}

// A cell holding one number: with an approximation mark, a unit or a
// parenthesis of its own ("23.44", "20.33 (1.153x)", "~37 ms"); the unit it
// is written with goes to `unit` ("" for none).
bool NumberCell(const std::string& raw, std::string* unit) {
  bool approximate = false;
  const std::string cell = CellCore(Unticked(raw), &approximate);
  size_t n = 0;
  while (n < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[n])) || cell[n] == '.' || cell[n] == ','))
    ++n;
  if (n == 0 || !ParseNumber(cell.substr(0, n))) return false;
  *unit = parse_detail::Trim(cell.substr(n));
  UnitInfo info{};
  return unit->empty() || (UnitOf(*unit, &info) && !info.derived);
}

bool EmptyCell(const std::string& raw) {
  const std::string c = Unticked(raw);
  return c.empty() || c == "\xE2\x80\x94" || c == "-" || c == "\xE2\x80\x93" || Lower(c) == "n/a" || c == "OOM";
}

// The two sides of a cell "62.933 -> 63.249" ("A \u2192 B ms"): a control
// and its treatment, two figures. False for a cell without an arrow.
bool ArrowCell(const std::string& cell, std::string* before, std::string* after) {
  for (size_t p = 0; p < cell.size(); ++p)
    if (size_t a = ArrowAt(cell, p); a > 0) {
      *before = parse_detail::Trim(cell.substr(0, p));
      *after = parse_detail::Trim(cell.substr(p + a));
      return !before->empty() && !after->empty();
    }
  return false;
}

// The side of an arrow a figure set holds, in its "@value" key.
constexpr char kSide = '\x1f';

// A metric cell of a row, into the figure set of its "@value" (and side of
// an arrow: "A -> B" gives a "before" and an "after" figure).
void MetricCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at) {
  std::string before, after;
  if (ArrowCell(cell, &before, &after)) {
    // "62.9 -> 63.2 ms": the unit written after the second names the first too.
    std::string unit, u0;
    if (NumberCell(after, &unit) && !unit.empty() && NumberCell(before, &u0) && u0.empty()) before += " " + unit;
    ColumnInfo side = col;
    side.at = col.at + kSide + "1before";  // the digit keeps the sides in order
    MetricCell(before, side, by_at);
    side.at = col.at + kSide + "2after";
    MetricCell(after, side, by_at);
    return;
  }
  auto v = CellNumber(cell, col);
  if (!v) return;
  StoredRun& run = (*by_at)[col.at];
  run.metrics[col.metric] = v->value;
  run.units[col.metric] = col.unit;
  if (v->decimals >= 0) run.decimals[col.metric] = v->decimals;
  if (v->approximate) run.approximate.insert(col.metric);
  if (col.derived) run.derived.insert(col.metric);
}

// A header that is one value word ("bf16", "fp8wire", "ring_x"): a letter
// first, no space; not a key's name, a statistic, a check or a remark.
bool ValueHeader(const std::string& h, const EntryCtx& x) {
  // "(128,64)", "4096", "128x64": a tuple or number names a value too.
  if (!h.empty() && h.size() <= 24 && (h[0] == '(' || std::isdigit(static_cast<unsigned char>(h[0]))))
    return std::all_of(h.begin(), h.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == '(' || c == ')' || c == ',' || c == 'x' || c == '.';
    });
  if (h.empty() || h.size() > 32 || !IsIdentStart(h[0])) return false;
  for (char c : h)
    if (!IsIdentChar(c) && c != '.' && c != '+') return false;
  const std::string key = NormalizeKey(h);
  return !IsRunKey(key) && !x.vars.count(key) && !x.fixed.count(key) && !StatisticWord(h) && !SpreadStatistic(h) &&
         !CheckColumn(h) && !OutcomeCount(h) && !RemarkColumn(h) && ColumnMetric(h).metric.empty();
}

// A results table whose columns are values of one key ("| scale | layout |
// bf16 | fp8gemm | fp8wire |", a time in each cell): the columns whose
// header is a value word and whose cells are numbers, when two or more are
// and no column's header names a figure of its own (a speedup aside).
std::vector<size_t> ValueColumns(const TableBlock& t, const std::vector<std::string>& headers, const EntryCtx& x) {
  std::vector<size_t> out;
  std::set<std::string> units;
  for (size_t c = 0; c < headers.size(); ++c) {
    if (const ColumnInfo h = ColumnMetric(headers[c]); !h.metric.empty() && !h.derived) return {};
    if (!ValueHeader(headers[c], x)) continue;
    bool numbers = true, any = false;
    for (const auto& row : t.rows) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      std::string unit;
      numbers = numbers && NumberCell(row[c], &unit);
      any = true;
    }
    if (!numbers || !any) continue;
    out.push_back(c);
    const ColumnInfo cells = CellUnitMetric(t, c, headers[c]);  // before NameColumns named it by its header
    units.insert(cells.metric + "|" + cells.unit);
  }
  if (out.size() < 2 || units.size() != 1) return {};
  return out;
}

// The unit a caption names ("Final table (ms/step):", "times in ms"): one
// unit word not right after a number (that is a figure), one metric only.
ColumnInfo CaptionUnit(const std::string& text) {
  ColumnInfo out;
  std::string prev;
  for (std::string w : Words(text)) {
    while (!w.empty() && std::strchr("(),:;*.`", w.back())) w.pop_back();
    while (!w.empty() && std::strchr("(*`", w.front())) w.erase(w.begin());
    UnitInfo info{};
    const bool after_number = !prev.empty() && std::isdigit(static_cast<unsigned char>(prev.back()));
    prev = w;
    if (w.empty() || w == "x" || w == "X" || w == "s" || after_number || !UnitOf(w, &info) || info.derived) continue;
    if (!out.metric.empty() && out.metric != info.metric) return {};
    out.metric = info.metric, out.unit = w, out.factor = info.factor;
  }
  return out;
}

// Whether the entry's prose writes one of the table's numbers with a unit
// ("EP16: 37.28 ms" beside a cell 37.28): that unit, when one metric only.
ColumnInfo ProseUnit(const TableBlock& t, const std::vector<size_t>& vcols, const EntryCtx& x) {
  std::set<std::string> cells;
  for (const auto& row : t.rows)
    for (size_t c : vcols)
      if (c < row.size() && !EmptyCell(row[c])) {
        bool approximate = false;
        const std::string core = CellCore(Unticked(row[c]), &approximate);
        cells.insert(core.substr(0, core.find_first_not_of("0123456789.,")));
      }
  ColumnInfo out;
  for (const auto& p : x.prose)
    for (const auto& f : Figures(p.text, false, false)) {
      UnitInfo info{};
      if (f.derived || f.unit.empty() || !UnitOf(f.unit, &info) || f.decimals < 0) continue;
      const double written = info.factor < 1 ? f.value * std::round(1 / info.factor) : f.value / info.factor;
      const std::string num = Fixed(written, f.decimals);
      if (!cells.count(num)) continue;
      if (!out.metric.empty() && out.metric != info.metric) return {};
      out.metric = info.metric, out.unit = f.unit, out.factor = info.factor;
    }
  return out;
}

// The metric of a value-columns table's cells: the unit they are written
// in, else the one its caption (the text right above it) names, else the
// one the entry's prose writes one of its numbers with.
ColumnInfo ValueMetric(const TableBlock& t, const std::vector<size_t>& vcols, const std::vector<ColumnInfo>& cols,
                       const EntryCtx& x) {
  if (!cols[vcols[0]].metric.empty()) return CellUnitMetric(t, vcols[0], "");
  for (const auto& p : x.prose)
    if (p.end_line < t.line && p.end_line >= t.line - 2)
      if (ColumnInfo c = CaptionUnit(p.text); !c.metric.empty()) return c;
  return ProseUnit(t, vcols, x);
}

// The key a table's value columns name: one the entry varies with all of
// them as values, else one it sets to one of them, else "variant".
std::string ValueKey(const std::vector<std::string>& headers, const std::vector<size_t>& vcols, const EntryCtx& x) {
  std::string key = KeyOfValue(x.vars, headers[vcols[0]]);
  for (size_t c : vcols)
    if (key.empty() || KeyOfValue(x.vars, headers[c]) != key) key.clear();
  if (!key.empty()) return key;
  for (size_t c : vcols)
    for (const auto& [k, v] : x.fixed)
      if (v == headers[c] && k != "harness" && k != "accelerator" && !NeutralKeyName(k)) return k;
  return "variant";
}

// A table of values by column: each number one run, keyed by its row's
// labels and its column's value. A derived column ("best speedup") is the
// row's, no run. False when the table is no such table.
bool ValueTableFigures(const TableBlock& t, const std::vector<std::string>& headers,
                       const std::vector<ColumnInfo>& cols, const Config& context, const EntryCtx& x,
                       std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  const std::vector<size_t> vcols = ValueColumns(t, headers, x);
  if (vcols.empty()) return false;
  ColumnInfo metric = ValueMetric(t, vcols, cols, x);
  if (metric.metric.empty()) {
    if (unread) unread->push_back({t.line, "| " + headers.front() + " | ...", "a table of values by column (" + headers[vcols[0]] + ", " + headers[vcols[1]] + ", ...) that names no unit"});
    return true;
  }
  const std::string key = ValueKey(headers, vcols, x);
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    const int line = t.line + 2 + static_cast<int>(r);
    Config cfg = context;
    std::string label, text = "|";
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c)
      if (cols[c].metric.empty() && std::find(vcols.begin(), vcols.end(), c) == vcols.end())
        LabelCell(t.header[c], Unticked(row[c]), x, &cfg, &label);
    for (const auto& [k, v] : LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds)) cfg[k] = v;
    for (const auto& cell : row) text += " " + cell + " |";
    text = FigureText(text);
    for (size_t c : vcols) {
      std::map<std::string, StoredRun> figs;
      if (c < row.size()) MetricCell(Unticked(row[c]), metric, &figs);
      if (figs.empty() || !HasBaseMetric(figs[""])) continue;
      StoredRun run = NewRecorded(x, cfg, line);
      run.config[key] = headers[c];
      run.metrics = figs[""].metrics, run.units = figs[""].units, run.decimals = figs[""].decimals;
      run.approximate = figs[""].approximate;
      out->push_back({std::move(run), line, text, false, true});
    }
  }
  return true;
}

// A label column that names goals, targets, expectations or budgets.
bool PlanHeader(const std::string& header) {
  std::string h = Lower(header);
  for (const char* w : {"goal", "goals", "target", "targets", "expected", "expectation", "expectations", "projected",
                        "projection", "estimate", "estimated", "budget", "threshold", "plan", "planned"})
    if (h == w) return true;
  return false;
}

// A table written in an entry: each row a figure set (one per "@value" of
// its columns). Columns named by a config key give its value; other label
// columns are read like bullet labels (bare varied values, `topk8`, shapes
// such as 32768x2048x1408x60); metric columns give the figures. moelog's own
// tables (in its regions, headed "time (ms)") are not the logbook's words.
void TableFigures(const TableBlock& t, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread) {
  if (std::find(t.header.begin(), t.header.end(), "time (ms)") != t.header.end() && !x.generic) return;
  std::vector<std::string> headers;
  const std::vector<ColumnInfo> cols = TableColumns(t, &headers);
  if (SummaryTable(headers, cols)) {
    if (unread) unread->push_back({t.line, "| " + headers.front() + " | ...", "a table of statistics over repeats: derived, not tabled"});
    return;
  }
  // A first column of goals or expectations ("| goal | ms/step |", "| target
  // |", "| expected |"): the table plans, it records no run.
  if (PlanHeader(headers.front())) {
    if (unread) unread->push_back({t.line, "| " + headers.front() + " | ...", "a table of goals or expectations: no run"});
    return;
  }
  // Columns of differences or error counts ("max / mean abs diff", "Valid
  // errors"): the table times a correctness check, not a benchmark.
  for (const auto& h : headers)
    if (CheckColumn(h) && Lower(h).find("checksum") == std::string::npos) {
      if (unread) unread->push_back({t.line, "| " + headers.front() + " | ...", "a correctness check (differences, error counts): no benchmark figure"});
      return;
    }
  if (ValueTableFigures(t, headers, cols, context, x, out, unread)) return;
  const std::string at_key = AtKey(cols, x);
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    const int line = t.line + 2 + static_cast<int>(r);
    Config cfg = context;
    std::string label;
    std::map<std::string, StoredRun> by_at;  // "@value" ("" for none) -> figures
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c) {
      if (!cols[c].metric.empty()) MetricCell(Unticked(row[c]), cols[c], &by_at);
      else LabelCell(t.header[c], Unticked(row[c]), x, &cfg, &label);
    }
    for (const auto& [k, v] : LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds)) cfg[k] = v;
    std::string text = "|";
    for (const auto& cell : row) text += " " + cell + " |";
    text = FigureText(text);
    for (auto& [at_side, figs] : by_at) {
      if (!HasBaseMetric(figs)) continue;
      StoredRun run = NewRecorded(x, cfg, line);
      const size_t side = at_side.find(kSide);
      const std::string at = at_side.substr(0, side);
      if (!at.empty()) run.config[at_key.empty() ? "at" : at_key] = at;
      if (side != std::string::npos) run.config["arrow"] = at_side.substr(side + 2);
      run.metrics = figs.metrics;
      run.units = figs.units;
      run.derived = figs.derived;
      run.decimals = figs.decimals;
      run.approximate = figs.approximate;
      out->push_back({std::move(run), line, text, false, true});
    }
  }
}

// A harness's own machine-readable line in a Result's output block:
// "RESULT impl=fused_w13 tokens=32768 time_ms=21.90 tflops=203.6
// tokens_per_s=1496255". Its metric keys give the figures, the others the
// configuration. One pass per line.
void ResultLines(const std::string& text, int first_line, const Config& context, const EntryCtx& x,
                 std::vector<RecordedFigure>* out) {
  struct MetricKey {
    const char* metric;
    double factor;
    const char* unit;
  };
  static const std::map<std::string, MetricKey> kMetrics = {
      {"tflops", {"tflops", 1, "TF/s"}},          {"tflops_per_s", {"tflops", 1, "TF/s"}},
      {"time_ms", {"time_s", 1e-3, "ms"}},         {"time_s", {"time_s", 1, "s"}},
      {"time_us", {"time_s", 1e-6, "us"}},         {"tokens_per_s", {"tokens_per_s", 1, "tokens/s"}},
      {"tok_per_s", {"tokens_per_s", 1, "tokens/s"}}, {"gb_per_s", {"gb_per_s", 1, "GB/s"}},
      {"mfu", {"mfu", 1, "%"}}};
  std::stringstream ss(text);
  int n = 0;
  for (std::string line; std::getline(ss, line); ++n) {
    line = parse_detail::Trim(line);
    if (line.rfind("RESULT ", 0) != 0) continue;
    StoredRun figs;
    Config cfg = context;
    for (const auto& w : Words(line.substr(7))) {
      const size_t eq = w.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size()) continue;
      const std::string key = x.generic ? SnakeKey(w.substr(0, eq)) : NormalizeKey(w.substr(0, eq));
      const std::string value = w.substr(eq + 1);
      if (auto it = kMetrics.find(key); it != kMetrics.end()) {
        auto v = ParseNumber(value);
        if (!v) continue;
        const MetricKey& m = it->second;
        figs.metrics[m.metric] = m.factor < 1 ? *v / std::round(1 / m.factor) : *v * m.factor;
        figs.units[m.metric] = m.unit;
        figs.decimals[m.metric] = WrittenDecimals(value);
      } else {
        cfg[key] = value;
      }
    }
    if (!HasBaseMetric(figs)) continue;
    const int at = first_line + 1 + n;
    StoredRun run = NewRecorded(x, cfg, at);
    run.metrics = figs.metrics;
    run.units = figs.units;
    run.decimals = figs.decimals;
    out->push_back({std::move(run), at, line});
  }
}

// The context of a table under a sub-heading of the entry ("#### `topk=8`,
// `null=0.1` vs `null=0.0`"): the keys the nearest sub-heading above it
// names (not a case: a heading's words are a title).
Config Under(const Entry& e, int line, Config context, const EntryCtx& x) {
  const Entry::SubHeading* near = nullptr;
  for (const auto& h : e.subheadings)
    if (h.line < line) near = &h;
  if (near == nullptr) return context;
  Config named = LabelWords(near->text, x.vars, x.fixed, x.generic, &x.feeds);
  for (const auto& [k, v] : named) context[k] = v;
  return context;
}

// A value the command fixes that some figures' labels name ("ring layer:"
// beside --layer-impl ring) is not the value of figures whose labels name
// something else ("baseline layer:"): the key is dropped from those (never
// guessed). Words only; numbers are no such names.
void UnstampOthers(const EntryCtx& x, std::vector<RecordedFigure>* out) {
  auto names = [](const std::string& text, const std::string& v) {
    for (const auto& w : Words(text)) {
      std::string t = w;
      while (!t.empty() && (t.back() == ':' || t.back() == ',')) t.pop_back();
      if (t == v) return true;
    }
    return false;
  };
  for (const auto& [k, v] : x.fixed) {
    if (v.empty() || !IsIdentStart(v[0]) || k == "harness" || k == "accelerator") continue;
    bool some = false;
    for (const auto& f : *out) some = some || names(f.text, v);
    if (!some) continue;
    for (auto& f : *out)
      if (!names(f.text, v) && (f.run.config.count("case") || f.run.config.count("variant"))) f.run.config.erase(k);
  }
}

// A key the entry's commands set to different values ("--hidden 2048" in
// the first, "--hidden 3072" in a "larger-shape check"), named by some
// figures' labels but never with the first command's value: the figures
// that name none take the first command's ("`shared=0, topk=8`" beside
// "`hidden=3072, ..., topk=8`" is the 2048 run).
void FirstCommandDefaults(const EntryCtx& x, std::vector<RecordedFigure>* out) {
  for (const auto& k : x.commands_vary) {
    auto vals = x.vars.find(k);
    if (vals == x.vars.end() || vals->second.empty()) continue;
    std::set<std::string> named;
    for (const auto& f : *out)
      if (auto it = f.run.config.find(k); it != f.run.config.end()) named.insert(it->second);
    if (named.empty() || named.count(vals->second.front())) continue;
    for (auto& f : *out) f.run.config.emplace(k, vals->second.front());
  }
}

}  // namespace

bool TflopsLogbook(const Logbook& logbook) {
  for (SectionKind k : {SectionKind::kScope, SectionKind::kBaseline})
    if (const Section* sec = logbook.FindSection(k))
      for (const auto& b : sec->bullets)
        if (NamesTflops(b)) return true;
  return false;
}

double TflopsExample(const Logbook& logbook) {
  std::function<double(const Bullet&)> first = [&](const Bullet& b) -> double {
    if (NamesTflops(b))
      for (const auto& f : Figures(b.text, true))
        if (f.metric == "tflops" && f.value > 0) return f.value;
    for (const auto& c : b.children)
      if (double v = first(c); v > 0) return v;
    return 0;
  };
  for (SectionKind k : {SectionKind::kScope, SectionKind::kBaseline})
    if (const Section* sec = logbook.FindSection(k))
      for (const auto& b : sec->bullets)
        if (double v = first(b); v > 0) return v;
  return 0;
}

bool MfuLogbook(const Logbook& logbook) {
  auto names = [](const std::string& t) { return t.find("MFU") != std::string::npos; };
  if (names(logbook.title)) return true;
  if (const Section* scope = logbook.FindSection(SectionKind::kScope))
    for (const auto& b : scope->bullets)
      if (b.text.find("metric") != std::string::npos && names(b.text)) return true;
  return false;
}

namespace {

// Words that name a time measure: an entry that writes them and no TF/s
// records times, whatever the harness prints.
bool NamesTime(const Bullet& b) {
  for (const char* w : {"time-based", "runtime", "latency", "wall time", "step time"})
    if (BulletHas(b, w)) return true;
  return false;
}

// What names the unit of a figure written without one, nearest first: a
// label above it (WalkScope), the entry's fields, the logbook.
void EntryUnits(const Entry& entry, bool tflops_logbook, double tflops_example, EntryCtx* x) {
  x->tflops_logbook = tflops_logbook;
  x->tflops_example = tflops_example;
  for (const char* name : {"Command", "Config"})
    if (const Field* f = entry.FindField(name)) x->tflops = x->tflops || NamesTflops(f->bullet);
  bool says_time = false, writes_tflops = false;
  for (const auto& f : entry.fields) {
    says_time = says_time || NamesTime(f.bullet);
    writes_tflops = writes_tflops || NamesTflops(f.bullet);
  }
  x->names_time = says_time && !writes_tflops;
}

// Command sub-bullets with labels ("- shared off:" over its command, "-
// shared on:" over another): what each label's command sets apart from the
// others' (flags with other values, or set by one only: a switch absent is
// false). A Result label with the same words names those settings.
std::map<std::string, Config> CommandLabels(const Entry& entry) {
  std::map<std::string, Config> flags;  // label -> its command's flags
  const Field* f = entry.FindField("Command");
  if (f == nullptr) return {};
  for (const auto& c : f->bullet.children) {
    const size_t colon = LabelEnd(c.text);
    const std::string label = colon == std::string::npos ? "" : PlainLabel(c.text.substr(0, colon));
    if (label.empty() || label.size() > 40) continue;
    ParsedCommand pc;
    for (const auto& span : c.code_spans) ParseCommand(span, &pc);
    for (const auto& g : c.children)
      for (const auto& span : g.code_spans) ParseCommand(span, &pc);
    for (const auto& [k, v] : pc.flags)
      if (v.find('$') == std::string::npos) flags[label][k] = v;
  }
  if (flags.size() < 2) return {};
  std::set<std::string> keys;
  for (const auto& [label, cfg] : flags)
    for (const auto& [k, v] : cfg) keys.insert(k);
  std::map<std::string, Config> out;
  for (const auto& k : keys) {
    bool is_switch = IsBoolFlag(k);  // a switch (`--prefetch`) given to some commands only
    for (const auto& [label, cfg] : flags) is_switch = is_switch || (cfg.count(k) && cfg.at(k) == "true");
    std::set<std::string> values;
    for (const auto& [label, cfg] : flags) values.insert(cfg.count(k) ? cfg.at(k) : is_switch ? "false" : "");
    if (values.size() < 2 || values.count("")) continue;  // the same everywhere, or unknown somewhere
    for (const auto& [label, cfg] : flags) out[label][k] = cfg.count(k) ? cfg.at(k) : "false";
  }
  return out;
}

// The words an entry names its own runs with: its heading, commands and
// run fields ("- Run: `v165`"). A sentence of its Result that starts with
// another run's tag ("v156 measures ...") restates that run.
std::set<std::string> OwnWords(const Entry& entry) {
  std::set<std::string> out;
  auto add = [&](const std::string& t) {
    std::string clean;
    for (char c : t) clean += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
    for (const auto& w : Words(clean)) out.insert(w);
  };
  add(entry.heading);
  for (const auto& c : entry.commands) add(c.joined);
  for (const auto& f : entry.fields)
    if (f.name == "Command" || f.name == "Run" || f.name == "Runs" || f.name == "Run ID" || f.name == "Profile") {
      add(f.bullet.text);
      for (const auto& c : f.bullet.children) add(c.text);
    }
  return out;
}

// The entry's prose, for what names a table's unit: its paragraphs, field
// and note bullets.
std::vector<EntryCtx::Text> EntryProse(const Entry& entry) {
  std::vector<EntryCtx::Text> out;
  for (const auto& p : entry.paragraphs) out.push_back({p.line, p.end_line, p.text});
  std::function<void(const Bullet&)> add = [&](const Bullet& b) {
    out.push_back({b.line, b.line, b.text});
    for (const auto& c : b.children) add(c);
  };
  for (const auto& f : entry.fields)
    if (f.name != "Command") add(f.bullet);
  for (const auto& b : entry.notes) add(b);
  return out;
}

// Fields that hold an entry's measured figures: its Result, named results
// ("- Non-EP result:", "- Measured run result:"), and fields named for a
// measurement ("- Throughput:", "- Performance:").
bool FigureField(const Field& f) {
  static const std::set<std::string> k = {"Result", "Results", "Throughput", "Performance", "Perf", "Timing",
                                          "Timings", "Metrics", "Measurements", "Measured"};
  const std::string name = Lower(f.name);
  auto ends = [&](const std::string& e) {
    return name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0 &&
           name[name.size() - e.size() - 1] == ' ';
  };
  return k.count(f.name) > 0 || ends("result") || ends("results");
}

// Fields that say what an entry means to do or how it ran, never what it
// measured: its goal, hypothesis, command, configuration, reading of the
// results and what comes next.
bool PlanField(const Field& f) {
  static const std::set<std::string> k = {"goal", "goals", "hypothesis", "command", "config", "configuration",
                                          "interpretation", "next action", "next", "next step", "next steps",
                                          "decision", "scope", "confidence", "commit hash", "commit",
                                          "stop criteria", "caveat", "action", "status", "notes", "note",
                                          "code change", "harness update", "plan", "expected", "why", "risk",
                                          "verification", "validation", "tests", "test", "correctness", "lint",
                                          "inputs", "input", "model", "method", "spec", "setup"};
  return k.count(Lower(f.name)) > 0;
}

// One figure field's figures: its own line, its sub-bullets, and the tables
// and output blocks written below it up to the next field.
void FieldFigures(const Entry& entry, size_t fi, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread) {
  const Field& f = entry.fields[fi];
  const int until = fi + 1 < entry.fields.size() ? entry.fields[fi + 1].bullet.line - 1 : entry.end_line;
  const int last = std::max(f.bullet.end_line, until);
  WalkScope scope;
  scope.context = LabelConfig(f.qualifier, x.vars, x.fixed, x.generic, &x.feeds);
  scope.context.erase("case");
  for (const auto& w : Words(f.qualifier)) scope.restated = scope.restated || RestatingWord(w);
  scope.share = NamesShares(f.qualifier);
  // "- Result: `0.0031 s`, `10.3M tok/s`" states figures on the field's own line.
  if (!f.value.empty()) Walk(f.bullet, scope, x, out, unread, f.value);
  for (const auto& c : f.bullet.children) Walk(c, scope, x, out, unread);
  for (const auto& t : entry.tables)
    if (t.line >= f.bullet.line && t.line <= last) TableFigures(t, Under(entry, t.line, scope.context, x), x, out, unread);
  for (const auto& b : entry.outputs) {
    if (b.line < f.bullet.line || b.line > last) continue;
    ResultLines(b.text, b.line, scope.context, x, out);
    for (const auto& ob : OutputBullets(b)) Walk(ob, scope, x, out, unread);
  }
}

// The sentence text of a paragraph from `b` to `e`, without the marks that
// ended the lead before it ("**Arm A.** Job ...", "Backend surprise: ...").
std::string SentenceText(const std::string& s, size_t b, size_t e) {
  while (b < e && (s[b] == ' ' || s[b] == ':' || s[b] == '.' || s[b] == '*')) ++b;
  return s.substr(b, e - b);
}

// An entry's paragraphs, read when no Result field holds its figures: each
// sentence like a bullet, under the paragraph's lead ("**Arm A (tip).**",
// "Backend surprise:") as their label. A lead that reads, plans or explains
// ("Interpretation:", "**Profile (xplane):**", "Setup:", "Infra.") records no
// run, nor does a sentence led so ("Note: the premise was stale ...").
void ParagraphFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                      std::vector<UnreadFigures>* unread) {
  for (const auto& p : entry.paragraphs) {
    const std::string lead = !p.lead.empty() ? p.lead : prose::PlainLead(p.text);
    if (prose::NoRunLead(lead)) continue;
    WalkScope scope;
    scope.prose = scope.loose = true;
    std::string carry;
    scope.carry = &carry;
    std::string name = lead.substr(0, lead.find(" ("));  // "Arm A (tip `26711f8`, no code change)."
    while (!name.empty() && (name.back() == ':' || name.back() == '.' || name.back() == ' ')) name.pop_back();
    for (const auto& w : Words(name)) scope.restated = scope.restated || RestatingWord(w);
    // A bold lead names its paragraph's runs ("**Arm A (tip).**"); a plain
    // one is its first sentence's label ("bf16: 31.4 ms; fp8: 27.8 ms").
    if (!p.lead.empty()) scope.context = LabelConfig(name, x.vars, x.fixed, x.generic, &x.feeds);
    if (const auto pairs = prose::NounPairs(name); !pairs.empty()) {  // "Ragged impl, same point:"
      scope.context.erase("case");
      for (const auto& [k, v] : pairs) scope.context.emplace(k, v);
    }
    const size_t body = p.lead.empty() ? 0 : std::min(p.text.size(), p.text.find(p.lead) + p.lead.size());
    const std::string rest = p.text.substr(body);
    for (const auto& [b, e] : prose::Sentences(rest)) {
      Bullet sb;
      sb.text = SentenceText(rest, b, e);
      if (sb.text.empty() || prose::NoRunLead(prose::PlainLead(sb.text))) continue;
      sb.line = p.LineAt(body + b);
      Walk(sb, scope, x, out, unread);
    }
  }
}

// A figure as its author wrote it (its value, unit factor and decimals), to
// compare earlier values with: worked out once per figure, not per value.
struct WrittenValue {
  double value = 0, factor = 1;
  int decimals = -1;  // unknown: compared exactly
};
WrittenValue WrittenOf(const StoredRun& later, const std::string& metric) {
  WrittenValue w;
  w.value = later.metrics.at(metric);
  auto d = later.decimals.find(metric);
  if (d == later.decimals.end() || d->second < 0) return w;
  w.decimals = d->second;
  UnitInfo info{};
  const auto u = later.units.find(metric);
  w.factor = u != later.units.end() && UnitOf(u->second, &info) && info.metric == metric ? info.factor : 1;
  return w;
}

// Whether the written figure `w` is `earlier` (a value in stored units): at
// its written decimals in its written unit ("96 ms" restates 96.2 ms, "27 ms"
// 26.96 ms), exactly when its decimals are unknown.
bool Restates(const WrittenValue& w, double earlier) {
  if (w.decimals < 0) return w.value == earlier;
  // Two significant digits at least: "8 ms" restates nothing.
  const double written = w.value / w.factor;
  if (w.decimals == 0 && std::fabs(written) < 10) return false;
  return prose::SameAsWritten(earlier / w.factor, written, w.decimals);
}

// Whether `later`'s `metric` is `earlier` as `later` writes it (Restates).
bool RestatesValue(const StoredRun& later, const std::string& metric, double earlier) {
  return Restates(WrittenOf(later, metric), earlier);
}

// Whether a table's figure is written with three significant digits at
// least ("33.80", "412"): fewer could match an earlier figure by chance.
bool ThreeDigits(const StoredRun& run) {
  for (const auto& [metric, value] : run.metrics) {
    if (run.derived.count(metric)) continue;
    auto d = run.decimals.find(metric);
    if (d == run.decimals.end() || d->second < 0) return false;
    UnitInfo info{};
    const auto u = run.units.find(metric);
    const double factor = u != run.units.end() && UnitOf(u->second, &info) && info.metric == metric ? info.factor : 1;
    const double written = std::fabs(value / factor);
    int digits = d->second;
    for (double v = written; v >= 1; v /= 10) ++digits;
    if (written < 1) digits = d->second + static_cast<int>(std::floor(std::log10(std::max(written, 1e-12))) + 1);
    if (digits < 3) return false;
  }
  return true;
}

// Keys each value of the logbook's figures has been seen under (bounded):
// what a "variant" value may be of.
struct Vocabulary {
  std::map<std::string, std::set<std::string>> keys_of;  // value -> keys
  void Add(const StoredRun& run) {
    for (const auto& [k, v] : run.config)
      if (k != "variant" && k != "case" && k != "harness" && k != "accelerator" && keys_of.size() < 4096 &&
          !NeutralKeyName(k))
        keys_of[v].insert(k);
  }
  // "variant=bf16" -> "modes=bf16" in the figures of one sweep (those of an
  // entry under one "case": "Token scaling:" over "`32768`: ..."), when the
  // sweep's variant values that the logbook knows (at least half of them)
  // are each a value of one key only, the same key, none a value of several,
  // and the others are numbers where the known ones are (tokens 49152 beside
  // 32768 and 65536). No figure of the sweep may set that key otherwise.
  void Name(std::vector<RecordedFigure>* figs) const {
    std::map<std::string, std::vector<RecordedFigure*>> sweeps;  // case -> figures with a variant
    for (auto& f : *figs)
      if (f.run.config.count("variant")) sweeps[f.run.config.count("case") ? f.run.config.at("case") : ""].push_back(&f);
    for (auto& [c, members] : sweeps) NameSweep(members);
  }
  void NameSweep(const std::vector<RecordedFigure*>& members) const {
    std::set<std::string> keys, known, unknown;
    for (const RecordedFigure* f : members) {
      const std::string& v = f->run.config.at("variant");
      auto it = keys_of.find(v);
      if (it == keys_of.end()) unknown.insert(v);
      else if (it->second.size() == 1) keys.insert(*it->second.begin()), known.insert(v);
      else return;  // a value of several keys: nothing says which
    }
    auto number = [](const std::string& v) { return ParseNumber(v).has_value(); };
    if (keys.size() != 1 || known.size() * 2 < known.size() + unknown.size()) return;
    const bool numeric = std::all_of(known.begin(), known.end(), number);
    if (!unknown.empty() && !(numeric && std::all_of(unknown.begin(), unknown.end(), number))) return;
    const std::string key = *keys.begin();
    for (const RecordedFigure* f : members)
      if (f->run.config.count(key)) return;
    for (RecordedFigure* f : members) {
      f->run.config[key] = f->run.config.at("variant");
      f->run.config.erase("variant");
    }
  }
};

// Whether every figure of `later` of its own (not derived) restates one of
// `earlier`'s figures.
bool RestatesRun(const StoredRun& later, const std::vector<const StoredRun*>& earlier) {
  bool any = false;
  for (const auto& [metric, value] : later.metrics) {
    if (later.derived.count(metric)) continue;
    bool found = false;
    for (const StoredRun* e : earlier)
      if (auto it = e->metrics.find(metric); it != e->metrics.end() && !e->derived.count(metric))
        found = found || RestatesValue(later, metric, it->second);
    if (!found) return false;
    any = true;
  }
  return any;
}

// Prose that repeats a figure of the entry's own tables ("fp8wire = 8.35
// ms, 1.48x the baseline" under a table holding 8.35 ms), or a figure the
// entry's prose wrote before it ("measures 7.077 ms at head", then "7.077
// -> 6.803 ms"), restates it: the run is the first one, and the repeat (with
// the speedup derived from it) is listed, not tabled a second time.
// `out[0, from_tables)` are the tables' figures. Bounded by the entry's
// figure cap (kMaxFiguresPerEntry).
void DropRestatedTableFigures(size_t from_tables, std::vector<RecordedFigure>* out,
                              std::vector<UnreadFigures>* unread) {
  std::stable_sort(out->begin() + static_cast<std::ptrdiff_t>(from_tables), out->end(),
                   [](const RecordedFigure& a, const RecordedFigure& b) { return a.line < b.line; });
  std::vector<RecordedFigure> kept(out->begin(), out->begin() + static_cast<std::ptrdiff_t>(from_tables));
  const size_t n = std::min(out->size(), kMaxFiguresPerEntry);
  for (size_t i = from_tables; i < n; ++i) {
    RecordedFigure& f = (*out)[i];
    std::vector<const StoredRun*> before;
    for (const auto& k : kept)
      if (&k - kept.data() < static_cast<std::ptrdiff_t>(from_tables) || k.line < f.line) before.push_back(&k.run);
    const bool table = RestatesRun(f.run, std::vector<const StoredRun*>(before.begin(), before.begin() +
        static_cast<std::ptrdiff_t>(std::min(before.size(), from_tables))));
    if (!RestatesRun(f.run, before)) {
      kept.push_back(std::move(f));
    } else if (unread) {
      unread->push_back({f.line, f.text, table ? "restates a figure of this entry's table, not another run"
                                               : "restates a figure written earlier in this entry, not another run"});
    }
  }
  for (size_t i = n; i < out->size(); ++i) kept.push_back(std::move((*out)[i]));
  *out = std::move(kept);
}

// The entry's own tables name values of their key columns ("mode": bf16,
// fp8gemm): a word of its prose that is one of them names that key ("96.2
// ms/step bf16" is mode=bf16), as the values its commands vary do.
EntryCtx WithTableValues(const EntryCtx& x, const std::vector<RecordedFigure>& out, size_t from_tables) {
  EntryCtx px = x;
  std::map<std::string, std::set<std::string>> values;
  for (size_t i = 0; i < from_tables && i < out.size(); ++i)
    for (const auto& [k, v] : out[i].run.config)
      if (!x.fixed.count(k) && !x.vars.count(k) && k != "case" && k != "variant" && !v.empty()) values[k].insert(v);
  for (const auto& [k, vs] : values)
    if (vs.size() >= 2) px.vars[k].assign(vs.begin(), vs.end());
  return px;
}

// An entry without a Result field records its figures in tables of its
// own, under bullets that name a sweep ("- Token scaling (EP ring):" over
// "`32768`: `859.0 TF/s`"), in fields named for them, or in paragraphs.
void LooseFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread) {
  for (const auto& t : entry.tables) TableFigures(t, Under(entry, t.line, {}, x), x, out, unread);
  const size_t from_tables = out->size();
  WalkScope notes;
  notes.loose = true;
  for (const auto& b : entry.notes) Walk(b, notes, x, out, unread);
  ParagraphFigures(entry, WithTableValues(x, *out, from_tables), out, unread);
  for (size_t fi = 0; fi < entry.fields.size(); ++fi)
    if (!FigureField(entry.fields[fi]) && !PlanField(entry.fields[fi])) {
      WalkScope scope;
      scope.context = LabelConfig(entry.fields[fi].qualifier, x.vars, x.fixed, x.generic, &x.feeds);
      for (const auto& w : Words(entry.fields[fi].name + " " + entry.fields[fi].qualifier))
        scope.restated = scope.restated || RestatingWord(w);
      scope.share = NamesShares(entry.fields[fi].name + " " + entry.fields[fi].qualifier);
      if (!entry.fields[fi].value.empty()) Walk(entry.fields[fi].bullet, scope, x, out, unread, entry.fields[fi].value);
      for (const auto& c : entry.fields[fi].bullet.children) Walk(c, scope, x, out, unread);
    }
  DropRestatedTableFigures(from_tables, out, unread);
}

}  // namespace

std::vector<RecordedFigure> RecordedFigures(const Entry& entry, const std::string& file,
                                            std::vector<UnreadFigures>* unread, bool mfu_logbook,
                                            bool tflops_logbook, double tflops_example) {
  EntryCtx x;
  x.mfu = mfu_logbook;
  EntryConfig(entry, &x.fixed, &x.vars, &x.generic, &x.known, &x.feeds, &x.commands_vary);
  EntryUnits(entry, tflops_logbook, tflops_example, &x);
  x.own_text = OwnWords(entry);
  x.command_labels = CommandLabels(entry);
  x.entry_id = entry.id;
  x.file = file;
  x.prose = EntryProse(entry);
  for (const auto& c : entry.commands) x.repeats = x.repeats || SaysRepeats(c.joined);
  std::vector<RecordedFigure> out;
  bool any_result = false;
  for (size_t fi = 0; fi < entry.fields.size(); ++fi) {
    if (!FigureField(entry.fields[fi])) continue;
    any_result = any_result || entry.fields[fi].name == "Result";  // a named finding ("Negative result:") is not the Result
    FieldFigures(entry, fi, x, &out, unread);
  }
  if (!any_result) LooseFigures(entry, x, &out, unread);
  std::stable_sort(out.begin(), out.end(),
                   [](const RecordedFigure& a, const RecordedFigure& b) { return a.line < b.line; });
  if (out.size() > kMaxFiguresPerEntry) {  // placing figures compares them in pairs: bounded
    if (unread)
      unread->push_back({out[kMaxFiguresPerEntry].line, "",
                         "more than " + std::to_string(kMaxFiguresPerEntry) + " figures in one entry: the rest are not read"});
    out.resize(kMaxFiguresPerEntry);
  }
  UnstampOthers(x, &out);
  FirstCommandDefaults(x, &out);
  // Number runs per entry in document order (their keys are the names
  // RecordedKeys gives predicates, --where and plot).
  for (size_t i = 0; i < out.size(); ++i) out[i].run.id = entry.id + "#" + std::to_string(i + 1);
  return out;
}

std::vector<RecordedFigure> RecordedFigures(const Entry& entry) { return RecordedFigures(entry, "", nullptr); }

std::vector<StoredRun> RecordedRuns(const Entry& entry) {
  std::vector<StoredRun> out;
  for (auto& f : RecordedFigures(entry)) out.push_back(std::move(f.run));
  return out;
}

namespace {

// Keys a figure's config may hold that say nothing a row could confirm or
// deny: derived ones (devices and mesh follow the parallel mode), repetition
// and output settings.
bool NeutralKey(const std::string& k) {
  return !FollowedKey(k).empty() || IsIgnoredForPairing(k) || k == "target" || k == "source";
}

bool Fits(const StoredRun& figure, const std::map<std::string, std::string>& row) {
  for (const auto& [k, v] : figure.config) {
    if (k == "case" || k == "variant") return false;
    if (NeutralKey(k)) continue;
    auto it = row.find(k);
    if (it != row.end() && !ValuesEqual(it->second, v)) return false;
  }
  return true;
}

}  // namespace

bool FigureFits(const StoredRun& figure, const std::map<std::string, std::string>& row) { return Fits(figure, row); }

std::vector<FigurePlacement> PlaceFigures(const std::vector<RecordedFigure>& figures,
                                          const std::vector<std::map<std::string, std::string>>& rows,
                                          const std::vector<int>& group) {
  std::vector<FigurePlacement> out(figures.size());
  std::map<std::pair<int, std::string>, std::vector<size_t>> claims;  // (row or group, metric) -> figures
  for (size_t i = 0; i < figures.size(); ++i) {
    std::set<int> fit;
    for (size_t r = 0; r < rows.size(); ++r)
      if (Fits(figures[i].run, rows[r])) fit.insert(group.empty() ? static_cast<int>(r) : group[r]);
    if (fit.size() != 1) {
      out[i].why = fit.empty() ? "matches no row" : "matches several rows";
      continue;
    }
    out[i].row = *fit.begin();
    for (const auto& [metric, v] : figures[i].run.metrics)
      if (!figures[i].run.derived.count(metric)) claims[{out[i].row, metric}].push_back(i);
  }
  for (const auto& [key, ids] : claims) {
    if (ids.size() < 2) continue;
    for (size_t i : ids) {
      out[i].row = -1;
      out[i].why = "another figure claims its row";
    }
  }
  return out;
}

namespace {

// The earlier entry whose figures `run` restates, every figure of its own
// (its metric's earlier figures, compared at `run`'s written digits), or "".
// Earlier entries' figures by metric, sorted by value (stored units): a
// later figure looks up only the values that round to it.
using EarlierFigures = std::map<std::string, std::multimap<double, std::pair<std::string, const StoredRun*>>>;

// Whether two runs name different configurations: a key both set to other
// values ("case=EP8" against "case=EP4"), where/how a figure was written aside.
bool OtherConfig(const StoredRun& a, const StoredRun& b) {
  for (const auto& [k, v] : a.config) {
    if (k == "arrow" || k == "statistic" || k == "harness" || k == "accelerator") continue;
    if (auto it = b.config.find(k); it != b.config.end() && Lower(it->second) != Lower(v)) return true;
  }
  return false;
}

// `named`: the figure is prose whose words name its configuration; an
// earlier figure of another configuration (other arm names) is no source of it.
// A table's row restating an earlier row keeps its own column names: no check.
std::string EarlierEntryOf(const StoredRun& run, const EarlierFigures& earlier, bool named) {
  std::string from;
  for (const auto& [metric, value] : run.metrics) {
    if (run.derived.count(metric)) continue;
    auto it = earlier.find(metric);
    if (it == earlier.end()) return "";
    // The values that round to this one as written: within half a unit of
    // its last written decimal (in its written unit), a little wider.
    auto d = run.decimals.find(metric);
    UnitInfo info{};
    const auto u = run.units.find(metric);
    const double factor = u != run.units.end() && UnitOf(u->second, &info) && info.metric == metric ? info.factor : 1;
    const double half = d == run.decimals.end() || d->second < 0 || d->second > 9
                            ? 0 : 0.5 * std::pow(10.0, -d->second) * factor;
    const double slack = 1e-9 * std::max(1.0, std::fabs(value));
    std::string here;
    int looked = 0;  // bounded: a value repeated in many entries is looked at 64 times at most
    for (auto e = it->second.lower_bound(value - half - slack);
         e != it->second.end() && e->first <= value + half + slack && looked < 64; ++e, ++looked)
      if (RestatesValue(run, metric, e->first) && !(named && OtherConfig(run, *e->second.second)))
        here = e->second.first;
    if (here.empty()) return "";
    from = here;
  }
  return from;
}

// Whether `text` names the entry `id` as a word ("as in PLN-001;").
bool NamesEntry(const std::string& text, const std::string& id) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (size_t p = text.find(id); p != std::string::npos; p = text.find(id, p + 1)) {
    const size_t end = p + id.size();
    if ((p == 0 || !word_char(text[p - 1])) && (end == text.size() || !word_char(text[end]))) return true;
  }
  return false;
}

}  // namespace

RunKeys RecordedKeys(const Logbook& logbook) {
  RunKeys keys;
  for (const auto& r : RecordedRuns(logbook))
    for (const auto& [k, v] : r.config) keys.recorded.insert(k);
  return keys;
}

std::vector<std::vector<RecordedFigure>> LogbookFigures(const Logbook& logbook,
                                                        std::vector<std::vector<UnreadFigures>>* unread) {
  const bool mfu = MfuLogbook(logbook), tflops = TflopsLogbook(logbook);
  const double example = TflopsExample(logbook);
  std::vector<std::vector<RecordedFigure>> out;
  if (unread) unread->assign(logbook.entries.size(), {});
  // Earlier entries' figures, by metric: a later figure is compared with
  // those of its metric only, at most kMaxEarlier of them (bounded).
  constexpr size_t kMaxEarlier = 4096;
  EarlierFigures earlier;
  Vocabulary vocabulary;
  for (size_t i = 0; i < logbook.entries.size(); ++i) {
    const Entry& e = logbook.entries[i];
    std::vector<UnreadFigures>* un = unread ? &(*unread)[i] : nullptr;
    std::vector<RecordedFigure> figs = RecordedFigures(e, logbook.file, un, mfu, tflops, example);
    std::vector<RecordedFigure> kept;
    for (auto& f : figs) {
      const bool table = f.table && ThreeDigits(f.run);
      std::string from = f.prose || table ? EarlierEntryOf(f.run, earlier, f.prose) : "";
      // A Result's figure equal to an earlier entry's that names that entry
      // ("bf16 31.42 ms (as in PLN-001)") restates it.
      if (from.empty() && !f.prose && !f.table)
        if (std::string id = EarlierEntryOf(f.run, earlier, true); !id.empty() && NamesEntry(f.text, id)) from = id;
      if (from.empty()) {
        kept.push_back(std::move(f));
      } else if (un && !(!un->empty() && un->back().line == f.line && un->back().text == f.text)) {
        un->push_back({f.line, f.text, "restates a figure of " + from + ", not another run"});  // a row once
      }
    }
    for (const auto& f : kept) vocabulary.Add(f.run);
    vocabulary.Name(&kept);
    for (size_t k = 0; k < kept.size(); ++k) kept[k].run.id = e.id + "#" + std::to_string(k + 1);
    out.push_back(std::move(kept));
    for (const auto& f : out.back())
      for (const auto& [metric, value] : f.run.metrics)
        if (!f.run.derived.count(metric) && earlier[metric].size() < kMaxEarlier)
          earlier[metric].emplace(value, std::make_pair(e.id, &f.run));
  }
  return out;
}

std::vector<StoredRun> RecordedRuns(const Logbook& logbook) {
  std::vector<StoredRun> out;
  for (auto& figs : LogbookFigures(logbook, nullptr))
    for (auto& f : figs) out.push_back(std::move(f.run));
  return out;
}

}  // namespace moelog::logbook
