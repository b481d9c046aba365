// Bookkeeping: the lines researchers wrap a benchmark in that only name log
// files or prepare the host. Their effects cannot reach the benchmark's flags
// or environment, so moelog understands them and does not run them (no
// consent is needed for what is not run); each is listed in the plan's
// not_run. A value such a line sets has no static value: a flag moelog uses
// that reads it cannot be planned, and the reason names the flag and line.
#include <algorithm>
#include <cctype>
#include <optional>

#include "logbook/plan/shell_planner.h"

namespace moelog::logbook::shell {
namespace {

// The literal first word of a simple command without prefixes, or "".
std::string Program(const Cmd& c, size_t at = 0) {
  if (c.kind != Cmd::kSimple || c.words.size() <= at || !AssignmentName(c.words[0]).empty()) return "";
  const std::string& w = c.words[at];
  return w.find_first_of("$`'\"\\") == std::string::npos ? w : "";
}

bool HasInputRedir(const Cmd& c) {
  return std::any_of(c.redirs.begin(), c.redirs.end(), [](const Redir& r) { return !IsOutputRedir(r.op); });
}

bool HasOutputRedir(const Cmd& c) {
  return std::any_of(c.redirs.begin(), c.redirs.end(), [](const Redir& r) { return IsOutputRedir(r.op); });
}

// `[sudo] rm [-f|-r|-rf...] FILE...` where every file names a lock file.
bool LockCleanup(const Cmd& c) {
  const size_t at = Program(c) == "sudo" ? 1 : 0;
  if (Program(c, at) != "rm" || c.words.size() < at + 2) return false;
  for (size_t i = at + 1; i < c.words.size(); ++i) {
    std::string w = c.words[i];
    if (w.rfind("-", 0) == 0) {
      if (w.find_first_not_of("-rfRv") != std::string::npos && w != "--force") return false;
      continue;
    }
    for (char& ch : w) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (w.find("lock") == std::string::npos) return false;
  }
  return true;
}

// `source DIR/bin/activate` or `. DIR/bin/activate`, and the environment
// files installers and shells keep (`source "$HOME/.local/bin/env"` puts
// uv on PATH): they set up the host's tools, never a benchmark's flags.
bool VenvActivation(const Cmd& c) {
  static const std::vector<std::string> kSuffixes = {"/activate", "/.local/bin/env", "/.cargo/env", "/.bashrc",
                                                     "/.profile", "/.bash_profile"};
  const std::string p = Program(c);
  if ((p != "source" && p != ".") || c.words.size() != 2 || HasSubstitution(c.words[1])) return false;
  std::string w;
  for (char ch : c.words[1])
    if (ch != '"' && ch != '\'') w.push_back(ch);
  return std::any_of(kSuffixes.begin(), kSuffixes.end(), [&](const std::string& s) {
    return w.size() >= s.size() && w.compare(w.size() - s.size(), s.size(), s) == 0;
  });
}

// `uv pip install ...`, `pip install ...`, `python -m pip install ...`,
// `uv sync`: the host's packages, prepared for the real harness; no word of
// it reaches the benchmark's flags.
bool PackageInstall(const Cmd& c) {
  if (HasInputRedir(c) || c.words.size() < 2) return false;
  for (const std::string& w : c.words)
    if (HasSubstitution(w)) return false;
  const std::string p = Program(c);
  size_t at = 1;
  if (p == "uv" && c.words[1] == "sync") return true;
  if (p == "uv" && c.words[1] == "pip") at = 2;
  else if ((p == "python" || p == "python3") && c.words.size() > 3 && c.words[1] == "-m" && c.words[2] == "pip") at = 3;
  else if (p != "pip" && p != "pip3") return false;
  return at < c.words.size() && (c.words[at] == "install" || c.words[at] == "uninstall" || c.words[at] == "sync");
}

// `: > LOG`, `echo ... >> LOG`: a line (or nothing) written to a file.
bool LogWrite(const Cmd& c) {
  static const std::vector<std::string> kWriters = {":", "true", "echo", "printf"};
  const std::string p = Program(c);
  return std::find(kWriters.begin(), kWriters.end(), p) != kWriters.end() && HasOutputRedir(c) && !HasInputRedir(c);
}

// `cat > FILE <<EOF`, `cat <<EOF >> FILE`, `tee [-a] FILE... <<EOF`: a
// here-document written to files (no other input, no substitution in the
// words).
bool HereDocToFile(const Cmd& c) {
  const std::string p = Program(c);
  size_t here = 0, out = 0;
  for (const Redir& r : c.redirs) {
    if (r.HereDoc()) ++here;
    else if (IsOutputRedir(r.op) && !r.target.empty() && !HasSubstitution(r.target)) ++out;
    else return false;
  }
  if (here != 1) return false;
  if (p == "cat") return c.words.size() == 1 && out == 1;
  if (p != "tee" || c.words.size() < 2) return false;
  for (size_t i = 1; i < c.words.size(); ++i) {
    const std::string& w = c.words[i];
    if (HasSubstitution(w) || (w.rfind("-", 0) == 0 && w != "-a" && w != "--append")) return false;
  }
  return true;
}

// One simple command alone in the list: its words, or null.
const Cmd* OnlyCommand(const List& l) {
  if (l.items.size() != 1 || l.items[0].pipes.size() != 1 || l.items[0].pipes[0].cmds.size() != 1) return nullptr;
  const Cmd& c = l.items[0].pipes[0].cmds[0];
  return c.kind == Cmd::kSimple ? &c : nullptr;
}

// `[ -f W ]`, `[[ -e W ]]`, `test -s W`: a test of one file.
bool FileTest(const Cmd& c) {
  static const std::vector<std::string> kOps = {"-f", "-e", "-s", "-d"};
  const auto& w = c.words;
  const bool op = w.size() >= 3 && std::find(kOps.begin(), kOps.end(), w[1]) != kOps.end();
  if (!op || !c.redirs.empty()) return false;
  if (w[0] == "test") return w.size() == 3;
  return w.size() == 4 && ((w[0] == "[" && w[3] == "]") || (w[0] == "[[" && w[3] == "]]"));
}

// A branch that only skips the iteration (and may say so).
bool SkipsIteration(const List& l) {
  bool skips = false;
  for (const AndOr& ao : l.items) {
    if (ao.pipes.size() != 1 || ao.pipes[0].cmds.size() != 1) return false;
    const std::string p = Program(ao.pipes[0].cmds[0]);
    if (p == "continue") skips = true;
    else if (p != "echo" && p != ":" && p != "true" && p != "printf") return false;
  }
  return skips;
}

}  // namespace

bool Planner::Bookkeeping(const Cmd& c, Vars* vars) {
  if (c.kind != Cmd::kSimple || c.words.empty()) return false;
  if (DynamicAssignments(c, vars)) return true;
  const std::string p = Program(c);
  const bool folder = (p == "cd" || p == "mkdir") && !HasInputRedir(c);
  const bool here = HereDocToFile(c);
  if (!folder && !here && !LockCleanup(c) && !VenvActivation(c) && !LogWrite(c) && !PackageInstall(c)) return false;
  // As written (region notes escape it for Markdown); a here-document by
  // its delimiter.
  std::string line = JoinRaw(c.words);
  for (const Redir& r : c.redirs)
    line += r.HereDoc() ? " " + r.op + r.target : Joined({"", r.op, r.target});
  NotRun(line);
  return true;
}

bool Planner::DynamicAssignments(const Cmd& c, Vars* vars) {
  const bool all = std::all_of(c.words.begin(), c.words.end(), [](const std::string& w) {
    return !AssignmentName(w).empty();
  });
  if (!all || std::none_of(c.words.begin(), c.words.end(), [](const std::string& w) { return HasSubstitution(w); }))
    return false;
  for (const std::string& w : c.words) {
    const std::string name = AssignmentName(w);
    if (HasSubstitution(w)) {
      dynamic_[name] = w;
      vars->erase(name);
    } else {
      (*vars)[name] = Expand(std::string_view(w).substr(name.size() + 1), *vars).value;
      dynamic_.erase(name);
    }
  }
  NotRun(JoinRaw(c.words));
  return true;
}

bool Planner::LogLine(const Pipeline& p) {
  if (p.cmds.size() != 2 || !IsTee(p.cmds[1])) return false;
  const Cmd& first = p.cmds[0];
  const std::string w = Program(first);
  if (w == "cat")  // cat <<EOF | tee -a LOG
    return first.words.size() == 1 && first.redirs.size() == 1 && first.redirs[0].HereDoc();
  return (w == "echo" || w == "printf") && !HasInputRedir(first);
}

void Planner::PlanIf(const Cmd& c, Vars* vars, int depth) {
  const Cmd* test = OnlyCommand(*c.cond);
  if (test != nullptr && FileTest(*test) && c.orelse == nullptr && SkipsIteration(*c.body) && !loop_vars_.empty()) {
    NotRun("if " + JoinRaw(test->words) + "; then continue; fi (moelog makes every iteration)");
    return;
  }
  const std::optional<bool> taken = StaticCondition(*c.cond, *vars);
  if (!taken) {
    Invalid(
        "cannot plan shell construct 'if' (moelog understands a guard that skips a loop iteration on a file, "
        "if [ -f FILE ]; then continue; fi, and [ ] / test string comparisons of static words joined by && and ||)");
    return;
  }
  const List* branch = *taken ? c.body.get() : c.orelse.get();
  if (branch == nullptr) return;
  if (SkipsIteration(*branch)) {
    if (loop_vars_.empty()) return Invalid("cannot plan shell construct 'if': 'continue' outside a loop");
    skip_iteration_ = true;  // the rest of this iteration is not walked (WalkList)
    return;
  }
  WalkList(*branch, vars, depth);
}

// `[ A = B ]`, `[ A != B ]` (also ==), `[ -z A ]`, `[ -n A ]`, `[ A ]`, the
// same with `test` or `[[ ]]` (no pattern in B), joined by && and ||: true or
// false when every word has a static value, nullopt otherwise.
std::optional<bool> Planner::StaticCondition(const List& cond, const Vars& vars) {
  if (cond.items.size() != 1) return std::nullopt;
  const AndOr& ao = cond.items[0];
  std::optional<bool> result;
  for (size_t i = 0; i < ao.pipes.size(); ++i) {
    if (ao.pipes[i].cmds.size() != 1) return std::nullopt;
    const std::optional<bool> one = StaticTest(ao.pipes[i].cmds[0], vars);
    if (!one) return std::nullopt;
    // Left to right, as the shell does for tests without side effects.
    result = i == 0 ? *one : ao.ops[i - 1] == "&&" ? (*result && *one) : (*result || *one);
  }
  return result;
}

std::optional<bool> Planner::StaticTest(const Cmd& c, const Vars& vars) {
  if (c.kind != Cmd::kSimple || !c.redirs.empty() || c.words.empty() || !AssignmentName(c.words[0]).empty())
    return std::nullopt;
  const std::string& w0 = c.words[0];
  size_t end = c.words.size();
  if (w0 == "[" || w0 == "[[") {
    if (end < 2 || c.words[end - 1] != (w0 == "[" ? "]" : "]]")) return std::nullopt;
    --end;
  } else if (w0 != "test") {
    return std::nullopt;
  }
  std::vector<std::string> w;
  for (size_t i = 1; i < end; ++i) {
    const std::string& raw = c.words[i];
    Expansion e = Expand(raw, vars);
    if (!e.unknown.empty() || e.substitution) return std::nullopt;
    // An unquoted expansion that bash would split or drop: not evaluated.
    if (e.had_unquoted_var && (e.value.empty() || e.value.find_first_of(" \t\n") != std::string::npos))
      return std::nullopt;
    w.push_back(std::move(e.value));
  }
  if (w.size() == 1) return !w[0].empty();
  if (w.size() == 2 && (w[0] == "-z" || w[0] == "-n")) return (w[0] == "-z") == w[1].empty();
  if (w.size() != 3) return std::nullopt;
  const std::string& op = w[1];
  if (op != "=" && op != "==" && op != "!=") return std::nullopt;
  if (w0 == "[[" && c.words[3].find_first_of("*?[") != std::string::npos) return std::nullopt;  // a pattern
  return (w[0] == w[2]) == (op != "!=");
}

void Planner::NotRun(const std::string& what) {
  static constexpr size_t kMaxListed = 32;
  const std::string line = Short(what, 80);
  auto& list = plan_->not_run;
  if (list.size() < kMaxListed && std::find(list.begin(), list.end(), line) == list.end()) list.push_back(line);
}

std::string Planner::NoStaticValue(const std::string& unknown) const {
  std::string s = "no static value for " + unknown;
  auto it = unknown.size() > 1 ? dynamic_.find(unknown.substr(1)) : dynamic_.end();
  if (it != dynamic_.end()) s += " (set by '" + Short(it->second) + "', which moelog does not run)";
  return s;
}

}  // namespace moelog::logbook::shell
