#include "logbook/doc/parse_logbook.h"

#include <algorithm>
#include <climits>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

#include "logbook/budgets.h"
#include "logbook/doc/command_line.h"
#include "logbook/doc/entry_ids.h"
#include "logbook/doc/regions.h"
#include "logbook/doc/stated_command.h"
#include "logbook/file_util.h"

namespace moelog::logbook {
namespace parse_detail {

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void CollectCode(const MdDocument& doc, int node, std::vector<int>* out) {
  const int end = doc.nodes[static_cast<size_t>(node)].subtree_end;
  for (int i = node; i < end; ++i)
    if (doc.nodes[static_cast<size_t>(i)].kind == MdKind::kCode) out->push_back(i);
}
}  // namespace

bool IsShellInfo(std::string_view info) {
  const std::string lang = Lower(Trim(info.substr(0, info.find(' '))));
  return lang.empty() || lang == "bash" || lang == "sh" || lang == "shell" || lang == "console" ||
         lang == "zsh" || lang == "shell-session";
}

Bullet BuildBullet(const MdDocument& doc, int item, bool with_numbers) {
  Bullet b;
  const MdNode& n = doc.nodes[item];
  b.line = n.start_line;
  b.end_line = n.end_line;
  b.content_indent = std::max(0, n.start_col - 1) + 2;
  const int para = FirstParagraph(doc, item);
  if (para >= 0) {
    b.text = Trim(InlineText(doc, para));
    b.content_indent = std::max(0, doc.nodes[para].start_col - 1);
    std::vector<int> codes;
    CollectCode(doc, para, &codes);
    for (int c : codes) b.code_spans.emplace_back(doc.nodes[c].literal);
    if (with_numbers) b.numbers = ExtractNumbers(b.text);
  }
  for (int c : n.children) {
    if (doc.nodes[c].kind != MdKind::kList) continue;
    b.children.reserve(b.children.size() + doc.nodes[c].children.size());
    for (int sub : doc.nodes[c].children)
      if (doc.nodes[sub].kind == MdKind::kItem) b.children.push_back(BuildBullet(doc, sub, with_numbers));
  }
  return b;
}

void AddStatedNumbers(Bullet* b) {
  b->numbers = ExtractNumbers(b->text);
  for (auto& c : b->children) AddStatedNumbers(&c);
}

FencedBlock BuildFenced(const MdDocument& doc, int node, const std::vector<std::string_view>& lines) {
  (void)lines;
  const MdNode& n = doc.nodes[node];
  FencedBlock f;
  f.info = Trim(n.info);
  f.text = n.literal;
  f.line = n.start_line;
  f.end_line = n.end_line;
  f.indent = std::max(0, n.start_col - 1);
  return f;
}

CommandText FencedCommand(const MdDocument& doc, int node) {
  const MdNode& n = doc.nodes[node];
  CommandText cmd;
  cmd.text = n.literal;
  cmd.joined = JoinContinuations(n.literal);
  cmd.line = n.start_line;
  cmd.end_line = n.end_line;
  cmd.fenced = true;
  return cmd;
}

TableBlock BuildTable(const MdDocument& doc, int node) {
  TableBlock t;
  const MdNode& n = doc.nodes[node];
  t.line = n.start_line;
  t.end_line = n.end_line;
  for (int r : n.children) {
    if (doc.nodes[r].kind != MdKind::kTableRow) continue;
    std::vector<std::string> cells;
    for (int c : doc.nodes[r].children) cells.push_back(Trim(InlineText(doc, c)));
    if (doc.nodes[r].header_row) t.header = std::move(cells);
    else t.rows.push_back(std::move(cells));
  }
  return t;
}

void CommonDiagnostics(std::string_view text, const MdDocument& doc,
                       const std::vector<std::string_view>& lines, const std::string& file,
                       std::vector<Diagnostic>* out) {
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + nul, '\n'));
    out->push_back({file, line, "NUL byte: this does not look like a Markdown text file"});
  }
  if (doc.depth_limited)
    out->push_back({file, 1, "nesting deeper than " + std::to_string(MdDocument::kMaxDepth) +
                                 " levels; the deeper content is ignored"});
  for (size_t i = 0; i < doc.nodes.size(); ++i) {
    const MdNode& n = doc.nodes[i];
    if (n.kind != MdKind::kCodeBlock || !n.fenced || n.start_line <= 0) continue;
    auto fence_of = [&](int line) -> std::string_view {
      if (line < 1 || line > static_cast<int>(lines.size())) return {};
      std::string_view l = lines[line - 1];
      size_t p = 0;
      while (p < l.size() && (l[p] == ' ' || l[p] == '\t' || l[p] == '>')) ++p;
      l.remove_prefix(p);
      size_t q = 0;
      while (q < l.size() && (l[q] == '`' || l[q] == '~')) ++q;
      return l.substr(0, q);
    };
    const std::string_view open = fence_of(n.start_line);
    const std::string_view close = fence_of(n.end_line);
    const bool closed = n.end_line > n.start_line && close.size() >= open.size() && !open.empty() &&
                        close[0] == open[0];
    if (!closed)
      out->push_back({file, n.start_line, "code fence is never closed (it runs to the end of its block)"});
  }
}

DocumentText ReadDocument(std::string_view text, const std::string& file, int* line_count,
                          std::vector<Diagnostic>* diagnostics) {
  DocumentText d;
  d.lines = SplitLines(text);
  *line_count = static_cast<int>(d.lines.size());
  d.doc = ParseMarkdown(text, d.lines);
  CommonDiagnostics(text, d.doc, d.lines, file, diagnostics);
  return d;
}

}  // namespace parse_detail

using namespace parse_detail;

SectionKind SectionKindFromName(std::string_view name) {
  std::string s = Lower(Trim(name.substr(0, name.find('('))));
  static const std::pair<const char*, SectionKind> kNames[] = {
      {"scope", SectionKind::kScope},
      {"links", SectionKind::kLinks},
      {"baseline", SectionKind::kBaseline},
      {"stop criteria", SectionKind::kStopCriteria},
      {"experiment matrix", SectionKind::kExperimentMatrix},
      {"command templates", SectionKind::kCommandTemplates},
      {"experiment id prefix", SectionKind::kExperimentIdPrefix},
      {"experiment log", SectionKind::kExperimentLog},
      {"entries", SectionKind::kExperimentLog},
      {"entry log", SectionKind::kExperimentLog},
      {"log", SectionKind::kExperimentLog},
      {"research log", SectionKind::kExperimentLog},
      {"experiments", SectionKind::kExperimentLog},
      {"experiment entries", SectionKind::kExperimentLog},
      {"running log", SectionKind::kExperimentLog},
      {"negative results index", SectionKind::kNegativeResultsIndex},
      {"current status", SectionKind::kCurrentStatus},
      {"overview", SectionKind::kOverview},
      {"prerequisites", SectionKind::kPrerequisites},
      {"notes", SectionKind::kNotes},
  };
  for (const auto& [n, k] : kNames)
    if (s == n) return k;
  return SectionKind::kUnknown;
}

