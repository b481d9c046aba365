#include "logbook/run/runner.h"

#include "engine/source_dir.h"

#include <signal.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include <dirent.h>
#include <sys/stat.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>

#include <git2.h>

#include "engine/bench.h"
#include "logbook/budgets.h"
#include "engine/target.h"
#include "logbook/file_util.h"
#include "logbook/run/child_failure.h"
#include "logbook/run/child_groups.h"

namespace moelog::logbook {
namespace bp = boost::process;
namespace {

std::string Tail(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(s.size() - n); }

// This binary's path. A binary replaced on disk while it runs (rebuilt or
// upgraded during a long update) reads "<path> (deleted)": the runs go on
// with the binary now at that path, not with a search of PATH.
std::string SelfExe() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  buf[n] = '\0';
  std::string self(buf);
  static const std::string kDeleted = " (deleted)";
  if (self.size() > kDeleted.size() && self.compare(self.size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0 &&
      ::access(self.c_str(), X_OK) != 0)
    self.resize(self.size() - kDeleted.size());
  return self;
}

// The moelog binary used by subprocess and shell runs.
std::string MoelogBinary(const RunnerOptions& o) {
  if (!o.moelog_binary.empty()) return o.moelog_binary;
  std::string self = SelfExe();
  auto slash = self.find_last_of('/');
  if (self.substr(slash == std::string::npos ? 0 : slash + 1) == "moelog") return self;
  auto found = bp::search_path("moelog");
  return found.empty() ? std::string("moelog") : found.string();
}

// Splits output into per-process sections at `devices=` header lines.
std::vector<std::string> SplitSections(const std::string& text) {
  std::vector<std::string> sections;
  std::string cur;
  bool started = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string::npos ? text.size() : nl + 1;
    std::string line = text.substr(pos, end - pos);
    if (line.rfind("devices=", 0) == 0) {
      if (started) sections.push_back(cur);
      cur.clear();
      started = true;
    }
    cur += line;
    pos = end;
  }
  if (started) sections.push_back(cur);
  return sections;
}

InvocationOutcome RunInProcess(const BenchInvocation& inv, size_t index) {
  InvocationOutcome o;
  o.index = index;
  o.ran = true;
  o.start_time = NowIso8601();
  std::ostringstream out;
  try {
    auto results = engine::RunBench(inv.config, out, true);
    if (results.ok()) {
      for (const auto& r : *results) o.runs.push_back(RunFromResult(r));
    } else {
      o.status = results.status();
      o.exit_status = results.status().ExitCode();
      o.stderr_text = "moelog bench: error: " + results.status().ToString() + "\n";
    }
  } catch (const std::exception& e) {  // the engine does not throw; this guards the boundary
    o.status = Status::Internal(e.what());
    o.exit_status = kExitError;
  }
  o.stdout_text = out.str();
  o.end_time = NowIso8601();
  return o;
}

}  // namespace

Result<std::vector<ParsedRun>> RecomputeInProcess(const BenchInvocation& inv) {
  std::ostringstream none;
  auto results = engine::RunBench(inv.config, none, false);
  if (!results.ok()) return results.status();
  std::vector<ParsedRun> runs;
  for (const auto& r : *results) runs.push_back(RunFromResult(r));
  return runs;
}

