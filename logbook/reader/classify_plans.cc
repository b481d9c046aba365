// The classify stage's plan rule: what an entry writes as expected,
// projected or aimed for records no run. A line that leads a list, a table
// or a printed block as such ("**Expected results after phase 2:**",
// "**Expected validator output:**"; plan_leads of vocabulary.json) makes
// what it leads no runs; so does a line that leads a device's
// specifications ("Groq LPU specs:", "**Datasheet:**"; spec_leads), one
// that leads the changes against another run ("Delta vs baseline:";
// change_leads) makes what it leads derived figures, and an
// open task of a checklist ("- [ ] decode: >60 tok/s": what is still to
// reach).
#include <algorithm>
#include <cctype>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook::reader {
namespace {

// What a lead says the blocks below it are.
enum class LeadKind { kPlan, kSpecs, kChange };

// The lead of paragraph `p` when it is one line ending in a colon whose
// words say what follows is expected or aimed for (plan_leads), a device's
// specifications (spec_leads) or, by its first word, the changes against
// another run ("Delta vs baseline:"; change_leads), with its kind; else "".
std::string PlanLead(const Paragraph& p, LeadKind* kind) {
  if (p.line != p.end_line) return "";
  std::string t = Trim(p.text);
  while (!t.empty() && (t.back() == '*' || t.back() == '_' || t.back() == ' ')) t.pop_back();
  if (t.empty() || t.back() != ':' || t.size() > 120) return "";
  const auto& leads = ReaderLexicon().plan_leads;
  static const auto* spec_leads = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "spec_leads"));
  static const auto* change_leads = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "change_leads"));
  bool first = true;
  for (std::string w : Words(Lower(t))) {
    while (!w.empty() && (w.back() == ':' || w.back() == '*' || w.back() == ',')) w.pop_back();
    while (!w.empty() && (w.front() == '*' || w.front() == '_')) w.erase(0, 1);
    const bool change = first && change_leads->count(w) > 0;
    first = false;
    *kind = change ? LeadKind::kChange : spec_leads->count(w) ? LeadKind::kSpecs : LeadKind::kPlan;
    if (leads.count(w) || *kind != LeadKind::kPlan) {
      while (!t.empty() && (t.back() == ':' || t.back() == '*' || t.back() == ' ')) t.pop_back();
      size_t b = 0;
      while (b < t.size() && (t[b] == '*' || t[b] == '_')) ++b;
      return t.substr(b);
    }
  }
  return "";
}

// A span of lines an entry leads as a plan, with its lead.
struct Led {
  int first = 0, last = 0;
  std::string lead;
  LeadKind kind = LeadKind::kPlan;
};

// The lists, tables and printed blocks right below a plan lead (blank lines
// aside): each top-level list item up to the next paragraph, or the block.
void LedBlocks(const Entry& entry, const Paragraph& p, const std::string& lead, LeadKind kind, std::vector<Led>* out) {
  auto next_paragraph = [&](int after) {
    int at = entry.end_line + 1;
    for (const auto& q : entry.paragraphs)
      if (q.line > after) at = std::min(at, q.line);
    for (const auto& h : entry.subheadings)
      if (h.line > after) at = std::min(at, h.line);
    return at;
  };
  const int stop = next_paragraph(p.end_line);
  auto close = [&](int line) { return line > p.end_line && line - p.end_line <= 2; };
  std::vector<std::pair<int, int>> items;
  for (const auto& b : entry.notes) items.emplace_back(b.line, std::max(b.line, b.end_line));
  for (const auto& f : entry.fields) items.emplace_back(f.bullet.line, std::max(f.bullet.line, f.bullet.end_line));
  std::sort(items.begin(), items.end());
  for (const auto& [line, end] : items)
    if (line > p.end_line && line < stop && (close(line) || (!out->empty() && out->back().lead == lead && line - out->back().last <= 2)))
      out->push_back({line, end, lead, kind});
  for (const auto& t : entry.tables)
    if (close(t.line)) out->push_back({t.line, t.end_line, lead, kind});
  for (const auto& o : entry.outputs)
    if (close(o.line)) out->push_back({o.line, o.end_line, lead, kind});
}

// An open task's lines ("- [ ] ...", sub-items with it).
void OpenTasks(const Bullet& b, std::vector<Led>* out) {
  const std::string t = Trim(b.text);
  if (t.rfind("[ ]", 0) == 0) {
    out->push_back({b.line, std::max(b.line, b.end_line), ""});
    return;
  }
  for (const auto& c : b.children) OpenTasks(c, out);
}

