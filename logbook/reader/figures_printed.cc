#include "logbook/reader/figures_printed.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_boxes.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_pipefields.h"
#include "logbook/reader/figures_stackedheader.h"
#include "logbook/reader/figures_toollines.h"
#include "logbook/reader/internal.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

bool PrintedRule(const std::string& line) {
  const auto rules = std::count_if(line.begin(), line.end(), [](char c) { return c == '-' || c == '='; });
  return rules >= 3 && std::all_of(line.begin(), line.end(), [](char c) {
           return c == '-' || c == '=' || c == '+' || c == '|' || c == ':' || c == ' ' || c == '\t';
         });
}

std::vector<std::string> PipeCells(const std::string& line) {
  std::vector<std::string> out;
  size_t p = 0;
  for (;;) {
    const size_t bar = line.find('|', p);
    out.push_back(parse_detail::Trim(line.substr(p, bar == std::string::npos ? std::string::npos : bar - p)));
    if (bar == std::string::npos) break;
    p = bar + 1;
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  if (!out.empty() && out.front().empty()) out.erase(out.begin());
  return out;
}

// A line's cells: CSV fields, or runs of text between two spaces or more
// (or a tab), or words when the line has no such gap.
namespace {

// CSV written with a blank after each comma (nvidia-smi's `--format=csv`:
// "0, 97 %, 71234 MiB, 612.40 W"): two commas or more, each followed by
// one blank, no wider gap, no `:` or `=` of a named field.
bool CommaSpaced(const std::string& t) {
  if (t.find("  ") != std::string::npos || t.find_first_of(":=") != std::string::npos) return false;
  int commas = 0;
  for (size_t p = t.find(','); p != std::string::npos; p = t.find(',', p + 1), ++commas)
    if (p + 1 >= t.size() || t[p + 1] != ' ') return false;
  return commas >= 2;
}

// A CSV line padded to line its columns up ("L4,1,64,  1033.65, 48.1"): two
// commas at least, no ':' or '=', every cell one word.
bool PaddedCsv(const std::string& t) {
  if (t.find_first_of(":=") != std::string::npos || std::count(t.begin(), t.end(), ',') < 2) return false;
  std::stringstream ss(t);
  for (std::string c; std::getline(ss, c, ',');)
    if (c = parse_detail::Trim(c); c.empty() || c.find_first_of(" \t") != std::string::npos) return false;
  return true;
}

}  // namespace

std::vector<std::string> LineCells(const std::string& t) {
  std::vector<std::string> out;
  if (t.find(',') != std::string::npos && (t.find(' ') == std::string::npos || CommaSpaced(t) || PaddedCsv(t))) {
    std::stringstream ss(t);
    for (std::string c; std::getline(ss, c, ',');) out.push_back(parse_detail::Trim(c));
    return out;
  }
  if (t.find("  ") == std::string::npos && t.find('\t') == std::string::npos) {
    std::istringstream words(t);
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  size_t p = 0;
  while (p < t.size()) {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
    size_t e = p;
    while (e < t.size() && t[e] != '\t' && !(t[e] == ' ' && e + 1 < t.size() && (t[e + 1] == ' ' || t[e + 1] == '\t'))) ++e;
    if (e > p) out.push_back(parse_detail::Trim(t.substr(p, e - p)));
    p = e;
  }
  return out;
}

namespace {

using Span = std::pair<size_t, size_t>;

// Where the cells of a line lie: runs of text between two spaces or more
// (split on single spaces too when `words`).
std::vector<Span> CellSpans(const std::string& t, bool words) {
  std::vector<Span> out;
  size_t p = 0;
  while (p < t.size()) {
    while (p < t.size() && t[p] == ' ') ++p;
    size_t e = p;
    // A single space inside a cell ("Function Name") keeps it going, unless words are asked for.
    while (e < t.size() && (t[e] != ' ' || (!words && e + 1 < t.size() && t[e + 1] != ' '))) ++e;
    if (e > p) out.emplace_back(p, e);
    p = e;
  }
  return out;
}

// The column a header word [a, b) falls in: the one it overlaps most, else the nearest.
size_t ColumnOf(const Span& w, const std::vector<Span>& extents) {
  size_t best = 0;
  long best_score = std::numeric_limits<long>::min();
  for (size_t c = 0; c < extents.size(); ++c) {
    const long lo = static_cast<long>(std::max(w.first, extents[c].first));
    const long hi = static_cast<long>(std::min(w.second, extents[c].second));
    const long score = hi - lo;  // the overlap, or minus the gap between them
    if (score > best_score) best_score = score, best = c;
  }
  return best;
}

}  // namespace

PrintedColumns RowColumns(const std::vector<std::string>& rows) {
  PrintedColumns out;
  for (const auto& row : rows) {
    if (row.find('\t') != std::string::npos) return {};
    const auto spans = CellSpans(row, false);
    if (out.extents.empty()) out.extents = spans;
    if (spans.size() != out.extents.size() || spans.size() < 2) return {};
    for (size_t c = 0; c < spans.size(); ++c)
      out.extents[c] = {std::min(out.extents[c].first, spans[c].first), std::max(out.extents[c].second, spans[c].second)};
  }
  return out;
}

std::vector<std::string> HeaderNames(const std::string& head, const PrintedColumns& columns) {
  if (columns.extents.empty() || head.find('\t') != std::string::npos) return {};
  std::vector<std::string> names(columns.extents.size());
  size_t last = 0;
  for (const Span& w : CellSpans(head, true)) {
    if (std::isdigit(static_cast<unsigned char>(head[w.first]))) return {};  // a header names; a line of figures is none
    const size_t c = ColumnOf(w, columns.extents);
    if (c < last) return {};
    last = c;
    if (!names[c].empty()) names[c] += ' ';
    names[c].append(head, w.first, w.second - w.first);
  }
  for (const auto& n : names)
    if (n.empty()) return {};
  return names;
}

bool FitsColumns(const std::string& row, const PrintedColumns& columns) {
  if (row.find('\t') != std::string::npos) return false;
  const auto spans = CellSpans(row, false);
  if (spans.size() < 2 || spans.size() > columns.extents.size()) return false;
  for (size_t c = 0; c < spans.size(); ++c)
    if (ColumnOf(spans[c], columns.extents) != c || spans[c].second <= columns.extents[c].first ||
        spans[c].first >= columns.extents[c].second)
      return false;
  return true;
}

bool PrintedTitle(const std::string& t, std::string* title) {
  const bool banner_line = t.rfind("---", 0) == 0 || t.rfind("===", 0) == 0;  // "---- Time per Output Token (excl. 1st) ----"
  const bool alpha = std::any_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  const bool word_label = OneWordTitle(t);  // "CONC4:": one word names the lines below it, digits and all
  if (t.size() > 80 || !alpha ||
      (!banner_line && !word_label && std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })))
    return false;
  // "transaction type: <builtin: TPC-B (sort of)>" states a field, "starting vacuum...end." a step: no titles.
  if (!banner_line && (t.find("...") != std::string::npos || t.find("\xE2\x80\xA6") != std::string::npos)) return false;
  if (const size_t colon = t.find(": "); !banner_line && colon != std::string::npos && t.find_first_not_of(" :", colon) != std::string::npos)
    return false;
  std::string s = t;
  if (s.ends_with("\xEF\xBC\x9A")) s.resize(s.size() - 3);  // a full-width colon
  auto banner = [](char c) { return c == '=' || c == '-' || c == '#' || c == '*' || c == ' ' || c == ':' || c == '[' || c == ']' || c == '|'; };
  while (!s.empty() && banner(s.back())) s.pop_back();
  size_t b = 0;
  while (b < s.size() && banner(s[b])) ++b;
  *title = s.substr(b);
  return !title->empty() && Words(*title).size() <= 10;
}

