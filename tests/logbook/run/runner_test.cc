#include "logbook/run/runner.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "engine/bench.h"

namespace moelog::logbook {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("moelog_runner_" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

void WriteExecutable(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), 0755);
}

// A stand-in for `moelog bench` / the harness: prints harness lines whose topk
// and distribution come from its arguments, then sleeps if FAKE_SLEEP is set.
const char* kFakeBench = R"(#!/bin/bash
topk=4; dist=random; nap=0
while [ $# -gt 0 ]; do
  case "$1" in
    --topk) topk="$2"; shift ;;
    --distribution) dist="$2"; shift ;;
    --sleep) nap="$2"; shift ;;
    --fail) echo "boom" >&2; exit 7 ;;
    --seed) if [ "$2" = 666 ]; then echo "boom" >&2; exit 7; fi; shift ;;
  esac
  shift
done
echo "devices=[fake]"
sleep "$nap"
echo "[$dist] mode=full pass=forward topk=$topk impl=fused_w13 backend=gmm time_s=0.500000 tflops=$topk.000 tokens_per_s=2.00"
echo "RESULT distribution=$dist mode=full pass=forward impl=fused_w13 backend=gmm topk=$topk null_target=0.000 null_realized=0.000 null_assignments=0 real_assignments=8 tflops=$topk.000000 tokens_per_s=2.000000"
)";

TEST(RunProcess, CapturesOutputAndExitStatus) {
  auto r = RunProcess({MOELOG_BASH, "-c", "echo out; echo err >&2; exit 3"}, 10);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stdout_text, "out\n");
  EXPECT_EQ(r->stderr_text, "err\n");
  EXPECT_EQ(r->exit_status, 3);
  EXPECT_FALSE(r->timed_out);
  auto env = RunProcess({"printenv", "MOELOG_TEST_VAR"}, 10, {{"MOELOG_TEST_VAR", "a b'c"}});
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(env->stdout_text, "a b'c\n");
  EXPECT_FALSE(RunProcess({"/no/such/program"}, 1).ok());
}

TEST(RunProcess, FastChildDoesNotWaitForTimeout) {
  auto t0 = Clock::now();
  auto r = RunProcess({"/bin/true"}, 30);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_status, 0);
  EXPECT_LT(Since(t0), 10.0);  // far under the 30 s timeout
}

TEST(RunProcess, TimeoutKillsTheWholeProcessGroup) {
  auto t0 = Clock::now();
  // The background sleep holds the pipes open: only a group kill ends it.
  auto r = RunProcess({MOELOG_BASH, "-c", "echo started; sleep 30 & sleep 30"}, 0.3);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_status, -1);
  EXPECT_EQ(r->stdout_text, "started\n");
  EXPECT_LT(Since(t0), 5.0);
}

TEST(Runner, ShellModeAttributesSectionsToInvocations) {
  std::string dir = TempDir("shell");
  std::string fake = dir + "/moelog";
  WriteExecutable(fake, kFakeBench);
  Plan plan = PlanCommand(
      "set -euo pipefail; for dist in random runs; do for tk in 1 3; do "
      "python bench_moe_hillclimb.py --tokens 64 --distribution \"$dist\" --topk \"$tk\" 2>&1 | tee -a log.txt; "
      "done; done");
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  ASSERT_FALSE(plan.needs_shell);  // `| tee` of a benchmark is captured, not run
  RunnerOptions o;
  o.mode = RunMode::kShell;  // with consent, the script may run under bash as written
  o.allow_shell = true;
  o.sandbox = "none";  // attribution, not the sandbox, is tested here
  o.moelog_binary = fake;
  o.working_dir = dir;
  o.timeout_s = 30;
  auto out = RunPlan(plan, o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->mode, "shell sandbox=none");
  ASSERT_EQ(out->invocations.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const auto& inv = out->invocations[i];
    EXPECT_TRUE(inv.ran);
    EXPECT_TRUE(inv.status.ok()) << inv.status.ToString();
    ASSERT_EQ(inv.runs.size(), 1u) << i;
    EXPECT_EQ(inv.runs[0].point.at("topk"), std::to_string(plan.invocations[i].config.topk));
    EXPECT_EQ(inv.runs[0].point.at("distribution"), plan.invocations[i].config.distribution);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/log.txt"));  // tee ran
  auto records = ToRecords(plan, *out, "E-1", "/x/log.md", Provenance{"h", "cpu", "0.1", "abc", false, ""});
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[3].status, "ok");
  EXPECT_FALSE(records[3].point.count("loop.tk"));  // loop variables are never configuration
  EXPECT_EQ(records[3].point.at("topk"), "3");
  // What a script ran is not known for sure: stored, never served from the cache.
  EXPECT_EQ(records[3].cache_key, "shell:" + CacheKey(plan.invocations[3].config));
  EXPECT_EQ(records[3].runner, "shell sandbox=none");
  EXPECT_DOUBLE_EQ(records[3].metrics.at("tflops"), 3.0);
}

