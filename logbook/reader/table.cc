#include "logbook/reader/internal.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook {
using namespace reader;

namespace reader {

// Keys a figure's config may hold that say nothing a row could confirm or
// deny: derived ones (devices and mesh follow the parallel mode), repetition
// and output settings.
bool NeutralKey(const std::string& k) {
  return !FollowedKey(k).empty() || IsIgnoredForPairing(k) || k == "target" || k == "source";
}

bool Fits(const StoredRun& figure, const std::map<std::string, std::string>& row) {
  for (const auto& [k, v] : figure.config) {
    if (k == "case" || k == "variant") return false;
    if (NeutralKey(k)) continue;
    auto it = row.find(k);
    if (it != row.end() && !ValuesEqual(it->second, v)) return false;
  }
  return true;
}

namespace {

// A label's words as a key's value: markup, a "Table 2:" or "03:" number
// and the closing colon dropped.
// Whether a heading's words start with a count of what follows ("8
// epochs", "64 experts"): a whole number, then a lower-case word. A
// section's number is written with a mark ("03:", "2.1", "4)") or before a
// capitalized title ("2 Results").
static bool CountBeforeNoun(const std::vector<std::string>& w) {
  return w.size() >= 2 && std::all_of(w[0].begin(), w[0].end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         std::islower(static_cast<unsigned char>(w[1][0]));
}

std::string LabelValue(std::string t) {
  t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return c == '*' || c == '`' || c == '#'; }), t.end());
  t = parse_detail::Trim(t);
  while (!t.empty() && (t.back() == ':' || t.back() == '.')) t.pop_back();
  const auto w = Words(t);
  size_t drop = 0;
  if (!w.empty() && (Lower(w[0]) == "table" || Lower(w[0]) == "figure") && w.size() > 1) drop = 2;  // "Table 2:"
  else if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0][0])) &&
           std::all_of(w[0].begin(), w[0].end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ':' || c == ')'; }) &&
           !CountBeforeNoun(w))
    drop = 1;  // "03:", "2.1"; not the value of "8 epochs"
  std::string out;
  for (size_t i = drop; i < w.size(); ++i) out += (out.empty() ? "" : " ") + w[i];
  return out.size() > 60 ? "" : out;
}

// The most words a line above a table names it with; a longer line is a
// sentence leading into it.
constexpr size_t kMaxLabelWords = 6;

// The line right above a table that names it: a one-line bold lead or
// caption ("**Without NVFP4:**", "Table 2: bf16, seq 4096", "Full
// training:"), else the sub-heading it sits under with no other table
// between them ("#### With NVFP4"). "" when none.
// Whether `text` starts with an ISO date ("2026-01-01 ...").
static bool IsoDateFirst(const std::string& text) {
  if (text.size() < 10) return false;
  for (size_t i = 0; i < 10; ++i)
    if (i == 4 || i == 7 ? text[i] != '-' : !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  return text.size() == 10 || !std::isdigit(static_cast<unsigned char>(text[10]));
}

std::string TableLabel(const Entry& e, const TableBlock& t) {
  for (const auto& p : e.paragraphs) {
    if (p.end_line >= t.line || p.end_line < t.line - 2 || p.line != p.end_line || p.text.size() > 80) continue;
    const std::string text = parse_detail::Trim(p.text);
    const auto w = Words(text);
    // "Table 2: bf16, seq 4096"; a dated line right above the table ("2026-01-01
    // Introducing small rationals" over one day's results) names it too.
    const bool caption = (!w.empty() && (Lower(w[0]) == "table" || Lower(w[0]) == "figure") &&
                          text.find(':') != std::string::npos) ||
                         IsoDateFirst(text);
    // "After fixing the warmup, we discovered:": a sentence leads into the
    // table, it names none (a caption is a name: "Table 2: bf16, seq 4096").
    if (!caption && Words(LabelValue(text)).size() > kMaxLabelWords) continue;
    if (!p.lead.empty() || (!text.empty() && text.back() == ':') || caption) return LabelValue(text);
  }
  int previous = e.heading_line;  // the table above this one
  for (const auto& o : e.tables)
    if (o.line < t.line) previous = std::max(previous, o.line);
  std::string near;
  for (const auto& h : e.subheadings)
    if (h.line < t.line && h.line > previous) near = h.text;
  return near.empty() ? "" : LabelValue(near);
}

// Where `key=value` words are read (SettingPairs).
enum class SettingsIn {
  kLine,      // a line of settings only ("**M=1, N=3072, K=1024**", "`seq=4096; heads=16`"):
              // every word (split at blanks and , ; * `) is a pair, else the line holds none
  kSentence,  // a sentence ("For seq_len=1024 on B200:"): the pairs among its words, trimmed of
              // punctuation, values of letters, digits, '.', '_' and 'x' only
};

// The `key=value` words of `text`, keys as written, read as `in` says.
Config SettingPairs(std::string text, SettingsIn in) {
  const bool line = in == SettingsIn::kLine;
  if (line && text.size() > 160) return {};
  if (line)
    for (char& c : text)
      if (c == '*' || c == '`' || c == ',' || c == ';' || c == '\n') c = ' ';
  Config out;
  for (std::string w : Words(text)) {
    if (!line) {
      while (!w.empty() && std::strchr(":,;.)*`", w.back())) w.pop_back();
      while (!w.empty() && std::strchr("(*`", w.front())) w.erase(w.begin());
    }
    const size_t eq = w.find('=');
    const auto value = [&] { return w.begin() + static_cast<std::ptrdiff_t>(eq) + 1; };
    const bool pair = eq != std::string::npos && eq != 0 && eq + 1 < w.size() && IsIdentStart(w[0]) &&
                      std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(eq), IsIdentChar) &&
                      (line ? w.find('=', eq + 1) == std::string::npos
                            : std::all_of(value(), w.end(), [](char c) { return IsIdentChar(c) || c == '.'; }));
    if (!pair && line) return {};
    if (pair) out[w.substr(0, eq)] = w.substr(eq + 1);
  }
  return out;
}

