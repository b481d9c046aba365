#include "logbook/reader/internal.h"
#include "logbook/reader/figures_dumps.h"
#include "logbook/reader/figures_fieldlines.h"
#include "logbook/reader/table_points.h"
#include "logbook/reader/key_reportsettings.h"
#include "logbook/reader/classify_cited.h"
#include "logbook/reader/classify_settings.h"
#include "logbook/reader/classify_planitems.h"
#include "logbook/reader/key_fields.h"

#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/figures_unitfield.h"
#include "logbook/reader/segment.h"
#include "logbook/reader/table_groups.h"

namespace moelog::logbook {
using namespace reader;

namespace reader {

// A harness's own machine-readable line in a Result's output block:
// "RESULT impl=fused_w13 tokens=32768 time_ms=21.90 tflops=203.6
// tokens_per_s=1496255". Its metric keys give the figures, the others the
// configuration. One pass per line.
void ResultLines(const std::string& text, int first_line, const Config& context, const EntryCtx& x,
                 std::vector<RecordedFigure>* out) {
  struct MetricKey {
    const char* metric;
    double factor;
    const char* unit;
  };
  static const std::map<std::string, MetricKey> kMetrics = {
      {"tflops", {"tflops", 1, "TF/s"}},          {"tflops_per_s", {"tflops", 1, "TF/s"}},
      {"time_ms", {"time_s", 1e-3, "ms"}},         {"time_s", {"time_s", 1, "s"}},
      {"time_us", {"time_s", 1e-6, "us"}},         {"tokens_per_s", {"tokens_per_s", 1, "tokens/s"}},
      {"tok_per_s", {"tokens_per_s", 1, "tokens/s"}}, {"gb_per_s", {"gb_per_s", 1, "GB/s"}},
      {"mfu", {"mfu", 1, "%"}}};
  std::stringstream ss(text);
  int n = 0;
  for (std::string line; std::getline(ss, line); ++n) {
    line = parse_detail::Trim(line);
    if (line.rfind("RESULT ", 0) != 0) continue;
    StoredRun figs;
    Config cfg = context;
    for (const auto& w : Words(line.substr(7))) {
      const size_t eq = w.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size()) continue;
      const std::string key = x.generic ? SnakeKey(w.substr(0, eq)) : NormalizeKey(w.substr(0, eq));
      const std::string value = w.substr(eq + 1);
      if (auto it = kMetrics.find(key); it != kMetrics.end()) {
        auto v = ParseNumber(value);
        if (!v) continue;
        const MetricKey& m = it->second;
        figs.metrics[m.metric] = m.factor < 1 ? *v / std::round(1 / m.factor) : *v * m.factor;
        figs.units[m.metric] = m.unit;
        figs.decimals[m.metric] = WrittenDecimals(value);
      } else {
        cfg[key] = value;
      }
    }
    if (!HasBaseMetric(figs)) continue;
    const int at = first_line + 1 + n;
    StoredRun run = NewRecorded(x, cfg, at);
    run.metrics = figs.metrics;
    run.units = figs.units;
    run.decimals = figs.decimals;
    out->push_back({std::move(run), at, line});
  }
}

// The context of a table under a sub-heading of the entry ("#### `topk=8`,
// `null=0.1` vs `null=0.0`"): the keys the nearest sub-heading above it
// names (not a case: a heading's words are a title), and those of the
// sub-headings it sits under ("### 8 epochs" over "#### lr 1e-3"), the
// nearer naming a key last.
Config Under(const Entry& e, int line, Config context, const EntryCtx& x) {
  size_t near = e.subheadings.size();
  for (size_t k = 0; k < e.subheadings.size(); ++k)
    if (e.subheadings[k].line < line) near = k;
  if (near == e.subheadings.size()) return context;
  std::vector<size_t> path = {near};
  for (size_t i = near, level = static_cast<size_t>(std::max(e.subheadings[near].level, 0)); i-- > 0 && level > 0;)
    if (e.subheadings[i].level > 0 && static_cast<size_t>(e.subheadings[i].level) < level)
      path.push_back(i), level = static_cast<size_t>(e.subheadings[i].level);
  for (size_t p = path.size(); p-- > 0;)
    for (const auto& [k, v] : LabelWords(e.subheadings[path[p]].text, x.vars, x.fixed, x.generic, &x.feeds))
      context[k] = v;
  return context;
}

// A value the command fixes that some figures' labels name ("ring layer:"
// beside --layer-impl ring) is not the value of figures whose labels name
// something else ("baseline layer:"): the key is dropped from those (never
// guessed). Words only; numbers are no such names.
void UnstampOthers(const EntryCtx& x, std::vector<RecordedFigure>* out) {
  auto names = [](const std::string& text, const std::string& v) {
    for (const auto& w : Words(text)) {
      std::string t = w;
      while (!t.empty() && (t.back() == ':' || t.back() == ',')) t.pop_back();
      if (t == v) return true;
    }
    return false;
  };
  for (const auto& [k, v] : x.fixed) {
    if (v.empty() || !IsIdentStart(v[0]) || k == "harness" || k == "accelerator") continue;
    bool some = false;
    for (const auto& f : *out) some = some || names(f.text, v);
    if (!some) continue;
    for (auto& f : *out)
      if (!names(f.text, v) && (f.run.config.count("case") || f.run.config.count("variant"))) f.run.config.erase(k);
  }
}

// A key the entry's commands set to different values ("--hidden 2048" in
// the first, "--hidden 3072" in a "larger-shape check"), named by some
// figures' labels but never with the first command's value: the figures
// that name none take the first command's ("`shared=0, topk=8`" beside
// "`hidden=3072, ..., topk=8`" is the 2048 run).
void FirstCommandDefaults(const EntryCtx& x, std::vector<RecordedFigure>* out) {
  for (const auto& k : x.commands_vary) {
    auto vals = x.vars.find(k);
    if (vals == x.vars.end() || vals->second.empty()) continue;
    std::set<std::string> named;
    for (const auto& f : *out)
      if (auto it = f.run.config.find(k); it != f.run.config.end()) named.insert(it->second);
    if (named.empty() || named.count(vals->second.front())) continue;
    for (auto& f : *out) f.run.config.emplace(k, vals->second.front());
  }
}

}  // namespace reader

