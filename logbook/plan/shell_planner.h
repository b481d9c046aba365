// Stage plan/, internal to the command planner (shell_plan.h): the planner.
// Walks the parsed script with static variables, turns harness invocations
// into `moelog bench` runs (through the adapters and the launcher table),
// records what would need consent, and renders the rewritten scripts.
// shell_planner.cc walks and classifies, shell_planner_words.cc interprets
// shell words, launchers and `bash -c`, shell_planner_bench.cc makes the
// benchmark invocations.
#ifndef MOELOG_LOGBOOK_PLAN_SHELL_PLANNER_H_
#define MOELOG_LOGBOOK_PLAN_SHELL_PLANNER_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "logbook/plan/adapters.h"
#include "logbook/plan/launchers.h"
#include "logbook/plan/shell_eval.h"
#include "logbook/plan/shell_parser.h"
#include "logbook/plan/shell_plan.h"

namespace moelog::logbook::shell {

// The shell words moelog understands without consent (ShellAllowList).
extern const std::vector<std::string> kDirectWords;

// Shells whose `-c SCRIPT` is planned (never run) like the text itself.
extern const std::set<std::string> kShells;

// Drops the memoized harness argument lists (ClearPlanCache).
void ClearParsedArgsCache();

struct Rendered {
  std::string rewritten, harness;
};

class Planner {
 public:
  Planner(const PlanOptions& o, Plan* plan)
      : opts_(o), table_(o.launchers ? *o.launchers : DefaultLauncherTable()), plan_(plan) {}

  // Plans `text` (a whole script). Returns the rendered scripts.
  Rendered PlanScript(std::string_view text, Vars vars, int depth);

  void Invalid(const std::string& why) {
    if (invalid_.empty()) invalid_ = why;
  }
  const std::string& invalid() const { return invalid_; }
  const std::string& no_adapter() const { return no_adapter_; }
  const std::string& not_applicable() const { return not_applicable_; }
  const std::map<std::string, std::string>& exported_env() const { return launcher_env_; }
  const std::string& shell_unplannable() const { return shell_unplannable_; }
  // Why the walk stopped before the end ("" when it did not): a limit below.
  const std::string& over_budget() const { return over_budget_; }

  // A command is someone else's text: the walk counts every command it
  // walks (each loop iteration's again) and every character it expands, and
  // stops with "cannot plan" past these limits (a doubling `X=$X$X` or nested
  // loops over long lists would otherwise take all memory or time).
  static constexpr size_t kMaxSteps = 20000;
  static constexpr size_t kMaxExpandedChars = 16 * 1024 * 1024;

 private:
  // ExpandWord with the budget: each word at most kMaxWordChars, all words
  // together at most kMaxExpandedChars.
  Expansion Expand(std::string_view word, const Vars& vars);
  // Counts one walked command or loop iteration; false once over budget.
  bool Step();
  void OverBudget(const std::string& why);

  void WalkList(const List& list, Vars* vars, int depth);

  // `tee FILE` or `tee -a FILE`, no substitution, no redirections.
  static bool IsTee(const Cmd& c);

  // Every raw word of a command: any substitution needs consent, wherever it is.
  void CheckWords(const std::vector<std::string>& words);

  void WalkCmd(const Cmd& c, Vars* vars, int depth, bool alone);

  void WalkCmdBody(const Cmd& c, Vars* vars, int depth, bool alone);

  // Assignments at the front of a simple command.
  size_t SplitAssignments(const Cmd& c, const Vars& vars, std::map<std::string, std::string>* env);

  void WalkSimple(const Cmd& c, Vars* vars, int depth, bool alone);

  // Words after env prefixes. `c` is the node being rendered (for memo).
  // Dispatches on the program: env, a shell, moelog, an interpreter running
  // a launcher or a harness, or a shell word moelog interprets itself.
  void Classify(const Cmd& c, std::vector<std::string> words, std::map<std::string, std::string> env, Vars* vars,
                int depth, bool alone);

  // Memoizes `c` as written after refusing it: with consent (`consent`, the
  // reason) or never (`what` is not run at all).
  void Refuse(const Cmd& c, bool consent, const std::string& what);

  // env K=V... cmd: the assignments join the command's environment.
  void PlanEnv(const Cmd& c, std::vector<std::string> words, std::map<std::string, std::string> env, Vars* vars,
               int depth, bool alone);

  // moelog bench ...: a benchmark; any other moelog command is not run.
  void PlanMoelog(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                  const Vars& vars);

