// Reader stage figures, shared-unit lists in prose (figures_slash.h).
#include "logbook/reader/figures_slash.h"

#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// A list of names joined by slashes ("fwd/bwd", "p50/p99"; two to four short
// words, none a unit): its names, else none.
std::vector<std::string> NameList(const std::string& w) {
  UnitInfo info{};
  if (w.find('/') == std::string::npos || AnyUnit(w, &info)) return {};
  const std::vector<std::string> names = SplitList(w, '/');
  if (names.size() < 2 || names.size() > 4) return {};
  for (const auto& n : names)
    if (n.empty() || n.size() > 16 || !std::isalpha(static_cast<unsigned char>(n[0])) || AnyUnit(n, &info) ||
        !std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }))
      return {};
  return names;
}

// A field's name without spaces around its slashes ("fwd / bwd" -> "fwd/bwd").
std::string Unspaced(const std::string& label) {
  std::string out;
  for (size_t i = 0; i < label.size(); ++i)
    if (label[i] != ' ' || !((i > 0 && label[i - 1] == '/') || (i + 1 < label.size() && label[i + 1] == '/'))) out += label[i];
  return parse_detail::Trim(out);
}

// The numbers of a slash list at `at` ("3.1/7.4", "41 / 29.5") and where it
// ends; none when fewer than two.
std::vector<std::string> NumberList(const std::string& s, size_t at, size_t* end) {
  std::vector<std::string> nums;
  size_t i = at;
  while (true) {
    size_t j = i;
    while (j < s.size() && (Digit(s[j]) || (s[j] == '.' && j + 1 < s.size() && Digit(s[j + 1])))) ++j;
    if (j == i) return {};
    nums.push_back(s.substr(i, j - i));
    size_t k = j;
    while (k < s.size() && s[k] == ' ') ++k;
    if (k >= s.size() || s[k] != '/') { *end = j; break; }
    ++k;
    while (k < s.size() && s[k] == ' ') ++k;
    if (k >= s.size() || !Digit(s[k])) { *end = j; break; }
    i = k;
  }
  return nums.size() >= 2 && nums.size() <= 4 ? nums : std::vector<std::string>{};
}

// The names before a list at `at` ("fwd/bwd: ", "p50/p99 latency = "): the
// list, where it starts and the plain words between it and the numbers.
std::vector<std::string> NamesBefore(const std::string& s, size_t at, size_t* begin, std::string* between) {
  size_t p = at;
  while (p > 0 && s[p - 1] == ' ') --p;
  if (p > 0 && (s[p - 1] == ':' || s[p - 1] == '=')) --p;
  std::vector<std::string> words;
  for (int n = 0; n < 3 && p > 0; ++n) {
    while (p > 0 && s[p - 1] == ' ') --p;
    size_t b = p;
    while (b > 0 && !std::isspace(static_cast<unsigned char>(s[b - 1])) && s[b - 1] != '(' && s[b - 1] != ',') --b;
    std::string w = s.substr(b, p - b);
    while (!w.empty() && (w.back() == '*' || w.back() == ':')) w.pop_back();
    while (!w.empty() && w.front() == '*') w.erase(w.begin());
    if (auto names = NameList(w); !names.empty()) {
      *begin = b;
      for (auto it = words.rbegin(); it != words.rend(); ++it) *between += *it + " ";
      return names;
    }
    if (w.empty() || !std::all_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      return {};
    words.push_back(w);
    p = b;
  }
  return {};
}

// The names in parentheses right after a list's unit ("(fwd/bwd)") and
// where they end.
std::vector<std::string> NamesAfter(const std::string& s, size_t at, size_t* end) {
  size_t p = at;
  while (p < s.size() && s[p] == ' ') ++p;
  if (p >= s.size() || s[p] != '(') return {};
  const size_t close = s.find(')', p);
  if (close == std::string::npos) return {};
  *end = close + 1;
  return NameList(s.substr(p + 1, close - p - 1));
}

// The list's figures written one by one.
std::string OneByOne(const std::vector<std::string>& names, const std::vector<std::string>& nums,
                     const std::string& unit, const std::string& between) {
  if (names.size() == 2 && ReaderLexicon().before_words.count(Lower(names[0])))
    return between + nums[0] + " " + unit + " -> " + nums[1] + " " + unit;
  std::string out = between;
  for (size_t i = 0; i < nums.size(); ++i) out += (i ? ", " : "") + names[i] + " " + nums[i] + " " + unit;
  return out;
}

}  // namespace

bool SlashFigureLists(const std::string& s, std::string* out, const std::string& label) {
  std::string text = s;
  bool any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!Digit(text[i]) || (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.' ||
                                      text[i - 1] == '/' || text[i - 1] == '-')))
      continue;
    size_t end = i;
    const std::vector<std::string> nums = NumberList(text, i, &end);
    if (nums.empty()) continue;
    size_t u = end;
    if (u < text.size() && text[u] == ' ') ++u;
    const std::string unit = UnitToken(text, u);
    UnitInfo info{};
    if (unit.empty() || !AnyUnit(unit, &info) || info.derived) { i = end; continue; }
    size_t begin = i, stop = u + unit.size();
    std::string between;
    std::vector<std::string> names = NamesBefore(text, i, &begin, &between);
    if (names.empty()) begin = i, names = NamesAfter(text, stop, &stop);
    if (names.empty()) stop = u + unit.size(), names = NameList(Unspaced(label));
    if (names.size() != nums.size()) { i = end; continue; }
    const std::string written = OneByOne(names, nums, unit, between);
    text.replace(begin, stop - begin, written);
    i = begin + written.size();
    any = true;
  }
  if (any) *out = std::move(text);
  return any;
}

}  // namespace moelog::logbook::reader
