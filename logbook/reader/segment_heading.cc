// The reader's segment stage, a heading's own words: its date (any form,
// anywhere), its number, its explicit ID and its label.
#include "logbook/reader/segment.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>

#include "logbook/reader/blocks.h"
#include "logbook/text.h"

namespace moelog::logbook {

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
  std::string t(q - h == 1 ? 1 : 0, '0');
  t.append(s.substr(h, q - h));
  t += ':';
  t.append(s.substr(q + 1, 2));
  out->time = std::move(t);
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
  // "5th", "1st", "22nd", "3rd": the day's ordinal suffix, skipped.
  auto suffix = [&](size_t p) {
    static constexpr std::string_view kSuffixes[] = {"st", "nd", "rd", "th"};
    for (std::string_view x : kSuffixes)
      if (s.substr(p, 2) == x && (p + 2 == s.size() || !std::isalpha(static_cast<unsigned char>(s[p + 2])))) return p + 2;
    return p;
  };
  size_t e = 0, e2 = 0, e3 = 0;
  const bool day_first = !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]));
  const std::string_view a = word(0, &e, day_first);
  if (day_first) e = suffix(e);
  const std::string_view b = word(blanks(e), &e2, !day_first);
  if (!day_first) e2 = suffix(e2);
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
  std::string t(hour < 10 ? 1 : 0, '0');
  t += std::to_string(hour);
  t.append(std::string_view(out->time).substr(2));
  out->time = std::move(t);
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
    head += ' ';
    head.append(num);
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

}  // namespace

bool IsExplicitId(std::string_view token) {
  if (token.empty() || token.size() > 64 || !std::isupper(static_cast<unsigned char>(token[0]))) return false;
  int groups = 0;
  size_t start = 0;
  while (start <= token.size()) {
    size_t dash = token.find('-', start);
    std::string_view g = token.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start);
    if (g.empty()) return false;
    const bool last = dash == std::string_view::npos;
    for (size_t k = 0; k < g.size(); ++k) {
      const unsigned char c = static_cast<unsigned char>(g[k]);
      const bool variant = last && k + 1 == g.size() && k > 0 && std::islower(c);
      if (!std::isupper(c) && !std::isdigit(c) && !variant) return false;
    }
    ++groups;
    if (dash == std::string_view::npos) {
      // The last group is a number, perhaps with one letter of a variant
      // ("F8W-005a", "BMFU-004B").
      if (g.size() > 1 && std::isalpha(static_cast<unsigned char>(g.back()))) g.remove_suffix(1);
      for (char c : g)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      return groups >= 2;
    }
    start = dash + 1;
  }
  return false;
}


std::string IdOfWord(std::string_view w) {
  while (!w.empty() && (w.back() == ':' || w.back() == ',' || w.back() == '*' || w.back() == '`')) w.remove_suffix(1);
  while (!w.empty() && (w.front() == '*' || w.front() == '`')) w.remove_prefix(1);
  if (const size_t slash = w.find('/'); slash != std::string_view::npos) w = w.substr(0, slash);
  // A range of IDs ("CW-PERF-004..012"): its first.
  if (const size_t dots = w.find(".."); dots != std::string_view::npos) w = w.substr(0, dots);
  return IsExplicitId(w) ? std::string(w) : "";
}

bool StrictHeadingRest(std::string_view s, size_t* rest_offset) {
  HeadingParts parts;
  if (!ParseHeadingParts(s, &parts)) return false;
  *rest_offset = std::min(parts.rest_offset, s.size());
  return true;
}