namespace {
// ASCII classes (the C locale's isdigit/isalnum, without the calls).
inline bool IsDigitChar(char c) { return c >= '0' && c <= '9'; }
inline bool IsWordChar(char c) {
  return IsDigitChar(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
}  // namespace

namespace {

// True when the digits at `start` continue a word, a version or a value
// ("v5p", "x=8", "1.2.3", "4-8", "10:30", "3/4", "1,2"): no number.
bool GluedBefore(std::string_view t, size_t start) {
  const char prev = start > 0 ? t[start - 1] : ' ';
  return IsWordChar(prev) || prev == '=' || prev == '.' ||
         ((prev == '-' || prev == ':' || prev == '/' || prev == ',') && start > 1 && IsDigitChar(t[start - 2]));
}

// The end of the number whose digits start at i: digits, thousands groups
// and a fraction.
size_t NumberEnd(std::string_view t, size_t i) {
  const size_t n = t.size();
  size_t j = i;
  while (j < n) {
    if (IsDigitChar(t[j])) { ++j; continue; }
    // A thousands group: ",ddd" not followed by a fourth digit.
    if (t[j] == ',' && j + 3 < n && IsDigitChar(t[j + 1]) && IsDigitChar(t[j + 2]) && IsDigitChar(t[j + 3]) &&
        (j + 4 >= n || !IsDigitChar(t[j + 4]))) {
      j += 4;
      continue;
    }
    break;
  }
  if (j + 1 < n && t[j] == '.' && IsDigitChar(t[j + 1])) {
    ++j;
    while (j < n && IsDigitChar(t[j])) ++j;
  }
  return j;
}

// The unit after a number ending at j: directly attached or after up to two
// spaces / closing backticks. *k is where the unit ends (j without one).
std::string_view UnitAt(std::string_view t, size_t j, size_t* k) {
  static constexpr std::string_view kUnits[] = {"TF/s", "tokens/s", "tok/s", "GB/s", "MiB", "GiB",
                                                "ms",   "s",        "%",     "x"};
  const size_t n = t.size();
  size_t max_skip = 0;
  if (j < n && (t[j] == ' ' || t[j] == '`')) max_skip = (j + 1 < n && (t[j + 1] == ' ' || t[j + 1] == '`')) ? 2 : 1;
  *k = j;
  for (std::string_view u : kUnits) {
    for (size_t skip = 0; skip <= max_skip; ++skip) {
      const size_t p = j + skip;
      if (p + u.size() > n || t[p] != u[0] || t.compare(p, u.size(), u) != 0) continue;
      if (p + u.size() < n && IsWordChar(t[p + u.size()])) continue;
      *k = p + u.size();
      return u;
    }
  }
  return {};
}

// The value of the digits t[i, j), without thousands separators.
double DigitsValue(std::string_view t, size_t i, size_t j) {
  // NUL-terminated for strtod.
  char small[64];
  std::string large;
  char* digits = small;
  if (j - i >= sizeof small) {
    large.resize(j - i + 1);
    digits = large.data();
  }
  size_t m = 0;
  for (size_t q = i; q < j; ++q)
    if (t[q] != ',') digits[m++] = t[q];
  digits[m] = '\0';
  return std::strtod(digits, nullptr);
}

}  // namespace

std::vector<StatedNumber> ExtractNumbers(std::string_view t) {
  std::vector<StatedNumber> out;
  const size_t n = t.size();
  size_t i = 0;
  while (i < n) {
    if (!IsDigitChar(t[i])) { ++i; continue; }
    size_t start = i;
    const char prev = start > 0 ? t[start - 1] : ' ';
    const bool glued = GluedBefore(t, start);
    bool neg = false;
    if (!glued && (prev == '-' || prev == '+')) {
      neg = prev == '-';
      --start;
    }
    const size_t j = NumberEnd(t, i);
    size_t k = j;
    const std::string_view unit = UnitAt(t, j, &k);
    const bool attached_word = unit.empty() && j < n && IsWordChar(t[j]);
    if (!glued && !attached_word) {
      StatedNumber num;
      num.value = DigitsValue(t, i, j) * (neg ? -1 : 1);
      num.unit = std::string(unit);
      num.text = std::string(t.substr(start, j - start));
      out.push_back(std::move(num));
    }
    i = std::max(k, j);
    while (i < n && IsWordChar(t[i])) ++i;  // skip the rest of a glued token ("5b6f53c")
  }
  return out;
}

std::string JoinContinuations(std::string_view text) {
  std::string out;
  const auto lines = SplitLines(text);
  bool continuing = false;
  for (std::string_view l : lines) {
    std::string_view s = l;
    if (continuing) {
      size_t p = 0;
      while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
      s.remove_prefix(p);
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (!out.empty()) {
      out += '\n';
    }
    size_t e = s.size();
    while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    continuing = e > 0 && s[e - 1] == '\\';
    if (continuing) {
      --e;
      while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    }
    out.append(s.substr(0, e));
  }
  return Trim(out);
}

std::string BulletLabel(std::string_view text) {
  bool in_code = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '`') in_code = !in_code;
    else if (text[i] == ':' && !in_code) return Trim(text.substr(0, i));
  }
  return "";
}

namespace {

struct HeadingParts {
  std::string date, time, rest;
  size_t rest_offset = 0;  // offset of `rest` in the parsed string
};

bool Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// " HH:MM" at `p` (after the date's blanks): the time in `out`, `p` past it.
bool ParseHeadingTime(std::string_view s, size_t* p, HeadingParts* out) {
  size_t h = *p;
  size_t q = h;
  while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
  if (q - h < 1 || q - h > 2 || q >= s.size() || s[q] != ':' || !Digits(s, q + 1, 2)) return false;
  const int hour = std::atoi(std::string(s.substr(h, q - h)).c_str());
  const int minute = std::atoi(std::string(s.substr(q + 1, 2)).c_str());
  if (hour > 23 || minute > 59) return false;
  out->time = (q - h == 1 ? "0" : "") + std::string(s.substr(h, q - h)) + ":" + std::string(s.substr(q + 1, 2));
  *p = q + 3;
  return true;
}

// ISO seconds and their fraction after HH:MM (":00", ":07.125"): skipped.
void SkipSeconds(std::string_view s, size_t* p) {
  size_t q = *p;
  if (q >= s.size() || s[q] != ':' || !Digits(s, q + 1, 2)) return;
  q += 3;
  if (q + 1 < s.size() && s[q] == '.' && std::isdigit(static_cast<unsigned char>(s[q + 1]))) {
    ++q;
    while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
  }
  *p = q;
}

// A time zone after the time ("Z", "+02:00", " UTC", " PDT"): skipped
// (entries are ordered by the time as written).
void SkipTimeZone(std::string_view s, size_t* p) {
  size_t q = *p;
  if (q < s.size() && s[q] == 'Z') {
    *p = q + 1;
    return;
  }
  if (q < s.size() && (s[q] == '+' || s[q] == '-') && Digits(s, q + 1, 2)) {
    size_t e = q + 3;
    if (e < s.size() && s[e] == ':') ++e;
    if (Digits(s, e, 2)) {
      *p = e + 2;
      return;
    }
  }
  while (q < s.size() && s[q] == ' ') ++q;
  size_t e = q;
  while (e < s.size() && std::isupper(static_cast<unsigned char>(s[e]))) ++e;
  if (e - q >= 2 && e - q <= 4 && (e == s.size() || s[e] == ' ')) *p = e;
}

// The month a word names ("Apr", "april", "Sept"), 1..12, or 0.
int MonthOf(std::string_view w) {
  static const char* kNames[] = {"january", "february", "march",     "april",   "may",      "june",
                                 "july",    "august",   "september", "october", "november", "december"};
  if (w.size() < 3 || w.size() > 9) return 0;
  std::string l;
  for (char c : w) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l.back() == '.') l.pop_back();
  for (int m = 0; m < 12; ++m) {
    const std::string_view name = kNames[m];
    if (l == name || l == name.substr(0, 3) || (m == 8 && l == "sept")) return m + 1;
  }
  return 0;
}

// "Apr 4, 2026", "April 04 2026", "4 Apr 2026": the date as YYYY-MM-DD in
// *iso and the characters it took, or false.
bool MonthNameDate(std::string_view s, std::string* iso, size_t* used) {
  auto word = [&](size_t p, size_t* e, bool digits) {
    *e = p;
    while (*e < s.size() && *e - p < 10 &&
           (digits ? std::isdigit(static_cast<unsigned char>(s[*e])) != 0
                   : std::isalpha(static_cast<unsigned char>(s[*e])) != 0 || s[*e] == '.'))
      ++*e;
    return s.substr(p, *e - p);
  };
  auto blanks = [&](size_t p) {
    while (p < s.size() && (s[p] == ' ' || s[p] == ',')) ++p;
    return p;
  };
  size_t e = 0, e2 = 0, e3 = 0;
  const bool day_first = !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]));
  const std::string_view a = word(0, &e, day_first), b = word(blanks(e), &e2, !day_first);
  const std::string_view year = word(blanks(e2), &e3, true);
  const int month = MonthOf(day_first ? b : a);
  const std::string_view day = day_first ? a : b;
  if (month == 0 || day.empty() || day.size() > 2 || year.size() != 4) return false;
  const int d = std::atoi(std::string(day).c_str());
  if (d < 1 || d > 31) return false;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.4s-%02d-%02d", std::string(year).c_str(), month, d);
  *iso = buf;
  *used = e3;
  return true;
}

