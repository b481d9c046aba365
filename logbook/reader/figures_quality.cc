// Reader stage figures: the qualities of a model's output written as bare
// numbers ("val loss 3.2791", "perplexity of 12.4", "Val loss: 3.2791"): no
// unit, a figure named by the quality (quality_words of table.json, the
// words that name such a figure in a column header too).
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

// A kernel's numerical error by its snake-case name, `us` its last '_'
// (numerics_words after one of numerics_qualifiers of vocabulary.json:
// "max_error", "max_abs_diff" is "abs_diff"); "" for any other name.
std::string NumericsName(const std::string& name, size_t us) {
  static const std::set<std::string> words = DataWords("data/reader/vocabulary.json", "numerics_words");
  static const std::set<std::string> qualifiers = DataWords("data/reader/vocabulary.json", "numerics_qualifiers");
  if (!words.count(name.substr(us + 1))) return "";
  const size_t q = name.rfind('_', us - 1);
  const size_t from = q == std::string::npos ? 0 : q + 1;
  return us > from && qualifiers.count(name.substr(from, us - from)) ? name.substr(from) : "";
}

}  // namespace

// A quality of a model's output by its snake-case name (quality_words of
// table.json: loss, bpb, perplexity ...), one qualifier before it at
// most (quality_qualifiers: "val_loss"; "final_val_loss" is val_loss; a
// quality_plain_qualifiers word says nothing of it: "final_score" is score):
// the name; "" for any other name.
std::string QualityName(const std::string& name) {
  static const std::set<std::string> best = DataWords("data/reader/vocabulary.json", "quality_best_qualifiers");
  // "best_val_loss", "best_loss": the run's best value, a figure of its own.
  if (const size_t b = name.find('_'); b != std::string::npos && best.count(name.substr(0, b))) {
    const std::string rest = QualityName(name.substr(b + 1));
    const size_t us = rest.rfind('_');  // a numerical error has no best
    return rest.empty() || (us != std::string::npos && !NumericsName(rest, us).empty()) ? "" : "best_" + rest;
  }
  static const std::set<std::string> qualities = DataWords("data/reader/table.json", "quality_words");
  static const std::set<std::string> qualifiers = DataWords("data/reader/vocabulary.json", "quality_qualifiers");
  const size_t us = name.rfind('_');
  if (us == std::string::npos && !qualities.count(name) && name.size() <= 24 && static_cast<unsigned char>(name[0]) >= 0x80)
    for (size_t k = 3; k < name.size(); ++k)  // "最大误差": a qualifier and a name written without a blank
      if ((static_cast<unsigned char>(name[k]) & 0xC0) != 0x80)
        if (std::string two = NumericsName(name.substr(0, k) + "_" + name.substr(k), k); !two.empty()) return two;
  if (us == std::string::npos) return qualities.count(name) ? name : "";
  if (!qualities.count(name.substr(us + 1))) return NumericsName(name, us);
  static const std::set<std::string> plain = DataWords("data/reader/vocabulary.json", "quality_plain_qualifiers");
  const size_t q = name.rfind('_', us - 1);
  const std::string qualifier = name.substr(q == std::string::npos ? 0 : q + 1, us - (q == std::string::npos ? 0 : q + 1));
  if (plain.count(qualifier)) return name.substr(us + 1);  // "Final score", "결과 점수": the score
  return qualifiers.count(qualifier) ? qualifier + name.substr(us) : "";
}

// The ASCII word a word ends in after another script's punctuation
// ("；Best" is "Best"); the word itself when it has none.
static std::string AsciiTail(const std::string& w) {
  size_t b = w.size();
  while (b > 0 && static_cast<unsigned char>(w[b - 1]) < 0x80) --b;
  return b > 0 && b < w.size() ? w.substr(b) : w;
}

// The word before `at` (WordBefore), or one in another script (`평균 차이`,
// `最大误差`): its letters back to a blank or an ASCII mark, past the last
// full-width mark (`：`, `；`, `，`) of that run.
static std::string ScriptWordBefore(const std::string& s, size_t at, size_t* begin) {
  if (std::string w = WordBefore(s, at, begin); !w.empty() || at == 0 || static_cast<unsigned char>(s[at - 1]) < 0x80)
    return w;
  size_t b = at;  // a word of 48 bytes at most (16 CJK letters): a longer run is no name
  while (b > 0 && at - b <= 48 && (static_cast<unsigned char>(s[b - 1]) >= 0x80 || IsIdentChar(s[b - 1]))) --b;
  if (at - b > 48) return "";
  for (size_t k = b; k + 2 < at; ++k)  // U+FF01..U+FF0F, U+FF1A..U+FF20 (full-width marks), U+3001, U+3002
    if ((s[k] == '\xEF' && s[k + 1] == '\xBC' && (static_cast<unsigned char>(s[k + 2]) <= 0x8F ||
                                                  (static_cast<unsigned char>(s[k + 2]) >= 0x9A && static_cast<unsigned char>(s[k + 2]) <= 0xA0))) ||
        (s[k] == '\xE3' && s[k + 1] == '\x80' && (s[k + 2] == '\x81' || s[k + 2] == '\x82')))
      b = k + 3;
  if (begin) *begin = b;
  return s.substr(b, at - b);
}

// "val loss 3.2791", "perplexity of 12.4", "final val loss was 3.2791": a
// number with no unit after a quality's name (QualityName), words of
// linking between at most: that name; "".
std::string QualityBefore(const std::string& s, size_t start) {
  static const std::set<std::string> links = {"was", "is", "of", "at", "reached", "hit", "now", "went", "to"};
  auto skip = [&s](size_t b) {
    while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == ':' || s[b - 1] == '=' || s[b - 1] == '`' || s[b - 1] == '*')) --b;
    return b;
  };
  size_t at = start;
  for (int n = 0; n < 4; ++n) {
    size_t wb = 0;
    const std::string w = SnakeKey(ScriptWordBefore(s, skip(at), &wb));
    if (w.empty() || !links.count(w)) {
      size_t qb = 0;
      const std::string q = SnakeKey(ScriptWordBefore(s, skip(wb), &qb));
      const std::string two = QualityName(q.empty() ? w : q + "_" + w);
      if (two.empty()) return QualityName(w);
      // "best val loss 2.6557": the word before the two may make it the best.
      const std::string first = q.empty() ? "" : SnakeKey(AsciiTail(WordBefore(s, skip(qb))));
      const std::string three = first.empty() ? "" : QualityName(first + "_" + two);
      return three.empty() ? two : three;
    }
    at = wb;
  }
  return "";
}

// The quality a bare number names: the words before it, or, for the text's
// first number, the label it follows ("Val loss: 3.2791"); "" for none.
std::string BareQuality(const std::string& s, size_t start, const ScanMode& mode) {
  if (std::string q = QualityBefore(s, start); !q.empty()) return q;
  if (s.find_first_not_of(" `*") != start) return "";
  std::string label;
  for (char c : mode.label)
    if (c != '*' && c != '`' && c != ':') label += c;
  return QualityName(SnakeKey(parse_detail::Trim(label)));
}

bool NamesOwnMetric(const std::string& word, const std::string& metric) {
  const std::string w = SnakeKey(word);
  return !w.empty() && (metric == w || (metric.size() > w.size() &&
                                        metric.compare(metric.size() - w.size() - 1, std::string::npos, "_" + w) == 0));
}

}  // namespace moelog::logbook::reader