namespace {

InvocationOutcome RunAsSubprocess(const BenchInvocation& inv, size_t index, const RunnerOptions& opts) {
  InvocationOutcome o;
  o.index = index;
  o.ran = true;
  o.start_time = NowIso8601();
  std::vector<std::string> argv = {MoelogBinary(opts), "bench"};
  argv.insert(argv.end(), inv.args.begin(), inv.args.end());
  if (opts.max_memory_gb > 0 && inv.config.max_memory_gb <= 0 && inv.config.target == "cpu") {
    char gb[32];
    std::snprintf(gb, sizeof gb, "%.3f", opts.max_memory_gb);
    argv.insert(argv.end(), {"--max-memory", gb});
  }
  // The document's environment values are the adapter's configuration, never
  // the child's environment (RunProcess gives it a clean one).
  auto r = RunProcess(argv, opts.timeout_s, {}, opts.working_dir);
  o.end_time = NowIso8601();
  if (!r.ok()) {
    o.status = r.status();
    o.exit_status = -1;
    return o;
  }
  o.exit_status = r->exit_status;
  o.timed_out = r->timed_out;
  o.stdout_text = r->stdout_text;
  o.stderr_text = r->stderr_text;
  o.runs = ParseHarnessOutput(r->stdout_text).runs;
  if (r->timed_out || r->exit_status != 0 || r->term_signal != 0) {
    ChildEnd end;
    end.exit_status = r->exit_status;
    end.term_signal = r->term_signal;
    end.timed_out = r->timed_out;
    end.timeout_s = opts.timeout_s;
    end.peak_rss_bytes = r->peak_rss_bytes;
    end.mem_total_bytes = MemTotalBytes();
    end.stderr_text = r->stderr_text;
    o.status = ChildFailure("moelog bench", end);
  }
  return o;
}

// Copies a script's exit status and output into `out`; false (every
// invocation carrying the error) when the script could not be started.
bool TakeScriptResult(const Result<ProcessResult>& r, PlanOutcome* out) {
  if (!r.ok()) {
    out->exit_status = -1;
    for (auto& inv : out->invocations) inv.status = r.status();
    return false;
  }
  out->exit_status = r->exit_status;
  out->timed_out = r->timed_out;
  out->stdout_text = r->stdout_text;
  out->stderr_text = r->stderr_text;
  return true;
}

bool IsDir(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The sandbox's file system: the system's programs and libraries read-only
// (/usr, /bin, /sbin, /lib*), /etc read-only without its secrets (shadow
// files, ssh and TLS private keys, sudoers), fresh /dev and /proc, empty
// tmpfs over /tmp, /run, /var and $HOME (no host socket, no key, no
// history), and moelog itself and its data read-only. The caller binds the
// scratch and trace folders writable on top.
void SandboxMounts(const std::string& moelog, std::vector<std::string>* argv) {
  argv->insert(argv->end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* d : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat st;
    if (::lstat(d, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[4096];
      const ssize_t n = ::readlink(d, target, sizeof target - 1);
      if (n <= 0) continue;
      argv->insert(argv->end(), {"--symlink", std::string(target, static_cast<size_t>(n)), d});
    } else if (S_ISDIR(st.st_mode)) {
      argv->insert(argv->end(), {"--ro-bind", d, d});
    }
  }
  argv->insert(argv->end(), {"--ro-bind", "/etc", "/etc"});
  for (const char* f : {"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers",
                        "/etc/security/opasswd"}) {
    struct stat st;
    if (::lstat(f, &st) == 0 && S_ISREG(st.st_mode)) argv->insert(argv->end(), {"--ro-bind", "/dev/null", f});
  }
  for (const char* d : {"/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d", "/etc/credstore", "/etc/NetworkManager"})
    if (IsDir(d)) argv->insert(argv->end(), {"--tmpfs", d});
  argv->insert(argv->end(), {"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run", "--tmpfs",
                             "/var"});
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/' && std::string(home) != "/") argv->insert(argv->end(), {"--tmpfs", home});
  // moelog and the data files its model reads (hardware, parameters).
  if (!moelog.empty() && moelog[0] == '/') argv->insert(argv->end(), {"--ro-bind", moelog, moelog});
  std::vector<std::string> data;
  if (const char* d = std::getenv("MOELOG_DATA_DIR"); d && d[0] == '/') data.push_back(d);
  const std::string self = SelfExe();
  if (!self.empty()) data.push_back(self.substr(0, self.rfind('/')) + "/../share/moelog/data");
  data.push_back(SourceTreeDataDir());
  for (const auto& d : data) {
    std::error_code ec;
    const std::string real = std::filesystem::canonical(d, ec).string();
    if (!ec && IsDir(real)) argv->insert(argv->end(), {"--ro-bind", real, real});
  }
}

// The folder a shell run works in.
std::string ScratchOf(const RunnerOptions& o) { return o.scratch_dir.empty() ? o.working_dir : o.scratch_dir; }

// The command that runs `script` under bash for a consented shell run: in a
// bubblewrap sandbox whose file system is read-only except the scratch folder
// (and the trace folder, when given), with no network, or bare with
// --sandbox none. REQUIRES: RunPlan checked that the sandbox can start.
Result<std::vector<std::string>> ShellCommand(const RunnerOptions& o, const std::string& script,
                                              const std::string& trace_dir) {
  if (o.sandbox == "none") return std::vector<std::string>{o.bash, "-c", script};
  if (o.sandbox != "bwrap") return Status::InvalidArgument("--sandbox must be bwrap or none (got '" + o.sandbox + "')");
  const std::string scratch = std::filesystem::absolute(ScratchOf(o).empty() ? "." : ScratchOf(o)).string();
  std::vector<std::string> argv = {o.bwrap, "--unshare-all", "--die-with-parent", "--new-session"};
  SandboxMounts(MoelogBinary(o), &argv);
  argv.insert(argv.end(), {"--bind", scratch, scratch});
  if (!trace_dir.empty()) argv.insert(argv.end(), {"--bind", trace_dir, trace_dir});
  argv.insert(argv.end(), {"--chdir", scratch, "--", o.bash, "-c", script});
  return argv;
}

// A script that ended (failed or timed out) before its first benchmark: the
// first invocation carries the failure, so that it is recorded.
void FailFirstInvocation(const ProcessResult& r, double timeout_s, const char* when, PlanOutcome* out) {
  InvocationOutcome& o = out->invocations[0];
  o.ran = true;
  o.timed_out = r.timed_out;
  o.exit_status = r.timed_out ? -1 : r.exit_status;
  o.stderr_text = r.stderr_text;
  o.status = r.timed_out ? Status::Timeout("timed out after " + std::to_string(timeout_s) + " s")
                         : Status::Internal("script exited with status " + std::to_string(r.exit_status) + " " + when);
}

// A real-harness run of harnesses whose adapters read their output (output
// rules): each metric line goes to the first invocation, in plan order, of
// that adapter and run label that has no value for that metric yet. False
// when no invocation's adapter has output rules (the hillclimb harness's
// own lines are read as for every other run).
bool AttributeAdapterOutput(const Plan& plan, const LauncherTable& table, const ProcessResult& r,
                            PlanOutcome* out) {
  std::map<std::string, const Adapter*> adapters;
  for (const auto& inv : plan.invocations)
    for (const auto& a : table.harnesses)
      if (a.name == inv.harness && !a.output.empty()) adapters.emplace(a.name, &a);
  if (adapters.empty()) return false;
  for (const auto& [name, a] : adapters)
    for (const AdapterMetric& m : AdapterOutputLines(*a, r.stdout_text))
      for (size_t i = 0; i < plan.invocations.size(); ++i) {
        const BenchInvocation& inv = plan.invocations[i];
        InvocationOutcome& o = out->invocations[i];
        if (inv.harness != name || inv.label != m.label) continue;
        if (o.runs.empty()) o.runs.emplace_back();
        if (o.runs[0].metrics.count(m.metric)) continue;
        o.runs[0].metrics[m.metric] = m.value;
        break;
      }
  bool failure_told = false;
  for (InvocationOutcome& o : out->invocations) {
    o.ran = !o.runs.empty();
    if (o.ran) continue;
    if (!failure_told && (r.timed_out || r.exit_status != 0)) {
      failure_told = true;
      o.ran = true;
      o.timed_out = r.timed_out;
      o.exit_status = r.timed_out ? -1 : r.exit_status;
      o.stderr_text = r.stderr_text;
      o.status = r.timed_out ? Status::Timeout("timed out") : Status::Internal("script exited with status " +
                                                                                  std::to_string(r.exit_status));
      continue;
    }
    o.status = Status::NotFound("the output has no line of this run");
  }
  return true;
}

// Runs a script under bash and attributes its output sections to the plan's
// invocations in order.
PlanOutcome RunScript(const Plan& plan, const std::string& script, const RunnerOptions& opts,
                      const std::string& mode) {
  PlanOutcome out;
  out.mode = mode + " sandbox=" + opts.sandbox;
  const std::string start = NowIso8601();
  auto argv = ShellCommand(opts, script, "");
  Result<ProcessResult> r = argv.ok() ? RunProcess(*argv, opts.timeout_s, {}, ScratchOf(opts))
                                      : Result<ProcessResult>(argv.status());
  const std::string end = NowIso8601();
  out.invocations.resize(plan.invocations.size());
  for (size_t i = 0; i < out.invocations.size(); ++i) out.invocations[i].index = i;
  if (!TakeScriptResult(r, &out)) return out;
  for (auto& o : out.invocations) o.start_time = start, o.end_time = end;
  if (mode == "real-harness" &&
      AttributeAdapterOutput(plan, opts.launchers ? *opts.launchers : DefaultLauncherTable(), *r, &out))
    return out;
  ParsedOutput parsed = ParseHarnessOutput(r->stdout_text);
  std::vector<std::string> sections = SplitSections(r->stdout_text);
  const size_t n = out.invocations.size();
  for (auto& run : parsed.runs) {
    size_t s = static_cast<size_t>(run.section);
    if (parsed.sections == 0 || s >= n) {
      out.unattributed.push_back(run);
    } else {
      out.invocations[s].runs.push_back(run);
    }
  }
  size_t reached = std::min(sections.size(), n);
  for (size_t i = 0; i < n; ++i) {
    InvocationOutcome& o = out.invocations[i];
    o.start_time = start;
    o.end_time = end;
    if (i >= reached) {
      o.ran = false;
      o.status = Status::NotFound("not reached: the script stopped before this invocation");
      continue;
    }
    o.ran = true;
    o.stdout_text = sections[i];
    const bool last = i + 1 == reached;
    if (last && r->timed_out) {
      o.timed_out = true;
      o.exit_status = -1;
      o.status = Status::Timeout("timed out after " + std::to_string(opts.timeout_s) + " s");
      o.stderr_text = r->stderr_text;
    } else if (last && r->exit_status != 0 && (reached == n || o.runs.empty())) {
      o.exit_status = r->exit_status;
      o.status = Status::Internal("script exited with status " + std::to_string(r->exit_status));
      o.stderr_text = r->stderr_text;
    }
  }
  // A script that failed before printing any header: the first invocation carries the failure.
  if (reached == 0 && n > 0) FailFirstInvocation(*r, opts.timeout_s, "before any benchmark output", &out);
  return out;
}

// The `moelog` shell function of the shell mode. Each call numbers itself in
// TRACE/count (a file: calls inside pipelines run in subshells), copies its
// stdout to N.out on the way through, and writes its exit status to N.rc, so
// every invocation's output and status are known exactly, even when one fails
// before printing anything. It returns moelog's status, so `set -e` and `||`
// behave as they would with moelog itself. The trace folder is a fresh
// mkdtemp (0700) written into the function as a literal, and the function
// evaluates nothing it reads: a count that is not all digits counts as 0.
std::string TraceFunction(const std::string& binary, const std::string& trace) {
  const std::string t = ShellQuote(trace);
  return "moelog() {\n"
         "  local __n=0\n"
         "  IFS= read -r __n < " + t + "/count || true\n"
         "  case \"$__n\" in ''|*[!0-9]*) __n=0 ;; esac\n"
         "  __n=$((10#$__n + 1))\n"
         "  echo \"$__n\" > " + t + "/count\n"
         "  local __rc=0\n"
         "  { " + ShellQuote(binary) + " \"$@\" | tee " + t + "/\"$__n.out\"; __rc=${PIPESTATUS[0]}; } || true\n"
         "  echo \"$__rc\" > " + t + "/\"$__n.rc\"\n"
         "  return \"$__rc\"\n"
         "}\n";
}

// A file the script could write (the trace folder is writable inside the
// sandbox): read only when it is a regular file with one link, never through
// a link, never blocking, at most `max_bytes`; "" otherwise.
std::string Slurp(const std::filesystem::path& p, size_t max_bytes = size_t{64} << 20) {
  auto text = ReadOwnFile(p.string(), max_bytes);
  return text.ok() ? *text : std::string();
}

// Calls of `moelog` beyond the plan's that are still read (their runs are
// reported as unattributed): a count the script wrote itself cannot make
// moelog read for hours.
constexpr size_t kMaxExtraCalls = 1024;

// A fresh trace folder (mkdtemp: unique even for parallel runs, -j) with
// its call count at 0.
Result<std::filesystem::path> MakeTraceDir() {
  std::error_code ec;
  std::string templ = (std::filesystem::temp_directory_path(ec) / "moelog-trace-XXXXXX").string();
  const bool made = ::mkdtemp(templ.data()) != nullptr;
  const std::filesystem::path trace = templ;
  if (made && (std::ofstream(trace / "count") << "0\n")) return trace;
  if (made) std::filesystem::remove_all(trace, ec);
  return Status::IOError("cannot create a trace directory " + templ);
}

// The status of a traced call that ran, from its exit status file (`rc`):
// none (killed mid-run: the timeout, or the script ended) or non-zero.
void SetCallStatus(const std::filesystem::path& rc_file, const ProcessResult& r, double timeout_s,
                   InvocationOutcome* o) {
  int rc = -1;
  const bool finished = static_cast<bool>(std::istringstream(Slurp(rc_file, 64)) >> rc);
  if (!finished) {  // killed mid-run: the timeout
    o->timed_out = r.timed_out;
    o->exit_status = -1;
    o->stderr_text = r.stderr_text;
    o->status = r.timed_out ? Status::Timeout("timed out after " + std::to_string(timeout_s) + " s")
                            : Status::Internal("the script ended during this invocation");
  } else if (rc != 0) {
    o->exit_status = rc;
    o->stderr_text = r.stderr_text;
    o->status = Status::Internal("moelog bench exited with status " + std::to_string(rc));
  }
}

PlanOutcome RunTracedScript(const Plan& plan, const RunnerOptions& opts) {
  PlanOutcome out;
  out.mode = "shell sandbox=" + opts.sandbox;
  const size_t n = plan.invocations.size();
  out.invocations.resize(n);
  for (size_t i = 0; i < n; ++i) out.invocations[i].index = i;
  std::error_code ec;
  auto made = MakeTraceDir();
  if (!made.ok()) {
    for (auto& inv : out.invocations) inv.status = made.status();
    out.exit_status = -1;
    return out;
  }
  const std::filesystem::path trace = *made;
  const std::string script = TraceFunction(MoelogBinary(opts), trace.string()) + plan.rewritten_script + "\n";
  const std::string start = NowIso8601();
  auto argv = ShellCommand(opts, script, trace.string());
  Result<ProcessResult> r = argv.ok() ? RunProcess(*argv, opts.timeout_s, {}, ScratchOf(opts))
                                      : Result<ProcessResult>(argv.status());
  const std::string end = NowIso8601();
  if (!TakeScriptResult(r, &out)) {
    std::filesystem::remove_all(trace, ec);
    return out;
  }
  size_t calls = 0;
  std::istringstream(Slurp(trace / "count", 64)) >> calls;
  calls = std::min(calls, n + kMaxExtraCalls);
  size_t budget = size_t{256} << 20;  // all the outputs together
  for (size_t i = 0; i < std::max(calls, n); ++i) {
    const std::string stem = std::to_string(i + 1);
    const std::string text = Slurp(trace / (stem + ".out"), std::min(budget, size_t{64} << 20));
    budget -= std::min(budget, text.size());
    // One call of `moelog bench` prints one run per sweep point; a trace that
    // holds more RESULT lines than the budget was written by the script.
    ParsedOutput parsed = ParseHarnessOutput(text, static_cast<size_t>(BudgetLimit(BudgetId::kResultRowsPerCall)));
    std::vector<ParsedRun> runs = std::move(parsed.runs);
    if (i >= n) {  // more calls than planned (a loop the planner could not see through)
      const size_t room = static_cast<size_t>(BudgetLimit(BudgetId::kResultRowsPerCall)) -
                          std::min(out.unattributed.size(), static_cast<size_t>(BudgetLimit(BudgetId::kResultRowsPerCall)));
      out.unattributed.insert(out.unattributed.end(), runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(std::min(room, runs.size())));
      continue;
    }
    InvocationOutcome& o = out.invocations[i];
    o.start_time = start;
    o.end_time = end;
    if (i >= calls) {
      o.status = Status::NotFound("not reached: the script stopped before this invocation");
      continue;
    }
    o.ran = true;
    o.stdout_text = text;
    o.runs = std::move(runs);
    SetCallStatus(trace / (stem + ".rc"), *r, opts.timeout_s, &o);
    if (parsed.over_budget) {  // none of its runs is stored: the call failed
      o.runs.clear();
      o.status = Status::Internal("cannot store this call's runs: its trace holds " +
                                  OverBudget(BudgetId::kResultRowsPerCall));
      if (o.exit_status == 0) o.exit_status = -1;
    }
  }
  // A script that failed before its first moelog call: the first invocation
  // carries the failure, so it is recorded.
  if (calls == 0 && n > 0 && (r->timed_out || r->exit_status != 0))
    FailFirstInvocation(*r, opts.timeout_s, "before any benchmark ran", &out);
  std::filesystem::remove_all(trace, ec);
  return out;
}

std::string FirstLineOf(const std::string& path, const std::string& prefix) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) {
      auto colon = line.find(':');
      if (colon == std::string::npos) return "";
      size_t a = colon + 1;
      while (a < line.size() && line[a] == ' ') ++a;
      return line.substr(a);
    }
  return "";
}

}  // namespace

