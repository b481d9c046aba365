// The classify stage's datasheet rule: a line or a table's row whose only
// label is a device's name ("- A100: 2.0 TB/s", "H100 SXM — 989 TFLOP/s
// bf16, 3.35 TB/s", "| MI250X | 3.2 TB/s | 383 TFLOP/s |"; or a row of a
// table whose columns are devices only, "| | A100 | H100 |"; or a line of
// prose that names a device and a verb of having, "The H100 SXM has 3.35
// TB/s of HBM3 bandwidth", spec_verbs) and whose figures
// are all bandwidth, compute or memory states the device's datasheet, not a
// run, when no verb of measuring stands on the line (nor in the table's
// header) and the part it sits in (up to its sub-heading) runs no command
// and prints no output. The device names and the words that may stand
// beside them in such a label (device_qualifiers: "SXM", "PCIe", "Tesla")
// are data (hardware.json). Prose of such a part whose figures are all
// numbers of its datasheet table's cells ("288 vs 180GiB (1.6x)") repeats
// the datasheet, no run; so does a list of only ratings under a heading
// naming the device alone (a tool's device properties).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// Whether `label` is a device's name only: a name of hardware.json with
// words of the name, numbers ("80GB") and device_qualifiers beside it, four
// words at most.
bool DeviceLabel(std::string label) {
  label.erase(std::remove_if(label.begin(), label.end(), [](char c) { return c == '*' || c == '_' || c == '`'; }), label.end());
  const std::string device = AcceleratorIn(label);
  if (device.empty()) return false;
  static const auto* qualifiers = new std::set<std::string>(DataWords("data/reader/hardware.json", "device_qualifiers"));
  const std::string name = Lower(device);
  std::vector<std::string> words;
  for (std::string w : Words(label)) {
    while (!w.empty() && std::string("(),").find(w.back()) != std::string::npos) w.pop_back();
    while (!w.empty() && std::string("(),").find(w.front()) != std::string::npos) w.erase(0, 1);
    if (!w.empty()) words.push_back(Lower(w));
  }
  if (words.empty() || words.size() > 4) return false;
  return std::all_of(words.begin(), words.end(), [&](const std::string& w) {
    return name.find(w) != std::string::npos || qualifiers->count(w) > 0 ||
           std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  });
}

// The label of a line written `LABEL: figures` or `LABEL — figures` (a
// list item's or a paragraph's line), else "".
std::string LineLabel(const std::string& line) {
  size_t cut = std::string::npos;
  for (const char* mark : {":", " \xE2\x80\x94 ", " \xE2\x80\x93 ", " - "}) cut = std::min(cut, line.find(mark));
  return cut == std::string::npos ? "" : line.substr(0, cut);
}

// Whether a metric is a device's rating by its kind: bandwidth, compute or
// memory.
bool RatingMetric(const std::string& m) {
  auto ends = [&](const std::string& tail) { return m.size() >= tail.size() && m.compare(m.size() - tail.size(), tail.size(), tail) == 0; };
  return ends("tflops") || ends("gb_per_s") || ends("memory_mib") || m == "gb" || m == "gib" || m == "mib" || m == "tb";
}

bool MeasuringWord(const std::string& text) {
  const auto& verbs = ReaderLexicon().measured_verbs;
  for (const auto& w : Words(Lower(text)))
    if (verbs.count(w)) return true;
  return false;
}

// The text of line `line` of the entry's paragraphs and list items, with
// whether it is found.
bool LineText(const Entry& entry, int line, std::string* text) {
  std::function<bool(const Bullet&)> walk = [&](const Bullet& b) {
    if (b.line == line) return *text = b.text, true;
    return std::any_of(b.children.begin(), b.children.end(), walk);
  };
  if (std::any_of(entry.notes.begin(), entry.notes.end(), walk)) return true;
  for (const auto& f : entry.fields)
    if (walk(f.bullet)) return true;
  for (const auto& p : entry.paragraphs) {
    if (line < p.line || line > p.end_line) continue;
    const size_t k = static_cast<size_t>(line - p.line);
    const size_t b = k == 0 ? 0 : (k - 1 < p.line_starts.size() ? p.line_starts[k - 1] : p.text.size());
    const size_t e = k < p.line_starts.size() ? p.line_starts[k] : p.text.size();
    *text = p.text.substr(b, e - b);
    return true;
  }
  return false;
}