// A heading's date written another way than YYYY-MM-DD at its start
// ("[2026-04-02 10:00] title", "2026/04/03 title", "Apr 4, 2026 - title"):
// the heading rewritten with the date as YYYY-MM-DD, and how much longer the
// original's start was (for rest_offset); false when none.
bool OtherDateForm(std::string_view s, std::string* canon, size_t* extra) {
  std::string iso;
  size_t used = 0;
  if (!s.empty() && s[0] == '[') {
    const size_t close = s.find(']');
    if (close == std::string_view::npos || close > 40 || close < 2) return false;
    *canon = std::string(s.substr(1, close - 1)) + std::string(s.substr(close + 1));
    *extra = 2;
    return true;
  }
  if (Digits(s, 0, 4) && s.size() >= 10 && s[4] == '/' && Digits(s, 5, 2) && s[7] == '/' && Digits(s, 8, 2)) {
    *canon = std::string(s.substr(0, 4)) + "-" + std::string(s.substr(5, 2)) + "-" + std::string(s.substr(8));
    *extra = 0;
    return true;
  }
  if (!MonthNameDate(s, &iso, &used) || used < iso.size()) return false;  // "4 May 2026": 10 characters at least
  *canon = iso + std::string(s.substr(used));
  *extra = used - iso.size();
  return true;
}

bool ParseIsoHeadingParts(std::string_view s, HeadingParts* out);

// After a heading's date: a weekday ("(Tue)", "Tuesday,"), a comma or an
// '@' before the time ("2026-04-01, 14:05", "2026-04-01 @ 14:05"): skipped.
void SkipWeekdayAndAt(std::string_view s, size_t* p) {
  static const std::set<std::string> kDays = {"mon",    "tue",     "tues",      "wed",      "thu",    "thur",
                                               "thurs",  "fri",     "sat",       "sun",      "monday", "tuesday",
                                               "wednesday", "thursday", "friday", "saturday", "sunday"};
  size_t q = *p;
  const bool paren = q < s.size() && s[q] == '(';
  size_t w = q + (paren ? 1 : 0), e = w;
  while (e < s.size() && e - w < 10 && std::isalpha(static_cast<unsigned char>(s[e]))) ++e;
  std::string day;
  for (size_t i = w; i < e; ++i) day += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
  const bool weekday = kDays.count(day) > 0 && (e >= s.size() || !std::isalpha(static_cast<unsigned char>(s[e])));
  if (weekday && (!paren || (e < s.size() && s[e] == ')'))) q = e + (paren ? 1 : 0);
  while (q < s.size() && (s[q] == ' ' || s[q] == ',' || s[q] == '@')) ++q;
  // Only when a time follows, or the weekday was there: "2026-04-01, note" stays as it was.
  if (weekday || (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q])))) *p = q;
}

// "YYYY-MM-DD[ HH:MM][ - rest]" (dash may be -, – or —, or a colon; a dated
// heading without a time is an entry too), or the date written another way
// (OtherDateForm).
bool ParseHeadingParts(std::string_view s, HeadingParts* out) {
  if (ParseIsoHeadingParts(s, out)) return true;
  std::string canon;
  size_t extra = 0;
  if (s.size() > 400 || !OtherDateForm(s, &canon, &extra) || !ParseIsoHeadingParts(canon, out))
    return false;
  out->rest_offset += extra;
  return true;
}

// "2:05 PM", "11:30am": the time on a 24-hour clock; `p` past the AM/PM.
void TwelveHourClock(std::string_view s, size_t* p, HeadingParts* out) {
  size_t q = *p;
  while (q < s.size() && s[q] == ' ') ++q;
  if (q + 2 > s.size()) return;
  const char a = static_cast<char>(std::tolower(static_cast<unsigned char>(s[q])));
  const char m = static_cast<char>(std::tolower(static_cast<unsigned char>(s[q + 1])));
  if ((a != 'a' && a != 'p') || m != 'm' || (q + 2 < s.size() && std::isalpha(static_cast<unsigned char>(s[q + 2]))))
    return;
  int hour = std::atoi(out->time.substr(0, 2).c_str());
  if (hour < 1 || hour > 12) return;
  hour = (hour % 12) + (a == 'p' ? 12 : 0);
  out->time = (hour < 10 ? "0" : "") + std::to_string(hour) + out->time.substr(2);
  *p = q + 2;
}

bool ParseIsoHeadingParts(std::string_view s, HeadingParts* out) {
  if (!Digits(s, 0, 4) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' ||
      !Digits(s, 8, 2))
    return false;
  const int month = std::atoi(std::string(s.substr(5, 2)).c_str());
  const int day = std::atoi(std::string(s.substr(8, 2)).c_str());
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  size_t p = 10;
  const bool iso = p < s.size() && s[p] == 'T';  // 2026-05-05T23:36Z
  if (p < s.size() && s[p] != ' ' && s[p] != ':' && s[p] != ',' && !iso) return false;
  while (p < s.size() && (s[p] == ' ' || (iso && p == 10))) ++p;
  out->date = std::string(s.substr(0, 10));
  out->time.clear();
  if (!iso) SkipWeekdayAndAt(s, &p);
  if (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p])) && !ParseHeadingTime(s, &p, out)) return false;
  if (iso && out->time.empty()) return false;
  if (!out->time.empty()) {
    SkipSeconds(s, &p);
    TwelveHourClock(s, &p, out);
    SkipTimeZone(s, &p);
  }
  while (p < s.size() && s[p] == ' ') ++p;
  if (s.substr(p, 1) == "-" || s.substr(p, 2) == ": ") p += 1;
  else if (s.substr(p, 3) == "\xE2\x80\x93" || s.substr(p, 3) == "\xE2\x80\x94") p += 3;
  else if (p < s.size() && !std::isalpha(static_cast<unsigned char>(s[p]))) return false;  // "2026-02-17 Kickoff"
  while (p < s.size() && s[p] == ' ') ++p;
  out->rest_offset = p;
  out->rest = Trim(s.substr(std::min(p, s.size())));
  return true;
}