namespace {

void SkipBlanks(const std::string& t, size_t* p) {
  while (*p < t.size() && (t[*p] == ' ' || t[*p] == '\t')) ++*p;
}

// A quoted string at *p ('...' or "..."): its text; false when none is there or it never closes.
bool Quoted(const std::string& t, size_t* p, std::string* out) {
  if (*p >= t.size() || (t[*p] != '\'' && t[*p] != '"')) return false;
  const char q = t[(*p)++];
  out->clear();
  for (; *p < t.size() && t[*p] != q; ++*p) {
    if (t[*p] == '\\' && *p + 1 < t.size()) ++*p;
    out->push_back(t[*p]);
  }
  return *p < t.size() && t[(*p)++] == q;
}

// An unquoted value at *p up to the ',' or '}' that ends it (nested brackets skipped).
bool Bare(const std::string& t, size_t* p, DictItem* item) {
  const size_t from = *p;
  int depth = 0;
  for (; *p < t.size() && (depth > 0 || (t[*p] != ',' && t[*p] != '}')); ++*p) {
    if (t[*p] == '{' || t[*p] == '[' || t[*p] == '(') ++depth, item->kind = DictItem::Kind::kOther;
    if ((t[*p] == '}' || t[*p] == ']' || t[*p] == ')') && --depth < 0) return false;
  }
  item->value = parse_detail::Trim(t.substr(from, *p - from));
  if (item->value.empty() || depth != 0) return false;
  if (item->value.find_first_of("{[(") != std::string::npos) return true;
  const std::string low = Lower(item->value);
  if (low == "true" || low == "false") item->kind = DictItem::Kind::kBool;
  else if (ParseNumber(item->value)) item->kind = DictItem::Kind::kNumber;
  return true;
}

}  // namespace