bool TflopsLogbook(const Logbook& logbook) {
  for (SectionKind k : {SectionKind::kScope, SectionKind::kBaseline})
    if (const Section* sec = logbook.FindSection(k))
      for (const auto& b : sec->bullets)
        if (NamesTflops(b)) return true;
  return false;
}

double TflopsExample(const Logbook& logbook) {
  std::function<double(const Bullet&)> first = [&](const Bullet& b) -> double {
    if (NamesTflops(b))
      for (const auto& f : Figures(b.text, true))
        if (f.metric == "tflops" && f.value > 0) return f.value;
    for (const auto& c : b.children)
      if (double v = first(c); v > 0) return v;
    return 0;
  };
  for (SectionKind k : {SectionKind::kScope, SectionKind::kBaseline})
    if (const Section* sec = logbook.FindSection(k))
      for (const auto& b : sec->bullets)
        if (double v = first(b); v > 0) return v;
  return 0;
}

bool MfuLogbook(const Logbook& logbook) {
  auto names = [](const std::string& t) { return t.find("MFU") != std::string::npos; };
  if (names(logbook.title)) return true;
  if (const Section* scope = logbook.FindSection(SectionKind::kScope))
    for (const auto& b : scope->bullets)
      if (b.text.find("metric") != std::string::npos && names(b.text)) return true;
  return false;
}

