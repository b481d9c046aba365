#include "logbook/reader/table_ledger.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The cell without marks and parenthesized asides ("+8.1% decode (3.2→3.46
// t/s)" -> "+8.1% decode "): the changes it states, not the runs it names.
std::string ChangeText(const std::string& cell) {
  std::string out;
  int depth = 0;
  for (char c : cell) {
    if (c == '(') ++depth;
    else if (c == ')') depth = std::max(0, depth - 1);
    else if (depth == 0 && c != '*' && c != '`') out += c;
  }
  return out;
}

// The items of a change cell: split at ',', ';' and " and ".
std::vector<std::string> Items(const std::string& text) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ',' || text[i] == ';') {
      out.emplace_back();
    } else if (text.compare(i, 5, " and ") == 0) {
      out.emplace_back();
      i += 4;
    } else {
      out.back() += text[i];
    }
  }
  return out;
}

// A signed number at `p` of `s` ("+8.1", "-14", "−3", "12"): its digits and
// value, `p` past it; false when none starts there.
bool SignedNumber(const std::string& s, size_t* p, std::string* digits, double* value, bool* sign) {
  size_t i = *p;
  int neg = 0;
  *sign = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) *sign = true, neg = s[i] == '-', ++i;
  else if (s.compare(i, 3, "\xE2\x88\x92") == 0 || s.compare(i, 3, "\xE2\x80\x93") == 0) *sign = true, neg = 1, i += 3;
  const size_t from = i;
  while (i < s.size() && (Digit(s[i]) || (s[i] == '.' && i + 1 < s.size() && Digit(s[i + 1])))) ++i;
  if (i == from || !Digit(s[from])) return false;
  *digits = s.substr(from, i - from);
  *value = std::strtod(digits->c_str(), nullptr) * (neg ? -1 : 1);
  *p = i;
  return true;
}

// The unit written at `p` ("%", "x", "ms" glued or after one space); `p` past it.
std::string UnitAt(const std::string& s, size_t* p) {
  size_t i = *p;
  if (i < s.size() && s[i] == '%') return ++*p, "%";
  if (s.compare(i, 2, "\xC3\x97") == 0) return *p += 2, "x";
  const bool glued = i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]));
  if (!glued && i + 1 < s.size() && s[i] == ' ') ++i;
  size_t e = i;
  while (e < s.size() && (std::isalpha(static_cast<unsigned char>(s[e])) || s[e] == '/')) ++e;
  const std::string word = s.substr(i, e - i);
  UnitInfo info{};
  if (word == "x" || word == "X") return *p = e, "x";
  if (!word.empty() && ((UnitOf(word, &info) && !info.derived) || (glued && word.size() <= 4))) return *p = e, word;
  return "";
}

// The words of `s` as a name: fillers and direction words dropped, two at most.
std::string NameOf(const std::string& s, const std::set<std::string>& directions) {
  static const std::set<std::string> fillers = {"on", "in", "for", "of", "the", "at", "with", "vs", "to", "a", "an", "mixed"};
  std::vector<std::string> kept;
  for (std::string w : Words(s)) {
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.pop_back();
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.front()))) w.erase(0, 1);
    const std::string l = Lower(w);
    if (l.empty() || fillers.count(l) || directions.count(l) || Digit(l[0])) continue;
    if (kept.size() < 2) kept.push_back(l);
  }
  std::string name;
  for (const auto& w : kept) {
    if (!name.empty()) name += ' ';
    name += w;
  }
  return name;
}