namespace {

// Separators around a date or a number in a heading: blanks and ASCII
// punctuation, and the middle dot, en and em dashes, bullets in UTF-8.
size_t SeparatorAt(std::string_view s, size_t p) {
  static constexpr std::string_view kWide[] = {"\xC2\xB7", "\xE2\x80\x93", "\xE2\x80\x94", "\xE2\x80\xA2",
                                               "\xE2\x80\x94"};
  if (p >= s.size()) return 0;
  if (std::string_view(" \t-:|,;@/()[]#*_~.").find(s[p]) != std::string_view::npos) return 1;
  for (std::string_view w : kWide)
    if (s.compare(p, w.size(), w) == 0) return w.size();
  return 0;
}

size_t SeparatorBefore(std::string_view s, size_t e) {
  for (size_t k = 1; k <= 3 && k <= e; ++k)
    if (SeparatorAt(s, e - k) == k) return k;
  return 0;
}

std::string TrimSeparators(std::string_view s) {
  for (size_t k = SeparatorAt(s, 0); k > 0; k = SeparatorAt(s, 0)) s.remove_prefix(k);
  for (size_t k = SeparatorBefore(s, s.size()); k > 0; k = SeparatorBefore(s, s.size())) s.remove_suffix(k);
  return std::string(s);
}

// "YYYY-MM-DD" of its parts when they make a date of this century or the
// last.
bool IsoOf(int year, int month, int day, std::string* iso) {
  if (year < 1970 || year > 2099 || month < 1 || month > 12 || day < 1 || day > 31) return false;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  *iso = buf;
  return true;
}

// Whether " HH:MM" follows `e` (a time of day after a date).
bool TimeFollows(std::string_view s, size_t e) {
  if (e >= s.size() || s[e] != ' ') return false;
  size_t p = e + 1;
  const size_t h = p;
  while (p < s.size() && p - h < 3 && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
  return p > h && p - h <= 2 && p + 2 < s.size() && s[p] == ':' && Digits(s, p + 1, 2);
}

// A date written with numbers only, other than "YYYY-MM-DD": "2026.06.24"
// (two digits each), "24.06.2026" (the day first, as dots are written), "6/24/2026" (the month
// first, unless the first number cannot be one: "24/6/2026"), "20260624"; a
// two-digit year only in a time stamp ("17/1/29 15:38", "1/29/17 15:38").
// Its ISO form and length; not glued to a word or a number after it.
bool NumericDateAt(std::string_view s, size_t i, std::string* iso, size_t* len) {
  auto num = [&](size_t p, size_t* e) {
    *e = p;
    while (*e < s.size() && *e - p < 5 && std::isdigit(static_cast<unsigned char>(s[*e]))) ++*e;
    return *e > p ? std::atoi(std::string(s.substr(p, *e - p)).c_str()) : -1;
  };
  auto free_after = [&](size_t e) {
    return e == s.size() || (!std::isalnum(static_cast<unsigned char>(s[e])) &&
                             !(s[e] == '.' && e + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[e + 1]))));
  };
  size_t e1 = 0, e2 = 0, e3 = 0;
  // "20260624", "20260624T195116Z" (the basic ISO form; its time is read after it)
  const bool basic_time = i + 12 < s.size() && s[i + 8] == 'T' && Digits(s, i + 9, 4);
  if (Digits(s, i, 8) && (i + 8 == s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 8]))) &&
      (free_after(i + 8) || basic_time)) {
    const std::string d(s.substr(i, 8));
    *len = 8;
    return IsoOf(std::atoi(d.substr(0, 4).c_str()), std::atoi(d.substr(4, 2).c_str()), std::atoi(d.substr(6, 2).c_str()), iso);
  }
  const int a = num(i, &e1);
  if (e1 >= s.size() || (s[e1] != '.' && s[e1] != '/')) return false;
  const char sep = s[e1];
  const int b = num(e1 + 1, &e2);
  if (e2 >= s.size() || s[e2] != sep || e2 - e1 - 1 < 1 || e2 - e1 - 1 > 2) return false;
  const int c = num(e2 + 1, &e3);
  if (!free_after(e3)) return false;
  *len = e3 - i;
  const size_t n1 = e1 - i, n3 = e3 - e2 - 1;
  if (n1 == 4 && n3 == 2 && e2 - e1 == 3) return IsoOf(a, b, c, iso);  // "2026.06.24" ("2026/4/3" is none)
  if (n1 <= 2 && n3 <= 2 && sep == '/' && TimeFollows(s, e3)) {
    // A time stamp with a two-digit year ("17/1/29 15:38"): the year first
    // when the first number cannot be a month, else the month first ("1/29/17 15:38").
    if (a > 12) return IsoOf(2000 + a, b, c, iso);
    return IsoOf(2000 + c, a, b, iso);
  }
  if (n1 > 2 || n3 != 4) return false;
  if (sep == '.' || a > 12) return IsoOf(c, b, a, iso);  // "24.06.2026", "24/6/2026"
  return IsoOf(c, a, b, iso);                           // "6/24/2026"
}

