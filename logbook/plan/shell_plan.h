// Stage plan/: what an entry's commands would run, decided without running
// anything (this planner, launchers.h). Depends on doc/.
//
// The command planner: turns an entry's command text, as researchers write it,
// into a Plan of concrete `moelog bench` invocations, without running anything.
//
// Understood shell: words with '...', "...", \ escapes, $VAR / ${VAR} /
// ${VAR:-literal}; env prefixes (K=V cmd); `;`, `&&`, `||`, `|`, newlines;
// redirections (>, >>, 2>&1, <, <<<); `for x in a b; do ...; done` (nested,
// expanded statically: one invocation per iteration); `read -r A B <<< "..."`;
// `set -euo pipefail`; `/bin/bash -lc '...'` / `bash -c` / `sh -c` (planned
// recursively); remote launchers from the launcher table (stripped, `-e K=V`
// kept as variables); harness invocations from the table (rewritten into
// `moelog bench --target <t> ARGS`).
//
// Consent. A plan is kRunnable only when moelog can carry it out without any
// shell: the runner then starts no program but moelog itself. That holds for
// literal assignments and `export K=literal`, `set -e/-u/-o pipefail`, `echo`,
// `true`, `:`, `read <<< literal`, `for v in LITERALS`, `cd`/`mkdir` of
// folders inside the working folder (no effect on the runs), and a
// benchmark's output through `| tee F` or `> F` (moelog captures the output;
// the named file is not written). Anything else -- a substitution ($(..),
// `..`, $((..)), ${X:-$(..)}, ${#X}...) anywhere in the text, a program other
// than those words, a program given by path or by expansion, a pipeline or
// redirection of anything but a benchmark, `||`, `&` -- makes the plan
// kNeedsConsent, with each reason listed.
#ifndef MOELOG_LOGBOOK_SHELL_PLAN_H_
#define MOELOG_LOGBOOK_SHELL_PLAN_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/bench_config.h"
#include "engine/status.h"
#include "logbook/plan/adapters.h"
#include "logbook/plan/launchers.h"

namespace moelog::logbook {

// One concrete benchmark run the plan will make (after loop expansion).
struct BenchInvocation {
  std::vector<std::string> args;          // arguments after `moelog bench`, fully expanded, incl. --target
  std::string harness;                    // adapter name ("hillclimb") or "moelog" when written as moelog bench
  std::string label;                      // the adapter's run label ("ref_dp"), "" for a harness with one run
  std::string revision;                   // the harness revision the adapter applied, "" for today's
  std::string original;                   // the invocation as written (raw words, before expansion)
  std::string command_line;               // shell-quoted `moelog bench ARGS` for display and storage
  std::map<std::string, std::string> env; // env prefixes and launcher -e variables
  std::map<std::string, std::string> loop_bindings;  // loop/read variables in scope, e.g. {tk: "2"}
  engine::BenchConfig config;             // ParseBenchArgs(args)
  std::string canonical_config;           // engine::CanonicalConfigJson(config)
  bool errexit = false;                   // `set -e` is in effect: a failure ends the script here
};

enum class PlanVerdict {
  kRunnable,        // only moelog bench + interpreted shell words: runs without consent, without a shell
  kNeedsConsent,    // needs bash (see above): runs only with allow_shell
  kNoAdapter,       // an unknown script or a harness without adapter: skipped
  kNotApplicable,   // "N/A", launcher-only steps (allocate, --help), no benchmark at all
  kInvalid,         // cannot be planned: syntax error, bad harness flags, unknown variable
};

// "runnable", "needs-consent", "no-adapter", "n/a", "invalid".
const char* VerdictName(PlanVerdict v);

struct Plan {
  std::string original;           // the command text as given
  PlanVerdict verdict = PlanVerdict::kInvalid;
  std::string reason;             // why it is not runnable (empty when kRunnable)
  std::vector<BenchInvocation> invocations;  // in execution order; empty unless kRunnable/kNeedsConsent
  // The rewritten script (bash text): launchers stripped (their -e variables
  // exported first), harness invocations replaced by `moelog bench --target T`
  // with every new word shell-quoted; loops kept as loops.
  std::string rewritten_script;
  // The same script with harness invocations left as written (launchers still
  // stripped), for running the real harness unchanged.
  std::string harness_script;
  // True when only bash can carry the script out (then the plan is
  // kNeedsConsent); false when the runner makes the invocations itself,
  // starting no program but moelog.
  bool needs_shell = true;
  std::vector<std::string> disallowed;  // why the plan needs --allow-shell ("runs curl", "a substitution in `$(date)`")
  // kNeedsConsent plans that bash could run but moelog cannot plan (a
  // substitution in a harness flag, a for-list from $(...)): why. Such a plan
  // does not run even with consent.
  std::string unplannable;
  std::vector<std::string> notes;       // informational: "stripped launcher dev_tpu (-e LIBTPU_INIT_ARGS)"
  // Bookkeeping lines moelog understood and does not run (their effects
  // cannot reach the benchmark): log-file names from $(date ...), `: > LOG`,
  // `echo ... | tee -a LOG`, cd, mkdir, lock-file cleanup, venv
  // activation, file guards in loops. Listed in the region's note.
  std::vector<std::string> not_run;
  // Loop iterations whose flags parse but whose combination does not check
  // (--capacity-policy pad with --parallel-mode ep, which the harness refuses
  // too): not modeled, each with its loop values and the reason. Listed in
  // the region's note.
  std::vector<std::string> rejected;
  // Runs that repeat one already planned (same arguments, environment and
  // label: `for rep in 1 2; do CMD; done`): modeled once. How many, and the
  // loop variables that reached no argument.
  size_t repeats = 0;
  std::vector<std::string> repeat_vars;