TEST(Runner, ShellTimeoutIsRecorded) {
  std::string dir = TempDir("timeout");
  WriteExecutable(dir + "/moelog", kFakeBench);
  Plan plan = PlanCommand("moelog bench --tokens 64 --topk 1; moelog bench --tokens 64 --topk 2 2>&1 | tee x.log");
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  // The fake sleeps after its header when asked: the second invocation hangs.
  RunnerOptions o;
  o.mode = RunMode::kShell;
  o.allow_shell = true;
  o.sandbox = "none";  // attribution, not the sandbox, is tested here
  o.moelog_binary = dir + "/moelog";
  o.working_dir = dir;
  // Long enough for the first invocation on a loaded machine, far under the hang.
  o.timeout_s = 3.0;
  Plan slow = plan;
  slow.rewritten_script = "moelog bench --topk 1; moelog bench --topk 2 --sleep 30";
  auto t0 = Clock::now();
  auto out = RunPlan(slow, o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_LT(Since(t0), 20.0);
  EXPECT_TRUE(out->timed_out);
  ASSERT_EQ(out->invocations.size(), 2u);
  EXPECT_TRUE(out->invocations[0].status.ok());
  EXPECT_TRUE(out->invocations[1].ran);  // it printed its header, then hung
  EXPECT_TRUE(out->invocations[1].timed_out);
  auto recs = ToRecords(slow, *out, "E", "l.md", Provenance{});
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].status, "ok");
  EXPECT_EQ(recs[1].status, "timeout");
  Plan hang = plan;
  hang.rewritten_script = "moelog bench --topk 1 --sleep 30";
  out = RunPlan(hang, o);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->invocations[0].timed_out);
  recs = ToRecords(hang, *out, "E", "l.md", Provenance{});
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, "timeout");
  EXPECT_TRUE(recs[0].timed_out);
}

// Which invocations run after a failure: with `set -e` bash ends the script,
// without it bash goes on. The direct (no-shell) runner must agree with bash.
TEST(Runner, DirectRunnerHonoursSetE) {
  std::string dir = TempDir("errexit");
  WriteExecutable(dir + "/moelog", kFakeBench);
  for (const std::string prefix : {"set -euo pipefail; ", "set -e; set +e; ", ""}) {
    const bool errexit = prefix.rfind("set -euo", 0) == 0;
    Plan plan = PlanCommand(prefix + "for s in 1 666 2; do moelog bench --tokens 64 --seed \"$s\"; done");
    ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
    ASSERT_FALSE(plan.needs_shell) << prefix;
    ASSERT_EQ(plan.invocations.size(), 3u);
    EXPECT_EQ(plan.invocations[1].errexit, errexit) << prefix;
    RunnerOptions o;
    o.moelog_binary = dir + "/moelog";
    o.working_dir = dir;
    o.timeout_s = 30;
    for (RunMode mode : {RunMode::kSubprocess, RunMode::kShell}) {
      o.mode = mode;
      o.allow_shell = mode == RunMode::kShell;
      o.sandbox = "none";
      auto out = RunPlan(plan, o);
      ASSERT_TRUE(out.ok()) << out.status().ToString();
      ASSERT_EQ(out->invocations.size(), 3u) << prefix << out->mode;
      EXPECT_TRUE(out->invocations[0].status.ok()) << prefix << out->mode;
      EXPECT_TRUE(out->invocations[1].ran) << prefix << out->mode;
      EXPECT_FALSE(out->invocations[1].status.ok()) << prefix << out->mode;
      EXPECT_EQ(out->invocations[2].ran, !errexit) << prefix << out->mode;
    }
  }
}