  // An interpreter prefix (uv run ..., python ...): its own options skipped,
  // the index of the script it runs and the script (`-m pkg.mod`: pkg/mod.py).
  // nullopt (refused) when it runs none, or runs code given inline (python -c).
  std::optional<size_t> SkipInterpreter(const Cmd& c, const InterpreterSpec& in, const std::vector<std::string>& words,
                                        const std::string& base, const Vars& vars, std::string* script);

  // A known harness script: its adapter turns the invocation into one or
  // more `moelog bench` runs, or says why it has none.
  void PlanHarness(const Cmd& c, const Adapter& h, const std::vector<std::string>& words, size_t si,
                   const std::map<std::string, std::string>& env, const Vars& vars);

  // The adapter's translation of the expanded words, quoted; nullopt after
  // saying why there is none (no adapter, or a flag or value it refuses).
  std::optional<Adapted> AdaptExpanded(const Cmd& c, const Adapter& h, const std::vector<std::string>& words,
                                       const std::vector<std::string>& expanded,
                                       const std::map<std::string, std::string>& harness_env);

  // The adapter's translation of the command's words as written, as shell
  // words: each value word is given to the adapter as a placeholder and put
  // back; the adapter's own words are quoted. Nullopt when a flag name is not
  // literal or the adapter must read a value (a value map, a run selection),
  // or the translation fails (the expanded words then say why).
  std::optional<std::string> AddGpuBench(const Cmd& c, BenchInvocation inv, const std::string& original,
                                         const std::string& rewritten);
  std::optional<Adapted> AdaptAsWritten(const Adapter& h, const std::vector<std::string>& raw_args,
                                        const std::vector<std::string>& expanded,
                                        const std::map<std::string, std::string>& harness_env) const;

  // The variables a harness process sees: the command's prefixes, the
  // launcher's -e variables and those the script exported.
  std::map<std::string, std::string> HarnessEnv(const std::map<std::string, std::string>& env, const Vars& vars) const;

  // A shell word moelog interprets itself (echo, cd, mkdir, read, export,
  // set, ...): folders outside the working folder need consent.
  void PlanDirectWord(const Cmd& c, const std::vector<std::string>& words, const std::string& base,
                      const std::map<std::string, std::string>& env, Vars* vars);

  // `set -e` / `set -o errexit` (and their + forms): whether a failing
  // invocation ends the script, which the direct runner must honour too.
  void PlanSet(const std::vector<std::string>& words, const Vars& vars);

  void PlanRead(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                Vars* vars);

  void PlanShellC(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                  Vars* vars, int depth, bool alone);

  // A launcher or wrapper: its payload planned like the text itself, with
  // its -e variables (and, for a local wrapper, the command's prefixes).
  void PlanLauncher(const Cmd& c, const LauncherSpec& l, const std::vector<std::string>& words, size_t i,
                    const std::map<std::string, std::string>& prefix_env, Vars* vars, int depth, bool alone);
  std::optional<size_t> AfterRunSubcommand(const LauncherSpec& l, const std::vector<std::string>& words, size_t i,
                                           const Vars& vars, std::string* other);

  std::optional<std::string> LauncherPayload(const LauncherSpec& l, const std::vector<std::string>& words, size_t i,
                                             const Vars& vars, std::map<std::string, std::string>* env);
  std::optional<std::string> PayloadFrom(const std::vector<std::string>& words, size_t i, const Vars& vars,
                                         bool one_word = false);

  // How many words at args[i] name an output folder without a static value
  // (`--trace-dir "$OUT"`: 2), which moelog leaves out; 0 otherwise.
  static size_t OutputFolderWords(const std::vector<std::string>& args, size_t i, const Vars& vars);

  // What the adapter said of one run: its label and the harness revision.
  struct RunTag {
    std::string label, revision;
  };

  // Adds one invocation; returns its rewritten command (without
  // redirections), or nullopt when the arguments do not check (the command
  // is then invalid and memoized as written).
  std::optional<std::string> AddBench(const Cmd& c, const std::string& harness, const std::string& original,
                                      const std::vector<std::string>& raw_args,
                                      const std::map<std::string, std::string>& env, const Vars& vars,
                                      const std::string& env_prefix, const RunTag& tag = {});
  // AddBench's steps (shell_planner_bench.cc).
  std::vector<std::string> DropOutputFolders(const std::vector<std::string>& raw_args, const Vars& vars);
  std::string ExpandBenchArgs(const std::vector<std::string>& args, const Vars& vars,
                              std::vector<std::string>* expanded);
  std::string TargetConflict(const std::vector<std::string>& expanded, bool* has_target) const;
  std::string ComposeBench(BenchInvocation* inv, const std::vector<std::string>& expanded,
                           const std::vector<std::string>& args, bool has_target, const std::string& env_prefix) const;
  void BindInvocation(BenchInvocation* inv, const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& env, const Vars& vars) const;
  void RejectIteration(const BenchInvocation& inv, const Status& why);
  bool CountRepeat(const BenchInvocation& inv, const std::vector<std::string>& args);

