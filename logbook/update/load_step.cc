// The load step: the document read and parsed, its units and regions found.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_set>

#include "logbook/doc/entry_ids.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/parse_recipe.h"
#include "logbook/update/steps.h"
#include "logbook/update/entry_plans.h"
#include "logbook/reader/segment.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// Words of `text` (letters, digits, '_' and '-'), each tested by `hit`.
template <typename F>
bool AnyWord(const std::string& text, F hit) {
  std::string w;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
      w += c;
      continue;
    }
    if (!w.empty() && hit(w)) return true;
    w.clear();
  }
  return false;
}

// "- Result: pending", "- Result: TBD (TPU blocked)": the entry records
// nothing yet. The field's value as written, else "".
std::string PendingResult(const Entry& e) {
  const Field* r = e.FindField("Result");
  if (r == nullptr || !r->bullet.children.empty()) return "";
  std::string v = Trim(r->value);
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* p : {"pending", "tbd", "todo", "queued", "not run", "not yet run", "to be run", "awaiting"})
    if (v.rfind(p, 0) == 0) return Trim(r->value);
  return "";
}

// "- Config: CPU smoke only, tiny shape.": the entry ran its commands on a
// CPU, not on the hardware the model describes (no accelerator named beside
// it: TPU, GPU, v5p, H100x8, ...). The field's text (cut), or "".
std::string CpuConfig(const Entry& e) {
  const Field* c = e.FindField("Config");
  if (c == nullptr) return "";
  const std::string& t = c->bullet.text;
  const bool cpu = AnyWord(t, [](const std::string& w) { return w == "CPU" || w == "CPUs"; });
  const bool accel = AnyWord(t, [](const std::string& w) {
    std::string l;
    for (char ch : w) l += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    static const std::set<std::string> kAccel = {"tpu", "tpus", "gpu", "gpus", "v4", "v5e", "v5p", "v5p-8", "v6e",
                                                 "a100", "h100", "h200", "b200", "gb200", "mi300", "mi300x", "cuda"};
    if (kAccel.count(l)) return true;
    // "H100x8", "v5p-16": an accelerator with a count.
    for (const char* a : {"h100x", "b200x", "gb200x", "a100x", "h200x", "v5p-", "v4-", "v5e-", "v6e-"})
      if (l.rfind(a, 0) == 0) return true;
    return false;
  });
  if (!cpu || accel) return "";
  std::string v = Trim(c->value);
  return v.size() > 80 ? Utf8Prefix(v, 77) + "..." : v;
}

// An entry's region goes after its (last) Result field, or at the entry's end.
// Where an entry without a Result field ends its record: its last line, or
// the last line of its blocks above the sub-headed parts after its last
// recorded figure and its last command (`### Notes`, `### Theory`, `###
// Attempt 1 (FAILED)`): what follows the record is read after its table.
int BeforeTrailingPlans(const Entry& e, const std::vector<RecordedFigure>& recorded) {
  int last_figure = e.heading_line;
  for (const auto& f : recorded) {
    last_figure = std::max(last_figure, f.line);
    for (int l : f.joined_lines) last_figure = std::max(last_figure, l);
  }
  for (const auto& c : e.commands) last_figure = std::max(last_figure, c.end_line);  // the runs the region reports
  int cut = 0;
  for (auto s = e.subheadings.rbegin(); s != e.subheadings.rend(); ++s) {
    const std::string name = s->text.substr(0, s->text.find(':'));  // "Next Steps: PyTorch comparison"
    if (s->line <= last_figure) break;
    cut = s->line;
  }
  if (cut == 0) return e.end_line;
  int end = last_figure;
  auto below = [&](int line, int end_line) {
    if (line < cut) end = std::max(end, std::min(end_line, cut - 1));
  };
  for (const auto& p : e.paragraphs) below(p.line, p.end_line);
  for (const auto& t : e.tables) below(t.line, t.end_line);
  for (const auto& b : e.outputs) below(b.line, b.end_line);
  for (const auto& c : e.commands) below(c.line, c.end_line);
  for (const auto& b : e.notes) below(b.line, b.end_line);
  for (const auto& f : e.fields) below(f.bullet.line, f.bullet.end_line);
  for (const auto& s : e.subheadings) below(s.line, s.line);
  return end;
}

