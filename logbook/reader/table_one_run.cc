// Reader stage table: the figures of one run written on lines of their own
// ("- throughput: 41.2 tok/s" / "- TTFT: 182 ms" / "- peak mem: 12.1 GB"
// under one command; "Decode came to 88 tok/s." / "First token after 310
// ms." in one paragraph) are one row when nothing tells their runs apart:
// consecutive lines of prose or of one list, the same configuration (no
// key, label or variant of a line's own), no metric twice. Lines that each
// name a configuration ("- bs=8: 1.2 ms", "- bs=16: 2.1 ms") stay rows.

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

namespace {

// The last line a figure set covers (its own and the lines joined to it).
int LastLine(const RecordedFigure& f) {
  int last = f.line;
  for (int l : f.joined_lines) last = std::max(last, l);
  return last;
}

// Whether line `line` of `e` is written by the author in prose or a list:
// not in a table, nor in a program's printed output (its lines are each a
// line the program printed, runs of their own or not).
bool WrittenLine(const Entry& e, int line) {
  for (const auto& o : e.outputs)
    if (line >= o.line && line <= o.end_line) return false;
  for (const auto& t : e.tables)
    if (line >= t.line && line <= t.end_line) return false;
  return true;
}

// Whether a line's figure is taken at a point of a run ("val loss 5.19 at
// step 500", "after epoch 2"): a point of its own, not the run's record
// (point_words of data/reader/table.json after "at", "after" or "@").
bool AtAPoint(const std::string& text) {
  static const std::set<std::string> points = DataWords("data/reader/table.json", "point_words");
  std::string prev;
  for (std::string w : Words(text)) {
    w.erase(std::remove_if(w.begin(), w.end(), [](char c) { return c == '`' || c == '*' || c == ','; }), w.end());
    w = Lower(w);
    if ((prev == "at" || prev == "after" || prev == "@") && points.count(w)) return true;
    prev = w;
  }
  return false;
}


// Whether `next` is written right below `row` and says nothing that sets its
// run apart from the row's: same keys, no measured metric the row holds
// (unless `metric_twice`).
bool SameRunBelow(const Entry& e, const RecordedFigure& row, const RecordedFigure& next, bool metric_twice = false) {
  if (row.table || next.table || row.refers != next.refers) return false;
  if (!WrittenLine(e, row.line) || !WrittenLine(e, next.line)) return false;
  if (row.run.config != next.run.config || next.line <= LastLine(row)) return false;
  // Keys of one record stay one record over its items of no figure ("- `elements`: `677`").
  bool keyed = KeyedLine(row.text) && KeyedLine(next.text);
  if (!keyed && !e.notes.empty()) {
    const std::set<int> lines = RecordKeyList(e.notes);
    keyed = lines.count(row.line) && lines.count(next.line);
  }
  for (int l = LastLine(row) + 1; l < next.line; ++l)
    if (!keyed || next.line - LastLine(row) > 16 || ItemTextAt(e, l).empty()) return false;
  if (!HasBaseMetric(row.run) || !HasBaseMetric(next.run)) return false;
  for (const auto& [m, v] : next.run.metrics)
    if (row.run.metrics.count(m) && !metric_twice) return false;
  return (!RunsApart(row.run, next.run) || keyed) && !AtAPoint(row.text) && !AtAPoint(next.text);
}

// The words of a line's label before the metric's word that ends it, as
// written ("Test build time: 34.29s" -> "Test build", "- Decode time: 12.1
// ms" -> "Decode", "Time: 3 s" -> ""); false when the line has no label of
// a few words ending in a metric's word.
bool LabelQualifier(const std::string& text, std::string* qualifier) {
  std::string t = Trim(text);
  if (t.rfind("- ", 0) == 0 || t.rfind("* ", 0) == 0) t.erase(0, 2);
  const size_t colon = LabelEnd(t);
  if (colon == std::string::npos) return false;
  std::vector<std::string> words;
  for (std::string w : Words(t.substr(0, colon))) {
    w.erase(std::remove_if(w.begin(), w.end(), [](char c) { return c == '*' || c == '`'; }), w.end());
    if (!w.empty()) words.push_back(w);
  }
  if (words.empty() || words.size() > 5 || !MetricWord(Lower(words.back()))) return false;
  words.pop_back();
  qualifier->clear();
  for (const auto& w : words) {
    if (!qualifier->empty()) *qualifier += ' ';
    *qualifier += w;
  }
  return true;
}

// The text of the list item at `line` of `e`, else `text` (a figure set's own).
std::string LineText(const Entry& e, int line, const std::string& text) {
  std::string item = ItemTextAt(e, line);
  return item.empty() ? text : item;
}

// "Build time: 25.63s" over "Test build time: 34.29s": lines of one
// configuration, one metric twice, whose labels tell their runs apart by
// the words before the metric's word: each line's run is named by those
// words (case=Build, case=Test build). False, nothing named, otherwise.
bool NameLabelledRuns(const Entry& e, RecordedFigure* row, RecordedFigure* next) {
  std::string mine, theirs;
  if (row->run.config.count("case") || !SameRunBelow(e, *row, *next, true) ||
      !LabelQualifier(LineText(e, next->line, next->text), &theirs) ||
      !LabelQualifier(LineText(e, row->line, row->text), &mine) || Lower(mine) == Lower(theirs))
    return false;
  if (!mine.empty()) row->run.config["case"] = mine;
  if (!theirs.empty()) next->run.config["case"] = theirs;
  return true;
}

// The row `f` joins past the sides of arrows written on the lines right
// above it ("- Training Time: 8.05 s" / "- Validation Loss: 3.104 → 0.917" /
// "- Perplexity: 14.6": the time and the perplexity are one run, the arrow's
// sides rows of their own), else null.
RecordedFigure* RowPastArrows(const Entry& e, std::vector<RecordedFigure>* kept, const RecordedFigure& f) {
  size_t k = kept->size();
  int above = f.line - 1;
  while (k > 0 && (*kept)[k - 1].run.config.count("arrow") && LastLine((*kept)[k - 1]) == above) {
    const int line = (*kept)[k - 1].line;
    while (k > 0 && (*kept)[k - 1].run.config.count("arrow") && (*kept)[k - 1].line == line) --k;
    above = line - 1;
  }
  if (k == kept->size() || k == 0) return nullptr;
  RecordedFigure moved = f;  // as if written right below the row
  moved.line = LastLine((*kept)[k - 1]) + 1;
  return LastLine((*kept)[k - 1]) == above && SameRunBelow(e, (*kept)[k - 1], moved) ? &(*kept)[k - 1] : nullptr;
}

}  // namespace