bool PrintedDict(const std::string& t, std::vector<DictItem>* items) {
  items->clear();
  if (t.size() < 2 || t.size() > 8192 || t.front() != '{' || t.back() != '}') return false;
  size_t p = 1;
  SkipBlanks(t, &p);
  while (p < t.size() && t[p] != '}') {
    DictItem item;
    if (!Quoted(t, &p, &item.key)) return false;
    SkipBlanks(t, &p);
    if (p >= t.size() || t[p++] != ':') return false;
    SkipBlanks(t, &p);
    if (Quoted(t, &p, &item.value)) item.kind = DictItem::Kind::kString;
    else if (!Bare(t, &p, &item)) return false;
    items->push_back(std::move(item));
    SkipBlanks(t, &p);
    if (p < t.size() && t[p] == ',') ++p, SkipBlanks(t, &p);
    else if (p >= t.size() || t[p] != '}') return false;
  }
  return p + 1 == t.size() && !items->empty();
}

std::vector<PrintedLine> PrintedLines(const FencedBlock& b) {
  std::vector<PrintedLine> out;
  const int first = b.output_cue == "prompt" ? b.line : b.line + 1;
  std::stringstream ss(StackedHeaders(b.text));  // nccl-tests' "#  size ... busbw" over "#  (B) ... (GB/s)"
  int n = 0;
  bool ruled = false;   // the boxed table's header already has its rule
  bool titled = false;  // a frame's top border came last: its next line is its title
  for (std::string l; std::getline(ss, l); ++n) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    const std::string written = parse_detail::Trim(l);
    l = WithoutPictographs(l);  // "\xF0\x9F\x93\x8D Iter 10 | Loss: 10.76": the decoration names nothing
    if (!HasBoxDrawing(l)) {
      ruled = false;
      out.push_back({ToolLineForm(parse_detail::Trim(l)), first + n, l, written});  // "6.155 [ms]", "(411.45 per sec.)"
      continue;
    }
    // Drawn with boxes: a row is its cells between '|'; of the borders and
    // separators, only the one under a header of two columns or more is
    // kept (as a rule), so the rows below read as one table.
    // One frame around printed lines is a record: its first line the
    // title between banner marks, its bottom border the mark alone.
    const FrameBorder border = FrameBorderOf(l);
    const std::string mark = OutputVocabulary().record_banners.empty() ? "" : *OutputVocabulary().record_banners.begin();
    if (border != FrameBorder::kNone && !mark.empty()) {
      ruled = false, titled = border == FrameBorder::kTop;
      if (border == FrameBorder::kBottom) out.push_back({mark, first + n, mark});
      continue;
    }
    bool rule = false;
    std::string t = Unboxed(l, &rule);
    if (titled && !rule && !t.empty()) t = mark + " " + t + " " + mark;
    titled = titled && t.empty();
    const bool header = !out.empty() && out.back().line == first + n - 1 && PipeCells(out.back().text).size() >= 2;
    if (rule && (ruled || !header)) continue;
    if (rule) t = "---", ruled = true;
    t = PipeLineForm(t);  // "Tokens/s: 106979 │ FLOPs/token: 8.78 GF (6N: N=1.3B)"
    out.push_back({t, first + n, t});
  }
  return out;
}

PrintedColumns ColumnsFrom(const std::vector<PrintedLine>& lines, size_t i) {
  std::vector<std::string> rows;
  const size_t n = i < lines.size() ? LineCells(lines[i].text).size() : 0;
  for (size_t k = i; k < lines.size() && rows.size() < 64 && !lines[k].text.empty() && LineCells(lines[k].text).size() == n &&
                     !PrintedRule(lines[k].text);  // a rule under the rows ends them
       ++k)
    rows.push_back(lines[k].raw);
  return RowColumns(rows);
}

