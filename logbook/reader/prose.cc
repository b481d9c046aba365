#include "logbook/reader/prose.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "logbook/reader/data_words.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook::prose {
namespace {

bool Alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool Ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }
bool Skippable(char c) { return c == ' ' || c == '`' || c == '*'; }

std::string Lower(const std::string& w) { return LowerAscii(w); }

// The identifier ending right before `at` (spaces, backticks, '*' skipped);
// `*begin` is where it starts. At most 32 characters are looked at.
std::string WordEndingAt(const std::string& s, size_t at, size_t* begin) {
  size_t e = at;
  while (e > 0 && Skippable(s[e - 1])) --e;
  size_t b = e;
  while (b > 0 && e - b < 32 && Ident(s[b - 1])) --b;
  *begin = b;
  return s.substr(b, e - b);
}

// The identifier starting at `at` (spaces, backticks, '*' skipped); `*end`
// is past it. At most 32 characters are read.
std::string WordStartingAt(const std::string& s, size_t at, size_t* end) {
  size_t b = at;
  while (b < s.size() && Skippable(s[b])) ++b;
  size_t e = b;
  if (e < s.size() && Alpha(s[e]))
    while (e < s.size() && e - b < 32 && Ident(s[e])) ++e;
  *end = e;
  return s.substr(b, e - b);
}

// Words that never name a run when written after a figure.
bool Connective(const std::string& w) {
  static const std::set<std::string> k = {
      "at", "in", "on", "for", "per", "and", "or", "with", "of", "from", "to", "vs", "the", "a", "an", "is", "was",
      "were", "are", "be", "also", "faster", "slower", "higher", "lower", "better", "worse", "total", "each", "over",
      "under", "than", "less", "more", "median", "mean", "average", "p50", "p90", "p99", "min", "max", "by", "as",
      "into", "after", "before", "when", "while", "which", "that", "this", "its", "their", "here", "there", "now",
      "then", "still", "only", "so", "but", "if", "not", "no", "same", "again", "both", "all", "down", "up"};
  return k.count(Lower(w)) > 0;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> Sentences(const std::string& s) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t begin = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    const char c = s[i];
    if ((c != '.' && c != ';') || s[i + 1] != ' ') continue;
    size_t n = i + 1;
    while (n < s.size() && s[n] == ' ') ++n;
    if (n >= s.size()) break;
    const char next = s[n];
    const bool opens = std::isupper(static_cast<unsigned char>(next)) || std::isdigit(static_cast<unsigned char>(next)) ||
                       next == '`' || next == '*' || next == '(';
    if (c == '.') {
      size_t le = n;  // "... the fix. bf16: 31.4 ms": a lower-case label opens a sentence too
      while (le < s.size() && le - n < 24 && Ident(s[le])) ++le;
      if (!opens && !(le > n && le < s.size() && s[le] == ':')) continue;
      size_t wb = 0;
      const std::string w = Lower(WordEndingAt(s, i, &wb));
      if (w == "vs" || w == "e.g" || w == "i.e" || w == "cf" || w == "approx" || w == "g" || w == "e") continue;
    }
    out.emplace_back(begin, i + 1);
    begin = n;
  }
  if (begin < s.size()) out.emplace_back(begin, s.size());
  return out;
}

std::vector<std::string> DotArms(const std::string& s) {
  static const std::string kDot = "\xC2\xB7";
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find(kDot, b);
    if (e == std::string::npos) e = s.size();
    std::string part = s.substr(b, e - b);
    // Its name: the words before the first number that starts a word.
    size_t d = 0;
    while (d < part.size() && !(std::isdigit(static_cast<unsigned char>(part[d])) &&
                                (d == 0 || part[d - 1] == ' ' || part[d - 1] == '*' || part[d - 1] == '`')))
      ++d;
    size_t ne = d;
    while (ne > 0 && !std::isalnum(static_cast<unsigned char>(part[ne - 1]))) --ne;  // "Result / **10 %": "Result"
    size_t nb = 0;
    while (nb < ne && (part[nb] == ' ' || part[nb] == '*')) ++nb;
    if (d >= part.size()) return {};  // an arm without a figure: no arms
    out.push_back(ne > nb ? part.substr(nb, ne - nb) + ": " + part.substr(d) : part.substr(d));
    if (e >= s.size()) break;
    b = e + kDot.size();
  }
  if (out.size() < 2) return {};
  return out;
}

