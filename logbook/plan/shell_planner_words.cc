#include <algorithm>
#include <set>

#include "logbook/plan/shell_planner.h"

namespace moelog::logbook::shell {

// The shell words moelog understands without consent. Nothing is ever run for
// them: without --allow-shell there is no shell, and the runner starts only
// moelog itself. They are interpreted (assignments, export, `set -e`, `read
// <<< literal`) or have no effect on the runs (echo, true, cd and mkdir of a
// folder inside the working folder). Anything else needs --allow-shell.
const std::vector<std::string> kDirectWords = {"echo", "true", ":", "set", "export", "unset",
                                               "read", "cd",   "mkdir", "pwd"};

// Shells whose `-c SCRIPT` is planned (never run) like the text itself.
const std::set<std::string> kShells = {"bash", "sh", "/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/sh"};

namespace {

// `set` options with a meaning for the direct runner (errexit) or none.
const std::set<char> kSetFlags = {'e', 'u', 'o'};
const std::set<std::string> kSetOptions = {"errexit", "nounset", "pipefail"};

}  // namespace

// env K=V... cmd: the assignments join the command's environment.
void Planner::PlanEnv(const Cmd& c, std::vector<std::string> words, std::map<std::string, std::string> env, Vars* vars,
                      int depth, bool alone) {
  size_t i = 1;
  for (; i < words.size(); ++i) {
    std::string name = AssignmentName(words[i]);
    if (name.empty()) break;
    env[name] = Expand(std::string_view(words[i]).substr(name.size() + 1), *vars).value;
  }
  if (i == words.size()) return Refuse(c, false, "env");
  words.erase(words.begin(), words.begin() + static_cast<long>(i));
  Classify(c, words, env, vars, depth, alone);
}

// An interpreter prefix (uv run ..., python ...): its own options skipped,
// the index of the script it runs, and the script (`python -m pkg.mod`:
// pkg/mod.py). nullopt (refused) when it runs none, or runs code given
// inline (python -c, python - <<EOF).
std::optional<size_t> Planner::SkipInterpreter(const Cmd& c, const InterpreterSpec& in, const std::vector<std::string>& words,
                                               const std::string& base, const Vars& vars, std::string* script) {
  auto has = [](const std::vector<std::string>& list, const std::string& w) {
    return std::find(list.begin(), list.end(), w) != list.end();
  };
  size_t i = 1;
  if (!in.subcommand.empty()) {
    if (words.size() < 2 || Expand(words[1], vars).value != in.subcommand) {
      Refuse(c, false, base);
      return std::nullopt;
    }
    i = 2;
  }
  std::string module_option = in.module_option;
  while (i < words.size()) {
    const std::string w = Expand(words[i], vars).value;
    if (has(in.value_options, w)) i += 2;
    else if ((w.rfind("--", 0) == 0 && w.find('=') != std::string::npos) || has(in.switch_options, w)) ++i;
    else break;
  }
  if (in.optional_python && i < words.size()) {
    const std::string w = Basename(Expand(words[i], vars).value);
    if (IsPythonProgram(w)) {
      ++i;
      module_option = "-m";
      while (i < words.size() && Expand(words[i], vars).value == "-u") ++i;
    }
  }
  const bool module = !module_option.empty() && i + 1 < words.size() && Expand(words[i], vars).value == module_option;
  if (module) ++i;
  if (i >= words.size()) {
    Refuse(c, false, base);
    return std::nullopt;
  }
  *script = Expand(words[i], vars).value;
  if (module) {  // pkg.mod -> pkg/mod.py, matched like a script
    std::string path = *script;
    std::replace(path.begin(), path.end(), '.', '/');
    *script = path + ".py";
  } else if (*script == "-") {
    Refuse(c, false, base + " - (code from standard input)");
    return std::nullopt;
  } else if (script->rfind("-", 0) == 0) {  // python -c: arbitrary code
    Refuse(c, false, base + " " + Short(*script));
    return std::nullopt;
  }
  return i;
}

// A shell word moelog interprets itself (echo, cd, mkdir, read, export,
// set, ...): folders outside the working folder need consent.
void Planner::PlanDirectWord(const Cmd& c, const std::vector<std::string>& words, const std::string& base,
                             const std::map<std::string, std::string>& env, Vars* vars) {
  if (base == "cd" || base == "mkdir") {
    for (size_t i = 1; i < words.size(); ++i) {
      const std::string w = Expand(words[i], *vars).value;
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
        (*vars)[name] = Expand(std::string_view(words[i]).substr(name.size() + 1), *vars).value;
      exported_.insert(name.empty() ? words[i] : name);
    }
  } else if (base == "set") {
    PlanSet(words, *vars);
  }
  MemoRaw(&c);
}

// `set -e` / `set -o errexit` (and their + forms): whether a failing
// invocation ends the script, which the direct runner must honour too.
void Planner::PlanSet(const std::vector<std::string>& words, const Vars& vars) {
  if (words.size() < 2) Consent("set without arguments");
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string w = Expand(words[i], vars).value;
    if (w.size() < 2 || (w[0] != '-' && w[0] != '+') || w == "--") {
      Consent("set " + Short(w));
      break;
    }
    const bool on = w[0] == '-';
    for (size_t k = 1; k < w.size(); ++k)
      if (!kSetFlags.count(w[k])) Consent("set " + Short(w));
    if (w.find('o', 1) != std::string::npos &&
        (i + 1 >= words.size() || !kSetOptions.count(Expand(words[i + 1], vars).value)))
      Consent(Joined({"set", Short(w), i + 1 < words.size() ? Short(words[i + 1]) : ""}));
    if (w.find('e', 1) != std::string::npos) errexit_ = on;
    if (w.find('o', 1) != std::string::npos && i + 1 < words.size()) {  // -o NAME, -euo NAME
      if (Expand(words[i + 1], vars).value == "errexit") errexit_ = on;
      ++i;
    }
  }
}