namespace reader {

// Words that name a time measure: an entry that writes them and no TF/s
// records times, whatever the harness prints.
bool NamesTime(const Bullet& b) {
  for (const char* w : {"time-based", "runtime", "latency", "wall time", "step time"})
    if (BulletHas(b, w)) return true;
  return false;
}

// What names the unit of a figure written without one, nearest first: a
// label above it (WalkScope), the entry's fields, the logbook.
void EntryUnits(const Entry& entry, bool tflops_logbook, double tflops_example, EntryCtx* x) {
  x->tflops_logbook = tflops_logbook;
  x->tflops_example = tflops_example;
  for (const char* name : {"Command", "Config"})
    if (const Field* f = entry.FindField(name)) x->tflops = x->tflops || NamesTflops(f->bullet);
  bool says_time = false, writes_tflops = false;
  for (const auto& f : entry.fields) {
    says_time = says_time || NamesTime(f.bullet);
    writes_tflops = writes_tflops || NamesTflops(f.bullet);
  }
  x->names_time = says_time && !writes_tflops;
}

// Command sub-bullets with labels ("- shared off:" over its command, "-
// shared on:" over another): what each label's command sets apart from the
// others' (flags with other values, or set by one only: a switch absent is
// false). A Result label with the same words names those settings.
std::map<std::string, Config> CommandLabels(const Entry& entry) {
  std::map<std::string, Config> flags;  // label -> its command's flags
  const Field* f = entry.FindField("Command");
  if (f == nullptr) return {};
  for (const auto& c : f->bullet.children) {
    const size_t colon = LabelEnd(c.text);
    const std::string label = colon == std::string::npos ? "" : PlainLabel(c.text.substr(0, colon));
    if (label.empty() || label.size() > 40) continue;
    ParsedCommand pc;
    for (const auto& span : c.code_spans) ParseCommand(span, &pc);
    for (const auto& g : c.children)
      for (const auto& span : g.code_spans) ParseCommand(span, &pc);
    for (const auto& [k, v] : pc.flags)
      if (v.find('$') == std::string::npos) flags[label][k] = v;
  }
  if (flags.size() < 2) return {};
  std::set<std::string> keys;
  for (const auto& [label, cfg] : flags)
    for (const auto& [k, v] : cfg) keys.insert(k);
  std::map<std::string, Config> out;
  for (const auto& k : keys) {
    bool is_switch = IsBoolFlag(k);  // a switch (`--prefetch`) given to some commands only
    for (const auto& [label, cfg] : flags) is_switch = is_switch || (cfg.count(k) && cfg.at(k) == "true");
    std::set<std::string> values;
    for (const auto& [label, cfg] : flags) values.insert(cfg.count(k) ? cfg.at(k) : is_switch ? "false" : "");
    if (values.size() < 2 || values.count("")) continue;  // the same everywhere, or unknown somewhere
    for (const auto& [label, cfg] : flags) out[label][k] = cfg.count(k) ? cfg.at(k) : "false";
  }
  return out;
}

// The words an entry names its own runs with: its heading, commands and
// run fields ("- Run: `v165`"). A sentence of its Result that starts with
// another run's tag ("v156 measures ...") restates that run.
std::set<std::string> OwnWords(const Entry& entry) {
  std::set<std::string> out;
  auto add = [&](const std::string& t) {
    std::string clean;
    for (char c : t) clean += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
    for (const auto& w : Words(clean)) out.insert(w);
  };
  add(entry.heading);
  for (const auto& c : entry.commands) add(c.joined);
  for (const auto& f : entry.fields)
    if (f.name == "Command" || f.name == "Run" || f.name == "Runs" || f.name == "Run ID" || f.name == "Profile") {
      add(f.bullet.text);
      for (const auto& c : f.bullet.children) add(c.text);
    }
  return out;
}

// The entry's prose, for what names a table's unit: its paragraphs, field
// and note bullets.
std::vector<EntryCtx::Text> EntryProse(const Entry& entry) {
  std::vector<EntryCtx::Text> out;
  for (const auto& p : entry.paragraphs) out.push_back({p.line, p.end_line, p.text});
  std::function<void(const Bullet&)> add = [&](const Bullet& b) {
    out.push_back({b.line, b.line, b.text});
    for (const auto& c : b.children) add(c);
  };
  for (const auto& f : entry.fields)
    if (f.name != "Command") add(f.bullet);
  for (const auto& b : entry.notes) add(b);
  return out;
}

// Fields that hold an entry's measured figures: its Result, named results
// ("- Non-EP result:", "- Measured run result:"), and fields named for a
// measurement ("- Throughput:", "- Performance:").
bool FigureField(const Field& f) {
  static const std::set<std::string> k = {"Result", "Results", "Throughput", "Performance", "Perf", "Timing",
                                          "Timings", "Metrics", "Measurements", "Measured"};
  const std::string name = Lower(f.name);
  auto ends = [&](const std::string& e) {
    return name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0 &&
           name[name.size() - e.size() - 1] == ' ';
  };
  return k.count(f.name) > 0 || ends("result") || ends("results");
}

// Fields that say what an entry means to do or how it ran, never what it
// measured: its goal, hypothesis, command, configuration, reading of the
// results and what comes next.
bool PlanField(const Field& f) { return ReaderLexicon().plan_fields.count(Lower(f.name)) > 0; }

// One figure field's figures: its own line, its sub-bullets, and the tables
// and output blocks written below it up to the next field.
void FieldFigures(const Entry& entry, size_t fi, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread) {
  const Field& f = entry.fields[fi];
  const int until = fi + 1 < entry.fields.size() ? entry.fields[fi + 1].bullet.line - 1 : entry.end_line;
  const int last = std::max(f.bullet.end_line, until);
  WalkScope scope;
  scope.context = LabelConfig(f.qualifier, x.vars, x.fixed, x.generic, &x.feeds);
  scope.context.erase("case");
  for (const auto& w : Words(f.qualifier)) {
    if (ReferenceWord(w)) scope.refers = true;  // "- Reference result:": this entry's run of the reference
    else scope.restated = scope.restated || RestatingWord(w);
  }
  scope.share = NamesShares(f.qualifier);
  scope.label = f.name + " " + f.qualifier;  // "Peak VRAM: 38.0 GB": the context of its unit
  // "- Result: `0.0031 s`, `10.3M tok/s`" states figures on the field's own line.
  if (!f.value.empty()) Walk(f.bullet, scope, x, out, unread, f.value);
  scope.sibling_unit = SiblingUnit(f.bullet.children);
  for (std::vector<Bullet> with_units; const auto& c : WithUnitFields(f.bullet.children, &with_units))
    Walk(c, scope, x, out, unread);
  scope.sibling_unit.clear();
  for (const auto& t : entry.tables)
    if (t.line >= f.bullet.line && t.line <= last)
      EntryTableFigures(entry, t, TableContext(entry, t, scope.context, x), x, out, unread);
  for (const auto& b : entry.outputs) {
    if (b.line < f.bullet.line || b.line > last) continue;
    // The printed lines as bullets under their labels first (a harness's
    // indented results); a block that reads so as nothing goes to the
    // output stage.
    const size_t before = out->size(), unread_before = unread ? unread->size() : 0;
    ResultLines(b.text, b.line, scope.context, x, out);
    for (const auto& ob : OutputBullets(b)) Walk(ob, scope, x, out, unread);
    if (out->size() == before && (!unread || unread->size() == unread_before))
      OutputFigures(entry, b, scope.context, x, out, unread);
  }
}

// The sentence text of a paragraph from `b` to `e`, without the marks that
// ended the lead before it ("**Arm A.** Job ...", "Backend surprise: ...").
std::string SentenceText(const std::string& s, size_t b, size_t e) {
  while (b < e && (s[b] == ' ' || s[b] == ':' || s[b] == '.' || s[b] == '*')) ++b;
  return s.substr(b, e - b);
}

// A paragraph's sentences, each cut again where a line of a paragraph of
// fields opens with a lead of its own ("**Action:** rebuild with native
// flags" over "**Effort:** 5 minutes", a bold lead of any length: "**After
// reducing to 4 stages:** 0.700 ms"): each such line is a field of its own,
// under its own lead.
// A line's label before ": " that names a run, parentheses and all
// ("compile(fwd + bwd)", "ckpt(mlp) + compile(model)"): short, no sentence
// in it, a figure after it; "" for any other line.
std::string LineLabel(const std::string& text) {
  const size_t colon = text.find(": ");
  const size_t nl = text.find('\n');
  if (colon == std::string::npos || colon == 0 || colon > 60 || (nl != std::string::npos && nl < colon)) return "";
  const std::string label = text.substr(0, colon);
  if (label.find(". ") != std::string::npos || label.find(';') != std::string::npos || Words(label).size() > 8 ||
      std::count(label.begin(), label.end(), '(') != std::count(label.begin(), label.end(), ')'))
    return "";
  // A report's line states its figures in a few words, no sentence after them.
  const std::string rest = text.substr(colon + 2, nl == std::string::npos ? std::string::npos : nl - colon - 2);
  if (rest.size() > 48 || rest.find(". ") != std::string::npos) return "";
  return StatesFigure(rest) ? label : "";
}

// Whether a paragraph is lines of a program's report: two lines or more
// led by a LineLabel ("Took: 857.30 s", "Sec/Sample: 0.00349 ms"), fewer
// other lines stating a figure ("1920 x 1080 image"); or one line alone,
// when a short label leads a few figures only.
bool LinesLed(const Paragraph& p) {
  if (const std::string label = LineLabel(p.text); p.line_starts.empty() && !label.empty())
    return Words(label).size() <= 5 && p.text.size() - label.size() <= 48;
  size_t led = 0, unled = 0;
  for (size_t i = 0; i <= p.line_starts.size(); ++i) {
    const size_t from = i == 0 ? 0 : p.line_starts[i - 1];
    if (from >= p.text.size()) return false;
    const size_t to = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
    const std::string line = p.text.substr(from, to - from);
    if (!LineLabel(line).empty()) ++led;
    else if (StatesFigure(line)) ++unled;
  }
  return led >= 2 && unled < led;
}

std::vector<std::pair<size_t, size_t>> FieldSentences(const Paragraph& p, size_t body, const std::string& rest,
                                                      bool lines_led, size_t* first_cut) {
  std::vector<size_t> cuts;
  // "compile(fwd + bwd): 26'661MiB, 974ms" over "compile(model): ...": every
  // line led by a label of its own, parentheses and all.
  const bool all_led = body == 0 && lines_led;
  if (!p.lead.empty() || !prose::PlainLead(p.text).empty() || all_led)
    for (const size_t ls : p.line_starts)
      if (ls > body && ls - body < rest.size() &&
          (all_led || !prose::PlainLead(rest.substr(ls - body)).empty() ||
           std::find(p.bold_line_starts.begin(), p.bold_line_starts.end(), ls) != p.bold_line_starts.end()))
        cuts.push_back(ls - body);
  *first_cut = cuts.empty() ? std::string::npos : cuts.front();
  std::vector<std::pair<size_t, size_t>> out;
  for (auto [b, e] : prose::Sentences(rest)) {
    for (const size_t c : cuts)
      if (c > b && c < e) out.emplace_back(b, c), b = c;
    out.emplace_back(b, e);
  }
  return out;
}

// An entry's paragraphs, read when no Result field holds its figures: each
// sentence like a bullet, under the paragraph's lead ("**Arm A (tip).**",
// "Backend surprise:") as their label. A lead that reads, plans or explains
// ("Interpretation:", "**Profile (xplane):**", "Setup:", "Infra.") records no
// run, nor does a sentence led so ("Note: the premise was stale ...").
void ParagraphFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                      std::vector<UnreadFigures>* unread) {
  for (const auto& p : entry.paragraphs) {
    if (FieldLinesParagraph(entry, p, x, out, unread) || PipeTableParagraph(entry, p, x, out, unread) ||
        DumpParagraph(entry, p, x, out, unread) || MarkedLinesParagraph(entry, p, x, out, unread))
      continue;
    const std::string lead = !p.lead.empty() ? p.lead : prose::PlainLead(p.text);
    // "**Hardware:** ..." over "**Load time:** 0.25s": a no-run lead keeps
    // only its own lines from being read, not the lines under leads of their own.
    const bool no_run = prose::NoRunLead(lead);
    WalkScope scope;
    // Lines each led by a run's label are read as bullets are, not as sentences.
    const bool lines_led = p.lead.empty() && LinesLed(p);  // read once: FieldSentences cuts by it too
    scope.prose = !lines_led;
    scope.loose = true;
    std::string carry;
    scope.carry = &carry;
    // "**Before:** 4.21 ms" over "**After:** 3.02 ms": a line under a lead
    // of its own is that lead's, not the paragraph's first lead's.
    const WalkScope own_lead = scope;
    std::string name = lead.substr(0, lead.find(" ("));  // "Arm A (tip `26711f8`, no code change)."
    while (!name.empty() && (name.back() == ':' || name.back() == '.' || name.back() == ' ')) name.pop_back();
    for (const auto& w : Words(name))
      if (ReferenceWord(w)) scope.refers = true;
      else scope.restated = scope.restated || RestatingWord(w);
    // A bold lead names its paragraph's runs ("**Arm A (tip).**"); a plain
    // one is its first sentence's label ("bf16: 31.4 ms; fp8: 27.8 ms").
    if (!p.lead.empty()) scope.context = LabelConfig(name, x.vars, x.fixed, x.generic, &x.feeds);
    if (FieldLabel(name)) scope.context.erase("case");  // "**Change**: ...": a field's name, no run's
    if (const auto pairs = prose::NounPairs(name); !pairs.empty()) {  // "Ragged impl, same point:"
      scope.context.erase("case");
      for (const auto& [k, v] : pairs) scope.context.emplace(k, v);
    }
    const size_t body = p.lead.empty() ? 0 : std::min(p.text.size(), p.text.find(p.lead) + p.lead.size());
    const std::string rest = p.text.substr(body);
    // A plain lead refers only its own sentence to earlier work ("Reference
    // path: 2.538 ms. New path: 1.106 ms."); a bold lead, its paragraph.
    WalkScope after_first = scope;
    if (p.lead.empty()) after_first.refers = own_lead.refers, after_first.restated = own_lead.restated;
    size_t first_cut = std::string::npos;
    bool first = true;
    for (const auto& [b, e] : FieldSentences(p, body, rest, lines_led, &first_cut)) {
      if (no_run && b < first_cut) continue;
      Bullet sb;
      sb.text = SentenceText(rest, b, e);
      if (sb.text.empty() || prose::NoRunLead(prose::PlainLead(sb.text))) continue;
      sb.line = p.LineAt(body + b);
      Walk(sb, b >= first_cut ? own_lead : first ? scope : after_first, x, out, unread);
      first = false;
    }
  }
}

