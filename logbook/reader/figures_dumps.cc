// Reader stage figures, a dump of pairs: lines of two fields alone, a
// setting's value or a run's name and a plain decimal, as a sweep's results
// are pasted (`0.01<TAB>1.3318`, `ckpt/model_5.pt 3.0627`), in an output
// block or a paragraph. Each line is one run's row: keyed by the setting the
// entry's heading or the text above names (data/reader/dumps.json key_names),
// or by the name's file stem (`run`); the decimal is the metric that text
// names (metric_names), else `value`. A line giving an earlier row again (a
// sweep's dump pasted whole after its extension) is that row, not another.
#include "logbook/reader/figures_dumps.h"

#include "logbook/reader/blocks.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <sstream>

#include "logbook/reader/blocks_dumps.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_output_read.h"
#include "logbook/reader/internal.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {
namespace {

// A name's file stem ("data/ckpt/test_model_11.pt" -> "test_model_11").
std::string Stem(const std::string& name) {
  const size_t slash = name.find_last_of('/');
  std::string s = name.substr(slash == std::string::npos ? 0 : slash + 1);
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  // "test_wide_0.005.pt" -> "test_wide_0.005": an extension, not a number's decimals.
  if (const size_t dot = s.rfind('.'); dot != std::string::npos && dot > 0 && !std::all_of(s.begin() + static_cast<long>(dot) + 1, s.end(), digit))
    s.resize(dot);
  return s.empty() ? name : s;
}

// The words that name a dump at `line`: the entry's heading, the paragraph
// or list item nearest above it, and the words of the paragraph holding it
// before it, in lower case (the nearest last).
std::string NamingText(const Entry& e, int line) {
  std::string above, holding;
  int at = 0;
  for (const auto& p : e.paragraphs) {
    if (p.line < line && p.end_line >= line) holding = p.text.substr(0, p.line_starts.empty() ? 0 : p.line_starts[std::min<size_t>(line - p.line, p.line_starts.size()) - 1]);
    else if (p.end_line < line && p.line > at) above = p.text, at = p.line;
  }
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    if (b.line < line && b.line > at) above = b.text, at = b.line;
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& b : e.notes) walk(b);
  return Lower(e.heading + "\n" + above + "\n" + holding);
}

// The last phrase of `names` written as words of `text` (its value; of two
// ending together the longer: "validation loss", not "loss"), or "".
std::string LastNamed(const std::string& text, const std::map<std::string, std::string>& names) {
  size_t best = std::string::npos, best_len = 0;
  std::string out;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const auto& [phrase, name] : names)
    for (size_t p = text.find(phrase); p != std::string::npos; p = text.find(phrase, p + 1)) {
      const size_t end = p + phrase.size();
      if ((p > 0 && word_char(text[p - 1])) || (end < text.size() && word_char(text[end]))) continue;
      if (best == std::string::npos || end > best || (end == best && phrase.size() > best_len)) best = end, best_len = phrase.size(), out = name;
    }
  return out;
}

// Whether figure set `f` is the row (key `key` = `k`, metric = `v`) already.
bool SameRow(const RecordedFigure& f, const std::string& key, const std::string& k, const std::string& metric, double v) {
  const auto c = f.run.config.find(key);
  const auto m = f.run.metrics.find(metric);
  return c != f.run.config.end() && c->second == k && m != f.run.metrics.end() && m->second == v;
}

// Line `i` of paragraph `p` (its hard-broken lines; `line_starts`).
std::string ParagraphLine(const Paragraph& p, size_t i) {
  const size_t b = i == 0 ? 0 : p.line_starts[i - 1];
  const size_t end = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
  return p.text.substr(b, end - b);
}

// One figure of a marked line: the statistic its mark names, its unit as
// written and what it measures, its digits.
struct MarkedFigure {
  std::string stat, unit, digits;
  UnitInfo info;
};

// A line of figures alone (`⚡ 82.8 µs 🐌 85.0 µs`): each a number and its
// unit (glued or the next word), after a mark at most (line_marks of
// dumps.json); no words. False for any other line.
bool MarkedLine(const std::string& line, std::vector<MarkedFigure>* figs) {
  static const auto* marks = new std::map<std::string, std::string>(DataWordMap("data/reader/dumps.json", "line_marks"));
  std::vector<std::string> toks;
  std::istringstream in(line);
  for (std::string w; in >> w && toks.size() < 64;) toks.push_back(w);
  std::string stat;
  for (size_t k = 0; k < toks.size(); ++k) {
    const std::string& t = toks[k];
    if (const auto m = marks->find(t); m != marks->end()) {
      stat = m->second;
      continue;
    }
    if (std::none_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; })) continue;
    size_t j = 0;
    const std::string digits = DigitsAt(t, &j);
    if (digits.empty() || !ParseNumber(digits)) return false;  // a word
    std::string unit = t.substr(j);
    if (unit.empty() && k + 1 < toks.size()) unit = toks[++k];
    MarkedFigure f{stat, unit, digits, {}};
    if (unit.empty() || !AnyUnit(unit, &f.info) || f.info.derived) return false;
    figs->push_back(std::move(f));
    stat.clear();
  }
  return !figs->empty();
}