std::vector<std::string> ForWordList(const std::string& s) {
  for (size_t p = s.find(" for "); p != std::string::npos; p = s.find(" for ", p + 1)) {
    std::vector<std::string> words;
    size_t q = p + 5;
    while (words.size() < 64) {
      size_t e = 0;
      const std::string w = WordStartingAt(s, q, &e);
      if (w.empty()) break;
      words.push_back(w);
      size_t n = e;
      while (n < s.size() && s[n] == ' ') ++n;
      if (n >= s.size() || s[n] != '/') break;
      q = n + 1;
    }
    if (words.size() >= 2) return words;
  }
  return {};
}

bool NoRunLead(const std::string& lead) {
  const auto& lex = reader::ReaderLexicon();
  const auto& k = lex.no_run_leads;  // no_run_leads of data/reader/vocabulary.json
  // Any word of the lead before its parentheses ("Compare summary", "Infra
  // notes"), but a summing-up word before a result's noun ("Summary metrics").
  const std::string name = lead.substr(0, lead.find('('));
  std::string previous;
  bool no_run = false;
  for (size_t p = 0, n = 0; p < name.size() && n < 8; ++n) {
    size_t e = 0;
    const std::string w = Lower(WordStartingAt(name, p, &e));
    if (!w.empty() && lex.result_lead_nouns.count(w) && lex.summing_up_leads.count(previous))
      return false;
    if (!w.empty()) no_run = no_run || k.count(w) > 0, previous = w;
    p = e > p ? e : p + 1;
  }
  return no_run;
}

std::string PlainLead(const std::string& text) {
  int words = 0;
  for (size_t i = 0; i < text.size() && i < 48; ++i) {
    const char c = text[i];
    if (c == ' ' && ++words > 3) return "";
    if (c == '.' || c == '`' || c == '(' || c == ';') return "";
    if (c == ':') return i + 1 >= text.size() || text[i + 1] == ' ' ? text.substr(0, i) : "";
  }
  return "";
}