// A date at `i` ("2026-06-24", "2026/06/24", "Jun 24, 2026", "24 June 2026",
// "24.06.2026", "6/24/2026") not glued to a word: its ISO form and length.
bool DateAt(std::string_view s, size_t i, std::string* iso, size_t* len) {
  if (i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))) return false;
  if (i > 0 && (s[i - 1] == '.' || s[i - 1] == '/') && i > 1 && std::isdigit(static_cast<unsigned char>(s[i - 2])))
    return false;  // inside a longer number ("1.2.2026.4")
  const char c = s[i];
  if (std::isdigit(static_cast<unsigned char>(c)) && Digits(s, i, 4) && i + 10 <= s.size() &&
      (s[i + 4] == '-' || s[i + 4] == '/') && s[i + 7] == s[i + 4] && Digits(s, i + 5, 2) && Digits(s, i + 8, 2) &&
      (i + 10 == s.size() || !std::isalnum(static_cast<unsigned char>(s[i + 10])))) {
    const int month = std::atoi(std::string(s.substr(i + 5, 2)).c_str());
    const int day = std::atoi(std::string(s.substr(i + 8, 2)).c_str());
    if (month < 1 || month > 12 || day < 1 || day > 31) return false;
    *iso = std::string(s.substr(i, 4)) + "-" + std::string(s.substr(i + 5, 2)) + "-" + std::string(s.substr(i + 8, 2));
    *len = 10;
    return true;
  }
  if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  if (std::isdigit(static_cast<unsigned char>(c)) && NumericDateAt(s, i, iso, len)) return true;
  size_t used = 0;
  if (!MonthNameDate(s.substr(i), iso, &used)) return false;
  *len = used;
  return true;
}

// "195116Z", "1951" right after a basic ISO date's "T": the time (HH:MM)
// in `out`, `p` past it and its seconds and zone.
bool BasicTime(std::string_view s, size_t* p, HeadingParts* out) {
  size_t q = *p;
  if (q == 0 || s[q - 1] != 'T' || !Digits(s, q, 4)) return false;
  const int hour = std::atoi(std::string(s.substr(q, 2)).c_str()), minute = std::atoi(std::string(s.substr(q + 2, 2)).c_str());
  if (hour > 23 || minute > 59) return false;
  out->time = std::string(s.substr(q, 2)) + ":" + std::string(s.substr(q + 2, 2));
  q += Digits(s, q + 4, 2) ? 6 : 4;
  if (q < s.size() && s[q] == 'Z') ++q;
  *p = q;
  return true;
}

// A date anywhere in the heading ("Worklog 2026-02-24", "2026-06-24 · x",
// "Results (Jun 24, 2026)") and a time right after it.
bool DateAnywhere(std::string_view s, HeadingRead* r, std::string* label) {
  if (s.size() > 400) return false;
  std::string iso;
  size_t len = 0, at = 0;
  // A date in a file's or a folder's name ("`runs/2026-04-20_bench/`",
  // "2026-04-20.log") dates the file, not the heading.
  auto in_name = [&](size_t i, size_t n) {
    const bool before = i > 0 && (s[i - 1] == '_' || s[i - 1] == '/' || s[i - 1] == '\\');
    const bool letter_next = i + n + 1 < s.size() && std::isalpha(static_cast<unsigned char>(s[i + n + 1]));
    const bool after = i + n < s.size() && (s[i + n] == '_' || ((s[i + n] == '/' || s[i + n] == '.') && letter_next));
    return before || after;
  };
  for (; at < s.size(); ++at)
    if (DateAt(s, at, &iso, &len) && !in_name(at, len)) break;
  if (at == s.size()) return false;
  r->date = iso;
  HeadingParts parts;
  size_t p = at + len;
  size_t q = p;
  while (q < s.size() && (s[q] == ' ' || s[q] == ',' || s[q] == '@' || s[q] == 'T')) ++q;
  if (BasicTime(s, &q, &parts)) {  // "20260223T195116Z"
    r->time = parts.time;
    p = q;
  } else if (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q])) && ParseHeadingTime(s, &q, &parts)) {
    SkipSeconds(s, &q);
    TwelveHourClock(s, &q, &parts);
    SkipTimeZone(s, &q);
    r->time = parts.time;
    p = q;
  }
  const std::string before = TrimSeparators(s.substr(0, at));
  std::string after = TrimSeparators(s.substr(p));
  // "2025-11-25 (Afternoon): Debugging": the date's qualifier goes after the words.
  if (size_t o = s.find_first_not_of(' ', p), c = o == std::string_view::npos ? o : s.find(')', o);
      o != std::string_view::npos && s[o] == '(' && c != std::string_view::npos && c - o <= 32 &&
      s.substr(o, c - o).find('(', 1) == std::string_view::npos && !TrimSeparators(s.substr(c + 1)).empty())
    after = TrimSeparators(s.substr(c + 1)) + " " + std::string(s.substr(o, c - o + 1));
  *label = before.empty() ? after : after.empty() ? before : before + " " + after;
  // "Report at `2017/03/26 16:28:56` at x": the code span the date filled goes with it.
  for (size_t e; (e = label->find("` `")) != std::string::npos;)
    label->replace(e > 0 && (*label)[e - 1] == ' ' ? e - 1 : e, e > 0 && (*label)[e - 1] == ' ' ? 4 : 3, "");
  r->date_first = before.empty();
  return true;
}