Status SandboxAvailable(const std::string& bwrap) {
  static std::mutex mu;
  static std::map<std::string, Status> memo;
  std::lock_guard<std::mutex> lock(mu);
  auto it = memo.find(bwrap);
  if (it != memo.end()) return it->second;
  Status st = Status::Ok();
  auto r = RunProcess({bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-all", "--die-with-parent", "true"},
                      20);
  if (!r.ok()) {
    st = Status::NotSupported("the sandbox cannot start: " + r.status().message() +
                              " (install Debian's bubblewrap, or pass --sandbox none to run unsandboxed)");
  } else if (r->exit_status != 0) {
    std::string why = r->stderr_text.substr(0, r->stderr_text.find('\n'));
    st = Status::NotSupported("the sandbox cannot start (bwrap: " + why +
                              "); pass --sandbox none to run the script unsandboxed");
  }
  memo.emplace(bwrap, st);
  return st;
}

std::string NowIso8601() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof(out), "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}

std::map<std::string, std::string> ChildEnvironment() {
  static const std::set<std::string> kNames = {
      "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM", "TMPDIR",
      "OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES", "OMP_WAIT_POLICY", "OMP_DYNAMIC",
      "OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",  // only permit mpirun as root
      "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"};
  static const char* const kPrefixes[] = {"LC_", "MOELOG_", "ONEDNN_", "DNNL_"};
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view kv(*e);
    const size_t eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    const std::string name(kv.substr(0, eq));
    bool keep = kNames.count(name) > 0;
    for (const char* p : kPrefixes) keep = keep || name.rfind(p, 0) == 0;
    if (keep) env[name] = std::string(kv.substr(eq + 1));
  }
  if (!env.count("PATH")) env["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  return env;
}

Result<ProcessResult> RunProcess(const std::vector<std::string>& argv, double timeout_s,
                                 const std::map<std::string, std::string>& env, const std::string& working_dir) {
  if (argv.empty()) return Status::InvalidArgument("RunProcess: empty argv");
  try {
    boost::filesystem::path exe = argv[0];
    if (argv[0].find('/') == std::string::npos) {
      exe = bp::search_path(argv[0]);
      if (exe.empty()) return Status::IOError(argv[0] + ": not found in PATH");
    }
    std::vector<std::string> args(argv.begin() + 1, argv.end());
    bp::environment child_env;
    for (const auto& [k, v] : ChildEnvironment()) child_env[k] = v;
    for (const auto& [k, v] : env) child_env[k] = v;
    boost::asio::io_context ios;
    std::future<std::string> out, err;
    // Own process group, so a timeout kills the script and everything it started.
    auto setpgid_on_exec = bp::extend::on_exec_setup = [](auto&) { ::setpgid(0, 0); };
    std::unique_ptr<bp::child> child;
    if (working_dir.empty()) {
      child = std::make_unique<bp::child>(exe, bp::args(args), bp::std_in < bp::null, bp::std_out > out,
                                          bp::std_err > err, child_env, ios, setpgid_on_exec);
    } else {
      child = std::make_unique<bp::child>(exe, bp::args(args), bp::std_in < bp::null, bp::std_out > out,
                                          bp::std_err > err, child_env, ios, setpgid_on_exec,
                                          bp::start_dir(working_dir));
    }
    // Killed with moelog if moelog is stopped by a signal (child_groups.h).
    struct GroupWatch {
      pid_t group;
      explicit GroupWatch(pid_t g) : group(g) { WatchChildGroup(g); }
      ~GroupWatch() { ForgetChildGroup(group); }
    } group_watch(child->id());
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::microseconds(static_cast<int64_t>(timeout_s * 1e6));
    auto watch = std::make_unique<PeakRssWatch>(child->id());
    ios.run_until(deadline);  // returns early once both pipes are closed
    ProcessResult res;
    res.peak_rss_bytes = watch->peak_bytes();
    watch.reset();  // before the child is reaped (its pid could be reused)
    bool expired = !ios.stopped();
    // Pipes closed but the child may still be exiting: wait for it up to the deadline.
    while (!expired && child->running()) {
      if (std::chrono::steady_clock::now() >= deadline) {
        expired = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (expired) {
      res.timed_out = true;
      ::kill(-child->id(), SIGKILL);
      std::error_code ec;
      child->terminate(ec);
      ios.restart();
      ios.run_for(std::chrono::seconds(5));  // drain what the pipes still hold
      res.exit_status = -1;
    } else {
      child->wait();
      res.exit_status = child->exit_code();
      const int raw = child->native_exit_code();
      if (WIFSIGNALED(raw)) res.term_signal = WTERMSIG(raw);
    }

    if (out.valid() && out.wait_for(std::chrono::seconds(0)) == std::future_status::ready) res.stdout_text = out.get();
    if (err.valid() && err.wait_for(std::chrono::seconds(0)) == std::future_status::ready) res.stderr_text = err.get();
    return res;
  } catch (const std::exception& e) {
    return Status::IOError(argv[0] + ": " + e.what());
  }
}

// The modeled target answers in microseconds and cannot hang, so it runs in
// this process. Anything that runs the CPU engine gets its own process: it has
// a timeout, a crash or an exhausted memory cannot take the caller down, and
// its timings do not share the caller's threads.
RunMode DirectMode(const Plan& plan) {
  for (const auto& inv : plan.invocations)
    if (!engine::TargetOrDefault(inv.config.target).in_process) return RunMode::kSubprocess;
  return RunMode::kInProcess;
}

bool RunsInProcess(const Plan& plan, const RunnerOptions& options) {
  if (plan.verdict != PlanVerdict::kRunnable || plan.needs_shell || !plan.unplannable.empty()) return false;
  return options.mode == RunMode::kInProcess || (options.mode == RunMode::kAuto && DirectMode(plan) == RunMode::kInProcess);
}

Result<PlanOutcome> RunPlan(const Plan& plan, const RunnerOptions& options) {
  if (plan.verdict != PlanVerdict::kRunnable && plan.verdict != PlanVerdict::kNeedsConsent)
    return Status::NotSupported(plan.Summary());
  if ((plan.verdict == PlanVerdict::kNeedsConsent || plan.needs_shell) && !options.allow_shell)
    return Status::InvalidArgument(plan.Summary());
  if (!plan.unplannable.empty()) return Status::NotSupported("cannot plan: " + plan.unplannable);
  RunMode mode = options.mode;
  if (mode == RunMode::kAuto) mode = plan.needs_shell ? RunMode::kShell : DirectMode(plan);
  if ((mode == RunMode::kInProcess || mode == RunMode::kSubprocess) && plan.needs_shell)
    return Status::NotSupported("this command needs bash (pipes, redirections or other programs); use the shell mode");
  if (mode == RunMode::kRealHarness || mode == RunMode::kShell) {
    // Without consent there is no shell at all, whatever the caller asked for.
    if (!options.allow_shell)
      return Status::InvalidArgument("running the command's script runs its programs: needs --allow-shell");
    if (options.sandbox != "none") MOELOG_RETURN_IF_ERROR(SandboxAvailable(options.bwrap));
  }
  if (mode == RunMode::kRealHarness) {
    return RunScript(plan, plan.harness_script, options, "real-harness");
  }
  if (mode == RunMode::kShell) return RunTracedScript(plan, options);
  PlanOutcome out;
  out.mode = mode == RunMode::kInProcess ? "in-process" : "subprocess";
  for (size_t i = 0; i < plan.invocations.size(); ++i) {
    bool selected = options.only.empty() ||
                    std::find(options.only.begin(), options.only.end(), i) != options.only.end();
    if (!selected) {
      InvocationOutcome skip;
      skip.index = i;
      out.invocations.push_back(std::move(skip));
      continue;
    }
    if (options.on_invocation) options.on_invocation(i, nullptr);
    InvocationOutcome o = mode == RunMode::kInProcess ? RunInProcess(plan.invocations[i], i)
                                                      : RunAsSubprocess(plan.invocations[i], i, options);
    if (options.on_invocation) options.on_invocation(i, &o);
    if (o.exit_status != 0 && out.exit_status == 0) out.exit_status = o.exit_status;
    out.timed_out = out.timed_out || o.timed_out;
    const bool stop = !o.status.ok() && plan.invocations[i].errexit;
    out.invocations.push_back(std::move(o));
    if (stop) {  // `set -e`: bash would end the script here, and so does the direct runner
      for (size_t k = i + 1; k < plan.invocations.size(); ++k) {
        InvocationOutcome skip;
        skip.index = k;
        out.invocations.push_back(std::move(skip));
      }
      break;
    }
  }
  return out;
}

// The commit and dirty state of the repository holding `dir`, read by
// libgit2: it runs no hooks, no fsmonitor, no filter or diff driver and no
// pager, whatever the repository's configuration says, so a `.git` shipped
// with (or written by) a logbook executes nothing. Any error leaves the
// commit empty.
static void ReadGitState(const std::string& dir, Provenance* p) {
  static const int init = git_libgit2_init();
  (void)init;
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, dir.c_str(), 0, nullptr) != 0) return;
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, "HEAD") == 0) {
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof(hex), &oid);
    p->git_commit = hex;
    git_status_options opts;
    git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
    opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    opts.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;  // tracked files only, like --untracked-files=no
    git_status_list* list = nullptr;
    if (git_status_list_new(&list, repo, &opts) == 0) {
      p->git_dirty = git_status_list_entrycount(list) > 0;
      git_status_list_free(list);
    }
  }
  git_repository_free(repo);
}