// "`elapsed_seconds`: `112.12`", "`time/train/step_avg_s`: `18.6275`": a
// printed key and its number, each a code span: the pair "key=value"
// (blanks in the key joined by `_`); "" for any other bullet.
std::string SpanPair(const Bullet& b) {
  if (b.code_spans.size() != 2) return "";
  std::string between;  // the text outside the spans
  bool in_code = false;
  for (char c : b.text) {
    if (c == '`') in_code = !in_code;
    else if (!in_code && c != ' ') between += c;
  }
  std::string key = parse_detail::Trim(b.code_spans[0]);
  const std::string value = parse_detail::Trim(b.code_spans[1]);
  const size_t digit = value.find_first_not_of("~+-");
  // "`nvme0n1 util`: `10.85%` (not disk-bound)": a remark in parentheses may follow.
  const bool remark = between.size() > 3 && between.compare(0, 2, ":(") == 0 && between.back() == ')';
  if ((between != ":" && !remark) || key.empty() || key.size() > 80 || !std::isalpha(static_cast<unsigned char>(key[0])) ||
      key.find('=') != std::string::npos || digit == std::string::npos || digit > 1 ||
      !std::isdigit(static_cast<unsigned char>(value[digit])))
    return "";
  std::replace(key.begin(), key.end(), ' ', '_');
  return key + "=" + value;
}

// "pid=213044 cmd=minio samples=39 avg_cpu=13.00", "nvme0n1 samples=40
// avg_util=15.73", a training log's "step:5100/5100 val_loss:3.2794
// train_time:1338402ms": a printed line of three pairs or more pasted as a
// bullet or a sentence, bare or as one code span (a name may lead them): its
// text with each pair as key=value; "" for any other bullet.
std::string PlainPairs(const Bullet& b) {
  std::string text = b.text;
  // One code span that ends the text, after a label at most ("Final: `...`").
  if (const size_t tick = text.find('`'); tick != std::string::npos) {
    const std::string label = parse_detail::Trim(text.substr(0, tick)), t = parse_detail::Trim(text.substr(tick));
    if (t.size() < 3 || t.back() != '`' || t.find('`', 1) != t.size() - 1) return "";
    if (!label.empty() && (label.back() != ':' || label.find(' ') != std::string::npos)) return "";
    text = label + " " + t.substr(1, t.size() - 2);
  }
  std::vector<std::string> toks;
  std::istringstream words(text);
  for (std::string w; words >> w;) toks.push_back(w);
  size_t pairs = 0;
  for (size_t k = 0; k < toks.size(); ++k) {
    std::string& t = toks[k];
    size_t eq = t.find('=');
    // "val_loss:3.2794": a key glued to its number by a colon.
    if (const size_t colon = t.find(':'); eq == std::string::npos && colon != std::string::npos && colon + 1 < t.size() &&
                                          std::isdigit(static_cast<unsigned char>(t[colon + 1])))
      t[colon] = '=', eq = colon;
    if (eq != std::string::npos && eq > 0 && eq + 1 < t.size() && IsIdentStart(t[0])) ++pairs;
    else if (k > 0) return "";
  }
  if (pairs < 3) return "";
  std::string joined;
  for (const auto& t : toks) joined += (joined.empty() ? "" : " ") + t;
  return joined;
}

bool GroupedRow(std::vector<std::string>* cells, size_t columns, std::string* group) {
  if (columns < 3) return false;
  if (cells->size() == columns && (*cells)[0].size() > 1 && (*cells)[0].back() == ':' &&
      std::any_of((*cells)[0].begin(), (*cells)[0].end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); })) {
    (*cells)[0].pop_back();
    *group = (*cells)[0];
    return true;
  }
  if (cells->size() + 1 != columns || group->empty()) return false;
  cells->insert(cells->begin(), *group);
  return true;
}

std::string TableUnit(std::vector<std::string>* head, const std::vector<std::string>& phrases) {
  for (auto& h : *head) {
    const size_t open = h.rfind('(');
    if (open == std::string::npos || h.back() != ')') continue;
    const std::string inner = Lower(parse_detail::Trim(h.substr(open + 1, h.size() - open - 2)));
    UnitInfo info;
    for (const auto& p : phrases)
      if (inner.rfind(p, 0) == 0 && UnitOf(parse_detail::Trim(inner.substr(p.size())), &info))
        return h = parse_detail::Trim(h.substr(0, open)), parse_detail::Trim(inner.substr(p.size()));
  }
  return "";
}

