// Stage run/: runs planned commands and reads harness output
// (output_parse.h). Depends on plan/ and store/.
//
// The runner: executes a Plan (see shell_plan.h) and returns every run with
// its captured output. Paths:
//   - in-process: each invocation calls engine::RunBench with output captured
//     into a string (the default for v5p-model plans that need no shell);
//   - subprocess: each invocation runs `<moelog binary> bench ARGS` as a child
//     process with a timeout (the default for CPU engine plans without shell);
//   - shell: the rewritten script runs under bash (Boost.Process) with a
//     timeout, `moelog` defined as a function calling the moelog binary, in
//     the scratch folder, inside a bubblewrap sandbox unless sandbox "none";
//   - real harness: the harness script (harness invocations unchanged) runs
//     the same way; its output is parsed the same way.
// Without a shell, a failing invocation under `set -e` ends the plan there, as
// bash would; the later invocations are reported as not run.
// Shell and real-harness runs need consent (allow_shell), always: without it
// no shell is started, whatever the plan or the mode asked.
#ifndef MOELOG_LOGBOOK_RUNNER_H_
#define MOELOG_LOGBOOK_RUNNER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/run/output_parse.h"
#include "logbook/store/run_store.h"
#include "logbook/plan/launchers.h"
#include "logbook/plan/shell_plan.h"

