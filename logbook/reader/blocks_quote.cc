// The blocks stage for block quotes: a quote holds the entry's own words
// (a status, a result) unless it quotes another source or an earlier
// entry. Words: data/reader/blocks.json (quote_first_words,
// quote_source_words).
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/blocks.h"
#include "logbook/reader/data_words.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

struct QuoteWords {
  std::set<std::string> first, source;
};

const QuoteWords& Words() {
  static const QuoteWords w = [] {
    QuoteWords q;
    q.first = reader::DataWords("data/reader/blocks.json", "quote_first_words");
    q.source = reader::DataWords("data/reader/blocks.json", "quote_source_words");
    return q;
  }();
  return w;
}

// The lower-case words of `s` (letters and digits; the rest separates).
std::vector<std::string> LowerWords(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x80 && std::isalnum(c)) {
      w += static_cast<char>(std::tolower(c));
    } else if (!w.empty()) {
      out.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

}  // namespace

bool QuotesAnotherSource(std::string_view first, std::string_view last) {
  const std::string l = Trim(last);
  if (l.starts_with("\xE2\x80\x94") || l.starts_with("\xE2\x80\x93") || l.starts_with("--") || l.starts_with("- ")) return true;
  const std::string f = Trim(first);
  const size_t colon = f.find(':');
  const std::vector<std::string> label = LowerWords(std::string_view(f).substr(0, colon == std::string::npos ? 0 : colon));
  if (label.empty() || label.size() > 8) return false;
  if (Words().first.count(label.front())) return true;
  for (const std::string& w : label)
    if (Words().source.count(w)) return true;
  return false;
}

}  // namespace moelog::logbook
