// Bookkeeping lines around a benchmark (log-file names, truncation, tee to
// logs, mkdir, cd, lock-file cleanup, venv activation, file guards): not run,
// listed as not run, no consent needed. Values they set reach no flag moelog
// uses, or the reason names the flag and the line.
#include <gtest/gtest.h>

#include <string>

#include "logbook/plan/shell_plan.h"

namespace moelog::logbook {
namespace {

const char* kBench = "uv run --package levanter --extra tpu lib/levanter/scripts/bench/bench_moe_hillclimb.py";

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s.append(s.empty() ? "" : " | ").append(x);
  return s;
}

TEST(Bookkeeping, EachLineIsNotRunAndNeedsNoConsent) {
  const std::string b = kBench;
  for (const std::string& line : {
           std::string("OUT=.agents/logs/sweep_$(date +%Y%m%d_%H%M%S).log"), std::string(": > \"$OUT\""),
           std::string("echo \"RUN topk=2\" | tee -a \"$OUT\""), std::string("mkdir -p /tmp/traces"),
           std::string("cd ~/checkout"), std::string("sudo rm -f /tmp/libtpu_lockfile"),
           std::string("source .venv/bin/activate"), std::string(". ~/venv/bin/activate"),
           std::string("PROC_ID=$(hostname | sed 's/.*-w-//')"), std::string("echo started >> run.log"),
           std::string("uv pip install --reinstall pkg-cu13==9.1.0"), std::string("pip install -e ."),
           std::string("python -m pip install pkg"), std::string("uv sync --extra tpu")}) {
    const std::string text = "OUT=x.log\n" + line + "\n" + b + " --tokens 64 2>&1 | tee -a \"$OUT\"";
    const Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << line << " => " << p.Summary();
    EXPECT_FALSE(p.needs_shell) << line;
    EXPECT_EQ(p.invocations.size(), 1u) << line;
    EXPECT_FALSE(p.not_run.empty()) << line;
  }
}

// The sweep as researchers write it, inside a remote launcher: a log named by
// the date, truncated, a shape loop with `read <<<`, a guard that skips done
// iterations, and every line echoed into the log.
TEST(Bookkeeping, LauncherSweepWithLogsPlansEveryIteration) {
  const std::string text = std::string(
      "RAY_AUTH_MODE=token uv run scripts/ray/dev_tpu.py --config infra/c.yaml --tpu-name t execute --no-sync "
      "-e LIBTPU_INIT_ARGS='--xla_tpu_scoped_vmem_limit_kib=50000' -- /bin/bash -lc '\n"
      "set -euo pipefail\n"
      "cd ~/checkout\n"
      "OUT=.agents/logs/sweep_$(date +%Y%m%d_%H%M%S).log\n"
      "mkdir -p .agents/logs\n"
      ": > \"$OUT\"\n"
      "for shape in \"4096 1024 512 8\" \"8192 2048 1024 16\"; do\n"
      "  read -r T H M E <<<\"$shape\"\n"
      "  for K in 1 2 4; do\n"
      "    if [ -f \"$OUT.$T.$K.done\" ]; then echo skip; continue; fi\n"
      "    echo \"RUN $T $K\" | tee -a \"$OUT\"\n    ") + kBench +
      " --tokens \"$T\" --hidden \"$H\" --mlp-dim \"$M\" --experts \"$E\" --topk \"$K\" 2>&1 | tee -a \"$OUT\"\n"
      "  done\ndone'";
  const Plan p = PlanCommand(text);
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(p.invocations.size(), 6u);
  EXPECT_EQ(p.invocations[5].config.topk, 4);
  EXPECT_EQ(p.invocations[5].config.tokens, 8192);
  const std::string notes = Joined(p.not_run);
  for (const char* part : {"cd ~/checkout", "OUT=", "mkdir -p", ": > \"$OUT\"", "if [ -f", "echo \"RUN $T $K\" | tee -a"})
    EXPECT_NE(notes.find(part), std::string::npos) << part << " in " << notes;
}

// A value set by a line not run has no static value: a flag moelog uses that
// reads it cannot be planned, and the reason names the flag and the line.
TEST(Bookkeeping, DynamicValueReachingAUsedFlagNamesFlagAndLine) {
  const Plan p = PlanCommand(std::string("TOK=$(cat tokens.txt)\n") + kBench + " --tokens \"$TOK\"");
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid) << p.Summary();
  EXPECT_NE(p.reason.find("--tokens \"$TOK\": no static value for $TOK (set by 'TOK=$(cat tokens.txt)'"),
            std::string::npos)
      << p.reason;
}

