// Reader stage figures, a profiler's share before its amounts (figures_shares.h).
#include "logbook/reader/figures_shares.h"

#include <cctype>
#include <map>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

std::string ShareWord(const char* key, const char* fallback) {
  static const auto* words = new std::map<std::string, std::string>(DataWordMap("data/reader/bench_printouts.json", "profile_share"));
  const auto it = words->find(key);
  return it == words->end() ? fallback : it->second;
}

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// An amount at `at` ("13.64s", "68.46 MB"): a number and a unit of time or
// memory; where it ends, or npos.
size_t Amount(const std::string& s, size_t at) {
  size_t j = at;
  while (j < s.size() && (Digit(s[j]) || s[j] == '.')) ++j;
  if (j == at || !Digit(s[at])) return std::string::npos;
  size_t u = j < s.size() && s[j] == ' ' ? j + 1 : j, e = u;
  while (e < s.size() && std::isalpha(static_cast<unsigned char>(s[e]))) ++e;
  UnitInfo info{};
  if (e == u || !AnyUnit(s.substr(u, e - u), &info) || info.derived) return std::string::npos;
  const bool amount = info.metric.find("time") != std::string::npos || info.metric.find("memory") != std::string::npos ||
                      info.metric == "s";
  return amount ? e : std::string::npos;
}

// The share at `pct` (its '%') and its parentheses: where the share's
// number starts and the parentheses end, the amounts' texts.
bool ShareAt(const std::string& s, size_t pct, size_t* from, size_t* to, std::string* part, std::string* whole) {
  size_t b = pct;
  while (b > 0 && (Digit(s[b - 1]) || s[b - 1] == '.')) --b;
  if (b == pct || (b > 0 && (std::isalnum(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '+' || s[b - 1] == '-')))
    return false;
  if (s.compare(pct + 1, 2, " (") != 0) return false;
  const size_t a = pct + 3, ae = Amount(s, a);
  if (ae == std::string::npos) return false;
  *part = s.substr(a, ae - a), whole->clear();
  size_t k = ae;
  if (s.compare(k, 3, " / ") == 0 || s.compare(k, 1, "/") == 0) {
    const size_t w = k + (s[k] == '/' ? 1 : 3), we = Amount(s, w);
    if (we == std::string::npos) return false;
    *whole = s.substr(w, we - w), k = we;
  }
  if (k >= s.size() || s[k] != ')') return false;
  *from = b, *to = k + 1;
  return true;
}

}  // namespace

// "gRPC buffer pools: 68.46 MB (82.41%)" (a heap profile's line): an
// amount of memory with its share of the profile after it is memory the
// profile holds, whatever the words before it say: the profile's word
// (profile_share's `memory`) is written before the amount, "... inuse
// 68.46 MB (82.41%)".
bool MemoryShares(const std::string& s, std::string* out) {
  std::string text;
  size_t done = 0;
  for (size_t close = s.find("%)"); close != std::string::npos; close = s.find("%)", close + 1)) {
    const size_t open = s.rfind(" (", close);
    if (open == std::string::npos || open < done || open < 3) continue;
    const std::string inner = s.substr(open + 2, close - open - 2);
    if (inner.empty() || inner.find_first_not_of("0123456789.") != std::string::npos) continue;
    size_t b = open;  // back over the amount: its unit, a blank, its digits
    while (b > 0 && std::isalpha(static_cast<unsigned char>(s[b - 1]))) --b;
    const size_t unit_at = b;
    if (b > 0 && s[b - 1] == ' ') --b;
    while (b > 0 && (Digit(s[b - 1]) || s[b - 1] == '.')) --b;
    UnitInfo info{};
    if (b == unit_at || !Digit(s[b]) || (b > 0 && std::isalnum(static_cast<unsigned char>(s[b - 1]))) ||
        !AnyUnit(s.substr(unit_at, open - unit_at), &info) || info.metric.find("memory") == std::string::npos)
      continue;
    text.append(s, done, b - done).append(ShareWord("memory", "inuse") + " ");
    done = b;
  }
  if (done == 0) return false;
  *out = text + s.substr(done);
  return true;
}

bool ProfileShares(const std::string& given, std::string* out) {
  std::string held;
  const bool memory = given.size() <= 4000 && MemoryShares(given, &held);
  const std::string& s = memory ? held : given;
  if (memory) *out = held;
  if (s.size() > 4000 || s.find("% (") == std::string::npos) return memory;
  std::string text;
  size_t done = 0;
  for (size_t pct = s.find("% ("); pct != std::string::npos; pct = s.find("% (", pct + 1)) {
    size_t from = 0, to = 0;
    std::string part, whole;
    if (pct < done || !ShareAt(s, pct, &from, &to, &part, &whole)) continue;
    const std::string share = s.substr(from, pct + 1 - from);
    text.append(s, done, from - done);
    if (whole.empty()) text.append(part + " (" + share + ")");
    else text.append(part + " " + ShareWord("part", "cumulative") + " (" + share + "), " + whole + " " + ShareWord("whole", "sampled"));
    done = to;
  }
  if (done == 0) return memory;
  *out = text + s.substr(done);
  return true;
}

}  // namespace moelog::logbook::reader
