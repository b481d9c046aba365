// Reader stage figures, the columns of a bench framework's result table
// (figures_frameworks.h): nvbench's `| T{ct} | Elements{io} | Samples | CPU
// Time | Noise | GPU Time | Noise | Elem/s |`, as printed or pasted as a
// Markdown table.
#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_frameworks.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

struct ColumnWords {
  std::set<std::string> followers;       // a header naming a statistic of the column before it ("noise")
  std::set<std::string> prefix;  // magnitude letters a cell may print before its column's unit
  size_t tag_max = 0;                    // the longest `{tag}` after an axis's name
  std::set<std::string> counts;          // a column counting the samples a row's figures sum (`Samples`: "11216x")
};

const ColumnWords& Words() {
  static const ColumnWords w = [] {
    ColumnWords out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("framework_columns") || !j["framework_columns"].is_object()) return out;
    const auto& c = j["framework_columns"];
    if (c.contains("follower_statistics") && c["follower_statistics"].is_array())
      for (const auto& s : c["follower_statistics"])
        if (s.is_string()) out.followers.insert(Lower(s.get<std::string>()));
    if (c.contains("cell_magnitudes") && c["cell_magnitudes"].is_array())
      for (const auto& s : c["cell_magnitudes"])
        if (s.is_string()) out.prefix.insert(s.get<std::string>());
    out.tag_max = c.value("axis_tag_max", 0);
    if (c.contains("sample_counts") && c["sample_counts"].is_array())
      for (const auto& v : c["sample_counts"])
        if (v.is_string()) out.counts.insert(Lower(v.get<std::string>()));
    return out;
  }();
  return w;
}

// "Elements{io}" -> "Elements": an axis's name without its type tag.
std::string Untagged(const std::string& h) {
  const std::string t = parse_detail::Trim(h);
  const size_t open = t.rfind('{');
  if (open == std::string::npos || open == 0 || t.back() != '}' || t.size() - open - 2 > Words().tag_max) return h;
  for (size_t k = open + 1; k + 1 < t.size(); ++k)
    if (!std::isalpha(static_cast<unsigned char>(t[k]))) return h;
  return t.substr(0, open);
}

}  // namespace

void FrameworkColumns(std::vector<std::string>* head) {
  for (size_t c = 0; c < head->size(); ++c) {
    (*head)[c] = Untagged((*head)[c]);
    const std::string h = Lower(parse_detail::Trim((*head)[c]));
    if (c == 0 || !Words().followers.count(h)) continue;
    std::string before = parse_detail::Trim((*head)[c - 1]);
    before = parse_detail::Trim(before.substr(0, before.find('(')));  // "GPU Time (us)": its name
    if (!before.empty()) (*head)[c] = before + " " + parse_detail::Trim((*head)[c]);  // "GPU Time Noise"
  }
}

void MagnitudeCells(const std::vector<std::string>& head, std::vector<std::string>* cells) {
  for (size_t c = 0; c < head.size() && c < cells->size(); ++c) {
    std::string& cell = (*cells)[c];
    const std::string t = parse_detail::Trim(cell);
    if (Words().counts.count(Lower(parse_detail::Trim(head[c]))) && t.size() > 1 && t.back() == 'x' &&
        ParseNumber(t.substr(0, t.size() - 1))) {  // nvbench's "11216x" samples: a count, no key of the run
      cell.clear();
      continue;
    }
    if (t.size() < 2 || !std::isdigit(static_cast<unsigned char>(t[0])) || !Words().prefix.count(t.substr(t.size() - 1))) continue;
    const std::string num = t.substr(0, t.size() - 1);
    if (!ParseNumber(num) || num.back() == '.') continue;
    const std::string letter = t.substr(t.size() - 1), named = parse_detail::Trim(head[c]);
    UnitInfo info{};
    for (const std::string& unit : {letter + named, letter + Lower(named)})  // "G" + "Elem/s": "Gelem/s"
      if (UnitOf(unit, &info) && !info.derived) {
        cell = num + " " + unit;
        break;
      }
  }
}

}  // namespace moelog::logbook::reader