// The changes of one item ("-8% to -12% large", "p99 +22%", "12% regression").
void ItemChanges(const std::string& item, const std::set<std::string>& directions, std::vector<ChangeItem>* out) {
  for (size_t p = 0; p < item.size(); ++p) {
    size_t q = p;
    std::string digits;
    double value = 0;
    bool sign = false;
    if ((p > 0 && std::isalnum(static_cast<unsigned char>(item[p - 1]))) || !SignedNumber(item, &q, &digits, &value, &sign)) continue;
    std::vector<ChangeItem> found{{value, digits, UnitAt(item, &q), "", 0}};
    if (item.compare(q, 4, " to ") == 0) {  // "+2% to +9%": the span's far end
      size_t r = q + 4;
      std::string d2;
      double v2 = 0;
      bool s2 = false;
      if (SignedNumber(item, &r, &d2, &v2, &s2)) {
        ChangeItem far{v2, d2, UnitAt(item, &r), "", 2};
        if (far.unit.empty()) far.unit = found[0].unit;
        found[0].end = 1;
        found.push_back(far);
        q = r;
      }
    }
    const std::string after = NameOf(item.substr(q), directions), before = NameOf(item.substr(0, p), directions);
    // "12% regression", "2x faster": the direction word right after the figure.
    const std::vector<std::string> next = Words(Lower(item.substr(q)));
    const bool directed = !next.empty() && directions.count(next[0]) > 0;
    if (!sign && !directed) return;  // "95.3%": a share, no change
    for (auto& f : found) f.name = after.empty() ? before : after;
    out->insert(out->end(), found.begin(), found.end());
    return;
  }
}

// The column of `t` whose filled cells state changes: most of them (two at
// least), or any under a header naming an impact ("Measured Impact",
// "Result"; change_headers of table.json); npos for none.
size_t ChangeColumn(const TableBlock& t) {
  static const auto* headers = new std::set<std::string>(DataWords("data/reader/table.json", "change_headers"));
  for (size_t c = 1; c < t.header.size(); ++c) {
    int filled = 0, changes = 0;
    for (const auto& row : t.rows) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      ++filled;
      changes += ChangeItems(Unticked(row[c])).empty() ? 0 : 1;
    }
    bool named = false;
    for (const auto& w : Words(Lower(Unticked(t.header[c])))) named = named || headers->count(w) > 0;
    if ((changes >= 2 && 2 * changes >= filled) || (named && changes >= 1)) return c;
  }
  return std::string::npos;
}

// The row's own measurement a change cell's aside gives: the far side of
// an arrow ("(3.2→3.46 t/s)": 3.46) or the near side of "vs" ("(8.83 vs
// 7.48 ms)": 8.83), in the unit written after it or after the other side.
// False when the cell has no such aside; the other side (the run it was
// compared with) is no figure of this row.
bool AsideMeasurement(const std::string& cell, std::string* digits, std::string* unit) {
  const size_t open = cell.find('('), close = cell.find(')', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return false;
  std::string in = cell.substr(open + 1, close - open - 1);
  for (const char* arrow : {"\xE2\x86\x92", "->"})
    if (const size_t a = in.find(arrow); a != std::string::npos) in = in.substr(0, a) + " > " + in.substr(a + std::string(arrow).size());
  const size_t sep = in.find(" > ") != std::string::npos ? in.find(" > ") : in.find(" vs ");
  if (sep == std::string::npos) return false;
  const bool arrow = in.compare(sep, 3, " > ") == 0;
  const std::string near = parse_detail::Trim(in.substr(0, sep)), far = parse_detail::Trim(in.substr(sep + (arrow ? 3 : 4)));
  auto number = [](const std::string& side, std::string* d, std::string* u) {
    size_t p = side.find_first_not_of("~ ");
    if (p == std::string::npos) return false;
    std::string ds;
    double v = 0;
    bool sign = false;
    if (!SignedNumber(side, &p, &ds, &v, &sign) || sign) return false;
    *d = ds;
    *u = UnitAt(side, &p);
    return true;
  };
  std::string d1, u1, d2, u2;
  if (!number(near, &d1, &u1) || !number(far, &d2, &u2)) return false;
  *digits = arrow ? d2 : d1;
  *unit = (arrow ? u2 : u1).empty() ? (arrow ? u1 : u2) : (arrow ? u2 : u1);
  UnitInfo info{};
  return !unit->empty() && *unit != "%" && UnitOf(*unit, &info) && !info.derived;
}

// Whether a column of `t` after the first but `change` holds decimal numbers
// in most of its filled cells ("| Test | run A | run B | Δ |" over "12.63 | 12.18 |
// −3.6%"): the runs' own figures, no ledger of changes.
bool NumberColumnBeside(const TableBlock& t, size_t change) {
  for (size_t c = 1; c < t.header.size(); ++c) {
    if (c == change) continue;
    int filled = 0, numbers = 0;
    for (const auto& row : t.rows) {
      if (c >= row.size() || EmptyCell(row[c])) continue;
      ++filled;
      std::string unit;  // decimals: a run's figures, not an ordinal or an id ("| 3 |", "| #42 |")
      numbers += NumberCell(Unticked(row[c]), &unit) && Unticked(row[c]).find('.') != std::string::npos ? 1 : 0;
    }
    if (numbers > 0 && 2 * numbers >= filled) return true;
  }
  return false;
}

}  // namespace