// Without a shell, plans for the v5p model run in this process; plans that
// run the CPU engine get a child process (with the timeout).
TEST(Runner, AutoModeRunsCpuEngineInAChildProcess) {
  std::string dir = TempDir("auto");
  WriteExecutable(dir + "/moelog", kFakeBench);
  PlanOptions po;
  po.target = "cpu";
  Plan plan = PlanCommand("moelog bench --tokens 64 --topk 3 --sleep-not-a-flag", po);
  EXPECT_EQ(plan.verdict, PlanVerdict::kInvalid);
  plan = PlanCommand("moelog bench --tokens 64 --topk 3", po);
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  RunnerOptions o;
  o.moelog_binary = dir + "/moelog";  // the fake answers: a child process ran
  o.working_dir = dir;
  auto out = RunPlan(plan, o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->mode, "subprocess");
  ASSERT_EQ(out->invocations[0].runs.size(), 1u);
  EXPECT_DOUBLE_EQ(out->invocations[0].runs[0].metrics.at("tflops"), 3.0);
  po.target = "v5p";
  out = RunPlan(PlanCommand("moelog bench --tokens 64 --topk 3", po), o);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->mode, "in-process");
}

TEST(Runner, FailureIsReportedNotFatal) {
  std::string dir = TempDir("fail");
  WriteExecutable(dir + "/moelog", kFakeBench);
  Plan plan = PlanCommand("moelog bench --tokens 64 --topk 1 | tee o.log");
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable);
  plan.rewritten_script = "set -o pipefail; moelog bench --fail | tee o.log";
  RunnerOptions o;
  o.mode = RunMode::kShell;
  o.allow_shell = true;
  o.sandbox = "none";  // attribution, not the sandbox, is tested here
  o.moelog_binary = dir + "/moelog";
  o.working_dir = dir;
  auto out = RunPlan(plan, o);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->exit_status, 7);
  ASSERT_TRUE(out->invocations[0].ran);
  EXPECT_FALSE(out->invocations[0].status.ok());
  auto recs = ToRecords(plan, *out, "E", "l.md", Provenance{});
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, "failed");
  EXPECT_EQ(recs[0].exit_status, 7);
  EXPECT_NE(recs[0].stderr_tail.find("boom"), std::string::npos);
}

TEST(Runner, ConsentIsRequired) {
  std::string dir = TempDir("consent");
  Plan plan = PlanCommand("touch pwned; python bench_moe_hillclimb.py --tokens 64");
  ASSERT_EQ(plan.verdict, PlanVerdict::kNeedsConsent);
  RunnerOptions o;
  o.working_dir = dir;
  auto out = RunPlan(plan, o);
  EXPECT_EQ(out.status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(dir + "/pwned"));
  Plan na = PlanCommand("N/A (setup)");
  EXPECT_EQ(RunPlan(na, o).status().code(), Status::Code::kNotSupported);
  Plan runnable = PlanCommand("python bench_moe_hillclimb.py --tokens 64");
  o.mode = RunMode::kRealHarness;
  EXPECT_EQ(RunPlan(runnable, o).status().code(), Status::Code::kInvalidArgument);
  o.mode = RunMode::kShell;  // no shell without consent, whatever the mode asked
  EXPECT_EQ(RunPlan(runnable, o).status().code(), Status::Code::kInvalidArgument);
  o.mode = RunMode::kInProcess;
  Plan piped = PlanCommand("python bench_moe_hillclimb.py --tokens 64 | grep x");
  ASSERT_EQ(piped.verdict, PlanVerdict::kNeedsConsent);
  EXPECT_EQ(RunPlan(piped, o).status().code(), Status::Code::kInvalidArgument);
  o.allow_shell = true;  // consented, but only bash can run a pipeline into grep
  EXPECT_EQ(RunPlan(piped, o).status().code(), Status::Code::kNotSupported);
}

