// The run step: each command's missing invocations run (several at once),
// then their records stored, one command after another. Measured runs (the
// cpu target's, minutes to hours each) are stored as each one finishes, so an
// update stopped part way keeps every run it finished and the next update
// serves them from the store.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "logbook/run/progress.h"
#include "logbook/text.h"
#include "logbook/update/steps.h"
#include "logbook/work_queue.h"

namespace moelog::logbook {
namespace {

// "[done/total] unit  ETA" on a terminal's stderr; nothing otherwise.
class Progress {
 public:
  Progress(bool on, int total) : on_(on && isatty(2)), total_(total), start_(std::chrono::steady_clock::now()) {}
  void Step(int done, const std::string& what) {
    if (!on_) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = done > 0 ? el / done * (total_ - done) : 0;
    const std::string shown = TerminalSafe(what);  // the logbook's text: no control byte reaches the terminal
    std::fprintf(stderr, "\r\033[K[%d/%d] %s  ETA %.0fs", done, total_, shown.c_str(), eta);
    if (done == total_) std::fprintf(stderr, "\n");
  }

 private:
  bool on_;
  int total_;
  std::chrono::steady_clock::time_point start_;
};

// An invocation's arguments as one line (the progress line's configuration).
std::string JoinArgs(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

// How commands run: consented scripts work in .moelog/scratch beside the
// document, the only folder they may write when sandboxed.
Result<RunnerOptions> MakeRunnerOptions(const LoadedDocument& doc, const SessionOptions& opt) {
  RunnerOptions ropt;
  ropt.allow_shell = opt.allow_shell;
  ropt.timeout_s = opt.timeout_s;
  ropt.moelog_binary = opt.moelog_binary;
  ropt.working_dir = std::filesystem::path(doc.path).parent_path().string();
  ropt.sandbox = opt.sandbox;
  ropt.max_memory_gb = opt.max_memory_gb;
  if (!opt.allow_shell) return ropt;
  const std::string moelog_dir = (ropt.working_dir.empty() ? std::string(".") : ropt.working_dir) + "/.moelog";
  MOELOG_RETURN_IF_ERROR(MakeRealDir(moelog_dir));
  MOELOG_RETURN_IF_ERROR(MakeRealDir(moelog_dir + "/scratch"));
  ropt.scratch_dir = moelog_dir + "/scratch";
  return ropt;
}

struct Job {
  PlannedCommand* command;
  const std::string* unit_id;
};

std::vector<Job> JobsOf(std::vector<UnitWork>* work) {
  std::vector<Job> jobs;
  for (auto& w : *work)
    for (auto& pc : w.commands)
      if (w.runnable && pc.runnable && !pc.missing.empty()) jobs.push_back({&pc, &w.unit->id});
  return jobs;
}

// Where a measured job's runs go as they finish: the store, before the job
// (a loop of several invocations) or the update ends.
struct EarlyStore {
  RunStore* store = nullptr;
  const Provenance* prov = nullptr;
  std::string logbook_path;  // absolute, as the records name it
  std::mutex mu;
};

// What one job stored as it went (records in invocation order, with the ids
// the store gave them), or why the store refused one.
struct Stored {
  bool early = false;
  std::vector<RunRecord> records;
  Status error;
};

// Stores one finished invocation of a command run as a subprocess. After a
// refusal nothing more of the job is stored: its records are then neither
// stored nor written, as when the store refuses a whole job.
void StoreFinished(const Job& job, const InvocationOutcome& done, EarlyStore* sink, Stored* stored) {
  PlanOutcome one;
  one.mode = "subprocess";
  one.invocations.push_back(done);
  std::vector<RunRecord> records = ToRecords(job.command->plan, one, *job.unit_id, sink->logbook_path, *sink->prov);
  std::lock_guard<std::mutex> lock(sink->mu);
  stored->early = true;
  if (!stored->error.ok() || records.empty()) return;
  Status st = sink->store->Insert(&records);
  if (!st.ok()) {
    stored->error = st;
    return;
  }
  for (RunRecord& r : records) stored->records.push_back(std::move(r));
}

// Runs the jobs, opt.jobs at once; each job's outcome lands in its command.
// Jobs that run in this process (the modeled target) run first, on every
// core whatever opt.jobs says: their results do not depend on it, and no
// timing can be disturbed.
void RunJobs(const std::vector<Job>& jobs, const RunnerOptions& ropt, const SessionOptions& opt, EarlyStore* sink,
             std::vector<Stored>* stored) {
  std::vector<size_t> modeled, other;
  for (size_t i = 0; i < jobs.size(); ++i)
    (RunsInProcess(jobs[i].command->plan, ropt) ? modeled : other).push_back(i);
  const bool show = opt.progress && !opt.quiet;
  Progress progress(show && !modeled.empty(), static_cast<int>(modeled.size()));
  std::mutex progress_mu;
  int done = 0;
  // Measured runs: runs done of all, the current one, and the time left
  // from the FLOPs still to run (run/progress.h).
  RunProgress measured(show && !other.empty() && isatty(2));
  // (Scripts run by a shell report no invocation as it goes: not counted.)
  for (size_t i : other)
    if (!jobs[i].command->plan.needs_shell)
      for (size_t k : jobs[i].command->missing) measured.Plan(WorkOf(jobs[i].command->plan.invocations[k].config));
  auto run = [&](size_t i, bool is_measured) {
    PlannedCommand* pc = jobs[i].command;
    RunnerOptions o = ropt;
    if (!pc->plan.needs_shell) o.only = pc->missing;
    if (is_measured && (measured.on() || sink->store))
      o.on_invocation = [&, pc, i](size_t k, const InvocationOutcome* done) {
        const BenchInvocation& inv = pc->plan.invocations[k];
        if (done == nullptr) return measured.Start(*jobs[i].unit_id + " " + JoinArgs(inv.args), WorkOf(inv.config).flops);
        if (sink->store && !pc->plan.needs_shell) StoreFinished(jobs[i], *done, sink, &(*stored)[i]);
        if (done->status.ok()) measured.Finish(WorkOf(inv.config));
        else measured.Skip(WorkOf(inv.config));  // a refused or failed run says nothing of the rate
      };
    pc->outcome = RunPlan(pc->plan, o);
    if (is_measured) return;
    std::lock_guard<std::mutex> lock(progress_mu);
    progress.Step(++done, *jobs[i].unit_id);
  };
  const size_t jobs_at_once = static_cast<size_t>(std::max(1, opt.jobs));
  const size_t cores = std::max<size_t>(jobs_at_once, std::thread::hardware_concurrency());
  RunQueue(modeled.size(), cores, [&](size_t k) { run(modeled[k], false); });
  RunQueue(other.size(), jobs_at_once, [&](size_t k) { run(other[k], true); });
}

// One job's records, counted and stored. A record the store refuses is not
// rendered: the entry stays incomplete and the update fails.
// A job stored as it went (`stored.early`) gives the records the store holds.
void StoreJob(const LoadedDocument& doc, const Job& job, const Provenance& prov, RunStore* store,
              const std::string& db, Stored* stored, SessionSummary* sum, std::ostream& err) {
  PlannedCommand* pc = job.command;
  const std::string& id = *job.unit_id;
  const std::string where = doc.path + ":" + std::to_string(pc->command->line) + ": " + id + ": ";
  if (!pc->outcome.ok()) {
    err << where << pc->outcome.status().ToString() << "\n";
    ++sum->failed;
    return;
  }
  pc->fresh = stored->early ? std::move(stored->records)
                            : ToRecords(pc->plan, *pc->outcome, id, std::filesystem::absolute(doc.path).string(), prov);
  for (const auto& inv : pc->outcome->invocations) {
    if (!inv.ran) continue;
    ++sum->executed;
    if (inv.status.ok()) continue;
    ++sum->failed;
    err << where << inv.status.ToString() << "\n";
  }
  if (!store || (pc->fresh.empty() && stored->error.ok())) return;
  Status st = stored->early ? stored->error : store->Insert(&pc->fresh);
  if (st.ok()) return;
  err << db << ": " << st.ToString() << "; " << id << "'s runs are not stored and not written\n";
  pc->fresh.clear();
  ++sum->write_errors;
}

}  // namespace

Stop RunMissing(const LoadedDocument& doc, const SessionOptions& opt, RunStore* store, std::vector<UnitWork>* work,
                SessionSummary* sum, std::ostream& err) {
  const std::vector<Job> jobs = JobsOf(work);
  if (jobs.empty()) return std::nullopt;
  auto ropt = MakeRunnerOptions(doc, opt);
  if (!ropt.ok()) {
    err << doc.path << ": " << ropt.status().ToString() << "\n";
    return kExitError;
  }
  const Provenance prov = CollectProvenance(doc.path);
  if (!prov.problem.empty()) {  // nothing has run yet: nothing is lost
    err << prov.problem << "\n" << doc.path << ": nothing run, file unchanged\n";
    return kExitError;
  }
  EarlyStore sink;
  sink.store = store;
  sink.prov = &prov;
  sink.logbook_path = std::filesystem::absolute(doc.path).string();
  std::vector<Stored> stored(jobs.size());
  RunJobs(jobs, *ropt, opt, &sink, &stored);
  const std::string db = StorePath(doc, opt);
  for (size_t i = 0; i < jobs.size(); ++i) StoreJob(doc, jobs[i], prov, store, db, &stored[i], sum, err);
  return std::nullopt;
}

}  // namespace moelog::logbook

namespace moelog::logbook {

void WarnSharedIds(const LoadedDocument& doc, RunStore* store, std::ostream& err) {
  if (!store || doc.kind != DocumentKind::kLogbook) return;
  auto pairs = store->EntryLogbooks();
  if (!pairs.ok()) return;
  const std::string self = std::filesystem::absolute(doc.path).lexically_normal().string();
  std::map<std::string, std::set<std::string>> others;  // entry ID -> other logbooks that stored it
  for (const auto& [id, path] : *pairs)
    if (std::filesystem::path(path).lexically_normal().string() != self) others[id].insert(path);
  std::set<std::string> warned;
  for (const auto& u : doc.units) {
    auto it = others.find(u.id);
    if (it == others.end() || !warned.insert(u.id).second) continue;
    std::string names;
    for (const auto& p : it->second) names += (names.empty() ? "" : ", ") + p;
    err << doc.path << ":" << u.line << ": warning: entry ID " << u.id << " is also used by " << names
        << " (same run store); each logbook counts only its own entries' runs\n";
  }
}

}  // namespace moelog::logbook