// A short line right above a list ("On the laptop:", "Fp16:" over its runs'
// bullets) names the setup of every item of that list. Read only when the
// entry has two or more such lists with different lead lines: one lead
// line alone tells no figures apart. Returns each top-level item's lead by
// the item's first line (notes and fields alike: both are items of a list).
std::map<int, std::string> ListLeads(const Entry& entry) {
  std::vector<std::pair<int, int>> items;  // first line, last line
  for (const auto& b : entry.notes) items.emplace_back(b.line, std::max(b.line, b.end_line));
  for (const auto& f : entry.fields) items.emplace_back(f.bullet.line, std::max(f.bullet.line, f.bullet.end_line));
  std::sort(items.begin(), items.end());
  std::map<int, std::string> leads;
  std::string lead;
  int last_end = -1;
  for (const auto& [line, end] : items) {
    const bool same_list = last_end >= 0 && line - last_end <= 2;
    const Paragraph* above = nullptr;
    for (const auto& p : entry.paragraphs)
      if (p.end_line < line && line - p.end_line <= 2 && p.line == p.end_line) above = &p;
    if (above != nullptr && (last_end < above->end_line || !same_list)) {
      std::string name = above->text;
      while (!name.empty() && (name.back() == ':' || name.back() == ' ')) name.pop_back();
      const size_t words = Words(name).size();
      // One word names a setup when it is a value ("Fp16:", "EP8:"): letters and a digit.
      const bool value_word = words == 1 && name.find_first_of("0123456789") != std::string::npos &&
                              std::isalpha(static_cast<unsigned char>(name[0]));
      const bool label = (value_word || (words >= 2 && words <= 6)) && !above->states_figure && !above->output_label &&
                         name.find_first_of(".;`") == std::string::npos;
      lead = label ? name : "";
    } else if (!same_list) {
      lead.clear();
    }
    if (!lead.empty()) leads[line] = lead;
    last_end = end;
  }
  std::set<std::string> distinct;
  for (const auto& [line, l] : leads) distinct.insert(l);
  if (distinct.size() < 2) leads.clear();
  return leads;
}