// With consent the script runs in the sandbox: a write outside the scratch
// folder fails there, and the failure is recorded.
TEST(Runner, SandboxKeepsWritesInTheScratchFolder) {
  if (Status st = SandboxAvailable(); !st.ok()) GTEST_SKIP() << st.ToString();
  std::string dir = TempDir("sandbox");
  WriteExecutable(dir + "/moelog", kFakeBench);
  std::filesystem::create_directories(dir + "/scratch");
  // (Outside the scratch folder the sandbox's file system is read-only
  // system folders or its own empty tmpfs: a write to /usr fails.)
  Plan plan = PlanCommand("set -e; date > /usr/moelog-outside.txt; moelog bench --tokens 64 --topk 1");
  ASSERT_EQ(plan.verdict, PlanVerdict::kNeedsConsent) << plan.Summary();
  RunnerOptions o;
  o.allow_shell = true;
  o.moelog_binary = dir + "/moelog";
  o.working_dir = dir;
  o.scratch_dir = dir + "/scratch";
  auto out = RunPlan(plan, o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->mode, "shell sandbox=bwrap");
  EXPECT_FALSE(std::filesystem::exists("/usr/moelog-outside.txt"));
  auto recs = ToRecords(plan, *out, "E", "l.md", Provenance{});
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, "failed");
  EXPECT_EQ(recs[0].runner, "shell sandbox=bwrap");
  EXPECT_EQ(recs[0].cache_key.rfind("shell:", 0), 0u);  // never served from the cache
  // Inside the scratch folder the same script runs.
  Plan inside = PlanCommand("set -e; date > inside.txt; moelog bench --tokens 64 --topk 1");
  out = RunPlan(inside, o);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(std::filesystem::exists(dir + "/scratch/inside.txt"));
  ASSERT_EQ(out->invocations.size(), 1u);
  EXPECT_TRUE(out->invocations[0].status.ok()) << out->invocations[0].status.ToString();
  // A sandbox that cannot start is refused, never silently skipped.
  o.bwrap = dir + "/no-such-bwrap";
  EXPECT_EQ(RunPlan(plan, o).status().code(), Status::Code::kNotSupported);
}

// Every process moelog starts gets a clean environment: the user's allow-listed
// variables, never LD_*, OpenMPI's or a document's.
TEST(Runner, ChildEnvironmentIsAllowListed) {
  ::setenv("LD_PRELOAD_TEST_SENTINEL", "x", 1);
  ::setenv("LD_PRELOAD", "", 1);
  ::setenv("OMPI_MCA_plm", "isolated", 1);
  ::setenv("MOELOG_CPU_ISA", "avx2", 1);
  auto env = ChildEnvironment();
  ::unsetenv("LD_PRELOAD_TEST_SENTINEL");
  ::unsetenv("LD_PRELOAD");
  ::unsetenv("OMPI_MCA_plm");
  ::unsetenv("MOELOG_CPU_ISA");
  EXPECT_FALSE(env.count("LD_PRELOAD"));
  EXPECT_FALSE(env.count("LD_PRELOAD_TEST_SENTINEL"));
  EXPECT_FALSE(env.count("OMPI_MCA_plm"));
  EXPECT_EQ(env.at("MOELOG_CPU_ISA"), "avx2");  // the user's own setting
  EXPECT_TRUE(env.count("PATH"));
  // A document's env prefix reaches nothing: the child sees no LD_PRELOAD.
  std::string dir = TempDir("env");
  Plan plan = PlanCommand("LD_PRELOAD=/tmp/evil.so MOE_X=1 moelog bench --tokens 64 --topk 1");
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  WriteExecutable(dir + "/moelog", "#!/bin/sh\nenv > " + dir + "/env.txt\n");
  RunnerOptions o;
  o.mode = RunMode::kSubprocess;
  o.moelog_binary = dir + "/moelog";
  o.working_dir = dir;
  ASSERT_TRUE(RunPlan(plan, o).ok());
  std::ifstream in(dir + "/env.txt");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(all.find("PATH="), std::string::npos);
  EXPECT_EQ(all.find("LD_PRELOAD"), std::string::npos) << all;
  EXPECT_EQ(all.find("MOE_X"), std::string::npos) << all;
}

TEST(Runner, RealHarnessModeRunsTheScriptUnchanged) {
  std::string dir = TempDir("real");
  WriteExecutable(dir + "/bench_moe_hillclimb.py", kFakeBench);
  Plan plan = PlanCommand("for tk in 2 5; do ./bench_moe_hillclimb.py --tokens 64 --topk \"$tk\"; done");
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  RunnerOptions o;
  o.mode = RunMode::kRealHarness;
  o.allow_shell = true;
  o.sandbox = "none";  // attribution, not the sandbox, is tested here
  o.working_dir = dir;
  auto out = RunPlan(plan, o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->mode, "real-harness sandbox=none");
  ASSERT_EQ(out->invocations.size(), 2u);
  ASSERT_EQ(out->invocations[1].runs.size(), 1u);
  EXPECT_DOUBLE_EQ(out->invocations[1].runs[0].metrics.at("tflops"), 5.0);
}