// Why a line of prose states a device's ratings ("The H100 SXM has 3.35
// TB/s of HBM3 bandwidth", "the A100 offers 2.0 TB/s": a device's name and
// a verb of having, spec_verbs of hardware.json), else "".
std::string SpecSentence(const std::string& text) {
  static const auto* verbs = new std::set<std::string>(DataWords("data/reader/hardware.json", "spec_verbs"));
  const std::string device = AcceleratorIn(text);
  if (device.empty()) return "";
  for (const auto& w : Words(Lower(text)))
    if (verbs->count(w))
      return "a device's ratings stated in prose (\"" + device + " ... " + w + "\", in a part that runs nothing), not a run";
  // "the RTX 5090's 32GB leaves room": the device's own, as a verb of having says.
  for (const char* mark : {"'s ", "\xE2\x80\x99s "})
    if (text.find(device + mark) != std::string::npos)
      return "a device's ratings stated in prose (\"" + device + "'s\", in a part that runs nothing), not a run";
  return "";
}

// Whether a header names a column that compares a table's devices (ratio_headers).
bool RatioHeader(const std::string& h) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/hardware.json", "ratio_headers"));
  std::string w = Lower(Trim(h));
  w.erase(std::remove_if(w.begin(), w.end(), [](char c) { return c == '*' || c == '_' || c == '`'; }), w.end());
  return words->count(w) > 0;
}

// Whether a table's columns after the first are devices, one at least, and
// columns that compare them ("| spec | B200 SXM | B300 SXM | ratio |").
bool DeviceColumns(const TableBlock& t) {
  if (t.header.size() < 2) return false;
  bool device = false;
  for (size_t c = 1; c < t.header.size(); ++c) {
    if (DeviceLabel(t.header[c])) device = true;
    else if (!RatioHeader(t.header[c])) return false;
  }
  return device;
}

// Whether a table is a datasheet by its headers: its first names specs
// ("spec", spec_headers) and the others are devices and their ratios.
bool SpecTable(const TableBlock& t) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/hardware.json", "spec_headers"));
  return !t.header.empty() && words->count(Lower(Trim(t.header[0]))) > 0 && DeviceColumns(t);
}

// Why the figure on `line` is a device's datasheet figure, else "".
std::string DatasheetWhy(const Entry& entry, int line) {
  for (const auto& t : entry.tables) {
    if (line < t.line || line > t.end_line) continue;
    const int row = line - t.line - 2;
    if (row < 0 || row >= static_cast<int>(t.rows.size()) || t.rows[row].empty()) return "";
    std::string header;
    for (const auto& h : t.header) header += h + " ";
    if (MeasuringWord(header)) return "";
    if (DeviceLabel(t.rows[row][0]))
      return "a device's datasheet figures (a table's row labelled only by the device, \"" + Trim(t.rows[row][0]) +
             "\", in a part that runs nothing), not a run";
    // "| | A100 | H100 |" over "| HBM bandwidth | 2.0 TB/s | 3.35 TB/s |": a column a device.
    if (!DeviceColumns(t)) return "";
    return "a device's datasheet figures (a table whose columns are devices only, \"" + Trim(t.header[1]) +
           "\" ..., in a part that runs nothing), not a run";
  }
  std::string text;
  if (!LineText(entry, line, &text) || MeasuringWord(text)) return "";
  std::string label = LineLabel(text);
  if (label.empty() || !DeviceLabel(label)) {
    // "GPU: RTX 4090, 1008 GB/s": the device named before the figures, past a field's name.
    size_t cut = std::string::npos;
    for (const char* mark : {",", " (", " \xE2\x80\x94 ", " \xE2\x80\x93 "}) cut = std::min(cut, text.find(mark));
    label = cut == std::string::npos ? "" : text.substr(0, cut);
    label.erase(std::remove(label.begin(), label.end(), ':'), label.end());
    if (label.empty() || !DeviceLabel(label)) return SpecSentence(text);
  }
  return "a device's datasheet figures (a line labelled only by the device, \"" + Trim(label) +
         "\", in a part that runs nothing), not a run";
}

// Whether the part of the entry holding `line` (from the sub-heading above
// it to the next) runs a command or prints an output.
bool PartRuns(const Entry& entry, int line) {
  int first = entry.heading_line, last = entry.end_line;
  for (const auto& h : entry.subheadings) {
    if (h.line <= line) first = h.line;
    else last = std::min(last, h.line - 1);
  }
  auto inside = [&](int l) { return first <= l && l <= last; };
  return std::any_of(entry.commands.begin(), entry.commands.end(), [&](const CommandText& c) { return inside(c.line); }) ||
         std::any_of(entry.outputs.begin(), entry.outputs.end(), [&](const FencedBlock& o) { return inside(o.line); });
}