namespace {

// A field moelog knows no meaning of ("- Software pipelining: 5,454
// cycles"): its value and items read like a note's, under its qualifier.
void OtherFieldFigures(const Field& f, const std::map<int, std::string>& leads, const EntryCtx& x,
                       std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  if (SettingsList(f.bullet)) return;  // "- **params**:": the entry's settings (SettingsListConfig)
  WalkScope scope;
  scope.context = LabelConfig(f.qualifier, x.vars, x.fixed, x.generic, &x.feeds);
  // "- Summation (200K terms): ...": a case its qualifier names is the field's, named by both.
  if (auto c = scope.context.find("case"); c != scope.context.end()) c->second = f.name + " (" + c->second + ")";
  if (auto it = leads.find(f.bullet.line); it != leads.end()) scope.context["setup"] = it->second;
  for (const auto& w : Words(f.name + " " + f.qualifier))
    if (ReferenceWord(w)) scope.refers = true;  // "- reference solution: 0.307s": measured here
    else scope.restated = scope.restated || RestatingWord(w);
  scope.share = NamesShares(f.name + " " + f.qualifier);
  scope.label = f.name + " " + f.qualifier;
  scope.label_unit = LabelUnitOf(f.name);  // "- **Cycles:** 147,734"
  // "- Measured gain: 0.63 s": what a change gained or saved (ChangeLabelBefore).
  const std::string named = f.name + " " + f.qualifier + ": ";
  if (!f.value.empty() && f.bullet.children.empty() && ChangeLabelBefore(named, named.size()) && !Figures(f.value, false).empty()) {
    if (unread) unread->push_back({f.bullet.line, f.bullet.text, "what a change gains or saves (its label names a gain or a saving), not one run's figure"});
    return;
  }
  // "- **Duration**: 10 minutes": a setting of the test (SettingFieldValue).
  if (!f.value.empty() && SettingFieldValue(f.name, f.value) && !Figures(f.value, false).empty()) {
    if (unread) unread->push_back({f.bullet.line, f.bullet.text, "a setting (of the test: its field names one, a duration, a load, a ramp-up ...), not a run's figure"});
    return;
  }
  if (!f.value.empty()) Walk(f.bullet, scope, x, out, unread, f.value);
  scope.sibling_unit = SiblingUnit(f.bullet.children);
  const size_t from = out->size();
  for (std::vector<Bullet> with_units; const auto& c : WithUnitFields(f.bullet.children, &with_units))
    Walk(c, scope, x, out, unread);
  // "- Reference (batch=4, time=1024):" over items whose figures nothing
  // else names: its name names them; items with names of their own ("v3:
  // 6.96s") keep theirs. A name before a figure of its own ("- Peak memory:
  // 41 GB") is the figure's metric (NameByField); a remark names nothing.
  // A field named for the record itself ("- Results so far:") names nothing.
  Field first;
  first.name = f.name.substr(0, f.name.find(' '));
  if (!f.value.empty() || RemarkColumn(f.name) || FigureField(first)) return;
  const Config own = LabelConfig(f.name + " " + f.qualifier, x.vars, x.fixed, x.generic, &x.feeds);
  for (size_t i = from; i < out->size(); ++i)
    if (!(*out)[i].run.config.count("case") && !(*out)[i].run.config.count("variant"))
      for (const auto& [k, v] : own) (*out)[i].run.config.emplace(k, v);
}

// Figures of such fields that one configuration would hold twice in one
// metric ("- Software pipelining: 5,454 cycles", "- Bitwise AND: 5,262
// cycles") are told apart by their fields' names, read as labels (a case);
// a field whose figure is the only one of its metric ("- Peak memory:
// 41 GB") names that metric, no case. `named`: where each field's figures
// start in `out`, its name; the last holds where they end.
void NameByField(const std::vector<std::pair<size_t, std::string>>& named, const EntryCtx& x,
                 std::vector<RecordedFigure>* out) {
  std::map<std::pair<Config, std::string>, std::vector<size_t>> same;  // (config, metric) -> figures
  std::map<size_t, std::string> name_of;
  for (size_t n = 0; n + 1 < named.size(); ++n)
    for (size_t i = named[n].first; i < named[n + 1].first && i < out->size(); ++i) {
      name_of[i] = named[n].second;
      for (const auto& [m, v] : (*out)[i].run.metrics)
        if (!(*out)[i].run.derived.count(m)) same[{(*out)[i].run.config, m}].push_back(i);
    }
  std::set<size_t> clash;
  for (const auto& [key, ids] : same) {
    std::set<std::string> names;
    for (size_t i : ids) names.insert(name_of[i]);
    if (ids.size() > 1 && names.size() == ids.size()) clash.insert(ids.begin(), ids.end());
  }
  for (size_t i : clash) {
    Config own = LabelConfig(name_of[i], x.vars, x.fixed, x.generic, &x.feeds);
    auto& cfg = (*out)[i].run.config;
    if (own.count("case") && cfg.count("case")) own["variant"] = own["case"], own.erase("case");
    for (const auto& [k, v] : own) cfg.emplace(k, v);
  }
}

}  // namespace

// An entry without a Result field records its figures in tables of its
// own, under bullets that name a sweep ("- Token scaling (EP ring):" over
// "`32768`: `859.0 TF/s`"), in fields named for them, or in paragraphs.
void LooseFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread) {
  for (const auto& t : entry.tables) EntryTableFigures(entry, t, TableContext(entry, t, {}, x), x, out, unread);
  // A printed line is a measurement even when it repeats another's value
  // (a step timer's 9.3 s/step at steps 530 and 540): kept like a table's.
  Config carried;  // the settings a block ends with, for the report below it
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    const bool next = i + 1 < entry.outputs.size() && entry.outputs[i + 1].line - entry.outputs[i].end_line <= 3;
    Config settings = carried, trailing;
    const FencedBlock b = WithoutReportSettings(entry.outputs[i], next, &settings, &trailing);
    carried = trailing;
    OutputFigures(entry, b, settings, x, out, unread);
  }
  const size_t from_tables = out->size();
  const std::map<int, std::string> leads = ListLeads(entry);
  const bool shares = ListOfShares(entry.notes);
  const std::set<int> record_keys = RecordKeyList(entry.notes);
  for (const auto& b : entry.notes) {
    if (LabelsAnOutputBlock(entry, b)) continue;  // it keys the block below (key_output.cc)
    WalkScope notes;
    notes.loose = true;
    notes.list_shares = shares;
    notes.record_keys = record_keys.count(b.line) > 0;
    if (auto it = leads.find(b.line); it != leads.end()) notes.context["setup"] = it->second;
    Walk(b, notes, x, out, unread);
  }
  ParagraphFigures(entry, WithTableValues(x, *out, from_tables), out, unread);
  std::vector<std::pair<size_t, std::string>> named;  // where each field's figures start, its name
  for (size_t fi = 0; fi < entry.fields.size(); ++fi)
    if (!FigureField(entry.fields[fi]) && !PlanField(entry.fields[fi])) {
      named.emplace_back(out->size(), entry.fields[fi].name);
      OtherFieldFigures(entry.fields[fi], leads, x, out, unread);
    }
  named.emplace_back(out->size(), "");
  NameByField(named, x, out);
  DropRestatedTableFigures(from_tables, out, unread);
}

