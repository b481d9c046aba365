// Reader stage figures, columns named in brackets before their values
// (figures_bracketcols.h).
#include "logbook/reader/figures_bracketcols.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

std::vector<std::string> CommaList(const std::string& s) {
  std::vector<std::string> out;
  for (size_t b = 0;;) {
    const size_t e = s.find(',', b);
    out.push_back(Trim(s.substr(b, e == std::string::npos ? std::string::npos : e - b)));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return out;
}

bool Digits(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

// A column's name as a key: "50" -> "p50", "min" as it is; "" when it is no
// plain word ("code:count").
std::string ColumnKey(const std::string& c) {
  if (Digits(c)) return "p" + c;
  if (c.empty() || !std::all_of(c.begin(), c.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }))
    return "";
  return c;
}

}  // namespace

bool BracketColumnsForm(const std::string& text, std::string* out) {
  const size_t open = text.find(" [");
  if (open == std::string::npos || open == 0 || text.size() > 600) return false;
  const size_t close = text.find(']', open);
  if (close == std::string::npos) return false;
  const std::string name = Trim(text.substr(0, open));
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])) || name.find(':') != std::string::npos) return false;
  const std::vector<std::string> cols = CommaList(text.substr(open + 2, close - open - 2));
  const std::vector<std::string> values = CommaList(Trim(text.substr(close + 1)));
  if (cols.size() != values.size() || cols.empty()) return false;
  std::string form = name + ":";
  for (size_t k = 0; k < cols.size(); ++k) {
    const std::string key = ColumnKey(cols[k]);
    const std::string& v = values[k];
    if (key.empty() || v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) || v.find(' ') != std::string::npos ||
        v.find(':') != std::string::npos)
      return false;
    form.append(k == 0 ? " " : ", ").append(key).append("=").append(v);
  }
  *out = form;
  return true;
}

bool BracketUnitHeader(const std::string& text, std::string* out) {
  if (text.find(" [") == std::string::npos || text.find(',') == std::string::npos || text.size() > 2000) return false;
  const std::vector<std::string> cells = CommaList(text);
  int bracketed = 0;
  std::string form;
  for (const std::string& c : cells) {
    if (c.empty() || std::isdigit(static_cast<unsigned char>(c[0]))) return false;
    std::string cell = c;
    if (const size_t open = c.rfind(" ["); open != std::string::npos && c.back() == ']') {
      cell = c.substr(0, open) + " (" + c.substr(open + 2, c.size() - open - 3) + ")";
      ++bracketed;
    }
    std::replace(cell.begin(), cell.end(), '.', ' ');  // "memory.used": a query's field
    form.append(form.empty() ? "" : ", ").append(cell);
  }
  if (bracketed < 2 || cells.size() < 2) return false;
  *out = form;
  return true;
}

}  // namespace moelog::logbook::reader