// The explicit ID a heading's first word gives, as researchers write it:
// "BMFU-001", "BMFU-001:" (ID: title), "F8W-001/002" (two entries in one:
// the first), "**HC-001**"; "" when the word is no ID.
std::string IdOfWord(std::string_view w) {
  while (!w.empty() && (w.back() == ':' || w.back() == ',' || w.back() == '*' || w.back() == '`')) w.remove_suffix(1);
  while (!w.empty() && (w.front() == '*' || w.front() == '`')) w.remove_prefix(1);
  if (const size_t slash = w.find('/'); slash != std::string_view::npos) w = w.substr(0, slash);
  // A range of IDs ("CW-PERF-004..012"): its first.
  if (const size_t dots = w.find(".."); dots != std::string_view::npos) w = w.substr(0, dots);
  return IsExplicitId(w) ? std::string(w) : "";
}

// "ID — title (YYYY-MM-DD[ HH:MM])": an entry whose heading starts with its
// ID and ends with its date. The parts as ParseHeadingParts gives them, the
// rest being the heading without the date.
bool ParseIdFirstHeading(std::string_view s, HeadingParts* out) {
  const size_t sp = s.find(' ');
  if (sp == std::string_view::npos || IdOfWord(s.substr(0, sp)).empty()) return false;
  std::string_view t = s;
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  if (t.empty() || t.back() != ')') return false;
  const size_t open = t.rfind('(');
  if (open == std::string_view::npos || open < sp) return false;
  HeadingParts date;
  if (!ParseHeadingParts(t.substr(open + 1, t.size() - open - 2), &date) || !date.rest.empty()) return false;
  out->date = date.date;
  out->time = date.time;
  out->rest_offset = 0;
  out->rest = Trim(t.substr(0, open));
  return true;
}