// A file guard and comparisons of static words are understood; any other
// `if` cannot be planned.
TEST(Bookkeeping, OtherIfsCannotPlan) {
  for (const std::string& text : {
           std::string("for k in 1 2; do if [ -f x ]; then ") + kBench + " --topk $k; fi; done",
           std::string("if [ -f x ]; then continue; fi; ") + kBench,  // not in a loop
           std::string("for k in 1; do if [ -f x ]; then continue; else echo; fi; done"),
           std::string("for k in 1 2; do if [ \"$k\" -lt 2 ]; then continue; fi; ") + kBench + " --topk $k; done",
           std::string("for k in 1 2; do if [ \"$HOST\" = a ]; then continue; fi; ") + kBench + " --topk $k; done",
           std::string("for k in 1 2; do if [[ $k == 1* ]]; then continue; fi; ") + kBench + " --topk $k; done",
           std::string("for k in 1 2; do if grep -q x f; then continue; fi; ") + kBench + " --topk $k; done",
           std::string("if [ a = a ]; then continue; fi; ") + kBench}) {
    const Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kInvalid) << text << " => " << p.Summary();
    EXPECT_NE(p.reason.find("'if'"), std::string::npos) << p.reason;
  }
}

std::vector<std::string> ArgsOf(const Plan& p, const std::string& flag) {
  std::vector<std::string> out;
  for (const auto& inv : p.invocations) {
    std::string v = "-";
    for (size_t i = 0; i + 1 < inv.args.size(); ++i)
      if (inv.args[i] == flag) v = inv.args[i + 1];
    out.push_back(v);
  }
  return out;
}

// `[ ]` / `test` string comparisons of static words, joined by && and ||:
// a taken `continue` skips the iteration, a taken branch sets variables.
TEST(Bookkeeping, StaticIfSkipsIterationsAndSetsFlags) {
  const Plan guard = PlanCommand(std::string("set -euo pipefail; for k in 2 4 8; do for s in argsort tuple_sort; do ") +
                                 "if [ \"$k\" = \"2\" ] && [ \"$s\" != argsort ]; then continue; fi; " + kBench +
                                 " --topk \"$k\" --routing-pack-strategy \"$s\"; done; done");
  ASSERT_EQ(guard.verdict, PlanVerdict::kRunnable) << guard.Summary();
  EXPECT_EQ(ArgsOf(guard, "--topk"), (std::vector<std::string>{"2", "4", "4", "8", "8"}));
  EXPECT_FALSE(guard.needs_shell) << guard.Summary();

  const Plan extra = PlanCommand(std::string("for pm in none ep; do extra=\"\"; if [ \"$pm\" = ep ]; then ") +
                                 "extra=\"--ep-comm-path ring_ag_rs\"; fi; " + kBench +
                                 " --parallel-mode \"$pm\" $extra --topk 8; done");
  ASSERT_EQ(extra.verdict, PlanVerdict::kRunnable) << extra.Summary();
  EXPECT_EQ(ArgsOf(extra, "--ep-comm-path"), (std::vector<std::string>{"-", "ring_ag_rs"}));
  EXPECT_EQ(ArgsOf(extra, "--topk"), (std::vector<std::string>{"8", "8"}));

  const Plan forms = PlanCommand(std::string("for k in 1 2 4; do if test -z \"$k\" || [ $k == 1 ]; then continue; ") +
                                 "else echo run; fi; if [ -n \"$k\" ] && [[ $k != 4 ]]; then :; else continue; fi; " +
                                 kBench + " --topk $k; done");
  ASSERT_EQ(forms.verdict, PlanVerdict::kRunnable) << forms.Summary();
  EXPECT_EQ(ArgsOf(forms, "--topk"), (std::vector<std::string>{"2"}));
}

// A sweep iteration whose flags parse but whose combination does not check
// is listed, not modeled; the others are. All of them rejected: invalid.
TEST(Bookkeeping, RejectedIterationsAreListedNotModeled) {
  const Plan p = PlanCommand(std::string("for policy in none pad; do ") + kBench +
                             " --parallel-mode ep --capacity-policy \"$policy\"; done");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(ArgsOf(p, "--capacity-policy"), (std::vector<std::string>{"none"}));
  ASSERT_EQ(p.rejected.size(), 1u);
  EXPECT_NE(p.rejected[0].find("policy=pad: --capacity-policy"), std::string::npos) << p.rejected[0];
  const Plan all = PlanCommand(std::string("for policy in pad; do ") + kBench +
                               " --parallel-mode ep --capacity-policy \"$policy\"; done");
  EXPECT_EQ(all.verdict, PlanVerdict::kInvalid) << all.Summary();
  const Plan one = PlanCommand(std::string(kBench) + " --parallel-mode ep --capacity-policy pad");
  EXPECT_EQ(one.verdict, PlanVerdict::kInvalid) << one.Summary();
  const Plan typo = PlanCommand(std::string("for t in 1 x; do ") + kBench + " --topk \"$t\"; done");
  EXPECT_EQ(typo.verdict, PlanVerdict::kInvalid) << typo.Summary();
}

