// The classify stage's worked-calculation rule: a fenced block that works
// figures out ("Headroom: 80 - 66 = 14 GB", "Replicas = 1,800 / 150 =
// 12") records no run. A capacity plan's memory budget, a sizing worked step
// by step, a throughput derived from assumed figures: when no command of its
// part printed the block and no Output label led it, none of its figures is
// a run's, the budget lines beside the arithmetic neither. Its marks are data
// (blocks.json: worked_equals, worked_operators, worked_glued_operators); so
// is a block that tallies what a plan needs ("Total needed: 59 GB",
// "Shortfall: 35 GB"; budget_words).
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

const std::vector<std::string>& Marks(const char* key) {
  static const auto* equals = new std::set<std::string>(DataWords("data/reader/blocks.json", "worked_equals", false));
  static const auto* ops = new std::set<std::string>(DataWords("data/reader/blocks.json", "worked_operators", false));
  static const auto* glued = new std::set<std::string>(DataWords("data/reader/blocks.json", "worked_glued_operators", false));
  static const auto* label = new std::set<std::string>(DataWords("data/reader/blocks.json", "worked_label_operators", false));
  static const auto* lists = new std::vector<std::vector<std::string>>{
      {equals->begin(), equals->end()}, {ops->begin(), ops->end()}, {glued->begin(), glued->end()}, {label->begin(), label->end()}};
  const std::string k = key;
  return (*lists)[k == "equals" ? 0 : k == "ops" ? 1 : k == "glued" ? 2 : 3];
}

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Whether `s` joins numbers with an operator: a spaced one with a digit
// somewhere before and after it ("6,400 tokens / 0.002 sec"), or a glued
// one between two digits ("1000/250ms").
bool Operated(const std::string& s) {
  for (const auto& op : Marks("ops"))
    for (size_t at = s.find(op); at != std::string::npos; at = s.find(op, at + 1))
      if (s.find_first_of("0123456789") < at && s.find_first_of("0123456789", at + op.size()) != std::string::npos)
        return true;
  for (const auto& op : Marks("glued"))
    for (size_t at = s.find(op); at != std::string::npos; at = s.find(op, at + 1))
      if (at > 0 && Digit(s[at - 1]) && at + op.size() < s.size() && Digit(s[at + op.size()])) return true;
  return false;
}

// Whether `w` is a word of a label: no digit, no operator, not a bracket.
bool LabelWord(const std::string& w) {
  if (w.find_first_of("0123456789()$~") != std::string::npos) return false;
  for (const auto& op : Marks("ops"))
    if (Trim(op) == w) return false;
  return true;
}

