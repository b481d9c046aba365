// Reader stage blocks, a dump of pairs: lines of two fields alone, a
// setting's value or a run's name and a plain decimal (`0.01<TAB>1.3318`,
// `ckpt/model_5.pt 3.0627`). What is one (figures_dumps.cc reads it).
#include "logbook/reader/blocks_dumps.h"

#include <algorithm>
#include <cctype>

#include "logbook/text.h"

namespace moelog::logbook::reader {
namespace {

constexpr size_t kMinDumpRows = 3;

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// A run's name as a dump writes it: a path or an identifier with a digit or
// an underscore ("data/ckpt/test_model_11.pt", "run_7"), never a plain word.
bool RunName(const std::string& t) {
  if (t.size() < 2 || t.size() > 120 || DumpNumber(t) || t.back() == ':') return false;
  if (!std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' || c == '-'; }))
    return false;
  return t.find('/') != std::string::npos || t.find('_') != std::string::npos || std::any_of(t.begin(), t.end(), Digit);
}

}  // namespace

// A plain number: digits, one point at most, an exponent ("1e-4", "0.01", "512").
bool DumpNumber(const std::string& t) {
  if (t.empty() || t.size() > 32) return false;
  size_t i = t[0] == '-' ? 1 : 0, digits = 0, points = 0;
  for (; i < t.size() && (Digit(t[i]) || t[i] == '.'); ++i) (t[i] == '.' ? points : digits)++;
  if (digits == 0 || points > 1) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    const size_t from = i;
    while (i < t.size() && Digit(t[i])) ++i;
    if (i == from) return false;
  }
  return i == t.size();
}

// The two fields of a dump's line (false for any other line): the first a
// plain number or a run's name, the second a plain decimal.
bool DumpPairLine(const std::string& text, std::string* key, std::string* value) {
  const std::vector<std::string> toks = SpaceWords(text);
  if (toks.size() != 2 || toks[1].find('.') == std::string::npos || !DumpNumber(toks[1])) return false;
  if (!DumpNumber(toks[0]) && !RunName(toks[0])) return false;
  *key = toks[0], *value = toks[1];
  return true;
}

size_t PairDumpRows(const std::vector<std::pair<int, std::string>>& lines, size_t i) {
  size_t k = i;
  for (std::string key, value; k < lines.size() && DumpPairLine(lines[k].second, &key, &value); ++k) {
  }
  if (k - i < kMinDumpRows) return 0;
  std::string key, value;
  DumpPairLine(lines[i].second, &key, &value);
  const bool numbers = DumpNumber(key);
  for (size_t j = i; j < k; ++j)
    if (DumpPairLine(lines[j].second, &key, &value) && DumpNumber(key) != numbers) return 0;  // one kind of key
  return k - i;
}

size_t DumpAfterHead(const std::vector<std::pair<int, std::string>>& lines) {
  for (size_t head = 0; head <= 2 && head < lines.size(); ++head)
    if (PairDumpRows(lines, head) == lines.size() - head) return head;
  return std::string::npos;
}

}  // namespace moelog::logbook::reader
