// A record's field that names the unit of the figure beside it: a job
// record's "- performance: `5868.9`" over "- unit: `GFLOPS`".
#include "logbook/reader/figures_unitfield.h"

#include <algorithm>
#include <set>
#include <string>

#include "logbook/reader/data_words.h"

namespace moelog::logbook::reader {
namespace {

// The plain text of a field's label or value: no emphasis, no code marks.
std::string Plain(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '*' && c != '`' && c != '_') out += c;
  return Trim(out);
}

// The unit item `b` names ("unit: `GFLOPS`"), or "".
std::string UnitField(const Bullet& b) {
  static const auto* names = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "unit_field_names"));
  const size_t colon = LabelEnd(b.text);
  if (colon == std::string::npos || !b.children.empty() || !names->count(Lower(Plain(b.text.substr(0, colon))))) return "";
  const std::string unit = Plain(b.text.substr(colon + 1));
  UnitInfo info{};
  return !unit.empty() && Words(unit).size() == 1 && AnyUnit(unit, &info) && !info.derived ? unit : "";
}

// Whether item `b` is a label over one bare number ("performance: `5868.9`").
bool BareItem(const Bullet& b) {
  const size_t colon = LabelEnd(b.text);
  return colon != std::string::npos && b.children.empty() && BareNumber(b.text.substr(colon + 1));
}

}  // namespace

const std::vector<Bullet>& WithUnitFields(const std::vector<Bullet>& items, std::vector<Bullet>* storage) {
  if (std::none_of(items.begin(), items.end(), [](const Bullet& b) { return !UnitField(b).empty(); })) return items;
  *storage = items;
  for (size_t i = 0; i < storage->size(); ++i) {
    const std::string unit = UnitField((*storage)[i]);
    if (unit.empty()) continue;
    if (i > 0 && BareItem((*storage)[i - 1])) (*storage)[i - 1].text += " " + unit;
    else if (i + 1 < storage->size() && BareItem((*storage)[i + 1])) (*storage)[i + 1].text += " " + unit;
  }
  return *storage;
}

}  // namespace moelog::logbook::reader