// Whether `w` is written as a name's word: a capital, then small letters
// only ("Stride"; not a unit's "GB", "GPUs", "tokens").
bool TitleWord(const std::string& w) {
  return w.size() > 1 && std::isupper(static_cast<unsigned char>(w[0])) &&
         std::all_of(w.begin() + 1, w.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
}

// The expression an equals sign closes or opens: the words of `side` next
// to the sign (`before`: its end, else its start) up to a label's colon.
// Before the sign, what follows the expression's last number is its unit
// ("80 GB each ="); a name there (three words, or a word written as a
// name's) makes the sign a setting's: in a printed "Matrix A: 4096 x 4096
// Leading Dimension Size = 4096" the product is another clause's.
std::string Expression(const std::string& side, bool before) {
  std::vector<std::string> words = Words(side), kept;
  if (before) std::reverse(words.begin(), words.end());
  size_t unit = 0;
  bool number = false;
  for (const auto& w : words) {
    if (before ? w.back() == ':' : (!kept.empty() && kept.back().back() == ':')) break;
    if (before && !number && LabelWord(w) && (++unit >= 3 || TitleWord(w))) return "";
    number = number || !LabelWord(w);
    kept.push_back(w);
  }
  if (before) std::reverse(kept.begin(), kept.end());
  std::string out;
  for (const auto& w : kept) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Whether line `l` works a figure out: an equals sign with a number after
// it ("= 14 GB", "= (500 × 50) / 0.85") or ending the line (the result on
// the next), and numbers joined by an operator in the expression on one
// side of it.
bool ArithmeticLine(const std::string& l) {
  // "5,841 tok/s / $4,500 =": the result on the next line.
  if (l.size() > 2 && l.back() == '=' && l[l.size() - 2] == ' ' &&
      Operated(Expression(l.substr(0, l.size() - 2), true)))
    return true;
  for (const auto& eq : Marks("equals"))
    for (size_t at = l.find(eq); at != std::string::npos; at = l.find(eq, at + 1)) {
      if (eq == "= " && at != 0) continue;  // "= 6,400 tokens / 0.002 sec": only at the line's start
      std::string right = Trim(l.substr(at + eq.size()));
      while (!right.empty() && (right[0] == '~' || right[0] == '(' || right[0] == '$')) right.erase(0, 1);
      if (right.empty() || !Digit(right[0])) continue;
      if (Operated(Expression(l.substr(0, at), true)) || Operated(Expression(right, false))) return true;
    }
  return false;
}

// Whether line `l` tallies what a plan needs: a label (before its colon)
// holding a word of budget_words, a number after it ("Total needed: 59 GB").
bool BudgetLine(const std::string& l) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/blocks.json", "budget_words"));
  const size_t colon = l.find(':');
  if (colon == std::string::npos || colon > 48 || l.find_first_of("0123456789", colon) == std::string::npos) return false;
  for (std::string w : Words(Lower(l.substr(0, colon)))) {
    while (!w.empty() && std::ispunct(static_cast<unsigned char>(w.back()))) w.pop_back();
    if (words->count(w)) return true;
  }
  return false;
}

// Whether `w` names a quantity in a formula: a symbol in capitals or with
// an underscore ("TILE_M", "D", "(D+1)"), not a word of prose.
bool Symbol(std::string w) {
  while (!w.empty() && (w.front() == '(' || w.front() == '[')) w.erase(w.begin());
  while (!w.empty() && (w.back() == ')' || w.back() == ']' || w.back() == ',')) w.pop_back();
  if (w.empty() || !std::isalpha(static_cast<unsigned char>(w[0]))) return false;
  bool upper = false, lower = false;
  for (char c : w) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '+' && c != '-') return false;
    upper = upper || std::isupper(static_cast<unsigned char>(c));
    lower = lower || std::islower(static_cast<unsigned char>(c));
  }
  return upper && (!lower || w.find('_') != std::string::npos);
}

// Whether line `l` writes a formula of named quantities with its value
// after it ("Q tiles:  2 * TILE_M * (D+1) * 2   24,960"): a product
// (worked_label_operators) joins a symbol to a number or another symbol.
bool FormulaLine(const std::string& l) {
  const std::vector<std::string> words = Words(l);
  for (size_t k = 1; k + 1 < words.size(); ++k) {
    if (std::none_of(Marks("label").begin(), Marks("label").end(), [&](const std::string& op) { return Trim(op) == words[k]; }))
      continue;
    const std::string &a = words[k - 1], &b = words[k + 1];
    const bool numbers = Digit(a[0]) || Digit(b[0]);
    if ((Symbol(a) && (Symbol(b) || Digit(b[0]))) || (Symbol(b) && numbers))
      for (size_t n = k + 2; n < words.size(); ++n)
        if (Digit(words[n][0]) && (n + 1 >= words.size() || !Symbol(words[n + 1]))) return true;
  }
  return false;
}