std::vector<Unit> UnitsOf(const Logbook& lb) {
  std::vector<Unit> units;
  std::vector<std::vector<UnreadFigures>> unread;
  std::vector<std::vector<RecordedFigure>> recorded = LogbookFigures(lb, &unread);
  for (const auto& e : lb.entries) {
    Unit u;
    u.entry = static_cast<int>(units.size());
    u.pins = PinsNote(lb, e);
    u.id = e.id;
    u.label = e.label;
    u.line = e.heading_line;
    u.commands = e.commands;
    u.recorded = std::move(recorded[units.size()]);
    u.unread = std::move(unread[units.size()]);
    if (!e.date.empty() && !e.time.empty()) u.when = e.date + " " + e.time;
    u.day = e.date;
    if (u.recorded.empty()) u.pending = PendingResult(e);
    u.ran_on_cpu = CpuConfig(e);
    u.failures = RecordedFailures(e);
    // After the last Result field ("- Non-EP result:" then "- EP result:").
    const Field* r = nullptr;
    for (const Field& f : e.fields)
      if (f.name == "Result") r = &f;
    if (r != nullptr) {
      u.insert_after = r->bullet.end_line;
      u.indent = std::string(static_cast<size_t>(r->bullet.content_indent), ' ');
      // A table written right after "- Result:" (outside the item) belongs
      // to it: the region goes below the table, not between the two.
      int next_field = e.end_line + 1;
      for (const auto& f : e.fields)
        if (f.bullet.line > r->bullet.line) next_field = std::min(next_field, f.bullet.line);
      // So does a harness's output block written there ("```text RESULT ...").
      auto below = [&](int line, int end_line) {
        if (line > r->bullet.end_line && line < next_field && end_line >= u.insert_after) {
          u.insert_after = end_line;
          u.blank_before = true;
          u.indent.clear();
        }
      };
      for (const auto& t : e.tables) below(t.line, t.end_line);
      for (const auto& b : e.outputs) below(b.line, b.end_line);
    } else {
      u.insert_after = BeforeTrailingPlans(e, u.recorded);
      u.blank_before = true;
      // An entry that is a dated list's item: its region inside the item.
      if (e.item_indent >= 0) u.indent = std::string(static_cast<size_t>(e.item_indent), ' ');
    }
    units.push_back(std::move(u));
  }
  return units;
}

// A recipe step's region goes after the step.
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

bool HasUnit(const LoadedDocument& doc, const std::string& id) {
  return std::any_of(doc.units.begin(), doc.units.end(), [&](const Unit& u) { return u.id == id; });
}

// A region inside an entry whose ID matches no entry (the entry's derived
// ID changed between moelog versions: date-only headings were numbered
// PREFIX-YYYYMMDD-d, now -1) is that entry's region when the entry has none
// of its own and no other such region: its ID is taken over, so the update
// rewrites it in place instead of adding a second region. Any other such
// region is reported and left alone.
// The unit of the entry whose lines hold `line` (entries in document
// order), or nullptr. Logarithmic in the entries.
const Unit* UnitHolding(const LoadedDocument& doc, int line) {
  const auto& es = doc.logbook.entries;
  auto it = std::upper_bound(es.begin(), es.end(), line, [](int l, const Entry& e) { return l <= e.heading_line; });
  if (it == es.begin()) return nullptr;
  const Entry& e = *(it - 1);
  const size_t k = static_cast<size_t>(it - 1 - es.begin());
  return line <= e.end_line && k < doc.units.size() ? &doc.units[k] : nullptr;
}