namespace {

// The git folder libgit2 would open for `dir`: the nearest `.git` above it,
// a folder or a gitfile ("gitdir: PATH"), and a linked worktree's common
// folder. Empty when there is none.
std::vector<std::string> GitDirsOf(std::string dir) {
  std::vector<std::string> out;
  std::error_code ec;
  dir = std::filesystem::absolute(dir, ec).lexically_normal().string();
  for (int depth = 0; depth < 256 && !dir.empty(); ++depth) {
    const std::string dot_git = (dir == "/" ? "" : dir) + "/.git";
    struct stat st;
    if (::lstat(dot_git.c_str(), &st) == 0) {
      out.push_back(dot_git);
      if (S_ISREG(st.st_mode)) {
        auto text = ReadOwnFile(dot_git, 4096);
        if (text.ok() && text->rfind("gitdir: ", 0) == 0) {
          std::string target = text->substr(8);
          while (!target.empty() && (target.back() == '\n' || target.back() == '\r')) target.pop_back();
          if (!target.empty() && target[0] != '/') target = dir + "/" + target;
          out.push_back(target);
          auto common = ReadOwnFile(target + "/commondir", 4096);
          if (common.ok()) {
            std::string c = *common;
            while (!c.empty() && (c.back() == '\n' || c.back() == '\r')) c.pop_back();
            if (!c.empty()) out.push_back(c[0] == '/' ? c : target + "/" + c);
          }
        }
      }
      return out;
    }
    if (dir == "/") break;
    const size_t slash = dir.rfind('/');
    dir = slash == 0 ? "/" : dir.substr(0, slash);
  }
  return out;
}

// Refuses a FIFO, device or socket in a git folder before libgit2 reads it
// (opening a FIFO blocks forever). Hard links are fine there: a local clone
// hard-links its objects. At most kMaxEntries entries are looked at; the
// deadline in CollectProvenance covers the rest.
Status CheckGitDir(const std::string& git) {
  constexpr size_t kMaxEntries = 200000;
  std::vector<std::string> stack = {git};
  size_t seen = 0;
  struct stat top;
  if (::lstat(git.c_str(), &top) != 0) return Status::Ok();
  if (!S_ISDIR(top.st_mode) && !S_ISREG(top.st_mode) && !S_ISLNK(top.st_mode))
    return Status::IOError(git + ": not a regular file or folder; moelog does not let git read it (remove it)");
  if (!S_ISDIR(top.st_mode)) return Status::Ok();
  while (!stack.empty() && seen < kMaxEntries) {
    const std::string d = stack.back();
    stack.pop_back();
    DIR* dp = ::opendir(d.c_str());
    if (!dp) continue;
    while (struct dirent* e = ::readdir(dp)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++seen >= kMaxEntries) break;
      const std::string path = d + "/" + name;
      struct stat st;
      if (::lstat(path.c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        stack.push_back(path);
      } else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode)) {
        ::closedir(dp);
        return Status::IOError(path + ": is a " + (S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ? "socket" : "device") +
                               ", not a regular file; moelog does not let git read it (remove it)");
      }
    }
    ::closedir(dp);
  }
  return Status::Ok();
}