namespace {

// "712ms", "712 ms", "0.40 s": a number and its unit from *p on; false when none is there.
bool ValueAt(const std::string& t, size_t* p, PrintedValue* v) {
  while (*p < t.size() && t[*p] == ' ') ++*p;
  const size_t from = *p;
  while (*p < t.size() && (std::isdigit(static_cast<unsigned char>(t[*p])) || t[*p] == '.')) ++*p;
  v->digits = t.substr(from, *p - from);
  while (*p < t.size() && t[*p] == ' ') ++*p;
  const size_t u = *p;
  while (*p < t.size() && t[*p] != ' ' && t[*p] != ',' && t[*p] != ')' && t[*p] != '(') ++*p;
  v->unit = t.substr(u, *p - u);
  UnitInfo info;
  return ParseNumber(v->digits).has_value() && UnitOf(v->unit, &info) && !info.derived;
}

// A short name ending in ": " from *p on (letters in it, no digit first).
bool NameAt(const std::string& t, size_t* p, size_t max, std::string* name) {
  while (*p < t.size() && t[*p] == ' ') ++*p;
  const size_t colon = t.find(": ", *p);
  if (colon == std::string::npos || colon == *p || colon - *p > max) return false;
  *name = parse_detail::Trim(t.substr(*p, colon - *p));
  *p = colon + 2;
  return std::isalpha(static_cast<unsigned char>((*name)[0])) && name->find_first_of("(),;=") == std::string::npos;
}

}  // namespace

bool PrintedBreakdown(const std::string& t, Breakdown* out) {
  *out = Breakdown{};
  size_t p = 0;
  if (t.size() > 400 || !NameAt(t, &p, 60, &out->name) || !ValueAt(t, &p, &out->total)) return false;
  while (p < t.size() && t[p] == ' ') ++p;
  if (p >= t.size() || t[p++] != '(') return false;
  for (;;) {
    std::pair<std::string, PrintedValue> part;
    if (!NameAt(t, &p, 32, &part.first) || !ValueAt(t, &p, &part.second)) return false;
    out->parts.push_back(std::move(part));
    while (p < t.size() && t[p] == ' ') ++p;
    if (p < t.size() && t[p] == ')') return true;
    if (p >= t.size() || t[p++] != ',' || out->parts.size() >= 8) return false;
  }
}

// A line of a record's banner mark alone ("=========="), or its title
// between the marks ("==== Serving Benchmark Result ===="): the mark.
std::string PrintedRecordBanner(const std::string& t, bool* closing) {
  for (const auto& mark : OutputVocabulary().record_banners) {
    if (mark.empty() || t.size() < mark.size() * 2 || t.compare(0, mark.size(), mark) != 0) continue;
    *closing = t.find_first_not_of(mark[0]) == std::string::npos;
    std::string title;
    if (*closing || (t.compare(t.size() - mark.size(), mark.size(), mark) == 0 && PrintedTitle(t, &title))) return mark;
  }
  return "";
}

namespace {

// Whether a bullet's text outside its code spans is separators only: `,`
// `;` `.`, or pair_joiners of output.json between two spans or more, then
// after a label ending in ':' too ("Timing (from trace): `load=5.0s`,
// `compute=21.8s` with `read=5.6s`").
bool GroupLabel(const std::string& label) {
  std::string plain;
  int depth = 0;
  for (char c : label) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    plain += depth > 0 || c == ')' || c == ':' || c == '_' ? ' ' : c;
  }
  const auto words = SpaceWords(Lower(plain));
  return std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return OutputVocabulary().pair_group_words.count(w) || StatisticWord(w) || MetricWord(w);
  });
}

bool SpansOnly(const Bullet& b) {
  if (b.code_spans.empty()) return false;
  std::string outside;
  bool in_code = false;
  for (char c : b.text) {
    if (c == '`') in_code = !in_code, outside += ' ';
    else if (!in_code) outside += c;
  }
  const size_t tick = b.text.find('`');
  const std::string label = parse_detail::Trim(b.text.substr(0, tick));
  bool words = false;
  if (!label.empty()) {
    if (label.back() != ':' || label.size() > 60 || b.code_spans.size() < 2) return false;
    outside = outside.substr(label.size());
  }
  // "`chunk=25`: `compute=15.9s` `dot=2.8s`": a leading span's colon too.
  const bool lead_colon = label.empty();
  std::replace_if(outside.begin(), outside.end(), [&](char c) {
    return c == ',' || c == ';' || c == '.' || c == '\n' || (lead_colon && c == ':');
  }, ' ');
  std::istringstream rest(outside);
  for (std::string w; rest >> w;) {
    if (!OutputVocabulary().pair_joiners.count(Lower(w))) return false;
    words = true;
  }
  // A label over spans joined by separators alone names their run
  // ("- int8: `time_s=0.0037`, `pack=0.0009`"; read as a labelled bullet)
  // unless its words name their group ("Mean timings:").
  return words ? b.code_spans.size() >= 2 : label.empty() || GroupLabel(label);
}

