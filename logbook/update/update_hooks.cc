#include "logbook/update/update_hooks.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "logbook/criteria/recorded.h"
#include "logbook/plan/bench_args.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/store/stored_run_reader.h"

namespace moelog::logbook {
namespace {

bool Filled(std::string t) {
  t.erase(std::remove(t.begin(), t.end(), '`'), t.end());
  size_t b = t.find_first_not_of(" \t-");
  if (b == std::string::npos) return false;
  t = t.substr(b);
  while (!t.empty() && (t.back() == '.' || t.back() == ' ')) t.pop_back();
  std::string lower;
  for (char c : t) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return !(lower.empty() || lower == "pending" || lower == "n/a" || lower == "tbd");
}

bool AnyFilled(const Bullet& b) {
  for (const auto& c : b.children)
    if (Filled(c.text) || AnyFilled(c)) return true;
  return false;
}

}  // namespace

namespace {

std::vector<Pin> EffectivePins(const Logbook& logbook, const Entry& entry) {
  std::vector<Pin> pins = logbook.pins;
  pins.insert(pins.end(), entry.pins.begin(), entry.pins.end());
  return pins;
}

}  // namespace

Result<std::vector<std::string>> PinnedBenchArgs(const Logbook& logbook, const Entry& entry) {
  // A malformed pin line of this entry, or of the logbook (outside entries).
  for (const auto& e : logbook.pin_errors) {
    const bool in_entry = std::any_of(logbook.entries.begin(), logbook.entries.end(), [&](const Entry& x) {
      return e.line > x.heading_line && e.line <= x.end_line;
    });
    if (!in_entry || (e.line > entry.heading_line && e.line <= entry.end_line))
      return Status::InvalidArgument(e.ToString());
  }
  std::vector<std::string> args;
  for (const Pin& p : EffectivePins(logbook, entry)) {
    std::string flag = "--" + p.key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    const std::string where = logbook.file + ":" + std::to_string(p.line) + ": pin '" + p.key + "=" + p.value + "': ";
    if (p.key == "target")
      return Status::InvalidArgument(where + "the target is chosen on moelog's command line (--target)");
    auto parsed = ParseBenchFlags({"--target", "v5p", flag, p.value});
    if (!parsed.ok()) {
      const std::string& why = parsed.status().message();
      // An unknown flag is an unknown key: say it in the pin's words.
      if (why.find("unknown flag " + flag) != std::string::npos)
        return Status::InvalidArgument(where + "unknown key '" + p.key + "' (a harness flag in snake case: " +
                                       "ep_dispatch, ep_comm_path, capacity_policy, quant_mode, ...)");
      return Status::InvalidArgument(where + why);
    }
    args.push_back(flag);
    args.push_back(p.value);
  }
  return args;
}

std::string PinsNote(const Logbook& logbook, const Entry& entry) {
  std::string s;
  for (const Pin& p : EffectivePins(logbook, entry))
    s += (s.empty() ? "" : ", ") + p.key + "=" + p.value;
  return s;
}

namespace {

bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The hex commit that follows "commit" or "Commit" in `text` (after spaces,
// '=' or ':' and an optional backtick): 7 to 40 lowercase hex digits ending
// at a word boundary. "" when none. A scan, linear in the text (logbook text
// is someone else's: no backtracking matcher runs on it).
std::string CommitAfterWord(const std::string& text) {
  for (size_t at = text.find("ommit"); at != std::string::npos; at = text.find("ommit", at + 1)) {
    if (at == 0 || (text[at - 1] != 'c' && text[at - 1] != 'C')) continue;
    size_t i = at + 5;
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == '=' || text[i] == ':')) ++i;
    if (i < text.size() && text[i] == '`') ++i;
    size_t end = i;
    while (end < text.size() && IsLowerHex(text[end])) ++end;
    const size_t n = end - i;
    if (n >= 7 && n <= 40 && (end == text.size() || !IsWordChar(text[end]))) return text.substr(i, n);
  }
  return "";
}

// "commit=`5b6f53c5d`", "commit 5b6f53c", "Commit: abcdef1..." in a bullet
// or its sub-bullets: the hex that follows.
std::string CommitIn(const Bullet& b) {
  if (std::string x = CommitAfterWord(b.text); !x.empty()) return x;
  for (const auto& c : b.children)
    if (std::string x = CommitIn(c); !x.empty()) return x;
  return "";
}

}  // namespace

EntryContext ContextOf(const Entry& entry) {
  EntryContext c;
  c.when = entry.date + (entry.time.empty() ? "" : " " + entry.time);
  for (const auto& f : entry.fields)
    if (c.commit.empty()) c.commit = CommitIn(f.bullet);
  return c;
}

namespace {

// Whether the entry is planned on its own: it has pins (its own or the
// logbook's, or a pin line that is no key=value list, which then makes its
// plans invalid), or a harness revision of the table's adapters applies to it.
bool PlannedOnItsOwn(const Logbook& logbook, const Entry& entry, const LauncherTable& table) {
  if (!logbook.pins.empty() || !entry.pins.empty() || !logbook.pin_errors.empty()) return true;
  const EntryContext context = ContextOf(entry);
  return std::any_of(table.harnesses.begin(), table.harnesses.end(), [&](const Adapter& a) {
    return std::any_of(entry.commands.begin(), entry.commands.end(),
                       [&](const auto& c) { return RevisionMayApply(a, context, c.joined); });
  });
}

// The entry's commands planned with its context and its pins' flags appended
// to each invocation. A pin that does not check makes every plan invalid and
// sets *pin_error to its FILE:LINE message.
std::vector<Plan> PlanEntryOnItsOwn(const Logbook& logbook, const Entry& entry, const PlanOptions& options,
                                    std::string* pin_error) {
  std::vector<std::string_view> texts;
  for (const auto& c : entry.commands) texts.push_back(c.joined);
  auto pin_args = PinnedBenchArgs(logbook, entry);
  if (!pin_args.ok()) {
    *pin_error = pin_args.status().message();
    std::vector<Plan> plans;
    for (const auto& c : entry.commands) {
      Plan p;
      p.original = c.joined;
      p.verdict = PlanVerdict::kInvalid;
      p.reason = kPinErrorReason + pin_args.status().message();
      plans.push_back(std::move(p));
    }
    return plans;
  }
  PlanOptions o = options;
  o.extra_bench_args.insert(o.extra_bench_args.end(), pin_args->begin(), pin_args->end());
  o.context = ContextOf(entry);
  return PlanCommands(texts, o);
}

}  // namespace

