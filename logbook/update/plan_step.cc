// The plan step: the store opened, the selected units' commands planned and
// looked up in the cache; --dry-run prints the result.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <thread>

#include "engine/target.h"
#include "logbook/numbers.h"
#include "logbook/update/steps.h"
#include "logbook/update/entry_plans.h"
#include "logbook/work_queue.h"

namespace moelog::logbook {
namespace {

bool HasFailedRun(RunStore* store, const std::string& id) {
  if (!store) return false;
  auto rows = store->ByEntry(id);
  return rows.ok() && std::any_of(rows->begin(), rows->end(), [](const RunRecord& r) { return r.status != "ok"; });
}

// The units --entry and --failed select, in document order.
std::vector<const Unit*> SelectUnits(const LoadedDocument& doc, const SessionOptions& opt, RunStore* store) {
  std::vector<const Unit*> selected;
  for (const auto& u : doc.units) {
    if (!opt.entries.empty() && std::find(opt.entries.begin(), opt.entries.end(), u.id) == opt.entries.end()) continue;
    if (opt.failed && !HasFailedRun(store, u.id)) continue;
    selected.push_back(&u);
  }
  return selected;
}

// Each invocation's cache key and the store's newest usable batch for it
// (none with --rerun); the invocations with none are the ones to run.
void LookUpCache(PlannedCommand* pc, RunStore* store, bool rerun) {
  for (size_t i = 0; i < pc->plan.invocations.size(); ++i) {
    pc->keys.push_back(CacheKey(pc->plan.invocations[i].config));
    std::vector<RunRecord> hit, foreign;
    if (store && !rerun)
      if (auto c = store->CachedRuns(pc->keys.back(), &foreign); c.ok()) hit = std::move(c.value());
    if (hit.empty()) pc->missing.push_back(i);
    pc->cached.push_back(std::move(hit));
    pc->foreign.push_back(std::move(foreign));
  }
}

// Whether a stored batch holds exactly the runs the model computes now:
// the same points, the same figures (NaN and infinity are not stored).
bool SameRuns(const std::vector<RunRecord>& stored, const std::vector<ParsedRun>& now) {
  if (stored.size() != now.size()) return false;
  for (size_t k = 0; k < now.size(); ++k) {
    std::map<std::string, double> finite;
    for (const auto& [m, v] : now[k].metrics)
      if (std::isfinite(v)) finite[m] = v;
    if (stored[k].point != now[k].point || stored[k].metrics != finite) return false;
    if ((stored[k].status == "oom") != now[k].oom) return false;
  }
  return true;
}

// The first figure in which a stored batch differs from the model's, for the report.
std::string FirstDifference(const std::vector<RunRecord>& stored, const std::vector<ParsedRun>& now) {
  if (stored.size() != now.size())
    return std::to_string(stored.size()) + " stored run(s), the model makes " + std::to_string(now.size());
  for (size_t k = 0; k < now.size(); ++k)
    for (const auto& [m, v] : now[k].metrics) {
      auto it = stored[k].metrics.find(m);
      if (std::isfinite(v) && (it == stored[k].metrics.end() || it->second != v))
        return m + " " + (it == stored[k].metrics.end() ? std::string("missing") : FormatValue(it->second)) +
               " stored, " + FormatValue(v) + " computed";
    }
  return "the runs' points or status differ";
}

bool AnyForeign(const std::vector<RunRecord>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const RunRecord& r) { return r.foreign; });
}