  // One line for `--dry-run` and reports, e.g. "runnable: 4 invocation(s)",
  // "skipped: no adapter (bench_moe_mlp_profile.py: ...)", "skipped: N/A (setup)",
  // "skipped: needs --allow-shell (runs: curl)".
  std::string Summary() const;
};

struct PlanOptions {
  std::string target = "v5p";          // --target added to every rewritten invocation
  std::string moelog = "moelog";       // program name written into the rewritten script
  const LauncherTable* launchers = nullptr;  // null: DefaultLauncherTable()
  std::vector<std::string> extra_bench_args;  // appended to every invocation (e.g. {"--iters","1"})
  int max_invocations = 10000;         // loop expansion limit (kInvalid beyond it)
  EntryContext context;                // the entry's date and commit: which harness revision applies
  // The target names a GPU hardware file: GPU harnesses (adapters of
  // "class": "gpu") plan, each run's arguments checked against the GPU
  // bench's flags (engine/gpu/bench_flags.h); other harnesses and moelog
  // bench commands of cpu/v5p flags do not.
  bool gpu = false;
};

// Plans one command (one inline-code command or one fenced block). Never runs
// anything. Always returns a Plan; problems are expressed by its verdict and
// reason (a syntax error gives kInvalid with the reason). Text that is only
// "N/A ..." gives kNotApplicable.
Plan PlanCommand(std::string_view command_text, const PlanOptions& options = {});

// PlanCommand for each of `commands`, spread over `threads` threads (0: one
// per hardware thread, at most 8). Plans are independent, so the result is
// the same as planning them one by one, in the same order.
std::vector<Plan> PlanCommands(const std::vector<std::string_view>& commands, const PlanOptions& options = {},
                               int threads = 0);

// PlanCommand memoizes parsed harness argument lists for the life of the
// process; this drops them (benchmarks use it to time a cold process).
void ClearPlanCache();

// The shell words a plan may hold without consent (interpreted, never run).
const std::vector<std::string>& ShellAllowList();

// Quotes one word for bash (single quotes when needed; plain words unchanged).
std::string ShellQuote(std::string_view word);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_SHELL_PLAN_H_