std::vector<std::vector<Plan>> PlanEntries(const Logbook& logbook, const std::vector<const Entry*>& entries,
                                           const PlanOptions& options, std::vector<std::string>* pin_errors) {
  // Entries without pins or revisions are planned together (one planner,
  // shared caches); the others each on its own.
  const LauncherTable& table = options.launchers ? *options.launchers : DefaultLauncherTable();
  std::vector<bool> alone(entries.size());
  std::vector<std::string_view> texts;
  for (size_t i = 0; i < entries.size(); ++i) {
    alone[i] = PlannedOnItsOwn(logbook, *entries[i], table);
    if (!alone[i])
      for (const auto& c : entries[i]->commands) texts.push_back(c.joined);
  }
  std::vector<Plan> shared = PlanCommands(texts, options);
  size_t next = 0;
  std::vector<std::vector<Plan>> out(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (alone[i]) {
      std::string pin_error;
      out[i] = PlanEntryOnItsOwn(logbook, *entries[i], options, &pin_error);
      if (!pin_error.empty() && pin_errors) pin_errors->push_back(pin_error);
      continue;
    }
    for (size_t c = 0; c < entries[i]->commands.size(); ++c) out[i].push_back(std::move(shared[next++]));
  }
  return out;
}

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
            (have_store ? "" : " (no run store at " + db_path + ")") +
            (foreign > 0 ? " (" + std::to_string(foreign) + " foreign run" + (foreign == 1 ? "" : "s") +
                               " ignored: not made by this user on this host)"
                         : "");
  return out;
}

std::vector<ChartPoint> EntryChartPoints(const Entry& entry, const std::vector<StoredRun>& runs) {
  std::vector<StoredRun> mine;
  for (const auto& r : runs)
    if (r.entry_id == entry.id || (!entry.explicit_id.empty() && r.entry_id == entry.explicit_id)) mine.push_back(r);
  bool has_recorded = std::any_of(mine.begin(), mine.end(), [](const StoredRun& r) { return r.source == "recorded"; });
  if (!has_recorded) {
    auto rec = RecordedRuns(entry);
    mine.insert(mine.end(), rec.begin(), rec.end());
  }
  return PointsFromRuns(mine);
}

Result<EntryChart> ChartForEntry(const std::string& logbook_path, const Entry& entry,
                                 const std::vector<StoredRun>& runs, const ChartOptions& options, const ChartDraw& how) {
  ChartOptions o = options;
  if (o.title.empty()) o.title = entry.label;
  if (o.id.empty()) o.id = entry.id;
  std::string suffix;
  if (!options.x_key.empty()) suffix += NormalizeKey(options.x_key);
  for (const auto& y : options.y_metrics) {
    if (!suffix.empty()) suffix += '-';
    suffix += NormalizeKey(y);
  }
  for (const auto& k : options.series_keys) suffix += (suffix.empty() ? "by-" : "-by-") + NormalizeKey(k);
  return DrawEntryChart(logbook_path, entry.id, EntryChartPoints(entry, runs), o, suffix, how);
}

std::string PrimaryMetric(const Logbook& logbook) {
  const Section* scope = logbook.FindSection(SectionKind::kScope);
  if (!scope) return "";
  for (const auto& b : scope->bullets)
    if (auto m = PrimaryMetricOf(b.text); !m.empty()) return m;
  return "";
}

std::map<std::string, EntryFacts> EntryFactsOf(const Logbook& logbook) {
  std::map<std::string, EntryFacts> out;
  for (const auto& e : logbook.entries) {
    EntryFacts f;
    for (const auto& field : e.fields)
      if (field.name == "Result" && (Filled(field.value) || AnyFilled(field.bullet))) f.has_result = true;
    out[e.id] = f;
    if (!e.explicit_id.empty()) out[e.explicit_id] = f;
  }
  return out;
}

Result<std::vector<CriterionResult>> CheckCriteria(const std::string& logbook_text, const Logbook& logbook,
                                                   const std::vector<StoredRun>& runs, const Logbook* entries) {
  auto criteria = ParseCriteria(StopCriteriaBullets(logbook, logbook_text), logbook.file, RecordedKeys(logbook));
  if (!criteria.ok()) return criteria.status();
  EvalContext ctx;
  ctx.runs = runs;
  ctx.entries = EntryFactsOf(entries ? *entries : logbook);
  return EvaluateAll(*criteria, ctx);
}

Result<std::string> CriteriaStatusRegion(const std::string& logbook_text, const Logbook& logbook,
                                         const std::vector<StoredRun>& runs) {
  auto results = CheckCriteria(logbook_text, logbook, runs);
  if (!results.ok()) return results.status();
  return RenderCriteriaStatus(*results);
}

}  // namespace moelog::logbook
