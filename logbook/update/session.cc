#include "logbook/update/session.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "logbook/render/chart.h"
#include "logbook/doc/entry_ids.h"
#include "logbook/file_util.h"
#include "logbook/plan/launchers.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/parse_recipe.h"
#include "logbook/doc/regions.h"
#include "logbook/render/render_table.h"
#include "logbook/store/run_adapter.h"
#include "logbook/store/run_store.h"
#include "logbook/run/runner.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/update/update_hooks.h"
#include "logbook/work_queue.h"

namespace moelog::logbook {
namespace {

// A logbook entry or a recipe step, reduced to what the pipeline needs.
struct Unit {
  std::string id, label;
  int line = 0;
  std::vector<CommandText> commands;
  int insert_after = 0;
  std::string indent;
  bool blank_before = false;
  std::vector<const Bullet*> recorded;
};

// One planned command of a unit and what the cache already holds for it.
struct PlannedCommand {
  const CommandText* command = nullptr;
  Plan plan;
  bool runnable = false;
  std::vector<std::string> keys;                     // per invocation
  std::vector<std::vector<RunRecord>> cached;        // per invocation (empty = miss)
  std::vector<size_t> missing;                       // invocation indices to run
  Result<PlanOutcome> outcome = Status::NotFound("not run");
  std::vector<RunRecord> fresh;                      // records of this run
};

struct UnitWork {
  const Unit* unit = nullptr;
  std::vector<PlannedCommand> commands;
  bool runnable = false;
};

std::string Slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::vector<Unit> UnitsOf(const Logbook& lb) {
  std::vector<Unit> units;
  for (const auto& e : lb.entries) {
    Unit u;
    u.id = e.id;
    u.label = e.label;
    u.line = e.heading_line;
    u.commands = e.commands;
    u.recorded = e.RecordedBullets();
    if (const Field* r = e.FindField("Result")) {
      u.insert_after = r->bullet.end_line;
      u.indent = std::string(static_cast<size_t>(r->bullet.content_indent), ' ');
    } else {
      u.insert_after = e.end_line;
      u.blank_before = true;
    }
    units.push_back(std::move(u));
  }
  return units;
}

std::vector<Unit> UnitsOf(const Recipe& r, const std::string& path) {
  std::vector<Unit> units;
  for (const auto& s : r.steps) {
    Unit u;
    u.id = RecipeStepId(path, s.number);
    u.label = s.title;
    u.line = s.line;
    u.commands = s.commands;
    u.insert_after = s.end_line;
    u.indent = s.blocks.empty() ? "" : std::string(static_cast<size_t>(s.blocks.back().indent), ' ');
    u.blank_before = true;
    units.push_back(std::move(u));
  }
  return units;
}

std::string Shorten(const std::string& s, size_t n) {
  std::string one = s;
  std::replace(one.begin(), one.end(), '\n', ' ');
  return one.size() <= n ? one : one.substr(0, n - 3) + "...";
}

// The edit that writes `content` into unit u's region.
RegionEdit EditOf(const Unit& u, std::string content) {
  RegionEdit e;
  e.id = u.id;
  e.content = std::move(content);
  e.indent = u.indent;
  e.insert_after_line = u.insert_after;
  e.blank_before = u.blank_before;
  return e;
}

// A plan's summary as a note inside a region: one line, nothing Markdown or
// an HTML comment would read as structure (it may quote the document).
std::string NoteText(const std::string& s) {
  std::string out = Shorten(s, 300);
  for (char& c : out)
    if (c == '<' || c == '>' || c == '`' || c == '|' || static_cast<unsigned char>(c) < 0x20) c = '?';
  return out;
}

// Region contents for a runnable unit; empty when a run is missing.
std::string RenderUnit(const UnitWork& w, bool* complete) {
  std::vector<TableRow> rows;
  std::vector<std::string> notes;
  *complete = true;
  for (size_t ci = 0; ci < w.commands.size(); ++ci) {
    const PlannedCommand& pc = w.commands[ci];
    if (!pc.runnable) {
      // Named by its position in the entry, not its line: the region sits
      // above commands written after Result, and would move their lines.
      notes.push_back("- skipped (command " + std::to_string(ci + 1) + "): " + NoteText(pc.plan.Summary()));
      continue;
    }
    for (size_t i = 0; i < pc.plan.invocations.size(); ++i) {
      std::vector<const RunRecord*> recs;
      for (const auto& r : pc.fresh)
        if (static_cast<size_t>(r.invocation_index) == i) recs.push_back(&r);
      if (recs.empty())
        for (const auto& r : pc.cached[i]) recs.push_back(&r);
      if (recs.empty()) {
        *complete = false;
        continue;
      }
      for (const RunRecord* r : recs) rows.push_back(RowFromRecord(*r));
    }
  }
  std::string content = RenderRunTable(rows, w.unit->recorded);
  if (!notes.empty()) {
    content += "\n";
    for (const auto& n : notes) content += n + "\n";
  }
  content += "\n";  // keeps the end marker out of the table
  return content;
}

// The entry's chart (update_hooks.h): drawn under figures/ beside the logbook
// when `draw` (unless the chart `old` region's stamp names is still there),
// and linked below the table with its stamp. "" when the entry's runs do not
// vary along an axis. `chart_stale`: not drawn now and the chart on disk is
// missing, incomplete, changed or drawn from other data.
std::string ChartLink(const std::string& path, const Logbook& lb, const UnitWork& w, const Region* old, bool draw,
                      std::ostream& err, int* write_errors = nullptr, bool* chart_stale = nullptr) {
  const Entry* e = lb.FindEntry(w.unit->id);
  if (!e) return "";
  std::vector<StoredRun> runs;
  for (const auto& pc : w.commands) {
    if (!pc.runnable) continue;
    for (size_t i = 0; i < pc.plan.invocations.size(); ++i) {
      bool fresh = false;
      for (const auto& r : pc.fresh)
        if (static_cast<size_t>(r.invocation_index) == i && r.status == "ok") {
          runs.push_back(ToStoredRun(r));
          fresh = true;
        }
      if (!fresh)
        for (const auto& r : pc.cached[i])
          if (r.status == "ok") runs.push_back(ToStoredRun(r));
    }
  }
  // A cache hit may have been stored by another entry with the same command:
  // these are this entry's results all the same.
  for (auto& r : runs) r.entry_id = w.unit->id;
  ChartDraw how;
  how.write = draw;
  if (old) how.recorded = FindChartStamp(old->content);
  auto chart = ChartForEntry(path, *e, runs, {}, how);
  if (!chart.ok()) {
    if (chart.status().code() != Status::Code::kNotFound)
      err << path << ":" << e->heading_line << ": " << e->id << ": chart: " << chart.status().ToString() << "\n";
    if (chart.status().code() != Status::Code::kIOError) return "";
    if (write_errors) ++*write_errors;
    // The old chart no longer shows these runs: no link to it, but a reason.
    return "Chart not drawn: " + NoteText(chart.status().message()) + ". The next `moelog update` retries.\n";
  }
  if (!chart->files.current && chart_stale) *chart_stale = true;
  return chart->markdown + "\n";
}

// The owned status region under "## Stop Criteria" (update_hooks.h), added
// when some criterion carries a predicate; evaluated against the stored runs
// of the logbook's entries and this session's fresh runs.
const char kCriteriaRegionId[] = "STOP-CRITERIA";

void AddCriteriaStatus(const std::string& text, const Logbook& lb, RunStore* store,
                       const std::vector<UnitWork>& work, std::vector<RegionEdit>* edits, std::ostream& err) {
  const Section* s = lb.FindSection(SectionKind::kStopCriteria);
  if (!s) return;
  bool any = false;
  for (const auto& b : StopCriteriaBullets(text)) any = any || FindPredicateText(b.text).has_value();
  if (!any) return;
  std::set<std::string> ids;
  for (const auto& e : lb.entries) ids.insert(e.id);
  std::vector<StoredRun> runs;
  std::set<std::string> seen;
  if (store)
    if (auto rows = store->Query(RunQuery{}); rows.ok())
      for (const auto& r : *rows)
        if (r.status == "ok" && ids.count(r.entry_id)) {
          runs.push_back(ToStoredRun(r));
          seen.insert(runs.back().id);
        }
  for (const auto& w : work)
    for (const auto& pc : w.commands)
      for (const auto& r : pc.fresh)
        if (r.status == "ok" && !seen.count(ToStoredRun(r).id)) runs.push_back(ToStoredRun(r));
  auto body = CriteriaStatusRegion(text, lb, runs);
  if (!body.ok()) {
    err << body.status().message() << "\n";
    return;
  }
  RegionEdit e;
  e.id = kCriteriaRegionId;
  e.content = *body;
  e.insert_after_line = s->bullets.empty() ? s->heading_line : s->bullets.back().end_line;
  e.blank_before = true;
  edits->push_back(std::move(e));
}

class Progress {
 public:
  Progress(bool on, int total) : on_(on && isatty(2)), total_(total), start_(std::chrono::steady_clock::now()) {}
  void Step(int done, const std::string& what) {
    if (!on_) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = done > 0 ? el / done * (total_ - done) : 0;
    std::fprintf(stderr, "\r\033[K[%d/%d] %s  ETA %.0fs", done, total_, what.c_str(), eta);
    if (done == total_) std::fprintf(stderr, "\n");
  }