// A harness adapted by a file alone, run unchanged: its adapter's output
// rules read its lines, each metric to its run (by label, in order).
TEST(Runner, RealHarnessOutputReadByItsAdapter) {
  std::string dir = TempDir("real_adapter");
  std::filesystem::create_directories(dir + "/bench");
  WriteExecutable(dir + "/bench/compare_meshes.py", "#!/bin/bash\n"
                                                     "echo \"[data] step_time_s=0.0${MOE_TOPK}5\"\n"
                                                     "echo \"[data x expert] step_time_s=0.0${MOE_TOPK}3\"\n");
  LauncherTable table = DefaultLauncherTable();
  ASSERT_TRUE(AddAdapters(std::string(MOELOG_TEST_DATA_DIR) + "/golden/adapters/adapters", &table).ok());
  PlanOptions po;
  po.launchers = &table;
  Plan plan = PlanCommand("for k in 2 4; do MOE_TOPK=$k ./bench/compare_meshes.py; done", po);
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  ASSERT_EQ(plan.invocations.size(), 4u);
  RunnerOptions o;
  o.mode = RunMode::kRealHarness;
  o.allow_shell = true;
  o.sandbox = "none";
  o.working_dir = dir;
  o.launchers = &table;
  auto out = RunPlan(plan, o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const double want[] = {0.025, 0.023, 0.045, 0.043};  // k=2 data, data x expert; k=4 ...
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ(out->invocations[i].runs.size(), 1u);
    EXPECT_TRUE(out->invocations[i].status.ok());
    EXPECT_DOUBLE_EQ(out->invocations[i].runs[0].metrics.at("time_s"), want[i]);
  }
}

// The in-process fast path and a subprocess of the real binary agree (v5p is
// modeled and deterministic), and both agree with RunBench called directly.
TEST(Runner, InProcessMatchesSubprocess) {
  PlanOptions po;
  po.target = "v5p";
  Plan plan = PlanCommand(
      "for tk in 2 8; do python bench_moe_hillclimb.py --distribution random --tokens 32768 --hidden 2048 "
      "--mlp-dim 1408 --experts 60 --topk \"$tk\" --impl fused_w13 --parallel-mode ep --iters 3 --warmup 1; done",
      po);
  ASSERT_EQ(plan.verdict, PlanVerdict::kRunnable) << plan.Summary();
  RunnerOptions o;
  o.mode = RunMode::kInProcess;
  auto in = RunPlan(plan, o);
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  if (!in->invocations[0].status.ok() && in->invocations[0].status.code() == Status::Code::kNotSupported)
    GTEST_SKIP() << "v5p target not in this build: " << in->invocations[0].status.ToString();
  o.mode = RunMode::kSubprocess;
  o.moelog_binary = MOELOG_BINARY;
  o.timeout_s = 60;
  auto sub = RunPlan(plan, o);
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(in->invocations[i].status.ok()) << in->invocations[i].status.ToString();
    ASSERT_TRUE(sub->invocations[i].status.ok()) << sub->invocations[i].stderr_text;
    ASSERT_EQ(in->invocations[i].runs.size(), sub->invocations[i].runs.size());
    ASSERT_FALSE(in->invocations[i].runs.empty());
    for (size_t k = 0; k < in->invocations[i].runs.size(); ++k) {
      double a = in->invocations[i].runs[k].metrics.at("tflops");
      double b = sub->invocations[i].runs[k].metrics.at("tflops");
      EXPECT_GT(a, 0);
      EXPECT_NEAR(a, b, 1e-5 * a + 1e-6);
    }
    std::ostringstream sink;
    auto direct = engine::RunBench(plan.invocations[i].config, sink, false);
    ASSERT_TRUE(direct.ok());
    EXPECT_DOUBLE_EQ(direct->front().tflops, in->invocations[i].runs.front().metrics.at("tflops"));
  }
  // Selecting only invocation 1 (invocation 0 was a cache hit).
  o.mode = RunMode::kInProcess;
  o.only = {1};
  auto part = RunPlan(plan, o);
  ASSERT_TRUE(part.ok());
  EXPECT_FALSE(part->invocations[0].ran);
  EXPECT_TRUE(part->invocations[1].ran);
}

TEST(Runner, ProvenanceOfThisRepository) {
  Provenance p = CollectProvenance(std::string(MOELOG_TEST_DATA_DIR) + "/CMakeLists.txt");
  EXPECT_FALSE(p.host.empty());
  EXPECT_EQ(p.moelog_version, MOELOG_VERSION);
  if (!p.git_commit.empty()) {
    EXPECT_EQ(p.git_commit.size(), 40u);
  }
  EXPECT_EQ(NowIso8601().size(), 24u);
}

}  // namespace
}  // namespace moelog::logbook