// "ID — DATE — title", "ID (DATE): title", "Run 12 — DATE — title", "Day 3
// (DATE): title": an ID (or a word and a number) first, then the date, then
// the title. The parts as ParseHeadingParts gives them, the rest being the
// first words and the title ("ID title").
bool ParseIdThenDateHeading(std::string_view s, HeadingParts* out) {
  auto word_end = [&](size_t p) {
    while (p < s.size() && s[p] != ' ' && p < 48) ++p;
    return p;
  };
  auto trimmed = [](std::string_view w) {
    while (!w.empty() && (w.back() == ':' || w.back() == ',')) w.remove_suffix(1);
    return w;
  };
  size_t p = word_end(0);
  std::string head(trimmed(s.substr(0, p)));
  if (IdOfWord(head).empty()) {
    // "Run 12", "Day 3", "Entry 4": a word and a number.
    const size_t q = word_end(std::min(p + 1, s.size()));
    const std::string_view num = trimmed(s.substr(std::min(p + 1, s.size()), q - std::min(p + 1, s.size())));
    if (head.empty() || !std::all_of(head.begin(), head.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) ||
        num.empty() || !std::all_of(num.begin(), num.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return false;
    head += " " + std::string(num);
    p = q;
  }
  while (p < s.size() && (s[p] == ' ' || s[p] == ':' || s[p] == '-')) ++p;
  if (s.substr(p, 3) == "\xE2\x80\x93" || s.substr(p, 3) == "\xE2\x80\x94") p += 3;
  while (p < s.size() && s[p] == ' ') ++p;
  std::string rest_text(s.substr(p));
  if (p < s.size() && s[p] == '(') {  // "(DATE[ TIME])": the title after it
    const size_t close = s.find(')', p);
    if (close == std::string_view::npos || close - p > 40) return false;
    rest_text = std::string(s.substr(p + 1, close - p - 1)) + " -" + std::string(s.substr(close + 1));
  }
  HeadingParts date;
  if (!ParseHeadingParts(rest_text, &date)) return false;
  std::string_view title = date.rest;
  while (!title.empty() && (title.front() == ':' || title.front() == ' ' || title.front() == '-')) title.remove_prefix(1);
  out->date = date.date;
  out->time = date.time;
  out->rest_offset = 0;
  out->rest = Trim(head + " " + std::string(title));
  return true;
}

bool ParseEntryHeading(const std::string& text, Entry* e) {
  HeadingParts parts;
  if (!ParseHeadingParts(text, &parts) && !ParseIdFirstHeading(text, &parts) && !ParseIdThenDateHeading(text, &parts))
    return false;
  e->heading = text;
  e->date = parts.date;
  e->time = parts.time;
  std::string rest = parts.rest;
  const std::string lower = [&] {
    std::string l = rest;
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l;
  }();
  const size_t conf = lower.rfind("(confidence:");
  if (conf != std::string::npos && !rest.empty() && rest.back() == ')') {
    e->confidence = Trim(std::string_view(rest).substr(conf + 12, rest.size() - 1 - (conf + 12)));
    rest = Trim(std::string_view(rest).substr(0, conf));
  }
  const size_t sp = rest.find(' ');
  if (std::string id = IdOfWord(std::string_view(rest).substr(0, sp)); !id.empty()) {
    e->explicit_id = id;
    // "F8W-001/002 title": the label keeps the word, which names both.
    if (rest.substr(0, sp).find('/') == std::string::npos)
      rest = sp == std::string::npos ? "" : Trim(std::string_view(rest).substr(sp));
    // "ID — title": the dash between them is not part of the label.
    if (rest.rfind("- ", 0) == 0 || rest == "-") rest = Trim(std::string_view(rest).substr(1));
    else if (rest.rfind("\xE2\x80\x93", 0) == 0 || rest.rfind("\xE2\x80\x94", 0) == 0)
      rest = Trim(std::string_view(rest).substr(3));
  }
  e->label = rest;
  return true;
}

// "Name (qualifier): value" -> true and the parts.
bool ParseFieldHead(const std::string& text, std::string* name, std::string* qual, std::string* value) {
  const std::string head = BulletLabel(text);
  if (head.empty() || head.size() > 48) return false;
  std::string n = head, q;
  if (size_t paren = head.find('('); paren != std::string::npos) {
    if (head.back() != ')') return false;
    n = Trim(std::string_view(head).substr(0, paren));
    q = Trim(std::string_view(head).substr(paren + 1, head.size() - paren - 2));
  }
  if (n.empty() || !std::isalpha(static_cast<unsigned char>(n[0]))) return false;
  for (char c : n)
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != ' ' && c != '-' && c != '/') return false;
  const std::string ln = [&] {
    std::string l = n;
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l;
  }();
  size_t colon = text.find(':', 0);
  // The colon that ends the head (BulletLabel skipped code spans; the head has none).
  colon = head.size() <= text.size() ? text.find(':', head.size()) : std::string::npos;
  *value = colon == std::string::npos ? "" : Trim(std::string_view(text).substr(colon + 1));
  // The Command field under the other names researchers give it.
  static const std::set<std::string> kCommandNames = {"command", "commands", "cmd", "cmds", "launch", "launched",
                                                      "launch command", "invocation", "command line", "commands run",
                                                      "repro", "reproduce", "reproduction"};
  if (kCommandNames.count(ln)) n = "Command";
  else if (ln == "result" || ln == "results") n = "Result";
  else if (const size_t sp = ln.rfind(' '); sp != std::string::npos && sp > 0 && sp < 32 &&
                                            (ln.substr(sp + 1) == "result" || ln.substr(sp + 1) == "results") &&
                                            (value->empty() || (*value)[0] == '`' ||
                                             std::isdigit(static_cast<unsigned char>((*value)[0])))) {
    // "Non-EP result:", "EP result (`ring_ag_rs`):" over figures: a Result
    // named by its first words, which qualify it as "Result (Non-EP):" would.
    // A finding in prose ("Negative result (...): decomposing ...") is not.
    q = Trim(std::string_view(n).substr(0, sp)) + (q.empty() ? "" : " " + q);
    n = "Result";
  }
  *name = n;
  *qual = q;
  return true;
}

void CollectItemCommands(const MdDocument& doc, int item, const std::string& label, bool planned, bool is_field,
                         const std::vector<std::string_view>& lines, std::vector<CommandText>* out) {
  const int para = FirstParagraph(doc, item);
  std::string child_label = label;
  if (para >= 0) {
    std::vector<int> codes;
    CollectCode(doc, para, &codes);
    const std::string text = Trim(InlineText(doc, para));
    for (int c : codes) {
      CommandText cmd;
      cmd.text = doc.nodes[c].literal;
      cmd.joined = JoinContinuations(cmd.text);
      cmd.line = doc.nodes[c].start_line > 0 ? doc.nodes[c].start_line : doc.nodes[para].start_line;
      cmd.end_line = cmd.line;
      cmd.label = label;
      cmd.planned = planned;
      if (LooksLikeCommandLine(cmd.joined)) out->push_back(std::move(cmd));
    }
    if (!is_field && codes.empty() && !text.empty() && text.back() == ':') child_label = Trim(text.substr(0, text.size() - 1));
  }
  for (int c : doc.nodes[item].children) {
    const MdNode& n = doc.nodes[c];
    if (n.kind == MdKind::kList) {
      for (int sub : n.children)
        if (doc.nodes[sub].kind == MdKind::kItem) CollectItemCommands(doc, sub, child_label, planned, false, lines, out);
    } else if (n.kind == MdKind::kCodeBlock && n.fenced && IsShellInfo(n.info)) {
      CommandText cmd = FencedCommand(doc, c);
      cmd.label = child_label;
      cmd.planned = planned;
      if (!cmd.joined.empty()) out->push_back(std::move(cmd));
    }
  }
}

void CollectTables(const MdDocument& doc, int node, std::vector<TableBlock>* out) {
  const int end = doc.nodes[static_cast<size_t>(node)].subtree_end;
  for (int i = node; i < end; ++i) {
    if (doc.nodes[static_cast<size_t>(i)].kind != MdKind::kTable) continue;
    out->push_back(BuildTable(doc, i));
    i = doc.nodes[static_cast<size_t>(i)].subtree_end - 1;  // tables do not nest
  }
}

// A paragraph's text with where its source lines start, and the text of a
// bold or emphasized node that opens it (its lead). One pass over its nodes.
Paragraph BuildParagraph(const MdDocument& doc, int idx) {
  Paragraph p;
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  p.line = n.start_line;
  p.end_line = n.end_line;
  for (int i = idx + 1; i < n.subtree_end; ++i) {
    const MdNode& c = doc.nodes[static_cast<size_t>(i)];
    if (c.kind == MdKind::kSoftBreak || c.kind == MdKind::kLineBreak) {
      p.text.push_back(' ');
      p.line_starts.push_back(p.text.size());
    } else if ((c.kind == MdKind::kStrong || c.kind == MdKind::kEmph) && i == idx + 1) {
      p.lead = Trim(InlineText(doc, i));
      AppendInlineText(doc, i, &p.text);
      i = c.subtree_end - 1;
    } else if (c.kind == MdKind::kText || c.kind == MdKind::kHtmlInline || c.kind == MdKind::kCode) {
      AppendInlineText(doc, i, &p.text);
    }
  }
  const size_t lead = p.text.find_first_not_of(' ');
  if (lead == std::string::npos) return Paragraph{};
  p.text.erase(0, lead);
  for (auto& b : p.line_starts) b = b > lead ? b - lead : 0;
  return p;
}

void AddEntryBlock(const MdDocument& doc, int idx, const std::vector<std::string_view>& lines, Entry* e) {
  const MdNode& n = doc.nodes[idx];
  if (n.kind == MdKind::kList) {
    e->fields.reserve(e->fields.size() + n.children.size());
    for (int item : n.children) {
      if (doc.nodes[item].kind != MdKind::kItem) continue;
      Field f;
      f.bullet = BuildBullet(doc, item, /*with_numbers=*/false);
      if (!ParseFieldHead(f.bullet.text, &f.name, &f.qualifier, &f.value)) {
        e->notes.push_back(std::move(f.bullet));
        continue;
      }
      if (f.name != "Command") AddStatedNumbers(&f.bullet);
      if (f.name == "Command") {
        std::string q = f.qualifier;
        for (char& c : q) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        CollectItemCommands(doc, item, "", q.find("planned") != std::string::npos, true, lines, &e->commands);
      }
      e->fields.push_back(std::move(f));
    }
    CollectTables(doc, idx, &e->tables);
    for (int i = idx; i < n.subtree_end; ++i) {
      const MdNode& c = doc.nodes[static_cast<size_t>(i)];
      if (c.kind == MdKind::kCodeBlock && c.fenced && !IsShellInfo(c.info)) e->outputs.push_back(BuildFenced(doc, i, lines));
    }
  } else if (n.kind == MdKind::kCodeBlock && n.fenced && !IsShellInfo(n.info)) {
    e->outputs.push_back(BuildFenced(doc, idx, lines));
  } else if (n.kind == MdKind::kCodeBlock && n.fenced && IsShellInfo(n.info)) {
    CommandText cmd = FencedCommand(doc, idx);
    if (!cmd.joined.empty()) e->commands.push_back(std::move(cmd));
  } else if (n.kind == MdKind::kTable) {
    e->tables.push_back(BuildTable(doc, idx));
  } else if (n.kind == MdKind::kHeading) {
    e->subheadings.push_back({n.start_line, Trim(InlineText(doc, idx))});
  } else if (n.kind == MdKind::kParagraph) {
    if (Paragraph p = BuildParagraph(doc, idx); !p.text.empty()) e->paragraphs.push_back(std::move(p));
  }
}

void AddSectionBlock(const MdDocument& doc, int idx, const std::vector<std::string_view>& lines, Section* s) {
  const MdNode& n = doc.nodes[idx];
  if (n.kind == MdKind::kList) {
    for (int item : n.children)
      if (doc.nodes[item].kind == MdKind::kItem) s->bullets.push_back(BuildBullet(doc, item));
    CollectTables(doc, idx, &s->tables);
  } else if (n.kind == MdKind::kCodeBlock) {
    s->blocks.push_back(BuildFenced(doc, idx, lines));
  } else if (n.kind == MdKind::kTable) {
    s->tables.push_back(BuildTable(doc, idx));
  } else if (n.kind == MdKind::kParagraph && s->kind == SectionKind::kExperimentIdPrefix) {
    // A prefix written as a plain paragraph: keep it as a bullet-like line.
    Bullet b;
    b.text = Trim(InlineText(doc, idx));
    b.line = n.start_line;
    b.end_line = n.end_line;
    std::vector<int> codes;
    CollectCode(doc, idx, &codes);
    for (int c : codes) b.code_spans.emplace_back(doc.nodes[c].literal);
    s->bullets.push_back(std::move(b));
  }
}

int LastNonBlank(const std::vector<std::string_view>& lines, int from, int floor) {
  int l = from;
  while (l > floor && Trim(lines[l - 1]).empty()) --l;
  return l;
}

std::string PrefixFrom(const Section& s) {
  for (const auto& b : s.bullets) {
    if (!b.code_spans.empty()) return Trim(b.code_spans[0]);
    std::string t = Trim(b.text);
    if (!t.empty()) return t.substr(0, t.find(' '));
  }
  return "";
}

}  // namespace

