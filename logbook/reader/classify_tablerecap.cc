// Reader stage classify: a table of an entry that repeats the rows of a
// table above it in the same entry (a report's "key figures" under its
// summary table, rounded as it likes: `80ms` of 80.31ms) is no run; nor is a
// table that recaps earlier entries (RecapTables).
#include <string>
#include <vector>

#include "logbook/reader/internal.h"
#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {
namespace {

// Whether some figure of `run` of its own is written with three significant
// digits or more (ThreeDigits of that figure alone): enough that the
// table's figures do not repeat the ones above by chance.
bool SomeThreeDigits(const StoredRun& run) {
  for (const auto& [metric, value] : run.metrics) {
    if (run.derived.count(metric)) continue;
    StoredRun one;
    one.metrics[metric] = value;
    if (const auto u = run.units.find(metric); u != run.units.end()) one.units[metric] = u->second;
    if (const auto d = run.decimals.find(metric); d != run.decimals.end()) one.decimals[metric] = d->second;
    if (ThreeDigits(one)) return true;
  }
  return false;
}

}  // namespace

bool TableRowDigits(const StoredRun& run) {
  size_t own = 0;
  for (const auto& [metric, value] : run.metrics) own += run.derived.count(metric) ? 0 : 1;
  return ThreeDigits(run) || (own >= 2 && SomeThreeDigits(run));
}

void DropRepeatedTables(const Entry& e, std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* unread) {
  for (size_t k = 1; k < e.tables.size(); ++k) {
    const TableBlock& t = e.tables[k];
    std::vector<const StoredRun*> above;
    std::vector<size_t> rows;
    bool all = true, digits = false;
    for (size_t i = 0; i < figs->size(); ++i) {
      const RecordedFigure& f = (*figs)[i];
      if (f.table && f.line < t.line) above.push_back(&f.run);
      if (f.table && f.line >= t.line && f.line <= t.end_line) rows.push_back(i);
    }
    if (above.empty() || rows.empty()) continue;
    size_t figures = 0;  // one figure alike is chance (a group's one row: `| jfinal | 12.3万 |`)
    for (size_t i : rows) {
      all = all && RestatesRun((*figs)[i].run, above);
      digits = digits || SomeThreeDigits((*figs)[i].run);
      for (const auto& [metric, value] : (*figs)[i].run.metrics) figures += (*figs)[i].run.derived.count(metric) ? 0 : 1;
    }
    if (!all || !digits || figures < 2) continue;
    for (auto i = rows.rbegin(); i != rows.rend(); ++i) {
      if (unread) unread->push_back({(*figs)[*i].line, (*figs)[*i].text, "restates a figure of a table above in this entry, not another run"});
      figs->erase(figs->begin() + static_cast<std::ptrdiff_t>(*i));
    }
  }
}

void RecapTables(const Entry& e, const std::vector<RecordedFigure>& figs, const EarlierFigures& earlier,
                 std::vector<std::string>* from) {
  constexpr size_t kSure = 3;  // figures at three digits that restate: no chance
  for (const TableBlock& t : e.tables) {
    std::vector<size_t> cells;
    size_t sure = 0;
    bool all = true;
    for (size_t i = 0; i < figs.size() && all; ++i) {
      if (!figs[i].table || figs[i].line < t.line || figs[i].line > t.end_line) continue;
      cells.push_back(i);
      sure += (*from)[i].empty() ? 0 : 1;
      all = !(*from)[i].empty() || !EarlierEntryOf(figs[i].run, earlier, false).empty();
    }
    if (!all || sure < kSure || cells.size() == sure) continue;
    for (size_t i : cells)
      if ((*from)[i].empty()) (*from)[i] = EarlierEntryOf(figs[i].run, earlier, false);
  }
}

}  // namespace moelog::logbook::reader
