// Reader stage figures: one record of a printout, one row. A record is the
// lines between a title inside banner marks ("==== RESULTS: 10 Concurrent
// Users ====", or a frame's first line, PrintedLines) and the mark alone or
// the next such title. Its lines are read one by one (a duration, a group
// of statistics, a throughput), each its own row at first; this pass makes
// them the record's one row: each metric named with the group or the label
// it was printed under ("TIME TO FIRST TOKEN" + avg_time_s), the record's
// title its key (record=...).
#include <algorithm>
#include <string>
#include <vector>

#include "logbook/reader/blocks.h"
#include "logbook/reader/figures_printed.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

struct Record {
  std::string title;
  int first = 0, last = 0;  // the lines of its body
};

std::vector<Record> Records(const std::vector<PrintedLine>& lines) {
  std::vector<Record> out;
  bool open = false;
  for (const auto& l : lines) {
    bool closing = false;
    std::string title;
    const bool banner = !PrintedRecordBanner(l.text, &closing).empty();
    if (banner && !closing && PrintedTitle(l.text, &title)) {
      out.push_back({title, l.line + 1, l.line});
      open = true;
    } else if (banner || AfterPrompt(l.text).size() > 0) {
      open = false;
    } else if (open) {
      out.back().last = l.line;
    }
  }
  return out;
}

// The words a figure's row was printed under, as a prefix of its metrics'
// names ("TIME TO FIRST TOKEN", "THROUGHPUT Aggregate"); "" when none.
std::string PrintedUnder(const Config& c) {
  std::string under;
  for (const char* key : {"group", "metric"})
    if (auto it = c.find(key); it != c.end() && !it->second.empty()) under += (under.empty() ? "" : " ") + it->second;
  return under.empty() ? "" : SnakeKey(under);
}

// A statistic in parentheses that ends the figure's line ("Per Request:
// 30.8 tok/s (p50)" after its "(avg)" line): its word, else "".
std::string TrailingStatistic(const std::string& text) {
  const std::string t = Trim(text);
  const size_t open = t.rfind('(');
  if (open == std::string::npos || t.back() != ')') return "";
  const std::string w = Lower(Trim(t.substr(open + 1, t.size() - open - 2)));
  return StatisticWord(w) ? w : "";
}

// The configuration apart from what names a figure within the record.
Config Apart(Config c) {
  c.erase("group");
  c.erase("metric");
  return c;
}

// The record's figures (indices into out, from `from` on) as one row, when
// nothing but the words they were printed under tells them apart.
void MergeRecord(const Record& rec, size_t from, std::vector<RecordedFigure>* out) {
  std::vector<size_t> in;
  for (size_t k = from; k < out->size(); ++k)
    if ((*out)[k].line >= rec.first && (*out)[k].line <= rec.last) in.push_back(k);
  if (in.size() < 2) return;
  const Config shared = Apart((*out)[in.front()].run.config);
  for (size_t k : in)
    if (Apart((*out)[k].run.config) != shared) return;  // a key of its own: runs of their own
  RecordedFigure row = (*out)[in.front()];
  row.run.metrics.clear(), row.run.units.clear(), row.run.decimals.clear(), row.run.repeats.clear();
  row.run.derived.clear(), row.run.approximate.clear(), row.joined_lines.clear();
  std::vector<size_t> merged;
  for (size_t k : in) {
    std::string prefix = PrintedUnder((*out)[k].run.config);
    if (const std::string stat = TrailingStatistic((*out)[k].text); !stat.empty())
      prefix += (prefix.empty() ? "" : "_") + stat;
    if (JoinRun(&row, (*out)[k], prefix)) merged.push_back(k);
  }
  if (merged.size() < 2) return;
  row.run.config = shared;
  row.run.config["record"] = rec.title;
  row.line = (*out)[merged.front()].line;
  row.joined_lines.erase(std::remove(row.joined_lines.begin(), row.joined_lines.end(), row.line), row.joined_lines.end());
  (*out)[merged.front()] = std::move(row);
  for (auto it = merged.rbegin(); it + 1 != merged.rend(); ++it) out->erase(out->begin() + static_cast<std::ptrdiff_t>(*it));
}

}  // namespace

void RecordRows(const std::vector<PrintedLine>& lines, size_t from, std::vector<RecordedFigure>* out) {
  const auto records = Records(lines);
  for (auto it = records.rbegin(); it != records.rend(); ++it) MergeRecord(*it, from, out);
}

}  // namespace moelog::logbook::reader
