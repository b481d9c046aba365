#include "logbook/plan/shell_planner.h"

#include <algorithm>

namespace moelog::logbook::shell {

// Plans `text` (a whole script). Returns the rendered scripts.
Rendered Planner::PlanScript(std::string_view text, Vars vars, int depth) {
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

Expansion Planner::Expand(std::string_view word, const Vars& vars) {
  Expansion e = ExpandWord(word, vars);
  expanded_chars_ += e.value.size();
  if (e.too_long)
    OverBudget(Joined({"'", Short(std::string(word)), "' expands to more than ", std::to_string(kMaxWordChars),
                       " characters"}, ""));
  else if (expanded_chars_ > kMaxExpandedChars)
    OverBudget("more than " + std::to_string(kMaxExpandedChars) + " characters of expanded text");
  return e;
}

bool Planner::Step() {
  if (over_budget_.empty() && ++steps_ > kMaxSteps)
    OverBudget("more than " + std::to_string(kMaxSteps) + " commands and loop iterations to walk");
  return over_budget_.empty();
}

void Planner::OverBudget(const std::string& why) {
  if (over_budget_.empty()) over_budget_ = why;
  Invalid(why);
}

void Planner::WalkList(const List& list, Vars* vars, int depth) {
  for (size_t i = 0; i < list.items.size() && over_budget_.empty() && !skip_iteration_; ++i) {
    if (list.seps[i] == "&") Consent("a background job (&)");
    const AndOr& ao = list.items[i];
    for (const auto& op : ao.ops)
      if (op == "||") Consent("'||'");
    for (const Pipeline& p : ao.pipes) {
      if (skip_iteration_) break;
      if (LogLine(p)) {
        std::string first = JoinRaw(p.cmds[0].words);
        for (const Redir& r : p.cmds[0].redirs) first += r.HereDoc() ? " " + r.op + r.target : "";
        NotRun(Joined({first, "|", JoinRaw(p.cmds[1].words)}));
        MemoRaw(&p.cmds[0]);
        continue;
      }
      const size_t before = benches_;
      WalkCmd(p.cmds[0], vars, depth, p.cmds.size() == 1);
      if (p.cmds.size() == 1) continue;
      // `BENCH | tee [-a] FILE`: the benchmark's output, which moelog
      // captures itself. The file is not written.
      const bool tee = p.cmds.size() == 2 && IsTee(p.cmds[1]) && benches_ > before;
      if (!tee) Consent("a pipeline into " + Short(p.cmds[1].words.empty() ? "(...)" : p.cmds[1].words[0]));
    }
  }
}

// `tee FILE` or `tee -a FILE`, no substitution, no redirections.
bool Planner::IsTee(const Cmd& c) {
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
void Planner::CheckWords(const std::vector<std::string>& words) {
  for (const auto& w : words)
    if (HasSubstitution(w)) Consent("a substitution in '" + Short(w) + "'");
}

void Planner::WalkCmd(const Cmd& c, Vars* vars, int depth, bool alone) {
  if (!Step()) return;
  if (c.kind == Cmd::kIf) return PlanIf(c, vars, depth);
  if (Bookkeeping(c, vars)) return MemoRaw(&c);
  // A prefix NAME=$(...) is bookkeeping (SplitAssignments); the rest is checked.
  CheckWords(c.kind == Cmd::kSimple ? std::vector<std::string>(c.words.begin() + static_cast<long>(FirstWord(c)),
                                                               c.words.end())
                                    : c.words);
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
    if (r.HereDoc()) {
      Consent("a here-document into " + Short(c.words.empty() ? "(...)" : c.words[FirstWord(c)]));
      // Given to bash as a here-string (RenderRedirs): exact for a literal body.
      if (!r.quoted && r.body.find_first_of("$`\\") != std::string::npos)
        shell_unplannable_ = "a here-document whose text bash would expand";
    } else if (!static_read) {
      Consent("input redirection " + r.op + " " + Short(r.target));
    }
  }
  const size_t before = benches_;
  WalkCmdBody(c, vars, depth, alone);
  // Output redirections are accepted on benchmarks only: moelog captures
  // their output itself, and the named file is not written.
  if (output_redir && benches_ == before)
    Consent("output redirection of '" + Short(c.words.empty() ? "(...)" : JoinRaw(c.words)) + "'");
}

void Planner::WalkCmdBody(const Cmd& c, Vars* vars, int depth, bool alone) {
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
      auto e = Expand(item, *vars);
      if (!e.unknown.empty()) {
        Invalid("for " + c.var + ": " + NoStaticValue(e.unknown.front()));
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
      if (!Step()) break;
      (*vars)[c.var] = v;
      WalkList(*c.body, vars, depth);
      skip_iteration_ = false;
      if (!invalid_.empty()) break;
    }
    loop_vars_.pop_back();
    if (!values.empty()) (*vars)[c.var] = values.back();  // bash keeps the last value
    return;
  }
  WalkSimple(c, vars, depth, alone);
}

// Assignments at the front of a simple command.
size_t Planner::SplitAssignments(const Cmd& c, const Vars& vars, std::map<std::string, std::string>* env) {
  size_t i = 0;
  for (; i < c.words.size(); ++i) {
    std::string name = AssignmentName(c.words[i]);
    if (name.empty()) break;
    if (i + 1 < c.words.size() && HasSubstitution(c.words[i])) {  // no static value: not set, not run
      dynamic_[name] = c.words[i];
      NotRun(c.words[i]);
      continue;
    }
    auto e = Expand(std::string_view(c.words[i]).substr(name.size() + 1), vars);
    (*env)[name] = e.value;
  }
  return i;
}

void Planner::WalkSimple(const Cmd& c, Vars* vars, int depth, bool alone) {
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
void Planner::Classify(const Cmd& c, std::vector<std::string> words, std::map<std::string, std::string> env, Vars* vars,
                       int depth, bool alone) {
  // An author's elision before a command (`cd ~/x && ... python bench.py`):
  // setup left out of the text, not run; the command after it is planned.
  if (words[0] == "..." && (words.size() == 1 || words[1].rfind("-", 0) == 0)) {
    // `... --flags ...`: the program itself elided.
    NotApplicable("command elided with '...' (not runnable as written)");
    MemoRaw(&c);
    return;
  }
  if (words[0] == "..." && words.size() > 1) {
    NotRun("... (setup elided by the author)");
    words.erase(words.begin());
  }
  const std::string prog = Expand(words[0], *vars).value;
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
  std::string script = prog;
  if (const InterpreterSpec* in = table_.FindInterpreter(prog)) {
    auto script_at = SkipInterpreter(c, *in, words, base, *vars, &script);
    if (!script_at) return;
    si = *script_at;
  }
  if (const LauncherSpec* l = table_.FindLauncher(script))
    return PlanLauncher(c, *l, words, si + 1, env, vars, depth, alone);
  if (const Adapter* h = table_.FindHarness(script, opts_.context)) return PlanHarness(c, *h, words, si, env, *vars);
  const bool allowed = std::find(kDirectWords.begin(), kDirectWords.end(), base) != kDirectWords.end();
  if (si > 0 || (!allowed && LooksLikeScript(script))) {
    NoAdapter((si > 0 && Expand(words[si - 1], *vars).value == "-m" ? "unknown module " + Expand(words[si], *vars).value : "unknown script " + script));
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
void Planner::Refuse(const Cmd& c, bool consent, const std::string& what) {
  if (consent) Consent(what);
  else Disallow(what);
  MemoRaw(&c);
}

// Something only bash can do: the plan needs --allow-shell, and then runs
// under bash. `why` names it for the report.
void Planner::Consent(const std::string& why) {
  if (std::find(plan_->disallowed.begin(), plan_->disallowed.end(), why) == plan_->disallowed.end())
    plan_->disallowed.push_back(why);
  plan_->needs_shell = true;
}

std::string Planner::RenderRedirs(const Cmd& c) {
  std::string s;
  for (const auto& r : c.redirs) {
    if (!r.HereDoc()) {
      s += " " + r.op + (r.target.empty() ? "" : " " + r.target);
      continue;
    }
    // A here-document as a here-string, which fits on the command's line:
    // bash adds the one newline the body's last line ends with.
    if (r.body.empty()) {
      s += " < /dev/null";
      continue;
    }
    s += " <<< " + ShellQuote(std::string_view(r.body).substr(0, r.body.size() - 1));
  }
  return s;
}

std::string Planner::RenderEnv(const Cmd& c) {
  std::string s;
  for (const auto& w : c.words) {
    if (AssignmentName(w).empty()) break;
    s += w + " ";
  }
  return s;
}

std::string Planner::RenderCmd(const Cmd& c, bool harness) {
  if (c.kind == Cmd::kFor) {
    std::string s = "for " + c.var + " in";
    for (const auto& it : c.items) s += " " + it;
    return s + "; do " + RenderList(*c.body, harness) + "; done" + RenderRedirs(c);
  }
  if (c.kind == Cmd::kIf) {
    std::string s = "if " + RenderList(*c.cond, harness) + "; then " + RenderList(*c.body, harness);
    if (c.orelse) s += "; else " + RenderList(*c.orelse, harness);
    return s + "; fi" + RenderRedirs(c);
  }
  if (c.kind == Cmd::kGroup) {
    return (c.subshell ? "( " : "{ ") + RenderList(*c.body, harness) + (c.subshell ? " )" : "; }") +
           RenderRedirs(c);
  }
  auto it = memo_.find(&c);
  if (it == memo_.end()) return RenderSimpleRaw(c);
  return harness ? it->second.harness : it->second.rewritten;
}

std::string Planner::RenderList(const List& l, bool harness) {
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

}  // namespace moelog::logbook::shell