// The first arithmetic or budget line of `text`, or "".
std::string WorkedLine(const std::string& text) {
  size_t p = 0;
  while (p < text.size()) {
    size_t nl = text.find('\n', p);
    if (nl == std::string::npos) nl = text.size();
    std::string l = Trim(text.substr(p, nl - p));
    for (const std::string edge : {"\xE2\x94\x82", "\xE2\x95\x91", "|"}) {  // a box's sides: "│ 5,841 tok/s / $4,500 = │"
      if (l.rfind(edge, 0) == 0) l = Trim(l.substr(edge.size()));
      if (l.size() >= edge.size() && l.compare(l.size() - edge.size(), edge.size(), edge) == 0)
        l = Trim(l.substr(0, l.size() - edge.size()));
    }
    if (ArithmeticLine(l) || BudgetLine(l) || FormulaLine(l)) return l;
    p = nl + 1;
  }
  return "";
}

// Whether a command of the entry stands before line `line` in the part (from
// the sub-heading above it) that holds it.
bool CommandBefore(const Entry& entry, int line) {
  int first = entry.heading_line;
  for (const auto& h : entry.subheadings)
    if (h.line <= line) first = h.line;
  return std::any_of(entry.commands.begin(), entry.commands.end(),
                     [&](const CommandText& c) { return c.line >= first && c.line < line; });
}

// The label of the table row on `line` when it joins named quantities by a
// product ("MFU × Peak") and holds no digit, else "".
std::string ProductRow(const Entry& entry, int line) {
  for (const auto& t : entry.tables) {
    const int row = line - t.line - 2;
    if (line < t.line || line > t.end_line || row < 0 || row >= static_cast<int>(t.rows.size()) || t.rows[row].empty())
      continue;
    const std::string label = Trim(t.rows[row][0]);
    if (label.find_first_of("0123456789") != std::string::npos) return "";
    for (const auto& op : Marks("label"))
      if (const size_t at = label.find(op); at != std::string::npos && at > 0 && at + op.size() < label.size()) return label;
  }
  return "";
}

// The label of the table row on `line` when it names the hardware's peak
// (rating_row_labels) and all of `f`'s figures are compute or bandwidth.
std::string RatingRow(const Entry& entry, const RecordedFigure& f) {
  static const auto* labels = new std::set<std::string>(DataWords("data/reader/blocks.json", "rating_row_labels"));
  if (f.run.metrics.empty() || !std::all_of(f.run.metrics.begin(), f.run.metrics.end(), [](const auto& m) {
        return m.first == "tflops" || m.first == "gb_per_s";
      }))
    return "";
  for (const auto& t : entry.tables) {
    const int row = f.line - t.line - 2;
    if (f.line < t.line || f.line > t.end_line || row < 0 || row >= static_cast<int>(t.rows.size()) || t.rows[row].empty())
      continue;
    std::string label = Lower(Trim(t.rows[row][0]));
    label.erase(std::remove_if(label.begin(), label.end(), [](char c) { return c == '*' || c == '_'; }), label.end());
    for (const auto& w : *labels)
      if (label.find(w) != std::string::npos) return Trim(t.rows[row][0]);
  }
  return "";
}


// Whether the text right after an equals sign at `eq` is a result of a
// quantity: a number (past "~", "$", "(") that no ratio's mark follows
// ("= 3.2s", "= ~$60/month"; "= 1.53x faster" compares runs).
bool QuantityResult(const std::string& s, size_t eq) {
  size_t p = eq;
  while (p < s.size() && (s[p] == ' ' || s[p] == '~' || s[p] == '$' || s[p] == '(')) ++p;
  if (p >= s.size() || !Digit(s[p])) return false;
  while (p < s.size() && (Digit(s[p]) || s[p] == '.' || s[p] == ',')) ++p;
  while (p < s.size() && s[p] == ' ') ++p;
  return !(p < s.size() && (s[p] == 'x' || s[p] == 'X' || s[p] == '%' || s.compare(p, 2, "\xC3\x97") == 0));
}

}  // namespace