// The heading's text without its marks and its numbering ("### 2. Goal:
// ..." -> "Goal: ...").
std::string HeadingWords(const std::string& heading) {
  size_t b = 0;
  while (b < heading.size() && (heading[b] == '#' || heading[b] == ' ' || heading[b] == '*')) ++b;
  size_t d = b;
  while (d < heading.size() && (std::isdigit(static_cast<unsigned char>(heading[d])) || heading[d] == '.')) ++d;
  if (d > b && d < heading.size() && (heading[d - 1] == '.' || heading[d] == ')')) b = d + (heading[d] == ')' ? 1 : 0);
  while (b < heading.size() && heading[b] == ' ') ++b;
  return heading.substr(b);
}

// Whether `inside` (a parenthesis's text) lists a device's specifications
// only: each part a number with a unit of bandwidth, compute or memory
// ("2.0 TB/s, 312 TFLOP/s", "80 GB HBM3").
bool SpecList(const std::string& inside) {
  int specs = 0;
  for (size_t b = 0; b <= inside.size();) {
    size_t e = inside.find_first_of(",;", b);
    if (e == std::string::npos) e = inside.size();
    const auto words = Words(inside.substr(b, e - b));
    UnitInfo u{};
    if (words.size() < 2 || !std::isdigit(static_cast<unsigned char>(words[0][0])) || !AnyUnit(words[1], &u) ||
        (u.metric != "tflops" && u.metric != "gb_per_s" && u.metric != "memory_mib"))
      return false;
    ++specs, b = e + 1;
  }
  return specs > 0;
}

}  // namespace

std::string HeadingNoRun(const std::string& heading) {
  const std::string t = HeadingWords(heading);
  const std::string lead = prose::PlainLead(t);
  const auto& leads = ReaderLexicon().plan_leads;
  for (const auto& w : Words(Lower(lead)))
    if (leads.count(w)) return "goals or expectations (a heading led by \"" + lead + ":\"), not a run";
  const size_t open = t.rfind('(');
  if (open == std::string::npos || open == 0 || t.back() != ')') return "";
  const auto before = Words(t.substr(0, open));
  std::string name;  // the heading's last words before the parenthesis: a device's name, its memory aside
  for (size_t k = before.size() > 3 ? before.size() - 3 : 0; k < before.size(); ++k) name += before[k] + " ";
  if (AcceleratorIn(name).empty() || !SpecList(t.substr(open + 1, t.size() - open - 2))) return "";
  return "a device's rating or specifications (beside its name in a heading), not a run";
}

void DropPlanned(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  std::vector<Led> led;
  for (const auto& p : entry.paragraphs) {
    LeadKind kind = LeadKind::kPlan;
    if (const std::string lead = PlanLead(p, &kind); !lead.empty()) LedBlocks(entry, p, lead, kind, &led);
  }
  for (const auto& b : entry.notes) OpenTasks(b, &led);
  for (const auto& f : entry.fields) OpenTasks(f.bullet, &led);
  if (led.empty()) return;
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const auto it = std::find_if(led.begin(), led.end(), [&f](const Led& l) { return l.first <= f.line && f.line <= l.last; });
    if (it == led.end()) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text,
                         it->lead.empty() ? "an open task of a checklist (what is still to reach), not a run"
                         : it->kind == LeadKind::kSpecs  ? "a device's specifications (led by \"" + it->lead + "\"), not a run"
                         : it->kind == LeadKind::kChange ? "changes against another run (led by \"" + it->lead + "\"): derived, not a run"
                                                         : "what is expected or aimed for (led by \"" + it->lead + "\"), not a run"});
    }
  }
  *out = std::move(kept);
}

// A document whose title calls it an estimate (IsEstimateTitle: "#
// GPU-Hours Estimate: ...") works out what runs would take: the figures of
// its parts are estimates, listed, not tabled. A part that names what it
// measured ("## Measured calibration"; measured_part_words) or runs a
// command records its runs all the same.
void DropEstimateDocument(const Logbook& logbook, const Entry& entry, std::vector<RecordedFigure>* out,
                          std::vector<UnreadFigures>* unread) {
  // "## 2. Decode tokens/s ceiling from communication alone": an entry whose
  // own heading calls it an estimate or a ceiling works one out likewise.
  const bool own = IsEstimateTitle(entry.heading);
  if (out->empty() || !(own || IsEstimateTitle(logbook.title)) || !entry.commands.empty() ||
      NamesMeasuredPart(entry.heading))
    return;
  const std::string why = own ? "an estimate (the entry's heading: \"" + entry.heading + "\"), not a run"
                              : "an estimate (the document's title: \"" + logbook.title + "\"), not a run";
  for (const auto& f : *out)
    if (unread && !(!unread->empty() && unread->back().line == f.line)) unread->push_back({f.line, f.text, why});
  out->clear();
}

}  // namespace moelog::logbook::reader