// "147 734 cyc": digits grouped by single spaces in threes, right before a
// unit, written as one number ("147734 cyc"); any other text as it is.
std::string SpaceGroupedNumbers(const std::string& t) {
  std::string out;
  for (size_t i = 0; i < t.size();) {
    const auto digit = [&t](size_t k) { return k < t.size() && std::isdigit(static_cast<unsigned char>(t[k])); };
    if (!digit(i) || (i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '.'))) {
      out += t[i++];
      continue;
    }
    size_t e = i;
    while (digit(e)) ++e;
    std::string number = t.substr(i, e - i);
    size_t g = e;
    while (t.compare(g, 1, " ") == 0 && digit(g + 1) && digit(g + 2) && digit(g + 3) && !digit(g + 4))
      number += t.substr(g + 1, 3), g += 4;
    size_t u = g < t.size() && t[g] == ' ' ? g + 1 : g, ue = u;
    while (ue < t.size() && std::isalpha(static_cast<unsigned char>(t[ue]))) ++ue;
    UnitInfo info{};
    const bool grouped = g > e && e - i <= 3 && ue > u && AnyUnit(t.substr(u, ue - u), &info) && !info.derived;
    out += grouped ? number : t.substr(i, e - i);
    i = grouped ? g : e;
  }
  return out;
}

// A heading's text as a bullet of its line: "Custom parsing (62.12s)" (the
// parenthetical is the label's figure) as "Custom parsing - 62.12s", "1.82
// ms (fused)" (the parenthetical labels the figure) as "fused: 1.82 ms".
Bullet HeadingBullet(const std::string& written, int line) {
  Bullet b;
  const std::string text = SpaceGroupedNumbers(written);
  b.text = text;
  b.line = b.end_line = line;
  const size_t open = b.text.rfind('(');
  if (open == std::string::npos || open == 0 || b.text.back() != ')') return b;
  const std::string inside = b.text.substr(open + 1, b.text.size() - open - 2), before = Trim(b.text.substr(0, open));
  if (StatesFigure(b.text.substr(open))) b.text = before + " - " + inside;
  else if (!before.empty() && std::isdigit(static_cast<unsigned char>(before[0])) && StatesFigure(before) && !inside.empty())
    b.text = inside + ": " + before;
  return b;
}

// A figure in the entry's own heading ("### 3. Custom parsing (62.12s)",
// "## Step 4 - 1338 -> 1307 cycles"): the entry's record when it has no
// Result field, read like a bullet's (its words before a colon label it). A
// heading that states no figure (blocks' StatesFigure) is not read.
void HeadingFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                    std::vector<UnreadFigures>* unread) {
  // "Step 4: coalescing: 9.360": a number in the unit the other headings write.
  const std::string heading = WithHeadingUnit(entry.heading, x.heading_unit);
  if (entry.heading_line <= 0 || !HeadingStatesFigure(heading)) return;
  if (const std::string why = HeadingNoRun(entry.heading); !why.empty()) {
    if (unread) unread->push_back({entry.heading_line, entry.heading, why});
    return;
  }
  WalkScope scope;
  scope.loose = true;
  Walk(HeadingBullet(heading, entry.heading_line), scope, x, out, unread);
}

// A sub-heading that states the entry's result ("### Result: 2.1x faster,
// 340 us", "#### 1.82 ms (fused)"): read like the entry's heading. One that
// explains (IsExplanationHeading) records nothing.
void SubheadingFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                       std::vector<UnreadFigures>* unread) {
  for (const auto& h : entry.subheadings) {
    if (h.line <= 0 || !HeadingStatesFigure(h.text) || IsExplanationHeading(h.text)) continue;
    if (const std::string why = HeadingNoRun(h.text); !why.empty()) {
      if (unread) unread->push_back({h.line, h.text, why});
      continue;
    }
    WalkScope scope;
    scope.loose = true;
    Walk(HeadingBullet(h.text, h.line), scope, x, out, unread);
  }
}

// Bullets beside the entry's Result that state figures of their own
// ("- Overhead: ~1.5ms per step"): the entry's record too, read like the
// notes of an entry without a Result.
void NotesBesideResult(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                       std::vector<UnreadFigures>* unread) {
  const bool shares = ListOfShares(entry.notes);
  const std::set<int> record_keys = RecordKeyList(entry.notes);
  for (const auto& b : entry.notes) {
    if (LabelsAnOutputBlock(entry, b)) continue;
    WalkScope notes;
    notes.loose = true;
    notes.list_shares = shares;
    notes.record_keys = record_keys.count(b.line) > 0;
    Walk(b, notes, x, out, unread);
  }
}

// A Result bullet under one of two or more sub-headings that name parts
// of the entry, not its results ("### Attempt 4: start gating" among a
// dated sweep's attempts): that part's record, so the other parts'
// figures are the entry's too.
bool PartsResult(const Entry& entry, const Field& result) {
  if (entry.subheadings.size() < 2 || result.bullet.line < entry.subheadings.front().line) return false;
  const Entry::SubHeading* part = nullptr;
  for (const auto& h : entry.subheadings)
    if (h.line < result.bullet.line) part = &h;
  const std::string words = Lower(part->text);
  return words.find("result") == std::string::npos && !IsRecapHeading(part->text) && !IsExplanationHeading(part->text);
}

// Whether `text` writes a decimal number ("12.63").
bool HasDecimal(const std::string& text) {
  for (size_t i = 1; i + 1 < text.size(); ++i)
    if (text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i - 1])) && std::isdigit(static_cast<unsigned char>(text[i + 1])))
      return true;
  return false;
}