// "1. Initial setup", "2.1 Muon", "3) x", "Experiment 3: routing", "Run 12",
// "Step #4 - x": the number the heading gives itself, or "".
std::string NumberOf(std::string_view s, std::string* word) {
  auto digits_end = [&](size_t p) {
    size_t q = p;
    while (q < s.size() && q - p < 4 && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
    return q;
  };
  // "#14 fused norm", "[12] bigger batch", "(3) tiled": a number in a mark
  // that numbers it, the mark closed and words after it.
  const size_t mark = s.empty() ? 0 : std::string_view("#[(").find(s[0]) == std::string_view::npos ? 0 : 1;
  size_t p = 0, e = digits_end(mark);
  if (mark > 0) {
    const char close = s[0] == '[' ? ']' : s[0] == '(' ? ')' : ' ';
    if (e == mark || e - mark > 3 || e >= s.size() || s[e] != close) return "";
    const size_t after = e + (close == ' ' ? 0 : 1);
    return after < s.size() && s[after] == ' ' ? std::string(s.substr(mark, e - mark)) : "";
  }
  if (e > 0) {  // an ordinal first: "1.", "2.1", "3)"
    if (e > 3) return "";
    size_t end = e;
    while (end + 1 < s.size() && s[end] == '.' && std::isdigit(static_cast<unsigned char>(s[end + 1]))) end = digits_end(end + 1);
    const bool dotted = end > e;
    const bool punct = end < s.size() && (s[end] == '.' || s[end] == ')' || s[end] == ':');
    const size_t after = end + (punct ? 1 : 0);
    if ((!dotted && !punct) || after >= s.size() || s[after] != ' ') return "";
    return std::string(s.substr(0, end));
  }
  // A word of letters, of any script ("실험 3", "Эксперимент 2", "实验1").
  while (p < s.size() && (std::isalpha(static_cast<unsigned char>(s[p])) || (static_cast<unsigned char>(s[p]) & 0x80))) ++p;
  // "v17 - routing fold", "V2: tiling": a version's number glued to its v.
  const bool version = p == 1 && (s[0] == 'v' || s[0] == 'V') && digits_end(1) > 1;
  if (version) p = 0;
  else if (p == 0 || p > 32 || !IsOrdinalWord(s.substr(0, p))) return "";
  size_t q = version ? 1 : p;
  while (q < s.size() && s[q] == ' ') ++q;
  if (q < s.size() && s[q] == '#') ++q;
  e = digits_end(q);
  if (e == q) return "";
  while (e + 1 < s.size() && s[e] == '.' && std::isdigit(static_cast<unsigned char>(s[e + 1]))) e = digits_end(e + 1);
  // One letter of a variant ("Attempt 3b", "Phase 1A", "Trial 3a" at the
  // end), nothing else glued ("Run 12x4").
  const bool apart = q > p;  // "Trial 3a", not "Run12x"
  if (e < s.size() && std::isalpha(static_cast<unsigned char>(s[e])) &&
      ((apart && e + 1 == s.size()) || SeparatorAt(s, e + 1) > 0))
    ++e;
  if (e < s.size() && SeparatorAt(s, e) == 0) return "";
  if (version && e == s.size()) return "";  // "v2" alone names a thing, numbers no part
  *word = version ? std::string("version") : LowerAscii(s.substr(0, p));
  return std::string(s.substr(q, e - q));
}

// The label's confidence ("(confidence: X)" at its end) and explicit ID (its
// first word), as entries have always been read.
void SplitLabel(std::string rest, HeadingRead* r) {
  const size_t conf = LowerAscii(rest).rfind("(confidence:");
  if (conf != std::string::npos && !rest.empty() && rest.back() == ')') {
    r->confidence = Trim(std::string_view(rest).substr(conf + 12, rest.size() - 1 - (conf + 12)));
    rest = Trim(std::string_view(rest).substr(0, conf));
  }
  const size_t sp = rest.find(' ');
  if (std::string id = IdOfWord(std::string_view(rest).substr(0, sp)); !id.empty()) {
    r->explicit_id = id;
    // "F8W-001/002 title": the label keeps the word, which names both.
    if (rest.substr(0, sp).find('/') == std::string::npos)
      rest = sp == std::string::npos ? "" : Trim(std::string_view(rest).substr(sp));
    // "ID — title": the dash between them is not part of the label.
    if (rest.rfind("- ", 0) == 0 || rest == "-") rest = Trim(std::string_view(rest).substr(1));
    else if (rest.rfind("\xE2\x80\x93", 0) == 0 || rest.rfind("\xE2\x80\x94", 0) == 0)
      rest = Trim(std::string_view(rest).substr(3));
  }
  r->label = rest;
}

}  // namespace