// The settings a line above a table states for all its rows: the nearest
// SettingPairs line between the table and what comes before it (the entry's
// heading, a sub-heading or another table), a remark between them aside
// ("PyTorch 2.11").
Config SettingsAbove(const Entry& e, const TableBlock& t) {
  int previous = e.heading_line;
  for (const auto& o : e.tables)
    if (o.line < t.line) previous = std::max(previous, o.end_line);
  for (const auto& h : e.subheadings)
    if (h.line < t.line) previous = std::max(previous, h.line);
  for (auto p = e.paragraphs.rbegin(); p != e.paragraphs.rend(); ++p) {
    if (p->end_line >= t.line || p->line <= previous) continue;
    if (Config c = SettingPairs(p->lead.empty() ? p->text : p->lead + " " + p->text, SettingsIn::kLine); !c.empty())
      return c;
  }
  return {};
}

}  // namespace

// A list's lead-in sentence that sets keys ("For seq_len=1024 on B200:"
// over the list's items): every figure of that list, its sub-items too,
// takes them (a key the figure names itself stays its own).
void LeadInSettings(const Entry& e, std::vector<RecordedFigure>* out) {
  for (const auto& p : e.paragraphs) {
    const std::string text = parse_detail::Trim(p.text);
    if (p.line != p.end_line || text.empty() || text.back() != ':' || text.size() > 120) continue;
    const Config keys = SettingPairs(text, SettingsIn::kSentence);
    if (keys.empty()) continue;
    std::vector<std::pair<int, int>> items;  // a list item's first and last line
    for (const auto& b : e.notes) items.emplace_back(b.line, std::max(b.line, b.end_line));
    for (const auto& f : e.fields) items.emplace_back(f.bullet.line, std::max(f.bullet.line, f.bullet.end_line));
    std::sort(items.begin(), items.end());
    int from = 0, to = 0, last = p.end_line;
    for (const auto& [line, end] : items) {
      if (line <= last || line - last > 2) continue;
      if (from == 0) from = line;
      to = last = end;
    }
    for (auto& f : *out)
      if (from > 0 && f.line >= from && f.line <= to)
        for (const auto& [k, v] : keys) f.run.config.emplace(k, v);
  }
}

// The label that tells an entry's tables apart when two or more are
// labelled differently and their sub-headings name no keys: its value for
// `setup`, "" otherwise.
std::string TableSetup(const Entry& e, const TableBlock& t, const EntryCtx& x) {
  if (e.tables.size() < 2 || !Under(e, t.line, {}, x).empty()) return "";
  std::set<std::string> labels;
  for (const auto& o : e.tables) labels.insert(TableLabel(e, o));
  if (labels.size() < 2) return "";
  return TableLabel(e, t);
}

// A table's context: the keys its sub-heading names, and the label that
// tells it from the entry's other tables (TableSetup).
Config TableContext(const Entry& e, const TableBlock& t, const Config& context, const EntryCtx& x) {
  Config c = Under(e, t.line, context, x);
  for (const auto& [k, v] : SettingsAbove(e, t)) c.emplace(k, v);
  if (const std::string setup = c.count("setup") ? "" : TableSetup(e, t, x); !setup.empty()) {
    c["setup"] = setup;
    // "Full training (d26):" names a key of the runs too.
    for (const auto& [k, v] : LabelConfig(setup, x.vars, x.fixed, x.generic, &x.feeds))
      if (k != "case") c[k] = v;
  }
  return c;
}