// Every figure of the entry the stages saw no number in gets a fate too:
// a line that states a number with a unit (blocks' StatesFigure) where no
// figure was read or listed is listed "not read", with where it sits.
class Unseen {
 public:
  Unseen(const std::vector<RecordedFigure>& out, std::vector<UnreadFigures>* unread) : unread_(unread) {
    for (const auto& f : out) {
      fated_.insert(f.line);
      fated_.insert(f.joined_lines.begin(), f.joined_lines.end());
    }
    for (const auto& u : *unread) fated_.insert(u.line);
  }
  // `scanned`: the figures stage read the line for figures; a number it
  // passed over as no run's figure at all ("polled for 4 min") is told with
  // the rule's own reason (NoFigureReasons), not as "not read".
  // `decimals`: a decimal number is a figure too (a table row's bare "12.63").
  void Line(int line, const std::string& text, const char* why, bool scanned = false, bool decimals = false) {
    if (line <= 0 || fated_.count(line) || unread_->size() >= kMaxFiguresPerEntry) return;
    const auto reasons = scanned ? NoFigureReasons(text) : std::vector<std::string>{};
    if (reasons.empty() && !StatesFigure(text) && !(decimals && HasDecimal(text))) return;
    fated_.insert(line);
    for (const auto& why_not : reasons) unread_->push_back({line, text, why_not, true});
    if (reasons.empty()) unread_->push_back({line, text, std::string("not read: ") + why, true});
  }
  // Whether a figure was read from lines `from`..`to` (a table whose figures
  // carry its first line: its rows are not "not read").
  bool Any(int from, int to) const {
    auto it = fated_.lower_bound(from);
    return it != fated_.end() && *it <= to;
  }
  // `decimals`: a Result's line, whose bare "14.28" is a figure too.
  void Bullets(const Bullet& b, const char* why, bool scanned, bool decimals = false) {
    Line(b.line, b.text, why, scanned, decimals);
    for (const auto& c : b.children) Bullets(c, why, scanned, decimals);
  }

 private:
  std::set<int> fated_;
  std::vector<UnreadFigures>* unread_;
};

void UnseenFigures(const Entry& entry, bool any_result, const std::vector<RecordedFigure>& out,
                   std::vector<UnreadFigures>* unread) {
  Unseen u(out, unread);
  u.Line(entry.heading_line, entry.heading, "a figure in the entry's heading");
  for (const auto& h : entry.subheadings) u.Line(h.line, h.text, "a figure in a sub-heading");
  for (const auto& f : entry.fields)
    u.Bullets(f.bullet, FigureField(f) ? "no figure read from this Result line"
                        : PlanField(f) ? "a field of plans, setup or reading (no measurement is read there)"
                                       : "no figure read from this field", !PlanField(f), FigureField(f));
  for (const auto& b : entry.notes)
    u.Bullets(b, any_result ? "a bullet beside the entry's Result (only the Result's figures are read)"
                            : "no figure read from this bullet", !any_result);
  for (const auto& p : entry.paragraphs)
    for (size_t s = 0, nl = 0; s < p.text.size(); s = nl + 1) {
      nl = std::min(p.text.find('\n', s), p.text.size());
      u.Line(p.LineAt(s), p.text.substr(s, nl - s), any_result ? "prose beside the entry's Result" : "no figure read from this prose",
             !any_result);
    }
  for (const auto& t : entry.tables) {
    if (u.Any(t.line, t.end_line)) continue;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      std::string row;
      for (const auto& c : t.rows[r]) row += c + " | ";
      u.Line(t.line + 2 + static_cast<int>(r), row, "a table row no column of which was read", false, true);
    }
  }
  for (const auto& b : entry.outputs) {
    if (u.Any(b.line, b.line)) continue;
    int line = b.output_cue == "prompt" ? b.line : b.line + 1;  // a session's printed lines start at `line`
    for (size_t s = 0, nl = 0; s < b.text.size(); s = nl + 1, ++line) {
      nl = std::min(b.text.find('\n', s), b.text.size());
      const std::string text = b.text.substr(s, nl - s);
      if (ReadBenchLine(text).kind == BenchLine::Kind::kChatter) continue;  // a tool's chatter: Go's `ok  pkg  4.5s`
      u.Line(line, text, "a printed line no figure reader took");
    }
  }
}

static bool InRecord(const Entry& entry, int line) {  // a line of a table or a printed block
  for (const auto& t : entry.tables)
    if (t.line <= line && line <= t.end_line) return true;
  for (const auto& o : entry.outputs)
    if (o.line <= line && line <= o.end_line) return true;
  return false;
}

// Figures under a sub-heading of the entry that explains ("### Key Design
// Decisions", "### Why 4a failed", "### Conclusion"; IsExplanationHeading),
// or in an undated entry whose own heading does ("### Recommendation"),
// or under a list item's lead that does: the text there explains runs, it
// records none. Listed, not tabled. A table or a program's output there is
// a record all the same ("### Root cause: three passes" over the timings
// that show it).
void DropExplained(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  const Entry::SubHeading own{entry.heading_line, entry.heading, 0};
  // An undated part of a plan's section with no record of its own, no table
  // either (`### Phase 1` under `## Expected Results`), is the plan's.
  const Entry::SubHeading plan{entry.heading_line, entry.plan_parent, 0};
  const bool planned = entry.date.empty() && !entry.plan_parent.empty() && entry.commands.empty() &&
                       entry.outputs.empty() && entry.tables.empty();
  const bool worked_out = IsWorkedOutHeading(entry.heading) && entry.commands.empty() && entry.outputs.empty();
  auto explaining = [&](int line) -> const Entry::SubHeading* {
    if (planned) return &plan;
    // Above its first sub-heading: an undated entry's own heading (a dated
    // one is a day's record whatever its heading says, unless it works out
    // what could be and runs nothing: "## 2026-03-03 Back-of-envelope").
    const Entry::SubHeading* near = entry.date.empty() || worked_out ? &own : nullptr;
    for (const auto& h : entry.subheadings)
      if (h.line < line) near = &h;
    // A plan's or a theory's table is no record either ("### Theoretical peak").
    if (near == nullptr) return nullptr;
    return (IsExplanationHeading(near->text) && !InRecord(entry, line)) || IsPlanHeading(near->text) ? near : nullptr;
  };
  // A list item that labels its sub-items with a lead that reads, plans or
  // explains ("- Notes (from the SOP):", "- Hypothesis:"; prose::NoRunLead,
  // as a paragraph's lead): the sub-items' figures are no runs.
  std::vector<std::pair<int, int>> led;  // the sub-items' lines
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    const std::string t = parse_detail::Trim(b.text);
    const bool label = !b.children.empty() && !t.empty() && (t.back() == ':' || (t.size() >= 3 && t.compare(t.size() - 3, 3, "\xEF\xBC\x9A") == 0));
    const std::string lead = label ? t.substr(0, t.find(':')) : "";
    // "- Reference (batch=1):" over its figures names a run measured here.
    const auto words = Words(lead);
    if (label && prose::NoRunLead(lead) && std::none_of(words.begin(), words.end(), ReferenceWord))
      led.emplace_back(b.children.front().line, b.end_line);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& b : entry.notes) walk(b);
  for (const auto& f : entry.fields) walk(f.bullet);
  auto under_lead = [&](int line) {
    return std::any_of(led.begin(), led.end(), [line](const auto& r) { return r.first <= line && line <= r.second; });
  };
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const Entry::SubHeading* h = explaining(f.line);
    if (h == nullptr && under_lead(f.line)) {
      if (unread && !(!unread->empty() && unread->back().line == f.line))
        unread->push_back({f.line, f.text, "an explanation (under a lead that reads, plans or explains), not a run"});
      continue;
    }
    if (h == nullptr) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text, "an explanation (under \"" + h->text + "\"), not a run"});
    }
  }
  *out = std::move(kept);
}

}  // namespace reader