// "time/train/step_avg_s = 20.18": a printed key, an equals sign with a
// blank on each side and a number, as "key=value"; any other span as it is.
std::string SpacedPair(const std::string& span) {
  const size_t eq = span.find(" = ");
  if (eq == std::string::npos || eq == 0 || span.find(' ') < eq) return span;
  const std::string key = span.substr(0, eq), value = span.substr(eq + 3);
  const size_t digit = value.find_first_not_of("~+-");
  if (value.empty() || value.find(' ') != std::string::npos || digit == std::string::npos || digit > 1 ||
      !std::isdigit(static_cast<unsigned char>(value[digit])) || !IsIdentStart(key[0]))
    return span;
  return key + "=" + value;
}

// "`run42` (`avg_step_ms≈9.37`, `peak_mem_gb=3.1`)": a run's name in a span,
// then its printed pairs in parentheses, separators alone between them: the
// line "run=run42 avg_step_ms≈9.37 peak_mem_gb=3.1"; "" for any other bullet.
std::string NamedSpanPairs(const Bullet& b) {
  const auto& spans = b.code_spans;
  const std::string t = parse_detail::Trim(b.text);
  if (spans.size() < 2 || spans[0].empty() || spans[0].size() > 40 || spans[0].find_first_of("= ") != std::string::npos ||
      spans[0].find("\xE2\x89\x88") != std::string::npos || t.rfind("`" + spans[0] + "`", 0) != 0)
    return "";
  std::string rest = parse_detail::Trim(t.substr(spans[0].size() + 2));
  while (!rest.empty() && (rest.back() == '.' || rest.back() == ';')) rest.pop_back();
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') return "";
  std::string line = "run=" + spans[0];
  bool in_code = false;
  for (char c : rest.substr(1, rest.size() - 2)) {
    if (c == '`') in_code = !in_code;
    else if (!in_code && c != ',' && c != ';' && c != ' ') return "";  // words between them: a sentence
  }
  for (size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].find(' ') != std::string::npos ||
        (spans[i].find('=') == std::string::npos && spans[i].find("\xE2\x89\x88") == std::string::npos))
      return "";
    line += " " + spans[i];
  }
  return line;
}

}  // namespace

// A bullet's text as one printed key=value line: its spans only
// ("`avg_step_ms=20.4`, `peak=2.1e9`"), a key and its number (SpanPair),
// pairs (PlainPairs), or a unit's name and pairs ("ms/iter: sdpa=4.41
// flex=10.49"); "" for any other bullet.
std::string PrintedPairs(const Bullet& b) {
  if (!b.children.empty() || b.text.size() > 4096) return "";
  if (std::string pair = SpanPair(b); !pair.empty()) return pair;
  if (std::string pairs = PlainPairs(b); !pairs.empty()) return pairs;
  if (std::string named = NamedSpanPairs(b); !named.empty()) return named;
  std::string joined;
  if (SpansOnly(b)) {
    for (const auto& written : b.code_spans) {
      const std::string span = SpacedPair(written);
      if (span.find('=') == std::string::npos || span.find(' ') != std::string::npos) return "";
      joined += (joined.empty() ? "" : " ") + span;
    }
    return joined;
  }
  std::string plain;
  for (char c : b.text)
    if (c != '`') plain += c;
  const size_t colon = plain.find(": ");
  if (colon == std::string::npos || colon > 40) return "";
  std::string bare;
  UnitInfo info;
  if (PrintedNameUnit(plain.substr(0, colon), &bare).empty() && !OutputUnit(plain.substr(0, colon), "", &info)) return "";
  std::istringstream rest(plain.substr(colon + 2));
  std::vector<std::string> toks;
  for (std::string w; rest >> w;) toks.push_back(w);
  for (const auto& t : toks)
    if (t.find('=') == std::string::npos || t.front() == '=') return "";
  return toks.size() >= 2 ? plain : "";
}

}  // namespace moelog::logbook::reader