std::vector<ChangeItem> ChangeItems(const std::string& cell) {
  static const auto* directions = new std::set<std::string>(DataWords("data/reader/table.json", "change_directions"));
  std::vector<ChangeItem> out;
  for (const auto& item : Items(ChangeText(cell)))
    if (Words(item).size() <= 8) ItemChanges(item, *directions, &out);  // a sentence states no change of a ledger's
  return out;
}

std::string ChangeMetric(const ChangeItem& item) {
  std::string m = item.name.empty() ? std::string() : SnakeKey(item.name);
  m += m.empty() ? "change" : "_change";
  if (item.end == 1) m += "_from";
  if (item.end == 2) m += "_to";
  if (item.unit == "%") {
    m += "_pct";
  } else if (!item.unit.empty()) {
    m += '_';
    m += SnakeKey(item.unit);
  }
  return m;
}

bool LedgerChangeMetric(const std::string& metric) {
  return metric.rfind("change", 0) == 0 || metric.find("_change") != std::string::npos;
}

bool LedgerChanges(const StoredRun& run) {
  if (run.metrics.empty()) return false;
  for (const auto& [m, v] : run.metrics)
    if (!run.derived.count(m) || !LedgerChangeMetric(m)) return false;
  return true;
}

bool LedgerTableFigures(const TableBlock& t, const std::vector<ColumnInfo>& cols, const Config& context,
                        const EntryCtx& x, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  // A column of a run's own metric makes no ledger; a change column ("Δ") may be one.
  if (std::any_of(cols.begin(), cols.end(), [](const ColumnInfo& c) { return !c.metric.empty() && !c.derived; })) return false;
  const size_t change = ChangeColumn(t);
  if (change == std::string::npos) return false;
  // "| Test | run A | run B | Δ |": the runs' decimals beside the change name no metric; each row's are listed.
  const bool beside = NumberColumnBeside(t, change);
  const size_t before = out->size();
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    if (change >= row.size()) continue;
    const std::vector<ChangeItem> items = ChangeItems(Unticked(row[change]));
    if (items.empty()) continue;
    Config cfg = context;
    std::string label;
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c)  // a sentence ("Spills to local memory.") keys nothing
      if (const std::string cell = Unticked(row[c]); c != change && Words(cell).size() <= 8 && cell.find(". ") == std::string::npos)
        LabelCell(t.header[c], cell, x, &cfg, &label);
    for (const auto& [k, v] : LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds)) cfg[k] = v;
    const int line = t.line + 2 + static_cast<int>(r);
    if (beside && unread) unread->push_back({line, RowText(row), "decimals of columns that name no metric, beside the row's change: not read"});
    StoredRun run = NewRecorded(x, cfg, line);
    if (std::string digits, unit; AsideMeasurement(Unticked(row[change]), &digits, &unit)) {
      UnitInfo info{};
      UnitOf(unit, &info);
      run.metrics[info.metric] = ToStored(std::strtod(digits.c_str(), nullptr), info.factor);
      run.units[info.metric] = unit;
      run.decimals[info.metric] = WrittenDecimals(digits);
    }
    for (const ChangeItem& item : items) {
      const std::string m = ChangeMetric(item);
      if (run.metrics.count(m)) continue;
      run.metrics[m] = item.value;
      run.units[m] = item.unit;
      run.decimals[m] = WrittenDecimals(item.digits);
      run.derived.insert(m);
    }
    out->push_back({std::move(run), line, RowText(row), false, true});
  }
  return out->size() > before;
}

}  // namespace moelog::logbook::reader
