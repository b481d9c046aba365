#include "logbook/update/counted_runs.h"

#include <sys/stat.h>
#include <set>

#include "logbook/criteria/recorded.h"
#include "logbook/plan/bench_args.h"
#include "logbook/store/stored_run_reader.h"
#include "logbook/update/entry_plans.h"

namespace moelog::logbook {

std::vector<StoredRun> CountedRuns(const Logbook& logbook, RunStore* store, const std::vector<std::string>& targets,
                                   const LauncherTable* table) {
  std::vector<StoredRun> out;
  if (!store) return out;
  for (const auto& target : targets) {
    PlanOptions popt;
    popt.target = target;
    popt.launchers = table;
    std::vector<const Entry*> entries;
    for (const auto& e : logbook.entries) entries.push_back(&e);
    const std::vector<std::vector<Plan>> plans = PlanEntries(logbook, entries, popt);
    for (size_t ei = 0; ei < logbook.entries.size(); ++ei) {
      const Entry& e = logbook.entries[ei];
      std::set<std::string> seen;  // run IDs already counted for this entry
      for (size_t ci = 0; ci < e.commands.size(); ++ci) {
        const Plan& plan = plans[ei][ci];
        if (plan.verdict != PlanVerdict::kRunnable && plan.verdict != PlanVerdict::kNeedsConsent) continue;
        for (const auto& inv : plan.invocations) {
          auto batch = store->CachedRuns(CacheKey(inv.config));
          if (!batch.ok()) continue;
          for (const RunRecord& r : *batch) {
            if (r.status != "ok") continue;
            StoredRun run = ToStoredRun(r);
            if (!seen.insert(run.id).second) continue;
            run.entry_id = e.id;
            out.push_back(std::move(run));
          }
        }
      }
    }
  }
  return out;
}

Result<std::vector<StoredRun>> LogbookRuns(const Logbook& logbook, const std::string& db_path, bool recorded,
                                           std::string* note, const LauncherTable* table, bool accept_foreign) {
  std::vector<StoredRun> out;
  int64_t foreign = 0;
  struct stat st;
  const bool have_store = !db_path.empty() && ::stat(db_path.c_str(), &st) == 0;
  if (have_store) {
    auto store = RunStore::Open(db_path);
    if (!store.ok()) return store.status();
    (*store)->AcceptForeign(accept_foreign);
    out = CountedRuns(logbook, store->get(), {"v5p", "cpu"}, table);
    foreign = (*store)->ForeignIgnored();
  }
  const size_t stored = out.size();
  size_t rec = 0;
  if (recorded) {
    auto r = RecordedRuns(logbook);
    rec = r.size();
    out.insert(out.end(), r.begin(), r.end());
  }
  if (note)
    *note = std::to_string(stored) + " stored run" + (stored == 1 ? "" : "s") +
            (recorded ? ", " + std::to_string(rec) + " recorded" : "") +
            (have_store ? "" : " (no run store at " + db_path + ")") + ForeignNote(foreign);
  return out;
}

}  // namespace moelog::logbook