namespace {

// Sub-heading `k` of `e` with the sub-headings it sits under ("### Desk
// machine" over "#### -O3": "Desk machine / -O3"), each as a label value;
// the innermost alone when the whole is too long to be one value.
std::string SubheadingPath(const Entry& e, size_t k) {
  std::string path = LabelValue(e.subheadings[k].text);
  int level = e.subheadings[k].level;
  for (size_t i = k; i-- > 0 && level > 0;) {
    const auto& h = e.subheadings[i];
    if (h.level <= 0 || h.level >= level) continue;
    level = h.level;
    const std::string outer = LabelValue(h.text);
    // "### Workload-A" over "#### Results": the part's name says no run.
    if (!outer.empty()) path = IsResultPartName(e.subheadings[k].text) && path == LabelValue(e.subheadings[k].text)
                                   ? outer : outer + " / " + path;
  }
  return path.size() > 80 ? LabelValue(e.subheadings[k].text) : path;
}

}  // namespace

// Figures of one entry with one configuration and a metric in common are
// told apart by the sub-heading each sits under ("### 02: Benchmarking the
// kernel" vs "### 03: Comparing with LeiMao's"), keyed as their setup,
// when the sub-headings differ; never left as one row.
void SetupBySubheading(const Entry& e, std::vector<RecordedFigure>* out) {
  if (e.subheadings.empty()) return;
  auto under = [&](int line) {
    size_t near = e.subheadings.size();
    for (size_t k = 0; k < e.subheadings.size(); ++k)
      if (e.subheadings[k].line < line) near = k;
    return near == e.subheadings.size() ? std::string() : SubheadingPath(e, near);
  };
  std::map<Config, std::vector<size_t>> same;
  for (size_t i = 0; i < out->size(); ++i) same[(*out)[i].run.config].push_back(i);
  std::set<std::string> keyed;  // the sub-headings that tell figures apart
  for (const auto& [cfg, ids] : same) {
    if (ids.size() < 2 || cfg.count("setup")) continue;
    std::map<std::string, int> metrics;  // metric -> figures holding it
    std::set<std::string> headings;
    for (size_t i : ids) {
      for (const auto& [m, v] : (*out)[i].run.metrics)
        if (!(*out)[i].run.derived.count(m)) ++metrics[m];
      headings.insert(under((*out)[i].line));
    }
    const bool clash = std::any_of(metrics.begin(), metrics.end(), [](const auto& m) { return m.second > 1; });
    if (!clash || headings.size() < 2) continue;
    for (size_t i : ids)
      if (const std::string v = LabelValue(under((*out)[i].line)); !v.empty())
        (*out)[i].run.config["setup"] = v, keyed.insert(under((*out)[i].line));
  }
  // A figure under such a sub-heading that no other shares keys (the third
  // repeat of one part only) has that setup too: "-" would say it has none.
  for (auto& f : *out)
    if (const std::string h = under(f.line); !f.run.config.count("setup") && keyed.count(h))
      if (const std::string v = LabelValue(h); !v.empty()) f.run.config["setup"] = v;
}

}  // namespace reader

bool FigureFits(const StoredRun& figure, const std::map<std::string, std::string>& row) { return Fits(figure, row); }

std::vector<FigurePlacement> PlaceFigures(const std::vector<RecordedFigure>& figures,
                                          const std::vector<std::map<std::string, std::string>>& rows,
                                          const std::vector<int>& group) {
  std::vector<FigurePlacement> out(figures.size());
  std::map<std::pair<int, std::string>, std::vector<size_t>> claims;  // (row or group, metric) -> figures
  for (size_t i = 0; i < figures.size(); ++i) {
    std::set<int> fit;
    for (size_t r = 0; r < rows.size(); ++r)
      if (Fits(figures[i].run, rows[r])) fit.insert(group.empty() ? static_cast<int>(r) : group[r]);
    if (fit.size() != 1) {
      out[i].why = fit.empty() ? "matches no row" : "matches several rows";
      continue;
    }
    out[i].row = *fit.begin();
    for (const auto& [metric, v] : figures[i].run.metrics)
      if (!figures[i].run.derived.count(metric)) claims[{out[i].row, metric}].push_back(i);
  }
  for (const auto& [key, ids] : claims) {
    if (ids.size() < 2) continue;
    for (size_t i : ids) {
      out[i].row = -1;
      out[i].why = "another figure claims its row";
    }
  }
  return out;
}

}  // namespace moelog::logbook
