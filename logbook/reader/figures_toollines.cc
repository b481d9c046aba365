// Reader stage figures, bench tools' printed lines (figures_toollines.h).
#include "logbook/reader/figures_toollines.h"

#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_bracketcols.h"
#include "logbook/reader/figures_pipefields.h"
#include "logbook/reader/figures_progressbar.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

// The rate words of a count's parenthesis ("per sec.", "/sec"; rate_parens
// of data/reader/output.json).
const std::set<std::string>& RateWords() {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/output.json", "rate_parens"));
  return *words;
}

// The brackets that hold a rate the line's name already names ("[#/sec]";
// rate_brackets of data/reader/output.json).
const std::set<std::string>& RateBrackets() {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/output.json", "rate_brackets"));
  return *words;
}

bool Number(const std::string& w) { return !w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && ParseNumber(w).has_value(); }

// "Time per request: 6.155 [ms] (mean)": the unit out of its brackets, or
// dropped when it is a rate the name says ("[#/sec]").
bool BracketUnit(const std::string& t, std::string* out) {
  const size_t colon = t.find(':'), open = t.find(" [");
  if (colon == std::string::npos || open == std::string::npos || open < colon) return false;
  const size_t close = t.find(']', open);
  if (close == std::string::npos) return false;
  const std::string value = parse_detail::Trim(t.substr(colon + 1, open - colon - 1));
  const std::string inner = t.substr(open + 2, close - open - 2);
  UnitInfo info{};
  const bool rate = RateBrackets().count(Lower(inner)) > 0;
  if (!Number(value) || (!rate && !AnyUnit(inner, &info))) return false;
  out->assign(t, 0, open);
  if (!rate) out->append(" ").append(inner);
  out->append(t, close + 1, std::string::npos);
  return true;
}

// "transactions:  12345  (411.45 per sec.)": the rate, named by the count's name.
bool CountRate(const std::string& t, std::string* out) {
  const size_t colon = t.find(':'), open = t.find('(');
  if (colon == std::string::npos || open == std::string::npos || open < colon || t.back() != ')') return false;
  const std::string count = parse_detail::Trim(t.substr(colon + 1, open - colon - 1));
  const auto inner = Words(t.substr(open + 1, t.size() - open - 2));
  if (!Number(count) || inner.size() < 2 || !Number(inner[0])) return false;
  std::string rate;
  for (size_t k = 1; k < inner.size(); ++k) rate.append(k > 1 ? " " : "").append(Lower(inner[k]));
  if (!RateWords().count(rate)) return false;
  out->assign(parse_detail::Trim(t.substr(0, colon)));
  out->append(" per sec: ").append(inner[0]);
  return true;
}

// "[READ], AverageLatency(us), 1114.39": a group in brackets, a name with
// its unit in parentheses, a number, comma-separated (YCSB's report lines):
// "READ AverageLatency: 1114.39 us". A name without a unit
// ("[READ], Operations, 4073") or a unit the vocabulary does not know keeps
// its name alone ("READ Operations: 4073").
bool GroupedCsvLine(const std::string& t, std::string* out) {
  if (t.size() < 8 || t.front() != '[') return false;
  const size_t close = t.find("], ");
  if (close == std::string::npos || close < 2) return false;
  const size_t comma = t.find(", ", close + 3);
  if (comma == std::string::npos || t.find(',', comma + 2) != std::string::npos) return false;
  const std::string group = t.substr(1, close - 1), value = parse_detail::Trim(t.substr(comma + 2));
  std::string name = parse_detail::Trim(t.substr(close + 3, comma - close - 3));
  if (group.find(' ') != std::string::npos || name.empty() || !Number(value)) return false;
  std::string unit;
  if (const size_t open = name.find('('); open != std::string::npos && name.back() == ')') {
    unit = name.substr(open + 1, name.size() - open - 2);
    name = parse_detail::Trim(name.substr(0, open));
    UnitInfo info{};
    if (unit != "%" && !AnyUnit(unit, &info)) unit.clear();
  }
  if (name.empty() || name.find(' ') != std::string::npos) return false;
  *out = group + " " + name + ": " + value + (unit.empty() ? "" : unit == "%" ? "%" : " " + unit);
  return true;
}

}  // namespace

std::string ToolLineForm(const std::string& text) {
  std::string out;
  if (BracketUnit(text, &out) || CountRate(text, &out) || GroupedCsvLine(text, &out) || ProgressBarForm(text, &out) ||
      BracketColumnsForm(text, &out) || BracketUnitHeader(text, &out))
    return out;
  return PipeLineForm(text);  // "Tokens/s: 106979 | FLOPs/token: 8.78 GF (6N: N=1.3B)"
}

}  // namespace moelog::logbook::reader