// The numbers written in the cells of the entry's datasheet tables (a
// table headed as one, or one whose columns are devices) in the part that
// holds `line` (from the sub-heading above it to the next).
std::vector<double> DatasheetNumbers(const Entry& entry, int line) {
  int first = entry.heading_line, last = entry.end_line;
  for (const auto& h : entry.subheadings) {
    if (h.line <= line) first = h.line;
    else last = std::min(last, h.line - 1);
  }
  std::vector<double> out;
  for (const auto& t : entry.tables) {
    if (t.line < first || t.line > last || !(SpecTable(t) || DeviceColumns(t))) continue;
    for (const auto& row : t.rows)
      for (const auto& cell : row)
        for (size_t i = 0; i < cell.size();) {
          if (!std::isdigit(static_cast<unsigned char>(cell[i]))) { ++i; continue; }
          std::string digits;
          for (; i < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[i])) || cell[i] == '.' || cell[i] == ','); ++i)
            if (cell[i] != ',') digits += cell[i];
          out.push_back(std::atof(digits.c_str()));
        }
  }
  return out;
}

// Why a figure of prose repeats the datasheet of its part ("288 vs 180GiB
// (1.6x)" under the table that rates both devices): each of its own
// figures is a number of the table's cells, as written; else "".
std::string RepeatsDatasheet(const Entry& entry, const RecordedFigure& f) {
  std::string text;
  if (f.table || !LineText(entry, f.line, &text) || MeasuringWord(text)) return "";
  const std::vector<double> cells = DatasheetNumbers(entry, f.line);
  if (cells.empty()) return "";
  bool any = false;
  for (const auto& [metric, value] : f.run.metrics) {
    if (f.run.derived.count(metric)) continue;
    const WrittenValue w = WrittenOf(f.run, metric);
    const double shown = FromStored(w.value, w.factor);
    if (std::none_of(cells.begin(), cells.end(), [&](double c) { return std::fabs(c - shown) <= 1e-9 * std::max(1.0, c); }))
      return "";
    any = true;
  }
  return any ? "restates the datasheet table of its part (a device's ratings), not a run" : "";
}

// The lines of the entry's figures that sit in a part headed by a device's
// name alone ("## [0] `NVIDIA GeForce RTX 3080`", as a tool prints a
// device's properties) whose figures, three lines at least, are all
// ratings (memory, bandwidth, compute) and which runs nothing: the
// device's datasheet.
std::set<int> DevicePropertyLines(const Entry& entry, const std::vector<RecordedFigure>& figs) {
  std::map<int, std::pair<std::set<int>, bool>> parts;  // part's first line -> its figures' lines, all ratings
  for (const auto& f : figs) {
    int first = entry.heading_line;
    std::string heading = entry.heading;
    for (const auto& h : entry.subheadings)
      if (h.line <= f.line) first = h.line, heading = h.text;
    // "[0] `NVIDIA GeForce RTX 3080`": the device's index before its name.
    if (heading.size() > 2 && heading[0] == '[' && heading.find(']') != std::string::npos)
      heading = heading.substr(heading.find(']') + 1);
    auto& [lines, ratings] = parts.try_emplace(first, std::set<int>{}, DeviceLabel(heading)).first->second;
    lines.insert(f.line);
    ratings = ratings && !f.table && !f.run.metrics.empty() &&
              std::all_of(f.run.metrics.begin(), f.run.metrics.end(), [](const auto& m) { return RatingMetric(m.first); });
  }
  std::set<int> out;
  for (const auto& [first, part] : parts)
    if (part.second && part.first.size() >= 3 && !PartRuns(entry, first)) out.insert(part.first.begin(), part.first.end());
  return out;
}

}  // namespace

void DropDatasheet(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  std::set<int> measured;  // lines with a figure of another kind ("| H100 | 2.9 TB/s | 1.2 ms |"): a run's
  std::set<int> spec_rows;  // rows of a table headed as a datasheet ("| spec | B200 | B300 |"): any unit
  for (const auto& t : entry.tables)
    if (SpecTable(t))
      for (int l = t.line; l <= t.end_line; ++l) spec_rows.insert(l);
  for (const auto& f : *out)
    if (!spec_rows.count(f.line) && (f.run.metrics.empty() || !std::all_of(f.run.metrics.begin(), f.run.metrics.end(),
                                                                         [](const auto& m) { return RatingMetric(m.first); })))
      measured.insert(f.line);
  const std::set<int> properties = DevicePropertyLines(entry, *out);
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    std::string why = !measured.count(f.line) && !PartRuns(entry, f.line) ? DatasheetWhy(entry, f.line) : "";
    if (why.empty() && properties.count(f.line))
      why = "a device's properties (a list of its ratings under a heading that names the device alone), not a run";
    if (why.empty() && !PartRuns(entry, f.line)) why = RepeatsDatasheet(entry, f);
    if (why.empty()) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text, why});
    }
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
