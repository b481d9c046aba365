#include "logbook/reader/table_slashcols.h"

#include <algorithm>

#include "logbook/numbers.h"

namespace moelog::logbook::reader {

namespace {

constexpr size_t kMinParts = 2, kMaxParts = 6;

std::string Unmarked(const std::string& cell) {
  std::string out;
  for (char c : cell)
    if (c != '*' && c != '`') out += c;
  return parse_detail::Trim(out);
}

// The parts of `s` between slashes, trimmed.
std::vector<std::string> SlashParts(const std::string& s) {
  std::vector<std::string> parts;
  for (size_t from = 0;;) {
    const size_t slash = s.find('/', from);
    parts.push_back(parse_detail::Trim(s.substr(from, slash == std::string::npos ? std::string::npos : slash - from)));
    if (slash == std::string::npos) return parts;
    from = slash + 1;
  }
}

// A cell of no figure: empty, a dash, or words ("never better than plain MTP 3").
bool NoValue(const std::string& cell) {
  const std::string c = Unmarked(cell);
  const size_t p = c.find_first_not_of('~');
  return p == std::string::npos || c == "n/a" || !std::isdigit(static_cast<unsigned char>(c[p]));
}

// The name of each number of column `c`'s lists, or none.
std::vector<std::string> ColumnNames(const TableBlock& t, size_t c, const std::string& lead, const EntryCtx& x) {
  size_t n = 0, lists = 0;
  bool written_apart = false;  // "36 / 35", "0.61/0.58": figures; "64/1" under "BN/STAGES": settings
  for (const auto& row : t.rows) {
    if (c >= row.size() || NoValue(row[c])) continue;
    const auto nums = SlashNumbers(row[c]);
    if (nums.empty() || (n != 0 && nums.size() != n)) return {};
    n = nums.size(), ++lists;
    written_apart = written_apart || row[c].find(" / ") != std::string::npos ||
                    std::any_of(nums.begin(), nums.end(), [](const std::string& v) { return v.find('.') != std::string::npos; });
  }
  if (lists < 2 || !written_apart) return {};
  const std::string head = parse_detail::Trim(Unmarked(t.header[c]));
  UnitInfo unit{};
  const bool unit_head = AnyUnit(head, &unit);  // "| tok/s |" over "75 / 57 / 65": the names' unit
  if (auto names = unit_head ? std::vector<std::string>{} : HeaderListNames(t.header[c], n); !names.empty()) return names;
  auto names = ParentheticalListNames(lead, n);
  if (names.empty()) names = ParentheticalListNames(t.subheading, n);
  if (names.empty() && t.subheading.empty() && x.entry != nullptr) names = ParentheticalListNames(x.entry->heading, n);
  for (auto& name : names) name = head.empty() ? name : unit_head ? name + " (" + head + ")" : head + " " + name;
  return names;
}

// The entry's sentence right above the table (at most two lines above it).
std::string LeadText(const EntryCtx& x, int table_line) {
  const EntryCtx::Text* lead = nullptr;
  for (const auto& p : x.prose)
    if (p.end_line < table_line && p.end_line >= table_line - 2) lead = &p;
  return lead == nullptr ? "" : lead->text;
}

// The names of one clause's slash list: the first part's last word, each
// other part's first ("greedy code / prose / json": code, prose, json).
std::vector<std::string> ClauseListNames(const std::string& clause, size_t n) {
  const std::vector<std::string> parts = SlashParts(clause);
  if (parts.size() != n) return {};
  std::vector<std::string> names;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const size_t sp = p.rfind(' ');
    const std::string w = i == 0 ? (sp == std::string::npos ? p : p.substr(sp + 1)) : p.substr(0, p.find(' '));
    if (w.empty() || !std::isalpha(static_cast<unsigned char>(w[0])) || w.find('`') != std::string::npos) return {};
    names.push_back(w);
  }
  return names;
}

}  // namespace

std::vector<std::string> SlashNumbers(const std::string& cell) {
  const std::string c = Unmarked(cell);
  if (c.find('/') == std::string::npos) return {};
  std::vector<std::string> parts = SlashParts(c);
  if (parts.size() < kMinParts || parts.size() > kMaxParts) return {};
  for (const auto& p : parts)
    if (p.empty() || !std::isdigit(static_cast<unsigned char>(p[0])) || !ParseNumber(p)) return {};
  return parts;
}

std::vector<std::string> HeaderListNames(const std::string& header, size_t n) {
  std::vector<std::string> parts = SlashParts(Unmarked(header));
  if (parts.size() != n) return {};
  // "decode at 1K / 30K": the words before the first name are every name's.
  const size_t sp = parts.front().rfind(' ');
  const std::string prefix = sp == std::string::npos ? "" : parts.front().substr(0, sp + 1);
  for (size_t i = 0; i < n; ++i) {
    if (parts[i].empty() || (i > 0 && parts[i].find(" ") != std::string::npos)) return {};
    if (i > 0) parts[i] = prefix + parts[i];
  }
  return parts;
}

std::vector<std::string> ParentheticalListNames(const std::string& text, size_t n) {
  for (size_t open = text.find('('); open != std::string::npos; open = text.find('(', open + 1)) {
    const size_t close = text.find(')', open);
    if (close == std::string::npos) return {};
    // "(greedy / sampled at the defaults; `tools/bench.py`)": a clause at a time.
    const std::string inner = text.substr(open + 1, close - open - 1);
    for (size_t from = 0; from <= inner.size();) {
      const size_t cut = std::min(inner.find_first_of(",;", from), inner.size());
      if (auto names = ClauseListNames(inner.substr(from, cut - from), n); !names.empty()) return names;
      from = cut + 1;
    }
  }
  return {};
}

bool SplitSlashColumns(const TableBlock& t, const EntryCtx& x, TableBlock* split) {
  constexpr size_t kMaxCells = 4096;  // bounded: a larger table is read as it is
  if (t.header.size() * (t.rows.size() + 1) > kMaxCells) return false;
  const std::string lead = LeadText(x, t.line);
  std::vector<std::vector<std::string>> names(t.header.size());
  bool any = false;
  for (size_t c = 1; c < t.header.size(); ++c) any = !(names[c] = ColumnNames(t, c, lead, x)).empty() || any;
  if (!any) return false;
  *split = t;
  split->header.clear();
  for (auto& row : split->rows) row.clear();
  for (size_t c = 0; c < t.header.size(); ++c) {
    if (names[c].empty()) {
      split->header.push_back(t.header[c]);
      for (size_t r = 0; r < t.rows.size(); ++r) split->rows[r].push_back(c < t.rows[r].size() ? t.rows[r][c] : "");
      continue;
    }
    for (size_t k = 0; k < names[c].size(); ++k) {
      split->header.push_back(names[c][k]);
      for (size_t r = 0; r < t.rows.size(); ++r) {
        const auto nums = c < t.rows[r].size() ? SlashNumbers(t.rows[r][c]) : std::vector<std::string>{};
        split->rows[r].push_back(k < nums.size() ? nums[k] : "");
      }
    }
  }
  return true;
}

}  // namespace moelog::logbook::reader