// A model figure is cheap: every v5p batch not signed by this user that the
// cache would serve (--accept-foreign-runs) or that is newer than the one it
// serves is computed again. A batch that differs was edited: reported as
// tampered, never served (the invocation runs again); a foreign batch is
// never served without the flag either way. A batch this user signed is
// served on its signature (an edit breaks it: the row becomes foreign and is
// checked here); computing every one again cost a warm 100-entry update
// +70% CPU. Without `sum`
// (units only planned for context), a batch that differs is dropped silently.
void CheckModelRows(const LoadedDocument& doc, std::vector<UnitWork>* work, SessionSummary* sum, std::ostream& err) {
  struct Item {
    const UnitWork* unit;
    PlannedCommand* pc;
    size_t i;
    bool cached_bad = false, foreign_bad = false;
    std::string why;
  };
  std::vector<Item> items;
  for (auto& w : *work)
    for (auto& pc : w.commands)
      for (size_t i = 0; i < pc.cached.size(); ++i)
        if (engine::TargetOrDefault(pc.plan.invocations[i].config.target).in_process && (AnyForeign(pc.cached[i]) || !pc.foreign[i].empty()))
          items.push_back({&w, &pc, i, false, false, ""});
  if (items.empty()) return;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  RunQueue(items.size(), cores, [&](size_t n) {
    Item& it = items[n];
    auto now = RecomputeInProcess(it.pc->plan.invocations[it.i]);
    if (!now.ok()) return;  // the run itself reports the error
    const auto& cached = it.pc->cached[it.i];
    const auto& foreign = it.pc->foreign[it.i];
    it.cached_bad = !cached.empty() && !SameRuns(cached, *now);
    it.foreign_bad = !foreign.empty() && !SameRuns(foreign, *now);
    if (it.cached_bad || it.foreign_bad) it.why = FirstDifference(it.cached_bad ? cached : foreign, *now);
  });
  for (Item& it : items) {
    if (!it.cached_bad && !it.foreign_bad) continue;
    if (!sum) {  // context only (not rendered): the batch is just not used
      if (it.cached_bad) it.pc->cached[it.i].clear();
      continue;
    }
    ++sum->tampered;
    const auto& rows = it.cached_bad ? it.pc->cached[it.i] : it.pc->foreign[it.i];
    err << doc.path << ":" << it.pc->command->line << ": " << it.unit->unit->id << ": stored model run "
        << rows.front().run_id << " (entry " << rows.front().entry_id << ", host " << rows.front().host
        << ") differs from the v5p model (" << it.why << "): the store was edited; not served, computed again\n";
    if (it.cached_bad) {
      it.pc->cached[it.i].clear();
      it.pc->missing.push_back(it.i);
      std::sort(it.pc->missing.begin(), it.pc->missing.end());
    }
  }
}

PlannedCommand PlanOne(const CommandText& c, Plan plan, const SessionOptions& opt, RunStore* store) {
  PlannedCommand pc;
  pc.command = &c;
  pc.plan = std::move(plan);
  pc.runnable = (pc.plan.verdict == PlanVerdict::kRunnable ||
                 (pc.plan.verdict == PlanVerdict::kNeedsConsent && opt.allow_shell)) &&
                !pc.plan.invocations.empty();
  if (pc.runnable) LookUpCache(&pc, store, opt.rerun);
  return pc;
}

}  // namespace

std::string StorePath(const LoadedDocument& doc, const SessionOptions& opt) {
  return opt.db.empty() ? DefaultStorePath(doc.path) : opt.db;
}

Stop OpenStore(const LoadedDocument& doc, const SessionOptions& opt, std::unique_ptr<RunStore>* store,
               std::ostream& err) {
  const std::string db = StorePath(doc, opt);
  if ((opt.check || opt.dry_run) && !std::filesystem::exists(db)) return std::nullopt;
  auto s = RunStore::Open(db);
  if (!s.ok()) {
    err << db << ": " << s.status().ToString() << "\n";
    return s.status().ExitCode() == kExitUsage ? kExitError : s.status().ExitCode();
  }
  *store = std::move(s.value());
  (*store)->AcceptForeign(opt.accept_foreign);
  return std::nullopt;
}

Stop MakePlanOptions(const SessionOptions& opt, LauncherTable* table, PlanOptions* popt, std::ostream& err) {
  popt->target = opt.target;
  popt->extra_bench_args = opt.extra_bench_args;
  if (opt.launchers.empty() && opt.adapters.empty()) return std::nullopt;
  auto t = LoadPlanTable(opt.launchers, opt.adapters);
  if (!t.ok()) {  // names the file (and an adapter's key)
    err << "moelog: " << t.status().message() << "\n";
    return kExitUsage;
  }
  *table = std::move(*t);
  for (const auto& s : table->skipped) err << "moelog: " << opt.adapters << ": skipped " << s << "\n";
  popt->launchers = table;
  return std::nullopt;
}