// The figures of a paragraph of two lines or more, each a marked line and
// all alike (the same statistics of the same metrics, named apart), below
// a first line of words at most (`FP4->FP16 instead of FP4->FP32`: *lead
// is 1); empty for any other paragraph.
std::vector<std::vector<MarkedFigure>> MarkedLines(const Paragraph& p, size_t* lead = nullptr) {
  if (p.line_starts.empty() || p.end_line - p.line != static_cast<int>(p.line_starts.size()) || p.line_starts.size() > 256) return {};
  std::vector<MarkedFigure> first;
  const size_t from = MarkedLine(ParagraphLine(p, 0), &first) ? 0 : 1;
  if (from == 1 && p.line_starts.size() < 2) return {};
  if (lead) *lead = from;
  std::vector<std::vector<MarkedFigure>> lines;
  for (size_t i = from; i <= p.line_starts.size(); ++i) {
    std::vector<MarkedFigure> figs;
    if (!MarkedLine(ParagraphLine(p, i), &figs)) return {};
    std::set<std::string> named;
    for (const auto& f : figs)
      if (!named.insert(f.stat + "_" + f.info.metric).second) return {};  // two figures nothing names apart
    if (!lines.empty() && (figs.size() != lines.front().size() ||
                           !std::equal(figs.begin(), figs.end(), lines.front().begin(), [](const auto& a, const auto& b) {
                             return a.stat == b.stat && a.info.metric == b.info.metric;
                           })))
      return {};
    lines.push_back(std::move(figs));
  }
  return lines;
}

}  // namespace

void DumpFigures(const Entry& e, const std::vector<std::pair<int, std::string>>& rows, const Config& context,
                 const EntryCtx& x, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  if (rows.empty()) return;
  static const auto* keys = new std::map<std::string, std::string>(DataWordMap("data/reader/dumps.json", "key_names"));
  static const auto* metrics = new std::map<std::string, std::string>(DataWordMap("data/reader/dumps.json", "metric_names"));
  const std::string naming = NamingText(e, rows.front().first);
  std::string first, value;
  DumpPairLine(rows.front().second, &first, &value);
  const bool names = !DumpNumber(first);
  std::string key = names ? "run" : LastNamed(naming, *keys);
  if (key.empty()) key = "setting";
  std::string metric = LastNamed(naming, *metrics);
  if (metric.empty()) metric = "value";
  output_read::OutputRead r{x, context, "", "", "", {}, out, unread, {}, static_cast<size_t>(-1), 0};
  for (const auto& [line, text] : rows) {
    std::string k, v;
    if (!DumpPairLine(text, &k, &v)) continue;
    if (names) k = Stem(k);
    const auto number = ParseNumber(v);
    if (!number) continue;
    if (std::any_of(out->begin(), out->end(), [&](const RecordedFigure& f) { return SameRow(f, key, k, metric, *number); })) {
      if (unread) unread->push_back({line, FigureText(text), "the row of an earlier line given again, not another run"});
      continue;
    }
    Config cfg = context;
    cfg[key] = k;
    output_read::KeepFigure(r, line, text, cfg, {output_read::Fig{metric, UnitInfo{metric, 1, false}, "", v, false}});
  }
}

bool DumpParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                   std::vector<UnreadFigures>* unread) {
  if (p.line_starts.size() + 1 < 3 || p.end_line - p.line != static_cast<int>(p.line_starts.size())) return false;
  std::vector<std::pair<int, std::string>> lines;
  for (size_t i = 0; i <= p.line_starts.size(); ++i) lines.emplace_back(p.line + static_cast<int>(i), parse_detail::Trim(ParagraphLine(p, i)));
  const size_t head = DumpAfterHead(lines);
  if (head == std::string::npos) return false;
  DumpFigures(e, {lines.begin() + static_cast<long>(head), lines.end()}, Config{}, x, out, unread);
  return true;
}

bool MarkedLinesParagraph(const Entry& e, const Paragraph& p, const EntryCtx& x, std::vector<RecordedFigure>* out,
                          std::vector<UnreadFigures>* unread) {
  size_t lead = 0;
  const auto lines = MarkedLines(p, &lead);
  if (lines.empty()) return false;
  int block = 1;
  for (const auto& q : e.paragraphs)
    if (q.line < p.line && !MarkedLines(q).empty()) ++block;
  // The words over the lines say what changed; a number among them
  // ("a mini 2us boost") compares the lines with others, it is no run.
  const std::string over = lead ? parse_detail::Trim(ParagraphLine(p, 0)) : std::string();
  const bool numbers = std::any_of(over.begin(), over.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  if (lead && unread) {
    if (numbers && !NumberlessTitle(over)) unread->push_back({p.line, over, "the words over lines of figures below them, not a run"});
    else unread->push_back({p.line, over, "names the lines of figures below it", true});
  }
  output_read::OutputRead r{x, Config{}, "", "", "", {}, out, unread, {}, static_cast<size_t>(-1), 0};
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<output_read::Fig> figs;
    for (const auto& f : lines[i])
      figs.emplace_back(f.stat.empty() ? f.info.metric : f.stat + "_" + f.info.metric, f.info, f.unit, f.digits, false);
    output_read::KeepFigure(r, p.line + static_cast<int>(i + lead), parse_detail::Trim(ParagraphLine(p, i + lead)),
                            Config{{"block", std::to_string(block)}, {"line", std::to_string(i + 1)}}, figs);
  }
  return true;
}


}  // namespace moelog::logbook::reader