// `exec CMD` is a wrapper: the harness inside is planned; a package install
// under a time limit is bookkeeping.
TEST(Bookkeeping, ExecAndInstallInsideABashPayload) {
  const Plan p = PlanCommand(std::string("timeout 3600s bash -lc 'set -euo pipefail; uv pip install --reinstall ") +
                             "pkg==1.0; exec " + kBench + " --topk 4'");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(ArgsOf(p, "--topk"), (std::vector<std::string>{"4"}));
  EXPECT_FALSE(p.needs_shell);
  const Plan other = PlanCommand("pip download pkg; " + std::string(kBench));
  EXPECT_TRUE(other.needs_shell) << other.Summary();
}

// An author's elision: `... CMD` is setup left out (not run), `... --flags`
// is no command at all.
TEST(Bookkeeping, ElisionBeforeTheCommand) {
  const Plan p = PlanCommand("ssh host 'cd ~/x && ... .venv/bin/python lib/levanter/scripts/bench/"
                             "bench_moe_hillclimb.py --topk 2'");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_NE(Joined(p.not_run).find("..."), std::string::npos) << Joined(p.not_run);
  const Plan flags = PlanCommand("ssh host '... --quant-mode none ...'");
  EXPECT_EQ(flags.verdict, PlanVerdict::kNotApplicable) << flags.Summary();
  EXPECT_NE(flags.reason.find("elided with '...'"), std::string::npos) << flags.reason;
}

// `for rep in 1 2` whose variable reaches no flag: repetitions, one run per
// configuration, counted.
TEST(Bookkeeping, RepetitionLoopPlansEachConfigurationOnce) {
  const Plan p = PlanCommand(std::string("for rep in 1 2; do ") + kBench + " --topk 8; " + kBench +
                             " --topk 8 --use-custom-sort-vjp; done");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(p.invocations.size(), 2u);
  EXPECT_EQ(p.repeats, 2u);
  EXPECT_EQ(p.repeat_vars, (std::vector<std::string>{"rep"}));
  const Plan sweep = PlanCommand(std::string("for k in 2 4; do ") + kBench + " --topk $k; done");
  EXPECT_EQ(sweep.invocations.size(), 2u);
  EXPECT_EQ(sweep.repeats, 0u);
  // A repeat is still the benchmark: its output to a log needs no consent.
  const Plan logged = PlanCommand(std::string(kBench) + " --topk 8 > a.log\n" + kBench + " --topk 8 2>&1 | tee b.log");
  EXPECT_EQ(logged.verdict, PlanVerdict::kRunnable) << logged.Summary();
  EXPECT_FALSE(logged.needs_shell);
  EXPECT_EQ(logged.repeats, 1u);
}