// libgit2 reads files of the working tree as well: a deadline bounds it.
constexpr int kGitSeconds = 20;

}  // namespace

Provenance CollectProvenance(const std::string& logbook_path) {
  Provenance p;
  char host[256] = {0};
  if (::gethostname(host, sizeof(host) - 1) == 0) p.host = host;
  p.cpu_model = FirstLineOf("/proc/cpuinfo", "model name");
  p.moelog_version = MOELOG_VERSION;
  std::string dir = ".";
  auto slash = logbook_path.find_last_of('/');
  if (slash != std::string::npos) dir = slash == 0 ? "/" : logbook_path.substr(0, slash);
  for (const auto& git : GitDirsOf(dir)) {
    Status st = CheckGitDir(git);
    if (!st.ok()) {
      p.problem = st.message();
      return p;
    }
  }
  struct Shared {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Provenance p;
  };
  auto shared = std::make_shared<Shared>();
  std::thread([shared, dir] {
    Provenance g;
    ReadGitState(dir, &g);
    std::lock_guard<std::mutex> lock(shared->mu);
    shared->p = g;
    shared->done = true;
    shared->cv.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(shared->mu);
  if (!shared->cv.wait_for(lock, std::chrono::seconds(kGitSeconds), [&] { return shared->done; })) {
    p.problem = dir + ": reading the git state took over " + std::to_string(kGitSeconds) +
                " s (a FIFO or device in the working tree?); moelog stopped waiting";
    return p;
  }
  p.git_commit = shared->p.git_commit;
  p.git_dirty = shared->p.git_dirty;
  return p;
}

std::vector<RunRecord> ToRecords(const Plan& plan, const PlanOutcome& outcome, const std::string& entry_id,
                                 const std::string& logbook_path, const Provenance& prov, size_t tail_bytes) {
  std::vector<RunRecord> records;
  for (const InvocationOutcome& o : outcome.invocations) {
    if (!o.ran || o.index >= plan.invocations.size()) continue;
    const BenchInvocation& inv = plan.invocations[o.index];
    RunRecord base;
    base.entry_id = entry_id;
    base.logbook_path = logbook_path;
    base.command_original = plan.original;
    base.command_rewritten = inv.command_line;
    base.config_json = inv.canonical_config;
    base.target = inv.config.target;
    const bool scripted = outcome.mode != "in-process" && outcome.mode != "subprocess";
    base.cache_key = scripted ? outcome.mode.substr(0, outcome.mode.find(' ')) + ":" + CacheKey(inv.config)
                              : CacheKey(inv.config);
    base.runner = outcome.mode;
    base.exit_status = o.exit_status;
    base.timed_out = o.timed_out;
    base.stdout_tail = Tail(o.stdout_text, tail_bytes);
    base.stderr_tail = Tail(o.stderr_text, tail_bytes);
    base.start_time = o.start_time;
    base.end_time = o.end_time;
    base.host = prov.host;
    base.cpu_model = prov.cpu_model;
    base.cpu_isa = CpuIsaOf(o.stdout_text);
    base.moelog_version = prov.moelog_version;
    base.git_commit = prov.git_commit;
    base.git_dirty = prov.git_dirty;
    base.invocation_index = static_cast<int64_t>(o.index);
    base.status = o.timed_out ? "timeout" : !o.status.ok() ? "failed" : "ok";
    // Loop variables are not configuration: their values reach the run only
    // through the flags they set, which the config already holds.
    if (o.runs.empty()) {
      if (base.status == "ok") base.status = "failed";  // ran but produced no result
      records.push_back(base);
      continue;
    }
    for (const ParsedRun& run : o.runs) {
      RunRecord r = base;
      for (const auto& [k, v] : run.point) r.point[k] = v;
      r.metrics = run.metrics;
      if (run.oom && r.status == "ok") r.status = "oom";
      records.push_back(std::move(r));
    }
  }
  return records;
}

}  // namespace moelog::logbook
