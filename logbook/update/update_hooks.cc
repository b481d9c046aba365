#include "logbook/update/update_hooks.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "logbook/criteria/recorded.h"
#include "logbook/store/run_adapter.h"

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

Result<std::vector<StoredRun>> LogbookRuns(const Logbook& logbook, const std::string& db_path, bool recorded,
                                           std::string* note) {
  std::vector<StoredRun> out;
  std::set<std::string> ids;
  for (const auto& e : logbook.entries) {
    ids.insert(e.id);
    if (!e.explicit_id.empty()) ids.insert(e.explicit_id);
  }
  size_t stored = 0;
  struct stat st;
  if (!db_path.empty() && ::stat(db_path.c_str(), &st) == 0) {
    auto runs = LoadStoredRuns(db_path, RunQuery{});
    if (!runs.ok()) return runs.status();
    for (auto& r : *runs)
      if (ids.count(r.entry_id)) out.push_back(std::move(r));
    stored = out.size();
  }
  size_t rec = 0;
  if (recorded) {
    auto r = RecordedRuns(logbook);
    rec = r.size();
    out.insert(out.end(), r.begin(), r.end());
  }
  if (note)
    *note = std::to_string(stored) + " stored run" + (stored == 1 ? "" : "s") +
            (recorded ? ", " + std::to_string(rec) + " recorded" : "") +
            (::stat(db_path.c_str(), &st) == 0 ? "" : " (no run store at " + db_path + ")");
  return out;
}

Result<EntryChart> ChartForEntry(const std::string& logbook_path, const Entry& entry,
                                 const std::vector<StoredRun>& runs, const ChartOptions& options, const ChartDraw& how) {
  std::vector<StoredRun> mine;
  for (const auto& r : runs)
    if (r.entry_id == entry.id || (!entry.explicit_id.empty() && r.entry_id == entry.explicit_id)) mine.push_back(r);
  bool has_recorded = std::any_of(mine.begin(), mine.end(), [](const StoredRun& r) { return r.source == "recorded"; });
  if (!has_recorded) {
    auto rec = RecordedRuns(entry);
    mine.insert(mine.end(), rec.begin(), rec.end());
  }
  ChartOptions o = options;
  if (o.title.empty()) {
    auto probe = PlanChart(PointsFromRuns(mine), options);
    if (!probe.ok()) return probe.status();
    o.title = entry.label + ": " + probe->title;
  }
  std::string suffix;
  if (!options.x_key.empty()) suffix += NormalizeKey(options.x_key);
  for (const auto& y : options.y_metrics) {
    if (!suffix.empty()) suffix += '-';
    suffix += NormalizeKey(y);
  }
  return DrawEntryChart(logbook_path, entry.id, PointsFromRuns(mine), o, suffix, how);
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
                                                   const std::vector<StoredRun>& runs) {
  auto criteria = ParseCriteria(StopCriteriaBullets(logbook, logbook_text), logbook.file);
  if (!criteria.ok()) return criteria.status();
  EvalContext ctx;
  ctx.runs = runs;
  ctx.entries = EntryFactsOf(logbook);
  return EvaluateAll(*criteria, ctx);
}

Result<std::string> CriteriaStatusRegion(const std::string& logbook_text, const Logbook& logbook,
                                         const std::vector<StoredRun>& runs) {
  auto results = CheckCriteria(logbook_text, logbook, runs);
  if (!results.ok()) return results.status();
  return RenderCriteriaStatus(*results);
}

}  // namespace moelog::logbook