namespace moelog::logbook {

enum class RunMode {
  kAuto,         // shell when plan.needs_shell; else in-process for the v5p model,
                 // a subprocess (with the timeout) for CPU engine runs
  kInProcess,    // REQUIRES: !plan.needs_shell (else NotSupported)
  kSubprocess,   // REQUIRES: !plan.needs_shell (else NotSupported)
  kShell,
  kRealHarness,  // always needs allow_shell
};

struct InvocationOutcome;

struct RunnerOptions {
  RunMode mode = RunMode::kAuto;
  bool allow_shell = false;        // consent to run kNeedsConsent plans and real harnesses
  double timeout_s = 3600;         // per child process (subprocess, shell); in-process (model) runs have none
  std::string moelog_binary;       // "" = this process's executable (/proc/self/exe)
  std::string bash = MOELOG_BASH;
  std::string working_dir;         // "" = current directory (subprocess; shell runs when scratch_dir is "")
  // Shell and real-harness runs (consented): their working folder, the only
  // one they may write when sandboxed ("" = working_dir).
  std::string scratch_dir;
  // Shell and real-harness runs: "bwrap" runs the script in a bubblewrap
  // sandbox (file system read-only except scratch_dir, no network, clean
  // environment) and refuses to run when it cannot start; "none" runs it
  // unsandboxed.
  std::string sandbox = "bwrap";
  std::string bwrap = "bwrap";     // the bubblewrap binary (a name is looked up in PATH)
  size_t tail_bytes = 8192;        // stdout/stderr tail kept in records
  // When non-empty and the plan runs without a shell, only these invocation
  // indices run (the others were cache hits). Ignored for shell runs.
  std::vector<size_t> only;
  // Real-harness runs: the table whose adapters' output rules read the
  // output of harnesses other than hillclimb (null: the built-in one).
  const LauncherTable* launchers = nullptr;
  // Subprocess runs of the cpu target: --max-memory GB for those that do
  // not set it themselves (0: the engine's default, the memory available).
  double max_memory_gb = 0;
  // Direct (in-process and subprocess) runs: called as each selected
  // invocation starts (outcome null) and ends (its outcome), for progress.
  std::function<void(size_t index, const InvocationOutcome* outcome)> on_invocation;
};

// The outcome of one invocation.
struct InvocationOutcome {
  size_t index = 0;                // into plan.invocations
  bool ran = false;                // false: skipped (options.only) or never reached (script stopped)
  std::vector<ParsedRun> runs;     // one per sweep point x queue mode
  Status status;                   // ok, or why it failed (engine error, exit status, timeout)
  int exit_status = 0;             // process exit status (in-process: the Status's exit code)
  bool timed_out = false;
  std::string stdout_text, stderr_text;  // this invocation's share (shell: its section)
  std::string start_time, end_time;      // ISO-8601 UTC
};

struct PlanOutcome {
  // "in-process" | "subprocess" | "shell sandbox=bwrap|none" | "real-harness sandbox=bwrap|none"
  std::string mode;
  std::vector<InvocationOutcome> invocations;  // same size and order as plan.invocations
  int exit_status = 0;             // of the script (shell modes), else worst invocation
  bool timed_out = false;
  std::string stdout_text, stderr_text;  // whole output (shell modes)
  // Runs the output had that no invocation claimed (real harness with an
  // unexpected number of process sections).
  std::vector<ParsedRun> unattributed;
};

// Runs a plan. Returns an error Status only when the plan must not or cannot
// run at all: NotSupported for kNoAdapter / kNotApplicable / kInvalid plans
// and for modes the plan cannot use, InvalidArgument ("needs --allow-shell:
// runs X") for kNeedsConsent without consent (no shell is ever started
// without consent), NotSupported when the sandbox cannot start (the way
// out: --sandbox none).
// Failures of the runs themselves (non-zero exit, timeout, engine errors) are
// reported in the outcome.
Result<PlanOutcome> RunPlan(const Plan& plan, const RunnerOptions& options);

// Whether RunPlan runs `plan` in this process (every invocation on the
// modeled target, no shell): deterministic and timing nothing, so such plans
// may run side by side on every core.
bool RunsInProcess(const Plan& plan, const RunnerOptions& options);

// One invocation's runs computed again in this process, without its text
// output (the v5p model: how a stored model row is checked).
Result<std::vector<ParsedRun>> RecomputeInProcess(const BenchInvocation& inv);

// Whether the bubblewrap sandbox can start here (installed, user namespaces
// allowed): probed once per process. NotSupported naming the way out
// (install bubblewrap, or --sandbox none) otherwise.
Status SandboxAvailable(const std::string& bwrap = "bwrap");

// A child process result.
struct ProcessResult {
  int exit_status = -1;            // -1 when killed
  int term_signal = 0;             // the signal that ended it (0: it exited)
  double peak_rss_bytes = 0;       // its largest resident size seen (VmHWM samples)
  bool timed_out = false;
  std::string stdout_text, stderr_text;
};

// The environment of every process moelog starts: this process's own
// variables (the user's) from an allow-list -- PATH, HOME, USER, LOGNAME,
// LANG, LC_*, TZ, TERM, TMPDIR, OMP_* thread placement, MOELOG_*, ONEDNN_*,
// DNNL_*, the sanitizers' options and OpenMPI's run-as-root permission. No
// LD_*, no other OMPI_*/PMIX_*, nothing from a document.
std::map<std::string, std::string> ChildEnvironment();

// Runs argv[0] (a path, or a name looked up in PATH) with argv[1..] in the
// ChildEnvironment() plus `env` (moelog's own variables); kills it after
// timeout_s. IOError if it cannot be started. No shell is involved.
Result<ProcessResult> RunProcess(const std::vector<std::string>& argv, double timeout_s,
                                 const std::map<std::string, std::string>& env = {},
                                 const std::string& working_dir = "");

// Provenance of a logbook: host, CPU model, moelog version, git commit and
// dirty flag of the repository holding `logbook_path` (empty commit if none).
struct Provenance {
  std::string host, cpu_model, moelog_version, git_commit;
  bool git_dirty = false;
  // Why the git state was not read: a FIFO, device or socket in the git
  // folder (refused before libgit2 opens anything), or libgit2 past its
  // deadline. "" when read (or when there is no repository).
  std::string problem;
};
Provenance CollectProvenance(const std::string& logbook_path);

// Rows for the store: one per run of every invocation that ran (a failed
// invocation with no runs still gives one row with status failed/timeout, so
// failures are recorded). Fills provenance, commands, config, cache key and
// runner. Runs made by a shell script carry "shell:"/"real-harness:" before
// their key: stored and shown, never served from the cache (what the script
// really ran is not known).
std::vector<RunRecord> ToRecords(const Plan& plan, const PlanOutcome& outcome,
                                 const std::string& entry_id, const std::string& logbook_path,
                                 const Provenance& provenance, size_t tail_bytes = 8192);

// Current time as ISO-8601 UTC with milliseconds.
std::string NowIso8601();

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RUNNER_H_
