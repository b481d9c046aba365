// The write step: the edits spliced into the document, then either the
// --check report or the new file, written only when it is safe.
#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/parse_recipe.h"
#include "logbook/doc/unified_diff.h"
#include "logbook/exit_codes.h"
#include "logbook/update/steps.h"

namespace moelog::logbook {
namespace {

// The rewritten document keeps its entries (or steps) and valid regions,
// and every written region is found again (not swallowed by a fence).
bool RewriteKeepsStructure(const LoadedDocument& doc, const SpliceResult& res) {
  const RegionScan again = FindRegions(res.text, doc.path);
  bool safe = again.ok();
  for (const auto& id : res.changed) safe = safe && again.Find(id) != nullptr;
  if (doc.kind == DocumentKind::kRecipe)
    return safe && ParseRecipe(res.text, doc.path).steps.size() == doc.recipe.steps.size();
  const Logbook now = ParseLogbook(res.text, doc.path);
  safe = safe && now.entries.size() == doc.logbook.entries.size();
  for (size_t i = 0; safe && i < now.entries.size(); ++i) safe = now.entries[i].id == doc.logbook.entries[i].id;
  return safe;
}

// --overwrite-edits: names each region whose hand edits are replaced.
void ListReplacedEdits(const LoadedDocument& doc, const std::vector<RegionEdit>& edits, std::ostream& err) {
  for (const auto& e : edits) {
    const Region* r = doc.scan.Find(e.id);
    if (r && r->edited)
      err << doc.path << ":" << r->begin_line << ": region id=" << e.id << " was edited by hand; replaced (--overwrite-edits)\n";
  }
}

}  // namespace

SpliceResult SpliceEdits(const LoadedDocument& doc, const std::vector<RegionEdit>& edits,
                         const SessionOptions& opt, SessionSummary* sum, std::ostream& err) {
  SpliceOptions sopt;
  sopt.force = opt.overwrite_edits;
  SpliceResult res = SpliceRegions(doc.text, doc.scan, edits, sopt);
  if (opt.overwrite_edits) ListReplacedEdits(doc, edits, err);
  if (opt.check && !res.kept_edited.empty()) {
    // The diff shows what `update --overwrite-edits` would write over the hand edits.
    SpliceOptions forced;
    forced.force = true;
    std::vector<std::string> kept = res.kept_edited;
    res = SpliceRegions(doc.text, doc.scan, edits, forced);
    res.kept_edited = kept;
  }
  sum->kept_edited = res.kept_edited;
  for (const auto& id : res.kept_edited)
    err << doc.path << ":" << doc.scan.Find(id)->begin_line << ": region id=" << id
        << " was edited by hand; left alone (use --overwrite-edits to replace it)\n";
  sum->written = res.changed;
  sum->changed = res.text != doc.text;
  return res;
}

int ReportCheck(const LoadedDocument& doc, const SpliceResult& res, SessionSummary* sum, std::ostream& out) {
  for (const auto& id : res.changed) sum->stale.push_back(id);
  if (sum->changed) out << UnifiedDiff(doc.text, res.text, doc.path);
  for (const auto& id : sum->stale) out << id << ": stale or missing region\n";
  if (sum->foreign_ignored > 0)
    out << doc.path << ": " << sum->foreign_ignored << " foreign run(s) in the store ignored (not made by this user on "
        << "this host)\n";
  // Entries that cannot plan were reported; they are not stale: the document
  // shows what the store holds exactly when no region would change.
  return sum->stale.empty() && sum->invalid == 0 && sum->tampered == 0 ? kExitOk : kExitError;
}

Stop WriteDocument(const LoadedDocument& doc, const SpliceResult& res, std::ostream& err) {
  if (!RewriteKeepsStructure(doc, res)) {
    err << doc.path << ": the rewrite would change the document's structure; file unchanged\n";
    return kExitParse;
  }
  auto now = ReadFile(doc.path);
  if (!now.ok() || *now != doc.raw) {
    err << doc.path << ": changed on disk during the update; file unchanged (runs are stored: rerun to write)\n";
    return kExitError;
  }
  Status st = AtomicWriteFile(WrittenPath(doc.path), FromLf(res.text, doc.ending));
  if (st.ok()) return std::nullopt;
  err << doc.path << ": " << st.ToString() << "\n";
  return st.ExitCode();
}

namespace {

// Numbers stated in a section's bullets, at any depth.
size_t StatedNumbers(const Bullet& b) {
  size_t n = b.numbers.size();
  for (const auto& c : b.children) n += StatedNumbers(c);
  return n;
}

// A document of results without dated entries (a report): what moelog needs.
void NoEntriesHint(const LoadedDocument& doc, std::ostream& out) {
  if (doc.kind != DocumentKind::kLogbook || !doc.logbook.entries.empty()) return;
  size_t tables = 0, numbers = 0;
  for (const auto& s : doc.logbook.sections) {
    tables += s.tables.size();
    for (const auto& b : s.bullets) numbers += StatedNumbers(b);
  }
  if (tables == 0 && numbers == 0) return;
  out << doc.path << ": no dated entries, so nothing here is read as an experiment (" << tables << " table"
      << (tables == 1 ? "" : "s") << ", " << numbers << " stated number" << (numbers == 1 ? "" : "s")
      << " outside entries). moelog reads an entry per heading `### YYYY-MM-DD HH:MM - Title` "
         "under `## Experiment Log`, with `- Command:` (the benchmark it ran) and `- Result:` "
         "(the figures, as bullets or a table) fields.\n";
}

}  // namespace

int ReportUpdate(const LoadedDocument& doc, const SpliceResult& res, bool writes, SessionSummary* sum,
                 std::ostream& out) {
  NoEntriesHint(doc, out);
  if (!writes) sum->changed = false;
  if (writes)
    for (const auto& id : res.changed) out << id << ": written\n";
  out << doc.path << ": " << sum->runnable << " runnable of " << sum->units << ", " << sum->invocations
      << " invocation(s): " << sum->cache_hits << " cached, " << sum->executed << " run, " << sum->failed
      << " failed; " << (writes ? (sum->changed ? "file updated" : "file unchanged") : "file not written") << "\n";
  if (sum->foreign_ignored > 0)
    out << doc.path << ": " << sum->foreign_ignored << " foreign run(s) in the store ignored (not made by this user on "
        << "this host: not served, not counted; `moelog runs --all` shows them, --accept-foreign-runs uses them)\n";
  // Commands that cannot plan are reported (and said in their regions); they
  // are not failures.
  if (sum->failed > 0 || !sum->kept_edited.empty() || sum->write_errors > 0 || sum->invalid > 0 || sum->tampered > 0)
    return kExitError;
  return sum->needs_consent > 0 ? static_cast<int>(kExitNeedsConsent) : static_cast<int>(kExitOk);
}

}  // namespace moelog::logbook