std::vector<RecordedFigure> RecordedFigures(const Entry& entry, const std::string& file,
                                            std::vector<UnreadFigures>* unread, bool mfu_logbook,
                                            bool tflops_logbook, double tflops_example) {
  return reader::RecordedFiguresUnder(entry, file, unread, mfu_logbook, tflops_logbook, tflops_example, "");
}

namespace reader {

// The figures of the entry's figure fields (FigureField); whether one of
// them is its Result and measured something. A named finding ("Negative
// result:") is not the Result; nor is one part's ("### Attempt 4" of a
// dated sweep's attempts); nor one that measured nothing ("Result: f32 is
// ~10% slower", a derived figure only): the entry's record is then in its
// other lines.
static bool FigureFields(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                         std::vector<UnreadFigures>* unread) {
  bool any_result = false;
  for (size_t fi = 0; fi < entry.fields.size(); ++fi) {
    if (!FigureField(entry.fields[fi])) continue;
    const size_t before = out->size();
    FieldFigures(entry, fi, x, out, unread);
    any_result = any_result || (entry.fields[fi].name == "Result" && !PartsResult(entry, entry.fields[fi]) &&
                                std::any_of(out->begin() + static_cast<std::ptrdiff_t>(before), out->end(),
                                            [](const RecordedFigure& f) { return HasBaseMetric(f.run); }));
  }
  return any_result;
}

}  // namespace reader

std::vector<RecordedFigure> reader::RecordedFiguresUnder(const Entry& entry, const std::string& file,
                                                         std::vector<UnreadFigures>* unread, bool mfu_logbook,
                                                         bool tflops_logbook, double tflops_example,
                                                         const std::string& document_hardware,
                                                         const HeadingUnit& heading_unit,
                                                         const std::string& table_unit) {
  EntryCtx x;
  x.heading_unit = heading_unit;
  x.table_unit = table_unit;
  x.mfu = mfu_logbook;
  EntryConfig(entry, &x.fixed, &x.vars, &x.generic, &x.known, &x.feeds, &x.commands_vary);
  EntryUnits(entry, tflops_logbook, tflops_example, &x);
  x.own_text = OwnWords(entry);
  x.command_labels = CommandLabels(entry);
  x.entry_id = entry.id;
  x.entry = &entry;
  x.file = file;
  x.prose = EntryProse(entry);
  for (const auto& c : entry.commands) x.repeats = x.repeats || SaysRepeats(c.joined);
  std::vector<RecordedFigure> out;
  const bool any_result = FigureFields(entry, x, &out, unread);
  if (!any_result) HeadingFigures(entry, x, &out, unread);  // beside a Result, the Result is the record
  if (!any_result) SubheadingFigures(entry, x, &out, unread);
  if (!any_result) LooseFigures(entry, x, &out, unread);
  else NotesBesideResult(entry, x, &out, unread);
  DropExplained(entry, &out, unread);
  DropPlanned(entry, &out, unread);
  DropDatasheet(entry, &out, unread);
  DropCited(entry, &out, unread);
  DropPlannedItems(entry, &out, unread);
  DropWorkedBlocks(entry, &out, unread);
  DropBookkeeping(entry, &out, unread);
  DropNotRun(entry, &out, unread);
  SplitRunMetrics(&out);
  std::stable_sort(out.begin(), out.end(),
                   [](const RecordedFigure& a, const RecordedFigure& b) { return a.line < b.line; });
  if (out.size() > kMaxFiguresPerEntry) {  // placing figures compares them in pairs: bounded
    if (unread)
      unread->push_back({out[kMaxFiguresPerEntry].line, "",
                         "more than " + std::to_string(kMaxFiguresPerEntry) + " figures in one entry: the rest are not read"});
    out.resize(kMaxFiguresPerEntry);
  }
  if (unread) UnseenFigures(entry, any_result, out, unread);
  UnstampOthers(x, &out);
  FirstCommandDefaults(x, &out);
  SetupBySubheading(entry, &out);
  LeadInSettings(entry, &out);
  FieldLineKeys(entry, &out);
  SetupByLeadIn(entry, &out);
  KeyHardware(entry, document_hardware, &out);
  DropFigureKeys(&out);
  CounterKeys(&out);
  SplitPoints(entry, &out);  // "Initial loss" / "Final loss": the run at two points, a row each
  OneRunLines(entry, &out);
  // Number runs per entry in document order (their keys are the names
  // RecordedKeys gives predicates, --where and plot).
  for (size_t i = 0; i < out.size(); ++i) out[i].run.id = entry.id + "#" + std::to_string(i + 1);
  return out;
}

std::vector<RecordedFigure> RecordedFigures(const Entry& entry) { return RecordedFigures(entry, "", nullptr); }

std::vector<StoredRun> RecordedRuns(const Entry& entry) {
  std::vector<StoredRun> out;
  for (auto& f : RecordedFigures(entry)) out.push_back(std::move(f.run));
  return out;
}

}  // namespace moelog::logbook