bool KeyedLine(const std::string& text) {
  std::string t = Trim(text);
  if (t.rfind("- ", 0) == 0 || t.rfind("* ", 0) == 0) t.erase(0, 2);
  const size_t colon = LabelEnd(t);
  if (colon == std::string::npos) return false;
  std::string key;
  for (char c : Trim(t.substr(0, colon)))
    if (c != '`' && c != '*' && c != ':') key += c;
  if (key.empty() || Words(key).size() != 1 || LabelUnitOf(key).empty()) return false;
  return std::any_of(key.begin(), key.end(), [&](char c) { return c == '_' || std::isupper(static_cast<unsigned char>(c)); }) &&
         std::islower(static_cast<unsigned char>(key[0]));
}

std::set<int> RecordKeyList(const std::vector<Bullet>& notes) {
  std::set<int> out;
  for (size_t i = 0; i < notes.size();) {
    size_t j = i + 1;  // a list: items one line below the last one's end
    while (j < notes.size() && notes[j].line - std::max(notes[j - 1].line, notes[j - 1].end_line) <= 1) ++j;
    int keyed = 0;
    bool plain = true;
    for (size_t k = i; k < j; ++k) {
      keyed += KeyedLine(notes[k].text);
      plain = plain && LabelEnd(notes[k].text) != std::string::npos && Words(notes[k].text).size() <= 4;
    }
    if (keyed >= 2 && plain)
      for (size_t k = i; k < j; ++k) out.insert(notes[k].line);
    i = j;
  }
  return out;
}

bool JoinRun(RecordedFigure* row, const RecordedFigure& from, const std::string& qualifier) {
  StoredRun& to = row->run;
  for (const auto& [m, v] : from.run.metrics)
    if (to.metrics.count(QualifiedMetricName(qualifier, m))) return false;
  for (const auto& [m, v] : from.run.metrics) {
    const std::string n = QualifiedMetricName(qualifier, m);
    to.metrics[n] = v;
    if (auto u = from.run.units.find(m); u != from.run.units.end()) to.units[n] = u->second;
    if (auto d = from.run.decimals.find(m); d != from.run.decimals.end()) to.decimals[n] = d->second;
    if (auto r = from.run.repeats.find(m); r != from.run.repeats.end()) to.repeats[n] = r->second;
    if (from.run.derived.count(m)) to.derived.insert(n);
    if (from.run.approximate.count(m)) to.approximate.insert(n);
  }
  row->joined_lines.push_back(from.line);
  row->written += from.written.empty() ? from.text + "\n" : from.written;
  row->joined_lines.insert(row->joined_lines.end(), from.joined_lines.begin(), from.joined_lines.end());
  return true;
}

void OneRunLines(const Entry& e, std::vector<RecordedFigure>* out) {
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    if (!kept.empty() && SameRunBelow(e, kept.back(), f) && JoinRun(&kept.back(), f)) continue;
    if (!kept.empty()) NameLabelledRuns(e, &kept.back(), &f);
    if (RecordedFigure* row = RowPastArrows(e, &kept, f); row && JoinRun(row, f)) continue;
    kept.push_back(std::move(f));
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
