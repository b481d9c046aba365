// The table of an entry's recorded figures when moelog ran nothing for it:
// the keys every figure shares said once, a row per figure, figures moelog
// cannot tell apart listed under it.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/blocks_benchtools.h"
#include "logbook/render/render_table.h"
#include "logbook/render/table_parts.h"
#include "logbook/store/stored_run.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

using table_parts::Cell;
using table_parts::EscapeCell;
using table_parts::kPriority;
using table_parts::RecordedCell;
using table_parts::RecordedColumns;

// One table of recorded figures (`numbers`: each figure's number in the
// whole record, document order), its notes after it.
std::string RecordedTablePart(const std::vector<RecordedFigure>& figures, const std::vector<int>& numbers) {
  std::string out;
  // Keys every figure has with one value are said once; the others are columns.
  std::map<std::string, std::set<std::string>> values;
  std::map<std::string, size_t> present;
  for (const auto& f : figures)
    for (const auto& [k, v] : f.run.config) values[k].insert(v), ++present[k];
  std::vector<std::string> keys, shared;
  for (const char* k : kPriority)
    if (values.count(k) && (values[k].size() > 1 || present[k] < figures.size())) keys.push_back(k);
  for (const auto& [k, vs] : values) {
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    if (vs.size() > 1 || present[k] < figures.size()) keys.push_back(k);
    // moelog's own process settings (json, trace_dir) say nothing of a run;
    // another harness's flags of those names are its settings (threads=4).
    else if (!IsIgnoredForPairing(k) || values.count("harness")) shared.push_back(k + "=" + *vs.begin());
  }
  std::string every;
  if (!shared.empty()) {
    every = "- Every figure above: ";
    for (size_t i = 0; i < shared.size(); ++i) every += (i ? ", " : "") + shared[i];
    every = NoteLine(every + ".");
  }
  out += "|";
  const auto cols = RecordedColumns(figures);
  Cell(&out, "#");
  for (const auto& k : keys) Cell(&out, EscapeCell(k));
  for (const auto& c : cols) Cell(&out, EscapeCell(c.header));
  out += "\n|";
  for (size_t i = 0; i < 1 + keys.size(); ++i) out += " --- |";
  for (size_t i = 0; i < cols.size(); ++i) out += " ---: |";
  out += "\n";
  // Figures are numbered in document order (their run IDs' "#n"); lines
  // would move as regions are written above them.
  std::map<std::map<std::string, std::string>, std::vector<int>> same;  // config -> figure numbers
  for (size_t n = 0; n < figures.size(); ++n) {
    const RecordedFigure& f = figures[n];
    out += "|";
    Cell(&out, std::to_string(numbers[n]));
    for (const auto& k : keys) {
      auto it = f.run.config.find(k);
      Cell(&out, it == f.run.config.end() ? "-" : EscapeCell(it->second));  // "Store||XOR" is one cell
    }
    for (const auto& c : cols) Cell(&out, RecordedCell(f, c));
    out += "\n";
    same[f.run.config].push_back(numbers[n]);
  }
  std::string dup;
  for (const auto& [cfg, lines] : same) {
    if (lines.size() < 2) continue;
    dup += "- figures";
    for (size_t i = 0; i < lines.size(); ++i) dup += (i ? ", " : " ") + std::to_string(lines[i]);
    dup += ": the same configuration as far as the entry says (nothing tells these figures apart)\n";
  }
  if (!every.empty()) out += "\n" + every + "\n";
  if (!dup.empty()) out += "\nRecorded figures moelog cannot tell apart:\n\n" + dup;
  return out;
}

}  // namespace

std::string RenderRecordedTable(const std::vector<RecordedFigure>& figures) {
  std::string out = "Recorded in this logbook; moelog ran nothing.";
  if (figures.empty()) return out + "\n";
  // A profiler's reports (its kernels', its API calls') are workloads of
  // their own: a table each, its figures numbered in the record's order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> parts;
  for (size_t n = 0; n < figures.size(); ++n) {
    auto it = figures[n].run.config.find(reader::kWorkloadKey);
    const std::string w = it == figures[n].run.config.end() ? "" : it->second;
    if (!parts.count(w)) order.push_back(w);
    parts[w].push_back(n);
  }
  for (const auto& w : order) {
    std::vector<RecordedFigure> part;
    std::vector<int> numbers;
    for (size_t n : parts[w]) part.push_back(figures[n]), numbers.push_back(static_cast<int>(n + 1));
    if (order.size() > 1 && !w.empty())  // the report is named above its table
      for (auto& f : part) f.run.config.erase(reader::kWorkloadKey);
    out += out.back() == '\n' ? "\n" : "\n\n";
    if (order.size() > 1 && !w.empty()) out += "Report `" + w + "`:\n\n";
    out += RecordedTablePart(part, numbers);
  }
  return out;
}

}  // namespace moelog::logbook
