#include "logbook/update/criteria_status.h"

#include <algorithm>
#include <cctype>

#include "logbook/criteria/recorded.h"

namespace moelog::logbook {
namespace {

// Whether a Result text says something: not empty, "pending", "N/A" or
// "TBD" (backticks, leading dashes and a trailing period aside).
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

// Whether any sub-bullet of `b`, at any depth, is filled.
bool AnyFilled(const Bullet& b) {
  for (const auto& c : b.children)
    if (Filled(c.text) || AnyFilled(c)) return true;
  return false;
}

}  // namespace

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