void Planner::PlanRead(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                       Vars* vars) {
  const Redir* here = nullptr;
  for (const auto& r : c.redirs)
    if (r.op == "<<<") here = &r;
  std::vector<std::string> names;
  for (size_t i = 1; i < words.size(); ++i) {
    std::string w = Expand(words[i], *vars).value;
    if (w.rfind("-", 0) == 0) continue;  // -r
    names.push_back(w);
  }
  if (here == nullptr) {
    Consent("read without a here-string");
    for (const auto& n : names) vars->erase(n);
    return;
  }
  auto e = Expand(here->target, *vars);
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

void Planner::PlanShellC(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                         Vars* vars, int depth, bool alone) {
  size_t i = 1;
  bool has_c = false;
  while (i < words.size()) {
    std::string w = Expand(words[i], *vars).value;
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
  auto e = Expand(words[i], *vars);
  if (!e.unknown.empty()) {
    Invalid(Basename(Expand(words[0], *vars).value) + " -c: " + NoStaticValue(e.unknown.front()));
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

// The command a launcher runs, after its run subcommand's options: the words
// after the separator, the value of its command option (gcloud --command),
// or the words after the host (ssh); its -e variables into `env`. Nullopt
// when it runs none (or a bad -e value made the command invalid).
std::optional<std::string> Planner::LauncherPayload(const LauncherSpec& l, const std::vector<std::string>& words,
                                                    size_t i, const Vars& vars,
                                                    std::map<std::string, std::string>* env) {
  auto listed = [](const std::vector<std::string>& list, const std::string& w) {
    return std::find(list.begin(), list.end(), w) != list.end();
  };
  const std::string command_eq = l.command_option + "=";
  int leading = 0;  // words that are not options seen (ssh's host, timeout's duration)
  for (; i < words.size(); ++i) {
    const std::string w = Expand(words[i], vars).value;
    if (!l.separator.empty() && w == l.separator) return PayloadFrom(words, i + 1, vars);
    if (!l.command_option.empty() && w == l.command_option) return PayloadFrom(words, i + 1, vars, true);
    if (!l.command_option.empty() && w.rfind(command_eq, 0) == 0) return w.substr(command_eq.size());
    if (l.rest_is_payload && w.rfind("-", 0) != 0) {
      if (leading++ < l.leading_words) continue;
      return PayloadFrom(words, i, vars);
    }
    std::string kv;
    const bool is_env = !l.env_option.empty() && (w == l.env_option || listed(l.env_option_aliases, w));
    if (is_env && l.env_value_separate && i + 2 < words.size()) {
      kv = Expand(words[i + 1], vars).value + "=" + Expand(words[i + 2], vars).value;
      i += 2;
    } else if (is_env && i + 1 < words.size()) {
      kv = Expand(words[++i], vars).value;
    } else if (!l.env_option.empty() && w.rfind(l.env_option + "=", 0) == 0) {
      kv = w.substr(l.env_option.size() + 1);
    } else if (listed(l.value_options, w)) {
      ++i;
    }
    if (kv.empty()) continue;
    const std::string name = AssignmentName(kv);
    if (name.empty()) {
      Invalid("launcher " + l.name + ": bad " + l.env_option + " value '" + Short(kv) + "'");
      return std::nullopt;
    }
    (*env)[name] = kv.substr(name.size() + 1);
  }
  return std::nullopt;
}

// The payload from words[i]: a single word is a whole shell command line.
std::optional<std::string> Planner::PayloadFrom(const std::vector<std::string>& words, size_t i, const Vars& vars,
                                                bool one_word) {
  if (i >= words.size()) return std::nullopt;
  if (i + 1 == words.size() || one_word) return Expand(words[i], vars).value;
  return JoinRaw(words, i);
}

// Where a launcher's payload starts: after its run subcommand, options and
// their values skipped (ssh has none: at once); nullopt when the words name
// no run subcommand, *other then holding the subcommand or help flag given.
std::optional<size_t> Planner::AfterRunSubcommand(const LauncherSpec& l, const std::vector<std::string>& words,
                                                  size_t i, const Vars& vars, std::string* other) {
  if (l.run_subcommand.empty()) return i;
  for (; i < words.size(); ++i) {
    std::string w = Expand(words[i], vars).value;
    if (std::find(l.value_options.begin(), l.value_options.end(), w) != l.value_options.end()) {
      ++i;
      continue;
    }
    if (w.rfind("-", 0) == 0) {
      if (w == "--help" || w == "-h") *other = w;
      continue;
    }
    if (w == l.run_subcommand) return i + 1;
    if (other->empty()) *other = w;
  }
  return std::nullopt;
}

void Planner::PlanLauncher(const Cmd& c, const LauncherSpec& l, const std::vector<std::string>& words, size_t i,
                           const std::map<std::string, std::string>& prefix_env, Vars* vars, int depth, bool alone) {
  if (launchers_ >= kMaxLaunchers) {
    OverBudget("launchers nested more than " + std::to_string(kMaxLaunchers) + " deep");
    MemoRaw(&c);
    return;
  }
  std::string sub;
  const std::optional<size_t> from = AfterRunSubcommand(l, words, i, *vars, &sub);
  if (!from) {
    NotApplicable("launcher " + l.name + (sub.empty() ? "" : " " + Short(sub)) + " (no benchmark)");
    MemoRaw(&c);
    return;
  }
  i = *from;
  std::map<std::string, std::string> env;
  std::optional<std::string> payload = LauncherPayload(l, words, i, *vars, &env);
  if (!payload) {
    if (invalid_.empty())
      NotApplicable(Joined({"launcher", l.name, l.run_subcommand, "without a command"}));
    MemoRaw(&c);
    return;
  }
  if (l.passes_env)
    for (const auto& [k, v] : prefix_env) env.emplace(k, v);
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
  ++launchers_;
  Rendered r = PlanScript(*payload, inner, depth);
  --launchers_;
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

}  // namespace moelog::logbook::shell