// Not bookkeeping: what could change the benchmark still needs consent.
TEST(Bookkeeping, OtherProgramsStillNeedConsent) {
  for (const char* line : {"rm -f results.csv", "source env.sh", "export X=$(id)", "touch x", "date > f"}) {
    const Plan p = PlanCommand(std::string(line) + "; " + kBench + " --tokens 64");
    EXPECT_EQ(p.verdict, PlanVerdict::kNeedsConsent) << line << " => " << p.Summary();
  }
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// An ignored flag takes any word: a value with no static meaning that only
// such a flag reads does not stop the plan (the adapter drops it).
TEST(Bookkeeping, IgnoredFlagTakesADynamicWord) {
  const Plan p = PlanCommand(
      "TRACE=/tmp/trace_$(date +%s)\n"
      "python lib/levanter/scripts/bench/bench_moe_mlp_profile.py --tokens 4096 --hidden 1024 --mlp-dim 1024 "
      "--experts 16 --topk 2 --trace-dir \"$TRACE\"");
  EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_FALSE(p.invocations.empty());
}

// A later rewrite of the harness (kernel selection, EP lists) is not this
// harness, even where a flag is near a known one.
TEST(Bookkeeping, LaterRevisionFlagsAreAnotherHarness) {
  const Plan p = PlanCommand("python bench_moe_hillclimb.py --tokens 4096 --ep-list 4");
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(p.reason.find("not this harness (or a revision moelog does not know): unknown flag --ep-list"),
            std::string::npos)
      << p.reason;
  EXPECT_EQ(p.reason.find("did you mean"), std::string::npos) << p.reason;
  const Plan typo = PlanCommand("python bench_moe_hillclimb.py --tokens 4096 --topk-lst 2,4");
  EXPECT_NE(typo.reason.find("unknown flag --topk-lst (did you mean --topk-list?)"), std::string::npos)
      << typo.reason;
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

const std::string kHillclimb = "python lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 4096 --topk 2";

// A here-document written to a file (`cat > F <<EOF`, `tee F <<EOF`,
// `cat <<EOF | tee -a LOG`) is bookkeeping; the benchmark after it runs.
TEST(Bookkeeping, HereDocumentIntoAFileIsNotRun) {
  for (const std::string& lines : {
           std::string("cat > cfg.yaml <<'EOF'\nexperts: 16\ntopk: 2\nEOF\n"),
           std::string("cat <<EOF >> notes.txt\nrun $RUN\nEOF\n"),
           std::string("tee -a run.log <<-END\n\tstarted\n\tEND\n"),
           std::string("cat <<EOF | tee -a run.log\nsweep\nEOF\n")}) {
    const Plan p = PlanCommand(lines + kHillclimb);
    EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << lines << " => " << p.Summary();
    EXPECT_EQ(p.invocations.size(), 1u) << lines;
    EXPECT_FALSE(p.not_run.empty()) << lines;
  }
}

// A here-document into anything else is a program moelog does not run: code
// piped into python is not the benchmark.
TEST(Bookkeeping, HereDocumentIntoPythonIsNotTheBenchmark) {
  const Plan p = PlanCommand("uv run python - <<'PY'\nimport numpy as np\nprint(np.ones(3) << 2)\nPY\n");
  EXPECT_EQ(p.verdict, PlanVerdict::kNotApplicable) << p.Summary();
  EXPECT_NE(p.reason.find("code from standard input"), std::string::npos) << p.reason;
  // The body is not read as commands: its lines are never planned.
  const Plan q = PlanCommand("python - <<EOF\nrm -rf /\nEOF\n" + kHillclimb);
  EXPECT_EQ(q.verdict, PlanVerdict::kNeedsConsent) << q.Summary();
  EXPECT_EQ(q.invocations.size(), 1u);
  EXPECT_EQ(q.rewritten_script.find("<<"), q.rewritten_script.find("<<<")) << q.rewritten_script;
}

// An unterminated here-document runs to the end of the text, as in bash; a
// missing delimiter word is a syntax error, never a hang.
TEST(Bookkeeping, HereDocumentEdges) {
  EXPECT_EQ(PlanCommand("cat > f <<EOF\nno end").verdict, PlanVerdict::kNotApplicable);
  const Plan bad = PlanCommand("cat <<");
  EXPECT_EQ(bad.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(bad.reason.find("delimiter"), std::string::npos) << bad.reason;
  std::string many;
  for (int i = 0; i < 2000; ++i) many += "cat > f" + std::to_string(i) + " <<E\nx\nE\n";
  EXPECT_EQ(PlanCommand(many + kHillclimb).verdict, PlanVerdict::kRunnable);
}

// Environment files a host's shell setup sources (uv's installer, cargo,
// .bashrc) are bookkeeping like venv activation.
TEST(Bookkeeping, ShellEnvironmentFilesAreNotRun) {
  for (const char* line : {"source \"$HOME/.local/bin/env\"", ". ~/.cargo/env", "source ~/.bashrc"}) {
    const Plan p = PlanCommand(std::string(line) + "\n" + kHillclimb);
    EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << line << " => " << p.Summary();
  }
  EXPECT_EQ(PlanCommand("source ./setup_flags.sh\n" + kHillclimb).verdict, PlanVerdict::kNeedsConsent);
}

// An output folder without a static value is left out of the run
// (`--trace-dir "$HOME/..."`): moelog writes no traces.
TEST(Bookkeeping, OutputFolderWithoutStaticValueIsLeftOut) {
  const Plan p = PlanCommand(kHillclimb + " --trace-dir \"$HOME/traces/x\"");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_TRUE(p.invocations[0].config.trace_dir.empty());
  // A value moelog uses still must be static.
  EXPECT_EQ(PlanCommand(kHillclimb + " --experts \"$E\"").verdict, PlanVerdict::kInvalid);
  // A later revision's flags are named before a missing value.
  const Plan other = PlanCommand(kHillclimb + " --kernel current --profile-root \"$HOME/p\"");
  EXPECT_NE(other.reason.find("not this harness"), std::string::npos) << other.reason;
  EXPECT_NE(other.reason.find("--kernel, --profile-root"), std::string::npos) << other.reason;
}

// One far flag makes the whole invocation another harness: no "did you
// mean" for any of its flags.
TEST(Bookkeeping, FarFlagSuppressesHints) {
  const Plan p = PlanCommand(kHillclimb + " --ep-list 1,2,4 --topk-lst 2");
  EXPECT_EQ(p.reason.find("did you mean"), std::string::npos) << p.reason;
  EXPECT_NE(p.reason.find("unknown flags --ep-list, --topk-lst"), std::string::npos) << p.reason;
  const Plan far = PlanCommand(kHillclimb + " --zzz 1");
  EXPECT_NE(far.reason.find("not this harness"), std::string::npos) << far.reason;
}

}  // namespace
}  // namespace moelog::logbook