 private:
  bool on_;
  int total_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::string RecipeStepId(const std::string& path, int n) {
  const std::string stem = std::filesystem::path(path).stem().string();
  std::string s = Slug(stem);
  if (s.empty()) s = "RECIPE";
  return s + "-STEP-" + std::to_string(n);
}

SessionSummary RunSession(const std::string& path, DocumentKind kind, const SessionOptions& opt, std::ostream& out,
                          std::ostream& err) {
  SessionSummary sum;
  if (opt.target != "v5p" && opt.target != "cpu") {
    err << "moelog: error: --target must be cpu or v5p (got '" << opt.target << "')\n";
    sum.exit_code = kExitUsage;
    return sum;
  }
  const bool writes = opt.write && !opt.check && !opt.dry_run;
  FileLock lock;
  if (writes) {
    Status st = lock.Acquire(path);
    if (!st.ok()) {
      err << path << ": " << st.ToString() << "\n";
      sum.exit_code = st.ExitCode();
      return sum;
    }
  }
  auto text_or = ReadFile(path);
  if (!text_or.ok()) {
    err << text_or.status().ToString() << "\n";
    sum.exit_code = text_or.status().ExitCode();
    return sum;
  }
  // The document is read with LF line ends and written back with its own:
  // CRLF stays CRLF, a lone-CR (old Mac) file stays lone-CR.
  const std::string raw = std::move(text_or.value());
  const LineEnding ending = DetectLineEnding(raw);
  const std::string text = ToLf(raw, ending);

  Logbook lb;
  Recipe rc;
  std::vector<Unit> units;
  std::vector<Diagnostic> diags;
  if (kind == DocumentKind::kLogbook) {
    lb = ParseLogbook(text, path);
    units = UnitsOf(lb);
    diags = lb.diagnostics;
  } else {
    rc = ParseRecipe(text, path);
    units = UnitsOf(rc, path);
    diags = rc.diagnostics;
  }
  for (const auto& d : diags) err << d.ToString() << "\n";
  const RegionScan scan = FindRegions(text, path);
  if (!scan.ok()) {
    for (const auto& d : scan.diagnostics) err << d.ToString() << "\n";
    err << path << ": malformed moelog regions; nothing run, file unchanged\n";
    sum.exit_code = kExitParse;
    return sum;
  }
  for (const auto& r : scan.regions) {
    bool known = false;
    for (const auto& u : units) known = known || u.id == r.id;
    known = known || (kind == DocumentKind::kLogbook && r.id == kCriteriaRegionId);
    if (!known) err << path << ":" << r.begin_line << ": region id=" << r.id << " matches no entry; left alone\n";
  }
  for (const auto& id : opt.entries) {
    bool known = false;
    for (const auto& u : units) known = known || u.id == id;
    if (!known) {
      err << "moelog: error: no entry with ID " << id << " in " << path << "\n";
      sum.exit_code = kExitUsage;
      return sum;
    }
  }

  // The store: opened only when it exists or when this session may run.
  std::unique_ptr<RunStore> store;
  const std::string db = opt.db.empty() ? DefaultStorePath(path) : opt.db;
  if (!(opt.check || opt.dry_run) || std::filesystem::exists(db)) {
    auto s = RunStore::Open(db);
    if (!s.ok()) {
      err << db << ": " << s.status().ToString() << "\n";
      sum.exit_code = s.status().ExitCode() == kExitUsage ? kExitError : s.status().ExitCode();
      return sum;
    }
    store = std::move(s.value());
  }

  LauncherTable table;
  PlanOptions popt;
  popt.target = opt.target;
  popt.extra_bench_args = opt.extra_bench_args;
  if (!opt.launchers.empty()) {
    auto t = LoadLauncherTable(opt.launchers);
    if (!t.ok()) {
      err << opt.launchers << ": " << t.status().ToString() << "\n";
      sum.exit_code = kExitUsage;
      return sum;
    }
    table = std::move(t.value());
    popt.launchers = &table;
  }

  // Phase A: select, plan (planning is pure: all commands at once, on every
  // core), look up the cache.
  std::vector<const Unit*> selected;
  for (const auto& u : units) {
    if (!opt.entries.empty() && std::find(opt.entries.begin(), opt.entries.end(), u.id) == opt.entries.end()) continue;
    if (opt.failed) {
      bool any_failed = false;
      if (store)
        if (auto rows = store->ByEntry(u.id); rows.ok())
          for (const auto& r : *rows) any_failed = any_failed || r.status != "ok";
      if (!any_failed) continue;
    }
    selected.push_back(&u);
  }
  std::vector<std::string_view> texts;
  for (const Unit* u : selected)
    for (const auto& c : u->commands) texts.push_back(c.joined);
  std::vector<Plan> plans = PlanCommands(texts, popt);
  size_t next_plan = 0;
  std::vector<UnitWork> work;
  for (const Unit* up : selected) {
    const Unit& u = *up;
    UnitWork w;
    w.unit = &u;
    for (const auto& c : u.commands) {
      PlannedCommand pc;
      pc.command = &c;
      pc.plan = std::move(plans[next_plan++]);
      pc.runnable = pc.plan.verdict == PlanVerdict::kRunnable ||
                    (pc.plan.verdict == PlanVerdict::kNeedsConsent && opt.allow_shell);
      if (pc.runnable && pc.plan.invocations.empty()) pc.runnable = false;
      if (pc.runnable) {
        for (size_t i = 0; i < pc.plan.invocations.size(); ++i) {
          pc.keys.push_back(CacheKey(pc.plan.invocations[i].config));
          std::vector<RunRecord> hit;
          if (store && !opt.force)
            if (auto c2 = store->CachedRuns(pc.keys.back()); c2.ok()) hit = std::move(c2.value());
          if (hit.empty()) pc.missing.push_back(i);
          pc.cached.push_back(std::move(hit));
        }
      }
      w.runnable = w.runnable || pc.runnable;
      w.commands.push_back(std::move(pc));
    }
    if (opt.stale && w.runnable) {
      bool complete = true;
      std::string content = RenderUnit(w, &complete);
      bool chart_missing = false;
      const Region* r = scan.Find(u.id);
      if (kind == DocumentKind::kLogbook && complete)
        content += ChartLink(path, lb, w, r, false, err, nullptr, &chart_missing);
      if (complete && r && !r->edited && !chart_missing &&
          text.substr(r->begin_offset, r->end_offset - r->begin_offset) == FormatRegion(u.id, content, r->indent))
        continue;
    }
    work.push_back(std::move(w));
  }
  sum.units = static_cast<int>(work.size());

  // Commands that need consent: skipped, each reported where it is written.
  if (!opt.allow_shell && !opt.dry_run)
    for (const auto& w : work)
      for (const auto& pc : w.commands)
        if (pc.plan.verdict == PlanVerdict::kNeedsConsent) {
          ++sum.needs_consent;
          err << path << ":" << pc.command->line << ": " << w.unit->id << ": " << pc.plan.Summary() << "\n";
        }

  // Dry run: the plan, nothing else.
  if (opt.dry_run) {
    for (const auto& w : work) {
      out << w.unit->id << " (line " << w.unit->line << "): " << w.unit->label << "\n";
      if (w.commands.empty()) out << "  no commands\n";
      for (const auto& pc : w.commands) {
        out << "  line " << pc.command->line << ": " << pc.plan.Summary() << "\n";
        for (size_t i = 0; i < pc.plan.invocations.size(); ++i) {
          const bool hit = pc.runnable && !pc.cached[i].empty();
          out << "    " << (pc.runnable ? (hit ? "[cache hit]  " : "[cache miss] ") : "[skipped]    ")
              << pc.plan.invocations[i].command_line << "\n";
        }
      }
      if (w.runnable) ++sum.runnable;
    }
    return sum;
  }

  // Phase B: run what is missing (never for --check).
  std::vector<PlannedCommand*> to_run;
  for (auto& w : work) {
    if (!w.runnable) continue;
    ++sum.runnable;
    for (auto& pc : w.commands) {
      if (!pc.runnable) continue;
      sum.invocations += static_cast<int>(pc.plan.invocations.size());
      sum.cache_hits += static_cast<int>(pc.plan.invocations.size() - pc.missing.size());
      if (!pc.missing.empty() && !opt.check) to_run.push_back(&pc);
    }
  }
  if (!to_run.empty()) {
    RunnerOptions ropt;
    ropt.allow_shell = opt.allow_shell;
    ropt.timeout_s = opt.timeout_s;
    ropt.moelog_binary = opt.moelog_binary;
    ropt.working_dir = std::filesystem::path(path).parent_path().string();
    ropt.sandbox = opt.sandbox;
    if (opt.allow_shell) {
      // Consented scripts work in .moelog/scratch beside the document: the
      // only folder they may write when sandboxed.
      const std::string moelog_dir = (ropt.working_dir.empty() ? std::string(".") : ropt.working_dir) + "/.moelog";
      Status st = MakeRealDir(moelog_dir);
      if (st.ok()) st = MakeRealDir(moelog_dir + "/scratch");
      if (!st.ok()) {
        err << path << ": " << st.ToString() << "\n";
        sum.exit_code = kExitError;
        return sum;
      }
      ropt.scratch_dir = moelog_dir + "/scratch";
    }
    const Provenance prov = CollectProvenance(path);
    std::map<const PlannedCommand*, std::string> unit_of;
    for (auto& w : work)
      for (auto& pc : w.commands) unit_of[&pc] = w.unit->id;
    Progress progress(opt.progress, static_cast<int>(to_run.size()));
    auto run_one = [&ropt](PlannedCommand* pc) {
      RunnerOptions o = ropt;
      if (!pc->plan.needs_shell) o.only = pc->missing;
      pc->outcome = RunPlan(pc->plan, o);
    };
    std::mutex progress_mu;
    int done = 0;
    RunQueue(to_run.size(), static_cast<size_t>(std::max(1, opt.jobs)), [&](size_t i) {
      run_one(to_run[i]);
      std::lock_guard<std::mutex> lock(progress_mu);
      progress.Step(++done, unit_of.at(to_run[i]));
    });
    // Store, serially.
    for (PlannedCommand* pc : to_run) {
      const std::string& id = unit_of[pc];
      if (!pc->outcome.ok()) {
        err << path << ":" << pc->command->line << ": " << id << ": " << pc->outcome.status().ToString() << "\n";
        ++sum.failed;
        continue;
      }
      pc->fresh = ToRecords(pc->plan, *pc->outcome, id, std::filesystem::absolute(path).string(), prov);
      for (const auto& inv : pc->outcome->invocations) {
        if (!inv.ran) continue;
        ++sum.executed;
        if (!inv.status.ok()) {
          ++sum.failed;
          err << path << ":" << pc->command->line << ": " << id << ": " << inv.status.ToString() << "\n";
        }
      }
      if (store && !pc->fresh.empty()) {
        Status st = store->Insert(&pc->fresh);
        if (!st.ok()) {
          // The document shows only what the store holds: these runs are not
          // rendered, the entry stays incomplete, and the update fails.
          err << db << ": " << st.ToString() << "; " << id << "'s runs are not stored and not written\n";
          pc->fresh.clear();
          ++sum.write_errors;
        }
      }
    }
  }

  // Phase C: render and splice.
  std::vector<RegionEdit> edits;
  for (const auto& w : work) {
    const Unit& u = *w.unit;
    // A command that cannot be planned (an invalid flag, a conflict) fails
    // the update, reported where it is written.
    std::string invalid;
    for (size_t ci = 0; ci < w.commands.size(); ++ci) {
      const PlannedCommand& pc = w.commands[ci];
      if (pc.plan.verdict != PlanVerdict::kInvalid) continue;
      ++sum.invalid;
      err << path << ":" << pc.command->line << ": " << u.id << ": " << pc.plan.Summary() << "\n";
      invalid += "- not updated (command " + std::to_string(ci + 1) + "): " + NoteText(pc.plan.Summary()) + "\n";
    }
    if (!w.runnable) {
      std::string why;
      for (const auto& pc : w.commands) why += (why.empty() ? "" : "; ") + pc.plan.Summary();
      out << u.id << ": " << (why.empty() ? "skipped (no commands)" : Shorten(why, 160)) << "\n";
      // Its old table no longer answers the command as written: the region
      // says why instead (only when it has one; nothing is added otherwise).
      if (!invalid.empty() && scan.Find(u.id) != nullptr) edits.push_back(EditOf(u, invalid));
      continue;
    }
    bool complete = true;
    std::string content = RenderUnit(w, &complete);
    bool chart_missing = false;
    if (kind == DocumentKind::kLogbook && complete)
      content += ChartLink(path, lb, w, scan.Find(u.id), writes, err, &sum.write_errors, &chart_missing);
    if (opt.check && chart_missing) {
      sum.stale.push_back(u.id);
      out << u.id << ": its chart is missing, incomplete, changed or drawn from other data\n";
    }
    if (!complete) {
      if (opt.check) {
        sum.stale.push_back(u.id);
        out << u.id << ": stale: runs missing from the store\n";
      } else {
        out << u.id << ": incomplete: some runs failed or did not run\n";
      }
      if (opt.check) continue;
    }
    if (opt.print_tables) {
      std::string title = u.label;
      while (!title.empty() && (title.back() == ':' || title.back() == ' ')) title.pop_back();
      out << "\n### " << u.id << ": " << title << "\n\n" << content;
    }
    edits.push_back(EditOf(u, content));
  }
  if (kind == DocumentKind::kLogbook) AddCriteriaStatus(text, lb, store.get(), work, &edits, err);
  SpliceOptions sopt;
  sopt.force = opt.force;
  SpliceResult res = SpliceRegions(text, scan, edits, sopt);
  if (opt.check && !res.kept_edited.empty()) {
    // The diff shows what `update --force` would write over the hand edits.
    SpliceOptions forced;
    forced.force = true;
    std::vector<std::string> kept = res.kept_edited;
    res = SpliceRegions(text, scan, edits, forced);
    res.kept_edited = kept;
  }
  sum.kept_edited = res.kept_edited;
  for (const auto& id : res.kept_edited)
    err << path << ":" << scan.Find(id)->begin_line << ": region id=" << id
        << " was edited by hand; left alone (use --force to overwrite)\n";
  sum.written = res.changed;
  sum.changed = res.text != text;

  if (opt.check) {
    for (const auto& id : res.changed) sum.stale.push_back(id);
    if (sum.changed) out << UnifiedDiff(text, res.text, path);
    for (const auto& id : sum.stale) out << id << ": stale or missing region\n";
    sum.exit_code = sum.stale.empty() ? kExitOk : kExitError;
    return sum;
  }
  if (writes && sum.changed) {
    // Safety: the rewritten document must keep its entries and have valid regions.
    const RegionScan again = FindRegions(res.text, path);
    bool safe = again.ok();
    // Every written region must be found again (not swallowed by a fence).
    for (const auto& id : res.changed) safe = safe && again.Find(id) != nullptr;
    if (kind == DocumentKind::kLogbook) {
      const Logbook nl = ParseLogbook(res.text, path);
      safe = safe && nl.entries.size() == lb.entries.size();
      for (size_t i = 0; safe && i < nl.entries.size(); ++i) safe = nl.entries[i].id == lb.entries[i].id;
    } else {
      const Recipe nr = ParseRecipe(res.text, path);
      safe = safe && nr.steps.size() == rc.steps.size();
    }
    if (!safe) {
      err << path << ": the rewrite would change the document's structure; file unchanged\n";
      sum.exit_code = kExitParse;
      return sum;
    }
    auto now = ReadFile(path);
    if (!now.ok() || *now != raw) {
      err << path << ": changed on disk during the update; file unchanged (runs are stored: rerun to write)\n";
      sum.exit_code = kExitError;
      return sum;
    }
    Status st = AtomicWriteFile(path, FromLf(res.text, ending));
    if (!st.ok()) {
      err << path << ": " << st.ToString() << "\n";
      sum.exit_code = st.ExitCode();
      return sum;
    }
  } else if (!writes) {
    sum.changed = false;
  }
  if (writes)
    for (const auto& id : res.changed) out << id << ": written\n";
  out << path << ": " << sum.runnable << " runnable of " << sum.units << ", " << sum.invocations
      << " invocation(s): " << sum.cache_hits << " cached, " << sum.executed << " run, " << sum.failed << " failed; "
      << (writes ? (sum.changed ? "file updated" : "file unchanged") : "file not written") << "\n";
  sum.exit_code = (sum.failed > 0 || !sum.kept_edited.empty() || sum.write_errors > 0 || sum.invalid > 0)
                      ? kExitError
                  : sum.needs_consent > 0                        ? kExitNeedsConsent
                                                                 : kExitOk;
  return sum;
}

}  // namespace moelog::logbook