bool parse_detail::EntryHeadingRest(std::string_view s, size_t* rest_offset) {
  HeadingParts parts;
  if (!ParseHeadingParts(s, &parts)) return false;
  *rest_offset = std::min(parts.rest_offset, s.size());
  return true;
}

namespace {

// moelog's own regions are its output, not the logbook's words: the bullets
// (a list of figures placed on no row, notes) and tables inside them belong
// to no entry field, so reading a Result never reads moelog's last output.
void DropRegionContent(std::string_view text, const std::string& file, Logbook* lb) {
  const RegionScan scan = FindRegions(text, file);
  if (scan.regions.empty()) return;
  auto inside = [&](int line) { return scan.Holds(line); };
  std::function<void(Bullet*)> prune = [&](Bullet* b) {
    b->children.erase(std::remove_if(b->children.begin(), b->children.end(),
                                     [&](const Bullet& c) { return inside(c.line); }),
                      b->children.end());
    for (auto& c : b->children) prune(&c);
  };
  for (auto& e : lb->entries) {
    // A region written at the entry's level (the entry has no Result field
    // to hold it): its bullets are neither fields nor notes of the entry.
    e.fields.erase(std::remove_if(e.fields.begin(), e.fields.end(),
                                  [&](const Field& f) { return inside(f.bullet.line); }),
                   e.fields.end());
    e.notes.erase(std::remove_if(e.notes.begin(), e.notes.end(), [&](const Bullet& b) { return inside(b.line); }),
                  e.notes.end());
    e.paragraphs.erase(std::remove_if(e.paragraphs.begin(), e.paragraphs.end(),
                                      [&](const Paragraph& p) { return inside(p.line); }),
                       e.paragraphs.end());
    for (auto& f : e.fields) prune(&f.bullet);
    for (auto& b : e.notes) prune(&b);
    e.tables.erase(std::remove_if(e.tables.begin(), e.tables.end(),
                                  [&](const TableBlock& t) { return inside(t.line); }),
                   e.tables.end());
  }
}

// The key=value list of a pin comment line ("<!-- moelog: k=v k2=v2 -->",
// commas or spaces between pairs); nullopt when the line is no pin comment
// (a region marker, other text); an error text when it is one but malformed.
std::optional<std::vector<Pin>> PinsOfLine(std::string_view line, int number, std::string* error) {
  const std::string t = Trim(line);
  static constexpr std::string_view kOpen = "<!-- moelog:", kClose = "-->";
  if (t.size() < kOpen.size() + kClose.size() || t.compare(0, kOpen.size(), kOpen) != 0 ||
      t.compare(t.size() - kClose.size(), kClose.size(), kClose) != 0)
    return std::nullopt;
  const std::string body = t.substr(kOpen.size(), t.size() - kOpen.size() - kClose.size());
  if (body.empty() || (body[0] != ' ' && body[0] != '\t')) return std::nullopt;  // moelog:begin, :end, :chart
  std::vector<Pin> pins;
  std::string word;
  auto flush = [&]() {
    if (word.empty()) return true;
    const size_t eq = word.find('=');
    const bool key_ok = eq != std::string::npos && eq > 0 && std::all_of(word.begin(), word.begin() + eq, [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!key_ok || eq + 1 == word.size()) {
      *error = "expected key=value in a moelog pin (e.g. <!-- moelog: ep_dispatch=dense_masked -->), got '" + word + "'";
      return false;
    }
    pins.push_back({word.substr(0, eq), word.substr(eq + 1), number});
    word.clear();
    return true;
  };
  for (char c : body) {
    if (c == ' ' || c == '\t' || c == ',') {
      if (!flush()) return std::vector<Pin>{};
    } else {
      word += c;
    }
  }
  if (!flush()) return std::vector<Pin>{};
  if (pins.empty()) *error = "an empty moelog pin";
  return pins;
}

// Pin comments, whole lines outside code blocks, moelog's regions and the
// Stop Criteria section (where `<!-- moelog: ... -->` holds a predicate):
// in an entry its own, elsewhere the logbook's.
void CollectPins(std::string_view text, const std::vector<std::string_view>& lines, const MdDocument& doc,
                 Logbook* lb) {
  // Candidate lines first (a prefix test, no allocation): most logbooks have none.
  std::vector<int> candidates;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    const std::string_view l = lines[static_cast<size_t>(i)];
    const size_t b = l.find_first_not_of(" \t");
    if (b != std::string_view::npos && l.compare(b, 12, "<!-- moelog:") == 0) candidates.push_back(i + 1);
  }
  if (candidates.empty()) return;
  std::vector<std::pair<int, int>> skip;
  for (const auto& n : doc.nodes)
    if (n.kind == MdKind::kCodeBlock) skip.push_back({n.start_line, n.end_line});
  for (const auto& r : FindRegions(text, lb->file).regions) skip.push_back({r.begin_line, r.end_line});
  for (const auto& s : lb->sections)
    if (s.kind == SectionKind::kStopCriteria) skip.push_back({s.heading_line, s.end_line});
  // The skipped spans merged in line order, so each candidate is one binary
  // search (a logbook of many fenced blocks and many pins costs no product).
  std::sort(skip.begin(), skip.end());
  std::vector<std::pair<int, int>> merged;
  for (const auto& r : skip) {
    if (!merged.empty() && r.first <= merged.back().second + 1) merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  auto skipped = [&](int number) {
    auto it = std::upper_bound(merged.begin(), merged.end(), std::make_pair(number, INT_MAX));
    return it != merged.begin() && number <= std::prev(it)->second;
  };
  for (const int number : candidates) {
    std::string error;
    auto pins = PinsOfLine(lines[static_cast<size_t>(number - 1)], number, &error);
    if (!pins || skipped(number)) continue;
    if (!error.empty()) {
      lb->pin_errors.push_back({lb->file, number, error});
      continue;
    }
    // Entries are in line order: the last one headed before the line holds it when it ends after it.
    auto after = std::upper_bound(lb->entries.begin(), lb->entries.end(), number,
                                  [](int n, const Entry& e) { return n <= e.heading_line; });
    auto entry = after == lb->entries.begin() || number > std::prev(after)->end_line ? lb->entries.end()
                                                                                     : std::prev(after);
    auto& into = entry == lb->entries.end() ? lb->pins : entry->pins;
    into.insert(into.end(), pins->begin(), pins->end());
  }
}

}  // namespace

// "- Experiment ID: `BEP-001`" (or "- ID: ...") in an entry whose heading
// names none: the entry's ID.
void TakeStatedId(Entry* e) {
  if (!e->explicit_id.empty()) return;
  for (const Field& f : e->fields) {
    std::string n = f.name;
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n != "experiment id" && n != "id" && n != "entry id") continue;
    const std::string v = Trim(f.value);
    if (std::string id = IdOfWord(std::string_view(v).substr(0, v.find(' '))); !id.empty()) {
      e->explicit_id = id;
      return;
    }
  }
}

// The flags of "`--flag value`" spans: each span only flags and plain words.
bool FlagSpans(const std::vector<std::string>& spans, std::string* flags) {
  for (const std::string& sp : spans) {
    const std::string t = Trim(sp);
    if (t.rfind("--", 0) != 0 || t.size() > 200 || t.find_first_of("|;&<>`$()\\'\"\n") != std::string::npos)
      return false;
    *flags += " " + t;
  }
  return true;
}

