// The figures stage on figures written beside one another: a run's
// companions in parentheses right after its figure ("0.5852 ms (1433 GB/s)",
// "3.7 tok/s (3 tokens in 801ms, prefill 2455ms)") and the sides of a
// comparison of runs ("12.9s vs 12.9s", "(19.70s with nice vs 17.69s
// without)", "about 736 ns/call versus about 2 ns/call").
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_fromto.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

const std::set<std::string>& VersusWords() {
  static const auto* w = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "versus_words"));
  return *w;
}

const std::set<std::string>& CountSpanWords() {
  static const auto* w = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "count_span_words"));
  return *w;
}

bool Blank(char c) { return c == ' ' || c == '`' || c == '*' || c == '~'; }

// Past a word of approximation and a "~" before a number ("about 2", "~4.5").
size_t PastApproximation(const std::string& s, size_t q) {
  static const auto* approx = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "approximation_words"));
  while (q < s.size() && Blank(s[q])) ++q;
  size_t e = q;
  if (approx->count(Lower(WordAt(s, q, &e)))) q = e;
  while (q < s.size() && Blank(s[q])) ++q;
  return q;
}

// A versus word at q ("vs", "vs.", "versus"): where it ends, else npos.
size_t VersusAt(const std::string& s, size_t q) {
  size_t e = q;
  if (!VersusWords().count(Lower(WordAt(s, q, &e)))) return std::string::npos;
  if (e < s.size() && s[e] == '.') ++e;
  return e;
}

// "8 tokens in ": a count of what the figure after it spans, written right
// after the parenthesis opens (from `k`, before `start`); where it ends,
// else `k`.
size_t CountSpan(const std::string& s, size_t k, size_t start) {
  size_t p = k;
  while (p < start && s[p] == ' ') ++p;
  const size_t d = p;
  while (p < start && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
  if (p == d || p >= start || s[p] != ' ') return k;
  size_t e = p;
  const std::string noun = Lower(WordAt(s, p, &e));
  if (!PluralNoun(noun)) return k;
  const std::string span = Lower(WordAt(s, e, &e));
  return CountSpanWords().count(span) && e <= start ? e : k;
}

}  // namespace

bool SpansACount(const std::string& s, size_t at) {
  size_t b = at;
  if (!CountSpanWords().count(Lower(WordBefore(s, at, &b)))) return false;
  const std::string noun = Lower(WordBefore(s, b, &b));
  if (!PluralNoun(noun)) return false;
  while (b > 0 && s[b - 1] == ' ') --b;
  size_t d = b;
  while (d > 0 && std::isdigit(static_cast<unsigned char>(s[d - 1]))) --d;
  return d < b && d > 0 && s[d - 1] == '(';  // "41 passed, 2 warnings in 7.95s": a job's
}

// The versus word right before the number at `start` ("vs 13.7s", "versus
// about 2 ns/call"): where it starts, else npos.
size_t VersusBefore(const std::string& s, size_t start) {
  size_t b = start;
  while (b > 0 && Blank(s[b - 1])) --b;
  size_t w = b;
  std::string word = Lower(WordBefore(s, b, &w));
  static const auto* approx = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "approximation_words"));
  if (approx->count(word)) {
    b = w;
    word = Lower(WordBefore(s, b, &w));
  }
  if (word.empty() && w > 0 && s[w - 1] == '.') word = Lower(WordBefore(s, w - 1, &w));  // "vs. 12 ms"
  return VersusWords().count(word) ? w : std::string::npos;
}

// Whether the figure whose unit ends at `end` is the first side of a
// comparison: at most three words, then a versus word and a number
// ("13.1s vs 13.7s", "19.70s with nice vs 17.69s"), within its clause.
bool VersusAfter(const std::string& s, size_t end) {
  size_t q = end;
  for (int words = 0; words <= 3; ++words) {
    while (q < s.size() && Blank(s[q])) ++q;
    if (const size_t v = VersusAt(s, q); v != std::string::npos) {
      const size_t n = PastApproximation(s, v);
      return n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]));
    }
    size_t e = q;
    if (WordAt(s, q, &e).empty() || e == q) return false;
    q = e;
  }
  return false;
}

// The unit of the number after a versus word right after a bare number
// ("9.4 vs 9.45s"): what the bare number is measured in; "" when none.
std::string VersusUnit(const std::string& s, size_t at) {
  const size_t v = VersusAt(s, at);
  if (v == std::string::npos) return "";
  return UnitOfNumberAt(s, PastApproximation(s, v));
}

// Whether the figure `f` read at [start, end) is a side of a comparison
// of runs: the first ("13.1s vs", VersusAfter) or one after a versus word
// that follows a figure of its metric in its clause ("vs 13.7s").
bool VersusSide(const FigureScan& st, size_t start, size_t end, const Figure& f) {
  if (f.derived || f.not_run || f.metric == kNoUnit || f.metric == kCarried || f.unit.empty()) return false;
  if (VersusAfter(st.s, end)) return true;
  const size_t v = VersusBefore(st.s, start);
  return v != std::string::npos && !st.out.empty() && st.last_end != std::string::npos && st.last_end <= v &&
         v - st.last_end <= 80 && st.out.back().metric == f.metric && !st.out.back().not_run;
}