namespace {

// The units a selection left out, planned and looked up in the store only:
// their recorded figures calibrate the selected units' tables all the same.
std::vector<UnitWork> ContextWork(const LoadedDocument& doc, const SessionOptions& opt, const PlanOptions& popt,
                                  RunStore* store, const std::vector<const Unit*>& selected) {
  std::vector<const Unit*> rest;
  for (const auto& u : doc.units)
    if (!u.recorded.empty() && !u.when.empty() && std::find(selected.begin(), selected.end(), &u) == selected.end())
      rest.push_back(&u);
  std::vector<UnitWork> out;
  if (rest.empty()) return out;
  std::vector<const Entry*> entries;
  for (const Unit* u : rest) entries.push_back(&doc.logbook.entries[static_cast<size_t>(u->entry)]);
  std::vector<std::string> pin_errors;
  std::vector<std::vector<Plan>> plans = PlanEntries(doc.logbook, entries, popt, &pin_errors);
  SessionOptions cache_only = opt;
  cache_only.rerun = false;
  for (size_t ui = 0; ui < rest.size(); ++ui) {
    UnitWork w;
    w.unit = rest[ui];
    for (size_t ci = 0; ci < rest[ui]->commands.size(); ++ci) {
      w.commands.push_back(PlanOne(rest[ui]->commands[ci], std::move(plans[ui][ci]), cache_only, store));
      w.runnable = w.runnable || w.commands.back().runnable;
    }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace

std::vector<UnitWork> PlanWork(const LoadedDocument& doc, const SessionOptions& opt, const PlanOptions& popt,
                               RunStore* store, SessionSummary* sum, std::ostream& err, ModelView* model) {
  const std::vector<const Unit*> selected = SelectUnits(doc, opt, store);
  // A logbook's entries as PlanEntries plans them (pins, revisions); a
  // recipe's steps together.
  std::vector<std::vector<Plan>> plans;
  if (doc.kind == DocumentKind::kLogbook) {
    std::vector<const Entry*> entries;
    for (const Unit* u : selected) entries.push_back(&doc.logbook.entries[static_cast<size_t>(u->entry)]);
    std::vector<std::string> pin_errors;
    plans = PlanEntries(doc.logbook, entries, popt, &pin_errors);
    for (const auto& e : pin_errors) err << e << "\n";  // FILE:LINE of the pin
  } else {
    std::vector<std::string_view> texts;
    for (const Unit* u : selected)
      for (const auto& c : u->commands) texts.push_back(c.joined);
    std::vector<Plan> flat = PlanCommands(texts, popt);
    size_t next = 0;
    for (const Unit* u : selected) {
      plans.emplace_back();
      for (size_t ci = 0; ci < u->commands.size(); ++ci) plans.back().push_back(std::move(flat[next++]));
    }
  }
  std::vector<UnitWork> all;
  for (size_t ui = 0; ui < selected.size(); ++ui) {
    const Unit* u = selected[ui];
    UnitWork w;
    w.unit = u;
    w.model = model;
    for (size_t ci = 0; ci < u->commands.size(); ++ci) {
      w.commands.push_back(PlanOne(u->commands[ci], std::move(plans[ui][ci]), opt, store));
      w.runnable = w.runnable || w.commands.back().runnable;
    }
    all.push_back(std::move(w));
  }
  CheckModelRows(doc, &all, sum, err);
  if (model && model->calibrate && doc.kind == DocumentKind::kLogbook) {
    std::vector<UnitWork> context = ContextWork(doc, opt, popt, store, selected);
    CheckModelRows(doc, &context, nullptr, err);  // never learn from an edited model row
    LearnCalibration(context, model);
    LearnCalibration(all, model);
  }
  if (store) sum->foreign_ignored = store->ForeignIgnored();
  return all;
}

int ReportNeedsConsent(const LoadedDocument& doc, const std::vector<UnitWork>& work, std::ostream& err) {
  int n = 0;
  for (const auto& w : work)
    for (const auto& pc : w.commands)
      if (pc.plan.verdict == PlanVerdict::kNeedsConsent) {
        ++n;
        err << doc.path << ":" << pc.command->line << ": " << w.unit->id << ": " << pc.plan.Summary() << "\n";
      }
  return n;
}

void PrintPlan(const std::vector<UnitWork>& work, SessionSummary* sum, std::ostream& out) {
  for (const auto& w : work) {
    out << w.unit->id << " (line " << w.unit->line << "): " << w.unit->label << "\n";
    if (w.commands.empty()) out << "  no commands\n";
    for (const auto& pc : w.commands) {
      out << "  line " << pc.command->line << ": " << pc.plan.Summary() << "\n";
      for (size_t i = 0; i < pc.plan.invocations.size(); ++i) {
        const bool hit = pc.runnable && !pc.cached[i].empty();
        const BenchInvocation& inv = pc.plan.invocations[i];
        out << "    " << (pc.runnable ? (hit ? "[cache hit]  " : "[cache miss] ") : "[skipped]    ")
            << inv.command_line;
        // Which of the harness's runs, and which of its revisions, this is.
        if (!inv.label.empty()) out << "   # " << inv.harness << " run " << inv.label;
        if (!inv.revision.empty()) out << (inv.label.empty() ? "   # " : "; ") << inv.harness << " revision: " << inv.revision;
        out << "\n";
      }
    }
    if (w.runnable) ++sum->runnable;
  }
}

void CountWork(const std::vector<UnitWork>& work, SessionSummary* sum) {
  for (const auto& w : work) {
    if (!w.runnable) continue;
    ++sum->runnable;
    for (const auto& pc : w.commands) {
      if (!pc.runnable) continue;
      sum->invocations += static_cast<int>(pc.plan.invocations.size());
      sum->cache_hits += static_cast<int>(pc.plan.invocations.size() - pc.missing.size());
    }
  }
}

}  // namespace moelog::logbook