// "same as DISP-001", "same v5p no-shared matrix as DISP-001 on a fresh
// host": the ID an entry's Command text refers to ("same", at most six words,
// "as", the ID), or "".
std::string SameAsId(const std::string& text) {
  std::string v = Trim(text);
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v.rfind("same ", 0) != 0) return "";
  std::vector<std::string> words;
  for (size_t i = 0, n = 0; i < text.size() && n < 10; ++n) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t a = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > a) words.push_back(text.substr(a, i - a));
  }
  for (size_t k = 1; k + 1 < words.size() && k <= 7; ++k) {
    std::string w = words[k];
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (w == "as") return IdOfWord(words[k + 1]);
  }
  return "";
}

// "- Command: same as DISP-001 with `--dispatch-permute-mode repeat_sort`":
// the earlier entry's command (one command line, nothing piped or
// redirected, not ending in a quoted launcher payload), with the flags given appended (the harness's argparse keeps
// the last value of a flag given twice). "same sweep as DISP-001" (in the
// field or its first sub-bullet, no flags): every command of that entry, as
// written there. The entry's own line is the commands'.
void ResolveSameAs(Logbook* lb) {
  // The first entry of each ID among those before entry i (a lookup per
  // reference: linear in the entries, not quadratic).
  std::unordered_map<std::string, size_t> first;
  for (size_t i = 0; i < lb->entries.size(); ++i) {
    if (i > 0) first.emplace(lb->entries[i - 1].id, i - 1);
    Entry& e = lb->entries[i];
    const Field* f = e.FindField("Command");
    if (!e.commands.empty() || f == nullptr) continue;
    const Bullet* said = &f->bullet;
    std::string id = SameAsId(f->value);
    if (id.empty() && Trim(f->value).empty() && !f->bullet.children.empty()) {
      said = &f->bullet.children[0];
      id = SameAsId(said->text);
    }
    if (id.empty()) continue;
    // Flag spans; other spans may only be single words (a host: `codex-b`).
    std::vector<std::string> flag_spans;
    bool other = false;
    for (const std::string& sp : said->code_spans) {
      const std::string t = Trim(sp);
      if (t.rfind("--", 0) == 0) flag_spans.push_back(sp);
      else other = other || t.empty() || t.find_first_of(" \t") != std::string::npos;
    }
    std::string flags;
    if (other || !FlagSpans(flag_spans, &flags)) continue;
    const auto at = first.find(id);
    if (at == first.end() || lb->entries[at->second].commands.empty()) continue;
    const Entry* ref = &lb->entries[at->second];
    if (flags.empty()) {
      for (CommandText c : ref->commands) {
        c.line = c.end_line = said->line;
        c.label.clear();
        e.commands.push_back(std::move(c));
      }
      continue;
    }
    if (ref->commands.size() != 1) continue;
    const CommandText& base = ref->commands[0];
    // The flags go last: the base must end with the harness's own words (not
    // a quoted launcher payload, a pipe or a redirection).
    const std::string& j = base.joined;
    if (j.empty() || j.find_first_of("|;&<>\n") != std::string::npos || j.back() == '\'' || j.back() == '"') continue;
    // A chain of entries each "same as" the one before grows its command by
    // the flags each adds: bounded, so a long chain costs no quadratic copy.
    if (j.size() + flags.size() > static_cast<size_t>(BudgetLimit(BudgetId::kSameAsCommandChars))) {
      lb->diagnostics.push_back({lb->file, said->line,
                                 e.id + ": cannot plan `same as " + id + "`: the command would hold " +
                                     OverBudget(BudgetId::kSameAsCommandChars)});
      continue;
    }
    CommandText c;
    c.text = c.joined = base.joined + flags;
    c.line = c.end_line = said->line;
    e.commands.push_back(std::move(c));
  }
}

namespace {

// The values of a brace list, `body` being what follows its "{" up to and
// including the closing "}": plain words (letters, digits, `_.-:+`; blanks
// between them where `spaces`), at most 32, none empty; false otherwise.
bool BraceValues(std::string_view body, bool spaces, std::vector<std::string>* values) {
  values->clear();
  std::string v;
  for (const char c : body) {
    if (c == ',' || c == '}') {
      if (v.empty() || values->size() >= 32) return false;
      values->push_back(std::move(v));
      v.clear();
    } else if (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_.-:+").find(c) != std::string_view::npos) {
      v.push_back(c);
    } else if (!spaces || c != ' ') {
      return false;
    }
  }
  return !values->empty();
}

// "`q in {none,int8}`": a loop the author wrote beside the command; its name
// and values (plain words, at most 32), or false.
bool LoopSpan(const std::string& span, std::string* name, std::vector<std::string>* values) {
  const std::string t = Trim(span);
  const size_t in = t.find(" in {");
  if (in == std::string::npos || in == 0 || t.size() > 400 || t.back() != '}') return false;
  *name = t.substr(0, in);
  if (!std::all_of(name->begin(), name->end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) ||
      std::isdigit(static_cast<unsigned char>((*name)[0])))
    return false;
  return BraceValues(std::string_view(t).substr(in + 5), /*spaces=*/true, values);
}

// True when `text` reads $name or ${name}.
bool ReadsVariable(const std::string& text, const std::string& name) {
  for (size_t at = text.find('$'); at != std::string::npos; at = text.find('$', at + 1)) {
    size_t b = at + 1 + (at + 1 < text.size() && text[at + 1] == '{' ? 1 : 0);
    if (text.compare(b, name.size(), name) != 0) continue;
    const size_t e = b + name.size();
    if (e == text.size() || !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) return true;
  }
  return false;
}

}  // namespace

// "- Command: `ssh h '... --quant-mode "$q" --topk "$tk"'`" with a sub-bullet
// "`q in {none,int8}`, `tk in {2,8}`": the author's loops, written beside
// the command. A command that reads such a variable and sets no loop of
// that name is planned inside `for q in none int8; do ... done`.
void ResolveLoopSpans(Logbook* lb) {
  for (Entry& e : lb->entries) {
    const Field* f = e.FindField("Command");
    if (f == nullptr || e.commands.empty()) continue;
    std::vector<std::pair<std::string, std::vector<std::string>>> loops;
    std::vector<const Bullet*> bullets = {&f->bullet};
    for (const Bullet& b : f->bullet.children) bullets.push_back(&b);
    for (const Bullet* b : bullets)
      for (const std::string& sp : b->code_spans) {
        std::pair<std::string, std::vector<std::string>> l;
        if (loops.size() < 8 && LoopSpan(sp, &l.first, &l.second)) loops.push_back(std::move(l));
      }
    if (loops.empty()) continue;
    for (CommandText& c : e.commands) {
      std::string head, tail;
      for (const auto& [name, values] : loops) {
        if (!ReadsVariable(c.joined, name) || c.joined.find("for " + name + " in") != std::string::npos) continue;
        head += "for " + name + " in";
        for (const auto& v : values) head += " " + v;
        head += "; do\n";
        tail += "\ndone";
      }
      if (!head.empty()) c.joined = head + c.joined + tail;
    }
  }
}

namespace {

// "{none,int8}" as a whole word: its plain values (2 to 32), or false.
bool BraceList(std::string_view w, std::vector<std::string>* values) {
  if (w.size() < 5 || w.size() > 400 || w.front() != '{' || w.back() != '}') return false;
  return BraceValues(w.substr(1), /*spaces=*/false, values) && values->size() >= 2;
}

}  // namespace