std::string_view SkipHeadingMarks(std::string_view text) {
  for (bool more = true; more;) {
    more = false;
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    if (text.size() > 2 && text[0] == '<' && (std::isalpha(static_cast<unsigned char>(text[1])) || text[1] == '/')) {
      const size_t close = text.find('>');  // an inline HTML tag: "<a name=\"toc_3\"></a>"
      if (close != std::string_view::npos && close < 200) text.remove_prefix(close + 1), more = true;
      continue;
    }
    const unsigned char c0 = text.empty() ? 0 : static_cast<unsigned char>(text[0]);
    const unsigned char c1 = text.size() > 1 ? static_cast<unsigned char>(text[1]) : 0;
    size_t n = 0;
    if (c0 >= 0xF0 && text.size() >= 4) n = 4;  // emoji and other symbols past U+FFFF
    else if (c0 == 0xE2 && text.size() >= 3 && ((c1 >= 0x98 && c1 <= 0x9F) || c1 == 0xAC || c1 == 0xAD)) n = 3;  // U+2600-27FF, U+2B00-2B7F
    else if (c0 == 0xEF && c1 == 0xB8 && text.size() >= 3) n = 3;  // a variation selector (U+FE0F)
    else if (c0 == 0xE2 && c1 == 0x80 && text.size() >= 3 && static_cast<unsigned char>(text[2]) == 0x8D) n = 3;  // ZWJ
    if (n > 0) text.remove_prefix(n), more = true;
  }
  return text;
}

HeadingRead ReadHeading(std::string_view text) {
  text = SkipHeadingMarks(text);
  HeadingRead r;
  HeadingParts parts;
  const bool date_first = ParseHeadingParts(text, &parts);
  if (date_first || ParseIdFirstHeading(text, &parts) || ParseIdThenDateHeading(text, &parts)) {
    r.strict = r.dated = true;
    r.date_first = date_first;
    r.date = parts.date;
    r.time = parts.time;
    r.rest_offset = date_first ? std::min(parts.rest_offset, text.size()) : 0;
    SplitLabel(parts.rest, &r);
    return r;
  }
  std::string label;
  if (DateAnywhere(text, &r, &label)) {
    r.dated = true;
    SplitLabel(label, &r);
    return r;
  }
  r.number = NumberOf(text, &r.ordinal_word);
  // "1.82 ms (fused)": a figure first (its unit after it), no section's number.
  if (!r.number.empty() && r.ordinal_word.empty()) {
    const size_t word = text.find(' ', r.number.size() + 1);
    if (StatesFigure(text.substr(0, word))) r.number.clear();
  }
  SplitLabel(Trim(text), &r);
  return r;
}


std::string UndatedIdWords(std::string_view label) {
  std::string out;
  int words = 0;
  bool in_word = false;
  for (char c : label) {
    const bool alnum = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (alnum && !in_word && ++words > 8) break;
    if (alnum) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    else if (in_word) out += '-';
    in_word = alnum;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (!out.empty()) return out;
  // Words in a script without ASCII letters ("数据预取"): a word of their
  // digest (FNV-1a of the label's bytes), the same wherever the entry sits.
  uint32_t h = 2166136261u;
  bool other = false;
  for (char c : label.substr(0, 400)) {
    other = other || static_cast<unsigned char>(c) >= 0x80;
    h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  }
  if (!other) return "";
  char buf[16];
  std::snprintf(buf, sizeof buf, "H%08X", h);
  return buf;
}

}  // namespace moelog::logbook