  // ---- bookkeeping (shell_planner_bookkeeping.cc): lines whose effects
  // cannot reach the benchmark, understood and not run.
  // True (and listed as not run) when `c` is such a line.
  bool Bookkeeping(const Cmd& c, Vars* vars);
  // Plain assignments, one of them from a substitution (OUT=log_$(date +%s)):
  // those variables have no static value; the others are set.
  bool DynamicAssignments(const Cmd& c, Vars* vars);
  // `echo ... | tee [-a] LOG`: a line written to a log.
  static bool LogLine(const Pipeline& p);
  // `if [ -f FILE ]; then continue; fi`: a guard moelog does not take (it
  // makes every iteration). An `if` whose condition compares static words
  // (StaticCondition) walks the branch it takes: `continue` skips the rest
  // of the iteration, assignments set variables. Any other `if` cannot be
  // planned.
  void PlanIf(const Cmd& c, Vars* vars, int depth);
  std::optional<bool> StaticCondition(const List& cond, const Vars& vars);
  std::optional<bool> StaticTest(const Cmd& c, const Vars& vars);
  void NotRun(const std::string& what);
  // "no static value for $X", and where X was set when a line not run set it.
  std::string NoStaticValue(const std::string& unknown) const;

  // Something only bash can do: the plan needs --allow-shell, and then runs
  // under bash. `why` names it for the report.
  void Consent(const std::string& why);
  void Disallow(const std::string& program) { Consent("runs " + program); }
  void NoAdapter(const std::string& why) {
    if (no_adapter_.empty()) no_adapter_ = why;
  }
  void NotApplicable(const std::string& why) {
    if (not_applicable_.empty()) not_applicable_ = why;
  }

  // ------------------------------------------------------------ rendering
  void Memo(const Cmd* c, std::string rewritten, std::string harness) {
    if (!memo_.count(c)) memo_[c] = {std::move(rewritten), std::move(harness)};
  }
  void MemoRaw(const Cmd* c) { Memo(c, RenderSimpleRaw(*c), RenderSimpleRaw(*c)); }

  static std::string RenderRedirs(const Cmd& c);
  static std::string RenderEnv(const Cmd& c);
  static std::string RenderSimpleRaw(const Cmd& c) { return JoinRaw(c.words) + RenderRedirs(c); }

  std::string RenderCmd(const Cmd& c, bool harness);

  std::string RenderList(const List& l, bool harness);

  const PlanOptions& opts_;
  const LauncherTable& table_;
  Plan* plan_;
  std::string invalid_, no_adapter_, not_applicable_;
  std::map<const Cmd*, Rendered> memo_;
  std::vector<std::shared_ptr<List>> keep_;
  std::vector<std::string> loop_vars_;
  std::set<std::string> exported_;      // names the script exported
  std::string shell_unplannable_;       // why bash could not be given this plan's rewritten script
  bool errexit_ = false;  // `set -e` in effect
  std::map<std::string, std::string> pending_env_;   // launcher -e variables in scope
  std::map<std::string, std::string> launcher_env_;  // every launcher -e variable seen
  bool whole_command_ = true;
  // Launchers around the one being planned ("timeout 600 nice srun ..."):
  // each payload is planned again as a script, so the nesting is bounded.
  static constexpr int kMaxLaunchers = 32;
  int launchers_ = 0;
  size_t benches_ = 0;  // benchmark runs walked (AddBench): added, repeated or rejected
  std::set<std::string> seen_runs_;  // every invocation added (AddBench): its run, env and label
  bool skip_iteration_ = false;  // a taken `continue`: the loop body's rest is not walked
  size_t steps_ = 0, expanded_chars_ = 0;
  std::map<std::string, std::string> dynamic_;  // variables set by a line not run: name -> that line
  std::string over_budget_;
};

}  // namespace moelog::logbook::shell

#endif  // MOELOG_LOGBOOK_PLAN_SHELL_PLANNER_H_