// "--quant-mode {none,int8} --topk {2,8}": a sweep the author wrote as a
// brace list after a flag (the harness takes one value; the shell would pass
// two words). The command is planned inside `for quant_mode in none int8; do
// ... --quant-mode "$quant_mode" ...; done`, one loop per list (at most 8),
// inside single quotes too ('...'"$topk"'...'). One pass over the text.
void ResolveBraceFlags(Logbook* lb) {
  for (Entry& e : lb->entries)
    for (CommandText& c : e.commands) {
      const std::string& t = c.joined;
      if (t.find('{') == std::string::npos || t.find("for ") != std::string::npos) continue;
      std::string out, head, tail, prev;
      std::set<std::string> names;
      bool single = false, dbl = false, ok = true;
      size_t i = 0;
      while (i < t.size() && ok) {
        const char ch = t[i];
        if (std::isspace(static_cast<unsigned char>(ch))) {
          out += ch;
          ++i;
          continue;
        }
        // One word (split at blanks, quoted or not), quotes tracked: a brace
        // list is taken unquoted or as a whole word of a single-quoted payload.
        const size_t a = i;
        const bool s0 = single, d0 = dbl;
        while (i < t.size() && !std::isspace(static_cast<unsigned char>(t[i]))) {
          if (t[i] == '\'' && !dbl) single = !single;
          else if (t[i] == '"' && !single) dbl = !dbl;
          else if (t[i] == '\\' && !single && i + 1 < t.size()) ++i;
          ++i;
        }
        const std::string w = t.substr(a, i - a);
        // "--topk {2,8}'" ends a single-quoted payload: the list, then the quote.
        const bool closes = s0 && !single && w.size() > 1 && w.back() == '\'';
        const std::string core = closes ? w.substr(0, w.size() - 1) : w;
        std::vector<std::string> values;
        if (!d0 && (single == s0 || closes) && prev.size() > 2 && prev.rfind("--", 0) == 0 && BraceList(core, &values)) {
          std::string name;
          for (char x : prev.substr(2)) name += x == '-' ? '_' : x;
          if (!std::all_of(name.begin(), name.end(), [](char x) { return std::isalnum(static_cast<unsigned char>(x)) || x == '_'; }) ||
              !names.insert(name).second || names.size() > 8) {
            ok = false;
            break;
          }
          out += s0 ? "'\"$" + name + "\"'" + (closes ? "'" : "") : "\"$" + name + "\"";
          head += "for " + name + " in";
          for (const auto& v : values) head += " " + v;
          head += "; do\n";
          tail += "\ndone";
        } else {
          out += w;
        }
        prev = w;
        if (prev.rfind("'", 0) == 0) prev = prev.substr(1);
      }
      if (ok && !head.empty()) c.joined = head + out + tail;
    }
}

namespace {

// Where the walk over the document's top-level blocks stands: the headings
// seen, each entry's heading level (2 or 3), and the section and entry that
// take the next blocks (-1: none).
struct Outline {
  struct Head { int line, level; };
  std::vector<Head> heads;
  std::vector<int> entry_levels;
  int sec = -1, ent = -1;
};

// Starts an entry at a heading of `level`.
void OpenEntry(Entry e, int line, int level, Logbook* lb, Outline* o) {
  e.heading_line = line;
  lb->entries.push_back(std::move(e));
  o->ent = static_cast<int>(lb->entries.size()) - 1;
  o->entry_levels.push_back(level);
}

// A heading of level 1 to 3: the title, an entry, a section, or a
// sub-heading of the current entry.
void TakeHeading(const MdDocument& doc, int idx, const std::string& file, Logbook* lb, Outline* o) {
  const MdNode& n = doc.nodes[idx];
  o->heads.push_back({n.start_line, n.level});
  const std::string htext = Trim(InlineText(doc, idx));
  const int outer = o->ent >= 0 && o->entry_levels[static_cast<size_t>(o->ent)] == 2 ? o->ent : -1;
  o->ent = -1;
  if (n.level == 1) {
    if (lb->title.empty()) {
      lb->title = htext;
      lb->title_line = n.start_line;
    }
    o->sec = -1;
    return;
  }
  Entry e;
  if (n.level == 2 && ParseEntryHeading(htext, &e)) {  // entries written at ##
    OpenEntry(std::move(e), n.start_line, 2, lb, o);
    o->sec = -1;
    return;
  }
  if (n.level == 2) {
    Section s;
    s.kind = SectionKindFromName(htext);
    s.name = htext;
    s.heading_line = n.start_line;
    lb->sections.push_back(std::move(s));
    o->sec = static_cast<int>(lb->sections.size()) - 1;
    return;
  }
  if (ParseEntryHeading(htext, &e)) {
    OpenEntry(std::move(e), n.start_line, 3, lb, o);
  } else if (outer >= 0) {
    o->ent = outer;  // a sub-heading of an entry written at ##
  } else if (o->sec >= 0 && lb->sections[o->sec].kind == SectionKind::kExperimentLog) {
    lb->diagnostics.push_back({file, n.start_line,
                               "heading is not an entry (`### YYYY-MM-DD[ HH:MM] - [ID ]label` or `### ID - label (YYYY-MM-DD)`); left alone"});
  }
}

// Each section ends before the next heading of level 2 or less, each entry
// before the next of its own level or less (trailing blank lines excluded).
void SetEndLines(const std::vector<std::string_view>& lines, const Outline& o, Logbook* lb) {
  auto end_before = [&](int line, int max_level) {
    int next = lb->line_count + 1;
    for (const auto& h : o.heads)
      if (h.line > line && h.level <= max_level) {
        next = h.line;
        break;
      }
    return LastNonBlank(lines, next - 1, line);
  };
  for (auto& s : lb->sections) s.end_line = end_before(s.heading_line, 2);
  for (size_t i = 0; i < lb->entries.size(); ++i)
    lb->entries[i].end_line = end_before(lb->entries[i].heading_line, o.entry_levels[i]);
}

}  // namespace

Logbook ParseLogbook(std::string_view text, const std::string& file) {
  Logbook lb;
  lb.file = file;
  const auto [lines, doc] = ReadDocument(text, file, &lb.line_count, &lb.diagnostics);
  Outline o;
  for (int idx : doc.root().children) {
    const MdNode& n = doc.nodes[idx];
    if (n.kind == MdKind::kHeading && n.level <= 3) TakeHeading(doc, idx, file, &lb, &o);
    else if (o.ent >= 0) AddEntryBlock(doc, idx, lines, &lb.entries[o.ent]);
    else if (o.sec >= 0) AddSectionBlock(doc, idx, lines, &lb.sections[o.sec]);
  }
  SetEndLines(lines, o, &lb);
  if (const Section* p = lb.FindSection(SectionKind::kExperimentIdPrefix)) lb.id_prefix = PrefixFrom(*p);
  DropRegionContent(text, file, &lb);
  CollectPins(text, lines, doc, &lb);
  for (auto& e : lb.entries) TakeStatedId(&e);
  AssignEntryIds(&lb);
  ResolveLoopSpans(&lb);
  ResolveSameAs(&lb);     // copies the referenced entry's commands, its loops resolved
  ResolveLoopSpans(&lb);  // the entry's own loops around "same as X with `--flag`"
  ResolveStatedCommands(&lb);
  ResolveBraceFlags(&lb);
  return lb;
}

Result<Logbook> LoadLogbook(const std::string& path) { return ParseFile(path, ParseLogbook); }

}  // namespace moelog::logbook