void AdoptOrphanRegions(LoadedDocument* doc, std::ostream& err) {
  std::set<std::string> ids;
  for (const Unit& u : doc->units) ids.insert(u.id);
  std::map<const Unit*, std::vector<size_t>> orphans;
  for (size_t i = 0; i < doc->scan.regions.size(); ++i) {
    const Region& r = doc->scan.regions[i];
    if (ids.count(r.id) || r.id == kCriteriaRegionId) continue;
    if (const Unit* u = UnitHolding(*doc, r.begin_line)) orphans[u].push_back(i);
  }
  for (const auto& [u, in] : orphans) {
    if (doc->scan.Find(u->id) != nullptr || in.size() != 1) continue;  // CheckUnitIds reports them
    const Region& r = doc->scan.regions[in[0]];
    err << doc->path << ":" << r.begin_line << ": region id=" << r.id << " sits in entry " << u->id
        << " (the entry's ID changed): taken over as " << u->id << "\n";
    doc->scan.Rename(in[0], u->id);
  }
}

}  // namespace

std::string RecipeStepId(const std::string& path, int n) {
  std::string s = Slug(std::filesystem::path(path).stem().string());
  if (s.empty()) s = "RECIPE";
  return s + "-STEP-" + std::to_string(n);
}

Stop LoadDocument(const std::string& path, DocumentKind kind, LoadedDocument* doc, std::ostream& err) {
  auto text = ReadFile(path);
  if (!text.ok()) {
    err << text.status().ToString() << "\n";
    return text.status().ExitCode();
  }
  // The document is read with LF line ends and written back with its own:
  // CRLF stays CRLF, a lone-CR (old Mac) file stays lone-CR.
  doc->path = path;
  doc->kind = kind;
  doc->raw = std::move(text.value());
  doc->ending = DetectLineEnding(doc->raw);
  doc->text = ToLf(doc->raw, doc->ending);
  const std::vector<Diagnostic>* diags = nullptr;
  if (kind == DocumentKind::kLogbook) {
    doc->logbook = ParseLogbook(doc->text, path);
    doc->units = UnitsOf(doc->logbook);
    diags = &doc->logbook.diagnostics;
  } else {
    doc->recipe = ParseRecipe(doc->text, path);
    doc->units = UnitsOf(doc->recipe, path);
    diags = &doc->recipe.diagnostics;
  }
  for (const auto& d : *diags) err << d.ToString() << "\n";
  doc->scan = FindRegions(doc->text, path);
  if (doc->scan.ok()) {
    if (kind == DocumentKind::kLogbook) AdoptOrphanRegions(doc, err);
    return std::nullopt;
  }
  for (const auto& d : doc->scan.diagnostics) err << d.ToString() << "\n";
  err << path << ": malformed moelog regions; nothing run, file unchanged\n";
  return kExitParse;
}

Stop CheckUnitIds(const LoadedDocument& doc, const std::vector<std::string>& entries, std::ostream& err) {
  std::unordered_set<std::string> units;  // one lookup per region
  for (const Unit& u : doc.units) units.insert(u.id);
  for (const auto& r : doc.scan.regions) {
    const bool known = units.count(r.id) > 0 || (doc.kind == DocumentKind::kLogbook && r.id == kCriteriaRegionId);
    if (known) continue;
    err << doc.path << ":" << r.begin_line << ": region id=" << r.id;
    const Unit* in = doc.kind == DocumentKind::kLogbook ? UnitHolding(doc, r.begin_line) : nullptr;
    if (in != nullptr)
      err << " sits in entry " << in->id << ", which has a region of its own or another such region; left alone "
          << "(delete it by hand)\n";
    else
      err << " matches no entry; left alone\n";
  }
  for (const auto& id : entries) {
    if (HasUnit(doc, id)) continue;
    err << "moelog: error: no entry with ID " << id << " in " << doc.path << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace moelog::logbook