// Whether the figure at `start` is the result of arithmetic in its clause:
// an equals sign right before it whose left side prices a count ("5 extra
// steps at 635ms/step = 3.2s").
bool ProseResult(const std::string& s, size_t start) {
  size_t b = start;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '~' || s[b - 1] == '$' || s[b - 1] == '(')) --b;
  for (const auto& e : Marks("equals")) {
    const std::string mark = Trim(e);
    if (b < mark.size() || s.compare(b - mark.size(), mark.size(), mark) != 0) continue;
    size_t from = b - mark.size() > 64 ? b - mark.size() - 64 : 0;
    for (const char* end : {". ", "; ", "\n", ": "})
      if (const size_t at = s.rfind(end, b - mark.size()); at != std::string::npos && at + 2 > from) from = at + 2;
    const std::string left = s.substr(from, b - mark.size() - from);
    const size_t at = left.find(" at ");
    // (a left side joined by an operator is the scan's own "computed" rule)
    return at != std::string::npos && left.find_first_of("0123456789") < at &&
           left.find_first_of("0123456789", at) != std::string::npos && !Operated(left);
  }
  return false;
}

// Whether the figure at [start, end) of prose is an operand of arithmetic
// in its clause: an operator joins it to a number before an equals sign
// whose result is a quantity ("700W per GPU x $0.12/kWh = ~$60/month"), or
// it is priced by a count before it ("5 extra steps at 635ms/step = 3.2s").
bool ProseOperand(const std::string& s, size_t start, size_t end) {
  size_t stop = std::min(s.size(), end + 64);
  for (const char* mark : {". ", "; ", "\n", " | "}) stop = std::min(stop, s.find(mark, end) == std::string::npos ? stop : s.find(mark, end));
  if (ProseResult(s, start)) return true;
  size_t eq = std::string::npos, len = 0;
  for (const auto& e : Marks("equals"))
    if (const size_t at = s.find(e, end); e != "= " && at < eq) eq = at, len = e.size();
  if (eq == std::string::npos || eq >= stop || !QuantityResult(s, eq + len)) return false;
  const std::string between = s.substr(end, eq - end);
  for (const auto& op : Marks("ops"))
    if (const size_t at = between.find(op); at != std::string::npos && between.find_first_of("0123456789$", at) != std::string::npos)
      return true;
  const size_t from = start > 32 ? start - 32 : 0;
  const std::string before = s.substr(from, start - from);
  const size_t at = before.rfind(" at ");
  return at != std::string::npos && at + 4 == before.size() && before.find_first_of("0123456789") < at;
}

void DropWorkedBlocks(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  struct Worked {
    int first, last;
    std::string line;
  };
  std::vector<Worked> worked;
  for (const auto& o : entry.outputs) {
    if (o.output_cue != "info" && o.output_cue != "looks like output") continue;
    if (CommandBefore(entry, o.line)) continue;
    if (std::string l = WorkedLine(o.text); !l.empty()) worked.push_back({o.line, o.end_line, l});
  }
  if (worked.empty() && entry.tables.empty()) return;
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const auto it = std::find_if(worked.begin(), worked.end(), [&f](const Worked& w) { return w.first <= f.line && f.line <= w.last; });
    const std::string product = it == worked.end() ? ProductRow(entry, f.line) : "";
    const std::string rating = it == worked.end() && product.empty() ? RatingRow(entry, f) : "";
    if (it == worked.end() && product.empty() && rating.empty()) {
      kept.push_back(std::move(f));
    } else if (!rating.empty()) {
      if (unread && !(!unread->empty() && unread->back().line == f.line))
        unread->push_back({f.line, f.text, "a device's rating (a row labelled \"" + rating + "\"), not a run"});
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text,
                         !product.empty() ? "computed from other figures (a row labelled as a product, \"" + product +
                                                "\"), not a run"
                                          : "computed from other figures (a worked calculation: its block works figures out, \"" +
                                                it->line.substr(0, 60) + "\"), not a run's output"});
    }
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