// "12.4s vs 12.6s": the figure after a versus word and the one before it,
// of one metric in one sentence, named alike (or one of them not at all),
// are two runs: each keyed by its side of the comparison, in order
// ("side=1", "side=2", "side=3" for "A vs B vs C").
void VersusSides(FigureScan& st, size_t start, Figure* f) {
  if (f->derived || f->not_run || st.out.empty() || st.last_end == std::string::npos) return;
  const size_t v = VersusBefore(st.s, start);
  if (v == std::string::npos || st.last_end > v || v - st.last_end > 80) return;
  for (size_t k = st.last_end; k < v; ++k)
    if (st.s[k] == '.' || st.s[k] == ';' || st.s[k] == '\n') return;
  Figure& prev = st.out.back();
  if (prev.derived || prev.not_run || prev.metric != f->metric || prev.sentence != f->sentence) return;
  if (!prev.word.empty() && !f->word.empty() && prev.word != f->word) return;  // "baseline 4.1 ms vs fused 2.3 ms"
  const auto side = prev.named.find("side");
  const int n = side == prev.named.end() ? 1 : std::atoi(side->second.c_str());
  if (n < 1) return;
  prev.named["side"] = std::to_string(n);
  f->named["side"] = std::to_string(n + 1);
}

// "0.5852 ms (1433 GB/s)": a figure of another metric opening the
// parentheses right after a figure is the same run's, named as it is; so
// are the figures after it in those parentheses, each after a comma and at
// most a word naming a part of the run ("(3 tokens in 801ms, prefill
// 2455ms)"); a count of what the figure spans may lead it ("8 tokens in").
bool ParenCompanion(FigureScan& st, size_t start, Figure f, const std::string& num) {
  if (st.out.empty() || st.last_end == std::string::npos || st.last_end > start || st.depth != 1) return false;
  const Figure& prev = st.out.back();
  if (prev.derived || f.metric == kNoUnit || prev.metric == kNoUnit) return false;
  // "2.08 s (min: 1.77 s, max: 2.39 s)": after one statistic of the figure, the next one.
  const size_t us = prev.metric.find('_');
  const bool continues = us != std::string::npos && prev.metric.substr(us + 1) == f.metric && StatisticWord(prev.metric.substr(0, us));
  const bool chained = st.companions > 0;  // the figure before is a companion in these parentheses
  const bool comma = continues || chained;
  int parens = chained ? 1 : 0;
  std::string stat, part;
  size_t k = st.last_end;
  for (; k < start && st.s[k] != '(' && !(comma && st.s[k] == ','); ++k)
    if (st.s[k] != ' ' && st.s[k] != '`' && st.s[k] != '*') return false;
  for (; k < start; ++k) {
    if (st.s[k] == '(') {
      ++parens;
      if (const size_t e = CountSpan(st.s, k + 1, start); e != k + 1) k = e - 1;  // "(8 tokens in 1540ms"
    } else if (std::isalpha(static_cast<unsigned char>(st.s[k]))) {
      // "(peak 38.2 GiB)", "(mean 3.1 ms)": one word naming the figure's statistic or what it measures.
      size_t e = k;
      while (e < start && std::isalpha(static_cast<unsigned char>(st.s[e]))) ++e;
      const std::string w = Lower(st.s.substr(k, e - k));
      if (w == "peak" || StatisticWord(w)) stat = w;
      else if (chained && part.empty() && PartOfARun(w)) part = w;  // ", prefill 2455ms"
      else if (!MetricWord(w)) return false;
      k = e - 1;
    } else if (st.s[k] != ' ' && st.s[k] != '`' && st.s[k] != '*' && st.s[k] != ':' && !(comma && st.s[k] == ',')) {
      return false;
    }
  }
  if (!part.empty()) f.metric = QualifiedMetricName(part, f.metric);
  // Of a metric the run has already only a named statistic ("min: 1.77 s"), kept under its name.
  bool same = continues;
  for (size_t n = st.out.size() - std::min(st.out.size(), static_cast<size_t>(st.companions) + 1); n < st.out.size(); ++n)
    same = same || st.out[n].metric == f.metric;
  if ((continues ? parens > 1 : parens != 1) || (same && stat.empty())) return false;
  if (same) f.metric = stat + "_" + f.metric;
  f.word = prev.word, f.named = prev.named, f.subject = prev.subject, f.sentence = prev.sentence;
  f.restated = prev.restated, f.run_tag = prev.run_tag, f.not_run = prev.not_run, f.refers = prev.refers;
  f.decimals = f.decimals == -2 ? -1 : WrittenDecimals(num);
  st.out.push_back(f);
  ++st.companions;
  return true;
}

}  // namespace moelog::logbook::reader