std::string PostfixName(const std::string& s, size_t at) {
  size_t p = at;
  while (p < s.size() && Skippable(s[p])) ++p;
  if (p < s.size() && s[p] == '(') {  // "27.6 ms (fp8)": one name alone in parentheses
    size_t e = 0;
    const std::string w = WordStartingAt(s, p + 1, &e);
    while (e < s.size() && Skippable(s[e])) ++e;
    return !w.empty() && w.size() <= 24 && !Connective(w) && e < s.size() && s[e] == ')' ? w : "";
  }
  size_t e = 0;
  std::string w = WordStartingAt(s, at, &e);
  if (const std::string l = Lower(w); l == "for" || l == "in" || l == "with") {  // "31.3 ms in bf16"
    const size_t after = e;
    w = WordStartingAt(s, after, &e);
    if (w.empty() || !std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return "";  // a name with a digit ("bf16", "fp8", "ep16"), not prose ("in the end")
  }
  if (w.empty() || w.size() > 24 || Connective(w)) return "";
  // "6.827 ms sliding and 7.469 ms causal against ...", "3.8 us launch overhead vs 51 us kernel"
  auto ends = [&s](size_t at) {
    size_t n = at;
    while (n < s.size() && Skippable(s[n])) ++n;
    if (n >= s.size() || s[n] == ',' || s[n] == ';' || s[n] == '.' || s[n] == '(' || s[n] == ')') return true;
    size_t e2 = 0;
    const std::string next = Lower(WordStartingAt(s, n, &e2));
    return next == "vs" || next == "versus" || next == "and" || next == "against" || next == "than";
  };
  if (ends(e)) return w;
  size_t e2 = 0;
  const std::string w2 = WordStartingAt(s, e, &e2);  // a two-word name ("launch overhead")
  return !w2.empty() && w2.size() <= 24 && !Connective(w2) && ends(e2) ? w + " " + w2 : "";
}

bool RestatingAround(const std::string& s, size_t start, size_t at) {
  size_t b = 0;
  const std::string before = Lower(WordEndingAt(s, start, &b));
  if (before == "the" || before == "logged" || before == "previous" || before == "earlier" || before == "prior" ||
      before == "historical" || before == "selected")
    return true;
  if (before == "baseline" || before == "reference") {
    size_t b2 = 0;
    const std::string vs = Lower(WordEndingAt(s, b, &b2));
    if (vs == "vs" || vs == "than" || vs == "against" || vs == "over" || vs == "the") return true;
  }
  size_t e = 0;
  const std::string after = Lower(WordStartingAt(s, at, &e));
  if (after == "reference") return true;
  static const std::set<std::string> adj = {"selected", "previous", "earlier", "prior", "logged", "old", "historical"};
  size_t e2 = 0;
  const std::string after2 = Lower(WordStartingAt(s, e, &e2));
  // "~4,300 tokens/sec (previous test)": an aside naming the run it came from.
  size_t p = at;
  while (p < s.size() && (s[p] == ' ' || s[p] == '*' || s[p] == '`')) ++p;
  if (p < s.size() && s[p] == '(' && adj.count(Lower(WordStartingAt(s, p + 1, &e2)))) return true;
  return adj.count(after) > 0 && (after2 == "baseline" || after2 == "reference");
}

std::vector<std::pair<std::string, std::string>> NounPairs(const std::string& s) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string prev;
  for (size_t p = 0; p < s.size();) {
    size_t e = 0;
    const std::string w = WordStartingAt(s, p, &e);
    if (w.empty()) {
      prev.clear();
      p = std::max(e, p + 1);
      continue;
    }
    const std::string l = Lower(w);
    const std::string key = l == "backend" || l == "impl" || l == "implementation" ? "impl"
                            : l == "kernel" || l == "path" || l == "mode"           ? l
                                                                                    : "";
    if (!key.empty() && !prev.empty() && !Connective(prev) && prev != "this" && prev != "that" && prev.size() <= 32)
      out.emplace_back(key, prev);
    prev = key.empty() ? w : "";
    p = e;
  }
  return out;
}

bool RangeEnd(const std::string& s, size_t start) {
  size_t p = start;
  while (p > 0 && Skippable(s[p - 1])) --p;
  if (p >= 3 && s.compare(p - 3, 3, "\xE2\x80\x93") == 0) {  // en dash right after a number: "60–81"
    return p > 3 && std::isdigit(static_cast<unsigned char>(s[p - 4]));
  }
  size_t b = 0;
  const std::string link = Lower(WordEndingAt(s, p, &b));  // "from 119 to 123", "between 60 and 81"
  if (link != "to" && link != "and") return false;
  // the word before "to" ends with a number (or a number and its unit: "17.22% to", "119 seconds to")
  size_t q = b;
  while (q > 0 && Skippable(s[q - 1])) --q;
  size_t u = q;
  while (u > 0 && (Alpha(s[u - 1]) || s[u - 1] == '%' || s[u - 1] == '/') && q - u < 12) --u;
  while (u > 0 && s[u - 1] == ' ') --u;
  if (u == 0 || !std::isdigit(static_cast<unsigned char>(s[u - 1]))) return false;
  size_t n = u;
  while (n > 0 && (std::isdigit(static_cast<unsigned char>(s[n - 1])) || s[n - 1] == '.' || s[n - 1] == ',')) --n;
  size_t fb = 0;
  const std::string before = Lower(WordEndingAt(s, n, &fb));
  return link == "to" ? before != "from" || SpanVerb(Lower(WordEndingAt(s, fb, &fb))) : before == "between";
}

bool SpanVerb(const std::string& w) {
  return w.rfind("rang", 0) == 0 || w.rfind("vari", 0) == 0 || w == "vary" || w == "spans" || w == "spanning";
}

