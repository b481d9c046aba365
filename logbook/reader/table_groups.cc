// Tables of one group each (the table stage): an entry's tables with the
// same columns but the first, whose header names the group its rows belong
// to rather than a column ("| tornado 6.4.1 | image | req/s |", then "|
// aiohttp 3.9.5 | image | req/s |": a framework and its version) are one
// table: the rows' labels under one key, the header's text a second key
// ("group=tornado 6.4.1"), never a key of its own per table. A lone table
// whose first header ends in a version ("| uvicorn 0.29.0 | ... |") is read
// so too. The keys' names are data (table.json "group_tables").
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/reader/table_groups.h"
#include "logbook/reader/figures_frameworks.h"

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

struct GroupKeys {
  std::string group = "group", label = "variant";
};

const GroupKeys& Keys() {
  static const GroupKeys k = [] {
    GroupKeys out;
    const nlohmann::json& j = ReaderDataJson("data/reader/table.json");
    if (!j.is_object() || !j.contains("group_tables") || !j["group_tables"].is_object()) return out;
    const nlohmann::json& g = j["group_tables"];
    if (g.contains("group_key") && g["group_key"].is_string()) out.group = g["group_key"].get<std::string>();
    if (g.contains("label_key") && g["label_key"].is_string()) out.label = g["label_key"].get<std::string>();
    return out;
  }();
  return k;
}

std::string Plain(const std::string& h) { return Lower(parse_detail::Trim(h)); }

bool HasDigit(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "1.12.2", "v3.9", "2.3.3.RELEASE": a version number.
bool VersionWord(std::string w) {
  if (!w.empty() && (w[0] == 'v' || w[0] == 'V')) w.erase(0, 1);
  const size_t dot = w.find('.');
  return dot != std::string::npos && dot > 0 && dot + 1 < w.size() &&
         std::isdigit(static_cast<unsigned char>(w[0])) && std::isdigit(static_cast<unsigned char>(w[dot + 1]));
}

// A first header that can name a group: no metric, no setting, no key of a
// run ("model", "batch"), and a name with a number in it ("solon 1.12.2",
// "A100"); a lone table's ends in a version.
bool GroupHeader(const std::string& h, const EntryCtx& x, bool lone) {
  const std::string p = Plain(h);
  if (p.empty() || !ColumnMetric(h).metric.empty() || SettingHeader(h)) return false;
  const std::string key = NormalizeKey(p);
  if (IsRunKey(key) || x.vars.count(key) || x.fixed.count(key)) return false;
  const auto words = Words(p);
  if (lone) return words.size() >= 2 && VersionWord(words.back());
  return HasDigit(p);
}

bool SameOtherColumns(const TableBlock& a, const TableBlock& b) {
  if (a.header.size() != b.header.size() || a.header.size() < 2) return false;
  for (size_t c = 1; c < a.header.size(); ++c)
    if (Plain(a.header[c]) != Plain(b.header[c])) return false;
  return true;
}

}  // namespace

bool GroupTable(const Entry& e, const TableBlock& t, const EntryCtx& x, TableBlock* renamed, std::string* group) {
  if (t.header.size() < 2) return false;
  size_t siblings = 0;
  bool all_groups = GroupHeader(t.header[0], x, false);
  for (const auto& o : e.tables) {
    if (&o == &t || !SameOtherColumns(o, t) || Plain(o.header[0]) == Plain(t.header[0])) continue;
    ++siblings;
    all_groups = all_groups && GroupHeader(o.header[0], x, false);
  }
  if (siblings == 0 ? !GroupHeader(t.header[0], x, true) : !all_groups) return false;
  *renamed = t;
  renamed->header[0] = Keys().label;
  *group = parse_detail::Trim(t.header[0]);
  return true;
}

void EntryTableFigures(const Entry& e, const TableBlock& table, Config context, const EntryCtx& x,
                       std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  TableBlock t = table;  // a framework's columns as read (figures_frameworks.h): "GPU Time | Noise", "23.504G"
  FrameworkColumns(&t.header);
  for (auto& row : t.rows) MagnitudeCells(t.header, &row);
  TableBlock renamed;
  std::string group;
  if (!GroupTable(e, t, x, &renamed, &group)) return TableFigures(t, context, x, out, unread);
  context[Keys().group] = group;
  TableFigures(renamed, context, x, out, unread);
}

}  // namespace moelog::logbook::reader