bool RangeGap(const std::string& gap) {
  std::string t;
  for (char c : gap)
    if (!Skippable(c)) t += c;
  return Lower(t) == "to" || t == "\xE2\x80\x93";
}

bool PartOf(const std::string& s, size_t at) {
  size_t e = 0;
  const std::string first = Lower(WordStartingAt(s, at, &e));
  if (first != "of") {  // "~35 ms came from the wire legs", "4 ms spent in the router": a share of a whole
    size_t e2 = 0;
    const std::string second = Lower(WordStartingAt(s, e, &e2));
    static const std::set<std::string> verbs = {"came", "comes", "spent", "goes", "went", "is", "was"};
    static const std::set<std::string> links = {"from", "in", "on", "to", "spent"};
    return verbs.count(first) > 0 && links.count(second) > 0 && !(first == "is" || first == "was" ? second != "spent" : false);
  }
  size_t p = e;
  const std::string art = Lower(WordStartingAt(s, e, &p));
  if (art != "a" && art != "an" && art != "the") p = e;
  while (p < s.size() && Skippable(s[p])) ++p;
  return p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]));
}

bool WholeOf(const std::string& s, size_t start) {
  size_t b = 0;
  std::string w = Lower(WordEndingAt(s, start, &b));
  if (w == "a" || w == "an" || w == "the") w = Lower(WordEndingAt(s, b, &b));
  if (w != "of") return false;
  // "3.1 ms of a 12 ms step": a figure before "of" is the part; "a
  // validation loss of 1.385" names the figure, no part of it.
  auto digit = [](const std::string& t) { return !t.empty() && std::isdigit(static_cast<unsigned char>(t[0])); };
  size_t b2 = 0;
  const std::string before = WordEndingAt(s, b, &b2);
  if (digit(before)) return true;
  size_t b3 = 0;
  const std::string number = WordEndingAt(s, b2, &b3);
  return before.empty() || digit(number) || (b2 > 0 && std::isdigit(static_cast<unsigned char>(s[b2 - 1])));
}

bool HypotheticalWord(const std::string& w) {
  static const std::set<std::string> k = {"would", "could", "might", "infinitely", "hypothetical", "hypothetically",
                                          "if", "otherwise", "unless", "ideal", "ideally", "theoretical", "theoretically", "ceiling"};
  return k.count(Lower(w)) > 0;
}

bool FutureWord(const std::string& w) {
  static const std::set<std::string> k = reader::DataWords("data/reader/status.json", "future_words");
  return k.count(Lower(w)) > 0;
}

bool AdviceLead(const std::string& w) {
  static const std::set<std::string> k = reader::DataWords("data/reader/vocabulary.json", "advice_leads");
  return k.count(Lower(w)) > 0;
}

bool GoalWord(const std::string& w) { return reader::ReaderLexicon().goal_words.count(Lower(w)) > 0; }

bool EstimateWord(const std::string& w) {
  std::string l = Lower(w);
  while (!l.empty() && (l.back() == ',' || l.back() == ':' || l.back() == ')')) l.pop_back();
  return reader::ReaderLexicon().estimate_words.count(l) > 0;
}

bool Estimate(const std::string& s, size_t start) {
  size_t p = start;
  while (p > 0 && (s[p - 1] == ' ' || s[p - 1] == '`' || s[p - 1] == '*')) --p;
  if (p > 0 && s[p - 1] == '~') return true;
  if (p >= 3 && s.compare(p - 3, 3, "\xE2\x89\x88") == 0) return true;  // ≈
  size_t b = 0;
  const std::string w = Lower(WordEndingAt(s, start, &b));
  return w == "approximately" || w == "roughly" || w == "approx";
}

bool SameAsWritten(double earlier, double later, int decimals) {
  if (decimals < 0 || decimals > 9 || later == 0) return false;
  static constexpr double kScale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};  // pow(10, d), exact
  const double scale = kScale[decimals];
  const double rounded = std::round(earlier * scale) / scale;
  return std::fabs(rounded - later) <= 1e-9 * std::max(1.0, std::fabs(later));
}

}  // namespace moelog::logbook::prose
